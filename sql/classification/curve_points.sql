{#- CTE definitions (to follow a WITH) ending in sm_points: per slice, the confusion counts when every
    row with score >= threshold is predicted positive. sm_n_at, sm_n_pos_at, sm_tp_at, sm_fp_at belong
    to the row of sm_points (rows, positive rows, then the positive and negative weight: counts when
    unweighted); tp/fp are cumulative up to and including the row's score, sm_pos/sm_neg the slice
    totals; sm_point is 1 on the row that is the curve's point of its score (0 for a score only
    zero-weight rows carry, which is no threshold, as in sklearn). `counted`: also sm_n_kept,
    sm_n_kept_run and sm_n_kept_all, the rows of the score, up to it and in the slice, counting only
    the scores that are points of a curve.
    plan='aggregate' or 'parallel' (running_sums'): one row per (slice, distinct score); 'parallel'
      adds the score's sm_bucket.
    `prefix` names the CTEs (prefix_at, prefix_running, prefix_points): two curves in one query.
    plan='rank' (unweighted, not counted): one row per input row, from one sort of the rows (ranked_scores),
      cheaper when nearly every score is distinct: the point of a score is its last row in the
      sort, whose running sums take in all the rows of its score; tp and fp are the point's on that
      row only. -#}
{% macro curve_points(relation, label, score, weight, keys, plan, counted=false, prefix='sm') %}
{%- if plan == 'rank' and not weight and not counted %}
sm_points AS (
  SELECT {{ sqlmetrics.cols(keys) }} threshold, 1 AS sm_n_at, sm_y AS sm_n_pos_at, sm_y AS sm_tp_at, 1 - sm_y AS sm_fp_at,
         sm_tp_run AS tp, sm_row - sm_tp_run AS fp, sm_pos, sm_rows_all - sm_pos AS sm_neg,
         sm_last_of_score AS sm_point
  FROM ({{ sqlmetrics.ranked_scores(relation, label, score, keys) }}) AS sm_ranked
)
{%- else %}
{%- set weight_sum %}SUM({{ sqlmetrics.row_weight(weight) }}){% endset %}
{{ prefix }}_at AS (
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
{{ sqlmetrics.running_sums(prefix ~ '_running', prefix ~ '_at', keys, 'threshold', true, ['sm_n_at', 'sm_n_pos_at'],
                           ['sm_tp_at', 'sm_fp_at'] + (['sm_n_kept'] if counted else []), plan) }},
{{ prefix }}_points AS (
  SELECT {{ sqlmetrics.cols(keys + (['sm_bucket'] if plan == 'parallel' else [])) }}
         threshold, sm_n_at, sm_n_pos_at, sm_tp_at, sm_fp_at,
         sm_tp_at_run AS tp, sm_fp_at_run AS fp, sm_tp_at_all AS sm_pos, sm_fp_at_all AS sm_neg,
         CASE WHEN sm_tp_at + sm_fp_at > 0 THEN 1 ELSE 0 END AS sm_point
         {%- if counted %}, sm_n_kept, sm_n_kept_run, sm_n_kept_all{% endif %}
  FROM {{ prefix }}_running
)
{%- endif %}
{% endmacro %}

{#- The rows of `relation` sorted by score, descending, within each slice `keys`: threshold (the
    score), sm_y (the label, 0/1), sm_row (the row number), sm_tp_run (the positives up to this row),
    sm_pos and sm_rows_all (the slice's positives and rows), sm_last_of_score (1: no later row has
    this score) and sm_tie (the score where a neighbour shares it, else NULL: the rows that a
    caller groups by score to read a tie group's counts off its last row). One sort; windows
    over rows, not peers (a RANGE frame costs about twice as much on DuckDB); the slice totals
    over the whole frame of that same ordered window, not OVER (PARTITION BY keys) alone, which
    DuckDB evaluates in a second window operator (ROC curve of 2M rows: 0.45 s -> 0.37 s). -#}
{% macro ranked_scores(relation, label, score, keys) %}
{%- set w %}{{ sqlmetrics.partition_by(keys) }} ORDER BY threshold DESC{% endset %}
SELECT {{ sqlmetrics.cols(keys) }} threshold, sm_y, sm_row, sm_tp_run, sm_pos, sm_rows_all,
       CASE WHEN sm_next IS NULL OR sm_next <> threshold THEN 1 ELSE 0 END AS sm_last_of_score,
       CASE WHEN sm_previous = threshold OR sm_next = threshold THEN threshold END AS sm_tie
FROM (
  SELECT {{ sqlmetrics.cols(keys) }} threshold, sm_y,
         ROW_NUMBER() OVER ({{ w }}) AS sm_row,
         SUM(sm_y) OVER ({{ w }} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_tp_run,
         LAG(threshold) OVER ({{ w }}) AS sm_previous,
         LEAD(threshold) OVER ({{ w }}) AS sm_next,
         SUM(sm_y) OVER ({{ w }} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS sm_pos,
         COUNT(*) OVER ({{ w }} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS sm_rows_all
  FROM (
    SELECT {{ sqlmetrics.cols(keys) }} {{ sqlmetrics.ident(score) }} AS threshold, {{ sqlmetrics.is_positive(label) }} AS sm_y
    FROM {{ relation }}
  ) AS sm_labelled
) AS sm_windows
{% endmacro %}
