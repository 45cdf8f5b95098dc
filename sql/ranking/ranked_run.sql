{#- The run ranked per query (rank_in_query), as the CTE sm_rows: keys, sm_item, sm_score (the
    score as DOUBLE), sm_rel (the relevance from sm_judged of query_judgments, 0 for an unjudged
    item; or, when qrels is none, the run's own `relevance` column) and sm_pos, the rank. One row
    per row of the run. A negative grade is trec_eval's "in the pool, unjudged": its sm_rel is 0,
    as for an item the judgments lack (gain 0, never relevant, in every metric that reads sm_rows).
    judged=true adds sm_is_judged: 1 when the judgments have the item with a grade >= 0, else 0,
    for the metrics that tell an unjudged item from a judged non-relevant one (a marker:
    ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL); pooled=true adds sm_in_pool: 1
    when the judgments have the item whatever its grade (a negative one: in the pool, unjudged),
    else 0, for infap, which tells the two kinds of unjudged item apart (a run carrying its
    relevance has every row in the pool). A `by` column of the qrels only gives each run query its
    slice (with_slices): a query nobody judged has none, and is ignored as it would be without
    slices. -#}
{% macro ranked_run(relation, qrels, query, item, score, relevance, by, ties, judged=false, pooled=false) %}
{%- set keys = by + [query] %}
{%- set run_item %}sm_run.{{ sqlmetrics.ident(item) }}{% endset %}
{%- set run_score %}sm_run.{{ sqlmetrics.ident(score) }}{% endset %}
{%- set marked = judged or pooled %}
{%- set judgments = 'sm_marked_judged' if marked else 'sm_judged' -%}
sm_rows AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_run') }}
         {{ run_item }} AS sm_item,
         {{ sqlmetrics.as_double(run_score) }} AS sm_score,
         {%- if qrels %}
         CASE WHEN {{ judgments }}.sm_rel > 0 THEN {{ judgments }}.sm_rel ELSE 0 END AS sm_rel,
         {%- if judged %}
         CASE WHEN {{ judgments }}.sm_is_judged = 1 AND {{ judgments }}.sm_rel >= 0 THEN 1 ELSE 0 END AS sm_is_judged,
         {%- endif %}
         {%- if pooled %}
         CASE WHEN {{ judgments }}.sm_is_judged = 1 THEN 1 ELSE 0 END AS sm_in_pool,
         {%- endif %}
         {%- else %}
         {%- set run_relevance %}sm_run.{{ sqlmetrics.ident(relevance) }}{% endset %}
         {#- a NULL is not <= 0: it reaches relevance(), which fails the query #}
         CASE WHEN {{ run_relevance }} <= 0 THEN 0 ELSE {{ sqlmetrics.relevance(run_relevance, quoted=true) }} END AS sm_rel,
         {%- if judged %}
         CASE WHEN {{ run_relevance }} >= 0 THEN 1 ELSE 0 END AS sm_is_judged,
         {%- endif %}
         {%- if pooled %}
         1 AS sm_in_pool,
         {%- endif %}
         {%- endif %}
         {{ sqlmetrics.rank_in_query(keys=keys, score=score, item=item, ties=ties, alias='sm_run') }} AS sm_pos
  FROM {{ sqlmetrics.with_slices(relation, qrels, query, sqlmetrics.slices_lacking(relation, qrels, by).run, 'qrels', 'sm_run') }}
  {%- if qrels %}
  LEFT JOIN {% if marked %}(SELECT sm_judged.*, 1 AS sm_is_judged FROM sm_judged) AS {% endif %}{{ judgments }}
    ON {{ sqlmetrics.join_on(keys, 'sm_run', judgments) }}
       AND {{ run_item }} = {{ judgments }}.sm_item
  {%- endif %}
)
{%- endmacro %}
