{#- bpref (Buckley & Voorhees 2004), as trec_eval's m_bpref.c: (1/R) * sum over the relevant
    retrieved items r of (1 - min(n_r, R) / min(N, R)), n_r the judged non-relevant items ranked
    above r, N the judged non-relevant items of the query (relevance below relevance_threshold,
    retrieved or not), R its relevant items; a term is 1 when n_r = 0. Unjudged retrieved items
    are passed over. Computed as (hits - sum of min(n_r, R) / min(N, R)) / R: the sum is 0
    whenever min(N, R) is. -#}
{% macro bpref(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc', relevance_threshold=1.0,
               missing='zero', empty='zero', by=[], per_query=false) %}
{%- set keys = by + [query] %}
{%- set threshold = sqlmetrics.as_double(relevance_threshold) %}
{%- set judged_nonrelevant %}
CASE WHEN sm_is_judged = 1 AND sm_rel < {{ threshold }} THEN 1 ELSE 0 END AS sm_judged_nonrelevant
{%- endset %}
{#- judged non-relevant items at ranks <= r: those above r for a relevant r -#}
{%- set nonrelevant_above %}
SUM(sm_judged_nonrelevant) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
  AS sm_nonrelevant_above
{%- endset %}
{%- set query_values %}
SELECT sm_found.*, sm_nonrelevant.sm_n_nonrelevant
FROM (
  SELECT {{ sqlmetrics.cols(keys) }}
         SUM(sm_relevant) AS sm_hits,
         SUM(CASE WHEN sm_relevant = 0 THEN 0
                  WHEN sm_nonrelevant_above < sm_n_relevant THEN sm_nonrelevant_above ELSE sm_n_relevant END) AS sm_passed
  FROM sm_ranked
  {{ sqlmetrics.group_by(keys) }}
) AS sm_found
JOIN sm_nonrelevant ON {{ sqlmetrics.join_on(keys, 'sm_found', 'sm_nonrelevant') }}
{%- endset %}
{%- set m %}CASE WHEN sm_n_nonrelevant < sm_queries.sm_n_relevant THEN sm_n_nonrelevant ELSE sm_queries.sm_n_relevant END{% endset %}
{%- set numerator %}sm_hits - CASE WHEN sm_passed > 0 THEN {{ sqlmetrics.fdiv('sm_passed', m) }} ELSE 0 END{% endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
sm_nonrelevant AS (
  SELECT {{ sqlmetrics.cols(keys) }} SUM(CASE WHEN sm_rel >= 0 AND sm_rel < {{ threshold }} THEN 1 ELSE 0 END) AS sm_n_nonrelevant
  FROM sm_judged
  {{ sqlmetrics.group_by(keys) }}
),
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties,
                         judged=true) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties=ties, relevance_threshold=relevance_threshold, with_n_relevant=true,
                          row_columns=judged_nonrelevant, window_columns=nonrelevant_above) }},
{{ sqlmetrics.mean_over_queries(name='bpref', query=query, by=by, per_query=per_query, query_values=query_values,
                                value=sqlmetrics.fdiv(numerator, 'sm_queries.sm_n_relevant'), missing=missing, empty=empty) }}
{% endmacro %}
