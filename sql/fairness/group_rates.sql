{#- The disparity across the groups of `sensitive` (one group per combination of its columns' values)
    of rates from each group's confusion counts, as fairlearn's MetricFrame difference() and ratio()
    (method 'between_groups' or 'to_overall'). `rates`: the rates whose disparities are combined,
    'selection' ((tp + fp) / all), 'tpr' (tp / (tp + fn)), 'fpr' (fp / (fp + tn)); with two, `combine`
    says how: 'worst_case' the larger difference or the smaller ratio, 'mean' their mean (fairlearn's
    agg=). `agg`: 'difference' or 'ratio'.
    Columns: `name`; with one rate group_min, group_max, overall; with two <rate>_<agg> of each; then
    n_groups, n. NULL (undefined) where fairlearn's answer would not be a disparity of the groups: fewer
    than two groups, a group whose rate is 0/0 (no positives for tpr, no negatives for fpr, all weights 0:
    fairlearn counts the first two as 0 and leaves the third out), a ratio over a largest (or overall)
    rate of 0. -#}
{% macro rates_disparity(relation, label, score, threshold, prediction, weight, sensitive, by, method, rates, agg, name, combine='worst_case') %}
{%- if sensitive is string %}{{ sqlmetrics.fail("sensitive takes a list of columns: sensitive=['" ~ sensitive ~ "']") }}{% endif %}
{%- if not sensitive %}{{ sqlmetrics.fail('give the sensitive feature column(s): sensitive=[...]') }}{% endif %}
{%- for c in sensitive if c in by %}{{ sqlmetrics.fail('column ' ~ c ~ ' is both sensitive and in by: each slice would hold one group of it') }}{% endfor %}
{%- if method not in ('between_groups', 'to_overall') %}{{ sqlmetrics.fail("method must be 'between_groups' or 'to_overall'") }}{% endif %}
{%- if combine not in ('worst_case', 'mean') %}{{ sqlmetrics.fail("agg must be 'worst_case' or 'mean'") }}{% endif %}
{%- set per_rate = [] %}
{%- for rate in rates %}{% set _ = per_rate.append(sqlmetrics.rate_disparity('sm_' ~ rate, method, agg)) %}{% endfor %}
SELECT {{ sqlmetrics.cols(by) }}
       {%- if rates | length == 1 %}
       CASE WHEN COUNT(*) >= 2 THEN {{ per_rate[0] }} END AS {{ sqlmetrics.ident(name) }},
       MIN(sm_{{ rates[0] }}) AS group_min,
       MAX(sm_{{ rates[0] }}) AS group_max,
       MAX(sm_{{ rates[0] }}_all) AS overall,
       {%- else %}
       {#- NULL if either is: GREATEST and LEAST skip NULLs on some engines -#}
       CASE WHEN COUNT(*) < 2 OR ({{ per_rate[0] }}) IS NULL OR ({{ per_rate[1] }}) IS NULL THEN NULL
            {%- if combine == 'mean' %}
            ELSE (({{ per_rate[0] }}) + ({{ per_rate[1] }})) / 2 END AS {{ sqlmetrics.ident(name) }},
            {%- else %}
            WHEN ({{ per_rate[0] }}) {{ '>=' if agg == 'difference' else '<=' }} ({{ per_rate[1] }}) THEN {{ per_rate[0] }}
            ELSE {{ per_rate[1] }} END AS {{ sqlmetrics.ident(name) }},
            {%- endif %}
       {%- for rate in rates %}
       CASE WHEN COUNT(*) >= 2 THEN {{ per_rate[loop.index0] }} END AS {{ rate }}_{{ agg }},
       {%- endfor %}
       {%- endif %}
       CAST(COUNT(*) AS BIGINT) AS n_groups,
       CAST(SUM(n) AS BIGINT) AS n
FROM (
  SELECT sm_counts.*,
         {%- for rate in rates %}
         {{ sqlmetrics.group_rate(rate) }} AS sm_{{ rate }},
         {{ sqlmetrics.group_rate(rate, by) }} AS sm_{{ rate }}_all{{ ',' if not loop.last }}
         {%- endfor %}
  FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by + sensitive) }}) AS sm_counts
) AS sm_groups
{{ sqlmetrics.group_by(by) }}
{% endmacro %}

{#- A rate of a group's confusion counts, or with `by` (a list, maybe empty) of its slice's, as a window
    over the slice's groups: the groups' counts add up to the slice's. -#}
{% macro group_rate(rate, by=none) -%}
{%- set num, den = {'selection': ('tp + fp', 'tp + fp + tn + fn'), 'tpr': ('tp', 'tp + fn'), 'fpr': ('fp', 'fp + tn')}[rate] %}
{%- if by is none %}{{ sqlmetrics.fdiv(num, den) }}
{%- else %}{%- set over = ' OVER (' ~ sqlmetrics.partition_by(by) ~ ')' %}{{ sqlmetrics.fdiv('SUM(' ~ num ~ ')' ~ over, 'SUM(' ~ den ~ ')' ~ over) }}
{%- endif %}
{%- endmacro %}

{#- The disparity of the rate column r (r_all the slice's rate) over a slice's groups, as an aggregate:
    NULL when a group's rate is. between_groups: max - min, min / max; to_overall: the largest
    |r - r_all|, the smallest of r / r_all and r_all / r that is at most 1. -#}
{% macro rate_disparity(r, method, agg) -%}
{%- if agg == 'difference' and method == 'between_groups' %}{% set value %}MAX({{ r }}) - MIN({{ r }}){% endset %}
{%- elif agg == 'difference' %}{% set value %}MAX(ABS({{ r }} - {{ r }}_all)){% endset %}
{%- elif method == 'between_groups' %}{% set value %}MIN({{ r }}) / NULLIF(MAX({{ r }}), 0){% endset %}
{#- an overall rate of 0 (all the groups' 0) is 0/0: NULL, which MIN would skip -#}
{%- else %}{% set value %}CASE WHEN COUNT(CASE WHEN {{ r }}_all = 0 THEN 1 END) = 0
      THEN MIN(CASE WHEN {{ r }} > {{ r }}_all THEN {{ sqlmetrics.fdiv(r ~ '_all', r) }} ELSE {{ sqlmetrics.fdiv(r, r ~ '_all') }} END) END{% endset %}
{%- endif -%}
CASE WHEN COUNT({{ r }}) = COUNT(*) THEN {{ value }} END
{%- endmacro %}
