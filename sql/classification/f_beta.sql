{#- F_beta = (1 + beta^2)*tp / ((1 + beta^2)*tp + beta^2*fn + fp); NULL when tp = fp = fn = 0 (or
    zero_division's value). Reference: sklearn fbeta_score. With average other than 'binary',
    label and prediction are classes (class_average). -#}
{% macro f_beta(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[], beta=1.0, average='binary', zero_division=none) %}
{%- if average != 'binary' %}{{ sqlmetrics.class_average(relation, label, prediction, weight, by, average, zero_division, 'f_beta', sqlmetrics.f_beta_of, beta) }}
{%- else %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.zero_division_value(sqlmetrics.f_beta_of('tp', 'fp', 'fn', beta), zero_division) }} AS f_beta,
       tp, fp, tn, fn, n
FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by) }}) AS sm_confusion
{%- endif %}
{% endmacro %}

{#- F_beta of the counts tp, fp, fn (SQL expressions); NULL when all three are 0.
    Computed divided through by 1 + beta^2, so that beta^2 is never formed in SQL (it overflows a
    double for beta above ~1e154): F = tp / (tp + a*fn + c*fp), a = beta^2 / (1 + beta^2) and
    c = 1 / (1 + beta^2), both in [0, 1] and worked out here. One of them below 1e-300 (beta
    beyond 1e150 or below 1e-150) is taken as 0: its term is then below 1e-300 of the other counts,
    and PostgreSQL would fail on a product that underflows. -#}
{% macro f_beta_of(tp, fp, fn, beta) -%}
{%- if not beta > 0 %}{{ sqlmetrics.fail('f_beta needs beta > 0; got ' ~ beta) }}{% endif %}
{%- if beta >= 1 %}
{%- set r = (1.0 / beta) * (1.0 / beta) %}
{%- set a = 1.0 / (1.0 + r) %}
{%- set c = r / (1.0 + r) %}
{%- else %}
{%- set b2 = beta * beta %}
{%- set a = b2 / (1.0 + b2) %}
{%- set c = 1.0 / (1.0 + b2) %}
{%- endif %}
{%- set denominator -%}
{{ tp }} + {{ sqlmetrics.as_double(a if a >= 1e-300 else 0.0) }} * {{ fn }} + {{ sqlmetrics.as_double(c if c >= 1e-300 else 0.0) }} * {{ fp }}
{%- endset -%}
CASE WHEN {{ tp }} > 0 THEN {{ sqlmetrics.fdiv(tp, denominator) }}
     WHEN {{ fp }} + {{ fn }} > 0 THEN {{ sqlmetrics.as_double(0) }} END
{%- endmacro %}
