"""``sm.bootstrap``: a confidence interval for a metric by the Poisson bootstrap, run by the engine
(sql/bootstrap.sql). The metric's own checks, plan and engines apply: the bootstrap is the metric
with replicate weights, as a metric of its own (``bootstrap_of``)."""
from __future__ import annotations

from dataclasses import replace

from .api import compute
from .errors import ParameterError
from .params import CONFIDENCE, Param
from .plans import ParallelWhenDistributed
from .registry import Metric, lookup

N_BOOT = Param("n_boot", "int", "number of bootstrap replicates (each reads every row once more).", default=1000,
               low=2)
SEED = Param("seed", "int", "the seed of the replicate weights: the same seed, the same interval.", default=0, low=0)
CLUSTER = Param("cluster", "column", "resample the rows of each value of this column together (the user, say, "
                "so that correlated impressions stay together) instead of each row on its own.", default=None,
                role="group")
#: GAUC weightings under which a group drawn k times weighs k times as much when its rows weigh k
_GAUC_WEIGHTINGS = ("impressions", "clicks")


def bootstrap_of(m: Metric) -> Metric:
    """The bootstrap of metric `m`, as a record metric rendered by the `bootstrap` macro: over rows
    (or clusters) for a metric with frequency weights, over queries for a ranking metric."""
    if m.per_query:
        extra = (N_BOOT, CONFIDENCE, SEED)
    elif m.kind == "scalar" and any(p.name == "weight" for p in m.params):
        extra = (N_BOOT, CONFIDENCE, SEED, CLUSTER)
    else:
        raise ParameterError(f"bootstrap needs a ranking metric or a metric of one value that takes a weight "
                             f"parameter (the replicates are frequency weights); {m.name} is neither")
    plan = ParallelWhenDistributed(parallel=m.plan.parallel) if m.plan else None
    return replace(
        m, name="bootstrap", template="bootstrap.sql", kind="record",
        params=(Param("metric", "choice", "the metric bootstrapped.", default=m.name, choices=(m.name,)),)
        + m.params + extra,
        outputs=("estimate", "std_error", "ci_low", "ci_high", "n_boot"), defined_by=("estimate",), plan=plan,
        per_query=False, across_slices=())


def bootstrap(metric: str, data, *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0, cluster=None,
              con=None, dialect=None, details: bool = False, dropna: bool = False, **params):
    """A confidence interval for `metric` on `data` by the Poisson bootstrap, computed by the engine.

    In replicate b each resampling unit weighs k ~ Poisson(1), drawn from the unit, b and `seed` by
    arithmetic in the SQL (no random state: the same call gives the same interval on one engine);
    the metric then runs over all replicates at once, each a slice of its own. The unit is the row,
    or the `cluster` column's value (rows of one user resample together), for ``gauc`` its group,
    and for a ranking metric the query (the metric runs once, and each replicate reweighs the
    queries' values).

    Parameters
        metric: the name of a ranking metric (``ndcg``, ``map``, ``recall_at_k``, ...) or of a metric
            of one value with a ``weight`` parameter (``auc``, ``gauc``, ``log_loss``, ``precision``,
            ``r2``, ...); its parameters follow as keywords.
        data, con, dialect, details, dropna: as for the metric.
        n_boot: replicates (default 1000); every replicate reads every row once more.
        confidence: coverage of the percentile interval (default 0.95).
        seed: the replicate weights' seed (default 0).
        cluster: a column whose rows resample together (default: each row on its own; for ``gauc``,
            its ``group``); not for ranking metrics, whose unit is the query.

    Returns
        dict of estimate (the metric on the data), std_error (standard deviation of the replicates),
        ci_low, ci_high (percentile interval, numpy's linear interpolation) and n_boot (replicates that
        gave a value); with ``by=`` a DataFrame with a row per slice.

    >>> import pandas as pd, sqlmetrics as sm
    >>> df = pd.DataFrame({'y': [0, 1] * 50, 's': [i % 7 / 7 + (i % 2) / 3 for i in range(100)]})
    >>> r = sm.bootstrap('auc', df, label='y', score='s', n_boot=200)
    >>> round(r['estimate'], 4), r['n_boot'], r['ci_low'] < r['estimate'] < r['ci_high']
    (0.7956, 200, True)
    """
    m = bootstrap_of(lookup(metric))
    if cluster is not None and not any(p.name == "cluster" for p in m.params):
        raise ParameterError(f"bootstrap of {m.params[0].default} resamples queries: it takes no cluster")
    if m.params[0].default == "gauc":
        weighting = params.get("weighting", "impressions")
        if weighting not in _GAUC_WEIGHTINGS:
            raise ParameterError(f"bootstrap of gauc takes weighting {' or '.join(map(repr, _GAUC_WEIGHTINGS))}, "
                                 f"not {weighting!r}: a group drawn k times must weigh k times as much")
        cluster = cluster or params.get("group")
    if cluster is not None:
        params["cluster"] = cluster
    return compute(m, data, con=con, dialect=dialect, details=details, dropna=dropna, n_boot=n_boot,
                   confidence=confidence, seed=seed, **params)
