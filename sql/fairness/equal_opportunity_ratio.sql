{#- The ratio of the true positive rate across the sensitive groups: fairlearn.metrics.equal_opportunity_ratio. -#}
{% macro equal_opportunity_ratio(relation, label, sensitive, score=none, threshold=0.5, prediction=none, weight=none, method='between_groups', by=[]) %}
{{ sqlmetrics.rates_disparity(relation, label, score, threshold, prediction, weight, sensitive, by, method, ['tpr'], 'ratio', 'equal_opportunity_ratio') }}
{% endmacro %}
