{#- CTE definitions (to follow a WITH) ending in sm_points: one row per (slice, distinct score), the
    confusion counts when every row with score >= threshold is predicted positive. sm_n_at, sm_n_pos_at,
    sm_tp_at, sm_fp_at belong to this score (rows, positive rows, then the positive and negative
    weight: counts when unweighted); tp/fp are cumulative, pos/neg the slice totals. `counted`: also
    sm_n_kept, sm_n_kept_run and sm_n_kept_all, the rows of the score, up to it and in the slice,
    counting only the scores that are points of a curve (non-zero weight). `plan`: running_sums'. -#}
{% macro curve_points(relation, label, score, weight, keys, plan, counted=false) %}
{%- set weight_sum %}SUM({{ sqlmetrics.row_weight(weight) }}){% endset %}
sm_at AS (
  SELECT sm_sums.*{% if counted %}, CASE WHEN sm_tp_at + sm_fp_at > 0 THEN sm_n_at ELSE 0 END AS sm_n_kept{% endif %}
  FROM (
    SELECT {{ sqlmetrics.cols(keys) }}
           threshold,
           SUM(sm_rows) AS sm_n_at,
           SUM(sm_pos * sm_rows) AS sm_n_pos_at,
           SUM(sm_pos * sm_weight) AS sm_tp_at,
           SUM((1 - sm_pos) * sm_weight) AS sm_fp_at
    FROM ({{ sqlmetrics.labelled_groups(relation, label, score, keys, 'threshold', weight_sum,
                                      sqlmetrics.row_weight(weight) if plan == 'parallel' else none) }}) AS sm_by_label
    GROUP BY {{ sqlmetrics.cols(keys) }}threshold
  ) AS sm_sums
),
{{ sqlmetrics.running_sums('sm_running', 'sm_at', keys, 'threshold', true, ['sm_n_at', 'sm_n_pos_at'],
                           ['sm_tp_at', 'sm_fp_at'] + (['sm_n_kept'] if counted else []), plan) }},
sm_points AS (
  SELECT {{ sqlmetrics.cols(keys) }} threshold, sm_n_at, sm_n_pos_at, sm_tp_at, sm_fp_at,
         sm_tp_at_run AS tp, sm_fp_at_run AS fp, sm_tp_at_all AS sm_pos, sm_fp_at_all AS sm_neg
         {%- if counted %}, sm_n_kept, sm_n_kept_run, sm_n_kept_all{% endif %}
  FROM sm_running
)
{% endmacro %}
