{#- CTE definitions (to follow a WITH) ending in sm_best: per slice, the point of the curve
    (curve_points': a row is predicted positive iff score >= threshold) where `value` (an expression
    over a point's tp, fp and the slice's class weights sm_pos, sm_neg; NULL where undefined) is
    largest. Ties: the highest threshold among the points whose value is within a relative 1e-12 of
    the largest (so that values equal but for rounding, which differs between engines and plans, tie).
    sm_best has the slice columns, sm_top (the largest value), sm_threshold, sm_tp, sm_fp (the
    chosen point's), sm_w_pos, sm_w_neg, sm_n, sm_n_pos. Among tied points tp and fp grow as the
    threshold falls, so the highest threshold's tp and fp are the tied points' smallest: plain
    aggregates, and no window beyond curve_points' (whose parallel plan serves as is; the top value
    joins the points back by (slice, bucket): spread_cte). -#}
{% macro best_point(relation, label, score, weight, by, plan, value) %}
{%- set key = sqlmetrics.spread_key(by, plan) %}
{{ sqlmetrics.curve_points(relation, label, score, weight, by, plan) }},
sm_valued AS (
  SELECT {{ sqlmetrics.cols(by + ([key] if key else [])) }} threshold, tp, fp, sm_pos, sm_neg, sm_n_at, sm_n_pos_at,
         CASE WHEN sm_point = 1 THEN {{ value }} END AS sm_value
  FROM sm_points
),
sm_top_values AS (
  SELECT {{ sqlmetrics.cols(by) }} MAX(sm_value) AS sm_top
  FROM sm_valued
  {{ sqlmetrics.group_by(by) }}
)
{{- sqlmetrics.spread_cte('sm_top_values', 'sm_valued', by, key) }},
sm_best AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_valued') }}
         MAX(sm_top_values.sm_top) AS sm_top,
         MAX(CASE WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
                  THEN sm_valued.threshold END) AS sm_threshold,
         MIN(CASE WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
                  THEN sm_valued.tp END) AS sm_tp,
         MIN(CASE WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
                  THEN sm_valued.fp END) AS sm_fp,
         MAX(sm_valued.sm_pos) AS sm_w_pos, MAX(sm_valued.sm_neg) AS sm_w_neg,
         CAST(SUM(sm_valued.sm_n_at) AS BIGINT) AS sm_n, CAST(SUM(sm_valued.sm_n_pos_at) AS BIGINT) AS sm_n_pos
  FROM sm_valued
  {{ sqlmetrics.join_slices('sm_valued', 'sm_top_values', by, key) }}
  {% if by %}GROUP BY {{ sqlmetrics.col_list_of(by, 'sm_valued') }}{% endif %}
)
{% endmacro %}
