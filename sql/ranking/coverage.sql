{#- Catalogue coverage: distinct items appearing in any query's top k / catalogue size, the size
    given as n_items or counted (distinct `item`) in an items table (catalogue). -#}
{% macro coverage(relation, query='query', item='item', score='score', k=none, ties='item_desc',
                  n_items=none, items=none, by=[]) %}
WITH sm_top AS (
  {{ sqlmetrics.ranked_lists(relation=relation, query=query, item=item, score=score, by=by, k=k, ties=ties) }}
),
sm_catalogue AS (
  {{ sqlmetrics.catalogue('coverage', relation, item, n_items, items) }}
)
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.within_catalogue(sqlmetrics.fdiv('COUNT(DISTINCT sm_item)', '(SELECT sm_size FROM sm_catalogue)')) }} AS coverage,
       COUNT(DISTINCT sm_item) AS n_covered,
       CAST((SELECT sm_size FROM sm_catalogue) AS BIGINT) AS n_items
FROM sm_top
{{ sqlmetrics.group_by(by) }}
{% endmacro %}

{#- Microsoft Recommenders' name of coverage (catalog_coverage: items= the training interactions). -#}
{% macro catalog_coverage(relation) %}
{{- sqlmetrics.coverage(relation, *varargs, **kwargs) -}}
{% endmacro %}

{#- The catalogue of a metric over it (coverage, gini_index), one row: sm_size (n_items, or the
    distinct `item` of the items table), sm_run_items (the distinct items of the run) and
    sm_unlisted (items of the run the items table lacks). A catalogue that cannot be the run's
    (n_items below the distinct items of the run, or an items table missing some of them) fails
    the query in within_catalogue: a share would be of the wrong whole, possibly above 1. -#}
{% macro catalogue(metric, relation, item, n_items, items) %}
{%- if (n_items is none) == (items is none) %}{{ sqlmetrics.fail(metric ~ ' needs exactly one of n_items or items') }}{% endif %}
{%- if n_items is not none %}
SELECT CAST({{ n_items }} AS BIGINT) AS sm_size,
       COUNT(DISTINCT {{ sqlmetrics.ident(item) }}) AS sm_run_items,
       0 AS sm_unlisted
FROM {{ relation }}
{%- else %}
{#- unlisted items found with a marker: ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL #}
SELECT (SELECT COUNT(DISTINCT {{ sqlmetrics.ident(item) }}) FROM {{ items }}) AS sm_size,
       COUNT(*) AS sm_run_items,
       COALESCE(SUM(CASE WHEN sm_listed.sm_in_catalogue = 1 THEN 0 ELSE 1 END), 0) AS sm_unlisted
FROM (SELECT DISTINCT {{ sqlmetrics.ident(item) }} AS sm_item FROM {{ relation }}) AS sm_run_ids
LEFT JOIN (SELECT DISTINCT {{ sqlmetrics.ident(item) }} AS sm_item, 1 AS sm_in_catalogue FROM {{ items }}) AS sm_listed
  ON sm_run_ids.sm_item = sm_listed.sm_item
{%- endif %}
{% endmacro %}

{#- `value`, or a failure when the catalogue (sm_catalogue, of the macro catalogue) cannot be the run's. -#}
{% macro within_catalogue(value) -%}
{%- set unlisted %}(SELECT sm_unlisted FROM sm_catalogue) > 0{% endset -%}
{%- set too_small %}(SELECT sm_run_items FROM sm_catalogue) > (SELECT sm_size FROM sm_catalogue){% endset -%}
CASE WHEN {{ unlisted }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('items of the run are missing from the catalogue (items); how many',
                                                           '(SELECT sm_unlisted FROM sm_catalogue)', unlisted)) }}
     WHEN {{ too_small }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('n_items is below the number of distinct items in the run',
                                                           '(SELECT sm_run_items FROM sm_catalogue)', too_small)) }}
     ELSE {{ value }} END
{%- endmacro %}
