{#- The normalized area under an uplift or Qini curve (`curve`), per slice `by`; `name` the value's
    column. NULL where a slice lacks treated or control rows, or where the normalizer is 0.
    convention 'sklift' (scikit-uplift 0.5's uplift_auc_score and qini_auc_score): the trapezoid area
      under the curve's points (distinct scores), less the baseline's (the line from (0, 0) to the
      curve's end), over the same for the perfect curve: the curve of a score ordering the rows by
      their (label, treatment) cell (perfect_uplift_curve; perfect_qini_curve, whose
      negative_effect=False is the path (0, 0), (r, r), (N, r), r the curve's end value). Weighted,
      x is the weight.
    convention 'causalml' (causalml 0.18's auuc_score and qini_score, normalize=True, unweighted):
      the mean over the row counts i = 0..n of the curve divided by |its value at n| (less 1/2 of
      its sign for the Qini score: the random line's mean). causalml's curve has a point per row,
      and interpolates linearly where it is undefined (a ratio over an empty group): the cumulative
      lift (y_t/n_t - y_c/n_c, the uplift curve over i) and the Qini value. Here a tie group is
      one point, and between points (and from the origin to the first defined one) that quantity
      is linear in i, as causalml's interpolation: on distinct scores, causalml's values exactly;
      on ties, the mean over the orders within tie groups of neither causalml's random ones. -#}
{% macro uplift_area(relation, label, treatment, score, weight, by, curve, convention, negative_effect, plan, name) %}
{%- if convention not in ('sklift', 'causalml') %}{{ sqlmetrics.fail("convention must be 'sklift' or 'causalml'") }}{% endif %}
{%- if convention == 'causalml' and weight %}{{ sqlmetrics.fail("convention='causalml' takes no weight: causalml's auuc_score and qini_score weigh every row alike; use convention='sklift' for weights") }}{% endif %}
WITH {{ sqlmetrics.uplift_points(relation, label, treatment, score, weight, by, plan) }},
sm_slices AS (
  SELECT {{ sqlmetrics.cols(by) }}
         {%- if convention == 'sklift' %}
         SUM({{ sqlmetrics.uplift_trapezoid(curve) }}) AS sm_area,
         {%- else %}
         SUM({{ sqlmetrics.causalml_segment(curve) }}) AS sm_area,
         {%- endif %}
         MAX(sm_wt_all) AS sm_tot_wt, MAX(sm_wc_all) AS sm_tot_wc, MAX(sm_yt_all) AS sm_tot_yt, MAX(sm_yc_all) AS sm_tot_yc
  FROM sm_points
  {{ sqlmetrics.group_by(by) }}
)
{%- if convention == 'sklift' and (curve == 'uplift' or negative_effect) %},
{#- the perfect curve: the cells (label, treatment) in the perfect score's order (sm_step), equal
    steps one tie group; its points' running sums over a few rows per slice -#}
sm_cells AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_step, MAX(sm_area) AS sm_actual_area,
         SUM(sm_cell_wt) AS sm_wt, SUM(sm_cell_wc) AS sm_wc, SUM(sm_cell_yt) AS sm_yt, SUM(sm_cell_yc) AS sm_yc
  FROM (
    {%- if curve == 'uplift' %}
    {#- perfect_uplift_curve: 2 * (y == t) + (y if control responders outweigh treated non-responders, else t) -#}
    {%- set responders_first %}sm_tot_yc > sm_tot_wt - sm_tot_yt{% endset %}
    {%- set cells = [('1', 'sm_tot_yt', '0', 'sm_tot_yt', '0'), ('2', '0', 'sm_tot_wc - sm_tot_yc', '0', '0'),
                     ('CASE WHEN ' ~ responders_first ~ ' THEN 3 ELSE 4 END', '0', 'sm_tot_yc', '0', 'sm_tot_yc'),
                     ('CASE WHEN ' ~ responders_first ~ ' THEN 4 ELSE 3 END', 'sm_tot_wt - sm_tot_yt', '0', '0', '0')] %}
    {%- else %}
    {#- perfect_qini_curve(negative_effect=True): the score y * t - y * (1 - t) -#}
    {%- set cells = [('1', 'sm_tot_yt', '0', 'sm_tot_yt', '0'), ('2', 'sm_tot_wt - sm_tot_yt', 'sm_tot_wc - sm_tot_yc', '0', '0'),
                     ('3', '0', 'sm_tot_yc', '0', 'sm_tot_yc')] %}
    {%- endif %}
    {%- for step, wt, wc, yt, yc in cells %}
    SELECT {{ sqlmetrics.cols(by) }} {{ step }} AS sm_step, sm_area, {{ wt }} AS sm_cell_wt, {{ wc }} AS sm_cell_wc, {{ yt }} AS sm_cell_yt, {{ yc }} AS sm_cell_yc
    FROM sm_slices
    {{ 'UNION ALL' if not loop.last }}
    {%- endfor %}
  ) AS sm_cell_rows
  GROUP BY {{ sqlmetrics.cols(by) }}sm_step
),
{#- the slice's totals again: the final SELECT reads one table -#}
sm_perfect AS (
  SELECT {{ sqlmetrics.cols(by) }} SUM({{ sqlmetrics.uplift_trapezoid(curve) }}) AS sm_perfect_area, MAX(sm_actual_area) AS sm_area,
         SUM(sm_wt) AS sm_tot_wt, SUM(sm_wc) AS sm_tot_wc, SUM(sm_yt) AS sm_tot_yt, SUM(sm_yc) AS sm_tot_yc
  FROM (
    SELECT sm_cells.*,
           {%- for c in ['sm_wt', 'sm_wc', 'sm_yt', 'sm_yc'] %}
           SUM({{ c }}) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_step ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS {{ c }}_run{{ ',' if not loop.last }}
           {%- endfor %}
    FROM sm_cells
  ) AS sm_perfect_points
  {{ sqlmetrics.group_by(by) }}
)
{%- endif %}
{%- set baseline %}(sm_tot_wt + sm_tot_wc) * sm_end / 2{% endset %}
{%- if convention == 'causalml' %}
{%- set value = sqlmetrics.fdiv('sm_area', '(sm_tot_wt + sm_tot_wc + 1) * ABS(sm_end)') ~ (' - CASE WHEN sm_end > 0 THEN 0.5 ELSE -0.5 END' if curve == 'qini' else '') %}
{%- elif curve == 'uplift' or negative_effect %}
{%- set value = sqlmetrics.fdiv('sm_area - ' ~ baseline, 'sm_perfect_area - ' ~ baseline) %}
{%- else %}
{#- perfect_qini_curve(negative_effect=False): the path (0, 0), (r, r), (N, r); sklearn's auc refuses
    it for r < 0 (x not monotone): undefined there, as at r = 0 (0/0) -#}
{%- set value = 'CASE WHEN sm_end > 0 THEN ' ~ sqlmetrics.fdiv('sm_area - ' ~ baseline, 'sm_end * sm_end / 2 + (sm_tot_wt + sm_tot_wc - sm_end) * sm_end - ' ~ baseline) ~ ' END' %}
{%- endif %}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN sm_tot_wt > 0 AND sm_tot_wc > 0 THEN {{ value }} END AS {{ name }},
       {{ sqlmetrics.tally('sm_tot_wt', weight) }} AS n_treatment,
       {{ sqlmetrics.tally('sm_tot_wc', weight) }} AS n_control,
       {{ sqlmetrics.tally('sm_tot_yt', weight) }} AS responders_treatment,
       {{ sqlmetrics.tally('sm_tot_yc', weight) }} AS responders_control
FROM (
  {#- sm_end: the curve's value at its end, all the rows -#}
  SELECT sm_totals.*, {{ sqlmetrics.uplift_value(curve, 'sm_tot_wt', 'sm_tot_wc', 'sm_tot_yt', 'sm_tot_yc') }} AS sm_end
  FROM {{ 'sm_perfect' if convention == 'sklift' and (curve == 'uplift' or negative_effect) else 'sm_slices' }} AS sm_totals
) AS sm_ends
{% endmacro %}

{#- causalml's sum of its curve over the rows of a point (a tie group of d rows after a rows,
    ending at b = a + d), its quantity q (the cumulative lift for 'uplift', the Qini value for
    'qini') linear in i between the point before (q_a) and this one (q_b): 'qini' sum_{i=a+1..b} of
    q_a + (q_b - q_a)(i - a)/d = d q_a + (q_b - q_a)(d + 1)/2; 'uplift' sum of q(i) * i = q_a (a d +
    d (d + 1)/2) + (q_b - q_a)(d + 1)(a/2 + (2d + 1)/6). Where the point before is undefined
    (q needs control rows, the lift rows of both groups), the line starts at the origin (a = 0,
    q_a = 0); an undefined point adds nothing, its rows are the first defined point's. -#}
{% macro causalml_segment(curve) -%}
{%- set b, d = 'sm_wt_run + sm_wc_run', 'sm_wt + sm_wc' %}
{%- set a %}(sm_wt_run - sm_wt + sm_wc_run - sm_wc){% endset %}
{%- if curve == 'qini' %}
{%- set defined_b, defined_a = 'sm_wc_run > 0', 'sm_wc_run - sm_wc > 0' %}
{%- set q_b = sqlmetrics.uplift_value('qini', 'sm_wt_run', 'sm_wc_run', 'sm_yt_run', 'sm_yc_run') %}
{%- set q_a = sqlmetrics.uplift_value('qini', '(sm_wt_run - sm_wt)', '(sm_wc_run - sm_wc)', '(sm_yt_run - sm_yt)', '(sm_yc_run - sm_yc)') %}
{%- else %}
{%- set defined_b, defined_a = 'sm_wt_run > 0 AND sm_wc_run > 0', 'sm_wt_run - sm_wt > 0 AND sm_wc_run - sm_wc > 0' %}
{%- set q_b %}({{ sqlmetrics.fdiv('sm_yt_run', 'sm_wt_run') }} - {{ sqlmetrics.fdiv('sm_yc_run', 'sm_wc_run') }}){% endset %}
{%- set q_a %}({{ sqlmetrics.fdiv('sm_yt_run - sm_yt', 'sm_wt_run - sm_wt') }} - {{ sqlmetrics.fdiv('sm_yc_run - sm_yc', 'sm_wc_run - sm_wc') }}){% endset %}
{%- endif -%}
CASE WHEN NOT ({{ defined_b }}) THEN 0
     {%- if curve == 'qini' %}
     WHEN {{ defined_a }} THEN ({{ d }}) * {{ q_a }} + ({{ q_b }} - {{ q_a }}) * ({{ d }} + 1) / 2.0
     ELSE {{ q_b }} * ({{ b }} + 1) / 2.0
     {%- else %}
     WHEN {{ defined_a }} THEN {{ q_a }} * ({{ a }} * ({{ d }}) + ({{ d }}) * ({{ d }} + 1) / 2.0)
                             + ({{ q_b }} - {{ q_a }}) * ({{ d }} + 1) * ({{ a }} / 2.0 + (2 * ({{ d }}) + 1) / 6.0)
     ELSE {{ q_b }} * ({{ b }} + 1) * (2 * ({{ b }}) + 1) / 6.0
     {%- endif %}
END
{%- endmacro %}
