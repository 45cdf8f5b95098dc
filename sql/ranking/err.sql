{#- ERR@k = sum over r <= k of (1/r) * R_r * prod over i < r of (1 - R_i), R_i = (2^g_i - 1) / 2^max_grade
    (Chapelle et al. 2009). max_grade defaults to the largest relevance in the judgments (one constant
    for all queries); max_grade=4 matches ir_measures / gdeval ERR@k.
    R_i is computed as 2^(g_i - max_grade) - 2^-max_grade and log(1 - R_i) from the same terms, so
    that no power of two beyond the double range is formed (grades of 1024 and more); a probability
    of reaching a rank below 1e-307 counts as 0. -#}
{% macro err(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', max_grade=none, relevance_threshold=1.0,
             missing='zero', empty='zero', by=[], per_query=false) %}
{%- set top = sqlmetrics.as_double(max_grade) if max_grade is not none else 'sm_grades.sm_top' %}
{%- set below_top %}sm_rel - {{ top }}{% endset %}
{%- set above_one %}-{{ top }}{% endset %}
{%- set row_columns %}
CASE WHEN sm_rel > {{ top }}
     THEN {{ sqlmetrics.invalid_value('max_grade must be at least every relevance grade', 'sm_rel') }}
     ELSE {{ sqlmetrics.pow2(below_top) }} - {{ sqlmetrics.pow2(above_one) }} END AS sm_stop,
CASE WHEN sm_rel >= {{ top }} THEN -{{ top }} * LN(2)
     ELSE LN(1 - {{ sqlmetrics.pow2(below_top) }} + {{ sqlmetrics.pow2(above_one) }}) END AS sm_log_stay
{%- endset %}
{%- set windows %}
SUM(sm_log_stay) OVER ({{ sqlmetrics.partition_by(by + [query]) }} ORDER BY sm_pos
                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS sm_log_reach
{%- endset %}
{%- set aggregates %}
SUM(sm_in_k * sm_stop * CASE WHEN COALESCE(sm_log_reach, 0) > -707 THEN EXP(COALESCE(sm_log_reach, 0)) ELSE 0 END
    / sm_pos) AS sm_err
{%- endset %}
{{ sqlmetrics.ranking_metric('err', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'linear', missing,
     empty, per_query, row_columns=row_columns, windows=windows, aggregates=aggregates, value='sm_err',
     grades=(max_grade is none)) }}
{% endmacro %}
