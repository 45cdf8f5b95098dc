{#- The gain of the relevance grade sm_rel, as an expression: 'linear' sm_rel; 'exponential'
    2^sm_rel - 1; 'exponential_scaled' 2^-S * (2^sm_rel - 1), with S and 2^-S from sm_grades
    (query_judgments(grades=true)): no gain nor sum of gains then overflows a double, for the
    metrics that are ratios of gains (the scale cancels). -#}
{% macro relevance_gain(gain) -%}
{%- if gain == 'linear' -%}
sm_rel
{%- elif gain == 'exponential' -%}
(POWER(2, sm_rel) - 1)
{%- elif gain == 'exponential_scaled' -%}
({{ sqlmetrics.pow2('sm_rel - sm_grades.sm_shift') }} - sm_grades.sm_unit)
{%- else -%}
{%- set message %}gain is 'exponential' or 'linear', not '{{ gain }}'{% endset -%}
{{ sqlmetrics.fail(message) }}
{%- endif -%}
{%- endmacro %}

{#- The column of a gain variant's gain as counted in the ranked rows: ranked_rows' own sm_eff_gain,
    or, where `variants` (evaluate's rows, which carry each variant its measures use), the
    variant's own column for the gains other than linear. -#}
{% macro gain_column(variant, variants=false) -%}
{{ return('sm_eff_gain_' ~ variant if variants and variant != 'linear' else 'sm_eff_gain') }}
{%- endmacro %}
