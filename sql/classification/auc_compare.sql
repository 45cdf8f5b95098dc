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
    std_error, z, p_value and the interval are NULL when a class weighs 1 or less, and z and p_value
    when std_error is 0 and the AUCs differ (every placement moves alike: no variance to test
    against); equal AUCs with std_error 0 give z = 0 and p_value = 1.
    With `by`, p_value_holm: Holm's step-down adjustment over the slices with a p-value. -#}
{% macro auc_compare(relation, label, score, other_score, weight=none, confidence=0.95, by=[], plan=none) %}
{%- set plan = 'parallel' if (plan or sqlmetrics.default_plan()) == 'parallel' else 'aggregate' %}
{%- set z_c = sqlmetrics.normal_quantile((1 - confidence) / 2) %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, plan, prefix='sm_a') }},
{{ sqlmetrics.curve_points(relation, label, other_score, weight, by, plan, prefix='sm_b') }},
{{ sqlmetrics.delong_placements(by, prefix='sm_a') }},
{{ sqlmetrics.delong_placements(by, prefix='sm_b') }},
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
         SUM(CASE WHEN sm_y = 1 THEN sm_share * sm_d10 ELSE 0 END) AS sm_mean10,
         SUM(CASE WHEN sm_y = 0 THEN sm_share * sm_d01 ELSE 0 END) AS sm_mean01,
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
sm_tested AS (
  SELECT sm_tested_se.*,
         CASE WHEN sm_se > 0 THEN {{ sqlmetrics.fdiv('sm_difference', 'sm_se') }}
              WHEN sm_se = 0 AND sm_difference = 0 THEN 0 END AS sm_z
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} sm_estimate, sm_other_estimate, sm_positives, sm_negatives,
           sm_mean10 AS sm_difference,
           CASE WHEN sm_w_pos > 1 AND sm_w_neg > 1
                THEN SQRT({{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_ss10 - (sm_mean10 - sm_shift) * (sm_mean10 - sm_shift)'), 'sm_w_pos - 1') }}
                          + {{ sqlmetrics.fdiv(sqlmetrics.nonnegative('sm_ss01 - (sm_mean01 - sm_shift) * (sm_mean01 - sm_shift)'), 'sm_w_neg - 1') }})
           END AS sm_se
    FROM sm_spread
  ) AS sm_tested_se
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
