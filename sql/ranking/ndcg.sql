{#- NDCG@k = DCG@k / IDCG@k, IDCG from all judged items sorted by relevance (retrieved or not), cut
    at k; 0 when IDCG = 0. Reference: pytrec_eval ndcg_cut_k (linear gain, ties item_desc) and
    sklearn ndcg_score (linear gain, ties average, run carrying the relevance).
    Exponential gains are scaled by one power of two (ranking_metric's scaled_gain), which cancels
    in the ratio, so grades of 1024 and more (2^rel overflows a double) still give the value. A
    query whose gains, so scaled, come out below 1e-290 next to the largest grade of the judgments
    (grades over ~1900 apart) fails the query rather than losing its digits. -#}
{% macro ndcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential',
              relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- set lost %}sm_n_relevant > 0 AND NOT (sm_idcg > 1e-290){% endset %}
{%- set value %}
{%- if gain == 'exponential' -%}
CASE WHEN {{ lost }}
     THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query',
                                                           'sm_queries.' ~ sqlmetrics.ident(query), lost)) }}
     ELSE sm_dcg / NULLIF(sm_idcg, 0) END
{%- else -%}
sm_dcg / NULLIF(sm_idcg, 0)
{%- endif %}
{%- endset %}
{{ sqlmetrics.ranking_metric('ndcg', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold, gain, missing, empty,
     per_query, aggregates='SUM(sm_in_k * sm_eff_gain * sm_disc) AS sm_dcg', value=value, scaled_gain=(gain == 'exponential')) }}
{% endmacro %}
