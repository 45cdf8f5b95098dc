{#- AUC with its DeLong et al. (1988) standard error and a two-sided normal interval.
    From placement values (Sun & Xu 2014), with no pair enumerated: a positive's placement is
    V10 = (negative weight below its score + 1/2 the negative weight at it) / W_neg, a negative's
    V01 = (positive weight above its score + 1/2 the positive weight at it) / W_pos; AUC is the mean
    V10 over the positives (and the mean V01 over the negatives), and
      Var(AUC) = S10 / W_pos + S01 / W_neg,  S10 = sum over positives of w (V10 - AUC)^2 / (W_pos - 1),
                                             S01 = sum over negatives of w (V01 - AUC)^2 / (W_neg - 1).
    Weights are frequency weights (a row of weight 3 counts as three rows); ties count 1/2, as in the
    Mann-Whitney statistic. The rows of one score share their placements: the sums run over one row
    per distinct score, whose running sums of weight come from curve_points, by its 'parallel' plan
    or else its 'aggregate' one (plan='rank', unweighted, one sort of the rows, is below). The
    squares are of deviations from the slice's AUC, joined back (a second pass: no difference of
    large sums), and each term is divided by its class weight first (no overflow).
    Interval: AUC -/+ z * std_error clipped to [0, 1], z the normal quantile of (1 + confidence) / 2.
    std_error and the interval are NULL when a class weighs 1 or less (no degree of freedom). -#}
{% macro auc_ci(relation, label, score, weight=none, confidence=0.95, by=[], plan=none) %}
{%- set z = sqlmetrics.normal_quantile((1 - confidence) / 2) %}
{%- if plan == 'rank' and not weight %}
{#- One sort of the rows (ranked_scores, descending). A row no neighbour ties with is its own unit:
    a positive's V10 = (N_neg - negatives before it) / N_neg, a negative's V01 = (positives before
    it) / N_pos; the rows of a tie group are one unit, read off the group's last row (its running
    sums) and counts. The placements' sums and sums of squares per slice then give S10 and S01 (the
    one-pass form: placements lie in [0, 1], so the cancellation costs at most the digits of a
    variance below 1e-16 of their squares). -#}
{%- set n_neg = 'MAX(sm_rows_all - sm_pos)' %}
{%- set v10_group %}{{ sqlmetrics.fdiv(n_neg ~ ' - MAX(sm_row - sm_tp_run) + 0.5 * (COUNT(*) - SUM(sm_y))', n_neg) }}{% endset %}
{%- set v01_group %}{{ sqlmetrics.fdiv('MAX(sm_tp_run) - 0.5 * SUM(sm_y)', 'MAX(sm_pos)') }}{% endset %}
WITH sm_units AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CASE WHEN sm_tie IS NULL THEN SUM(sm_y * sm_v10) ELSE SUM(sm_y) * {{ v10_group }} END AS sm_v10_sum,
         CASE WHEN sm_tie IS NULL THEN SUM(sm_y * sm_v10 * sm_v10)
              ELSE SUM(sm_y) * {{ v10_group }} * {{ v10_group }} END AS sm_v10_squares,
         CASE WHEN sm_tie IS NULL THEN SUM((1 - sm_y) * sm_v01) ELSE (COUNT(*) - SUM(sm_y)) * {{ v01_group }} END AS sm_v01_sum,
         CASE WHEN sm_tie IS NULL THEN SUM((1 - sm_y) * sm_v01 * sm_v01)
              ELSE (COUNT(*) - SUM(sm_y)) * {{ v01_group }} * {{ v01_group }} END AS sm_v01_squares,
         SUM(sm_y) AS sm_n_pos_at, COUNT(*) AS sm_n_at
  FROM (
    SELECT sm_ranked.*,
           {{ sqlmetrics.fdiv('sm_rows_all - sm_pos - (sm_row - sm_tp_run)', 'sm_rows_all - sm_pos') }} AS sm_v10,
           {{ sqlmetrics.fdiv('sm_tp_run', 'sm_pos') }} AS sm_v01
    FROM ({{ sqlmetrics.ranked_scores(relation, label, score, by) }}) AS sm_ranked
  ) AS sm_placed_rows
  GROUP BY {{ sqlmetrics.cols(by) }}sm_tie
),
sm_spread AS (
  SELECT sm_totals.*,
         sm_v10_squares_all - sm_w_pos * sm_estimate * sm_estimate AS sm_ss10_raw,
         sm_v01_squares_all - sm_w_neg * sm_estimate * sm_estimate AS sm_ss01_raw
  FROM (
    SELECT {{ sqlmetrics.cols(by) }}
           {{ sqlmetrics.fdiv('SUM(sm_v10_sum)', 'SUM(sm_n_pos_at)') }} AS sm_estimate,
           CAST(SUM(sm_n_pos_at) AS BIGINT) AS sm_positives, CAST(SUM(sm_n_at - sm_n_pos_at) AS BIGINT) AS sm_negatives,
           {{ sqlmetrics.as_double('SUM(sm_n_pos_at)') }} AS sm_w_pos, {{ sqlmetrics.as_double('SUM(sm_n_at - sm_n_pos_at)') }} AS sm_w_neg,
           SUM(sm_v10_squares) AS sm_v10_squares_all, SUM(sm_v01_squares) AS sm_v01_squares_all
    FROM sm_units
    {{ sqlmetrics.group_by(by) }}
  ) AS sm_totals
),
sm_error AS (
  SELECT sm_spread.*,
         CASE WHEN sm_w_pos > 1 AND sm_w_neg > 1
              THEN SQRT({{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_ss10_raw'), '(sm_w_pos - 1) * sm_w_pos') }}
                        + {{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_ss01_raw'), '(sm_w_neg - 1) * sm_w_neg') }})
         END AS sm_se
  FROM sm_spread
)
{%- else %}
{%- set plan = 'parallel' if (plan or sqlmetrics.default_plan()) == 'parallel' else 'aggregate' %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, plan) }},
{{ sqlmetrics.delong_placements(by, plan) }},
sm_spread AS (
  SELECT {{ sqlmetrics.cols(by) }}
         MAX(sm_auc) AS sm_estimate, MAX(sm_n_pos) AS sm_positives, MAX(sm_n_neg) AS sm_negatives,
         MAX(sm_pos) AS sm_w_pos, MAX(sm_neg) AS sm_w_neg,
         SUM(sm_share10 * (sm_v10 - sm_auc) * (sm_v10 - sm_auc)) AS sm_ss10,
         SUM(sm_share01 * (sm_v01 - sm_auc) * (sm_v01 - sm_auc)) AS sm_ss01
  FROM sm_placed
  {{ sqlmetrics.group_by(by) }}
),
sm_error AS (
  SELECT sm_spread.*,
         CASE WHEN sm_w_pos > 1 AND sm_w_neg > 1
              THEN SQRT({{ sqlmetrics.fdiv('sm_ss10', 'sm_w_pos - 1') }} + {{ sqlmetrics.fdiv('sm_ss01', 'sm_w_neg - 1') }}) END AS sm_se
  FROM sm_spread
)
{%- endif %}
SELECT {{ sqlmetrics.cols(by) }}
       sm_estimate AS auc,
       sm_se AS std_error,
       CASE WHEN sm_estimate - {{ z }} * sm_se < 0 THEN 0 ELSE sm_estimate - {{ z }} * sm_se END AS ci_low,
       CASE WHEN sm_estimate + {{ z }} * sm_se > 1 THEN 1 ELSE sm_estimate + {{ z }} * sm_se END AS ci_high,
       sm_positives AS n_pos, sm_negatives AS n_neg
FROM sm_error
{% endmacro %}

{#- CTEs (to follow curve_points' prefix_points) ending in prefix_placed: per slice `by` and
    distinct score (threshold), the DeLong placements sm_v10 (of the score's positives) and sm_v01
    (of its negatives), their shares of the class weight sm_share10 and sm_share01, and the slice's
    sm_auc (from its placements, joined back), sm_n_pos, sm_n_neg, sm_pos and sm_neg (the class
    weights). plan='parallel' (curve_points' plan) joins a slice's totals back by (slice, score
    bucket), from a table of one row per bucket holding its slice's sums: a distributed engine that
    hashes the join's key then spreads the placements over its workers (on the slice alone, it sent
    each slice's placements to one). -#}
{% macro delong_placements(by, plan, prefix='sm') %}
{%- set parts = by + ['sm_bucket'] if by and plan == 'parallel' else by %}
{{ prefix }}_placements AS (
  SELECT {{ sqlmetrics.cols(parts) }} threshold, sm_n_at, sm_n_pos_at, sm_pos, sm_neg,
         {{ sqlmetrics.fdiv('sm_tp_at', 'sm_pos') }} AS sm_share10,
         {{ sqlmetrics.fdiv('sm_fp_at', 'sm_neg') }} AS sm_share01,
         {{ sqlmetrics.fdiv('sm_neg - fp + 0.5 * sm_fp_at', 'sm_neg') }} AS sm_v10,
         {{ sqlmetrics.fdiv('tp - 0.5 * sm_tp_at', 'sm_pos') }} AS sm_v01
  FROM {{ prefix }}_points
),
{{ prefix }}_slice_auc AS (
  SELECT {{ sqlmetrics.cols(parts) }}
         SUM(sm_auc_part) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_auc,
         CAST(SUM(sm_n_pos_part) OVER ({{ sqlmetrics.partition_by(by) }}) AS BIGINT) AS sm_n_pos,
         CAST(SUM(sm_n_neg_part) OVER ({{ sqlmetrics.partition_by(by) }}) AS BIGINT) AS sm_n_neg
  FROM (
    SELECT {{ sqlmetrics.cols(parts) }}
           SUM(sm_share10 * sm_v10) AS sm_auc_part,
           SUM(sm_n_pos_at) AS sm_n_pos_part,
           SUM(sm_n_at - sm_n_pos_at) AS sm_n_neg_part
    FROM {{ prefix }}_placements
    {{ sqlmetrics.group_by(parts) }}
  ) AS {{ prefix }}_parts
),
{{ prefix }}_placed AS (
  SELECT {{ prefix }}_placements.*, {{ prefix }}_slice_auc.sm_auc, {{ prefix }}_slice_auc.sm_n_pos,
         {{ prefix }}_slice_auc.sm_n_neg
  FROM {{ prefix }}_placements
  {{ sqlmetrics.join_slices(prefix ~ '_placements', prefix ~ '_slice_auc', parts) }}
)
{%- endmacro %}
