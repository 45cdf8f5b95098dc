{#- Catalogue coverage: distinct items appearing in any query's top k / catalogue size, the size
    given as n_items or counted (distinct `item`) in an items table. -#}
{% macro coverage(relation, query='query', item='item', score='score', k=none, ties='item_desc',
                  n_items=none, items=none, by=[]) %}
{%- if (n_items is none) == (items is none) %}{{ sqlmetrics.fail('coverage needs exactly one of n_items or items') }}{% endif %}
{%- set size = sqlmetrics.as_double(n_items) if n_items is not none
               else '(SELECT ' ~ sqlmetrics.as_double('COUNT(DISTINCT ' ~ sqlmetrics.ident(item) ~ ')') ~ ' FROM ' ~ items ~ ')' %}
SELECT {{ sqlmetrics.cols(by) }}
       COUNT(DISTINCT sm_item) / NULLIF({{ size }}, 0) AS coverage,
       COUNT(DISTINCT sm_item) AS n_covered,
       CAST({{ size }} AS BIGINT) AS n_items
FROM ({{ sqlmetrics.ranked_lists(relation, query, item, score, by, k, ties) }}) AS sm_top
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
