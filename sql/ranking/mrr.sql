{#- Reciprocal rank = 1 / rank of the first relevant item within k, else 0; MRR is the mean over
    queries. Reference: pytrec_eval recip_rank. -#}
{% macro mrr(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1.0, missing='zero',
             empty='zero', by=[], per_query=false) %}
{{ sqlmetrics.ranking_metric('mrr', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'linear', missing, empty,
     per_query, aggregates='MAX(CASE WHEN sm_in_k = 1 AND sm_relevant = 1 THEN 1 / ' ~ sqlmetrics.as_double('sm_pos') ~ ' ELSE 0 END) AS sm_rr',
     value='sm_rr') }}
{% endmacro %}
