{#- Rank correlation (pairwise concordance, ties 1/2): sum over pairs u < v of w*(1 + sgn((pi(u) - pi(v)) * (pi_l(u) - pi_l(v)))) / (2 * sum w),
    w = 1, between the predicted order pi (rank by score, ties broken by the ties policy) and the true
    order pi_l (by relevance; equal relevance counts 1/2) within each query's top k. Mean over queries
    with at least two items. -#}
{% macro rank_correlation(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', by=[], per_query=false) %}
{%- set keys = by + [query] %}
{#- per query: the mean over pairs (a ranked above b) of 1 when a is more relevant, 1/2 when equally -#}
{%- set ordered_pairs %}
SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_a') }}
       AVG(CASE WHEN sm_a.sm_rel > sm_b.sm_rel THEN {{ sqlmetrics.as_double(1) }}
                WHEN sm_a.sm_rel = sm_b.sm_rel THEN {{ sqlmetrics.as_double(0.5) }}
                ELSE {{ sqlmetrics.as_double(0) }} END) AS sm_value
FROM {{ sqlmetrics.ranked_pairs(keys=keys) }}
GROUP BY {{ sqlmetrics.col_list_of(keys, 'sm_a') }}
{%- endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=1) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=1) }},
{{ sqlmetrics.mean_over_queries(name='rank_correlation', query=query, by=by, per_query=per_query, query_values=ordered_pairs,
                                combine='mean_of_defined') }}
{% endmacro %}
