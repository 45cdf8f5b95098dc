{#- AP = sum_n (R_n - R_(n-1)) * P_n over distinct thresholds (step function, no interpolation);
    a tie block is one threshold. NULL without positives. `plan`: running_sums'. Reference: sklearn average_precision_score. -#}
{% macro average_precision(relation, label, score, weight=none, by=[], plan=none) %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, plan or sqlmetrics.default_plan()) }}
SELECT {{ sqlmetrics.cols(by) }}
       SUM(sm_tp_at * {{ sqlmetrics.fdiv('tp', 'tp + fp') }}) / NULLIF(MAX(sm_pos), 0) AS average_precision,
       CAST(COALESCE(SUM(sm_n_at), 0) AS BIGINT) AS n,
       CAST(COALESCE(SUM(sm_n_pos_at), 0) AS BIGINT) AS n_pos,
       CAST(COALESCE(SUM(sm_n_at - sm_n_pos_at), 0) AS BIGINT) AS n_neg
FROM sm_points
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
