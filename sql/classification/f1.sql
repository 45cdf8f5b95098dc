{#- F1 = 2*tp / (2*tp + fn + fp), i.e. F_beta with beta = 1. -#}
{% macro f1(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[], average='binary', zero_division=none) %}
{%- if average is none %}
SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.ident('class') }}, f_beta AS f1, support
{%- else %}
SELECT {{ sqlmetrics.cols(by) }} f_beta AS f1, tp, fp, tn, fn, n
{%- endif %}
FROM ({{ sqlmetrics.f_beta(relation, label, score, threshold, prediction, weight, by, 1.0, average, zero_division) }}) AS sm_f
{% endmacro %}
