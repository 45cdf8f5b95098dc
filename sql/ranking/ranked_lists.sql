{#- The run ranked per query (score descending, then item id as text: trec_eval's order), cut at k:
    keys, sm_item, sm_pos. For the list metrics that need no judgments (ils, coverage). -#}
{% macro ranked_lists(relation, query, item, score, by, k, ties) %}
{%- set keys = by + [query] %}
SELECT * FROM (
  SELECT {{ sqlmetrics.cols(keys) }}
         {{ sqlmetrics.ident(item) }} AS sm_item,
         ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(keys) }}
                            ORDER BY {{ sqlmetrics.ident(score) }} DESC,
                                     {{ sqlmetrics.bytewise(sqlmetrics.ident(item)) }} {{ 'DESC' if ties == 'item_desc' else 'ASC' }}) AS sm_pos
  FROM {{ relation }}
) AS sm_ranked_lists
{%- if k %}
WHERE sm_pos <= {{ k }}
{%- endif %}
{% endmacro %}
