{#- Hit rate@k = share of queries with at least one relevant item in the top k.
    Reference: pytrec_eval success_k. -#}
{% macro hit_rate(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1.0, missing='zero',
                  empty='zero', by=[], per_query=false) %}
{%- if k is none %}{{ sqlmetrics.fail('hit_rate needs k, the cut-off (a positive integer)') }}{% endif %}
{{ sqlmetrics.ranking_metric('hit_rate', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'linear', missing,
     empty, per_query, aggregates='MAX(sm_in_k * sm_relevant) AS sm_hit', value=sqlmetrics.as_double('sm_hit')) }}
{% endmacro %}
