{#- The worse (fairlearn's agg='worst_case': the smaller ratio) of the ratios of the true positive rate and of the false positive rate across the sensitive groups: fairlearn.metrics.equalized_odds_ratio. -#}
{% macro equalized_odds_ratio(relation, label, sensitive, score=none, threshold=0.5, prediction=none, weight=none, method='between_groups', by=[]) %}
{{ sqlmetrics.group_disparity(relation, label, score, threshold, prediction, weight, sensitive, by, method, ['tpr', 'fpr'], 'ratio', 'equalized_odds_ratio') }}
{% endmacro %}
