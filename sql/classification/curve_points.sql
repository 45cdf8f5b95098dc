{#- One row per (slice, distinct score), descending: the confusion counts when every row with
    score >= threshold is predicted positive. tp/fp are cumulative, sm_tp_at/sm_fp_at belong to this score,
    pos/neg are the slice totals. Counts when unweighted, weight sums otherwise. -#}
{% macro curve_points(relation, label, score, weight=none, keys=[]) %}
{%- set weight_sum %}SUM({{ sqlmetrics.row_weight(weight) }}){% endset %}
SELECT sm_at.*,
       SUM(sm_tp_at) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY threshold DESC
                        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS tp,
       SUM(sm_fp_at) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY threshold DESC
                        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS fp,
       SUM(sm_tp_at) OVER ({{ sqlmetrics.partition_by(keys) }}) AS sm_pos,
       SUM(sm_fp_at) OVER ({{ sqlmetrics.partition_by(keys) }}) AS sm_neg
FROM (
  SELECT {{ sqlmetrics.cols(keys) }}
         threshold,
         SUM(sm_rows) AS sm_n_at,
         SUM(sm_pos * sm_rows) AS sm_n_pos_at,
         SUM(sm_pos * sm_weight) AS sm_tp_at,
         SUM((1 - sm_pos) * sm_weight) AS sm_fp_at
  FROM ({{ sqlmetrics.labelled_groups(relation, label, score, keys, 'threshold', weight_sum) }}) AS sm_by_label
  GROUP BY {{ sqlmetrics.cols(keys) }}threshold
) AS sm_at
{% endmacro %}
