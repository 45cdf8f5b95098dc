{#- The run ranked per query (rank_in_query), cut at k: keys, sm_item, sm_pos. For the list metrics
    that need no judgments (ils, coverage). -#}
{% macro ranked_lists(relation, query, item, score, by, k, ties) %}
{%- set keys = by + [query] %}
SELECT * FROM (
  SELECT {{ sqlmetrics.cols(keys) }}
         {{ sqlmetrics.ident(item) }} AS sm_item,
         {{ sqlmetrics.rank_in_query(keys=keys, score=score, item=item, ties=ties) }} AS sm_pos
  FROM {{ relation }}
) AS sm_ranked_lists
{%- if k %}
WHERE sm_pos <= {{ k }}
{%- endif %}
{% endmacro %}
