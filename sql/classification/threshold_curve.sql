{#- Shared frame of roc_curve and pr_curve, one row per point, by threshold descending: first the
    point at threshold +inf (no row predicted positive), then one per distinct score of non-zero
    weight (curve_points'). `columns`: the curve's columns after threshold, each a tuple (name, value
    at +inf, value at a score). The value at +inf aggregates over the slice's points (the slice
    totals are MAX(sm_pos), MAX(sm_neg)); the value at a score reads that point's tp, fp, sm_pos and
    sm_neg. The columns must include tp and fp: they break ties in the order. -#}
{% macro threshold_curve(relation, label, score, weight, by, columns) %}
WITH sm_points AS (
  {{ sqlmetrics.curve_points(relation, label, score, weight, by) }}
)
SELECT {{ sqlmetrics.cols(by) }} threshold{% for name, at_infinity, at_score in columns %}, {{ name }}{% endfor %}
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.infinity() }} AS threshold
         {%- for name, at_infinity, at_score in columns %},
         {{ at_infinity }} AS {{ name }}
         {%- endfor %}
  FROM sm_points
  {{ sqlmetrics.group_by(by) }}
  UNION ALL
  SELECT {{ sqlmetrics.cols(by) }}
         threshold
         {%- for name, at_infinity, at_score in columns %},
         {{ at_score }} AS {{ name }}
         {%- endfor %}
  FROM sm_points
  WHERE sm_tp_at + sm_fp_at > 0
) AS sm_curve
ORDER BY {{ sqlmetrics.cols(by) }} threshold DESC, tp, fp
{% endmacro %}
