{#- The popularity of items in the training data, one row per item: sm_item and sm_count, a DOUBLE.
    From `interactions` (the training events, one row each): the rows naming the item, as Microsoft
    Recommenders and RecBole count them; or from `popularity`, a table of one row per item with its
    `count` (a non-negative number; an item given twice, or a NULL or negative count, fails the
    query). `metric` names the caller in the error for a call with both or neither. Shared by
    novelty, average_popularity and tail_share. -#}
{% macro item_popularity(metric, item, interactions, popularity) %}
{%- if (interactions is none) == (popularity is none) %}{{ sqlmetrics.fail(metric ~ ' needs exactly one of interactions or popularity') }}{% endif %}
{%- if interactions is not none %}
SELECT {{ sqlmetrics.ident(item) }} AS sm_item, {{ sqlmetrics.as_double('COUNT(*)') }} AS sm_count
FROM {{ interactions }}
GROUP BY {{ sqlmetrics.ident(item) }}
{%- else %}
{%- set repeated %}COUNT(*) > 1{% endset %}
{%- set negative %}MIN(sm_given) < 0{% endset %}
SELECT sm_item,
       CASE WHEN {{ repeated }}
            THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('the popularity table has more than one row for this item',
                                                                  'sm_item', repeated)) }}
            WHEN {{ negative }}
            THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('a count of the popularity table is negative',
                                                                  'MIN(sm_given)', negative)) }}
            ELSE MAX(sm_given) END AS sm_count
FROM (
  SELECT {{ sqlmetrics.ident(item) }} AS sm_item,
         {{ sqlmetrics.required_number(sqlmetrics.ident('count'), 'a count of the popularity table must be a number') }} AS sm_given
  FROM {{ popularity }}
) AS sm_popularity_rows
GROUP BY sm_item
{%- endif %}
{% endmacro %}
