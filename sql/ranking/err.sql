{#- ERR@k = sum over r <= k of (1/r) * R_r * prod over i < r of (1 - R_i), R_i = (2^g_i - 1) / 2^max_grade
    (Chapelle et al. 2009). max_grade defaults to the largest relevance in the judgments (one constant
    for all queries); max_grade=4 matches ir_measures / gdeval ERR@k.
    R_i is computed as 2^(g_i - max_grade) - 2^-max_grade and log(1 - R_i) from the same terms, so
    that no power of two beyond the double range is formed (grades of 1024 and more); a probability
    of reaching a rank below 1e-307 counts as 0. -#}
{% macro err(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', max_grade=none, relevance_threshold=1.0,
             missing='zero', empty='zero', by=[], per_query=false) %}
{%- if max_grade is not none %}
{%- set top = sqlmetrics.as_double(max_grade) %}
{%- set unit = sqlmetrics.pow2('-' ~ top) %}
{%- else %}
{%- set top = 'sm_grades.sm_top' %}
{%- set unit = 'sm_grades.sm_top_unit' %}
{%- endif %}
{%- set below_top %}sm_rel - {{ top }}{% endset %}
{%- set above_top %}sm_rel > {{ top }}{% endset %}
{%- set row_columns %}
CASE WHEN {{ above_top }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('max_grade must be at least every relevance grade', 'sm_rel', above_top)) }}
     ELSE {{ sqlmetrics.pow2(below_top) }} - {{ unit }} END AS sm_stop,
{{ top }} AS sm_max_grade
{%- endset %}
{#- log(1 - R) of a top grade is -max_grade * log(2) exactly: 1 - R = 2^-max_grade may be below the
    smallest double -#}
{%- set windows %}
SUM(CASE WHEN sm_rel >= sm_max_grade THEN -sm_max_grade * LN(2) ELSE LN(1 - sm_stop) END)
  OVER ({{ sqlmetrics.partition_by(by + [query]) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
  AS sm_log_reach
{%- endset %}
{%- set aggregates %}
SUM(sm_in_k * sm_stop * CASE WHEN COALESCE(sm_log_reach, 0) > -707 THEN EXP(COALESCE(sm_log_reach, 0)) ELSE 0 END
    / sm_pos) AS sm_err
{%- endset %}
{{ sqlmetrics.ranking_metric('err', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, 'linear', missing,
     empty, per_query, row_columns=row_columns, windows=windows, aggregates=aggregates, value='sm_err',
     grades=(max_grade is none)) }}
{% endmacro %}
