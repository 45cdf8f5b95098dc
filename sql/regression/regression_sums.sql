{#- The rows of the regression metrics: sm_t (target), sm_p (prediction) as DOUBLE, sm_w (weight). -#}
{% macro regression_rows(relation, target, prediction, weight, by) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.as_double(sqlmetrics.ident(target)) }} AS sm_t,
       {{ sqlmetrics.as_double(sqlmetrics.ident(prediction)) }} AS sm_p,
       {{ sqlmetrics.row_weight(weight) }} AS sm_w
FROM {{ relation }}
{% endmacro %}

{#- Per slice: sm_loss = sum of w*(loss expression over sm_t and sm_p), sm_weight = sum of w, and n. -#}
{% macro regression_sums(relation, target, prediction, weight, by, loss) %}
SELECT {{ sqlmetrics.cols(by) }}
       SUM(sm_w * ({{ loss }})) AS sm_loss,
       SUM(sm_w) AS sm_weight,
       COUNT(*) AS n
FROM ({{ sqlmetrics.regression_rows(relation, target, prediction, weight, by) }}) AS sm_rows
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
