{#- MSE = (1/W) sum w*(y - p)^2. Reference: sklearn mean_squared_error. -#}
{% macro mse(relation, target, prediction, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} sm_loss / NULLIF(sm_weight, 0) AS mse, n
FROM ({{ sqlmetrics.regression_sums(relation, target, prediction, weight, by, '(sm_t - sm_p) * (sm_t - sm_p)') }}) AS sm_sums
{% endmacro %}
