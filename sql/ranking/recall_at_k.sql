{#- R@k = relevant items in the top k / R (relevant judged items, retrieved or not).
    average='macro': mean over queries (pytrec_eval recall_k); 'micro': sum of hits / sum of R
    over queries (the HR@K of recommender papers). k=none: the whole retrieved list (trec_eval
    set_recall; sm.set_recall). k has no default: a call without it (from dbt) stops. `name`: the
    output column (set_recall's). -#}
{% macro recall_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc', average='macro', relevance_threshold=1.0,
                     missing='zero', empty='zero', by=[], per_query=false, name='recall_at_k') %}
{%- if k is sameas false %}{{ sqlmetrics.fail('recall_at_k needs k, the cut-off: a positive integer, or none for the whole retrieved list') }}{% endif %}
{%- set micro = average == 'micro' %}
{%- set parts = sqlmetrics.recall_at_k_parts('sm_hits', 'sm_in_k', 'sm_in_k = 1', k) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name=name, query=query, by=by, per_query=per_query,
                                aggregates=parts.aggregates | join(', '), value=('sm_hits' if micro else parts.value),
                                combine=('micro' if micro else 'mean'), missing=missing, empty=empty) }}
{% endmacro %}

{#- Set recall = relevant items retrieved / R (trec_eval set_recall): recall_at_k with k=none. -#}
{% macro set_recall(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                    missing='zero', empty='zero', by=[], per_query=false) %}
{{- sqlmetrics.recall_at_k(relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, k=none,
                           relevance_threshold=relevance_threshold, missing=missing, empty=empty, by=by,
                           per_query=per_query, name='set_recall') -}}
{% endmacro %}

{#- R@k's parts: the one definition its own macro and evaluate share (see evaluate). -#}
{% macro recall_at_k_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * sm_eff_relevant) AS ' ~ v], 'value': sqlmetrics.fdiv(v, 'sm_n_relevant'),
           'nonempty': 'sm_n_relevant', 'needs': []}) }}
{%- endmacro %}
