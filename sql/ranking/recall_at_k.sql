{#- R@k = relevant items in the top k / R (relevant judged items, retrieved or not).
    average='macro': mean over queries (pytrec_eval recall_k); 'micro': sum of hits / sum of R
    over queries (the HR@K of recommender papers). -#}
{% macro recall_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', average='macro', relevance_threshold=1.0,
                     missing='zero', empty='zero', by=[], per_query=false) %}
{%- if k is none %}{{ sqlmetrics.fail('recall_at_k needs k, the cut-off (a positive integer)') }}{% endif %}
{%- set micro = average == 'micro' %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='recall_at_k', query=query, by=by, per_query=per_query,
                                aggregates='SUM(sm_in_k * sm_eff_relevant) AS sm_hits',
                                value=('sm_hits' if micro else sqlmetrics.fdiv('sm_hits', 'sm_n_relevant')),
                                combine=('micro' if micro else 'mean'), missing=missing, empty=empty) }}
{% endmacro %}
