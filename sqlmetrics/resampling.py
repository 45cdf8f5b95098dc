"""``sm.bootstrap``: a confidence interval for a metric by the Poisson bootstrap, run by the engine
(sql/bootstrap.sql). The metric's own checks, plan and engines apply: the bootstrap is the metric
with replicate weights, as a metric of its own (registry.bootstrap_of)."""
from __future__ import annotations

import math
import warnings

import pandas as pd

from .api import compute_metric
from .engine import own_connection
from .errors import UndefinedMetricError
from .registry import bootstrap_of
from .sqltext import finish
from .target import Target
from .templates import render_macro

#: the share of replicates that must give a value for an interval. A replicate without one (a resample
#: without a positive label, say) is dropped, and the rest are resamples that kept what the metric
#: needs: beyond a small loss they describe other data than the sample (1 positive in 10 rows: 37%
#: of the replicates lose it, and those that keep it can put the interval at [1, 1])
MIN_DEFINED = 0.9
#: a statement of AUC replicates holds ~50 bytes per replicate and key of the rows' order (hash
#: aggregation and running sums; sql/bootstrap.sql auc_replicates), next to ~160 bytes per row for
#: that order: as many replicates as keep the former below KEYS_PER_ROW times the rows (1M rows of 5%
#: positives have 91,000 keys: 40 replicates; balanced classes of distinct scores, 0.43 keys per row: 8)
KEYS_PER_ROW = 4
#: replicates per statement of the other metrics over rows (one that sorts its rows sorts 32 copies)
ROWS_BATCH = 32
#: the outputs that the replicates give (the rest are the metric on the data, and counts)
_RESAMPLED = ("std_error", "statistic", "p_value", "ci_low", "ci_high")

def bootstrap(metric: str, data, *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0, cluster=None,
              con=None, dialect=None, details: bool = False, dropna: bool = False, **params):
    """A confidence interval for `metric` on `data` by the Poisson bootstrap, computed by the engine.

    In replicate b each resampling unit weighs k ~ Poisson(1), drawn from the unit, b and `seed` by
    arithmetic in the SQL (no random state: the same call gives the same interval on one engine).
    The unit is the row, or the `cluster` column's value (rows of one user resample together), for
    ``gauc`` its group and for a ranking metric the query: the metric runs once, per group or
    query, and each replicate reweighs their values. Of a long table of class scores
    (``multiclass_auc``, ``top_k_accuracy``, ``multiclass_log_loss``) the unit is the example
    within its slice, every row of which takes its draw (with `cluster`, a cluster of whole
    examples: one split between clusters is an error). ``auc`` sorts the rows once for all
    replicates; any other metric runs over each replicate's rows, as a slice of its own. On a
    single machine the replicates over rows run in batches, so that memory does not grow with
    n_boot.

    Parameters
        metric: the name of a ranking metric (``ndcg``, ``map``, ``recall_at_k``, ...) or of a metric
            of one value with a ``weight`` parameter (``auc``, ``gauc``, ``log_loss``, ``precision``,
            ``r2``, ``multiclass_auc``, ...); its parameters follow as keywords.
        data, con, dialect, details, dropna: as for the metric.
        n_boot: replicates (default 1000); each costs about a pass over the rows (the queries, groups).
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
    return replicated(m, data, n_boot=n_boot, confidence=confidence, seed=seed, con=con, dialect=dialect,
                      details=details, dropna=dropna, **params)


def replicated(m, data, *, confidence: float, con, dialect, details: bool, dropna: bool, **params):
    """The result of `m`, a metric whose SQL is sql/bootstrap.sql's: sm.bootstrap's (n_boot
    replicates), or compare's paired bootstrap (n_resamples of them, `other` the second column), with
    its replicates in batches where the engine needs them (_in_batches) and those without a value
    said (_honest)."""
    count = "n_boot" if any(p.name == "n_boot" for p in m.params) else "n_resamples"
    n_boot = params.get(count, m.param(count).default)
    metric = m.param("metric").default

    def run(engine, sql):
        return _in_batches(engine, sql, metric, params, n_boot, confidence)
    result = compute_metric(m, data, con=con, dialect=dialect, details=details, dropna=dropna, confidence=confidence,
                     run=run, **params)
    return _honest(result, m, metric)


def _in_batches(engine, sql, metric: str, params: dict, n_boot: int, confidence: float) -> pd.DataFrame:
    """The bootstrap's result. On an engine that holds a statement in memory (Capabilities.in_memory),
    where each replicate reads the rows (sql/bootstrap.sql bootstrap_path 'ranks' or 'rows'), one
    statement of every replicate would need memory in proportion to n_boot: the replicates run in
    batches, a statement each (in the call's one snapshot), and their values' interval (a few
    thousand numbers) is taken in-process by the same SQL (bootstrap_interval). AUC's first batch is
    one row of running sums (bootstrap_width replicates), the next ones as large as KEYS_PER_ROW
    allows for the keys and rows it reports; the other metrics' batches ROWS_BATCH replicates.
    Elsewhere one statement, as for the paths over queries or groups, which hold a few numbers per
    replicate."""
    target = Target(engine.dialect)
    path = render_macro("bootstrap_path", target, metric=metric, cluster=params.get("cluster"), kwargs=params,
                        other=params.get("other"))
    if not engine.capabilities.in_memory or path not in ("ranks", "rows"):
        return engine.execute(sql())
    width = int(render_macro("bootstrap_width", target))
    batches, first, size = [], 0, width if path == "ranks" else ROWS_BATCH
    while first <= n_boot:
        batches.append(engine.execute(sql(replicates=[first, min(first + size - 1, n_boot)])))
        first, size = first + size, _auc_batch(batches[-1], first, width) if path == "ranks" else size
    values = pd.concat(batches, ignore_index=True)
    paired = params.get("other") is not None
    for column in [metric] + (["sm_other_value"] if paired else []):
        values[column] = values[column].astype("Float64")  # NULL as NULL (pd.NA) for DuckDB, not NaN
    by = [params["by"]] if isinstance(params.get("by"), str) else list(params.get("by") or [])
    duckdb = Target("duckdb")
    interval = finish(render_macro("bootstrap_interval", duckdb, replicated="SELECT * FROM sm_batches", metric=metric,
                                   by=by, n_boot=n_boot, confidence=confidence, paired=paired), {}, duckdb)
    con = own_connection()
    try:
        con.register("sm_batches", values)
        return con.execute(interval).df()
    finally:
        con.close()


def _auc_batch(batch: pd.DataFrame, first: int, width: int) -> int:
    """AUC's replicates per statement: as many as KEYS_PER_ROW allows for the rows and keys of the
    slices, which `batch` reports with each replicate (`first`: one of its replicates), in rows of
    `width` replicates."""
    counts = batch[batch["sm_replicate"] == first]  # a row per slice
    return width * max(1, int(KEYS_PER_ROW * counts["sm_rows"].sum()) // (width * max(1, counts["sm_keys"].sum())))


def _honest(result, m, metric: str):
    """The interval (and test) of `m`'s result where enough replicates gave a value (MIN_DEFINED), said
    when some did not."""
    frame = result if isinstance(result, pd.DataFrame) else pd.DataFrame([result])
    requested = frame["n_boot"] + frame["n_undefined"]
    refused = frame["n_undefined"] > (1 - MIN_DEFINED) * requested
    why = f"a resample can lose what {metric} needs ({m.undefined})"
    if not isinstance(result, pd.DataFrame) and refused.iloc[0]:
        raise UndefinedMetricError(f"bootstrap of {metric}: {result['n_undefined']} of {int(requested.iloc[0])} replicates "
                                   f"gave no value, as {why}; the others describe other data than the sample, so no "
                                   f"interval is given (it needs {MIN_DEFINED:.0%} of the replicates): use more rows, "
                                   "or a cluster column whose units each hold less of the data")
    missing = frame["n_undefined"] > 0
    if missing.any():
        keys = [c for c in frame.columns if c not in m.outputs]
        counts = [(", ".join(f"{k}={row[k]!r}" for k in keys) + ": " if keys else "")
                  + f"{int(row.n_undefined)} of {int(row.n_boot + row.n_undefined)}" for _, row in frame[missing].iterrows()]
        shown = "; ".join(counts[:5]) + ("; ..." if len(counts) > 5 else "")
        dropped = f"; no interval where more than {1 - MIN_DEFINED:.0%} of them have none" if refused.any() else ""
        warnings.warn(f"bootstrap of {metric}: replicates without a value left out ({shown}), as {why}{dropped}",
                      stacklevel=3)
    if isinstance(result, pd.DataFrame):
        result.loc[refused, [c for c in m.outputs if c in _RESAMPLED]] = math.nan
    return result
