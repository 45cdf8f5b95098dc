{#- tp, fp, tn, fn: counts (or weight sums) with a row predicted positive iff score >= threshold,
    or iff prediction = 1 when a prediction column is given. A NULL label, prediction or score
    fails the query rather than counting as a negative. Reference: sklearn confusion_matrix. -#}
{% macro confusion_matrix(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[]) %}
{%- if (score is none) == (prediction is none) %}{{ sqlmetrics.fail('give exactly one of score (with threshold) or prediction') }}{% endif %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.tally('COALESCE(SUM(sm_w * sm_y * sm_hat), 0)', weight) }} AS tp,
       {{ sqlmetrics.tally('COALESCE(SUM(sm_w * (1 - sm_y) * sm_hat), 0)', weight) }} AS fp,
       {{ sqlmetrics.tally('COALESCE(SUM(sm_w * (1 - sm_y) * (1 - sm_hat)), 0)', weight) }} AS tn,
       {{ sqlmetrics.tally('COALESCE(SUM(sm_w * sm_y * (1 - sm_hat)), 0)', weight) }} AS fn,
       COUNT(*) AS n
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.is_positive(label) }} AS sm_y,
         {% if prediction -%}
         {{ sqlmetrics.is_positive(prediction) }}
         {%- else -%}
         {%- set s = sqlmetrics.ident(score) %}
         {%- set t = sqlmetrics.as_double(threshold) %}
         {%- set neither %}NOT ({{ s }} >= {{ t }} OR {{ s }} < {{ t }}){% endset %}
         CASE WHEN {{ s }} >= {{ t }} THEN 1 WHEN {{ s }} < {{ t }} THEN 0
              ELSE {{ sqlmetrics.invalid_value('a score must be a number', s, neither) }} END
         {%- endif %} AS sm_hat,
         {{ sqlmetrics.row_weight(weight) }} AS sm_w
  FROM {{ relation }}
) AS sm_rows
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
