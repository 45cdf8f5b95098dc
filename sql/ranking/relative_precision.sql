{#- Relative precision@k = relevant items in the top k / min(k, R), R the query's relevant judged
    items (retrieved or not): precision up to rank R, recall beyond it (trec_eval relative_P_k).
    k=none: relevant items retrieved / min(items retrieved, R) (trec_eval set_relative_P). 0 for a
    query without relevant items, as trec_eval. Its parts: the one definition its own call and
    evaluate share (see evaluate). The value is read for a query with relevant items only (else its
    empty score): R > 0. -#}
{% macro relative_precision_parts(v, in_k, within, k, options={}) -%}
{%- set limit = sqlmetrics.as_double(k) if k else 'sm_retrieved' %}
{%- set denominator %}CASE WHEN sm_n_relevant < {{ limit }} THEN sm_n_relevant ELSE {{ limit }} END{% endset %}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * sm_relevant) AS ' ~ v], 'value': sqlmetrics.fdiv(v, denominator),
           'nonempty': 'sm_n_relevant', 'needs': [] if k else ['retrieved']}) }}
{%- endmacro %}
