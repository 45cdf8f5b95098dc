{#- Reciprocal rank = 1 / rank of the first relevant item within k, else 0; MRR is the mean over
    queries. Reference: pytrec_eval recip_rank. -#}
{% macro mrr(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1.0, missing='zero',
             empty='zero', by=[], per_query=false) %}
{%- set reciprocal_rank %}
MAX(CASE WHEN sm_in_k = 1 AND sm_relevant = 1 THEN 1 / {{ sqlmetrics.as_double('sm_pos') }} ELSE 0 END) AS sm_rr
{%- endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='mrr', query=query, by=by, per_query=per_query, aggregates=reciprocal_rank, value='sm_rr',
                                missing=missing, empty=empty) }}
{% endmacro %}
