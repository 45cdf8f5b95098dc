{#- The frame every rank-based metric shares (TREC conventions, SPEC §5).

    Judgments come from `qrels` (or from the run itself when qrels is none). The queries evaluated
    are the judged queries; a run query without judgments is ignored. Per query and slice:
      sm_queries  R = judged items with relevance >= relevance_threshold (retrieved or not) and
                  IDCG@k from the judgments sorted by relevance;
      sm_rows     the run ranked by score descending, ties broken by the item id as text
                  (`item_desc`: exactly trec_eval; `item_asc`; `average`: any order, the metric
                  then averages over each tie group), with relevance 0 for unjudged items;
      sm_grades   (with `grades`, or `scaled_gain`) sm_top, the largest relevance of the judgments,
                  sm_top_unit = 2^-sm_top, the shift S below and sm_unit = 2^-S;
      sm_ranked   + sm_relevant (0/1), sm_gain (linear: rel; exponential: 2^rel - 1; with
                  `scaled_gain` 2^-S*(2^rel - 1), S = max(0, sm_top - 960), so that no gain nor
                  sum of them overflows a double: for metrics that are ratios of gains),
                  sm_disc = 1/log2(pos + 1), sm_in_k, the tie-group means sm_eff_gain and
                  sm_eff_relevant (= sm_gain / sm_relevant unless ties = 'average'), the
                  metric's own `row_columns` and `windows`, and sm_n_relevant if `row_stats`;
      sm_values   the metric's `aggregates` per query over sm_ranked (or its `values_sql`);
      sm_per_query  `value`, an expression over those aggregates and the query's
                  sm_n_relevant and sm_idcg. Aggregating before joining the query stats keeps
                  the join at one row per query instead of one per ranked item.
    The summary then applies `missing` (a judged query absent from the run scores 0, or is skipped)
    and `empty` (a query without relevant items scores 0, or is skipped), and returns the mean per
    slice with the counts, or the per-query values. The mean is NULL when no query of the slice
    has a relevant item. -#}
{% macro ranking_metric(name, relation, qrels, query, item, score, relevance, by, k, ties,
                        relevance_threshold, gain, missing, empty, per_query,
                        aggregates=none, value='sm_value', values_sql=none, row_columns='', windows='',
                        row_stats=false, micro=false, correlation=false, grades=false, scaled_gain=false) %}
{%- set keys = by + [query] %}
{%- set grades = grades or scaled_gain %}
{%- if gain == 'linear' %}
{%- set gain_of_rel = 'sm_rel' %}
{%- elif scaled_gain %}
{%- set gain_of_rel %}({{ sqlmetrics.pow2('sm_rel - sm_grades.sm_shift') }} - sm_grades.sm_unit){% endset %}
{%- else %}
{%- set gain_of_rel = '(POWER(2, sm_rel) - 1)' %}
{%- endif %}
{%- set threshold = sqlmetrics.as_double(relevance_threshold) %}
WITH sm_judged AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         {{ sqlmetrics.ident(item) }} AS sm_item,
         {{ sqlmetrics.relevance(relevance) }} AS sm_rel
  FROM {{ qrels if qrels else relation }}
),
{%- if grades %}
{%- set shift %}(CASE WHEN MAX(sm_rel) > 960 THEN MAX(sm_rel) - 960 ELSE 0 END){% endset %}
sm_grades AS (
  SELECT MAX(sm_rel) AS sm_top, {{ sqlmetrics.pow2('-MAX(sm_rel)') }} AS sm_top_unit,
         {{ shift }} AS sm_shift, {{ sqlmetrics.pow2('-' ~ shift) }} AS sm_unit
  FROM sm_judged
),
{%- endif %}
sm_queries AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         SUM(CASE WHEN sm_rel >= {{ threshold }} THEN 1 ELSE 0 END) AS sm_n_relevant,
         SUM(CASE WHEN {% if k %}sm_ideal_pos <= {{ k }} AND {% endif %}sm_rel > 0
                  THEN {{ gain_of_rel }} / {{ sqlmetrics.log2('sm_ideal_pos + 1') }} ELSE 0 END) AS sm_idcg
  FROM (
    SELECT sm_judged.*,
           ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_rel DESC) AS sm_ideal_pos
    FROM sm_judged
  ) AS sm_ideal
  {%- if scaled_gain %}
  CROSS JOIN sm_grades
  {%- endif %}
  {{ sqlmetrics.group_by(keys) }}
),
sm_rows AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_run') }}
         sm_run.{{ sqlmetrics.ident(item) }} AS sm_item,
         {{ sqlmetrics.as_double('sm_run.' ~ sqlmetrics.ident(score)) }} AS sm_score,
         {% if qrels %}COALESCE(sm_judged.sm_rel, 0){% else %}{{ sqlmetrics.relevance('sm_run.' ~ sqlmetrics.ident(relevance), quoted=true) }}{% endif %} AS sm_rel,
         ROW_NUMBER() OVER (
           PARTITION BY {% for c in keys %}sm_run.{{ sqlmetrics.ident(c) }}{{ ", " if not loop.last }}{% endfor %}
           ORDER BY sm_run.{{ sqlmetrics.ident(score) }} DESC
           {%- if ties != 'average' %}, {{ sqlmetrics.bytewise('sm_run.' ~ sqlmetrics.ident(item)) }} {{ 'DESC' if ties == 'item_desc' else 'ASC' }}{% endif %}
         ) AS sm_pos
  FROM {{ relation }} AS sm_run
  {%- if qrels %}
  LEFT JOIN sm_judged
    ON {{ sqlmetrics.join_on(keys, 'sm_run', 'sm_judged') }}
       AND sm_run.{{ sqlmetrics.ident(item) }} = sm_judged.sm_item
  {%- endif %}
),
sm_marked AS (
  SELECT sm_rows.*,
         {%- if row_stats %}
         sm_queries.sm_n_relevant,
         {%- endif %}
         CASE WHEN sm_rel >= {{ threshold }} THEN 1 ELSE 0 END AS sm_relevant,
         {{ gain_of_rel }} AS sm_gain,
         1 / {{ sqlmetrics.log2('sm_pos + 1') }} AS sm_disc,
         {% if k %}CASE WHEN sm_pos <= {{ k }} THEN 1 ELSE 0 END{% else %}1{% endif %} AS sm_in_k
         {{- ',' if row_columns }} {{ row_columns }}
  FROM sm_rows
  {%- if grades %}
  CROSS JOIN sm_grades
  {%- endif %}
  {%- if row_stats %}
  JOIN sm_queries ON {{ sqlmetrics.join_on(keys, 'sm_rows', 'sm_queries') }}
  {%- endif %}
),
sm_ranked AS (
  SELECT sm_marked.*,
  {%- if ties == 'average' %}
         AVG(sm_gain) OVER ({{ sqlmetrics.peers(keys, 'sm_score') }}) AS sm_eff_gain,
         AVG({{ sqlmetrics.as_double('sm_relevant') }}) OVER ({{ sqlmetrics.peers(keys, 'sm_score') }}) AS sm_eff_relevant
  {%- else %}
         sm_gain AS sm_eff_gain,
         sm_relevant AS sm_eff_relevant
  {%- endif %}
         {{- ',' if windows }} {{ windows }}
  FROM sm_marked
),
sm_values AS (
  {%- if values_sql %}
  SELECT sm_v.*, 1 AS sm_has_value FROM ({{ values_sql }}) AS sm_v
  {%- else %}
  SELECT {{ sqlmetrics.cols(keys) }} {{ aggregates }}, 1 AS sm_in_run
  FROM sm_ranked
  {{ sqlmetrics.group_by(keys) }}
  {%- endif %}
),
{#- Presence is tested with markers set to 1, not IS NULL: ClickHouse fills the columns of an
    unmatched LEFT JOIN row with their type's default (0), not NULL. -#}
sm_per_query AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_queries') }}
         sm_queries.sm_n_relevant,
         CASE WHEN {{ 'sm_seen' if values_sql else 'sm_values' }}.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
         {% if values_sql %}CASE WHEN sm_values.sm_has_value = 1 THEN {{ value }} END{% else %}{{ value }}{% endif %} AS sm_value
  FROM sm_queries
  LEFT JOIN sm_values ON {{ sqlmetrics.join_on(keys, 'sm_queries', 'sm_values') }}
  {%- if values_sql %}
  {#- values_sql may leave out queries that are in the run (a one-item list has no pairs) #}
  LEFT JOIN (SELECT DISTINCT {{ sqlmetrics.col_list(keys) }}, 1 AS sm_in_run FROM sm_ranked) AS sm_seen
    ON {{ sqlmetrics.join_on(keys, 'sm_queries', 'sm_seen') }}
  {%- endif %}
),
sm_scored AS (
  SELECT sm_per_query.*,
  {%- if correlation %}
         CASE WHEN sm_in_run = 1 AND sm_value IS NOT NULL THEN 1 ELSE 0 END AS sm_included,
         sm_value AS sm_score_value
  {%- else %}
         CASE WHEN (sm_in_run = 1 OR 1 = {{ 1 if missing == 'zero' else 0 }})
                   AND (sm_n_relevant > 0 OR 1 = {{ 1 if empty == 'zero' else 0 }}) THEN 1 ELSE 0 END AS sm_included,
         CASE WHEN sm_in_run = 0 OR sm_n_relevant = 0 THEN 0 ELSE sm_value END AS sm_score_value
  {%- endif %}
  FROM sm_per_query
)
{%- if per_query %}
SELECT {{ sqlmetrics.cols(keys) }}
       {% if micro %}CASE WHEN sm_n_relevant = 0 THEN 0 ELSE {{ sqlmetrics.fdiv('sm_score_value', 'sm_n_relevant') }} END
       {%- else %}sm_score_value{% endif %}
         AS {{ sqlmetrics.ident(name) }},
       sm_n_relevant AS n_relevant
FROM sm_scored
WHERE sm_included = 1
ORDER BY {{ sqlmetrics.col_list(keys) }}
{%- else %}
SELECT {{ sqlmetrics.cols(by) }}
       {% if correlation -%}
       AVG(CASE WHEN sm_included = 1 THEN sm_score_value END)
       {%- elif micro -%}
       {{ sqlmetrics.fdiv('SUM(CASE WHEN sm_included = 1 THEN sm_score_value ELSE 0 END)',
                          'SUM(CASE WHEN sm_included = 1 THEN sm_n_relevant ELSE 0 END)') }}
       {%- else -%}
       CASE WHEN SUM(CASE WHEN sm_included = 1 THEN sm_n_relevant ELSE 0 END) > 0
            THEN AVG(CASE WHEN sm_included = 1 THEN sm_score_value END) END
       {%- endif %} AS {{ sqlmetrics.ident(name) }},
       CAST(SUM(sm_included) AS BIGINT) AS n_queries,
       CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
       CAST(SUM(CASE WHEN sm_n_relevant = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
{{ sqlmetrics.group_by(by) }}
{%- endif %}
{% endmacro %}
