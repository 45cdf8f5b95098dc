{#- The confusion matrix in long form: one row per (true class, predicted class) that occurs, n its
    rows (weight sum when weighted), in class order (numbers by value, text byte by byte).
    Reference: sklearn confusion_matrix(y, y_pred, sample_weight=w), whose zero cells are left out. -#}
{% macro multiclass_confusion_matrix(relation, label, prediction, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} sm_true AS true_class, sm_pred AS predicted_class, sm_n AS n
FROM ({{ sqlmetrics.class_cells(relation, label, prediction, weight, by) }}) AS sm_cells
ORDER BY {{ sqlmetrics.cols(by) }} {{ sqlmetrics.class_order('sm_true', label) }}, {{ sqlmetrics.class_order('sm_pred', label) }}
{% endmacro %}
