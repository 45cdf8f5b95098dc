{#- Relative information gain = 1 - normalized entropy (He et al. 2014): the share of the base
    rate's entropy that the predictions explain. NULL where normalized_entropy is. -#}
{% macro relative_information_gain(relation, label, score, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} 1 - normalized_entropy AS relative_information_gain, log_loss, base_rate, n, n_pos, n_neg
FROM ({{ sqlmetrics.normalized_entropy(relation, label, score, weight, by) }}) AS sm_ne
{% endmacro %}
