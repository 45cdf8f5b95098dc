{#- D^2 absolute error = 1 - sum w*|y - p| / sum w*|y - median_w(y)|: the share of the absolute
    deviation about the slice's weighted median of the target (weighted_median, as sklearn) that the
    predictions remove. As sklearn (d2_pinball_score with alpha=0.5, force_finite): 1.0 when every
    row of positive weight is predicted exactly, else 0.0 for a constant target; NULL below two rows.
    The median is joined to the slice's rows (no window over a whole slice on any plan); the parallel
    plan joins it by (slice, sm_part of the row): regression_parts.
    Reference: sklearn d2_absolute_error_score. -#}
{% macro d2_absolute_error(relation, target, prediction, weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set key = sqlmetrics.spread_key(by, plan, 'sm_part') %}
{%- set rows = sqlmetrics.regression_rows(relation, target, prediction, weight, by) %}
{%- set parted = sqlmetrics.regression_parts(rows, key) %}
{%- set targets %}
SELECT {{ sqlmetrics.cols(by) }} sm_t AS sm_v, sm_w FROM ({{ rows }}) AS sm_rows
{%- endset %}
WITH {{ sqlmetrics.weighted_median('sm_target_median', targets, by, plan) }}
{{- sqlmetrics.spread_cte('sm_target_median', '(' ~ parted ~ ')', by, key) }}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN n < 2 OR NOT sm_weight > 0 THEN NULL
            WHEN sm_loss = 0 THEN 1.0
            WHEN sm_spread = 0 THEN 0.0
            ELSE 1 - {{ sqlmetrics.fdiv('sm_loss', 'sm_spread') }} END AS d2_absolute_error,
       n
FROM (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_rows') }}
         SUM(sm_rows.sm_w * ABS(sm_rows.sm_t - sm_rows.sm_p)) AS sm_loss,
         SUM(sm_rows.sm_w * ABS(sm_rows.sm_t - sm_target_median.sm_median)) AS sm_spread,
         SUM(sm_rows.sm_w) AS sm_weight,
         COUNT(*) AS n
  FROM ({{ parted }}) AS sm_rows
  {{ sqlmetrics.join_slices('sm_rows', 'sm_target_median', by, key) }}
  {% if by %}GROUP BY {{ sqlmetrics.col_list_of(by, 'sm_rows') }}{% endif %}
) AS sm_sums
{% endmacro %}
