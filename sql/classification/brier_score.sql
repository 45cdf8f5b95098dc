{#- Brier score = (1/W) sum w*(p - y)^2. Reference: sklearn brier_score_loss. -#}
{% macro brier_score(relation, label, score, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} sm_loss / NULLIF(sm_weight, 0) AS brier_score, n, n_pos, n_neg
FROM ({{ sqlmetrics.probability_sums(relation, label, score, weight, by, '(sm_p - sm_y) * (sm_p - sm_y)') }}) AS sm_sums
{% endmacro %}
