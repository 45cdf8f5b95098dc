"""``sm.compare``: two systems compared on the same queries (or groups, or rows) by a paired test,
run by the engine (sql/compare.sql). The metric's own checks and engines apply: the comparison is a
metric of its own (registry.compare_of)."""
from __future__ import annotations

from .api import compute
from .registry import compare_of


def compare(metric: str, data, other, qrels=None, *, test: str | None = None, n_resamples: int | None = None,
            seed: int | None = None, confidence: float = 0.95, con=None, dialect=None, details: bool = False,
            dropna: bool = False, **params):
    """Is `data` better than `other` by `metric`? A paired test over the queries (or groups, or rows).

    For a ranking metric, `data` and `other` are two runs of the same queries, judged by the same
    `qrels` (or each carrying the relevance): each query's value under both runs, over the queries
    both count. For ``gauc``, `other` names a second score column of `data`: each group's AUC under
    both scores, weighted as the GAUC weighs the group. For any other metric of one value that takes
    a weight (``auc``, ``log_loss``, ``precision``, ``mae``, ...), `other` names a second column of
    `data` in place of `score` (or `prediction`, where the call gives that): the metric under both,
    on the same rows. The difference is data minus other, whichever way the metric is better.

    Parameters
        metric: a metric's name or a measure string (``ndcg@10``); its parameters follow as
            keywords (``k=10``, ``label=``, ``group=``, ``cluster=``, ...).
        data, other: the candidate and the baseline (two runs; otherwise `other` is a column name).
        qrels: the judgments of both runs (ranking metrics).
        test: the metric's own when None:
            over queries or groups ``"paired_t"`` (the default; Student's t on the differences, as
            scipy.stats.ttest_rel), ``"wilcoxon"`` (signed ranks, as scipy.stats.wilcoxon: exact for
            up to 50 units without ties or zero differences, or up to 13 with them; else the normal
            approximation with the tie correction) or ``"randomization"`` (Fisher's sign flips,
            `n_resamples` of them, 10,000 by default);
            ``auc`` ``"delong"`` (the default: DeLong's paired test, as sm.auc_compare) or
            ``"bootstrap"``;
            any other metric over rows ``"bootstrap"``: the paired Poisson bootstrap, `n_resamples`
            replicates (1,000 by default) whose weights (as sm.bootstrap's, per row or per
            `cluster` value) serve both columns, so each replicate gives a difference d; std_error
            is their standard deviation, the interval their percentiles, and the p-value two-sided,
            p = min(1, 2 min(1 + #{d <= 0}, 1 + #{d >= 0}) / (1 + B)) over the B replicates with
            a value (the largest level whose percentile interval holds 0, at least 2 / (1 + B)).
            The sign flips and the replicates are drawn from `seed` (0 by default) by arithmetic in
            the SQL: the same call, the same p-value.
        confidence: coverage of the interval of the difference (Student's t over queries or groups,
            the normal quantile for delong, percentiles for bootstrap).
        con, dialect, details, dropna: as for the metric.

    Returns
        dict of estimate and other_estimate (the metric of each, on the paired units), difference,
        std_error, statistic (t; min(R+, R-) for wilcoxon; the difference for randomization; z for
        delong; difference / std_error for bootstrap), p_value (two-sided), ci_low, ci_high and
        n_units (delong: n_pos and n_neg; bootstrap: n_boot and n_undefined, as sm.bootstrap's);
        with ``by=`` a DataFrame with a row per slice and p_value_holm (Holm's adjustment across
        the slices; not for bootstrap).

    >>> import pandas as pd, sqlmetrics as sm
    >>> qrels = pd.DataFrame({'query': [q for q in range(8) for _ in range(2)], 'item': ['a', 'b'] * 8,
    ...                       'relevance': [1, 0] * 8})
    >>> a = pd.DataFrame({'query': qrels['query'], 'item': qrels['item'], 'score': [2, 1] * 8})
    >>> b = a.assign(score=[1, 2] * 5 + [2, 1] * 3)
    >>> r = sm.compare('mrr', a, b, qrels)
    >>> r['difference'], r['n_units'], round(r['p_value'], 4)
    (0.3125, 8, 0.0112)
    """
    given = {k: v for k, v in (("n_resamples", n_resamples), ("seed", seed)) if v is not None}
    m, params = compare_of(metric, dict(params, test=test, **given))
    if qrels is not None:
        params["qrels"] = qrels
    if params.get("test") == "bootstrap":
        from .resampling import replicated  # pandas, which the other tests' one row does not need
        return replicated(m, data, other=other, con=con, dialect=dialect, details=details, dropna=dropna,
                          confidence=confidence, **params)
    return compute(m, data, other=other, con=con, dialect=dialect, details=details, dropna=dropna,
                   confidence=confidence, **params)
