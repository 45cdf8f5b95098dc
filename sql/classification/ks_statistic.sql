{#- Kolmogorov-Smirnov statistic of the score between positives and negatives, as credit scoring
    reads it: KS = max over thresholds of (tpr - fpr), a row predicted positive iff score >= threshold
    (the largest gap between the score distributions of the negatives and the positives, signed: a
    score that ranks negatives higher has KS 0, not the gap the other way round; the two-sample test's
    two-sided statistic max |tpr - fpr| is the larger of the two). The threshold +inf (nothing
    predicted positive, tpr = fpr = 0) is a point: KS >= 0. threshold, tpr, fpr: the point where the
    maximum is reached (ties: the highest threshold), as best_threshold(criterion='youden') finds it.
    Weighted: tpr and fpr are shares of the class weights. NULL in a slice without both classes. -#}
{% macro ks_statistic(relation, label, score, weight=none, by=[], plan=none) %}
SELECT {{ sqlmetrics.cols(by) }} best_value AS ks_statistic, threshold, recall AS tpr, fpr, n_pos, n_neg
FROM ({{ sqlmetrics.best_threshold(relation, label, score, weight, 'youden', 1.0, by, plan) }}) AS sm_youden
{% endmacro %}
