{#- Average recommendation popularity, ARP (Yin et al. 2012, Abdollahpouri et al. 2019; RecBole's
    AveragePopularity): per user (the run's query), the mean over the items of its top k of their
    popularity count (item_popularity: the training interactions naming the item, or the count of
    a popularity table; an item absent from it counts 0, as RecBole's item counter gives it); the
    mean over users. -#}
{% macro average_popularity(relation, interactions=none, popularity=none, query='query', item='item', score='score',
                            k=none, ties='item_desc', by=[], per_query=false) %}
{%- set keys = by + [query] %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties) }}
),
sm_popularity AS (
  {{ sqlmetrics.item_popularity('average_popularity', item, interactions, popularity) }}
),
{#- ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL: 0 either way #}
sm_values AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_top') }}
         AVG(COALESCE(sm_popularity.sm_count, 0)) AS sm_value
  FROM sm_top
  LEFT JOIN sm_popularity ON sm_top.sm_item = sm_popularity.sm_item
  GROUP BY {{ sqlmetrics.col_list_of(keys, 'sm_top') }}
)
{{ sqlmetrics.mean_over_lists('average_popularity', by, query, per_query, 'COUNT(*) AS n_users') }}
{% endmacro %}
