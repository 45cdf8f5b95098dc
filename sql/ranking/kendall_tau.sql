{#- Kendall's tau between the score and the relevance of each query's top-k items, mean over queries
    where it is defined (NULL when either is constant). variant 'b' (default; scipy.stats.kendalltau):
    (C - D) / sqrt((n0 - n_x)(n0 - n_y)); 'a' (textbook): (C - D) / n0; 'c' (scipy):
    2 (C - D) / (n^2 (m - 1) / m), m = min(distinct scores, distinct relevances). -#}
{% macro kendall_tau(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, variant='b', by=[], per_query=false) %}
{%- set keys = by + [query] %}
{%- set concordance %}{{ sqlmetrics.sign_of('sm_a.sm_score', 'sm_b.sm_score') }} * {{ sqlmetrics.sign_of('sm_a.sm_rel', 'sm_b.sm_rel') }}{% endset %}
{%- set c_minus_d = sqlmetrics.as_double('sm_c - sm_d') %}
{%- set tau %}
{%- if variant == 'a' -%}
CASE WHEN sm_tx < sm_n0 AND sm_ty < sm_n0 THEN {{ c_minus_d }} / sm_n0 END
{%- elif variant == 'b' -%}
{{ c_minus_d }} / NULLIF(SQRT({{ sqlmetrics.as_double('(sm_n0 - sm_tx) * (sm_n0 - sm_ty)') }}), 0)
{%- elif variant == 'c' -%}
2 * {{ c_minus_d }} / NULLIF({{ sqlmetrics.as_double('sm_n * sm_n') }} * (sm_m - 1) / sm_m, 0)
{%- else -%}
{{ sqlmetrics.fail('variant is a, b or c') }}
{%- endif %}
{%- endset %}
{#- per query: C, D, the pairs tied in score (n_x) and in relevance (n_y), the pairs n0; n, m -#}
{%- set tau_per_query %}
SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_pairs') }} {{ tau }} AS sm_value
FROM (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_a') }}
         SUM(CASE WHEN {{ concordance }} > 0 THEN 1 ELSE 0 END) AS sm_c,
         SUM(CASE WHEN {{ concordance }} < 0 THEN 1 ELSE 0 END) AS sm_d,
         SUM(CASE WHEN sm_a.sm_score = sm_b.sm_score THEN 1 ELSE 0 END) AS sm_tx,
         SUM(CASE WHEN sm_a.sm_rel = sm_b.sm_rel THEN 1 ELSE 0 END) AS sm_ty,
         COUNT(*) AS sm_n0
  FROM {{ sqlmetrics.ranked_pairs(keys=keys) }}
  GROUP BY {{ sqlmetrics.col_list_of(keys, 'sm_a') }}
) AS sm_pairs
JOIN (
  SELECT {{ sqlmetrics.cols(keys) }} COUNT(*) AS sm_n,
         CASE WHEN COUNT(DISTINCT sm_score) < COUNT(DISTINCT sm_rel) THEN COUNT(DISTINCT sm_score)
              ELSE COUNT(DISTINCT sm_rel) END AS sm_m
  FROM sm_ranked WHERE sm_in_k = 1 {{ sqlmetrics.group_by(keys) }}
) AS sm_sizes
  ON {{ sqlmetrics.join_on(keys, 'sm_pairs', 'sm_sizes') }}
{%- endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=1) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by,
                         ties='item_desc') }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties='item_desc', relevance_threshold=1) }},
{{ sqlmetrics.mean_over_queries(name='kendall_tau', query=query, by=by, per_query=per_query, query_values=tau_per_query,
                                combine='mean_of_defined') }}
{% endmacro %}
