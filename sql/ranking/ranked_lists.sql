{#- The run ranked per query (rank_in_query), cut at k: keys, sm_item, sm_pos, and with `relevance`
    (a column of the run) sm_relevance, the recommended item's relevance. For the list metrics that
    need no judgments (ils, coverage, the beyond-accuracy metrics). -#}
{% macro ranked_lists(relation, query, item, score, by, k, ties, relevance=none) %}
{%- set keys = by + [query] %}
SELECT * FROM (
  SELECT {{ sqlmetrics.cols(keys) }}
         {{ sqlmetrics.ident(item) }} AS sm_item,
         {%- if relevance %}
         {{ sqlmetrics.relevance(relevance) }} AS sm_relevance,
         {%- endif %}
         {{ sqlmetrics.rank_in_query(keys=keys, score=score, item=item, ties=ties) }} AS sm_pos
  FROM {{ relation }}
) AS sm_ranked_lists
{%- if k %}
WHERE sm_pos <= {{ k }}
{%- endif %}
{% endmacro %}

{#- How often each item is recommended in the lists of sm_top (ranked_lists), per slice: `by`,
    sm_item, sm_times. Aggregated before any join with item data, so that a popular item's rows
    do not meet in one task. -#}
{% macro recommendation_counts(by) %}
SELECT {{ sqlmetrics.cols(by) }} sm_item, COUNT(*) AS sm_times
FROM sm_top
GROUP BY {{ sqlmetrics.cols(by) }} sm_item
{% endmacro %}

{#- Per list (`keys`) of sm_top, the mean over its items of `value`, a column of `items` (a table of one
    row per sm_item); an item `items` lacks counts 0 (ClickHouse fills an unmatched LEFT JOIN row
    with 0, not NULL: 0 either way): keys, sm_value. -#}
{% macro item_value_means(keys, items, value) %}
SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_top') }}
       AVG(COALESCE({{ items }}.{{ value }}, 0)) AS sm_value
FROM sm_top
LEFT JOIN {{ items }} ON sm_top.sm_item = {{ items }}.sm_item
GROUP BY {{ sqlmetrics.col_list_of(keys, 'sm_top') }}
{% endmacro %}

{#- The final SELECT of a metric that is a mean over the lists (queries, users) of sm_values (keys
    `by` + [query], sm_value; a NULL sm_value: a list that has no value, left out): per slice the
    mean as `name` and `counts` (select items over sm_values); with per_query, the value of each
    list; with per_query='parts', each list's share of the mean (as mean_over_queries' parts, for
    a bootstrap over lists or a paired comparison). -#}
{% macro mean_over_lists(name, by, query, per_query, counts='COUNT(*) AS n_queries') %}
{%- set keys = by + [query] %}
{%- if per_query == 'parts' %}
SELECT {{ sqlmetrics.cols(keys) }} sm_value AS sm_numerator, 1 AS sm_denominator, 0 AS sm_n_relevant,
       0 AS sm_relevant_rule
FROM sm_values
WHERE sm_value IS NOT NULL
{%- elif per_query %}
SELECT {{ sqlmetrics.cols(keys) }} sm_value AS {{ name }}
FROM sm_values
WHERE sm_value IS NOT NULL
ORDER BY {{ sqlmetrics.col_list(keys) }}
{%- else %}
SELECT {{ sqlmetrics.cols(by) }} AVG(sm_value) AS {{ name }}, {{ counts }}
FROM sm_values
{{ sqlmetrics.group_by(by) }}
{%- endif %}
{% endmacro %}
