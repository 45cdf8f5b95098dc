{#- Any metric of one value per slice across the groups of `sensitive` (one group per combination of
    its columns' values), as fairlearn's MetricFrame: the metric per group (by + sensitive), and on
    all the rows of each slice (`by`) for `overall`. Per slice:
      difference  method 'between_groups': group_max - group_min; 'to_overall': the largest
                  |value - overall| (MetricFrame.difference)
      ratio       'between_groups': group_min / group_max; 'to_overall': the smallest of x = value /
                  overall, or 1 / x where x > 1 (MetricFrame.ratio)
      group_min, group_max, overall, n_groups (the groups of the slice)
    NULL (undefined) where fairlearn's number would not compare the groups: difference and ratio with
    fewer than two groups or a group whose value is NULL (group_min and group_max too with the latter:
    fairlearn's min and max would leave it out); ratio over a group_max (to_overall: an overall) of 0.
    With per_group, a row per group: `by`, `sensitive`, the group's value (a column named as the
    metric) and its slice's summaries. The other keywords are the metric's own. -#}
{% macro group_disparity(relation, metric, sensitive, method='between_groups', by=[], per_group=false) %}
{%- set metric = sqlmetrics.metric_name(metric) %}
{%- if sensitive is string %}{{ sqlmetrics.fail("sensitive takes a list of columns: sensitive=['" ~ sensitive ~ "']") }}{% endif %}
{%- if not sensitive %}{{ sqlmetrics.fail('give the sensitive feature column(s): sensitive=[...]') }}{% endif %}
{%- for c in sensitive if c in by %}{{ sqlmetrics.fail('column ' ~ c ~ ' is both sensitive and in by: each slice would hold one group of it') }}{% endfor %}
{%- if method not in ('between_groups', 'to_overall') %}{{ sqlmetrics.fail("method must be 'between_groups' or 'to_overall'") }}{% endif %}
{%- set defined %}COUNT(*) >= 2 AND COUNT(sm_value) = COUNT(*){% endset %}
{%- if method == 'between_groups' %}
{%- set difference %}MAX(sm_value) - MIN(sm_value){% endset %}
{%- set ratio %}{{ sqlmetrics.fdiv('MIN(sm_value)', 'MAX(sm_value)') }}{% endset %}
{%- else %}
{%- set difference %}MAX(ABS(sm_value - sm_overall)){% endset %}
{#- fairlearn's ratio_sub_one: x = value / overall, 1 / x where x > 1; an overall of 0 makes every x 0/0 -#}
{%- set ratio %}CASE WHEN MAX(sm_overall) <> 0 THEN MIN(CASE WHEN {{ sqlmetrics.fdiv('sm_value', 'sm_overall') }} > 1
      THEN {{ sqlmetrics.fdiv('sm_overall', 'sm_value') }} ELSE {{ sqlmetrics.fdiv('sm_value', 'sm_overall') }} END) END{% endset %}
{%- endif %}
WITH sm_by_group AS (
  {{ sqlmetrics.metric(metric, relation, by=by + sensitive, **kwargs) }}
),
sm_overall AS (
  {{ sqlmetrics.metric(metric, relation, by=by, **kwargs) }}
),
sm_groups AS (
  SELECT {{ sqlmetrics.qualified_cols(by + sensitive, 'sm_by_group') }}
         sm_by_group.{{ sqlmetrics.ident(metric) }} AS sm_value, sm_overall.{{ sqlmetrics.ident(metric) }} AS sm_overall
  FROM sm_by_group
  {{ sqlmetrics.join_slices('sm_by_group', 'sm_overall', by) }}
),
sm_summaries AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CASE WHEN {{ defined }} THEN {{ difference }} END AS difference,
         CASE WHEN {{ defined }} THEN {{ ratio }} END AS ratio,
         CASE WHEN COUNT(sm_value) = COUNT(*) THEN MIN(sm_value) END AS group_min,
         CASE WHEN COUNT(sm_value) = COUNT(*) THEN MAX(sm_value) END AS group_max,
         MAX(sm_overall) AS overall,
         CAST(COUNT(*) AS BIGINT) AS n_groups
  FROM sm_groups
  {{ sqlmetrics.group_by(by) }}
)
{%- if per_group %}
SELECT {{ sqlmetrics.qualified_cols(by + sensitive, 'sm_groups') }}
       sm_groups.sm_value AS {{ sqlmetrics.ident(metric) }},
       sm_summaries.difference, sm_summaries.ratio, sm_summaries.group_min, sm_summaries.group_max,
       sm_summaries.overall, sm_summaries.n_groups
FROM sm_groups
{{ sqlmetrics.join_slices('sm_groups', 'sm_summaries', by) }}
{%- else %}
SELECT * FROM sm_summaries
{%- endif %}
{% endmacro %}
