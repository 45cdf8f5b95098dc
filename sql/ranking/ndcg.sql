{#- NDCG@k = DCG@k / IDCG@k, IDCG from all judged items sorted by relevance (retrieved or not), cut
    at k; 0 when IDCG = 0. Reference: pytrec_eval ndcg_cut_k (linear gain, ties item_desc) and
    sklearn ndcg_score (linear gain, ties average, run carrying the relevance).
    Exponential gains are scaled by one power of two (relevance_gain 'exponential_scaled'), which
    cancels in the ratio, so grades of 1024 and more (2^rel overflows a double) still give the
    value. A query whose gains, so scaled, come out below 1e-290 next to the largest grade of the
    judgments (grades over ~1900 apart) fails the query rather than losing its digits. -#}
{% macro ndcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential',
              relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false) %}
{%- set parts = sqlmetrics.ndcg_parts('sm_dcg', 'sm_in_k', 'sm_in_k = 1', k, {'gain': gain, 'idcg': 'sm_idcg', 'query': query}) %}
{%- set scaled = parts.gain == 'exponential_scaled' %}
{%- set gain_of = parts.gain %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=k,
                                   relevance_threshold=relevance_threshold, gain=gain_of, grades=scaled) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=k, ties=ties, relevance_threshold=relevance_threshold, gain=gain_of, grades=scaled) }},
{{ sqlmetrics.mean_over_queries(name='ndcg', query=query, by=by, per_query=per_query, aggregates=parts.aggregates | join(', '), value=parts.value,
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

{#- NDCG's parts: the one definition its own macro and evaluate share (see evaluate). -#}
{#- options: gain ('exponential' or 'linear'), gain_variants (true where the ranked rows carry a
    column per gain variant, see gain_column), idcg (the column of the query's ideal DCG at k), query. Exponential gains are
    scaled (variant 'exponential_scaled': they cancel in the ratio), as `gain` in the dict says. -#}
{% macro ndcg_parts(v, in_k, within, k, options={}) -%}
{%- set variant = 'exponential_scaled' if options.gain == 'exponential' else options.gain %}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * ' ~ sqlmetrics.gain_column(variant, options.get('gain_variants', false)) ~ ' * sm_disc) AS ' ~ v],
           'value': sqlmetrics.ndcg_of(v, options.idcg, variant == 'exponential_scaled', options.query),
           'nonempty': 'sm_n_graded', 'needs': [], 'gain': variant, 'ideal': true}) }}
{%- endmacro %}
