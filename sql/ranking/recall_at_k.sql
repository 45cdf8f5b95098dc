{#- Set recall = relevant items retrieved / R (trec_eval set_recall): recall_at_k with k=none. -#}
{% macro set_recall(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', relevance_threshold=1.0,
                    missing='zero', empty='zero', by=[], per_query=false) %}
{{- sqlmetrics.recall_at_k(relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, k=none,
                           relevance_threshold=relevance_threshold, missing=missing, empty=empty, by=by,
                           per_query=per_query, name='set_recall') -}}
{% endmacro %}

{#- R@k = relevant items in the top k / R (relevant judged items, retrieved or not).
    options.average 'macro': mean over queries (pytrec_eval recall_k); 'micro': sum of hits / sum of R
    over queries (the HR@K of recommender papers). k=none: the whole retrieved list (trec_eval
    set_recall; sm.set_recall). R@k's parts: the one definition its own call and evaluate share (see
    evaluate). -#}
{% macro recall_at_k_parts(v, in_k, within, k, options={}) -%}
{%- set parts = {'aggregates': ['SUM(' ~ in_k ~ ' * sm_eff_relevant) AS ' ~ v], 'value': sqlmetrics.fdiv(v, 'sm_n_relevant'),
                 'nonempty': 'sm_n_relevant', 'needs': []} %}
{%- if options.get('average', 'macro') == 'micro' %}{% set _ = parts.update({'value': v, 'combine': 'micro'}) %}{% endif %}
{{ return(parts) }}
{%- endmacro %}
