{#- Gini index of how often the catalogue's items are recommended (RecBole's GiniIndex): over the n
    items of the catalogue (n_items, or an items table: as coverage), the items never recommended
    counting 0, with P(1) <= ... <= P(n) the counts in increasing order,
      gini_index = sum over i of (2i - n - 1) P(i) / (n sum over i of P(i)).
    0 when every item is recommended equally often, (n - 1) / n when one item takes every
    recommendation. Items of equal counts are interchangeable in the sum, so it is taken per count:
    the m items recommended t times hold the ranks a .. b (after the n - M items never recommended
    and the items of smaller counts; M the items recommended), and sum over i = a .. b of
    (2i - n - 1) = m (a + b - n - 1) = m (n - 2M + 2 c - m), c the items recommended at most t
    times: no sort of the items, only a running sum over the distinct counts (a small table). -#}
{% macro gini_index(relation, query='query', item='item', score='score', k=none, ties='item_desc',
                    n_items=none, items=none, by=[]) %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties) }}
),
sm_catalogue AS (
  {{ sqlmetrics.catalogue('gini_index', relation, item, n_items, items) }}
),
sm_recommended AS (
  {{ sqlmetrics.recommendation_counts(by) }}
),
sm_count_groups AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_times, COUNT(*) AS sm_m
  FROM sm_recommended
  GROUP BY {{ sqlmetrics.cols(by) }} sm_times
),
sm_placed AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_times, sm_m,
         SUM(sm_m) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_times
                         ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_through,
         SUM(sm_m) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_covered,
         {#- n as a column: MariaDB refuses a scalar subquery inside an aggregate of a CASE whose
             conditions hold one too (within_catalogue's) #}
         (SELECT sm_size FROM sm_catalogue) AS sm_n
  FROM sm_count_groups
)
{%- set n = sqlmetrics.as_double('(SELECT sm_size FROM sm_catalogue)') %}
{%- set t = sqlmetrics.as_double('sm_times') %}
{%- set m = sqlmetrics.as_double('sm_m') %}
{%- set weighted %}SUM({{ t }} * {{ m }} * ({{ sqlmetrics.as_double('sm_n') }} - 2 * {{ sqlmetrics.as_double('sm_covered') }} + 2 * {{ sqlmetrics.as_double('sm_through') }} - {{ m }})){% endset %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.within_catalogue(sqlmetrics.fdiv(weighted, n ~ ' * SUM(' ~ t ~ ' * ' ~ m ~ ')')) }} AS gini_index,
       CAST(SUM(sm_m) AS BIGINT) AS n_covered,
       CAST((SELECT sm_size FROM sm_catalogue) AS BIGINT) AS n_items
FROM sm_placed
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
