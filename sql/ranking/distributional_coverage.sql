{#- Distributional coverage (Shani & Gunawardana 2011, eq. 21; Microsoft Recommenders'
    distributional_coverage): the Shannon entropy, in bits, of how the recommendations of all top-k
    lists spread over the items: -sum over items of p(i) log2 p(i), p(i) = the item's share of the
    recommended rows. 0 when every list recommends the same one item; log2 of the number of items
    when they are recommended equally often. -#}
{% macro distributional_coverage(relation, query='query', item='item', score='score', k=none, ties='item_desc', by=[]) %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties) }}
),
sm_recommended AS (
  {{ sqlmetrics.recommendation_counts(by) }}
),
sm_totals AS (
  SELECT {{ sqlmetrics.cols(by) }} SUM(sm_times) AS sm_total
  FROM sm_recommended
  {{ sqlmetrics.group_by(by) }}
)
{%- set share = sqlmetrics.fdiv('sm_recommended.sm_times', 'sm_totals.sm_total') %}
SELECT {{ sqlmetrics.qualified_cols(by, 'sm_recommended') }}
       -SUM({{ share }} * {{ sqlmetrics.log2(share) }}) AS distributional_coverage,
       CAST(MAX(sm_totals.sm_total) AS BIGINT) AS n_recommendations,
       COUNT(*) AS n_covered
FROM sm_recommended
{{ sqlmetrics.join_slices('sm_recommended', 'sm_totals', by) }}
{%- if by %}
GROUP BY {{ sqlmetrics.col_list_of(by, 'sm_recommended') }}
{%- endif %}
{% endmacro %}
