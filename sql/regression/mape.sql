{#- MAPE = (1/W) sum w*|y - p| / max(|y|, eps), eps = 2.220446049250313e-16 (the float64 machine
    epsilon, as sklearn: a zero target gives a huge term, not a division by 0). Reference: sklearn
    mean_absolute_percentage_error. -#}
{% macro mape(relation, target, prediction, weight=none, by=[]) %}
{%- set eps = sqlmetrics.as_double('2.220446049250313e-16') %}
{%- set ratio = sqlmetrics.fdiv('ABS(sm_t - sm_p)', 'CASE WHEN ABS(sm_t) > ' ~ eps ~ ' THEN ABS(sm_t) ELSE ' ~ eps ~ ' END') %}
SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.fdiv('sm_loss', 'sm_weight') }} AS mape, n
FROM ({{ sqlmetrics.regression_sums(relation, target, prediction, weight, by, ratio) }}) AS sm_sums
{% endmacro %}
