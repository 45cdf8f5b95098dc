{#- R@k = relevant items in the top k / R (relevant judged items, retrieved or not).
    average='macro': mean over queries (pytrec_eval recall_k); 'micro': sum of hits / sum of R
    over queries (seed 001's HR@K). -#}
{% macro recall_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', average='macro', relevance_threshold=1.0,
                     missing='zero', empty='zero', by=[], per_query=false) %}
{%- if k is none %}{{ sqlmetrics.fail('recall_at_k needs k, the cut-off (a positive integer)') }}{% endif %}

{{ sqlmetrics.ranking_metric('recall_at_k', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'linear',
     missing, empty, per_query, micro=(average == 'micro'),
     aggregates='SUM(sm_in_k * sm_eff_relevant) AS sm_hits',
     value=('sm_hits' if average == 'micro' else sqlmetrics.fdiv('sm_hits', 'sm_n_relevant'))) }}
{% endmacro %}
