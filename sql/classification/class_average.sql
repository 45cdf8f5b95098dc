{#- A ratio of the one-vs-rest counts averaged over the classes, as sklearn's
    precision_recall_fscore_support: `score_of` (a macro of the counts tp, fp, fn and `beta`: a
    metric's own formula, such as precision_of) of each class (class_counts), then
    - 'micro': the metric of the counts pooled over the classes;
    - 'macro': the mean over the classes;
    - 'weighted': the mean weighted by each class's support (true count or weight), the plain mean
      when every support is 0 (as sklearn);
    - none: one row per class (class, `name`, support), in class order.
    A class's 0/0 is zero_division's value (0 or 1); 'nan' leaves the class out of the average (as
    sklearn's zero_division=np.nan); none (the default) makes the average undefined (NULL) when the
    class weighs in it, instead of counting it as 0 (sklearn's default) without a word. The columns
    tp, fp, tn, fn are the counts pooled over the classes (micro's), n the rows. -#}
{% macro class_average(relation, label, prediction, weight, by, average, zero_division, name, score_of, beta=1.0) %}
{%- set counts = sqlmetrics.class_counts(relation, label, prediction, weight, by) %}
{%- set value = sqlmetrics.zero_division_value(score_of('sm_tp', 'sm_fp', 'sm_fn', beta), zero_division) %}
{%- if average is none %}
SELECT {{ sqlmetrics.cols(by) }} sm_class AS {{ sqlmetrics.ident('class') }}, {{ value }} AS {{ sqlmetrics.ident(name) }},
       sm_support AS support
FROM ({{ counts }}) AS sm_counts
ORDER BY {{ sqlmetrics.cols(by) }} {{ sqlmetrics.class_order('sm_class', label) }}
{%- else %}
{%- set averaged = sqlmetrics.class_mean(average, zero_division, score_of, 'sm_m', beta) %}
SELECT {{ sqlmetrics.cols(by) }} {{ averaged }} AS {{ sqlmetrics.ident(name) }},
       {{ sqlmetrics.tally('COALESCE(SUM(sm_tp), 0)', weight) }} AS tp, {{ sqlmetrics.tally('COALESCE(SUM(sm_fp), 0)', weight) }} AS fp,
       {{ sqlmetrics.tally('COALESCE(SUM(sm_tn), 0)', weight) }} AS tn, {{ sqlmetrics.tally('COALESCE(SUM(sm_fn), 0)', weight) }} AS fn,
       COALESCE(MAX(sm_rows), 0) AS n
FROM (
  SELECT {{ sqlmetrics.cols(by) }} sm_tp, sm_fp, sm_tn, sm_fn, sm_support, sm_rows{% if average != 'micro' %}, {{ value }} AS sm_m{% endif %}
  FROM ({{ counts }}) AS sm_counts
) AS sm_scored
{{ sqlmetrics.group_by(by) }}
{%- endif %}
{% endmacro %}

{#- The aggregate (over a slice's rows of class_counts) that averages `score_of` (as class_average's)
    by `average` ('micro', 'macro', 'weighted'), `m` the column holding each class's value. -#}
{% macro class_mean(average, zero_division, score_of, m, beta=1.0) -%}
{%- if average == 'micro' %}
{%- set averaged = sqlmetrics.zero_division_value(score_of('SUM(sm_tp)', 'SUM(sm_fp)', 'SUM(sm_fn)', beta), zero_division) %}
{%- elif average == 'macro' %}
{%- set averaged %}AVG({{ m }}){% endset %}
{%- else %}
{%- set averaged -%}
COALESCE({{ sqlmetrics.fdiv('SUM(sm_support * ' ~ m ~ ')', 'SUM(CASE WHEN ' ~ m ~ ' IS NOT NULL THEN sm_support ELSE 0 END)') }}, AVG({{ m }}))
{%- endset %}
{%- endif %}
{#- undefined by default when a class it weighs is: any class (macro), one of positive support (weighted) -#}
{%- if zero_division is none and average == 'macro' -%}
CASE WHEN COUNT({{ m }}) = COUNT(*) THEN {{ averaged }} END
{%- elif zero_division is none and average == 'weighted' -%}
CASE WHEN SUM(CASE WHEN {{ m }} IS NULL AND sm_support > 0 THEN 1 ELSE 0 END) = 0 THEN {{ averaged }} END
{%- else -%}
{{ averaged }}
{%- endif %}
{%- endmacro %}

{#- `x`, a ratio that is NULL when 0/0, with zero_division's value (0 or 1) in its place; none or
    'nan' leave it NULL (the averages tell the two apart). -#}
{% macro zero_division_value(x, zero_division) -%}
{%- if zero_division in (0, 1) %}COALESCE({{ x }}, {{ sqlmetrics.as_double(zero_division) }}){% else %}{{ x }}{% endif %}
{%- endmacro %}
