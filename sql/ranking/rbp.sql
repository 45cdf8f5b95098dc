{#- Rank-biased precision (Moffat & Zobel 2008) = (1 - p) * sum over ranks r <= k of p^(r - 1) *
    g_r, p the persistence, as trec_eval 10's rbp (default p = 0.9): graded, g_r the item's grade
    over the query's top grade where that is above 1 (trec_eval scales the gains into [0, 1]), else
    its grade; binary (graded=false), g_r = 1 when rel_r >= relevance_threshold, else 0.
    residual: the weight the judgments leave unknown, (1 - p) * p^(r - 1) summed over the unjudged
    ranks r <= k, plus p^d, the weight beyond the list's end or the cut-off (d: the list length, or
    k when shorter); 1 for a query absent from the run. A weight p^(r - 1) below 1e-307 counts as
    0 (POWER would underflow: an error on PostgreSQL). -#}
{% macro rbp(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', persistence=0.9,
             graded=true, relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- set parts = sqlmetrics.rbp_parts('sm_rbp', 'sm_in_k', 'sm_in_k = 1', k, {'persistence': persistence, 'graded': graded,
                                                                              'weight': 'sm_weight'}) %}
{%- set p = sqlmetrics.as_double(persistence) %}
{%- set p_depth %}CASE WHEN sm_depth * LN({{ p }}) > -707 THEN POWER({{ p }}, sm_depth) ELSE 0 END{% endset %}
{%- set aggregates -%}
{{ parts.aggregates | join(', ') }},
SUM(sm_in_k * (1 - sm_is_judged) * sm_weight) AS sm_unjudged_weight,
SUM(sm_in_k) AS sm_depth
{%- endset %}
{%- set residual %}sm_unjudged_weight + {{ p_depth }}{% endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold, top_grade=graded) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties,
                         judged=true) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold,
                          row_columns=sqlmetrics.rbp_weight(persistence) ~ ' AS sm_weight') }},
{{ sqlmetrics.mean_over_queries(name='rbp', query=query, by=by, per_query=per_query, aggregates=aggregates, value=parts.value,
                                nonempty=parts.nonempty, missing=missing, empty=empty, extra=[('residual', residual, 1)]) }}
{% endmacro %}

{#- The weight of rank sm_pos: (1 - p) * p^(sm_pos - 1), 0 where p^(sm_pos - 1) would underflow. -#}
{% macro rbp_weight(persistence) -%}
{%- set p = sqlmetrics.as_double(persistence) -%}
(1 - {{ p }}) * CASE WHEN (sm_pos - 1) * LN({{ p }}) > -707 THEN POWER({{ p }}, sm_pos - 1) ELSE 0 END
{%- endmacro %}

{#- RBP's parts: the one definition its own macro and evaluate share (see evaluate). options:
    persistence, graded, and weight: a column of the rows holding rbp_weight (else computed here). Graded, a query is empty without a positive grade (its gains are all 0,
    as ndcg's), and its sum of grades is scaled by its top grade (query_judgments' sm_top_grade). -#}
{% macro rbp_parts(v, in_k, within, k, options={}) -%}
{%- set graded = options.get('graded', true) %}
{%- set top %}CASE WHEN sm_top_grade > 1 THEN sm_top_grade ELSE 1 END{% endset %}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * ' ~ ('sm_rel' if graded else 'sm_relevant') ~ ' * '
                          ~ (options.get('weight') or sqlmetrics.rbp_weight(options.get('persistence', 0.9))) ~ ') AS ' ~ v],
           'value': sqlmetrics.fdiv(v, top) if graded else v,
           'nonempty': 'sm_n_graded' if graded else 'sm_n_relevant', 'needs': ['top_grade'] if graded else []}) }}
{%- endmacro %}
