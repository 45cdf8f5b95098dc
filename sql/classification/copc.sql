{#- COPC = sum w*y / sum w*p: clicks over predicted clicks (observed over expected; 1.0 = calibrated,
    below 1 over-predicts), the reciprocal of calibration. NULL when sum w*p = 0. -#}
{% macro copc(relation, label, score, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.fdiv('sm_pos_weight', 'sm_loss') }} AS copc, n, n_pos, n_neg
FROM ({{ sqlmetrics.probability_sums(relation, label, score, weight, by, 'sm_p') }}) AS sm_sums
{% endmacro %}
