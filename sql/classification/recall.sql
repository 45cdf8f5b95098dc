{#- recall = tp / (tp + fn) from the confusion matrix; NULL when the denominator is 0 (or
    zero_division's value). With average other than 'binary', label and prediction are classes
    (class_average). -#}
{% macro recall(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[], average='binary', zero_division=none) %}
{%- if average != 'binary' %}{{ sqlmetrics.class_average(relation, label, prediction, weight, by, average, zero_division, 'recall', sqlmetrics.recall_of) }}
{%- else %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.zero_division_value(sqlmetrics.recall_of('tp', 'fp', 'fn'), zero_division) }} AS {{ sqlmetrics.ident('recall') }}, tp, fp, tn, fn, n
FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by) }}) AS sm_confusion
{%- endif %}
{% endmacro %}

{#- The recall of the counts tp, fp, fn (SQL expressions): NULL when it is 0/0 (the signature of
    class_average's score_of). -#}
{% macro recall_of(tp, fp, fn, beta=none) -%}
{{ sqlmetrics.fdiv(tp, tp ~ ' + ' ~ fn) }}
{%- endmacro %}
