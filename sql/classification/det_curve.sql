{#- Detection error tradeoff curve, as sklearn.metrics.det_curve (1.9, drop_intermediate=False):
    fpr = fp / negatives and fnr = fn / positives with a row predicted positive iff score >= threshold,
    at threshold +inf and at each distinct score of non-zero weight (curve_points'), trimmed as sklearn
    trims: from the last point (lowest threshold) with fp = 0 - which is +inf only when the highest
    score carries negative weight - down to the first point with fn = 0 (the lowest score carrying
    positive weight); in ascending threshold order (fpr falling, fnr rising). fn = 0 is found from
    the scores, not the running sums, which rounding may keep a hair from the total. In a slice
    without negatives (positives), fpr (fnr) is NULL. The parallel plan joins a slice's ends back to
    its points by (slice, bucket) (spread_cte). -#}
{% macro det_curve(relation, label, score, weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set key = sqlmetrics.spread_key(by, plan) %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, plan) }},
sm_det_ends AS (
  SELECT {{ sqlmetrics.cols(by) }}
         MIN(CASE WHEN sm_point = 1 AND fp = 0 THEN threshold END) AS sm_first,
         MIN(CASE WHEN sm_tp_at > 0 THEN threshold END) AS sm_last,
         MAX(sm_pos) AS sm_w_pos, MAX(sm_neg) AS sm_w_neg
  FROM sm_points
  {{ sqlmetrics.group_by(by) }}
)
{{- sqlmetrics.spread_cte('sm_det_ends', 'sm_points', by, key) }}
SELECT {{ sqlmetrics.cols(by) }} threshold, fpr, fnr, fp, fn
FROM (
  {#- +inf: no row predicted positive #}
  SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.infinity() }} AS threshold,
         {{ sqlmetrics.fdiv('0', 'sm_w_neg') }} AS fpr, {{ sqlmetrics.fdiv('sm_w_pos', 'sm_w_pos') }} AS fnr,
         {{ sqlmetrics.tally('0', weight) }} AS fp, {{ sqlmetrics.tally('sm_w_pos', weight) }} AS fn
  FROM sm_det_ends
  WHERE sm_first IS NULL
  UNION ALL
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_points') }} sm_points.threshold,
         {{ sqlmetrics.fdiv('sm_points.fp', 'sm_points.sm_neg') }} AS fpr,
         {{ sqlmetrics.fdiv('sm_points.sm_pos - sm_points.tp', 'sm_points.sm_pos') }} AS fnr,
         {{ sqlmetrics.tally('sm_points.fp', weight) }} AS fp, {{ sqlmetrics.tally('sm_points.sm_pos - sm_points.tp', weight) }} AS fn
  FROM sm_points
  {{ sqlmetrics.join_slices('sm_points', 'sm_det_ends', by, key) }}
  WHERE sm_points.sm_point = 1 AND sm_points.threshold >= sm_det_ends.sm_last
    AND (sm_det_ends.sm_first IS NULL OR sm_points.threshold <= sm_det_ends.sm_first)
) AS sm_det
ORDER BY {{ sqlmetrics.cols(by) }} threshold, fn, fp DESC
{% endmacro %}
