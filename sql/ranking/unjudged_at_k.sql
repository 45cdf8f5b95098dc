{#- unj@k = items of the top k that the judgments lack (or have with a negative grade: in the pool,
    unjudged) / k, k even when the list is shorter (trec_eval 10's unj_k: the ranks beyond the list
    count as judged); without k, over the whole list (its length). Every judged query counts,
    whatever its grades: the judgments are read with a relevance threshold of 0 (R the judged
    items), and a query without any keeps its own value. Not 1 - judged_at_k: that divides by the
    list length when it is shorter than k, and scores a judged query absent from the run 0 (unj 0
    too). It needs qrels: a run carrying its relevance has every item judged. -#}
{% macro unjudged_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc',
                       missing='zero', by=[], per_query=false) %}
{%- if k is sameas false %}{{ sqlmetrics.fail('unjudged_at_k needs k (None: the whole list)') }}{% endif %}
{%- if not qrels %}{{ sqlmetrics.fail('unjudged_at_k needs qrels, the judgments (a run carrying its relevance has every item judged)') }}{% endif %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=0) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties,
                         judged=true) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=0) }},
{{ sqlmetrics.mean_over_queries(name='unjudged_at_k', query=query, by=by, per_query=per_query,
                                aggregates='SUM(sm_in_k * (1 - sm_is_judged)) AS sm_unjudged_in_k, COUNT(*) AS sm_listed',
                                value=sqlmetrics.fdiv('sm_unjudged_in_k', k or 'sm_listed'), missing=missing,
                                empty_score='sm_value') }}
{% endmacro %}
