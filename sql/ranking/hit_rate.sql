{#- Hit rate@k = share of queries with at least one relevant item in the top k.
    Reference: pytrec_eval success_k. k=none: anywhere in the retrieved list. k has no default: a
    call without it (from dbt) stops. -#}
{% macro hit_rate(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc', relevance_threshold=1.0, missing='zero',
                  empty='zero', by=[], per_query=false) %}
{%- if k is sameas false %}{{ sqlmetrics.fail('hit_rate needs k, the cut-off: a positive integer, or none for the whole retrieved list') }}{% endif %}
{%- set parts = sqlmetrics.hit_rate_parts('sm_hit', 'sm_in_k', 'sm_in_k = 1', k) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='hit_rate', query=query, by=by, per_query=per_query,
                                aggregates=parts.aggregates | join(', '), value=parts.value,
                                missing=missing, empty=empty) }}
{% endmacro %}

{#- Hit rate's parts: the one definition its own macro and evaluate share (see evaluate). -#}
{% macro hit_rate_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['MAX(' ~ in_k ~ ' * sm_relevant) AS ' ~ v], 'value': sqlmetrics.as_double(v),
           'nonempty': 'sm_n_relevant', 'needs': []}) }}
{%- endmacro %}
