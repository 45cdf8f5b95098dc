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

{#- NDCG@k = DCG@k / IDCG@k, IDCG from all judged items sorted by relevance (retrieved or not), cut
    at k; 0 when IDCG = 0. Reference: pytrec_eval ndcg_cut_k (linear gain, ties item_desc) and
    sklearn ndcg_score (linear gain, ties average, run carrying the relevance).
    Exponential gains are scaled by one power of two (relevance_gain 'exponential_scaled'), which
    cancels in the ratio, so grades of 1024 and more (2^rel overflows a double) still give the
    value. A query whose gains, so scaled, come out below 1e-290 next to the largest grade of the
    judgments (grades over ~1900 apart) fails the query rather than losing its digits.
    NDCG's parts: the one definition its own call and evaluate share (see evaluate); options: gain ('exponential' or 'linear'), gain_variants (true where the ranked rows carry a
    column per gain variant, see gain_column), idcg (the column of the query's ideal DCG at k), query. Exponential gains are
    scaled (variant 'exponential_scaled': they cancel in the ratio), as `gain` in the dict says. -#}
{% macro ndcg_parts(v, in_k, within, k, options={}) -%}
{%- set variant = 'exponential_scaled' if options.gain == 'exponential' else options.gain %}
{{ return({'aggregates': ['SUM(' ~ in_k ~ ' * ' ~ sqlmetrics.gain_column(variant, options.get('gain_variants', false)) ~ ' * sm_disc) AS ' ~ v],
           'value': sqlmetrics.ndcg_of(v, options.idcg, variant == 'exponential_scaled', options.query),
           'nonempty': 'sm_n_graded', 'needs': [], 'gain': variant, 'ideal': true}) }}
{%- endmacro %}
