{#- R-precision = relevant items in the top R / R, R = relevant judged items. Reference: pytrec_eval
    Rprec. options.multiple x (trec_eval's Rprec_mult_x): precision at rank c = floor(x * R + 0.9),
    in doubles as trec_eval's m_Rprec_mult.c computes it (its value is 0 when c = 0; c beyond the
    list still divides by c); x = 1 is R itself, written as such. Its parts: the one definition its
    own call and evaluate share (see evaluate). The row's R is qualified: over a run carrying its
    relevance, the same SELECT sums the query's R as sm_n_relevant (judgment_sums), which ClickHouse
    would read for the bare name. -#}
{% macro r_precision_parts(v, in_k, within, k, options={}) -%}
{%- set multiple = options.get('multiple', 1) %}
{%- if multiple == 1 %}
{{ return({'aggregates': ['SUM(CASE WHEN sm_pos <= sm_ranked.sm_n_relevant THEN sm_relevant ELSE 0 END) AS ' ~ v],
           'value': sqlmetrics.fdiv(v, 'sm_queries.sm_n_relevant'), 'nonempty': 'sm_n_relevant', 'needs': ['n_relevant']}) }}
{%- endif %}
{%- set x = sqlmetrics.as_double(multiple) ~ ' * ' %}
{%- set row_cut = 'FLOOR(' ~ x ~ 'sm_ranked.sm_n_relevant + ' ~ sqlmetrics.as_double(0.9) ~ ')' %}
{%- set cut = 'FLOOR(' ~ x ~ 'sm_queries.sm_n_relevant + ' ~ sqlmetrics.as_double(0.9) ~ ')' %}
{{ return({'aggregates': ['SUM(CASE WHEN sm_pos <= ' ~ row_cut ~ ' THEN sm_relevant ELSE 0 END) AS ' ~ v],
           'value': 'CASE WHEN ' ~ cut ~ ' >= 1 THEN ' ~ sqlmetrics.fdiv(v, cut) ~ ' ELSE 0 END',
           'nonempty': 'sm_n_relevant', 'needs': ['n_relevant']}) }}
{%- endmacro %}
