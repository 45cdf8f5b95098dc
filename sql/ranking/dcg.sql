{#- DCG@k = sum over ranks r <= k of gain(rel_r) / log2(r + 1); gain 'exponential' (2^rel - 1,
    default, as the seeds) or 'linear' (rel). ties='average' gives the expected DCG over all orders
    of each tie group (McSherry & Najork 2008): the group's mean gain times its positions' discounts.
    A DCG beyond the largest double (exponential gain of grades near 1024 and above) fails the
    query: no scaling can represent it. -#}
{% macro dcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential',
             relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- set overflows %}sm_dcg >= {{ sqlmetrics.infinity() }}{% endset %}
{%- set value -%}
CASE WHEN {{ overflows }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('the DCG of a query overflows a double (exponential gain 2^relevance - 1): use gain=linear, or ndcg; query',
                                                           'sm_queries.' ~ sqlmetrics.ident(query), overflows)) }}
     ELSE sm_dcg END
{%- endset %}
{{ sqlmetrics.ranking_metric('dcg', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, gain, missing, empty,
     per_query, aggregates='SUM(sm_in_k * sm_eff_gain * sm_disc) AS sm_dcg', value=value) }}
{% endmacro %}
