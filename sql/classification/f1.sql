{#- F1 = 2*tp / (2*tp + fn + fp), i.e. F_beta with beta = 1. -#}
{% macro f1(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} f_beta AS f1, tp, fp, tn, fn, n
FROM ({{ sqlmetrics.f_beta(relation, label, score, threshold, prediction, weight, by, beta=1.0) }}) AS sm_f
{% endmacro %}
