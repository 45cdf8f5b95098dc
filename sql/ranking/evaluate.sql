{#- Several ranking measures in one pass over the run: the judgments once (query_judgments, with
    one IDCG per ndcg measure), the ranked run once (ranked_run, ranked_rows without a cut-off),
    one GROUP BY per query in which each measure's aggregate keeps its own cut-off
    (CASE WHEN sm_pos <= k), then each measure's mean over queries by its own rules
    (mean_over_queries' `values`). `measures`: a list of objects (or dicts) with
      name    the output column;
      metric  ndcg, dcg, mean_average_precision, mrr, precision_at_k, recall_at_k, hit_rate or
              r_precision, each as its own macro computes it (AP's denominator R; recall macro);
      k       the cut-off, or none: the whole list (precision and recall: trec_eval's set_P and
              set_recall; r_precision has none);
      gain    ndcg and dcg: 'exponential' or 'linear', or none for the call's `gain`.
    n_queries and n_empty are those of the first measure (its rule for a query without relevant
    items: no positive grade for ndcg and dcg, no grade >= relevance_threshold for the others). -#}
{% macro evaluate(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', measures=[],
                  ties='item_desc', gain='exponential', relevance_threshold=1.0, missing='zero', empty='zero', by=[],
                  per_query=false) %}
{%- if not measures %}{{ sqlmetrics.fail('evaluate needs measures, e.g. ndcg@10, P@5, map') }}{% endif %}
{%- set keys = by + [query] %}
{%- set gains = [] %}
{%- set cuts = [] %}
{%- set aggregates = [] %}
{%- set values = [] %}
{%- for m in measures %}
{%- set i = loop.index %}
{%- set in_k %}{% if m.k %}CASE WHEN sm_pos <= {{ m.k }} THEN 1 ELSE 0 END{% else %}1{% endif %}{% endset %}
{%- if m.metric in ('ndcg', 'dcg') %}
  {%- set g = m.gain or gain %}
  {#- ndcg scales exponential gains (they cancel in the ratio); dcg, a sum of gains, cannot #}
  {%- set g = 'exponential_scaled' if (g == 'exponential' and m.metric == 'ndcg') else g %}
  {%- if g not in gains %}{% set _ = gains.append(g) %}{% endif %}
  {%- set eff_gain = 'sm_eff_gain' if g == 'linear' else 'sm_eff_gain_' ~ g %}
  {%- set _ = aggregates.append('SUM(' ~ in_k ~ ' * ' ~ eff_gain ~ ' * sm_disc) AS sm_v_' ~ i) %}
  {%- if m.metric == 'ndcg' %}
    {%- set _ = cuts.append(('_' ~ i, m.k, g)) %}
    {%- set value = sqlmetrics.ndcg_of('sm_v_' ~ i, 'sm_idcg_' ~ i, g == 'exponential_scaled', query) %}
  {%- else %}
    {%- set value = sqlmetrics.dcg_of('sm_v_' ~ i, query) %}
  {%- endif %}
  {%- set _ = values.append((m.name, value, 'sm_n_graded')) %}
{%- else %}
  {%- if m.metric == 'mean_average_precision' %}
    {%- set aggregate %}SUM({{ in_k }} * sm_relevant * {{ sqlmetrics.as_double('sm_cum_relevant') }} / sm_pos){% endset %}
    {%- set value = sqlmetrics.fdiv('sm_v_' ~ i, 'sm_n_relevant') %}
  {%- elif m.metric == 'mrr' %}
    {%- set aggregate %}MAX(CASE WHEN {% if m.k %}sm_pos <= {{ m.k }} AND {% endif %}sm_relevant = 1 THEN 1 / {{ sqlmetrics.as_double('sm_pos') }} ELSE 0 END){% endset %}
    {%- set value = 'sm_v_' ~ i %}
  {%- elif m.metric == 'precision_at_k' %}
    {%- set aggregate %}SUM({{ in_k }} * sm_eff_relevant){% endset %}
    {%- set value = ('sm_v_' ~ i ~ ' / ' ~ sqlmetrics.as_double(m.k)) if m.k else sqlmetrics.fdiv('sm_v_' ~ i, 'sm_retrieved') %}
  {%- elif m.metric == 'recall_at_k' %}
    {%- set aggregate %}SUM({{ in_k }} * sm_eff_relevant){% endset %}
    {%- set value = sqlmetrics.fdiv('sm_v_' ~ i, 'sm_n_relevant') %}
  {%- elif m.metric == 'hit_rate' %}
    {%- set aggregate %}MAX({{ in_k }} * sm_relevant){% endset %}
    {%- set value = sqlmetrics.as_double('sm_v_' ~ i) %}
  {%- elif m.metric == 'r_precision' %}
    {%- set aggregate %}SUM(CASE WHEN sm_pos <= sm_n_relevant THEN sm_relevant ELSE 0 END){% endset %}
    {%- set value = sqlmetrics.fdiv('sm_v_' ~ i, 'sm_queries.sm_n_relevant') %}
  {%- else %}
    {{- sqlmetrics.fail('evaluate computes ndcg, dcg, mean_average_precision, mrr, precision_at_k, recall_at_k, hit_rate and r_precision; not ' ~ m.metric) }}
  {%- endif %}
  {%- set _ = aggregates.append(aggregate ~ ' AS sm_v_' ~ i) %}
  {%- set _ = values.append((m.name, value, 'sm_n_relevant')) %}
{%- endif %}
{%- endfor %}
{%- set metrics = measures | map(attribute='metric') | list %}
{%- if 'precision_at_k' in metrics %}{% set _ = aggregates.append('COUNT(*) AS sm_retrieved') %}{% endif %}
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
{%- if 'mean_average_precision' in metrics %}
  {#- relevant items at ranks <= r, for P@r #}
  {%- set cumulative_relevant %}SUM(sm_relevant) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_cum_relevant{% endset %}
  {%- set _ = window_columns.append(cumulative_relevant) %}
{%- endif %}
WITH {{ sqlmetrics.query_judgments(relation=relation, qrels=qrels, query=query, item=item, relevance=relevance, by=by, k=none,
                                   relevance_threshold=relevance_threshold, grades=scaled, cuts=cuts) }},
{{ sqlmetrics.ranked_run(relation=relation, qrels=qrels, query=query, item=item, score=score, relevance=relevance, by=by, ties=ties) }},
{{ sqlmetrics.ranked_rows(query=query, by=by, k=none, ties=ties, relevance_threshold=relevance_threshold, grades=scaled,
                          with_n_relevant=('r_precision' in metrics), row_columns=row_columns | join(',\n         '),
                          window_columns=window_columns | join(',\n         ')) }},
{{ sqlmetrics.mean_over_queries(name='evaluate', query=query, by=by, per_query=per_query, aggregates=aggregates | join(',\n         '),
                                values=values, missing=missing, empty=empty) }}
{% endmacro %}
