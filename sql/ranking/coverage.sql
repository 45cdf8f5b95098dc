{#- Catalogue coverage: distinct items appearing in any query's top k / catalogue size, the size
    given as n_items or counted (distinct `item`) in an items table. -#}
{% macro coverage(relation, query='query', item='item', score='score', k=none, ties='item_desc',
                  n_items=none, items=none, by=[]) %}
{%- set size = sqlmetrics.as_double(n_items) if n_items is not none
               else '(SELECT CAST(COUNT(DISTINCT ' ~ sqlmetrics.ident(item) ~ ') AS DOUBLE) FROM ' ~ items ~ ')' %}
SELECT {{ sqlmetrics.cols(by) }}
       COUNT(DISTINCT sm_item) / NULLIF({{ size }}, 0) AS coverage,
       COUNT(DISTINCT sm_item) AS n_covered,
       CAST({{ size }} AS BIGINT) AS n_items
FROM ({{ sqlmetrics.ranked_lists(relation, query, item, score, by, k, ties) }}) AS sm_top
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
