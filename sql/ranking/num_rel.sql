{#- Relevant judged items (relevance >= relevance_threshold, retrieved or not): per query, and their
    sum over the queries (trec_eval num_rel, a count, not a mean). A judged query absent from the
    run adds its own count too (as trec_eval -c); missing and empty decide which queries are
    counted (n_queries) and listed per query. -#}
{% macro num_rel(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                 missing='zero', empty='zero', by=[], per_query=false) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties='item_desc') }},
{{ sqlmetrics.mean_over_queries(name='num_rel', query=query, by=by, per_query=per_query, aggregates='COUNT(*) AS sm_retrieved',
                                value='sm_queries.sm_n_relevant', combine='sum', missing=missing, empty=empty,
                                missing_score='sm_n_relevant', ranked='sm_rows') }}
{% endmacro %}
