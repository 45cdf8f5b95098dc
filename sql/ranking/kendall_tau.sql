{#- Kendall's tau between the score and the relevance of each query's top-k items, mean over queries
    where it is defined (NULL when either is constant). variant 'b' (default; scipy.stats.kendalltau):
    (C - D) / sqrt((n0 - n_x)(n0 - n_y)); 'a' (textbook): (C - D) / n0; 'c' (scipy):
    2 (C - D) / (n^2 (m - 1) / m), m = min(distinct scores, distinct relevances). -#}
{% macro kendall_tau(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, variant='b', by=[], per_query=false) %}
{%- set keys = by + [query] %}
{%- set concordance = sqlmetrics.sign_of('sm_a.sm_score', 'sm_b.sm_score') ~ ' * '
                      ~ sqlmetrics.sign_of('sm_a.sm_rel', 'sm_b.sm_rel') %}
{%- set c_minus_d = sqlmetrics.as_double('sm_c - sm_d') %}
{%- set tau = {
      'a': 'CASE WHEN sm_tx < sm_n0 AND sm_ty < sm_n0 THEN ' ~ c_minus_d ~ ' / sm_n0 END',
      'b': c_minus_d ~ ' / NULLIF(SQRT(' ~ sqlmetrics.as_double('(sm_n0 - sm_tx) * (sm_n0 - sm_ty)') ~ '), 0)',
      'c': '2 * ' ~ c_minus_d ~ ' / NULLIF(' ~ sqlmetrics.as_double('sm_n * sm_n') ~ ' * (sm_m - 1) / sm_m, 0)'}[variant] %}
{{ sqlmetrics.ranking_metric('kendall_tau', relation, qrels, query, item, score, relevance, by, k, 'item_desc', 1, 'linear', 'skip', 'zero',
     per_query, correlation=true, values_sql=
     'SELECT ' ~ sqlmetrics.qualified_cols(keys, 'sm_pairs') ~ ' ' ~ tau ~ ' AS sm_value FROM ('
     ~ ' SELECT ' ~ sqlmetrics.qualified_cols(keys, 'sm_a')
     ~ ' SUM(CASE WHEN ' ~ concordance ~ ' > 0 THEN 1 ELSE 0 END) AS sm_c,'
     ~ ' SUM(CASE WHEN ' ~ concordance ~ ' < 0 THEN 1 ELSE 0 END) AS sm_d,'
     ~ ' SUM(CASE WHEN sm_a.sm_score = sm_b.sm_score THEN 1 ELSE 0 END) AS sm_tx,'
     ~ ' SUM(CASE WHEN sm_a.sm_rel = sm_b.sm_rel THEN 1 ELSE 0 END) AS sm_ty,'
     ~ ' COUNT(*) AS sm_n0'
     ~ ' FROM ' ~ sqlmetrics.ranked_pairs(keys)
     ~ ' GROUP BY ' ~ sqlmetrics.col_list_of(keys, 'sm_a') ~ ') AS sm_pairs'
     ~ ' JOIN (SELECT ' ~ sqlmetrics.cols(keys) ~ ' COUNT(*) AS sm_n,'
     ~ ' CASE WHEN COUNT(DISTINCT sm_score) < COUNT(DISTINCT sm_rel) THEN COUNT(DISTINCT sm_score)'
     ~ ' ELSE COUNT(DISTINCT sm_rel) END AS sm_m'
     ~ ' FROM sm_ranked WHERE sm_in_k = 1 ' ~ sqlmetrics.group_by(keys) ~ ') AS sm_sizes'
     ~ ' ON ' ~ sqlmetrics.join_on(keys, 'sm_pairs', 'sm_sizes')) }}
{% endmacro %}
