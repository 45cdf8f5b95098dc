"""``sm.bootstrap``: a confidence interval for a metric by the Poisson bootstrap, run by the engine
(sql/bootstrap.sql). The metric's own checks, plan and engines apply: the bootstrap is the metric
with replicate weights, as a metric of its own (registry.bootstrap_of)."""
from __future__ import annotations

import math
import warnings

import pandas as pd

from .api import compute
from .errors import UndefinedMetricError
from .registry import bootstrap_of

#: the share of replicates that must give a value for an interval. A replicate without one (a resample
#: without a positive label, say) is dropped, and the rest are resamples that kept what the metric
#: needs: beyond a small loss they describe other data than the sample (1 positive in 10 rows: 37%
#: of the replicates lose it, and those that keep it can put the interval at [1, 1])
MIN_DEFINED = 0.9


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
        ci_low, ci_high (percentile interval, numpy's linear interpolation), n_boot (replicates that
        gave a value) and n_undefined (those that did not: a resample that lost what the metric
        needs, such as every positive label); with ``by=`` a DataFrame with a row per slice. Some
        replicates without a value are said in a warning; when more than 10% have none, the
        remaining ones describe other data than the sample, and the interval is refused
        (UndefinedMetricError; NaN std_error and interval in a slice, with a warning).

    >>> import pandas as pd, sqlmetrics as sm
    >>> df = pd.DataFrame({'y': [0, 1] * 50, 's': [i % 7 / 7 + (i % 2) / 3 for i in range(100)]})
    >>> r = sm.bootstrap('auc', df, label='y', score='s', n_boot=200)
    >>> round(r['estimate'], 4), r['n_boot'], r['ci_low'] < r['estimate'] < r['ci_high']
    (0.7956, 200, True)
    """
    m, params = bootstrap_of(metric, dict(params, cluster=cluster))
    result = compute(m, data, con=con, dialect=dialect, details=details, dropna=dropna, n_boot=n_boot,
                     confidence=confidence, seed=seed, **params)
    return _honest(result, metric, m.undefined)


def _honest(result, metric: str, undefined: str):
    """The interval where enough replicates gave a value (MIN_DEFINED), said when some did not."""
    frame = result if isinstance(result, pd.DataFrame) else pd.DataFrame([result])
    requested = frame["n_boot"] + frame["n_undefined"]
    refused = frame["n_undefined"] > (1 - MIN_DEFINED) * requested
    why = f"a resample can lose what {metric} needs ({undefined})"
    if not isinstance(result, pd.DataFrame) and refused.iloc[0]:
        raise UndefinedMetricError(f"bootstrap of {metric}: {result['n_undefined']} of {int(requested.iloc[0])} replicates "
                                   f"gave no value, as {why}; the others describe other data than the sample, so no "
                                   f"interval is given (it needs {MIN_DEFINED:.0%} of the replicates): use more rows, "
                                   "or a cluster column whose units each hold less of the data")
    missing = frame["n_undefined"] > 0
    if missing.any():
        keys = [c for c in frame.columns if c not in ("estimate", "std_error", "ci_low", "ci_high", "n_boot",
                                                      "n_undefined")]
        counts = [(", ".join(f"{k}={row[k]!r}" for k in keys) + ": " if keys else "")
                  + f"{int(row.n_undefined)} of {int(row.n_boot + row.n_undefined)}" for _, row in frame[missing].iterrows()]
        shown = "; ".join(counts[:5]) + ("; ..." if len(counts) > 5 else "")
        dropped = f"; no interval where more than {1 - MIN_DEFINED:.0%} of them have none" if refused.any() else ""
        warnings.warn(f"bootstrap of {metric}: replicates without a value left out ({shown}), as {why}{dropped}",
                      stacklevel=3)
    if isinstance(result, pd.DataFrame):
        result.loc[refused, ["std_error", "ci_low", "ci_high"]] = math.nan
    return result
