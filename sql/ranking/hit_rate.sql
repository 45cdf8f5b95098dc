{#- Hit rate@k = share of queries with at least one relevant item in the top k.
    Reference: pytrec_eval success_k. -#}
{% macro hit_rate(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1, missing='zero',
                  empty='zero', by=[], per_query=false) %}
{{ sqlmetrics.ranking_metric('hit_rate', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'linear', missing,
     empty, per_query, aggregates='MAX(sm_in_k * sm_relevant) AS sm_hit', value='CAST(sm_hit AS DOUBLE)') }}
{% endmacro %}
