{#- A metric's value per query and its summary over queries: CTEs that follow query_judgments and
    ranked_rows (they read sm_queries and sm_ranked), then the final SELECT.
      sm_values     the per-query values: `aggregates` (select items) over each query's rows of
                    sm_ranked, or `query_values`, a SELECT of keys and value columns that may
                    leave out queries of the run (a one-item list has no pairs);
      sm_per_query  every judged query (sm_queries): keys, sm_n_relevant, sm_in_run (1 when the
                    run has the query, else 0) and sm_value, the query's `value`: an expression
                    over the columns of sm_values and sm_queries (sm_n_relevant, sm_idcg), NULL
                    for a query left out of query_values. Aggregating before joining the query
                    stats keeps the join at one row per query instead of one per ranked item;
      sm_scored     + sm_included (1 when the query counts) and sm_score_value, its value as
                    counted.
    How the queries' values make the metric (`combine`):
      'mean'             the mean of the counted queries' values. A judged query absent from the
                         run counts with missing_score (missing='zero', as trec_eval -c) or is
                         left out ('skip'); a query without relevant items counts with
                         empty_score (empty='zero') or is left out (a query that is both counts
                         with missing_score). NULL when no counted query has a relevant item.
      'micro'            the values are numbers of relevant items found: their sum over the
                         counted queries divided by the sum of those queries' R (per query:
                         value / R, or empty_score when R = 0). Queries count as for 'mean'.
      'mean_of_defined'  the mean of the values that are not NULL (as a correlation undefined on
                         a constant list), over the queries of the run; a value stands whatever
                         the query's relevance, and missing and empty do not apply.
      'geometric'        the geometric mean exp(mean(ln(max(value, floor)))) of the counted
                         queries' values (trec_eval's gm_ measures: floor = 1e-5, its MIN_GEO_MEAN),
                         queries counting as for 'mean' (a missing or empty query's score is
                         floored too); per query, max(value, floor). Not a ratio of sums: no
                         per_query='parts'.
      'sum'              the sum of the counted queries' values (0 without any), a count (BIGINT)
                         such as relevant items retrieved; queries count as for 'mean'. Not a
                         mean: no per_query='parts'.
    A query is empty when its `nonempty` column of sm_queries is 0: sm_n_relevant (no item reaches
    relevance_threshold) for the binary measures; sm_n_graded (no positive grade: the ideal gain is
    0) for the gain-based ones, which score a query from its grades whatever the threshold, as
    trec_eval's ndcg does.
    `extra` (with 'mean'): further per-query values, as a list of (output name, expression like
    `value`, the value of a query absent from the run); each is averaged over the counted queries
    as the metric is (a query without relevant items keeps its own), and comes after the metric's
    column.
    The summary has one row per slice (`by`): the metric as `name`, n_queries (counted), n_missing
    (judged queries absent from the run) and n_empty (queries without relevant items); with
    per_query, one row per counted query: keys, `name`, n_relevant; with per_query='parts' (for a
    bootstrap over queries), the query's share of the metric instead: sm_numerator and
    sm_denominator, whose sums over the counted queries divide into the metric, and sm_n_relevant
    for the rule that makes it NULL (sm_relevant_rule = 1: when no counted query has a relevant
    item). `ranked` and `queries` name the CTEs read in place of sm_ranked and sm_queries (a metric
    of several values per query, one per recall level say, passes CTEs keyed by that column too,
    with it in `by`); queries=none: the run is its own judgments, whose sm_values carry the columns of
    sm_queries (their aggregates among `aggregates`: judgment_sums), every query in the run; `ordered`
    sorts the summary by `by`. Presence is tested with
    markers set to 1, not IS NULL: ClickHouse fills the columns of an unmatched LEFT JOIN row with
    their type's default (0), not NULL.
    `values` (with 'mean', in place of name, value and nonempty): several metrics over the same
    aggregates, as a list of (output name, value, nonempty); each counts its own queries (missing,
    empty, and its nonempty column) as its own call would. The counts n_queries and n_empty are
    those of the first; per_query gives the queries any of them counts, with NULL for a metric that
    leaves the query out. -#}
{% macro mean_over_queries(name, query, by, per_query, aggregates=none, query_values=none, value='sm_value',
                           combine='mean', missing='zero', empty='zero', missing_score=0, empty_score=0,
                           nonempty='sm_n_relevant', floor=0.00001, ranked='sm_ranked', queries='sm_queries', ordered=false,
                           extra=[], values=[]) %}
{%- if combine not in ('mean', 'micro', 'mean_of_defined', 'geometric', 'sum') %}{{ sqlmetrics.fail('combine is mean, micro, mean_of_defined, geometric or sum') }}{% endif %}
{%- if combine == 'geometric' and per_query == 'parts' %}{{ sqlmetrics.fail(name ~ ' is a geometric mean over queries, not a ratio of sums over them: it has no per-query parts') }}{% endif %}
{%- if combine == 'sum' and per_query == 'parts' %}{{ sqlmetrics.fail(name ~ ' is a sum over queries, not a mean: it has no per-query parts') }}{% endif %}
{%- if extra and combine != 'mean' %}{{ sqlmetrics.fail('extra values are averaged: combine=mean') }}{% endif %}
{%- if values and (combine != 'mean' or extra or query_values or per_query == 'parts') %}{{ sqlmetrics.fail('values are means of aggregates: combine=mean, without extra, query_values or parts') }}{% endif %}
{%- if not queries and query_values %}{{ sqlmetrics.fail('a run that is its own judgments has its values from aggregates') }}{% endif %}
{%- set measured = values or [(name, value, nonempty)] %}
{%- set keys = by + [query] %}
{%- set included %}CASE WHEN sm_included = 1 THEN sm_score_value END{% endset %}
{%- set included_score %}SUM(CASE WHEN sm_included = 1 THEN sm_score_value ELSE 0 END){% endset %}
{%- set included_relevant %}SUM(CASE WHEN sm_included = 1 THEN sm_n_relevant ELSE 0 END){% endset %}
{%- set included_nonempty %}SUM(CASE WHEN sm_included = 1 THEN sm_nonempty ELSE 0 END){% endset %}
{%- set floored %}CASE WHEN sm_score_value > {{ sqlmetrics.as_double(floor) }} THEN sm_score_value ELSE {{ sqlmetrics.as_double(floor) }} END{% endset -%}
sm_values AS (
  {%- if query_values %}
  SELECT sm_v.*, 1 AS sm_has_value FROM ({{ query_values }}) AS sm_v
  {%- else %}
  SELECT {{ sqlmetrics.cols(keys) }} {{ aggregates }}, 1 AS sm_in_run
  FROM {{ ranked }}
  {{ sqlmetrics.group_by(keys) }}
  {%- endif %}
),
sm_per_query AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_queries') }}
         sm_queries.sm_n_relevant,
         {%- for _, _, measure_nonempty in measured %} sm_queries.{{ measure_nonempty }} AS sm_nonempty{{ '_' ~ loop.index if values }},{% endfor %}
         {% if queries %}CASE WHEN {{ 'sm_seen' if query_values else 'sm_values' }}.sm_in_run = 1 THEN 1 ELSE 0 END{% else %}1{% endif %} AS sm_in_run
         {%- for _, measure_value, _ in measured %},
         {% if query_values %}CASE WHEN sm_values.sm_has_value = 1 THEN {{ measure_value }} END{% else %}{{ measure_value }}{% endif %} AS sm_value{{ '_' ~ loop.index if values }}
         {%- endfor %}
         {%- for _, extra_value, _ in extra %},
         {{ extra_value }} AS sm_extra_{{ loop.index }}
         {%- endfor %}
  {%- if not queries %}
  FROM sm_values AS sm_queries
  {%- else %}
  FROM {{ queries }}{% if queries != 'sm_queries' %} AS sm_queries{% endif %}
  LEFT JOIN sm_values ON {{ sqlmetrics.join_on(keys, 'sm_queries', 'sm_values') }}
  {%- endif %}
  {%- if query_values %}
  LEFT JOIN (SELECT DISTINCT {{ sqlmetrics.col_list(keys) }}, 1 AS sm_in_run FROM {{ ranked }}) AS sm_seen
    ON {{ sqlmetrics.join_on(keys, 'sm_queries', 'sm_seen') }}
  {%- endif %}
),
sm_scored AS (
  SELECT sm_per_query.*,
  {%- if combine == 'mean_of_defined' %}
         CASE WHEN sm_in_run = 1 AND sm_value IS NOT NULL THEN 1 ELSE 0 END AS sm_included,
         sm_value AS sm_score_value
  {%- else %}
  {%- for _ in measured %}
  {%- set s = '_' ~ loop.index if values else '' %}
         CASE WHEN (sm_in_run = 1 OR 1 = {{ 1 if missing == 'zero' else 0 }})
                   AND (sm_nonempty{{ s }} > 0 OR 1 = {{ 1 if empty == 'zero' else 0 }}) THEN 1 ELSE 0 END AS sm_included{{ s }},
         {#- one WHEN while both scores are the same #}
         {%- if missing_score == empty_score %}
         CASE WHEN sm_in_run = 0 OR sm_nonempty{{ s }} = 0 THEN {{ missing_score }} ELSE sm_value{{ s }} END AS sm_score_value{{ s }}
         {%- else %}
         CASE WHEN sm_in_run = 0 THEN {{ missing_score }} WHEN sm_nonempty{{ s }} = 0 THEN {{ empty_score }}
              ELSE sm_value{{ s }} END AS sm_score_value{{ s }}
         {%- endif %}{{ ',' if not loop.last }}
  {%- endfor %}
  {%- endif %}
         {%- for _, _, extra_missing in extra %},
         CASE WHEN sm_in_run = 0 THEN {{ extra_missing }} ELSE sm_extra_{{ loop.index }} END AS sm_extra_score_{{ loop.index }}
         {%- endfor %}
  FROM sm_per_query
)
{%- if per_query == 'parts' %}
SELECT {{ sqlmetrics.cols(keys) }}
       {{ sqlmetrics.as_double('sm_score_value') }} AS sm_numerator,
       {% if combine == 'micro' %}sm_n_relevant{% else %}1{% endif %} AS sm_denominator,
       sm_nonempty AS sm_n_relevant,
       {{ 1 if combine == 'mean' else 0 }} AS sm_relevant_rule
FROM sm_scored
WHERE sm_included = 1
{%- elif per_query and values %}
SELECT {{ sqlmetrics.cols(keys) }}
       {%- for measure_name, _, _ in values %}
       CASE WHEN sm_included_{{ loop.index }} = 1 THEN sm_score_value_{{ loop.index }} END AS {{ sqlmetrics.ident(measure_name) }},
       {%- endfor %}
       CAST(sm_n_relevant AS BIGINT) AS n_relevant
FROM sm_scored
WHERE {% for _ in values %}sm_included_{{ loop.index }} = 1{{ ' OR ' if not loop.last }}{% endfor %}
ORDER BY {{ sqlmetrics.col_list(keys) }}
{%- elif per_query %}
SELECT {{ sqlmetrics.cols(keys) }}
       {% if combine == 'micro' %}CASE WHEN sm_n_relevant = 0 THEN {{ empty_score }} ELSE {{ sqlmetrics.fdiv('sm_score_value', 'sm_n_relevant') }} END
       {%- elif combine == 'geometric' %}{{ floored }}
       {%- elif combine == 'sum' %}CAST(sm_score_value AS BIGINT)
       {%- else %}sm_score_value{% endif %}
         AS {{ sqlmetrics.ident(name) }},
       {%- for extra_name, _, _ in extra %}
       sm_extra_score_{{ loop.index }} AS {{ sqlmetrics.ident(extra_name) }},
       {%- endfor %}
       CAST(sm_n_relevant AS BIGINT) AS n_relevant
FROM sm_scored
WHERE sm_included = 1
ORDER BY {{ sqlmetrics.col_list(keys) }}
{%- else %}
SELECT {{ sqlmetrics.cols(by) }}
       {% if combine == 'mean_of_defined' -%}
       AVG({{ included }})
       {%- elif combine == 'micro' -%}
       {{ sqlmetrics.fdiv(included_score, included_relevant) }}
       {%- elif combine == 'geometric' -%}
       {#- the floor keeps LN's argument positive (PostgreSQL raises on LN(0)) #}
       CASE WHEN {{ included_nonempty }} > 0 THEN EXP(AVG(CASE WHEN sm_included = 1 THEN LN({{ floored }}) END)) END
       {%- elif combine == 'sum' -%}
       CAST(COALESCE({{ included_score }}, 0) AS BIGINT)
       {%- elif values -%}
       {%- for measure_name, _, _ in values %}
       {%- set s = '_' ~ loop.index %}
       CASE WHEN SUM(CASE WHEN sm_included{{ s }} = 1 THEN sm_nonempty{{ s }} ELSE 0 END) > 0
            THEN AVG(CASE WHEN sm_included{{ s }} = 1 THEN sm_score_value{{ s }} END) END AS {{ sqlmetrics.ident(measure_name) }}
       {{- ',' if not loop.last }}
       {%- endfor %}
       {%- else -%}
       CASE WHEN {{ included_nonempty }} > 0 THEN AVG({{ included }}) END
       {%- endif %}{% if not values %} AS {{ sqlmetrics.ident(name) }}{% endif %},
       {%- for extra_name, _, _ in extra %}
       CASE WHEN {{ included_nonempty }} > 0 THEN AVG(CASE WHEN sm_included = 1 THEN sm_extra_score_{{ loop.index }} END) END
         AS {{ sqlmetrics.ident(extra_name) }},
       {%- endfor %}
       {%- set s = '_1' if values else '' %}
       CAST(SUM(sm_included{{ s }}) AS BIGINT) AS n_queries,
       CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
       CAST(SUM(CASE WHEN sm_nonempty{{ s }} = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
{{ sqlmetrics.group_by(by) }}
{%- if ordered and by %}
ORDER BY {{ sqlmetrics.col_list(by) }}
{%- endif %}
{%- endif %}
{%- endmacro %}
