{#- What the judgments say about each query (and slice), as the CTEs
      sm_judged   keys, sm_item, sm_rel: the judgments, from `qrels`, or from the run itself
                  (its `relevance` column) when qrels is none; a NULL relevance fails the query;
      sm_grades   (grades=true) one row of constants of all the judgments: sm_top, the largest
                  relevance, sm_top_unit = 2^-sm_top, the shift S = max(0, sm_top - 960) and
                  sm_unit = 2^-S, by which relevance_gain('exponential_scaled') scales gains;
      sm_queries  keys, sm_n_relevant: R, the judged items with relevance >= relevance_threshold
                  (retrieved or not), sm_n_graded: the judged items with a positive grade (the
                  query's ideal gain is 0 without one, whatever the threshold); `cuts`, a list of
                  (suffix, k, gain), adds for each sm_idcg<suffix>: IDCG@k, the `gain`
                  (relevance_gain) of the judgments sorted by relevance, cut at k (several cut-offs
                  and gains in one pass; grades=true joins sm_grades for an 'exponential_scaled'
                  gain among them): the judgments are sorted only for them; with top_grade=true,
                  sm_top_grade: the largest grade of the query's judgments (0 without a positive
                  one), by which trec_eval's rbp scales its gains.
    queries=false leaves sm_queries out (sm_judged and sm_grades only, for the grades): a pass over a
    run that is its own judgments takes judgment_sums over its ranked rows instead (ranking_pass).
    The queries a metric evaluates are those of sm_queries: a run query without judgments is
    ignored (TREC's convention). A `by` column of the run only gives each judged query its slice
    (with_slices): a judged query absent from the run has none, and is left out (not counted in
    n_missing). -#}
{% macro query_judgments(relation, qrels, query, item, relevance, by, relevance_threshold, grades=false, cuts=[],
                         top_grade=false, queries=true) %}
{%- set keys = by + [query] %}
{%- set shift %}(CASE WHEN MAX(sm_rel) > 960 THEN MAX(sm_rel) - 960 ELSE 0 END){% endset %}
{%- set minus_shift %}-{{ shift }}{% endset -%}
sm_judged AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         {{ sqlmetrics.ident(item) }} AS sm_item,
         {{ sqlmetrics.relevance(relevance) }} AS sm_rel
  FROM {{ sqlmetrics.with_slices(qrels, relation, query, sqlmetrics.slices_lacking(relation, qrels, by).qrels, 'run')
          if qrels else relation }}
)
{%- if grades %},
sm_grades AS (
  SELECT MAX(sm_rel) AS sm_top, {{ sqlmetrics.pow2('-MAX(sm_rel)') }} AS sm_top_unit,
         {{ shift }} AS sm_shift, {{ sqlmetrics.pow2(minus_shift) }} AS sm_unit
  {#- over the grades as gains read them: a negative grade (unjudged) is 0 #}
  FROM (SELECT CASE WHEN sm_rel > 0 THEN sm_rel ELSE 0 END AS sm_rel FROM sm_judged) AS sm_gains
)
{%- endif %}
{%- if queries %},
sm_queries AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         {{ sqlmetrics.judgment_sums(relevance_threshold, cuts, top_grade) | join(',\n         ') }}
  {%- if cuts %}
  FROM (
    SELECT sm_judged.*,
           ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_rel DESC) AS sm_ideal_pos
    FROM sm_judged
  ) AS sm_ideal
  {%- if grades %}
  CROSS JOIN sm_grades
  {%- endif %}
  {%- else %}
  FROM sm_judged
  {%- endif %}
  {{ sqlmetrics.group_by(keys) }}
)
{%- endif %}
{%- endmacro %}

{#- What sm_queries says of each query, as select items over its judgments (sm_rel) and, for the
    `cuts` (query_judgments'), their ideal order (sm_ideal_pos): sm_n_relevant, sm_n_graded,
    sm_top_grade (top_grade) and each sm_idcg<suffix>. `gains`: the column of each gain variant where
    the rows carry one (ranked_rows'; by default the variant's relevance_gain). -#}
{% macro judgment_sums(relevance_threshold, cuts, top_grade, gains={}) %}
{%- set sums = ['SUM(CASE WHEN sm_rel >= ' ~ sqlmetrics.as_double(relevance_threshold) ~ ' THEN 1 ELSE 0 END) AS sm_n_relevant',
                'SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded'] %}
{%- if top_grade %}{% set _ = sums.append('MAX(CASE WHEN sm_rel > 0 THEN sm_rel ELSE 0 END) AS sm_top_grade') %}{% endif %}
{%- for suffix, cut, cut_gain in cuts %}
{%- set idcg -%}
SUM(CASE WHEN {% if cut %}sm_ideal_pos <= {{ cut }} AND {% endif %}sm_rel > 0
                  THEN {{ gains.get(cut_gain) or sqlmetrics.relevance_gain(cut_gain) }} / {{ sqlmetrics.log2('sm_ideal_pos + 1') }} ELSE 0 END) AS sm_idcg{{ suffix }}
{%- endset %}
{%- set _ = sums.append(idcg) %}
{%- endfor %}
{{- return(sums) }}
{%- endmacro %}

{#- The `by` columns the run and the qrels each lack, {'run': [...], 'qrels': [...]}, for the other to
    give (with_slices): a slice (a market, a country) is the query's, so it may be a column of the
    run, of the qrels or of both (joined on then). Found from their columns (relation_columns); where
    those of either are unknown, both are taken to hold every `by` column. A column in neither stops. -#}
{% macro slices_lacking(relation, qrels, by) %}
{%- set lacking = {'run': [], 'qrels': []} %}
{%- set run_columns = sqlmetrics.relation_columns(relation) %}
{%- set qrels_columns = sqlmetrics.relation_columns(qrels) if qrels else none %}
{%- if run_columns is not none and qrels_columns is not none %}
{%- for c in by %}
{%- if c | lower not in run_columns and c | lower not in qrels_columns %}
{{- sqlmetrics.fail("by column '" ~ c ~ "' is in neither the run (" ~ relation ~ ") nor the qrels (" ~ qrels ~ "): slice by a column of either") }}
{%- elif c | lower not in run_columns %}{% set _ = lacking.run.append(c) %}
{%- elif c | lower not in qrels_columns %}{% set _ = lacking.qrels.append(c) %}
{%- endif %}
{%- endfor %}
{%- endif %}
{{- return(lacking) }}
{%- endmacro %}

{#- `relation` (as `alias`, where given) with the `columns` it lacks taken from `source` (named `side` in
    the error), by query: each query's one value there. A query whose rows in `source` have two values
    of one of them, or a NULL, fails the query (invalid_value): each value would be a query of its own.
    A query of `relation` absent from `source` drops out (it has no slice). -#}
{% macro with_slices(relation, source, query, columns, side, alias=none) %}
{%- set q = sqlmetrics.ident(query) %}
{%- if not columns %}{{ relation }}{% if alias %} AS {{ alias }}{% endif %}
{%- else %}
{%- set two_values %}{% for c in columns %}NOT (MIN({{ sqlmetrics.ident(c) }}) = MAX({{ sqlmetrics.ident(c) }}) AND COUNT({{ sqlmetrics.ident(c) }}) = COUNT(*)){{ ' OR ' if not loop.last }}{% endfor %}{% endset -%}
(SELECT sm_unsliced.*, {{ sqlmetrics.col_list_of(columns, 'sm_slices') }}
   FROM {{ relation }} AS sm_unsliced
   JOIN (SELECT {{ q }} AS sm_slice_query, {% for c in columns %}MIN({{ sqlmetrics.ident(c) }}) AS {{ sqlmetrics.ident(c) }}{{ ', ' if not loop.last }}{% endfor %}
         FROM {{ source }}
         GROUP BY {{ q }}
         HAVING COALESCE({{ sqlmetrics.invalid_value('a by column taken from the ' ~ side ~ ' must have one value per query, not NULL (a slice is of the query): give each query one; query', q, two_values) }}, 0) = 0) AS sm_slices
     ON sm_unsliced.{{ q }} = sm_slices.sm_slice_query) AS {{ alias or 'sm_sliced' }}
{%- endif %}
{%- endmacro %}
