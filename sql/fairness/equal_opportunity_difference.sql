{#- The difference of the true positive rate across the sensitive groups: fairlearn.metrics.equal_opportunity_difference. -#}
{% macro equal_opportunity_difference(relation, label, sensitive, score=none, threshold=0.5, prediction=none, weight=none, method='between_groups', by=[]) %}
{{ sqlmetrics.rates_disparity(relation, label, score, threshold, prediction, weight, sensitive, by, method, ['tpr'], 'difference', 'equal_opportunity_difference') }}
{% endmacro %}
