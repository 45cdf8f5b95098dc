{#- NDCG@k = DCG@k / IDCG@k, IDCG from all judged items sorted by relevance (retrieved or not), cut
    at k; 0 when IDCG = 0. Reference: pytrec_eval ndcg_cut_k (linear gain, ties item_desc) and
    sklearn ndcg_score (linear gain, ties average, run carrying the relevance).
    Exponential gains are scaled by one power of two (relevance_gain 'exponential_scaled'), which
    cancels in the ratio, so grades of 1024 and more (2^rel overflows a double) still give the
    value. A query whose gains, so scaled, come out below 1e-290 next to the largest grade of the
    judgments (grades over ~1900 apart) fails the query rather than losing its digits. -#}
{% macro ndcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential',
              relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- set scaled = gain == 'exponential' %}
{%- set gain_of = 'exponential_scaled' if scaled else gain %}
{%- set discounted_gains %}SUM(sm_in_k * sm_eff_gain * sm_disc) AS sm_dcg{% endset %}
{%- set value = sqlmetrics.ndcg_of('sm_dcg', 'sm_idcg', scaled, query) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold, gain=gain_of, grades=scaled) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold, gain=gain_of, grades=scaled) }},
{{ sqlmetrics.mean_over_queries(name='ndcg', query=query, by=by, per_query=per_query, aggregates=discounted_gains, value=value,
                                missing=missing, empty=empty, nonempty='sm_n_graded') }}
{% endmacro %}

{#- A query's NDCG from the columns `dcg` and `idcg` (of mean_over_queries' sm_per_query); `scaled`:
    the gains are relevance_gain('exponential_scaled'), whose loss of digits fails the query. -#}
{% macro ndcg_of(dcg, idcg, scaled, query) %}
{%- set lost %}sm_n_graded > 0 AND NOT ({{ idcg }} > 1e-290){% endset %}
{%- set query_id %}sm_queries.{{ sqlmetrics.ident(query) }}{% endset %}
{%- if scaled -%}
CASE WHEN {{ lost }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query',
                                                           query_id, lost)) }}
     ELSE {{ dcg }} / NULLIF({{ idcg }}, 0) END
{%- else -%}
{{ dcg }} / NULLIF({{ idcg }}, 0)
{%- endif %}
{%- endmacro %}
