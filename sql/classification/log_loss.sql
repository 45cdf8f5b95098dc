{#- Log loss = -(1/W) sum w*(y*ln(p) + (1-y)*ln(1-p)), p clipped to [eps, 1-eps] with
    eps = 2.220446049250313e-16, the float64 machine epsilon (as sklearn >= 1.5). -#}
{% macro log_loss(relation, label, score, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }} sm_loss / NULLIF(sm_weight, 0) AS log_loss, n, n_pos, n_neg
FROM ({{ sqlmetrics.probability_sums(relation, label, score, weight, by, sqlmetrics.log_loss_term()) }}) AS sm_sums
{% endmacro %}

{#- A row's log loss, over labelled_rows' sm_p and sm_y: -ln of the probability given to its label,
    clipped (LN(0) fails on PostgreSQL). -#}
{% macro log_loss_term() %}
{%- set clipped = sqlmetrics.clipped_probability('sm_p') -%}
CASE WHEN sm_y = 1 THEN -LN({{ clipped }}) ELSE -LN(1 - ({{ clipped }})) END
{%- endmacro %}

{#- The probability `p` clipped to [eps, 1 - eps], eps = 2.220446049250313e-16 (the float64 machine
    epsilon, as sklearn >= 1.5): its logarithm and that of 1 - p are finite. -#}
{% macro clipped_probability(p) -%}
{%- set eps = sqlmetrics.as_double('2.220446049250313e-16') -%}
CASE WHEN {{ p }} < {{ eps }} THEN {{ eps }} WHEN {{ p }} > 1 - {{ eps }} THEN 1 - {{ eps }} ELSE {{ p }} END
{%- endmacro %}
