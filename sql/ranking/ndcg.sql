{#- NDCG@k = DCG@k / IDCG@k, IDCG from all judged items sorted by relevance (retrieved or not), cut
    at k; 0 when IDCG = 0. Reference: pytrec_eval ndcg_cut_k (linear gain, ties item_desc) and
    sklearn ndcg_score (linear gain, ties average, run carrying the relevance). -#}
{% macro ndcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential',
              relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{{ sqlmetrics.ranking_metric('ndcg', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, gain, missing, empty,
     per_query, aggregates='SUM(sm_in_k * sm_eff_gain * sm_disc) AS sm_dcg',
     value='sm_dcg / NULLIF(sm_idcg, 0)') }}
{% endmacro %}
