{#- Judged@k = items of the top k that the judgments have (any relevance, 0 included) / the items
    in the top k (k, or the list length when shorter; the whole list without k): ir_measures
    Judged@k. Every judged query counts, whatever its grades (a judgment rate needs no relevant
    item: the judgments are read with a relevance threshold of 0, so R is the number of judged
    items and no query is empty). It needs qrels: a run carrying its relevance has every item
    judged. -#}
{% macro judged_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc',
                     missing='zero', by=[], per_query=false) %}
{%- if not qrels %}{{ sqlmetrics.fail('judged_at_k needs qrels, the judgments (a run carrying its relevance has every item judged)') }}{% endif %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=0) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties,
                         judged=true) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=0) }},
{{ sqlmetrics.mean_over_queries(name='judged_at_k', query=query, by=by, per_query=per_query,
                                aggregates='SUM(sm_in_k * sm_is_judged) AS sm_judged_in_k, SUM(sm_in_k) AS sm_listed',
                                value=sqlmetrics.fdiv('sm_judged_in_k', 'sm_listed'), missing=missing) }}
{% endmacro %}
