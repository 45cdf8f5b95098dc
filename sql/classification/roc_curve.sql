{#- ROC curve: a first point at threshold +inf (0, 0), then one point per distinct score, descending.
    Scores carried only by zero-weight rows are no threshold (as sklearn). fpr/tpr are NULL in a
    slice without negatives/positives.
    Reference: sklearn roc_curve(drop_intermediate=False). -#}
{% macro roc_curve(relation, label, score, weight=none, by=[]) %}
WITH sm_points AS (
  {{ sqlmetrics.curve_points(relation, label, score, weight, by) }}
)
SELECT {{ sqlmetrics.cols(by) }} threshold, fpr, tpr, tp, fp, tn, fn
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.infinity() }} AS threshold,
         {{ sqlmetrics.fdiv('0', 'MAX(sm_neg)') }} AS fpr,
         {{ sqlmetrics.fdiv('0', 'MAX(sm_pos)') }} AS tpr,
         {{ sqlmetrics.tally('0', weight) }} AS tp,
         {{ sqlmetrics.tally('0', weight) }} AS fp,
         {{ sqlmetrics.tally('MAX(sm_neg)', weight) }} AS tn,
         {{ sqlmetrics.tally('MAX(sm_pos)', weight) }} AS fn
  FROM sm_points
  {{ sqlmetrics.group_by(by) }}
  UNION ALL
  SELECT {{ sqlmetrics.cols(by) }}
         threshold,
         {{ sqlmetrics.fdiv('fp', 'sm_neg') }} AS fpr,
         {{ sqlmetrics.fdiv('tp', 'sm_pos') }} AS tpr,
         {{ sqlmetrics.tally('tp', weight) }} AS tp,
         {{ sqlmetrics.tally('fp', weight) }} AS fp,
         {{ sqlmetrics.tally('sm_neg - fp', weight) }} AS tn,
         {{ sqlmetrics.tally('sm_pos - tp', weight) }} AS fn
  FROM sm_points
  WHERE sm_tp_at + sm_fp_at > 0
) AS sm_curve
ORDER BY {{ sqlmetrics.cols(by) }} threshold DESC, tp, fp
{% endmacro %}
