{#- R-precision = relevant items in the top R / R, R = relevant judged items. Reference: pytrec_eval
    Rprec. Its parts: the one definition its own call and evaluate share (see evaluate). The row's R
    is qualified: over a run carrying its relevance, the same SELECT sums the query's R as
    sm_n_relevant (judgment_sums), which ClickHouse would read for the bare name. -#}
{% macro r_precision_parts(v, in_k, within, k, options={}) -%}
{{ return({'aggregates': ['SUM(CASE WHEN sm_pos <= sm_ranked.sm_n_relevant THEN sm_relevant ELSE 0 END) AS ' ~ v],
           'value': sqlmetrics.fdiv(v, 'sm_queries.sm_n_relevant'), 'nonempty': 'sm_n_relevant', 'needs': ['n_relevant']}) }}
{%- endmacro %}
