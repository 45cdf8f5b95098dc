{#- accuracy = (tp + tn) / (tp + fp + tn + fn) from the confusion matrix; NULL when the denominator is 0. -#}
{% macro accuracy(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('tp + tn', 'tp + fp + tn + fn') }} AS {{ sqlmetrics.ident('accuracy') }}, tp, fp, tn, fn, n
FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by) }}) AS sm_confusion
{% endmacro %}
