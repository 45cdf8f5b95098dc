{#- Shared frame of roc_curve and pr_curve, one row per point, by threshold descending: first the
    point at threshold +inf (no row predicted positive), then one per distinct score of non-zero
    weight (curve_points'). `columns`: the curve's columns after threshold, each a tuple (name, value
    at +inf, value at a score). The value at +inf aggregates over the slice's points (the slice
    totals are MAX(sm_pos), MAX(sm_neg)); the value at a score reads that point's tp, fp, sm_pos and
    sm_neg. The columns must include tp and fp: they break ties in the order.
    max_points (or none: every point): the points where the rows of the curve's scores at or above
    the threshold first reach each of max_points - 1 evenly spaced shares of them (the last point
    included), plus the point at +inf: exact points, at most max_points of them, evenly spaced in
    rank as the thresholds of BigQuery ML's ML.ROC_CURVE are. A tie group holding more rows than one
    step is one point. `plan`: running_sums'. -#}
{% macro threshold_curve(relation, label, score, weight, by, columns, max_points, plan) %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, plan, counted=max_points) }}
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
  WHERE sm_point = 1
  {%- if max_points %}
    {#- k * (max_points - 1) / n rounds to the right side of an integer: below 2^53 both are exact
        and the quotient is correctly rounded #}
    AND FLOOR({{ sqlmetrics.fdiv('sm_n_kept_run * ' ~ (max_points - 1), 'sm_n_kept_all') }})
        > FLOOR({{ sqlmetrics.fdiv('(sm_n_kept_run - sm_n_kept) * ' ~ (max_points - 1), 'sm_n_kept_all') }})
  {%- endif %}
) AS sm_curve
ORDER BY {{ sqlmetrics.cols(by) }} threshold DESC, tp, fp
{% endmacro %}
