{#- One row per (slice, distinct score), descending: the confusion counts when every row with
    score >= threshold is predicted positive. tp/fp are cumulative, sm_tp_at/sm_fp_at belong to this score,
    pos/neg are the slice totals. Counts when unweighted, weight sums otherwise. -#}
{% macro curve_points(relation, label, score, weight=none, keys=[]) %}
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
  FROM (
    SELECT {{ sqlmetrics.cols(keys) }} threshold, sm_rows, sm_weight, {{ sqlmetrics.is_positive(label) }} AS sm_pos
    FROM (
      {#- grouped by label as well: the label's test runs once per group, not once per row #}
      SELECT {{ sqlmetrics.cols(keys + [label] if label not in keys else keys) }}
             {{ sqlmetrics.ident(score) }} AS threshold,
             COUNT(*) AS sm_rows,
             SUM({{ sqlmetrics.row_weight(weight) }}) AS sm_weight
      FROM {{ relation }}
      GROUP BY {{ sqlmetrics.cols(keys) }}{{ sqlmetrics.ident(score) }}, {{ sqlmetrics.ident(label) }}
    ) AS sm_labelled
  ) AS sm_by_label
  GROUP BY {{ sqlmetrics.cols(keys) }}threshold
) AS sm_at
{% endmacro %}
