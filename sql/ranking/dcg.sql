{#- A query's DCG from the column `dcg` (of mean_over_queries' sm_per_query), failing the query when
    it overflows a double. -#}
{% macro dcg_of(dcg, query) %}
{%- set overflows %}{{ dcg }} >= {{ sqlmetrics.infinity() }}{% endset %}
{%- set query_id %}sm_queries.{{ sqlmetrics.ident(query) }}{% endset -%}
CASE WHEN {{ overflows }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('the DCG of a query overflows a double (exponential gain 2^relevance - 1): use gain=linear, or ndcg; query',
                                                           query_id, overflows)) }}
     ELSE {{ dcg }} END
{%- endmacro %}

{#- DCG@k = sum over ranks r <= k of gain(rel_r) / log2(r + 1); gain 'exponential' (2^rel - 1,
    default, Burges et al. 2005) or 'linear' (rel). ties='average' gives the expected DCG over all orders
    of each tie group (McSherry & Najork 2008): the group's mean gain times its positions' discounts.
    A DCG beyond the largest double (exponential gain of grades near 1024 and above) fails the
    query: no scaling can represent it. DCG's parts: the one definition its own call and evaluate
    share (see evaluate); options: gain, gain_variants, query, as ndcg_parts' (a sum of gains cannot
    be scaled). -#}
{% macro dcg_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * ' ~ sqlmetrics.gain_column(options.gain, options.get('gain_variants', false)) ~ ' * sm_disc) AS ' ~ v],
           'value': sqlmetrics.dcg_of(v, options.query), 'nonempty': 'sm_n_graded', 'needs': [], 'gain': options.gain,
           'ideal': false}) }}
{%- endmacro %}
