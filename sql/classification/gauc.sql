{#- GAUC = sum_g v_g*AUC_g / sum_g v_g over groups having both classes (one-class groups are excluded
    and counted). v_g: impressions = rows or total weight; clicks = positives (weight);
    uniform = 1; pairs = positive weight * negative weight, i.e. pooled sum of numerators over sum of denominators.
    Reference: weighted mean of sklearn roc_auc_score per group. -#}
{% macro gauc(relation, label, score, group, weight=none, weighting='impressions', by=[], plan='aggregate') %}
SELECT {{ sqlmetrics.cols(by) }}
       SUM(sm_v * sm_auc) / NULLIF(SUM(sm_v), 0) AS gauc,
       CAST(COALESCE(SUM(sm_used), 0) AS BIGINT) AS n_groups_used,
       CAST(COUNT(*) - COALESCE(SUM(sm_used), 0) AS BIGINT) AS n_groups_excluded,
       CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS n,
       CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS n_pos,
       CAST(COALESCE(SUM(sm_n - sm_n_pos), 0) AS BIGINT) AS n_neg
FROM ({{ sqlmetrics.gauc_groups(relation, label, score, group, weight, weighting, by, plan) }}) AS sm_groups
{{ sqlmetrics.group_by(by) }}
{% endmacro %}

{#- One row per slice and group: auc_parts' columns, sm_used (1 when the group has both classes),
    its AUC sm_auc and GAUC weight sm_v (NULL when it has not). -#}
{% macro gauc_groups(relation, label, score, group, weight=none, weighting='impressions', by=[], plan='aggregate') %}
SELECT sm_parts.*,
       CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN 1 ELSE 0 END AS sm_used,
       CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN sm_wins / NULLIF(sm_w_pos, 0) END AS sm_auc,
       CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN {{ sqlmetrics.as_double(sqlmetrics.gauc_group_weight(weighting, weight, by)) }} END AS sm_v
FROM ({{ sqlmetrics.auc_parts(relation, label, score, weight, by + [group], plan) }}) AS sm_parts
{% endmacro %}

{#- A group's weight v_g in GAUC, from its class weights sm_w_pos and sm_w_neg (columns of a row per
    slice `by` and group). Weighted, a product of two weight sums may overflow a double (or
    underflow to 0): the pairs of each group as a share of the slice's largest positive and
    negative weights instead, which cancels in the ratio. -#}
{% macro gauc_group_weight(weighting, weight, by) -%}
{%- if weighting == 'impressions' %}sm_w_pos + sm_w_neg
{%- elif weighting == 'clicks' %}sm_w_pos
{%- elif weighting == 'uniform' %}1
{%- elif weight %}(sm_w_pos / NULLIF(MAX(sm_w_pos) OVER ({{ sqlmetrics.partition_by(by) }}), 0))
                * (sm_w_neg / NULLIF(MAX(sm_w_neg) OVER ({{ sqlmetrics.partition_by(by) }}), 0))
{%- else %}sm_w_pos * sm_w_neg
{%- endif %}
{%- endmacro %}
