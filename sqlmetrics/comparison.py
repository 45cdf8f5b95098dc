"""``sm.compare``: two systems compared on the same queries (or groups) by a paired test, run by the
engine (sql/compare.sql). The metric's own checks and engines apply: the comparison is a metric
of its own (registry.compare_of)."""
from __future__ import annotations

from .api import compute
from .registry import compare_of


def compare(metric: str, data, other, qrels=None, *, test: str = "paired_t", n_resamples: int = 10000,
            seed: int = 0, confidence: float = 0.95, con=None, dialect=None, details: bool = False,
            dropna: bool = False, **params):
    """Is `data` better than `other` by `metric`? A paired test over the queries (or groups).

    For a ranking metric, `data` and `other` are two runs of the same queries, judged by the same
    `qrels` (or each carrying the relevance): each query's value under both runs, over the queries
    both count. For ``gauc``, `other` names a second score column of `data`: each group's AUC under
    both scores, weighted as the GAUC weighs the group. The difference is data minus other.

    Parameters
        metric: a ranking metric (``ndcg``, ``map``, ``precision_at_k``, ...) or ``gauc``; its
            parameters follow as keywords (``k=10``, ``label=``, ``group=``, ...).
        data, other: the candidate and the baseline (two runs; for gauc, `other` is a column name).
        qrels: the judgments of both runs (ranking metrics).
        test: ``"paired_t"`` (default; Student's t on the differences, as scipy.stats.ttest_rel),
            ``"wilcoxon"`` (signed ranks, as scipy.stats.wilcoxon: exact for up to 50 units without
            ties or zero differences, or up to 13 with them; else the normal approximation with the
            tie correction) or ``"randomization"`` (Fisher's sign flips, `n_resamples` of them,
            drawn from `seed` by arithmetic in the SQL: the same call, the same p-value).
        confidence: coverage of the interval of the difference (Student's t, for every test).
        con, dialect, details, dropna: as for the metric.

    Returns
        dict of estimate and other_estimate (the metric of each, on the paired units), difference,
        std_error, statistic (t; min(R+, R-) for wilcoxon; the difference for randomization),
        p_value (two-sided), ci_low, ci_high and n_units; with ``by=`` a DataFrame with a row per
        slice and p_value_holm (Holm's adjustment across the slices).

    >>> import pandas as pd, sqlmetrics as sm
    >>> qrels = pd.DataFrame({'query': [q for q in range(8) for _ in range(2)], 'item': ['a', 'b'] * 8,
    ...                       'relevance': [1, 0] * 8})
    >>> a = pd.DataFrame({'query': qrels['query'], 'item': qrels['item'], 'score': [2, 1] * 8})
    >>> b = a.assign(score=[1, 2] * 5 + [2, 1] * 3)
    >>> r = sm.compare('mrr', a, b, qrels)
    >>> r['difference'], r['n_units'], round(r['p_value'], 4)
    (0.3125, 8, 0.0112)
    """
    m, params = compare_of(metric, dict(params, test=test))
    if qrels is not None:
        params["qrels"] = qrels
    return compute(m, data, other=other, con=con, dialect=dialect, details=details, dropna=dropna,
                   n_resamples=n_resamples, seed=seed, confidence=confidence, **params)
