{#- AP@k = (1/D) * sum over relevant items at ranks r <= k of P@r; D = R, the relevant judged items
    (retrieved or not; trec_eval map / map_cut), or min(k, R) with denominator='min_k_r'. MAP is
    the mean over queries. -#}
{% macro mean_average_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', denominator='r',
                                relevance_threshold=1.0, missing='zero', empty='zero', by=[],
                                per_query=false) %}
{%- set d = 'sm_n_relevant' if denominator == 'r' or not k
            else 'CASE WHEN sm_n_relevant < ' ~ k ~ ' THEN sm_n_relevant ELSE ' ~ k ~ ' END' %}
{{ sqlmetrics.ranking_metric('mean_average_precision', relation, qrels, query, item, score, relevance, by, k, ties, relevance_threshold,
     'linear', missing, empty, per_query,
     aggregates='SUM(sm_in_k * sm_relevant * ' ~ sqlmetrics.as_double('sm_cum_relevant') ~ ' / sm_pos) AS sm_precisions',
     value=sqlmetrics.fdiv('sm_precisions', d),
     windows='SUM(sm_relevant) OVER (' ~ sqlmetrics.partition_by(by + [query])
             ~ ' ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_cum_relevant') }}
{% endmacro %}

{#- map: the short name of mean_average_precision (as sm.map), same arguments. -#}
{% macro map(relation) %}
{{- sqlmetrics.mean_average_precision(relation, *varargs, **kwargs) -}}
{% endmacro %}
