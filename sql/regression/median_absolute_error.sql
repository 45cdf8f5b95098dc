{#- Median absolute error: the weighted median of |y - p| (weighted_median: as sklearn, numpy.median
    unweighted, the averaged inverted CDF weighted). Reference: sklearn median_absolute_error. -#}
{% macro median_absolute_error(relation, target, prediction, weight=none, by=[], plan=none) %}
{%- set errors %}
SELECT {{ sqlmetrics.cols(by) }} ABS(sm_t - sm_p) AS sm_v, sm_w
FROM ({{ sqlmetrics.regression_rows(relation, target, prediction, weight, by) }}) AS sm_rows
{%- endset %}
WITH {{ sqlmetrics.weighted_median('sm_error_median', errors, by, plan or sqlmetrics.default_plan()) }}
SELECT {{ sqlmetrics.cols(by) }} sm_median AS median_absolute_error, sm_n AS n
FROM sm_error_median
{% endmacro %}
