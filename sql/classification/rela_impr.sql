{#- RelaImpr = (AUC(score) - 0.5) / (AUC(base_score) - 0.5) - 1 on the same rows (Yan et al. 2014). -#}
{% macro rela_impr(relation, label, score, base_score, weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
SELECT {{ sqlmetrics.cols(by) }}
       (MAX(CASE WHEN sm_model = 1 THEN sm_both.auc END) - 0.5)
         / NULLIF(MAX(CASE WHEN sm_model = 0 THEN sm_both.auc END) - 0.5, 0) - 1 AS rela_impr,
       MAX(CASE WHEN sm_model = 1 THEN sm_both.auc END) AS auc,
       MAX(CASE WHEN sm_model = 0 THEN sm_both.auc END) AS base_auc,
       MAX(n) AS n, MAX(n_pos) AS n_pos, MAX(n_neg) AS n_neg
FROM (
  SELECT 1 AS sm_model, sm_new.* FROM ({{ sqlmetrics.auc(relation, label, score, weight, by=by, plan=plan) }}) AS sm_new
  UNION ALL
  SELECT 0 AS sm_model, sm_base.* FROM ({{ sqlmetrics.auc(relation, label, base_score, weight, by=by, plan=plan) }}) AS sm_base
) AS sm_both
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
