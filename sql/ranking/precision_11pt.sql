{#- 11-point interpolated average precision: per query, the mean of interpolated_precision at the
    recall levels 0, 0.1, ..., 1 (trec_eval 10's 11pt_avg, levels to relevant items by rounding);
    mean over queries. -#}
{% macro precision_11pt(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc',
                        relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{{ sqlmetrics.interpolated_precisions(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance,
                                      recall_levels=(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0), ties=ties,
                                      relevance_threshold=relevance_threshold, by=by) }},
{{ sqlmetrics.mean_over_queries(name='precision_11pt', query=query, by=by, per_query=per_query,
                                aggregates='AVG(sm_ip) AS sm_mean_ip', value='sm_mean_ip', missing=missing, empty=empty,
                                ranked='sm_level_values') }}
{% endmacro %}
