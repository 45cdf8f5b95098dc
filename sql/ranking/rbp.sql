{#- Rank-biased precision (Moffat & Zobel 2008) = (1 - p) * sum over ranks r <= k of p^(r - 1) *
    [rel_r >= relevance_threshold], p the persistence; as trec_eval 10's rbp (default p = 0.9) on
    binary judgments. residual: the weight the judgments leave unknown, (1 - p) * p^(r - 1) summed
    over the unjudged ranks r <= k, plus p^d, the weight beyond the list's end or the cut-off (d:
    the list length, or k when shorter); 1 for a query absent from the run. A weight p^(r - 1)
    below 1e-307 counts as 0 (POWER would underflow: an error on PostgreSQL). -#}
{% macro rbp(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', persistence=0.9,
             relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- set p = sqlmetrics.as_double(persistence) %}
{#- p^(r - 1) and p^d, 0 where they would underflow -#}
{%- set p_rank %}CASE WHEN (sm_pos - 1) * LN({{ p }}) > -707 THEN POWER({{ p }}, sm_pos - 1) ELSE 0 END{% endset %}
{%- set p_depth %}CASE WHEN sm_depth * LN({{ p }}) > -707 THEN POWER({{ p }}, sm_depth) ELSE 0 END{% endset %}
{%- set weight %}(1 - {{ p }}) * {{ p_rank }} AS sm_weight{% endset %}
{%- set aggregates -%}
SUM(sm_in_k * sm_relevant * sm_weight) AS sm_rbp,
SUM(sm_in_k * (1 - sm_is_judged) * sm_weight) AS sm_unjudged_weight,
SUM(sm_in_k) AS sm_depth
{%- endset %}
{%- set residual %}sm_unjudged_weight + {{ p_depth }}{% endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties,
                         judged=true) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold, row_columns=weight) }},
{{ sqlmetrics.mean_over_queries(name='rbp', query=query, by=by, per_query=per_query, aggregates=aggregates, value='sm_rbp',
                                missing=missing, empty=empty, extra=[('residual', residual, 1)]) }}
{% endmacro %}
