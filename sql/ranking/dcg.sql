{#- DCG@k = sum over ranks r <= k of gain(rel_r) / log2(r + 1); gain 'exponential' (2^rel - 1,
    default, as the seeds) or 'linear' (rel). ties='average' gives the expected DCG over all orders
    of each tie group (McSherry & Najork 2008): the group's mean gain times its positions' discounts. -#}
{% macro dcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential',
             relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{{ sqlmetrics.ranking_metric('dcg', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, gain, missing, empty,
     per_query, aggregates='SUM(sm_in_k * sm_eff_gain * sm_disc) AS sm_dcg', value='sm_dcg') }}
{% endmacro %}
