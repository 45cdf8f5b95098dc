{#- AUC = P(score of a positive > score of a negative) + 1/2 * P(equal), pairs weighted w_i*w_j.
    NULL (undefined) when a slice lacks positives or negatives. Reference: sklearn roc_auc_score. -#}
{% macro auc(relation, label, score, weight=none, by=[], plan='aggregate') %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('sm_u', 'sm_w_pos * sm_w_neg') }} AS auc,
       sm_n AS n, sm_n_pos AS n_pos, sm_n - sm_n_pos AS n_neg
FROM ({{ sqlmetrics.auc_parts(relation, label, score, weight, by, plan) }}) AS sm_parts
{% endmacro %}
