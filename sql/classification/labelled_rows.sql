{#- The rows of the probability metrics: sm_p (the probability as DOUBLE), sm_y (the label, 0/1)
    and sm_w (the row's weight, 1 when unweighted), with the slice columns. -#}
{% macro labelled_rows(relation, label, score, weight, by) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.probability(score) }} AS sm_p,
       {{ sqlmetrics.is_positive(label) }} AS sm_y,
       {{ sqlmetrics.row_weight(weight) }} AS sm_w
FROM {{ relation }}
{% endmacro %}
