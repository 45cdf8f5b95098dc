{#- ROC curve: a first point at threshold +inf (0, 0), then one point per distinct score, descending.
    Scores carried only by zero-weight rows are no threshold (as sklearn). fpr/tpr are NULL in a
    slice without negatives/positives.
    Reference: sklearn roc_curve(drop_intermediate=False). -#}
{% macro roc_curve(relation, label, score, weight=none, max_points=none, by=[], plan=none) %}
{{ sqlmetrics.threshold_curve(relation, label, score, weight, by, [
     ('fpr', sqlmetrics.fdiv('0', 'MAX(sm_neg)'), sqlmetrics.fdiv('fp', 'sm_neg')),
     ('tpr', sqlmetrics.fdiv('0', 'MAX(sm_pos)'), sqlmetrics.fdiv('tp', 'sm_pos')),
     ('tp', sqlmetrics.tally('0', weight), sqlmetrics.tally('tp', weight)),
     ('fp', sqlmetrics.tally('0', weight), sqlmetrics.tally('fp', weight)),
     ('tn', sqlmetrics.tally('MAX(sm_neg)', weight), sqlmetrics.tally('sm_neg - fp', weight)),
     ('fn', sqlmetrics.tally('MAX(sm_pos)', weight), sqlmetrics.tally('sm_pos - tp', weight))],
   max_points, plan or sqlmetrics.default_plan()) }}
{% endmacro %}
