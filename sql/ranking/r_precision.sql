{#- R-precision = relevant items in the top R / R, R = relevant judged items.
    Reference: pytrec_eval Rprec. -#}
{% macro r_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc', relevance_threshold=1.0, missing='zero',
                     empty='zero', by=[], per_query=false) %}
{{ sqlmetrics.ranking_metric('r_precision', relation, qrels, query, item, score, relevance, by, none, ties, relevance_threshold, 'linear',
     missing, empty, per_query,
     row_stats=true,
     aggregates='SUM(CASE WHEN sm_pos <= sm_n_relevant THEN sm_relevant ELSE 0 END) AS sm_hits',
     value=sqlmetrics.fdiv('sm_hits', 'sm_queries.sm_n_relevant')) }}
{% endmacro %}
