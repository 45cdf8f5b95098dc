{#- GM_MAP = exp(mean over queries of ln(max(AP, 1e-5))): the geometric mean of the queries' average
    precision (AP as mean_average_precision, whole list), each floored at trec_eval's MIN_GEO_MEAN
    1e-5; a missing or empty query counts with AP 0, so 1e-5 (as trec_eval -c).
    Reference: trec_eval gm_map (pytrec_eval gm_map: per query ln(max(AP, 1e-5))). -#}
{% macro gm_map(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc',
                relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{{ sqlmetrics.one_measure('mean_average_precision', relation, qrels, query, item, score, relevance, none, ties, 'linear',
                          relevance_threshold, missing, empty, by, per_query, 'gm_map', {'combine': 'geometric'}) }}
{% endmacro %}
