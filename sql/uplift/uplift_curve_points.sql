{#- The points of an uplift or Qini curve (`curve`), by threshold descending: n (the rows, or
    weight, at or above the threshold: the curve's x), the curve's value, and its four running
    sums. A score only zero-weight rows carry is no point (as sklearn's roc_curve). -#}
{% macro uplift_curve_points(relation, label, treatment, score, weight, by, curve, plan) %}
WITH {{ sqlmetrics.uplift_points(relation, label, treatment, score, weight, by, plan) }}
SELECT {{ sqlmetrics.cols(by) }} threshold, n, {{ curve }}, n_treatment, n_control, responders_treatment, responders_control
FROM (
  {#- aggregates of constants: one row per slice, also without slices -#}
  SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.infinity() }} AS threshold,
         {{ sqlmetrics.tally('MIN(0)', weight) }} AS n, {{ sqlmetrics.as_double('MIN(0)') }} AS {{ curve }},
         {{ sqlmetrics.tally('MIN(0)', weight) }} AS n_treatment, {{ sqlmetrics.tally('MIN(0)', weight) }} AS n_control,
         {{ sqlmetrics.tally('MIN(0)', weight) }} AS responders_treatment, {{ sqlmetrics.tally('MIN(0)', weight) }} AS responders_control
  FROM sm_points
  {{ sqlmetrics.group_by(by) }}
  UNION ALL
  SELECT {{ sqlmetrics.cols(by) }} threshold,
         {{ sqlmetrics.tally('sm_wt_run + sm_wc_run', weight) }} AS n,
         {{ sqlmetrics.uplift_value_at(curve, '_run') }} AS {{ curve }},
         {{ sqlmetrics.tally('sm_wt_run', weight) }} AS n_treatment, {{ sqlmetrics.tally('sm_wc_run', weight) }} AS n_control,
         {{ sqlmetrics.tally('sm_yt_run', weight) }} AS responders_treatment, {{ sqlmetrics.tally('sm_yc_run', weight) }} AS responders_control
  FROM sm_points
  WHERE sm_wt + sm_wc > 0
) AS sm_curve
ORDER BY {{ sqlmetrics.cols(by) }} threshold DESC, n
{% endmacro %}
