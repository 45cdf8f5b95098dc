{#- Serendipity (Zhang et al. 2012, "Auralist"; Microsoft Recommenders' serendipity): for each item i
    of a user's top k (the run's query is the user), with H the user's rows of `interactions` (the
    training events),
      serendipity(u, i) = (1 - mean over h in H of similarity(i, h)) * relevance(u, i),
    similarity from the table item_a, item_b, similarity (either direction; missing pairs 0;
    pair_similarities), relevance the run's `relevance` column or 1 when none is given (Microsoft
    Recommenders' col_relevance=None); per user the mean over its items, and the mean over users.
    A user without interactions has no history to be surprised against: left out (as the inner
    join of Microsoft Recommenders), and counted in n_without_history. A recommended item among the
    user's own interactions fails the query (Microsoft Recommenders refuses such a run too): its
    similarity with itself would count. -#}
{% macro serendipity(relation, interactions, similarity, query='query', item='item', score='score', relevance=none,
                     k=none, ties='item_desc', by=[], per_query=false) %}
{%- set keys = by + [query] %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties,
                             relevance=relevance) }}
),
sm_similar AS (
  {{ sqlmetrics.pair_similarities(similarity) }}
),
{#- the user's history found with a marker: ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL #}
sm_history AS (
  SELECT {{ sqlmetrics.ident(query) }} AS sm_user, {{ sqlmetrics.ident(item) }} AS sm_seen, 1 AS sm_has_history
  FROM {{ interactions }}
),
sm_items AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_top') }}
         MAX(COALESCE(sm_history.sm_has_history, 0)) AS sm_known,
         AVG(COALESCE(sm_similar.sm_s, 0)) AS sm_similarity,
         MAX({{ 'sm_top.sm_relevance' if relevance else sqlmetrics.as_double(1) }}) AS sm_rel,
         SUM(CASE WHEN sm_history.sm_has_history = 1 AND sm_history.sm_seen = sm_top.sm_item THEN 1 ELSE 0 END) AS sm_seen_before
  FROM sm_top
  LEFT JOIN sm_history ON sm_history.sm_user = sm_top.{{ sqlmetrics.ident(query) }}
  LEFT JOIN sm_similar ON sm_similar.sm_x = sm_top.sm_item AND sm_similar.sm_y = sm_history.sm_seen
  GROUP BY {{ sqlmetrics.col_list_of(keys, 'sm_top') }}, sm_top.sm_item
),
sm_users AS (
  SELECT {{ sqlmetrics.cols(keys) }} MAX(sm_known) AS sm_user_known, AVG((1 - sm_similarity) * sm_rel) AS sm_mean,
         SUM(sm_seen_before) AS sm_user_seen
  FROM sm_items
  GROUP BY {{ sqlmetrics.col_list(keys) }}
),
sm_values AS (
  {%- set seen %}(SELECT SUM(sm_user_seen) FROM sm_users) > 0{% endset %}
  SELECT {{ sqlmetrics.cols(keys) }}
         CASE WHEN {{ seen }}
              THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value("recommended items are among the interactions of their user (serendipity is of items new to the user); how many", '(SELECT SUM(sm_user_seen) FROM sm_users)', seen)) }}
              WHEN sm_user_known = 1 THEN sm_mean END AS sm_value
  FROM sm_users
)
{{ sqlmetrics.mean_over_lists('serendipity', by, query, per_query,
                              'COUNT(sm_value) AS n_users, CAST(SUM(CASE WHEN sm_value IS NULL THEN 1 ELSE 0 END) AS BIGINT) AS n_without_history') }}
{% endmacro %}
