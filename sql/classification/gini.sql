{#- Gini = 2*AUC - 1 (Somers' D); NULL when AUC is. -#}
{% macro gini(relation, label, score, weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
SELECT {{ sqlmetrics.cols(by) }} 2 * auc - 1 AS gini, n, n_pos, n_neg
FROM ({{ sqlmetrics.auc(relation, label, score, weight, by=by, plan=plan) }}) AS sm_auc
{% endmacro %}
