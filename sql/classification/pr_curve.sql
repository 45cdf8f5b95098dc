{#- Precision-recall curve: a first point at threshold +inf (precision 1, recall 0: sklearn's final
    point), then one point per distinct score (of non-zero weight), descending. recall is NULL in a slice without positives.
    Reference: sklearn precision_recall_curve (same points, reversed order). -#}
{% macro pr_curve(relation, label, score, weight=none, max_points=none, by=[], plan=none) %}
{{ sqlmetrics.threshold_curve(relation, label, score, weight, by, [
     (sqlmetrics.ident('precision'), sqlmetrics.as_double('1'), sqlmetrics.fdiv('tp', 'tp + fp')),
     ('recall', sqlmetrics.fdiv('0', 'MAX(sm_pos)'), sqlmetrics.fdiv('tp', 'sm_pos')),
     ('tp', sqlmetrics.tally('0', weight), sqlmetrics.tally('tp', weight)),
     ('fp', sqlmetrics.tally('0', weight), sqlmetrics.tally('fp', weight))], max_points, plan or sqlmetrics.default_plan()) }}
{% endmacro %}
