{#- ERR@k = sum over r <= k of (1/r) * R_r * prod over i < r of (1 - R_i), R_i = (2^g_i - 1) / 2^max_grade
    (Chapelle et al. 2009). max_grade defaults to the largest relevance in the judgments (one constant
    for all queries); max_grade=4 matches ir_measures / gdeval ERR@k. -#}
{% macro err(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', max_grade=none, relevance_threshold=1.0,
             missing='zero', empty='zero', by=[], per_query=false) %}
{%- set top = sqlmetrics.as_double(max_grade) if max_grade is not none
              else '(SELECT MAX(sm_rel) FROM sm_judged)' %}
{{ sqlmetrics.ranking_metric('err', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'exponential', missing,
     empty, per_query,
     row_columns='(POWER(2, sm_rel) - 1) / POWER(2, ' ~ top ~ ') AS sm_stop',
     windows='EXP(COALESCE(SUM(LN(1 - sm_stop)) OVER (' ~ sqlmetrics.partition_by(by + [query])
             ~ ' ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)) AS sm_reach',
     aggregates='SUM(sm_in_k * sm_stop * sm_reach / sm_pos) AS sm_err', value='sm_err') }}
{% endmacro %}
