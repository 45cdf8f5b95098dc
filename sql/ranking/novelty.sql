{#- Novelty of the recommendations (Castells, Vargas & Wang 2011; Microsoft Recommenders' novelty):
    the mean over the recommended (user, item) rows of each top k of the self-information
    -log2 p(i), p(i) = the item's count / the sum of the counts (item_popularity: the share of the
    training interactions naming it). Computed per item: sum of times recommended x -log2 p(i),
    over the rows. An item recommended without a positive count has p = 0 and an infinite
    self-information: it fails the query, naming how many such items (Microsoft Recommenders
    leaves their rows out of the sum but not of the count, a value too low). The sum of the counts
    is taken as its largest count times the sum of the counts over it, and -log2 p as
    log2 of each factor less log2 of the count: counts near the largest double (a popularity
    table of scores, say) would make the plain sum infinite, and every p 0. -#}
{% macro novelty(relation, interactions=none, popularity=none, query='query', item='item', score='score', k=none,
                 ties='item_desc', by=[]) %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties) }}
),
sm_popularity AS (
  {{ sqlmetrics.item_popularity('novelty', item, interactions, popularity) }}
),
sm_recommended AS (
  {{ sqlmetrics.recommendation_counts(by) }}
),
{#- known items found with a marker: ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL #}
sm_informed AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_recommended') }} sm_recommended.sm_times AS sm_times,
         CASE WHEN sm_known.sm_listed = 1 AND sm_known.sm_count > 0
              THEN {{ sqlmetrics.log2('sm_all.sm_max') }} + {{ sqlmetrics.log2('sm_all.sm_total_over_max') }}
                   - {{ sqlmetrics.log2('sm_known.sm_count') }} END AS sm_information
  FROM sm_recommended
  LEFT JOIN (SELECT sm_item, sm_count, 1 AS sm_listed FROM sm_popularity) AS sm_known
    ON sm_recommended.sm_item = sm_known.sm_item
  CROSS JOIN (
    SELECT MAX(sm_largest.sm_max) AS sm_max,
           SUM({{ sqlmetrics.fdiv('sm_popularity.sm_count', 'sm_largest.sm_max') }}) AS sm_total_over_max
    FROM sm_popularity CROSS JOIN (SELECT MAX(sm_count) AS sm_max FROM sm_popularity) AS sm_largest
  ) AS sm_all
)
SELECT {{ sqlmetrics.cols(by) }}
       {%- set unknown %}SUM(CASE WHEN sm_information IS NULL THEN 1 ELSE 0 END){% endset %}
       {%- set any_unknown %}{{ unknown }} > 0{% endset %}
       CASE WHEN {{ any_unknown }}
            THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('items recommended have no popularity (absent from interactions or popularity, or a count of 0): their self-information -log2 p is infinite; how many', unknown, any_unknown)) }}
            ELSE {{ sqlmetrics.fdiv('SUM(sm_times * sm_information)', 'SUM(sm_times)') }} END AS novelty,
       CAST(SUM(sm_times) AS BIGINT) AS n_recommendations
FROM sm_informed
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
