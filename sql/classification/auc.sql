{#- AUC = P(score of a positive > score of a negative) + 1/2 * P(equal), pairs weighted w_i*w_j.
    NULL (undefined) when a slice lacks positives or negatives. Reference: sklearn roc_auc_score.

    bins=N (approximate, O(n), no sort of the rows): scores are bucketed into N equal-width bins
    between the slice's smallest and largest finite score (-inf and +inf get buckets of their own)
    and AUC is computed on the buckets, pairs sharing a bucket counting 1/2. Such a pair truly
    counts 0, 1/2 or 1, so the exact AUC lies within error_bound = 1/2 * (weight of positive-negative
    pairs sharing a bucket) / (W_pos * W_neg) of the value: a guarantee, not an estimate. An exact
    AUC has no error_bound column (it would be 0 on every row).

    max_fpr (0 < max_fpr < 1): the partial AUC up to fpr = max_fpr with McClish's standardisation,
    as sklearn roc_auc_score(max_fpr=...): partial_auc (below). max_fpr = 1 is the full AUC. -#}
{% macro auc(relation, label, score, weight=none, bins=none, max_fpr=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- if bins and max_fpr is not none %}
{{ sqlmetrics.fail('auc takes bins (an approximate AUC) or max_fpr (an exact partial AUC), not both: drop one of them') }}
{%- elif max_fpr is not none and max_fpr < 1 %}
{{ sqlmetrics.partial_auc(relation, label, score, weight, max_fpr, by, plan) }}
{%- elif bins %}
{%- set source %}({{ sqlmetrics.score_buckets(relation, label, score, weight, by, bins, plan) }}) AS sm_bucketed{% endset %}
{{ sqlmetrics.auc_result(sqlmetrics.auc_parts(source, label, 'sm_bucket', weight, by, 'aggregate'), by, 'auc', exact=false) }}
{%- else %}
{{ sqlmetrics.auc_result(sqlmetrics.auc_parts(relation, label, score, weight, by, plan), by, 'auc', exact=true) }}
{%- endif %}
{% endmacro %}

{#- AUC (as column `name`) and the counts from auc_parts' columns; unless exact, error_bound: half
    the weight share of the positive-negative pairs sharing a score (a bucket). -#}
{% macro auc_result(parts, by, name, exact) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('sm_wins', 'sm_w_pos') }} AS {{ name }},
       sm_n AS n, sm_n_pos AS n_pos, sm_n - sm_n_pos AS n_neg
       {%- if not exact %},
       0.5 * {{ sqlmetrics.fdiv('sm_ties', 'sm_w_pos') }} AS error_bound{% endif %}
FROM ({{ parts }}) AS sm_parts
{% endmacro %}

{#- The slice columns, label and weight with sm_bucket: the equal-width bin (0 .. bins-1) of the
    score between the slice's smallest and largest finite score; -1 for -inf, bins for +inf. Only
    the columns the metric reads leave `relation` (another one could be named like ours). The range
    of a slice reaches its rows by a window over the slice, or with plan='parallel' by a join with
    the table of slice ranges (a window would gather each slice in one task), by (slice, sm_part of
    the row): spread_slices. -#}
{% macro score_buckets(relation, label, score, weight, by, bins, plan) %}
{%- set s = sqlmetrics.as_double(sqlmetrics.ident(score)) %}
{%- set finite %}{{ s }} > -{{ sqlmetrics.infinity() }} AND {{ s }} < {{ sqlmetrics.infinity() }}{% endset %}
{%- set carried = (by + [label] + ([weight] if weight else [])) | unique | list %}
SELECT {{ sqlmetrics.cols(carried) }}
       CASE WHEN NOT (sm_score > -{{ sqlmetrics.infinity() }} AND sm_score < {{ sqlmetrics.infinity() }})
                 THEN CASE WHEN sm_score < 0 THEN -1 ELSE {{ bins }} END
            WHEN sm_hi > sm_lo THEN {{ sqlmetrics.equal_width_bucket('sm_score', 'sm_lo', 'sm_hi', bins) }}
            ELSE 0 END AS sm_bucket
FROM (
  SELECT {% for c in carried %}sm_input.{{ sqlmetrics.ident(c) }}, {% endfor %}
         {{ s }} AS sm_score,
  {%- if by and plan == 'parallel' %}
         sm_ranges.sm_lo, sm_ranges.sm_hi
  {%- set read = (carried + [score]) | unique | list %}
  {%- set parted = sqlmetrics.with_part('SELECT ' ~ sqlmetrics.col_list(read) ~ ' FROM ' ~ relation, read) %}
  {%- set ranges %}
    SELECT {{ sqlmetrics.cols(by) }}
           MIN(CASE WHEN {{ finite }} THEN {{ s }} END) AS sm_lo,
           MAX(CASE WHEN {{ finite }} THEN {{ s }} END) AS sm_hi
    FROM {{ relation }}
    {{ sqlmetrics.group_by(by) }}
  {%- endset %}
  FROM ({{ parted }}) AS sm_input
  JOIN ({{ sqlmetrics.spread_slices('(' ~ ranges ~ ')', '(' ~ parted ~ ')', by, 'sm_part') }}) AS sm_ranges
    ON sm_input.sm_part = sm_ranges.sm_part AND {{ sqlmetrics.null_safe_join_on(by, 'sm_input', 'sm_ranges') }}
  {%- elif by %}
         MIN(CASE WHEN {{ finite }} THEN {{ s }} END) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_lo,
         MAX(CASE WHEN {{ finite }} THEN {{ s }} END) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_hi
  FROM {{ relation }} AS sm_input
  {%- else %}
         (SELECT MIN(CASE WHEN {{ finite }} THEN {{ s }} END) FROM {{ relation }}) AS sm_lo,
         (SELECT MAX(CASE WHEN {{ finite }} THEN {{ s }} END) FROM {{ relation }}) AS sm_hi
  FROM {{ relation }} AS sm_input
  {%- endif %}
) AS sm_ranged
{% endmacro %}

{#- McClish's standardised partial AUC (McClish 1989; sklearn roc_auc_score(max_fpr=m)):
    0.5 * (1 + (A - m^2/2) / (m - m^2/2)), A the area under the ROC curve for fpr in [0, m]. Each
    point of the curve (curve_points') ends a straight segment from the point before it, (fp -
    sm_fp_at, tp - sm_tp_at), to its own (fp, tp) (a tie group is one diagonal segment, as in the
    trapezoidal AUC); the segment that crosses fpr = m is cut there, its tpr interpolated linearly
    (sklearn's np.interp). Every segment is read on its own row: no window beyond curve_points',
    whose parallel plan serves as is (the rank plan's tie groups span rows: 'aggregate' instead).
    NULL when a slice lacks positive or negative weight. -#}
{% macro partial_auc(relation, label, score, weight, max_fpr, by, plan) %}
{%- set m = sqlmetrics.as_double(max_fpr) %}
{%- set clipped -%}
CASE WHEN sm_x1 <= {{ m }} THEN (sm_x1 - sm_x0) * (sm_y0 + sm_y1) * 0.5
     WHEN sm_x0 < {{ m }}
       THEN ({{ m }} - sm_x0) * (2 * sm_y0 + (sm_y1 - sm_y0) * {{ sqlmetrics.fdiv(m ~ ' - sm_x0', 'sm_x1 - sm_x0') }}) * 0.5
     ELSE 0 END
{%- endset %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, 'parallel' if plan == 'parallel' else 'aggregate') }}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0
            THEN 0.5 * (1 + {{ sqlmetrics.fdiv('sm_area - ' ~ sqlmetrics.as_double(0.5 * max_fpr * max_fpr),
                                                sqlmetrics.as_double(max_fpr - 0.5 * max_fpr * max_fpr)) }}) END AS auc,
       sm_n AS n, sm_n_pos AS n_pos, sm_n - sm_n_pos AS n_neg
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         SUM({{ clipped }}) AS sm_area,
         MAX(sm_pos) AS sm_w_pos, MAX(sm_neg) AS sm_w_neg,
         CAST(SUM(sm_n_at) AS BIGINT) AS sm_n, CAST(SUM(sm_n_pos_at) AS BIGINT) AS sm_n_pos
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} sm_n_at, sm_n_pos_at, sm_pos, sm_neg,
           {{ sqlmetrics.fdiv('fp - sm_fp_at', 'sm_neg') }} AS sm_x0, {{ sqlmetrics.fdiv('fp', 'sm_neg') }} AS sm_x1,
           {{ sqlmetrics.fdiv('tp - sm_tp_at', 'sm_pos') }} AS sm_y0, {{ sqlmetrics.fdiv('tp', 'sm_pos') }} AS sm_y1
    FROM sm_points
  ) AS sm_segments
  {{ sqlmetrics.group_by(by) }}
) AS sm_areas
{% endmacro %}
