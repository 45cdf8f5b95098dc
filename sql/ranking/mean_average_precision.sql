{#- AP@k = (1/D) * sum over relevant items at ranks r <= k of P@r; D = R, the relevant judged items
    (retrieved or not; trec_eval map / map_cut), or min(k, R) with denominator='min_k_r'. MAP is
    the mean over queries. -#}
{% macro mean_average_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', denominator='r',
                                relevance_threshold=1.0, missing='zero', empty='zero', by=[],
                                per_query=false) %}
{{ sqlmetrics.average_precision_over_queries('mean_average_precision', relation=relation, qrels=qrels, query=query, item=item,
                                             score=score, relevance=relevance, k=k, ties=ties, denominator=denominator,
                                             relevance_threshold=relevance_threshold, missing=missing, empty=empty, by=by,
                                             per_query=per_query) }}
{% endmacro %}

{#- map: the short name of mean_average_precision (as sm.map), same arguments. -#}
{% macro map(relation) %}
{{- sqlmetrics.mean_average_precision(relation, *varargs, **kwargs) -}}
{% endmacro %}

{#- The query (per query AP@k) of a metric `name` that combines the queries' average precision as
    mean_over_queries' `combine` says: 'mean' (MAP), 'geometric' (gm_map). -#}
{% macro average_precision_over_queries(name, relation, qrels, query, item, score, relevance, k, ties, denominator,
                                        relevance_threshold, missing, empty, by, per_query, combine='mean') %}
{#- relevant items at ranks <= r, for P@r -#}
{%- set cumulative_relevant %}
SUM(sm_relevant) OVER ({{ sqlmetrics.partition_by(by + [query]) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
  AS sm_cum_relevant
{%- endset %}
{%- set d %}
{%- if denominator == 'r' or not k %}sm_n_relevant{% else %}CASE WHEN sm_n_relevant < {{ k }} THEN sm_n_relevant ELSE {{ k }} END{% endif %}
{%- endset %}
{%- set parts = sqlmetrics.mean_average_precision_parts('sm_precisions', 'sm_in_k', 'sm_in_k = 1', k, {'denominator': d}) %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold,
                          window_columns=cumulative_relevant) }},
{{ sqlmetrics.mean_over_queries(name=name, query=query, by=by, per_query=per_query, aggregates=parts.aggregates | join(', '),
                                value=parts.value, combine=combine, missing=missing, empty=empty) }}
{%- endmacro %}

{#- AP's parts: the one definition its own macro and evaluate share (see evaluate); options.denominator:
    the divisor, R by default. -#}
{% macro mean_average_precision_parts(v, in_k, within, k, options={}) -%}
{%- set precisions %}SUM({{ in_k }} * sm_relevant * {{ sqlmetrics.as_double('sm_cum_relevant') }} / sm_pos) AS {{ v }}{% endset %}
{{ return({'aggregates': [precisions], 'value': sqlmetrics.fdiv(v, options.get('denominator', 'sm_n_relevant')),
           'nonempty': 'sm_n_relevant', 'needs': ['cumulative_relevant']}) }}
{%- endmacro %}
