{#- The paired DeLong test of two scores of the same rows (DeLong et al. 1988; as pROC's
    roc.test(paired=TRUE, method='delong')): auc and other_auc, difference = auc - other_auc, its
    standard error, z = difference / std_error, the two-sided p-value 2 * P(Z > |z|) and the interval
    difference -/+ z_c * std_error (z_c the normal quantile of (1 + confidence) / 2), clipped to [-1, 1].
    Each row's placements under the two scores (delong_placements of each) are joined to the row by
    its score values, and the variance of the difference is that of the difference of placements:
      Var = sum over positives of w (D10 - difference)^2 / ((W_pos - 1) W_pos) + the same over the
            negatives with D01 and W_neg,  D10 = V10(score) - V10(other_score), D01 likewise,
    which equals DeLong's S_AA + S_BB - 2 S_AB, without its cancellation. The difference itself is
    the positives' mean D10, summed directly (not AUC - other AUC: two nearly equal sums whose
    rounding would dominate a small difference and its z). The squares are taken about the
    difference of the AUCs (from the placement tables, one row per distinct score), which is the
    mean up to rounding, and corrected by it, so the rows are read once.
    plan='rank' (unweighted, below): two sorts of the rows instead, each row carrying its ranks
    under both scores, and no join.
    auc, other_auc and difference are NULL in a slice without both classes; std_error, z, p_value
    and the interval are NULL when a class weighs 1 or less, and z and p_value
    when std_error is 0 and the AUCs differ (every placement moves alike: no variance to test
    against); equal AUCs with std_error 0 give z = 0 and p_value = 1.
    With `by`, p_value_holm: Holm's step-down adjustment over the slices with a p-value. -#}
{% macro auc_compare(relation, label, score, other_score, weight=none, confidence=0.95, by=[], plan=none) %}
{%- set z_c = sqlmetrics.normal_quantile((1 - confidence) / 2) %}
{%- if plan == 'rank' and not weight %}
{#- Two sorts, no join: the rows sorted by score (descending, within the slice), then that output
    sorted by other_score, so each row carries its ranks under both. Placements in counts: a row's
    q is the number of rows of the other class ranked above it, a tied one counting 1/2 (V10 =
    (N_neg - q) / N_neg for a positive, V01 = q / N_pos for a negative). Each sort puts a tie
    group's positives first, so the running counts give every positive of a group the negatives
    before it, and every negative the positives through it: q but for the group's own half, the
    same for all its rows of a class, so the rows are summed per cell (slice, tie group under score,
    tie group under other_score; NULL: untied) and the halves added per cell (sm_grouped): +1/2 the
    group's negatives to a positive's q, -1/2 its positives to a negative's (small corrections: a
    cell's sums of squares lose no digits to them). D10 = (q_b - q_a) /
    N_neg over the positives, D01 = (q_a - q_b) / N_pos over the negatives; their sums and sums of
    squares per slice give the difference and the variance above (the one-pass form: the D lie in
    [-1, 1], so the cancellation costs at most the digits of a variance below 1e-16 of their
    squares); the q are whole or half counts, summed exactly up to 2^53. -#}
{%- set wa %}{{ sqlmetrics.partition_by(by) }} ORDER BY sm_score_a DESC, sm_y DESC{% endset %}
{%- set wb %}{{ sqlmetrics.partition_by(by) }} ORDER BY sm_score_b DESC, sm_y DESC{% endset %}
{%- set e = '(sm_q_b - sm_q_a)' %}
WITH sm_cells AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_tie_a, sm_tie_b,
         COUNT(*) AS sm_n_at, SUM(sm_y) AS sm_n_pos_at,
         SUM(sm_y * {{ e }}) AS sm_e_pos, SUM(sm_y * {{ e }} * {{ e }}) AS sm_e2_pos,
         SUM((1 - sm_y) * {{ e }}) AS sm_e_neg, SUM((1 - sm_y) * {{ e }} * {{ e }}) AS sm_e2_neg,
         SUM(sm_y * sm_q_a) AS sm_qa_pos, SUM(sm_y * sm_q_b) AS sm_qb_pos
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} sm_y, sm_tie_a, sm_q_a,
           CASE WHEN sm_previous_b = sm_score_b OR sm_next_b = sm_score_b THEN sm_score_b END AS sm_tie_b,
           {{ sqlmetrics.as_double('CASE WHEN sm_y = 1 THEN sm_row_b - sm_tp_b ELSE sm_tp_b END') }} AS sm_q_b
    FROM (
      SELECT {{ sqlmetrics.cols(by) }} sm_y, sm_score_b, sm_tie_a, sm_q_a,
             ROW_NUMBER() OVER ({{ wb }}) AS sm_row_b,
             SUM(sm_y) OVER ({{ wb }} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_tp_b,
             LAG(sm_score_b) OVER ({{ wb }}) AS sm_previous_b,
             LEAD(sm_score_b) OVER ({{ wb }}) AS sm_next_b
      FROM (
        SELECT {{ sqlmetrics.cols(by) }} sm_y, sm_score_b,
               CASE WHEN sm_previous_a = sm_score_a OR sm_next_a = sm_score_a THEN sm_score_a END AS sm_tie_a,
               {{ sqlmetrics.as_double('CASE WHEN sm_y = 1 THEN sm_row_a - sm_tp_a ELSE sm_tp_a END') }} AS sm_q_a
        FROM (
          SELECT {{ sqlmetrics.cols(by) }} sm_y, sm_score_a, sm_score_b,
                 ROW_NUMBER() OVER ({{ wa }}) AS sm_row_a,
                 SUM(sm_y) OVER ({{ wa }} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_tp_a,
                 LAG(sm_score_a) OVER ({{ wa }}) AS sm_previous_a,
                 LEAD(sm_score_a) OVER ({{ wa }}) AS sm_next_a
          FROM (
            SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.is_positive(label) }} AS sm_y,
                   {{ sqlmetrics.ident(score) }} AS sm_score_a, {{ sqlmetrics.ident(other_score) }} AS sm_score_b
            FROM {{ relation }}
          ) AS sm_input
        ) AS sm_ranked_a
      ) AS sm_placed_a
    ) AS sm_ranked_b
  ) AS sm_placed_b
  GROUP BY {{ sqlmetrics.cols(by) }}sm_tie_a, sm_tie_b
),
{#- the halves of each tie group, per class (0 for the untied rows) -#}
sm_grouped AS (
  SELECT sm_cells.*
  {%- for s in ('a', 'b') %}
  {%- set over %}OVER (PARTITION BY {{ sqlmetrics.cols(by) }}sm_tie_{{ s }}){% endset %},
         CASE WHEN sm_tie_{{ s }} IS NOT NULL THEN 0.5 * {{ sqlmetrics.as_double('SUM(sm_n_at - sm_n_pos_at) ' ~ over) }} ELSE 0 END
           AS sm_half_pos_{{ s }},
         CASE WHEN sm_tie_{{ s }} IS NOT NULL THEN -0.5 * {{ sqlmetrics.as_double('SUM(sm_n_pos_at) ' ~ over) }} ELSE 0 END
           AS sm_half_neg_{{ s }}
  {%- endfor %}
  FROM sm_cells
),
sm_spread AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(SUM(sm_n_pos_at) AS BIGINT) AS sm_positives, CAST(SUM(sm_n_at - sm_n_pos_at) AS BIGINT) AS sm_negatives,
         {{ sqlmetrics.as_double('SUM(sm_n_pos_at)') }} AS sm_w_pos, {{ sqlmetrics.as_double('SUM(sm_n_at - sm_n_pos_at)') }} AS sm_w_neg,
         SUM(sm_qa_pos + sm_n_pos_at * sm_half_pos_a) AS sm_qa, SUM(sm_qb_pos + sm_n_pos_at * sm_half_pos_b) AS sm_qb,
         SUM(sm_e_pos + sm_n_pos_at * sm_k10) AS sm_u,
         SUM(sm_e2_pos + 2 * sm_k10 * sm_e_pos + sm_n_pos_at * sm_k10 * sm_k10) AS sm_u2,
         SUM(sm_n_neg_at * sm_k01 - sm_e_neg) AS sm_t,
         SUM(sm_e2_neg - 2 * sm_k01 * sm_e_neg + sm_n_neg_at * sm_k01 * sm_k01) AS sm_t2
  FROM (
    SELECT sm_grouped.*, sm_n_at - sm_n_pos_at AS sm_n_neg_at,
           sm_half_pos_b - sm_half_pos_a AS sm_k10, sm_half_neg_a - sm_half_neg_b AS sm_k01
    FROM sm_grouped
  ) AS sm_constants
  {{ sqlmetrics.group_by(by) }}
),
sm_error AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_positives, sm_negatives,
         1 - {{ sqlmetrics.fdiv('sm_qa', 'sm_w_pos * sm_w_neg') }} AS sm_estimate,
         1 - {{ sqlmetrics.fdiv('sm_qb', 'sm_w_pos * sm_w_neg') }} AS sm_other_estimate,
         {{ sqlmetrics.fdiv('sm_u', 'sm_w_pos * sm_w_neg') }} AS sm_difference,
         CASE WHEN sm_w_pos > 1 AND sm_w_neg > 1
              THEN SQRT({{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_u2 / sm_w_pos - (sm_u / sm_w_pos) * (sm_u / sm_w_pos)'),
                                           '(sm_w_pos - 1) * sm_w_neg * sm_w_neg') }}
                        + {{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_t2 / sm_w_neg - (sm_t / sm_w_neg) * (sm_t / sm_w_neg)'),
                                             '(sm_w_neg - 1) * sm_w_pos * sm_w_pos') }})
         END AS sm_se
  FROM sm_spread
),
{%- else %}
{%- set plan = 'parallel' if (plan or sqlmetrics.default_plan()) == 'parallel' else 'aggregate' %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, plan, prefix='sm_a') }},
{{ sqlmetrics.curve_points(relation, label, other_score, weight, by, plan, prefix='sm_b') }},
{{ sqlmetrics.delong_placements(by, plan, prefix='sm_a') }},
{{ sqlmetrics.delong_placements(by, plan, prefix='sm_b') }},
sm_paired AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_input') }} sm_input.sm_y AS sm_y, sm_input.sm_w AS sm_w,
         sm_a_placed.sm_v10 - sm_b_placed.sm_v10 AS sm_d10,
         sm_a_placed.sm_v01 - sm_b_placed.sm_v01 AS sm_d01,
         sm_a_placed.sm_auc AS sm_auc, sm_b_placed.sm_auc AS sm_other_auc,
         sm_a_placed.sm_pos AS sm_pos, sm_a_placed.sm_neg AS sm_neg,
         sm_a_placed.sm_n_pos AS sm_n_pos, sm_a_placed.sm_n_neg AS sm_n_neg
  FROM (
    SELECT {{ sqlmetrics.cols(by) }}
           {{ sqlmetrics.is_positive(label) }} AS sm_y,
           {{ sqlmetrics.row_weight(weight) }} AS sm_w,
           {{ sqlmetrics.ident(score) }} AS sm_score,
           {{ sqlmetrics.ident(other_score) }} AS sm_other_score
    FROM {{ relation }}
  ) AS sm_input
  JOIN sm_a_placed
    ON sm_input.sm_score = sm_a_placed.threshold
       {%- if by %} AND {{ sqlmetrics.null_safe_join_on(by, 'sm_input', 'sm_a_placed') }}{% endif %}
  JOIN sm_b_placed
    ON sm_input.sm_other_score = sm_b_placed.threshold
       {%- if by %} AND {{ sqlmetrics.null_safe_join_on(by, 'sm_input', 'sm_b_placed') }}{% endif %}
),
sm_spread AS (
  SELECT {{ sqlmetrics.cols(by) }}
         MAX(sm_auc) AS sm_estimate, MAX(sm_other_auc) AS sm_other_estimate,
         MAX(sm_pos) AS sm_w_pos, MAX(sm_neg) AS sm_w_neg, MAX(sm_n_pos) AS sm_positives, MAX(sm_n_neg) AS sm_negatives,
         SUM(CASE WHEN sm_y = 1 THEN sm_share * sm_d10 END) AS sm_mean10,
         SUM(CASE WHEN sm_y = 0 THEN sm_share * sm_d01 END) AS sm_mean01,
         SUM(CASE WHEN sm_y = 1 THEN sm_share * (sm_d10 - sm_centre) * (sm_d10 - sm_centre) ELSE 0 END) AS sm_ss10,
         SUM(CASE WHEN sm_y = 0 THEN sm_share * (sm_d01 - sm_centre) * (sm_d01 - sm_centre) ELSE 0 END) AS sm_ss01,
         MAX(sm_centre) AS sm_shift
  FROM (
    SELECT sm_paired.*, sm_auc - sm_other_auc AS sm_centre,
           CASE WHEN sm_y = 1 THEN {{ sqlmetrics.fdiv('sm_w', 'sm_pos') }} ELSE {{ sqlmetrics.fdiv('sm_w', 'sm_neg') }} END
             AS sm_share
    FROM sm_paired
  ) AS sm_shared
  {{ sqlmetrics.group_by(by) }}
),
sm_error AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_estimate, sm_other_estimate, sm_positives, sm_negatives,
         sm_mean10 AS sm_difference,
         CASE WHEN sm_w_pos > 1 AND sm_w_neg > 1
              THEN SQRT({{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_ss10 - (sm_mean10 - sm_shift) * (sm_mean10 - sm_shift)'), 'sm_w_pos - 1') }}
                        + {{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_ss01 - (sm_mean01 - sm_shift) * (sm_mean01 - sm_shift)'), 'sm_w_neg - 1') }})
         END AS sm_se
  FROM sm_spread
),
{%- endif %}
sm_tested AS (
  SELECT sm_error.*,
         CASE WHEN sm_se > 0 THEN {{ sqlmetrics.fdiv('sm_difference', 'sm_se') }}
              WHEN sm_se = 0 AND sm_difference = 0 THEN 0 END AS sm_z
  FROM sm_error
),
sm_result AS (
  SELECT sm_with_abs.*,
         CASE WHEN sm_abs_z IS NOT NULL THEN 2 * {{ sqlmetrics.normal_tail('sm_abs_z') }} END AS sm_p
  FROM (SELECT sm_tested.*, ABS(sm_z) AS sm_abs_z FROM sm_tested) AS sm_with_abs
),
sm_compared AS (
  SELECT {{ sqlmetrics.cols(by) }}
         sm_estimate AS auc, sm_other_estimate AS other_auc, sm_difference AS difference, sm_se AS std_error,
         sm_z AS z, CASE WHEN sm_p > 1 THEN 1 ELSE sm_p END AS p_value,
         CASE WHEN sm_difference - {{ z_c }} * sm_se < -1 THEN -1 ELSE sm_difference - {{ z_c }} * sm_se END AS ci_low,
         CASE WHEN sm_difference + {{ z_c }} * sm_se > 1 THEN 1 ELSE sm_difference + {{ z_c }} * sm_se END AS ci_high,
         sm_positives AS n_pos, sm_negatives AS n_neg
  FROM sm_result
)
SELECT {{ sqlmetrics.cols(by) }} auc, other_auc, difference, std_error, z, p_value, ci_low, ci_high, n_pos, n_neg
       {%- if by %}, p_value_holm{% endif %}
FROM {% if by %}({{ sqlmetrics.with_holm('sm_compared', 'p_value') }}) AS sm_adjusted{% else %}sm_compared{% endif %}
{% endmacro %}
