{#- The run ranked per query (rank_in_query), as the CTE sm_rows: keys, sm_item, sm_score (the
    score as DOUBLE), sm_rel (the relevance from sm_judged of query_judgments, 0 for an unjudged
    item; or, when qrels is none, the run's own `relevance` column) and sm_pos, the rank. One row
    per row of the run. -#}
{% macro ranked_run(relation, qrels, query, item, score, relevance, by, ties) %}
{%- set keys = by + [query] %}
{%- set run_item %}sm_run.{{ sqlmetrics.ident(item) }}{% endset %}
{%- set run_score %}sm_run.{{ sqlmetrics.ident(score) }}{% endset -%}
sm_rows AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_run') }}
         {{ run_item }} AS sm_item,
         {{ sqlmetrics.as_double(run_score) }} AS sm_score,
         {%- if qrels %}
         COALESCE(sm_judged.sm_rel, 0) AS sm_rel,
         {%- else %}
         {%- set run_relevance %}sm_run.{{ sqlmetrics.ident(relevance) }}{% endset %}
         {{ sqlmetrics.relevance(run_relevance, quoted=true) }} AS sm_rel,
         {%- endif %}
         {{ sqlmetrics.rank_in_query(keys=keys, score=score, item=item, ties=ties, alias='sm_run') }} AS sm_pos
  FROM {{ relation }} AS sm_run
  {%- if qrels %}
  LEFT JOIN sm_judged
    ON {{ sqlmetrics.join_on(keys, 'sm_run', 'sm_judged') }}
       AND {{ run_item }} = sm_judged.sm_item
  {%- endif %}
)
{%- endmacro %}
