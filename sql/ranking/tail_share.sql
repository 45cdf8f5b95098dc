{#- Share of long-tail items in the recommendations (RecBole's TailPercentage): per user (the run's
    query), the share of the items of its top k that are in the long tail T; the mean over users.
    T is drawn from the items of the popularity source (item_popularity), as RecBole draws it from
    its counter of the training items, so an item the source lacks is not in it (give it a row of
    count 0 in a popularity table to count it in):
      tail > 1   the items whose count is at most `tail` (a count threshold);
      tail <= 1  the least popular share `tail` of the items: the first max(floor(n * tail), 1) of
                 the n items in increasing order of count (RecBole's cut, the product in double
                 precision). Where the cut falls inside a group of equally popular items, RecBole
                 takes them in the order of its internal item ids; here each item of that group
                 counts as the share of the group the cut takes (the expected value over every
                 order of the group), so the value does not depend on how items are numbered.
                 Items are grouped by count (few distinct counts): the running count of items is a
                 window over that small table, never a sort of the items.
    n_tail_items: the size of T. -#}
{% macro tail_share(relation, interactions=none, popularity=none, query='query', item='item', score='score', k=none,
                    ties='item_desc', tail=0.1, by=[], per_query=false) %}
{%- set keys = by + [query] %}
{%- set bound = sqlmetrics.as_double(tail) %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties) }}
),
sm_popularity AS (
  {{ sqlmetrics.item_popularity('tail_share', item, interactions, popularity) }}
),
{%- if tail > 1 %}
sm_tail AS (
  SELECT sm_item, {{ sqlmetrics.as_double('CASE WHEN sm_count <= ' ~ bound ~ ' THEN 1 ELSE 0 END') }} AS sm_in_tail
  FROM sm_popularity
),
sm_tail_size AS (
  SELECT CAST(COALESCE(SUM(CASE WHEN sm_count <= {{ bound }} THEN 1 ELSE 0 END), 0) AS BIGINT) AS sm_tail_items FROM sm_popularity
),
{%- else %}
sm_count_groups AS (
  SELECT sm_count, COUNT(*) AS sm_m FROM sm_popularity GROUP BY sm_count
),
sm_groups_cut AS (
  SELECT sm_count, sm_m, sm_before,
         CASE WHEN FLOOR({{ sqlmetrics.as_double('sm_n') }} * {{ bound }}) >= 1
              THEN FLOOR({{ sqlmetrics.as_double('sm_n') }} * {{ bound }}) ELSE 1 END AS sm_cut
  FROM (
    SELECT sm_count, sm_m,
           COALESCE(SUM(sm_m) OVER (ORDER BY sm_count ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS sm_before,
           SUM(sm_m) OVER () AS sm_n
    FROM sm_count_groups
  ) AS sm_running
),
sm_tail AS (
  SELECT sm_popularity.sm_item AS sm_item,
         CASE WHEN sm_groups_cut.sm_before >= sm_groups_cut.sm_cut THEN {{ sqlmetrics.as_double(0) }}
              WHEN sm_groups_cut.sm_before + sm_groups_cut.sm_m <= sm_groups_cut.sm_cut THEN {{ sqlmetrics.as_double(1) }}
              ELSE {{ sqlmetrics.fdiv('sm_groups_cut.sm_cut - sm_groups_cut.sm_before', 'sm_groups_cut.sm_m') }} END AS sm_in_tail
  FROM sm_popularity
  JOIN sm_groups_cut ON sm_popularity.sm_count = sm_groups_cut.sm_count
),
sm_tail_size AS (
  SELECT CAST(COALESCE(MAX(sm_cut), 0) AS BIGINT) AS sm_tail_items FROM sm_groups_cut
),
{%- endif %}
sm_values AS (
  {{ sqlmetrics.item_value_means(keys, 'sm_tail', 'sm_in_tail') }}
)
{{ sqlmetrics.mean_over_lists('tail_share', by, query, per_query,
                              'COUNT(*) AS n_users, (SELECT sm_tail_items FROM sm_tail_size) AS n_tail_items') }}
{% endmacro %}
