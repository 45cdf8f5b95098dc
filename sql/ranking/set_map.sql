{#- Set MAP = hits^2 / (retrieved * R) over the whole retrieved list of a query: set precision times
    set recall, the AP of an unranked set (each relevant item retrieved counted at the set's
    precision, each one missed at 0). trec_eval set_map (ir_measures SetAP). -#}
{% macro set_map(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                 missing='zero', empty='zero', by=[], per_query=false) %}
{%- set numerator %}{{ sqlmetrics.as_double('sm_hits') }} * sm_hits{% endset %}
{%- set denominator %}{{ sqlmetrics.as_double('sm_retrieved') }} * sm_n_relevant{% endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties='item_desc') }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties='item_desc', relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='set_map', query=query, by=by, per_query=per_query,
                                aggregates='SUM(sm_relevant) AS sm_hits, COUNT(*) AS sm_retrieved',
                                value=sqlmetrics.fdiv(numerator, denominator), missing=missing, empty=empty) }}
{% endmacro %}
