{#- Inferred AP (Yilmaz & Aslam 2006), as trec_eval's m_infap.c: (1/R) * sum over the relevant
    retrieved items, at rank r, of (1 + p_r * (h_r + e) / (j_r + 2e)) / r, e = 0.00001; above r:
    p_r the items in the pool (every item the judgments have, a negative grade being trec_eval's
    "in the pool, unjudged"), j_r the judged ones (grade >= 0), h_r the relevant ones. An item the
    judgments lack is outside the pool: it only takes a rank. trec_eval writes the term as 1/r +
    ((r - 1)/r) * (p_r/(r - 1)) * (h_r + e)/(j_r + 2e), and 1 at rank 1: the same number. -#}
{% macro infap(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc', relevance_threshold=1.0,
               missing='zero', empty='zero', by=[], per_query=false) %}
{%- set keys = by + [query] %}
{%- set e = sqlmetrics.as_double('0.00001') %}
{%- set upto %}OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW){% endset %}
{#- the relevant, judged and pooled items ranked above the row (a relevant item is judged, a judged one pooled) -#}
{%- set counts_above %}
SUM(sm_relevant) {{ upto }} - sm_relevant AS sm_relevant_above,
         SUM(sm_is_judged) {{ upto }} - sm_is_judged AS sm_judged_above,
         SUM(sm_in_pool) {{ upto }} - sm_in_pool AS sm_pooled_above
{%- endset %}
{%- set share = sqlmetrics.fdiv('sm_relevant_above + ' ~ e, 'sm_judged_above + 2 * ' ~ e) %}
{%- set term = sqlmetrics.fdiv('1 + sm_pooled_above * ' ~ share, 'sm_pos') %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties,
                         judged=true, pooled=true) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties=ties, relevance_threshold=relevance_threshold,
                          window_columns=counts_above) }},
{{ sqlmetrics.mean_over_queries(name='infap', query=query, by=by, per_query=per_query,
                                aggregates='SUM(CASE WHEN sm_relevant = 1 THEN ' ~ term ~ ' ELSE 0 END) AS sm_inferred',
                                value=sqlmetrics.fdiv('sm_inferred', 'sm_queries.sm_n_relevant'), missing=missing,
                                empty=empty) }}
{% endmacro %}
