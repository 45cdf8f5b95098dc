{#- The differences of the true positive rate and of the false positive rate across the sensitive groups, the larger (agg='worst_case') or their mean (agg='mean'): fairlearn.metrics.equalized_odds_difference. -#}
{% macro equalized_odds_difference(relation, label, sensitive, score=none, threshold=0.5, prediction=none, weight=none, method='between_groups', agg='worst_case', by=[]) %}
{{ sqlmetrics.rates_disparity(relation, label, score, threshold, prediction, weight, sensitive, by, method, ['tpr', 'fpr'], 'difference', 'equalized_odds_difference', agg) }}
{% endmacro %}
