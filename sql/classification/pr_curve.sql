{#- Precision-recall curve: a first point at threshold +inf (precision 1, recall 0: sklearn's final
    point), then one point per distinct score (of non-zero weight), descending. recall is NULL in a slice without positives.
    Reference: sklearn precision_recall_curve (same points, reversed order). -#}
{% macro pr_curve(relation, label, score, weight=none, by=[]) %}
WITH sm_points AS (
  {{ sqlmetrics.curve_points(relation, label, score, weight, by) }}
)
SELECT {{ sqlmetrics.cols(by) }} threshold, {{ sqlmetrics.ident("precision") }}, recall, tp, fp
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.infinity() }} AS threshold,
         {{ sqlmetrics.as_double('1') }} AS {{ sqlmetrics.ident("precision") }},
         {{ sqlmetrics.fdiv('0', 'MAX(sm_pos)') }} AS recall,
         {{ sqlmetrics.tally('0', weight) }} AS tp,
         {{ sqlmetrics.tally('0', weight) }} AS fp
  FROM sm_points
  {{ sqlmetrics.group_by(by) }}
  UNION ALL
  SELECT {{ sqlmetrics.cols(by) }}
         threshold,
         {{ sqlmetrics.fdiv('tp', 'tp + fp') }} AS {{ sqlmetrics.ident("precision") }},
         {{ sqlmetrics.fdiv('tp', 'sm_pos') }} AS recall,
         {{ sqlmetrics.tally('tp', weight) }} AS tp,
         {{ sqlmetrics.tally('fp', weight) }} AS fp
  FROM sm_points
  WHERE sm_tp_at + sm_fp_at > 0
) AS sm_curve
ORDER BY {{ sqlmetrics.cols(by) }} threshold DESC, tp, fp
{% endmacro %}
