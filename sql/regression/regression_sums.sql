{#- The rows of the regression metrics: sm_t (target), sm_p (prediction) as DOUBLE, sm_w (weight). -#}
{% macro regression_rows(relation, target, prediction, weight, by) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.as_double(sqlmetrics.ident(target)) }} AS sm_t,
       {{ sqlmetrics.as_double(sqlmetrics.ident(prediction)) }} AS sm_p,
       {{ sqlmetrics.row_weight(weight) }} AS sm_w
FROM {{ relation }}
{% endmacro %}

{#- regression_rows' `rows` with sm_part (with_part: a hash of the target and the prediction) when
    `key` (spread_key's) is given: a key to join a slice's values back to its rows by. The target's
    bucket would not do: a common target (a count of 0) would put its rows in one task. -#}
{% macro regression_parts(rows, key) %}
{%- if key %}{{ sqlmetrics.with_part(rows, ['sm_t', 'sm_p']) }}{% else %}{{ rows }}{% endif %}
{%- endmacro %}

{#- Per slice: sm_loss = sum of w*(loss expression over sm_t and sm_p), sm_weight = sum of w, and n. -#}
{% macro regression_sums(relation, target, prediction, weight, by, loss) %}
SELECT {{ sqlmetrics.cols(by) }}
       SUM(sm_w * ({{ loss }})) AS sm_loss,
       SUM(sm_w) AS sm_weight,
       COUNT(*) AS n
FROM ({{ sqlmetrics.regression_rows(relation, target, prediction, weight, by) }}) AS sm_rows
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
