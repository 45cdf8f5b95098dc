{#- Explained variance = 1 - Var_w(y - p) / Var_w(y), both about their weighted means (two passes:
    the slice's means joined to its rows, no window over a whole slice). As sklearn (force_finite):
    1.0 when y - p is constant (a perfect prediction up to a shift; so also for one row), else 0.0
    for a constant target; both tested exactly on the rows of positive weight, as a computed variance
    of a constant may be a rounding residue. The parallel plan joins the means by (slice, sm_part of
    the row): regression_parts. Reference: sklearn explained_variance_score. -#}
{% macro explained_variance(relation, target, prediction, weight=none, by=[], plan=none) %}
{%- set key = sqlmetrics.spread_key(by, plan or sqlmetrics.default_plan(), 'sm_part') %}
{%- set rows = sqlmetrics.regression_rows(relation, target, prediction, weight, by) %}
{%- set parted = sqlmetrics.regression_parts(rows, key) %}
WITH sm_means AS (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.fdiv('SUM(sm_w * sm_t)', 'SUM(sm_w)') }} AS sm_mean_t,
         {{ sqlmetrics.fdiv('SUM(sm_w * (sm_t - sm_p))', 'SUM(sm_w)') }} AS sm_mean_d
  FROM ({{ rows }}) AS sm_rows
  {{ sqlmetrics.group_by(by) }}
)
{{- sqlmetrics.spread_cte('sm_means', '(' ~ parted ~ ')', by, key) }}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN NOT sm_weight > 0 THEN NULL
            WHEN sm_d_low = sm_d_high THEN 1.0
            WHEN sm_t_low = sm_t_high THEN 0.0
            ELSE 1 - {{ sqlmetrics.fdiv('sm_d_squares', 'sm_t_squares') }} END AS explained_variance,
       n
FROM (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_rows') }}
         SUM(sm_rows.sm_w * (sm_rows.sm_t - sm_rows.sm_p - sm_means.sm_mean_d)
                          * (sm_rows.sm_t - sm_rows.sm_p - sm_means.sm_mean_d)) AS sm_d_squares,
         SUM(sm_rows.sm_w * (sm_rows.sm_t - sm_means.sm_mean_t) * (sm_rows.sm_t - sm_means.sm_mean_t)) AS sm_t_squares,
         SUM(sm_rows.sm_w) AS sm_weight,
         MIN(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t - sm_rows.sm_p END) AS sm_d_low,
         MAX(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t - sm_rows.sm_p END) AS sm_d_high,
         MIN(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t END) AS sm_t_low,
         MAX(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t END) AS sm_t_high,
         COUNT(*) AS n
  FROM ({{ parted }}) AS sm_rows
  {{ sqlmetrics.join_slices('sm_rows', 'sm_means', by, key) }}
  {% if by %}GROUP BY {{ sqlmetrics.col_list_of(by, 'sm_rows') }}{% endif %}
) AS sm_sums
{% endmacro %}
