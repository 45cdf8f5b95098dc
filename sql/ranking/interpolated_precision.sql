{#- Interpolated precision at recall levels, as trec_eval 10's iprec_at_recall: per query and level
    L, the largest precision at any rank where at least n(L) = lround(L * R) relevant items are
    retrieved (R the query's relevant judged items), 0 when fewer than n(L) are ever retrieved; the
    whole ranked list counts (no cut-off). Averaged over the queries per level (as iprec_at_recall_L);
    per_query=True: one row per query and level. The output is ordered by `by`, then recall_level. -#}
{% macro interpolated_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance',
                                recall_levels=(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0), ties='item_desc',
                                relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- if per_query == 'parts' %}{{ sqlmetrics.fail('interpolated_precision is a curve, a mean per recall level: it has no per-query parts to resample') }}{% endif %}
{{ sqlmetrics.interpolated_precisions(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance,
                                      recall_levels=recall_levels, ties=ties, relevance_threshold=relevance_threshold, by=by) }},
{{ sqlmetrics.mean_over_queries(name='interpolated_precision', query=query, by=by + ['recall_level'], per_query=per_query,
                                aggregates='MAX(sm_ip) AS sm_ip', value='sm_ip', missing=missing, empty=empty,
                                ranked='sm_level_values', queries='sm_level_queries', ordered=true) }}
{% endmacro %}

{#- The WITH clause of the interpolated precisions of each query at `recall_levels` (numbers in
    [0, 1]), after query_judgments, ranked_run and ranked_rows (sm_queries, sm_ranked), as the CTEs
      sm_levels        recall_level: the levels, as DOUBLE;
      sm_level_queries every judged query at every level: sm_queries.*, recall_level and sm_needed,
                       the relevant items n the level asks for, lround(recall_level * R) (half up,
                       as trec_eval 10; trec_eval 9 truncated recall_level * R + 0.9), but at least
                       1: n = 0 takes the same value as n = 1. Rounded from the DOUBLE product as C
                       computes it, by FLOOR and its exact fraction (not by ROUND: some engines
                       round half to even);
      sm_hits          the relevant retrieved items: keys, sm_cum_relevant (c: their number at ranks
                       <= the item's) and sm_int_precision, the largest c / rank at the item or below
                       it. Precision between two relevant items only falls, so this is the largest
                       precision at any rank where c or more relevant items are retrieved;
      sm_level_values  every query of the run at every level: keys, recall_level, sm_ip, the
                       sm_int_precision of the hit with c = sm_needed (c = 1: the largest precision
                       anywhere, that of n = 0 too), 0 when there is none (fewer relevant items
                       retrieved).
    Keys are by + [query]; sm_level_queries and sm_level_values are keyed by by + [recall_level, query]. -#}
{% macro interpolated_precisions(relation, qrels, query, item, score, relevance, recall_levels, ties, relevance_threshold, by) %}
{%- if recall_levels is string or recall_levels is number or not recall_levels %}{{ sqlmetrics.fail('recall_levels is a non-empty list of numbers in [0, 1]') }}{% endif %}
{%- for level in recall_levels %}
{%- if level is boolean or level is not number or level < 0 or level > 1 %}{{ sqlmetrics.fail('recall_levels is a list of numbers in [0, 1]; got ' ~ level) }}{% endif %}
{%- endfor %}
{%- set keys = by + [query] %}
{%- set level_keys = by + ['recall_level', query] %}
{%- set cumulative_relevant %}
SUM(sm_relevant) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
  AS sm_cum_relevant
{%- endset -%}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties=ties, relevance_threshold=relevance_threshold,
                          window_columns=cumulative_relevant) }},
sm_levels AS (
  {%- for level in recall_levels %}
  {% if not loop.first %}UNION ALL {% endif %}SELECT {{ sqlmetrics.as_double(level) }} AS recall_level
  {%- endfor %}
),
sm_level_queries AS (
  SELECT sm_scaled.*,
         CASE WHEN sm_scaled_level < 0.5 THEN 1
              ELSE CAST(FLOOR(sm_scaled_level) AS BIGINT)
                   + CASE WHEN sm_scaled_level - FLOOR(sm_scaled_level) >= 0.5 THEN 1 ELSE 0 END END AS sm_needed
  FROM (
    SELECT sm_queries.*, sm_levels.recall_level AS recall_level,
           sm_levels.recall_level * {{ sqlmetrics.as_double('sm_queries.sm_n_relevant') }} AS sm_scaled_level
    FROM sm_queries
    CROSS JOIN sm_levels
  ) AS sm_scaled
),
sm_hits AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_cum_relevant, 1 AS sm_is_hit,
         MAX({{ sqlmetrics.fdiv('sm_cum_relevant', 'sm_pos') }})
           OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_pos DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
           AS sm_int_precision
  FROM sm_ranked
  WHERE sm_relevant = 1
),
sm_level_values AS (
  SELECT {{ sqlmetrics.qualified_cols(level_keys, 'sm_level_queries') }}
         CASE WHEN sm_hits.sm_is_hit = 1 THEN sm_hits.sm_int_precision ELSE 0 END AS sm_ip
  FROM sm_level_queries
  JOIN (SELECT DISTINCT {{ sqlmetrics.col_list(keys) }} FROM sm_ranked) AS sm_run_queries
    ON {{ sqlmetrics.join_on(keys, 'sm_level_queries', 'sm_run_queries') }}
  LEFT JOIN sm_hits
    ON {{ sqlmetrics.join_on(keys, 'sm_level_queries', 'sm_hits') }}
       AND sm_hits.sm_cum_relevant = sm_level_queries.sm_needed
)
{%- endmacro %}
