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
sm_values AS (
  {{ sqlmetrics.item_value_means(keys, 'sm_popularity', 'sm_count') }}
)
{{ sqlmetrics.mean_over_lists('average_popularity', by, query, per_query, 'COUNT(*) AS n_users') }}
{% endmacro %}
