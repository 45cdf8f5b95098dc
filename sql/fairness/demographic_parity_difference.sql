{#- The difference of the selection rate (the share predicted positive) across the sensitive groups: fairlearn.metrics.demographic_parity_difference. -#}
{% macro demographic_parity_difference(relation, label, sensitive, score=none, threshold=0.5, prediction=none, weight=none, method='between_groups', by=[]) %}
{{ sqlmetrics.rates_disparity(relation, label, score, threshold, prediction, weight, sensitive, by, method, ['selection'], 'difference', 'demographic_parity_difference') }}
{% endmacro %}
