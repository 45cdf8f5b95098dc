{#- The weight of rank sm_pos: (1 - p) * p^(sm_pos - 1), 0 where p^(sm_pos - 1) would underflow. -#}
{% macro rbp_weight(persistence) -%}
{%- set p = sqlmetrics.as_double(persistence) -%}
(1 - {{ p }}) * CASE WHEN (sm_pos - 1) * LN({{ p }}) > -707 THEN POWER({{ p }}, sm_pos - 1) ELSE 0 END
{%- endmacro %}

{#- Rank-biased precision (Moffat & Zobel 2008) = (1 - p) * sum over ranks r <= k of p^(r - 1) *
    g_r, p the persistence (options.persistence), as trec_eval 10's rbp (default p = 0.9): graded
    (options.graded, the default), g_r the item's grade over the query's top grade
    (query_judgments' sm_top_grade) where that is above 1 (trec_eval scales the gains into [0, 1]),
    else its grade, and a query is empty without a positive grade (its gains are all 0, as ndcg's);
    binary (graded=false), g_r = 1 when rel_r >= relevance_threshold, else 0. A weight p^(r - 1)
    below 1e-307 counts as 0 (POWER would underflow: an error on PostgreSQL).
    Its own call (options.own) adds the residual: the weight the judgments leave unknown,
    (1 - p) * p^(r - 1) summed over the unjudged ranks r <= k, plus p^d, the weight beyond the list's
    end or the cut-off (d: the list length, or k when shorter); 1 for a query absent from the run.
    RBP's parts: the one definition its own call and evaluate share (see evaluate). -#}
{% macro rbp_parts(v, in_k, within, k, options={}) -%}
{%- set graded = options.get('graded', true) %}
{%- set weight = sqlmetrics.rbp_weight(options.get('persistence', 0.9)) %}
{%- set top %}CASE WHEN sm_top_grade > 1 THEN sm_top_grade ELSE 1 END{% endset %}
{%- set parts = {'aggregates': ['SUM(' ~ in_k ~ ' * ' ~ ('sm_rel' if graded else 'sm_relevant') ~ ' * ' ~ weight ~ ') AS ' ~ v],
                 'value': sqlmetrics.fdiv(v, top) if graded else v,
                 'nonempty': 'sm_n_graded' if graded else 'sm_n_relevant', 'needs': ['top_grade'] if graded else []} %}
{%- if options.get('own') %}
  {%- set p = sqlmetrics.as_double(options.get('persistence', 0.9)) %}
  {%- set residual %}{{ v }}_unjudged + CASE WHEN {{ v }}_depth * LN({{ p }}) > -707 THEN POWER({{ p }}, {{ v }}_depth) ELSE 0 END{% endset %}
  {%- set _ = parts.aggregates.extend(['SUM(' ~ in_k ~ ' * (1 - sm_is_judged) * ' ~ weight ~ ') AS ' ~ v ~ '_unjudged',
                                       'SUM(' ~ in_k ~ ') AS ' ~ v ~ '_depth']) %}
  {%- set _ = parts.needs.append('judged') %}
  {%- set _ = parts.update({'extra': [('residual', residual, 1)]}) %}
{%- endif %}
{{ return(parts) }}
{%- endmacro %}
