{#- The shared frame of the uplift metrics: per slice `keys` and distinct score (descending), the
    weight of the treated and control rows and of their responders (label 1), at the score (sm_wt,
    sm_wc, sm_yt, sm_yc), up to and including it (_run) and in the slice (_all): every uplift and
    Qini curve point is a function of these four running sums (scikit-uplift's num_trmnt,
    num_ctrl, y_trmnt, y_ctrl at thresholds of distinct scores). CTE definitions (to follow a WITH)
    ending in sm_points; `plan`: running_sums' ('parallel' adds sm_bucket), or 'rank' (unweighted):
    one sort of the rows, each score's point its last row there, whose running sums take in all
    the rows of the score (the score's own sums over its peers): cheaper where nearly every score
    is distinct (no GROUP BY of the rows before the window). Unweighted, the weights are counts. -#}
{% macro uplift_points(relation, label, treatment, score, weight, keys, plan) %}
{%- if plan == 'rank' and not weight %}
{%- set w %}{{ sqlmetrics.partition_by(keys) }} ORDER BY threshold DESC{% endset %}
sm_points AS (
  SELECT {{ sqlmetrics.cols(keys) }} threshold
         {%- for c in ['sm_wt', 'sm_wc', 'sm_yt', 'sm_yc'] %}, {{ c }}, {{ c }}_run, {{ c }}_all{% endfor %}
  FROM (
    SELECT {{ sqlmetrics.cols(keys) }} threshold,
           {%- for c in ['sm_wt', 'sm_wc', 'sm_yt', 'sm_yc'] %}
           {{ sqlmetrics.as_double('SUM(' ~ c ~ '_row) OVER (' ~ w ~ ' RANGE BETWEEN CURRENT ROW AND CURRENT ROW)') }} AS {{ c }},
           {{ sqlmetrics.as_double('SUM(' ~ c ~ '_row) OVER (' ~ w ~ ' ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)') }} AS {{ c }}_run,
           {{ sqlmetrics.as_double('SUM(' ~ c ~ '_row) OVER (' ~ w ~ ' ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)') }} AS {{ c }}_all,
           {%- endfor %}
           LEAD(threshold) OVER ({{ w }}) AS sm_next
    FROM (
      SELECT {{ sqlmetrics.cols(keys) }} threshold, sm_t AS sm_wt_row, 1 - sm_t AS sm_wc_row, sm_y * sm_t AS sm_yt_row,
             sm_y * (1 - sm_t) AS sm_yc_row
      FROM ({{ sqlmetrics.uplift_rows(relation, label, treatment, score, none, keys) }}) AS sm_rows
    ) AS sm_cells
  ) AS sm_ranked
  WHERE sm_next IS NULL OR sm_next <> threshold
)
{%- else %}
sm_at AS (
  SELECT {{ sqlmetrics.cols(keys) }} threshold,
         SUM(sm_t * sm_w) AS sm_wt,
         SUM((1 - sm_t) * sm_w) AS sm_wc,
         SUM(sm_y * sm_t * sm_w) AS sm_yt,
         SUM(sm_y * (1 - sm_t) * sm_w) AS sm_yc
  FROM ({{ sqlmetrics.uplift_rows(relation, label, treatment, score, weight, keys) }}) AS sm_rows
  GROUP BY {{ sqlmetrics.cols(keys) }}threshold
),
{{ sqlmetrics.running_sums('sm_points', 'sm_at', keys, 'threshold', true, [],
                           ['sm_wt', 'sm_wc', 'sm_yt', 'sm_yc'], plan) }}
{%- endif %}
{% endmacro %}

{#- The rows as uplift_points reads them: keys (a key sm_t is the treatment), threshold (the
    score), sm_y, sm_t (0/1) and sm_w (the row's weight). -#}
{% macro uplift_rows(relation, label, treatment, score, weight, keys) %}
SELECT {{ sqlmetrics.cols(keys | reject('equalto', 'sm_t') | list) }}
       {{ sqlmetrics.ident(score) }} AS threshold,
       {{ sqlmetrics.is_positive(label) }} AS sm_y,
       {{ sqlmetrics.is_treated(treatment) }} AS sm_t,
       {{ sqlmetrics.row_weight(weight) }} AS sm_w
FROM {{ relation }}
{%- endmacro %}

{#- A 0/1 (or boolean) treatment column as 1/0: as is_positive, but pos_label (which names the
    label's positive value) never applies to it. -#}
{% macro is_treated(treatment) -%}
{%- set t = sqlmetrics.ident(treatment) -%}
{%- set type = sqlmetrics.column_type(treatment) -%}
{%- if type == 'boolean' -%}
{%- set neither %}NOT ({{ t }} OR NOT {{ t }}){% endset -%}
CASE WHEN {{ t }} THEN 1 WHEN NOT {{ t }} THEN 0
     ELSE {{ sqlmetrics.invalid_value('a treatment must be 0 or 1 (or a boolean)', t, neither) }} END
{%- elif type == 'number' -%}
{{ sqlmetrics.default__is_positive_of_any_type(treatment) }}
{%- else -%}
{{ sqlmetrics.is_positive_of_any_type(treatment) }}
{%- endif -%}
{%- endmacro %}

{#- The value of a curve at cumulative weights (treated n_t, control n_c, their responders y_t,
    y_c), scikit-uplift's, a ratio over an empty group counting as 0 (its np.divide(..., where=)):
    'uplift' (y_t/n_t - y_c/n_c) * (n_t + n_c) (uplift_curve), 'qini' y_t - y_c * n_t/n_c
    (qini_curve). -#}
{% macro uplift_value(curve, n_t, n_c, y_t, y_c) -%}
{%- if curve == 'uplift' -%}
(COALESCE({{ sqlmetrics.fdiv(y_t, n_t) }}, 0) - COALESCE({{ sqlmetrics.fdiv(y_c, n_c) }}, 0)) * ({{ n_t }} + {{ n_c }})
{%- else -%}
({{ y_t }} - {{ y_c }} * COALESCE({{ sqlmetrics.fdiv(n_t, n_c) }}, 0))
{%- endif -%}
{%- endmacro %}

{#- The curve's value at a point of a running_sums table (`at`: '_run') or at the point before it
    (`at`: 'before', the running sums less the point's own). -#}
{% macro uplift_value_at(curve, at) -%}
{%- if at == '_run' -%}
{{ sqlmetrics.uplift_value(curve, 'sm_wt_run', 'sm_wc_run', 'sm_yt_run', 'sm_yc_run') }}
{%- else -%}
{{ sqlmetrics.uplift_value(curve, '(sm_wt_run - sm_wt)', '(sm_wc_run - sm_wc)', '(sm_yt_run - sm_yt)', '(sm_yc_run - sm_yc)') }}
{%- endif -%}
{%- endmacro %}

{#- The trapezoid between a point and the one before it (sklearn.metrics.auc over the curve's
    points, as scikit-uplift takes it): the width is the point's weight. -#}
{% macro uplift_trapezoid(curve) -%}
(sm_wt + sm_wc) * ({{ sqlmetrics.uplift_value_at(curve, '_run') }} + {{ sqlmetrics.uplift_value_at(curve, 'before') }}) / 2
{%- endmacro %}
