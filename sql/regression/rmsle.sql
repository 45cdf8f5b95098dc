{#- RMSLE = sqrt(MSLE). Reference: sklearn root_mean_squared_log_error. -#}
{% macro rmsle(relation, target, prediction, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} SQRT(msle) AS rmsle, n
FROM ({{ sqlmetrics.msle(relation, target, prediction, weight, by) }}) AS sm_msle
{% endmacro %}
