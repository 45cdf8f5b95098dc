{#- Set F = (1 + beta^2) * P * R / (beta^2 * P + R) over the whole retrieved list of a query, P and
    R its set precision and set recall: (1 + beta^2) * hits / (beta^2 * R + retrieved), 0 when
    nothing relevant is retrieved. trec_eval set_F (its parameter is beta^2: set_F.1 is beta=1). -#}
{% macro set_f(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', beta=1.0, relevance_threshold=1.0,
               missing='zero', empty='zero', by=[], per_query=false) %}
{%- set b2 = sqlmetrics.as_double(beta) ~ ' * ' ~ sqlmetrics.as_double(beta) %}
{%- set numerator %}(1 + {{ b2 }}) * sm_hits{% endset %}
{%- set denominator %}{{ b2 }} * sm_n_relevant + sm_retrieved{% endset %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                                   relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties='item_desc') }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties='item_desc', relevance_threshold=relevance_threshold) }},
{{ sqlmetrics.mean_over_queries(name='set_f', query=query, by=by, per_query=per_query,
                                aggregates='SUM(sm_relevant) AS sm_hits, COUNT(*) AS sm_retrieved',
                                value=sqlmetrics.fdiv(numerator, denominator), missing=missing, empty=empty) }}
{% endmacro %}
