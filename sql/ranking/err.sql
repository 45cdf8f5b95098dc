{#- ERR@k = sum over r <= k of (1/r) * R_r * prod over i < r of (1 - R_i), R_i = (2^g_i - 1) / 2^max_grade
    (Chapelle et al. 2009). max_grade defaults to the largest relevance in the judgments (one constant
    for all queries); max_grade=4 matches ir_measures / gdeval ERR@k.
    R_i is computed as 2^(g_i - max_grade) - 2^-max_grade and log(1 - R_i) from the same terms, so
    that no power of two beyond the double range is formed (grades of 1024 and more); a probability
    of reaching a rank below 1e-307 counts as 0. -#}
{% macro err(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', max_grade=none, relevance_threshold=1.0,
             missing='zero', empty='zero', by=[], per_query=false) %}
{%- set grades = max_grade is none %}
{%- if grades %}
{%- set top = 'sm_grades.sm_top' %}
{%- set unit = 'sm_grades.sm_top_unit' %}
{%- else %}
{%- set top = sqlmetrics.as_double(max_grade) %}
{%- set minus_top %}-{{ top }}{% endset %}
{%- set unit = sqlmetrics.pow2(minus_top) %}
{%- endif %}
{%- set below_top %}sm_rel - {{ top }}{% endset %}
{%- set above_top %}sm_rel > {{ top }}{% endset %}
{#- R_i as sm_stop, and the top grade beside it for the window below -#}
{%- set stop_probability %}
CASE WHEN {{ above_top }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('max_grade must be at least every relevance grade', 'sm_rel', above_top)) }}
     ELSE {{ sqlmetrics.pow2(below_top) }} - {{ unit }} END AS sm_stop,
{{ top }} AS sm_max_grade
{%- endset %}
{#- log of the probability to reach the row: log(1 - R) of a top grade is -max_grade * log(2)
    exactly (1 - R = 2^-max_grade may be below the smallest double) -#}
{%- set log_reach %}
SUM(CASE WHEN sm_rel >= sm_max_grade THEN -sm_max_grade * LN(2) ELSE LN(1 - sm_stop) END)
  OVER ({{ sqlmetrics.partition_by(by + [query]) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
  AS sm_log_reach
{%- endset %}
{%- set expected_reciprocal_rank %}
SUM(sm_in_k * sm_stop * CASE WHEN COALESCE(sm_log_reach, 0) > -707 THEN EXP(COALESCE(sm_log_reach, 0)) ELSE 0 END
    / sm_pos) AS sm_err
{%- endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold, grades=grades) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold, grades=grades,
                          row_columns=stop_probability, window_columns=log_reach) }},
{{ sqlmetrics.mean_over_queries(name='err', query=query, by=by, per_query=per_query, aggregates=expected_reciprocal_rank,
                                value='sm_err', missing=missing, empty=empty, nonempty='sm_n_graded') }}
{% endmacro %}
