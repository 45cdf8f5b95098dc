{#- precision = (tp) / (tp + fp) from the confusion matrix; NULL when the denominator is 0. -#}
{% macro precision(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('tp', 'tp + fp') }} AS {{ sqlmetrics.ident('precision') }}, tp, fp, tn, fn, n
FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by) }}) AS sm_confusion
{% endmacro %}
