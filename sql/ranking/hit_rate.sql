{#- Hit rate@k = share of queries with at least one relevant item in the top k.
    Reference: pytrec_eval success_k. k=none: anywhere in the retrieved list. Its parts: the one
    definition its own call and evaluate share (see evaluate). -#}
{% macro hit_rate_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['MAX(' ~ in_k ~ ' * sm_relevant) AS ' ~ v], 'value': sqlmetrics.as_double(v),
           'nonempty': 'sm_n_relevant', 'needs': []}) }}
{%- endmacro %}
