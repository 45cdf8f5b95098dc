"""``sm.compare``: two systems compared on the same queries (or groups, or rows) by a paired test,
run by the engine (sql/compare.sql). The metric's own checks and engines apply: the comparison is a
metric of its own (registry.compare_of). With ``runs=``, several systems on several measures
(sqlmetrics.systems)."""
from __future__ import annotations

from .api import compute_metric
from .errors import ParameterError
from .registry import compare_of
from .systems import compare_runs


def compare(metric=None, data=None, other=None, qrels=None, *, runs: dict | None = None, test: str | None = None,
            n_resamples: int | None = None, seed: int | None = None, confidence: float = 0.95, con=None, dialect=None,
            details: bool = False, dropna: bool = False, **params):
    """Is `data` better than `other` by `metric`? A paired test over the queries (or groups, or rows).
    With `runs`, several systems on several measures at once (below).

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
            replicates (1,000 by default) whose weights (as sm.bootstrap's, per row, per example of
            a long table of class scores, or per `cluster` value) serve both columns, so each
            replicate gives a difference d; std_error
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
        the slices; not for bootstrap); over queries or groups, n_wins, n_ties and n_losses count
        the units where `data` is above, equal to (within 1e-12) and below `other`.

    Several systems: ``compare(metrics, runs={"bm25": r1, "dense": r2, "hybrid": r3}, qrels=...,
    baseline=None, test="paired_t", correction="holm", alpha=0.05)`` (`metrics` also as the first
    argument; a measure string or a list of them, ``["ndcg@10", "map"]``, read as sm.evaluate reads
    them). Each system is compared with `baseline` (a name of `runs`), or with baseline=None every
    pair (the later of `runs` as the system, the earlier as its baseline); each comparison is the
    two-run test above. The p-values of a measure are adjusted together, over its comparisons:
    ``"holm"`` (Holm 1979), ``"bonferroni"`` or None; significant when the adjusted p-value is below
    `alpha`. Returns a DataFrame with a row per comparison and measure: system, baseline, metric,
    estimate, baseline_estimate, difference, statistic, p_value, p_value_adjusted, significant,
    ci_low, ci_high, n_units, n_wins, n_ties, n_losses; sqlmetrics.paper_table writes it as a
    LaTeX or Markdown table.

    >>> import pandas as pd, sqlmetrics as sm
    >>> qrels = pd.DataFrame({'query': [q for q in range(8) for _ in range(2)], 'item': ['a', 'b'] * 8,
    ...                       'relevance': [1, 0] * 8})
    >>> a = pd.DataFrame({'query': qrels['query'], 'item': qrels['item'], 'score': [2, 1] * 8})
    >>> b = a.assign(score=[1, 2] * 5 + [2, 1] * 3)
    >>> r = sm.compare('mrr', a, b, qrels)
    >>> r['difference'], r['n_units'], round(r['p_value'], 4)
    (0.3125, 8, 0.0112)
    """
    if runs is not None:
        if data is not None or other is not None or details:
            raise ParameterError("compare with runs= compares the runs it names: pass no data, other or details")
        measures = params.pop("metrics", None)
        if measures is not None and metric is not None:
            raise ParameterError("give the measures once: as metrics= or as the first argument")
        given = {k: v for k, v in (("test", test), ("n_resamples", n_resamples), ("seed", seed)) if v is not None}
        return compare_runs(compare, metric if measures is None else measures, runs, qrels, confidence=confidence,
                            con=con, dialect=dialect, dropna=dropna, **given, **params)
    if metric is None or data is None or other is None:
        raise ParameterError("compare needs a metric, data and other (two systems), or runs={name: run, ...} "
                             "(several)")
    given = {k: v for k, v in (("n_resamples", n_resamples), ("seed", seed)) if v is not None}
    m, params = compare_of(metric, dict(params, test=test, **given))
    if qrels is not None:
        params["qrels"] = qrels
    if params.get("test") == "bootstrap":
        from .resampling import replicated  # pandas, which the other tests' one row does not need
        return replicated(m, data, other=other, con=con, dialect=dialect, details=details, dropna=dropna,
                          confidence=confidence, **params)
    return compute_metric(m, data, other=other, con=con, dialect=dialect, details=details, dropna=dropna,
                   confidence=confidence, **params)
