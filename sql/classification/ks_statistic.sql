{#- Kolmogorov-Smirnov statistic of the score between positives and negatives, as credit scoring
    reads it: KS = max over thresholds of (tpr - fpr), a row predicted positive iff score >= threshold
    (the largest gap between the score distributions of the negatives and the positives, signed: a
    score that ranks negatives higher has KS 0, not the gap the other way round; the two-sample test's
    two-sided statistic max |tpr - fpr| is the larger of the two). The threshold +inf (nothing
    predicted positive, tpr = fpr = 0) is a point: KS >= 0. threshold, tpr, fpr: the point where the
    maximum is reached (ties: the highest threshold, best_point's). Weighted: tpr and fpr are shares of
    the class weights. NULL in a slice without both classes. -#}
{% macro ks_statistic(relation, label, score, weight=none, by=[], plan=none) %}
WITH {{ sqlmetrics.best_point(relation, label, score, weight, by, plan or sqlmetrics.default_plan(),
                             sqlmetrics.fdiv('tp', 'sm_pos') ~ ' - ' ~ sqlmetrics.fdiv('fp', 'sm_neg')) }}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN sm_top > 0 THEN sm_top WHEN sm_top IS NOT NULL THEN {{ sqlmetrics.as_double(0) }} END AS ks_statistic,
       CASE WHEN sm_top > 0 THEN sm_threshold WHEN sm_top IS NOT NULL THEN {{ sqlmetrics.infinity() }} END AS threshold,
       CASE WHEN sm_top > 0 THEN {{ sqlmetrics.fdiv('sm_tp', 'sm_w_pos') }}
            WHEN sm_top IS NOT NULL THEN {{ sqlmetrics.as_double(0) }} END AS tpr,
       CASE WHEN sm_top > 0 THEN {{ sqlmetrics.fdiv('sm_fp', 'sm_w_neg') }}
            WHEN sm_top IS NOT NULL THEN {{ sqlmetrics.as_double(0) }} END AS fpr,
       sm_n_pos AS n_pos, sm_n - sm_n_pos AS n_neg
FROM sm_best
{% endmacro %}
