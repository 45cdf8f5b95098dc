{#- Several ranking measures in one pass over the run: the judgments once (query_judgments, with
    one IDCG per ndcg measure), the ranked run once (ranked_run, ranked_rows without a cut-off),
    one GROUP BY per query in which each measure's aggregate keeps its own cut-off
    (CASE WHEN sm_pos <= k), then each measure's mean over queries by its own rules
    (mean_over_queries' `values`). `measures`: a list of objects (or dicts) with
      name    the output column;
      metric  a metric the registry marks one_pass, computed by its <metric>_parts macro (AP's
              denominator R; recall macro);
      k       the cut-off, or none: the whole list (precision and recall: trec_eval's set_P and
              set_recall; r_precision has none);
      gain    ndcg and dcg: 'exponential' or 'linear', or none for the call's `gain`;
      params  (parameter, value) pairs of the metric the measure sets (rbp's persistence), passed
              to its parts among their options.
    A measure's metric defines its parts once, in <metric>_parts(v, in_k, within, k, options) (called
    through the generated ranking_parts): a dict of its per-query `aggregates` (each `... AS <v>`),
    the query's `value` from them, `nonempty` (the column that says a query has something to find)
    and `needs` (what the ranked rows must carry besides: retrieved, cumulative_relevant,
    n_relevant; top_grade, the queries' top grades; judged, sm_is_judged); and, in a metric's own
    call only, `combine` (mean_over_queries': 'micro', 'geometric') and `extra` (its further values).
    `in_k` is 1 inside the cut-off, else 0 (an expression), `within` the same as a condition or none
    for the whole list, `options` the call's (gain, idcg, query, own: a metric's own call...).
    n_queries and n_empty are those of the first measure (its rule for a query without relevant
    items: no positive grade for ndcg and dcg, no grade >= relevance_threshold for the others).
    The pass itself is ranking_pass, which is also each such metric's own call (one_measure). -#}
{% macro evaluate(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', measures=[],
                  ties='item_desc', gain='exponential', relevance_threshold=1.0, missing='zero', empty='zero', by=[],
                  per_query=false) %}
{%- if not measures %}{{ sqlmetrics.fail('evaluate needs measures, e.g. ndcg@10, P@5, map') }}{% endif %}
{{ sqlmetrics.ranking_pass(relation, qrels, query, item, score, relevance, measures, ties, gain, relevance_threshold,
                           missing, empty, by, per_query) }}
{%- endmacro %}

{#- A one-pass metric's own call (the macros sql/metric.sql writes from the registry): the pass with
    one measure of `metric`, its column `name`, cut-off `k` and its own parameters `params` (a dict:
    recall's average, AP's denominator, rbp's persistence). Its parts may then combine the queries
    their own way (`combine`: recall's micro average) and add values of their own after it
    (`extra`: rbp's residual), which only a metric's own call returns. -#}
{% macro one_measure(metric, relation, qrels, query, item, score, relevance, k, ties, gain, relevance_threshold, missing,
                     empty, by, per_query, name, params={}) %}
{{ sqlmetrics.ranking_pass(relation, qrels, query, item, score, relevance,
                           [{'name': name, 'metric': metric, 'k': k, 'gain': none, 'params': params.items() | list}],
                           ties, gain, relevance_threshold, missing, empty, by, per_query, own=true) }}
{%- endmacro %}

{#- The one pass of evaluate (see above); `own`: the one measure's own call (one_measure). -#}
{% macro ranking_pass(relation, qrels, query, item, score, relevance, measures, ties, gain, relevance_threshold, missing,
                      empty, by, per_query, own=false) %}
{%- set keys = by + [query] %}
{%- set gains = [] %}
{%- set cuts = [] %}
{%- set aggregates = [] %}
{%- set values = [] %}
{%- set combined = [] %}
{%- set needs = [] %}
{%- for m in measures %}
{%- set i = loop.index %}
{%- set in_k %}{% if m.k %}CASE WHEN sm_pos <= {{ m.k }} THEN 1 ELSE 0 END{% else %}1{% endif %}{% endset %}
{#- each measure as its metric's parts define it (<metric>_parts), its columns numbered -#}
{%- set options = {'gain': m.gain or gain, 'gain_variants': true, 'idcg': 'sm_idcg_' ~ i, 'query': query, 'own': own} %}
{%- set _ = options.update(m.params or []) %}
{%- set parts = sqlmetrics.ranking_parts(m.metric, 'sm_v_' ~ i, in_k, ('sm_pos <= ' ~ m.k) if m.k else none, m.k, options) %}
{%- if not own and ('combine' in parts or 'extra' in parts) %}{{ sqlmetrics.fail(m.metric ~ ' combines its queries its own way here: it is its own call only') }}{% endif %}
{%- if parts.gain is defined %}
  {%- if parts.gain not in gains %}{% set _ = gains.append(parts.gain) %}{% endif %}
  {%- if parts.ideal %}{% set _ = cuts.append(('_' ~ i, m.k, parts.gain)) %}{% endif %}
{%- endif %}
{%- for need in parts.needs if need not in needs %}{% set _ = needs.append(need) %}{% endfor %}
{%- set _ = aggregates.extend(parts.aggregates) %}
{%- set _ = values.append((m.name, parts.value, parts.nonempty)) %}
{%- set _ = combined.append((parts.get('combine', 'mean'), parts.get('extra', []))) %}
{%- endfor %}
{%- if 'retrieved' in needs %}{% set _ = aggregates.append('COUNT(*) AS sm_retrieved') %}{% endif %}
{%- set scaled = 'exponential_scaled' in gains %}
{#- the gains other than linear (ranked_rows' own sm_gain) per row, and as counted: with ties='average',
    their mean over the row's tie group -#}
{%- set row_columns = [] %}
{%- set window_columns = [] %}
{%- for g in gains if g != 'linear' %}
  {%- set _ = row_columns.append(sqlmetrics.relevance_gain(g) ~ ' AS sm_gain_' ~ g) %}
  {%- set counted = sqlmetrics.peer_mean('sm_gain_' ~ g, keys, 'sm_score') if ties == 'average' else 'sm_gain_' ~ g %}
  {%- set _ = window_columns.append(counted ~ ' AS sm_eff_gain_' ~ g) %}
{%- endfor %}
{%- if 'cumulative_relevant' in needs %}
  {#- relevant items at ranks <= r, for P@r #}
  {%- set cumulative_relevant %}SUM(sm_relevant) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_cum_relevant{% endset %}
  {%- set _ = window_columns.append(cumulative_relevant) %}
{%- endif %}
{#- A run that carries its own relevance is its judgments: what sm_queries would say of each query
    (judgment_sums) is summed in the pass's own GROUP BY, the ideal order a second window over the
    same rows: one read of the run, no join (NDCG@10 of 1M queries x 10 items on DuckDB: 1.45 s of
    SQL -> 1.30 s). -#}
{%- set own_judgments = not qrels %}
{%- set queries = none if own_judgments else 'sm_queries' %}
{%- if own_judgments %}
  {%- if cuts %}
    {%- set _ = window_columns.append('ROW_NUMBER() OVER (' ~ sqlmetrics.partition_by(keys) ~ ' ORDER BY sm_rel DESC) AS sm_ideal_pos') %}
  {%- endif %}
  {%- set gain_columns = {'linear': 'sm_gain'} %}
  {%- for g in gains if g != 'linear' %}{% set _ = gain_columns.update({g: 'sm_gain_' ~ g}) %}{% endfor %}
  {%- set _ = aggregates.extend(sqlmetrics.judgment_sums(relevance_threshold, cuts, 'top_grade' in needs, gain_columns)) %}
{%- endif %}
WITH
{%- if not own_judgments or scaled %}
{{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by,
                              relevance_threshold=relevance_threshold, grades=scaled, cuts=cuts,
                              top_grade=('top_grade' in needs), queries=not own_judgments) }},
{%- endif %}
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties,
                         judged=('judged' in needs)) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties=ties, relevance_threshold=relevance_threshold, grades=scaled,
                          with_n_relevant=('n_relevant' in needs), row_columns=row_columns | join(',\n         '),
                          window_columns=window_columns | join(',\n         '), own_judgments=own_judgments) }},
{%- if own %}
{%- set name, value, nonempty = values[0] %}
{%- set combine, extra = combined[0] %}
{{ sqlmetrics.mean_over_queries(name=name, query=query, by=by, per_query=per_query, aggregates=aggregates | join(',\n         '),
                                value=value, nonempty=nonempty, combine=combine, extra=extra, missing=missing, empty=empty,
                                queries=queries) }}
{%- else %}
{{ sqlmetrics.mean_over_queries(name='evaluate', query=query, by=by, per_query=per_query, aggregates=aggregates | join(',\n         '),
                                values=values, missing=missing, empty=empty, queries=queries) }}
{%- endif %}
{%- endmacro %}
