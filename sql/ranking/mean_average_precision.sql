{#- map: the short name of mean_average_precision (as sm.map), same arguments. -#}
{% macro map(relation) %}
{{- sqlmetrics.mean_average_precision(relation, *varargs, **kwargs) -}}
{% endmacro %}

{#- AP@k = (1/D) * sum over relevant items at ranks r <= k of P@r; D = R, the relevant judged items
    (retrieved or not; trec_eval map / map_cut), or min(k, R) with options.denominator 'min_k_r'. MAP
    is their mean over queries; options.combine 'geometric' their geometric mean (gm_map). AP's parts:
    the one definition its own call and evaluate share (see evaluate). -#}
{% macro mean_average_precision_parts(v, in_k, within, k, options={}) -%}
{%- set precisions %}SUM({{ in_k }} * sm_relevant * {{ sqlmetrics.as_double('sm_cum_relevant') }} / sm_pos) AS {{ v }}{% endset %}
{%- set d %}
{%- if options.get('denominator', 'r') == 'r' or not k %}sm_n_relevant{% else %}CASE WHEN sm_n_relevant < {{ k }} THEN sm_n_relevant ELSE {{ k }} END{% endif %}
{%- endset %}
{%- set parts = {'aggregates': [precisions], 'value': sqlmetrics.fdiv(v, d), 'nonempty': 'sm_n_relevant',
                 'needs': ['cumulative_relevant']} %}
{%- if options.get('combine', 'mean') != 'mean' %}{% set _ = parts.update({'combine': options.combine}) %}{% endif %}
{{ return(parts) }}
{%- endmacro %}
