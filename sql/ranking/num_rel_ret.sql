{#- Relevant items retrieved (anywhere in the list): per query, and their sum over the queries
    (trec_eval num_rel_ret, a count, not a mean). A query absent from the run, or without relevant
    items, adds 0 whatever missing and empty say; they decide which queries are counted
    (n_queries) and listed per query. -#}
{% macro num_rel_ret(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                     missing='zero', empty='zero', by=[], per_query=false) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties='item_desc') }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties='item_desc', relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='num_rel_ret', query=query, by=by, per_query=per_query,
                                aggregates='SUM(sm_relevant) AS sm_hits', value='sm_hits', combine='sum',
                                missing=missing, empty=empty) }}
{% endmacro %}
