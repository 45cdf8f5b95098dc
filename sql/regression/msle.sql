{#- MSLE = (1/W) sum w*(ln(1 + y) - ln(1 + p))^2, for y and p above -1: a value at or below -1 fails
    the query (sklearn raises). Reference: sklearn mean_squared_log_error. -#}
{% macro msle(relation, target, prediction, weight=none, by=[]) %}
{%- set loss %}({{ sqlmetrics.msle_log('sm_t') }} - {{ sqlmetrics.msle_log('sm_p') }}) * ({{ sqlmetrics.msle_log('sm_t') }} - {{ sqlmetrics.msle_log('sm_p') }}){% endset %}
SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.fdiv('sm_loss', 'sm_weight') }} AS msle, n
FROM ({{ sqlmetrics.regression_sums(relation, target, prediction, weight, by, loss) }}) AS sm_sums
{% endmacro %}

{#- ln(1 + x) of a target or prediction; x <= -1 fails the query (invalid_value). -#}
{% macro msle_log(x) -%}
{%- set outside %}NOT ({{ x }} > -1){% endset -%}
CASE WHEN {{ x }} > -1 THEN {{ sqlmetrics.log1p(x) }}
     ELSE {{ sqlmetrics.as_double(sqlmetrics.invalid_value('msle takes targets and predictions above -1 (it takes the log of 1 + value)', x, outside)) }} END
{%- endmacro %}
