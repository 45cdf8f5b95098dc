{#- specificity = (tn) / (tn + fp) from the confusion matrix; NULL when the denominator is 0. -#}
{% macro specificity(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('tn', 'tn + fp') }} AS {{ sqlmetrics.ident('specificity') }}, tp, fp, tn, fn, n
FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by) }}) AS sm_confusion
{% endmacro %}
