{#- RMSE = sqrt(MSE). Reference: sklearn root_mean_squared_error. -#}
{% macro rmse(relation, target, prediction, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} SQRT(mse) AS rmse, n
FROM ({{ sqlmetrics.mse(relation, target, prediction, weight, by) }}) AS sm_mse
{% endmacro %}
