{#- ROW_NUMBER() of each run row within its query (`keys`: the slice columns and the query): score
    descending, then the item id as bytes, descending ('item_desc': exactly trec_eval's order) or
    ascending ('item_asc'); 'average' leaves the rows of a tie group in any order (the metric then
    averages over the group). `alias` qualifies the columns (a run joined to its judgments).
    Shared by ranked_run and ranked_lists, so that every ranking metric orders a run alike. -#}
{% macro rank_in_query(keys, score, item, ties, alias=none) -%}
{%- set prefix %}{% if alias %}{{ alias }}.{% endif %}{% endset %}
{%- set item_id %}{{ prefix }}{{ sqlmetrics.ident(item) }}{% endset %}
{%- set partition %}{% if alias %}{{ sqlmetrics.col_list_of(keys, alias) }}{% else %}{{ sqlmetrics.col_list(keys) }}{% endif %}{% endset -%}
ROW_NUMBER() OVER (PARTITION BY {{ partition }}
                   ORDER BY {{ prefix }}{{ sqlmetrics.ident(score) }} DESC
                   {%- if ties != 'average' %}, {{ sqlmetrics.bytewise(item_id) }} {{ 'DESC' if ties == 'item_desc' else 'ASC' }}{% endif %})
{%- endmacro %}
