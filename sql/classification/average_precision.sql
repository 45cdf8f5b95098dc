{#- AP = sum_n (R_n - R_(n-1)) * P_n over distinct thresholds (step function, no interpolation);
    a tie block is one threshold. NULL without positives. `plan`: running_sums'. Reference: sklearn average_precision_score. -#}
{% macro average_precision(relation, label, score, weight=none, by=[], plan=none) %}
{%- if plan == 'rank' and not weight %}
{#- Each positive row adds the precision at its score: a score's rows all share the precision at
    its last row in the sort, which for a score of one row is the row's own. -#}
SELECT {{ sqlmetrics.cols(by) }}
       SUM(sm_precisions) / NULLIF(SUM(sm_n_pos), 0) AS average_precision,
       CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS n,
       CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS n_pos,
       CAST(COALESCE(SUM(sm_n - sm_n_pos), 0) AS BIGINT) AS n_neg
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         CASE WHEN sm_tie IS NULL THEN SUM(sm_y * {{ sqlmetrics.fdiv('sm_tp_run', 'sm_row') }})
              ELSE SUM(sm_y) * {{ sqlmetrics.fdiv('MAX(sm_tp_run)', 'MAX(sm_row)') }} END AS sm_precisions,
         SUM(sm_y) AS sm_n_pos, COUNT(*) AS sm_n
  FROM ({{ sqlmetrics.ranked_scores(relation, label, score, by) }}) AS sm_ranked
  GROUP BY {{ sqlmetrics.cols(by) }}sm_tie
) AS sm_by_tie
{{ sqlmetrics.group_by(by) }}
{%- else %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, plan or sqlmetrics.default_plan()) }}
SELECT {{ sqlmetrics.cols(by) }}
       SUM(sm_tp_at * {{ sqlmetrics.fdiv('tp', 'tp + fp') }}) / NULLIF(MAX(sm_pos), 0) AS average_precision,
       CAST(COALESCE(SUM(sm_n_at), 0) AS BIGINT) AS n,
       CAST(COALESCE(SUM(sm_n_pos_at), 0) AS BIGINT) AS n_pos,
       CAST(COALESCE(SUM(sm_n_at - sm_n_pos_at), 0) AS BIGINT) AS n_neg
FROM sm_points
{{ sqlmetrics.group_by(by) }}
{%- endif %}
{% endmacro %}
