{#- Max error = max |y - p| (no weights, as sklearn); NULL without rows (ClickHouse's MAX of no
    rows is 0). Reference: sklearn max_error. -#}
{% macro max_error(relation, target, prediction, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} CASE WHEN COUNT(*) > 0 THEN MAX(ABS(sm_t - sm_p)) END AS max_error, COUNT(*) AS n
FROM ({{ sqlmetrics.regression_rows(relation, target, prediction, none, by) }}) AS sm_rows
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
