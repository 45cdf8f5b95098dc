{#- Reciprocal rank = 1 / rank of the first relevant item within k, else 0; MRR is the mean over
    queries. Reference: pytrec_eval recip_rank. -#}
{% macro mrr(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1.0, missing='zero',
             empty='zero', by=[], per_query=false) %}
{%- set parts = sqlmetrics.mrr_parts('sm_rr', 'sm_in_k', 'sm_in_k = 1', k) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='mrr', query=query, by=by, per_query=per_query, aggregates=parts.aggregates | join(', '), value=parts.value,
                                missing=missing, empty=empty) }}
{% endmacro %}

{#- Reciprocal rank's parts: the one definition its own macro and evaluate share (see evaluate). -#}
{% macro mrr_parts(v, in_k, within, k, options={}) -%}
{%- set first %}MAX(CASE WHEN {% if within %}{{ within }} AND {% endif %}sm_relevant = 1 THEN 1 / {{ sqlmetrics.as_double('sm_pos') }} ELSE 0 END) AS {{ v }}{% endset %}
{{ return({'aggregates': [first], 'value': v, 'nonempty': 'sm_n_relevant', 'needs': []}) }}
{%- endmacro %}
