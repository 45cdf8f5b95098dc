{#- accuracy = (tp + tn) / (tp + fp + tn + fn) from the confusion matrix; NULL when the denominator
    is 0. With classes (average other than 'binary'), each class's accuracy is its recall (as
    torchmetrics' multi-class accuracy): 'micro' = correct rows / rows (sklearn accuracy_score),
    'macro' = the mean recall of the classes that have true rows (sklearn balanced_accuracy_score),
    'weighted' = the support-weighted mean recall, none = each class's recall. -#}
{% macro accuracy(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[], average='binary') %}
{%- if average != 'binary' %}{{ sqlmetrics.class_average(relation, label, prediction, weight, by, average, 'nan', 'accuracy', sqlmetrics.recall_of) }}
{%- else %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('tp + tn', 'tp + fp + tn + fn') }} AS {{ sqlmetrics.ident('accuracy') }}, tp, fp, tn, fn, n
FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by) }}) AS sm_confusion
{%- endif %}
{% endmacro %}
