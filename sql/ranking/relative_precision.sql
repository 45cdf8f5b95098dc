{#- Relative precision@k = relevant items in the top k / min(k, R), R the query's relevant judged
    items (retrieved or not): precision up to rank R, recall beyond it (trec_eval relative_P_k).
    k=none: relevant items retrieved / min(items retrieved, R) (trec_eval set_relative_P). 0 for a
    query without relevant items, as trec_eval. k has no default: a call without it (from dbt)
    stops, as k=none changes the denominator. -#}
{% macro relative_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc',
                            relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- if k is sameas false %}{{ sqlmetrics.fail('relative_precision needs k, the cut-off: a positive integer, or none for the whole retrieved list') }}{% endif %}
{%- set parts = sqlmetrics.relative_precision_parts('sm_hits', 'sm_in_k', 'sm_in_k = 1', k) %}
{%- set aggregates = (parts.aggregates + (['COUNT(*) AS sm_retrieved'] if 'retrieved' in parts.needs else [])) | join(', ') %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='relative_precision', query=query, by=by, per_query=per_query,
                                aggregates=aggregates, value=parts.value, missing=missing, empty=empty) }}
{% endmacro %}

{#- Relative precision's parts: the one definition its own macro and evaluate share (see evaluate).
    The value is read for a query with relevant items only (else its empty score): R > 0. -#}
{% macro relative_precision_parts(v, in_k, within, k, options={}) -%}
{%- set limit = sqlmetrics.as_double(k) if k else 'sm_retrieved' %}
{%- set denominator %}CASE WHEN sm_n_relevant < {{ limit }} THEN sm_n_relevant ELSE {{ limit }} END{% endset %}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * sm_relevant) AS ' ~ v], 'value': sqlmetrics.fdiv(v, denominator),
           'nonempty': 'sm_n_relevant', 'needs': [] if k else ['retrieved']}) }}
{%- endmacro %}
