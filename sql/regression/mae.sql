{#- MAE = (1/W) sum w*|y - p|. Reference: sklearn mean_absolute_error. -#}
{% macro mae(relation, target, prediction, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} sm_loss / NULLIF(sm_weight, 0) AS mae, n
FROM ({{ sqlmetrics.regression_sums(relation, target, prediction, weight, by, 'ABS(sm_t - sm_p)') }}) AS sm_sums
{% endmacro %}
