{#- R-precision = relevant items in the top R / R, R = relevant judged items.
    Reference: pytrec_eval Rprec. -#}
{% macro r_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc', relevance_threshold=1.0, missing='zero',
                     empty='zero', by=[], per_query=false) %}
{%- set parts = sqlmetrics.r_precision_parts('sm_hits', '1', none, none) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=none,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties=ties, relevance_threshold=relevance_threshold, with_n_relevant=true) }},
{{ sqlmetrics.mean_over_queries(name='r_precision', query=query, by=by, per_query=per_query, aggregates=parts.aggregates | join(', '),
                                value=parts.value, missing=missing, empty=empty) }}
{% endmacro %}

{#- R-precision's parts: the one definition its own macro and evaluate share (see evaluate). -#}
{% macro r_precision_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['SUM(CASE WHEN sm_pos <= sm_n_relevant THEN sm_relevant ELSE 0 END) AS ' ~ v],
           'value': sqlmetrics.fdiv(v, 'sm_queries.sm_n_relevant'), 'nonempty': 'sm_n_relevant', 'needs': ['n_relevant']}) }}
{%- endmacro %}
