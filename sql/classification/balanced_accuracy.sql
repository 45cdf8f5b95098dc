{#- Balanced accuracy: the mean recall tp / (tp + fn) of the classes that have true rows (support
    > 0; a class only predicted is left out, as sklearn); adjusted: (score - 1/K) / (1 - 1/K), K
    those classes, so that chance scores 0 (undefined for K = 1). n_classes = K, n = rows.
    Reference: sklearn balanced_accuracy_score(y, y_pred, sample_weight=w, adjusted=...). -#}
{% macro balanced_accuracy(relation, label, prediction, weight=none, adjusted=false, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }}
       {% if adjusted %}{{ sqlmetrics.fdiv('sm_k * sm_mean - 1', 'sm_k - 1') }}{% else %}sm_mean{% endif %} AS balanced_accuracy,
       sm_k AS n_classes, sm_n_rows AS n
FROM (
  SELECT {{ sqlmetrics.cols(by) }} AVG(sm_recall) AS sm_mean, COUNT(sm_recall) AS sm_k, COALESCE(MAX(sm_rows), 0) AS sm_n_rows
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.recall_of('sm_tp', 'sm_fp', 'sm_fn') }} AS sm_recall, sm_rows
    FROM ({{ sqlmetrics.class_counts(relation, label, prediction, weight, by) }}) AS sm_counts
  ) AS sm_recalls
  {{ sqlmetrics.group_by(by) }}
) AS sm_mean_recall
{% endmacro %}
