"""``sm.bootstrap``: a confidence interval for a metric by the Poisson bootstrap, run by the engine
(sql/bootstrap.sql). The metric's own checks, plan and engines apply: the bootstrap is the metric
with replicate weights, as a metric of its own (registry.bootstrap_of)."""
from __future__ import annotations

from .api import compute
from .registry import bootstrap_of


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
    m, params = bootstrap_of(metric, dict(params, cluster=cluster))
    return compute(m, data, con=con, dialect=dialect, details=details, dropna=dropna, n_boot=n_boot,
                   confidence=confidence, seed=seed, **params)
