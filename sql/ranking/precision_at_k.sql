{#- P@k = relevant items in the top k / k (k, not the list length). Reference: pytrec_eval P_k.
    k=none: relevant items retrieved / items retrieved, over the whole list of the query (trec_eval
    set_P; sm.set_precision). k has no default: a call without it (from dbt) stops, as k=none
    changes the denominator. `name`: the output column (set_precision's). -#}
{% macro precision_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc', relevance_threshold=1.0,
                        missing='zero', empty='zero', by=[], per_query=false, name='precision_at_k') %}
{%- if k is sameas false %}{{ sqlmetrics.fail('precision_at_k needs k, the cut-off: a positive integer, or none for the whole retrieved list') }}{% endif %}
{%- set parts = sqlmetrics.precision_at_k_parts('sm_hits', 'sm_in_k', 'sm_in_k = 1', k) %}
{%- set aggregates = (parts.aggregates + (['COUNT(*) AS sm_retrieved'] if 'retrieved' in parts.needs else [])) | join(', ') %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name=name, query=query, by=by, per_query=per_query,
                                aggregates=aggregates, value=parts.value, missing=missing, empty=empty) }}
{% endmacro %}

{#- Set precision = relevant items retrieved / items retrieved (trec_eval set_P): precision_at_k
    with k=none. -#}
{% macro set_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                       missing='zero', empty='zero', by=[], per_query=false) %}
{{- sqlmetrics.precision_at_k(relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, k=none,
                              relevance_threshold=relevance_threshold, missing=missing, empty=empty, by=by,
                              per_query=per_query, name='set_precision') -}}
{% endmacro %}

{#- P@k's parts: the one definition its own macro and evaluate share (see evaluate). -#}
{% macro precision_at_k_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * sm_eff_relevant) AS ' ~ v],
           'value': (v ~ ' / ' ~ sqlmetrics.as_double(k)) if k else sqlmetrics.fdiv(v, 'sm_retrieved'),
           'nonempty': 'sm_n_relevant', 'needs': [] if k else ['retrieved']}) }}
{%- endmacro %}
