{#- The ranked rows a rank-based metric aggregates per query, as CTEs over sm_rows (ranked_run):
      sm_marked  sm_rows.* + sm_relevant (1 when sm_rel >= relevance_threshold, else 0), sm_gain
                 (relevance_gain(gain)), sm_disc = 1/log2(sm_pos + 1), sm_in_k (1 within the top
                 k, every row without k), the query's R as sm_n_relevant (with_n_relevant: for a
                 cut-off at R) and the metric's own `row_columns`;
      sm_ranked  sm_marked.* + sm_eff_gain and sm_eff_relevant: the row's gain and relevance, or
                 with ties='average' their means over the row's tie group (so that a sum of them
                 times the discounts is the expected value over all orders of the group: McSherry
                 & Najork 2008), and the metric's own `window_columns` (windows over sm_marked).
    grades=true joins the constants of sm_grades (query_judgments(grades=true)) to every row, for
    a gain or row columns that use them. own_judgments: the run is its own judgments (no
    sm_queries): R is counted over the query's rows. -#}
{% macro ranked_rows(query, by, k, ties, relevance_threshold, gain='linear', grades=false, with_n_relevant=false,
                     row_columns='', window_columns='', own_judgments=false) %}
{%- set keys = by + [query] -%}
sm_marked AS (
  SELECT sm_rows.*,
         {%- if with_n_relevant and own_judgments %}
         SUM(CASE WHEN sm_rel >= {{ sqlmetrics.as_double(relevance_threshold) }} THEN 1 ELSE 0 END)
           OVER ({{ sqlmetrics.partition_by(keys) }}) AS sm_n_relevant,
         {%- elif with_n_relevant %}
         sm_queries.sm_n_relevant,
         {%- endif %}
         CASE WHEN sm_rel >= {{ sqlmetrics.as_double(relevance_threshold) }} THEN 1 ELSE 0 END AS sm_relevant,
         {{ sqlmetrics.relevance_gain(gain) }} AS sm_gain,
         1 / {{ sqlmetrics.log2('sm_pos + 1') }} AS sm_disc,
         {% if k %}CASE WHEN sm_pos <= {{ k }} THEN 1 ELSE 0 END{% else %}1{% endif %} AS sm_in_k
         {{- ',' if row_columns }} {{ row_columns }}
  FROM sm_rows
  {%- if grades %}
  CROSS JOIN sm_grades
  {%- endif %}
  {%- set join_queries = with_n_relevant and not own_judgments %}
  {%- if join_queries and grades %}
  {#- a third table: ClickHouse would name the keys of sm_rows.* after their table (sm_rows.query) #}
  JOIN (SELECT {% for c in keys %}{{ sqlmetrics.ident(c) }} AS sm_key_{{ loop.index }}, {% endfor %}sm_n_relevant FROM sm_queries) AS sm_queries
    ON {% for c in keys %}sm_rows.{{ sqlmetrics.ident(c) }} = sm_queries.sm_key_{{ loop.index }}{{ ' AND ' if not loop.last }}{% endfor %}
  {%- elif join_queries %}
  JOIN sm_queries ON {{ sqlmetrics.join_on(keys, 'sm_rows', 'sm_queries') }}
  {%- endif %}
),
sm_ranked AS (
  SELECT sm_marked.*,
  {%- if ties == 'average' %}
         {{ sqlmetrics.peer_mean('sm_gain', keys, 'sm_score') }} AS sm_eff_gain,
         {{ sqlmetrics.peer_mean(sqlmetrics.as_double('sm_relevant'), keys, 'sm_score') }} AS sm_eff_relevant
  {%- else %}
         sm_gain AS sm_eff_gain,
         sm_relevant AS sm_eff_relevant
  {%- endif %}
         {{- ',' if window_columns }} {{ window_columns }}
  FROM sm_marked
)
{%- endmacro %}
