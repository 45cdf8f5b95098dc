{#- Intra-list similarity of each query's top k (Ziegler et al. 2005): the mean similarity over pairs of items
    in the list, from a similarity table with columns item_a, item_b, similarity (symmetric: either
    direction is looked up; missing pairs count 0; a pair given two different similarities fails
    the query). Mean over queries with at least two items. -#}
{% macro ils(relation, similarity, query='query', item='item', score='score', k=none, ties='item_desc',
             by=[], per_query=false) %}
{%- set keys = by + [query] %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties) }}
),
sm_similar AS (
  {{ sqlmetrics.pair_similarities(similarity) }}
),
sm_values AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_a') }}
         AVG(COALESCE(sm_similar.sm_s, 0)) AS sm_value
  FROM sm_top AS sm_a
  JOIN sm_top AS sm_b ON {{ sqlmetrics.join_on(keys, 'sm_a', 'sm_b') }} AND sm_a.sm_pos < sm_b.sm_pos
  LEFT JOIN sm_similar ON sm_similar.sm_x = sm_a.sm_item AND sm_similar.sm_y = sm_b.sm_item
  GROUP BY {{ sqlmetrics.col_list_of(keys, 'sm_a') }}
)
{{ sqlmetrics.mean_over_lists('ils', by, query, per_query) }}
{% endmacro %}

{#- The similarity table (item_a, item_b, similarity) as one row per ordered pair, both directions:
    sm_x, sm_y, sm_s. Rows repeating a pair (in either direction) must agree: a pair given two
    different similarities fails the query. Shared by ils and serendipity. -#}
{% macro pair_similarities(similarity) %}
SELECT sm_x, sm_y,
       CASE WHEN MIN(sm_s) < MAX(sm_s)
            THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('the similarity table gives a pair with this item two different similarities (either direction is the same pair)',
                                                                  'sm_x', 'MIN(sm_s) < MAX(sm_s)')) }}
            ELSE MAX(sm_s) END AS sm_s
FROM (
  SELECT item_a AS sm_x, item_b AS sm_y, {{ sqlmetrics.as_double('similarity') }} AS sm_s FROM {{ similarity }}
  UNION ALL
  SELECT item_b AS sm_x, item_a AS sm_y, {{ sqlmetrics.as_double('similarity') }} AS sm_s FROM {{ similarity }}
) AS sm_both_ways
GROUP BY sm_x, sm_y
{% endmacro %}
