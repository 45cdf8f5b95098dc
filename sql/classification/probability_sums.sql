{#- Shared frame of the probability metrics, per slice: sm_loss = sum of w*(loss expression),
    sm_weight = sum of w, sm_pos_weight = sum of w*y, and the row counts. `loss` is an expression
    over labelled_rows' sm_p (the probability as DOUBLE) and sm_y (0/1). -#}
{% macro probability_sums(relation, label, score, weight, by, loss) %}
SELECT {{ sqlmetrics.cols(by) }}
       SUM(sm_w * ({{ loss }})) AS sm_loss,
       SUM(sm_w) AS sm_weight,
       SUM(sm_w * sm_y) AS sm_pos_weight,
       COUNT(*) AS n,
       CAST(COALESCE(SUM(sm_y), 0) AS BIGINT) AS n_pos,
       CAST(COUNT(*) - COALESCE(SUM(sm_y), 0) AS BIGINT) AS n_neg
FROM ({{ sqlmetrics.labelled_rows(relation, label, score, weight, by) }}) AS sm_rows
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
