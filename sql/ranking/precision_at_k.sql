{#- Set precision = relevant items retrieved / items retrieved (trec_eval set_P): precision_at_k
    with k=none. -#}
{% macro set_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                       missing='zero', empty='zero', by=[], per_query=false) %}
{{- sqlmetrics.precision_at_k(relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, k=none,
                              relevance_threshold=relevance_threshold, missing=missing, empty=empty, by=by,
                              per_query=per_query, name='set_precision') -}}
{% endmacro %}

{#- P@k = relevant items in the top k / k (k, not the list length). Reference: pytrec_eval P_k.
    k=none: relevant items retrieved / items retrieved, over the whole list of the query (trec_eval
    set_P; sm.set_precision). P@k's parts: the one definition its own call and evaluate share (see
    evaluate). -#}
{% macro precision_at_k_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * sm_eff_relevant) AS ' ~ v],
           'value': (v ~ ' / ' ~ sqlmetrics.as_double(k)) if k else sqlmetrics.fdiv(v, 'sm_retrieved'),
           'nonempty': 'sm_n_relevant', 'needs': [] if k else ['retrieved']}) }}
{%- endmacro %}
