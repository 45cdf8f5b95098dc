{#- Calibration = sum w*p / sum w*y: predicted over observed positives; NULL without positives. -#}
{% macro calibration(relation, label, score, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} sm_loss / NULLIF(sm_pos_weight, 0) AS calibration, n, n_pos, n_neg
FROM ({{ sqlmetrics.probability_sums(relation, label, score, weight, by, 'sm_p') }}) AS sm_sums
{% endmacro %}
