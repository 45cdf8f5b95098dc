{#- Items retrieved: per query, and their sum over the queries (trec_eval num_ret, a count, not a
    mean). A query absent from the run adds 0; a query without relevant items adds its own count;
    missing and empty decide which queries are counted (n_queries) and listed per query. -#}
{% macro num_ret(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                 missing='zero', empty='zero', by=[], per_query=false) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties='item_desc') }},
{{ sqlmetrics.mean_over_queries(name='num_ret', query=query, by=by, per_query=per_query, aggregates='COUNT(*) AS sm_retrieved',
                                value='sm_retrieved', combine='sum', missing=missing, empty=empty, empty_score='sm_value',
                                ranked='sm_rows') }}
{% endmacro %}
