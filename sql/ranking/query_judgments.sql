{#- What the judgments say about each query (and slice), as the CTEs
      sm_judged   keys, sm_item, sm_rel: the judgments, from `qrels`, or from the run itself
                  (its `relevance` column) when qrels is none; a NULL relevance fails the query;
      sm_grades   (grades=true) one row of constants of all the judgments: sm_top, the largest
                  relevance, sm_top_unit = 2^-sm_top, the shift S = max(0, sm_top - 960) and
                  sm_unit = 2^-S, by which relevance_gain('exponential_scaled') scales gains;
      sm_queries  keys, sm_n_relevant: R, the judged items with relevance >= relevance_threshold
                  (retrieved or not), sm_n_graded: the judged items with a positive grade (the
                  query's ideal gain is 0 without one, whatever the threshold), and sm_idcg: IDCG@k, the `gain` (relevance_gain) of the
                  judgments sorted by relevance, cut at k; `cuts`, a list of (suffix, k, gain), adds
                  one such IDCG per item as sm_idcg<suffix> (several cut-offs and gains in one pass;
                  grades=true joins sm_grades for an 'exponential_scaled' gain among them); with
                  top_grade=true, sm_top_grade: the largest grade of the query's judgments (0
                  without a positive one), by which trec_eval's rbp scales its gains.
    The queries a metric evaluates are those of sm_queries: a run query without judgments is
    ignored (TREC's convention). -#}
{% macro query_judgments(relation, qrels, query, item, relevance, by, k, relevance_threshold, gain='linear',
                         grades=false, cuts=[], top_grade=false) %}
{%- set keys = by + [query] %}
{%- set shift %}(CASE WHEN MAX(sm_rel) > 960 THEN MAX(sm_rel) - 960 ELSE 0 END){% endset %}
{%- set minus_shift %}-{{ shift }}{% endset -%}
sm_judged AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         {{ sqlmetrics.ident(item) }} AS sm_item,
         {{ sqlmetrics.relevance(relevance) }} AS sm_rel
  FROM {{ qrels if qrels else relation }}
),
{%- if grades %}
sm_grades AS (
  SELECT MAX(sm_rel) AS sm_top, {{ sqlmetrics.pow2('-MAX(sm_rel)') }} AS sm_top_unit,
         {{ shift }} AS sm_shift, {{ sqlmetrics.pow2(minus_shift) }} AS sm_unit
  {#- over the grades as gains read them: a negative grade (unjudged) is 0 #}
  FROM (SELECT CASE WHEN sm_rel > 0 THEN sm_rel ELSE 0 END AS sm_rel FROM sm_judged) AS sm_gains
),
{%- endif %}
sm_queries AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         SUM(CASE WHEN sm_rel >= {{ sqlmetrics.as_double(relevance_threshold) }} THEN 1 ELSE 0 END) AS sm_n_relevant,
         SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded
         {%- if top_grade %},
         MAX(CASE WHEN sm_rel > 0 THEN sm_rel ELSE 0 END) AS sm_top_grade
         {%- endif %}
         {%- for suffix, cut, cut_gain in [('', k, gain)] + cuts %},
         SUM(CASE WHEN {% if cut %}sm_ideal_pos <= {{ cut }} AND {% endif %}sm_rel > 0
                  THEN {{ sqlmetrics.relevance_gain(cut_gain) }} / {{ sqlmetrics.log2('sm_ideal_pos + 1') }} ELSE 0 END) AS sm_idcg{{ suffix }}
         {%- endfor %}
  FROM (
    SELECT sm_judged.*,
           ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_rel DESC) AS sm_ideal_pos
    FROM sm_judged
  ) AS sm_ideal
  {%- if gain == 'exponential_scaled' or (cuts and grades) %}
  CROSS JOIN sm_grades
  {%- endif %}
  {{ sqlmetrics.group_by(keys) }}
)
{%- endmacro %}
