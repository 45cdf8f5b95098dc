{#- P@k = relevant items in the top k / k (k, not the list length). Reference: pytrec_eval P_k. -#}
{% macro precision_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1.0,
                        missing='zero', empty='zero', by=[], per_query=false) %}
{%- if k is none %}{{ sqlmetrics.fail('precision_at_k needs k, the cut-off (a positive integer)') }}{% endif %}
{%- set precision %}sm_hits / {{ sqlmetrics.as_double(k) }}{% endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='precision_at_k', query=query, by=by, per_query=per_query,
                                aggregates='SUM(sm_in_k * sm_eff_relevant) AS sm_hits', value=precision, missing=missing, empty=empty) }}
{% endmacro %}
