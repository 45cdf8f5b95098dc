{#- R-precision = relevant items in the top R / R, R = relevant judged items.
    Reference: pytrec_eval Rprec. -#}
{% macro r_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc', relevance_threshold=1.0, missing='zero',
                     empty='zero', by=[], per_query=false) %}
{%- set hits_in_top_r %}SUM(CASE WHEN sm_pos <= sm_n_relevant THEN sm_relevant ELSE 0 END) AS sm_hits{% endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=none,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties=ties, relevance_threshold=relevance_threshold, with_n_relevant=true) }},
{{ sqlmetrics.mean_over_queries(name='r_precision', query=query, by=by, per_query=per_query, aggregates=hits_in_top_r,
                                value=sqlmetrics.fdiv('sm_hits', 'sm_queries.sm_n_relevant'), missing=missing, empty=empty) }}
{% endmacro %}
