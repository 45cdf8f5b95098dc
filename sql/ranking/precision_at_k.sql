{#- P@k = relevant items in the top k / k (k, not the list length). Reference: pytrec_eval P_k. -#}
{% macro precision_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1.0,
                        missing='zero', empty='zero', by=[], per_query=false) %}
{%- if k is none %}{{ sqlmetrics.fail('precision_at_k needs k, the cut-off (a positive integer)') }}{% endif %}
{{ sqlmetrics.ranking_metric('precision_at_k', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'linear',
     missing, empty, per_query, aggregates='SUM(sm_in_k * sm_eff_relevant) AS sm_hits',
     value='sm_hits / ' ~ sqlmetrics.as_double(k)) }}
{% endmacro %}
