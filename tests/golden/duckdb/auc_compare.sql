WITH sm_a_at AS (
  SELECT
    sm_sums.*
  FROM (
    SELECT
      "country",
      threshold,
      SUM(sm_rows) AS sm_n_at,
      SUM(sm_pos * sm_rows) AS sm_n_pos_at,
      SUM(sm_pos * sm_weight) AS sm_tp_at,
      SUM((
        1 - sm_pos
      ) * sm_weight) AS sm_fp_at
    FROM (
      SELECT
        "country",
        threshold,
        sm_rows,
        sm_weight,
        CASE
          WHEN "clicked" = 1
          THEN 1
          WHEN "clicked" = 0
          THEN 0
          ELSE CASE
            WHEN COALESCE(NOT (
              "clicked" = 1 OR "clicked" = 0
            ), TRUE)
            THEN ERROR(
              'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
            )
          END
        END AS sm_pos
      FROM (
        SELECT
          "country",
          "clicked",
          "pctr" AS threshold,
          COUNT(*) AS sm_rows,
          SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
        FROM analytics.preds
        GROUP BY
          "country",
          "pctr",
          "clicked"
      ) AS sm_labelled
    ) AS sm_by_label
    GROUP BY
      "country",
      threshold
  ) AS sm_sums
), sm_a_running AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    SUM(sm_tp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_tp_at_run,
    SUM(sm_tp_at) OVER (PARTITION BY "country") AS sm_tp_at_all,
    sm_fp_at,
    SUM(sm_fp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_fp_at_run,
    SUM(sm_fp_at) OVER (PARTITION BY "country") AS sm_fp_at_all
  FROM sm_a_at
), sm_a_points AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    sm_fp_at,
    sm_tp_at_run AS tp,
    sm_fp_at_run AS fp,
    sm_tp_at_all AS sm_pos,
    sm_fp_at_all AS sm_neg,
    CASE WHEN sm_tp_at + sm_fp_at > 0 THEN 1 ELSE 0 END AS sm_point
  FROM sm_a_running
), sm_b_at AS (
  SELECT
    sm_sums.*
  FROM (
    SELECT
      "country",
      threshold,
      SUM(sm_rows) AS sm_n_at,
      SUM(sm_pos * sm_rows) AS sm_n_pos_at,
      SUM(sm_pos * sm_weight) AS sm_tp_at,
      SUM((
        1 - sm_pos
      ) * sm_weight) AS sm_fp_at
    FROM (
      SELECT
        "country",
        threshold,
        sm_rows,
        sm_weight,
        CASE
          WHEN "clicked" = 1
          THEN 1
          WHEN "clicked" = 0
          THEN 0
          ELSE CASE
            WHEN COALESCE(NOT (
              "clicked" = 1 OR "clicked" = 0
            ), TRUE)
            THEN ERROR(
              'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
            )
          END
        END AS sm_pos
      FROM (
        SELECT
          "country",
          "clicked",
          "pctr_baseline" AS threshold,
          COUNT(*) AS sm_rows,
          SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
        FROM analytics.preds
        GROUP BY
          "country",
          "pctr_baseline",
          "clicked"
      ) AS sm_labelled
    ) AS sm_by_label
    GROUP BY
      "country",
      threshold
  ) AS sm_sums
), sm_b_running AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    SUM(sm_tp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_tp_at_run,
    SUM(sm_tp_at) OVER (PARTITION BY "country") AS sm_tp_at_all,
    sm_fp_at,
    SUM(sm_fp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_fp_at_run,
    SUM(sm_fp_at) OVER (PARTITION BY "country") AS sm_fp_at_all
  FROM sm_b_at
), sm_b_points AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    sm_fp_at,
    sm_tp_at_run AS tp,
    sm_fp_at_run AS fp,
    sm_tp_at_all AS sm_pos,
    sm_fp_at_all AS sm_neg,
    CASE WHEN sm_tp_at + sm_fp_at > 0 THEN 1 ELSE 0 END AS sm_point
  FROM sm_b_running
), sm_a_placements AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_pos,
    sm_neg,
    (
      CAST(sm_tp_at AS DOUBLE) / NULLIF(CAST(sm_pos AS DOUBLE), 0)
    ) AS sm_share10,
    (
      CAST(sm_fp_at AS DOUBLE) / NULLIF(CAST(sm_neg AS DOUBLE), 0)
    ) AS sm_share01,
    (
      CAST(sm_neg - fp + 0.5 * sm_fp_at AS DOUBLE) / NULLIF(CAST(sm_neg AS DOUBLE), 0)
    ) AS sm_v10,
    (
      CAST(tp - 0.5 * sm_tp_at AS DOUBLE) / NULLIF(CAST(sm_pos AS DOUBLE), 0)
    ) AS sm_v01
  FROM sm_a_points
), sm_a_slice_auc AS (
  SELECT
    "country",
    SUM(sm_auc_part) OVER (PARTITION BY "country") AS sm_auc,
    CAST(SUM(sm_n_pos_part) OVER (PARTITION BY "country") AS BIGINT) AS sm_n_pos,
    CAST(SUM(sm_n_neg_part) OVER (PARTITION BY "country") AS BIGINT) AS sm_n_neg
  FROM (
    SELECT
      "country",
      SUM(sm_share10 * sm_v10) AS sm_auc_part,
      SUM(sm_n_pos_at) AS sm_n_pos_part,
      SUM(sm_n_at - sm_n_pos_at) AS sm_n_neg_part
    FROM sm_a_placements
    GROUP BY
      "country"
  ) AS sm_a_parts
), sm_a_placed AS (
  SELECT
    sm_a_placements.*,
    sm_a_slice_auc.sm_auc,
    sm_a_slice_auc.sm_n_pos,
    sm_a_slice_auc.sm_n_neg
  FROM sm_a_placements
  JOIN sm_a_slice_auc
    ON (
      sm_a_placements."country" IS NOT DISTINCT FROM sm_a_slice_auc."country"
    )
), sm_b_placements AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_pos,
    sm_neg,
    (
      CAST(sm_tp_at AS DOUBLE) / NULLIF(CAST(sm_pos AS DOUBLE), 0)
    ) AS sm_share10,
    (
      CAST(sm_fp_at AS DOUBLE) / NULLIF(CAST(sm_neg AS DOUBLE), 0)
    ) AS sm_share01,
    (
      CAST(sm_neg - fp + 0.5 * sm_fp_at AS DOUBLE) / NULLIF(CAST(sm_neg AS DOUBLE), 0)
    ) AS sm_v10,
    (
      CAST(tp - 0.5 * sm_tp_at AS DOUBLE) / NULLIF(CAST(sm_pos AS DOUBLE), 0)
    ) AS sm_v01
  FROM sm_b_points
), sm_b_slice_auc AS (
  SELECT
    "country",
    SUM(sm_auc_part) OVER (PARTITION BY "country") AS sm_auc,
    CAST(SUM(sm_n_pos_part) OVER (PARTITION BY "country") AS BIGINT) AS sm_n_pos,
    CAST(SUM(sm_n_neg_part) OVER (PARTITION BY "country") AS BIGINT) AS sm_n_neg
  FROM (
    SELECT
      "country",
      SUM(sm_share10 * sm_v10) AS sm_auc_part,
      SUM(sm_n_pos_at) AS sm_n_pos_part,
      SUM(sm_n_at - sm_n_pos_at) AS sm_n_neg_part
    FROM sm_b_placements
    GROUP BY
      "country"
  ) AS sm_b_parts
), sm_b_placed AS (
  SELECT
    sm_b_placements.*,
    sm_b_slice_auc.sm_auc,
    sm_b_slice_auc.sm_n_pos,
    sm_b_slice_auc.sm_n_neg
  FROM sm_b_placements
  JOIN sm_b_slice_auc
    ON (
      sm_b_placements."country" IS NOT DISTINCT FROM sm_b_slice_auc."country"
    )
), sm_paired AS (
  SELECT
    sm_input."country" AS "country",
    sm_input.sm_y AS sm_y,
    sm_input.sm_w AS sm_w,
    sm_a_placed.sm_v10 - sm_b_placed.sm_v10 AS sm_d10,
    sm_a_placed.sm_v01 - sm_b_placed.sm_v01 AS sm_d01,
    sm_a_placed.sm_auc AS sm_auc,
    sm_b_placed.sm_auc AS sm_other_auc,
    sm_a_placed.sm_pos AS sm_pos,
    sm_a_placed.sm_neg AS sm_neg,
    sm_a_placed.sm_n_pos AS sm_n_pos,
    sm_a_placed.sm_n_neg AS sm_n_neg
  FROM (
    SELECT
      "country",
      CASE
        WHEN "clicked" = 1
        THEN 1
        WHEN "clicked" = 0
        THEN 0
        ELSE CASE
          WHEN COALESCE(NOT (
            "clicked" = 1 OR "clicked" = 0
          ), TRUE)
          THEN ERROR(
            'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
          )
        END
      END AS sm_y,
      CAST("impressions" AS DOUBLE) AS sm_w,
      "pctr" AS sm_score,
      "pctr_baseline" AS sm_other_score
    FROM analytics.preds
  ) AS sm_input
  JOIN sm_a_placed
    ON sm_input.sm_score = sm_a_placed.threshold
    AND (
      sm_input."country" IS NOT DISTINCT FROM sm_a_placed."country"
    )
  JOIN sm_b_placed
    ON sm_input.sm_other_score = sm_b_placed.threshold
    AND (
      sm_input."country" IS NOT DISTINCT FROM sm_b_placed."country"
    )
), sm_spread AS (
  SELECT
    "country",
    MAX(sm_auc) AS sm_estimate,
    MAX(sm_other_auc) AS sm_other_estimate,
    MAX(sm_pos) AS sm_w_pos,
    MAX(sm_neg) AS sm_w_neg,
    MAX(sm_n_pos) AS sm_positives,
    MAX(sm_n_neg) AS sm_negatives,
    SUM(CASE WHEN sm_y = 1 THEN sm_share * sm_d10 END) AS sm_mean10,
    SUM(CASE WHEN sm_y = 0 THEN sm_share * sm_d01 END) AS sm_mean01,
    SUM(
      CASE
        WHEN sm_y = 1
        THEN sm_share * (
          sm_d10 - sm_centre
        ) * (
          sm_d10 - sm_centre
        )
        ELSE 0
      END
    ) AS sm_ss10,
    SUM(
      CASE
        WHEN sm_y = 0
        THEN sm_share * (
          sm_d01 - sm_centre
        ) * (
          sm_d01 - sm_centre
        )
        ELSE 0
      END
    ) AS sm_ss01,
    MAX(sm_centre) AS sm_shift
  FROM (
    SELECT
      sm_paired.*,
      sm_auc - sm_other_auc AS sm_centre,
      CASE
        WHEN sm_y = 1
        THEN (
          CAST(sm_w AS DOUBLE) / NULLIF(CAST(sm_pos AS DOUBLE), 0)
        )
        ELSE (
          CAST(sm_w AS DOUBLE) / NULLIF(CAST(sm_neg AS DOUBLE), 0)
        )
      END AS sm_share
    FROM sm_paired
  ) AS sm_shared
  GROUP BY
    "country"
), sm_error AS (
  SELECT
    "country",
    sm_estimate,
    sm_other_estimate,
    sm_positives,
    sm_negatives,
    sm_mean10 AS sm_difference,
    CASE
      WHEN sm_w_pos > 1 AND sm_w_neg > 1
      THEN SQRT(
        (
          CAST(CASE
            WHEN sm_ss10 - (
              sm_mean10 - sm_shift
            ) * (
              sm_mean10 - sm_shift
            ) > 0
            THEN sm_ss10 - (
              sm_mean10 - sm_shift
            ) * (
              sm_mean10 - sm_shift
            )
            ELSE 0
          END AS DOUBLE) / NULLIF(CAST(sm_w_pos - 1 AS DOUBLE), 0)
        ) + (
          CAST(CASE
            WHEN sm_ss01 - (
              sm_mean01 - sm_shift
            ) * (
              sm_mean01 - sm_shift
            ) > 0
            THEN sm_ss01 - (
              sm_mean01 - sm_shift
            ) * (
              sm_mean01 - sm_shift
            )
            ELSE 0
          END AS DOUBLE) / NULLIF(CAST(sm_w_neg - 1 AS DOUBLE), 0)
        )
      )
    END AS sm_se
  FROM sm_spread
), sm_tested AS (
  SELECT
    sm_error.*,
    CASE
      WHEN sm_se > 0
      THEN (
        CAST(sm_difference AS DOUBLE) / NULLIF(CAST(sm_se AS DOUBLE), 0)
      )
      WHEN sm_se = 0 AND sm_difference = 0
      THEN 0
    END AS sm_z
  FROM sm_error
), sm_result AS (
  SELECT
    sm_with_abs.*,
    CASE
      WHEN NOT sm_abs_z IS NULL
      THEN 2 * CASE
        WHEN sm_abs_z > 37
        THEN 0
        WHEN sm_abs_z < 7.07106781186547
        THEN EXP(-sm_abs_z * sm_abs_z / 2) * (
          CAST((
            (
              (
                (
                  (
                    (
                      0.03526249659989109 * sm_abs_z + 0.7003830644436881
                    ) * sm_abs_z + 6.373962203531650
                  ) * sm_abs_z + 33.91286607838300
                ) * sm_abs_z + 112.0792914978709
              ) * sm_abs_z + 221.2135961699311
            ) * sm_abs_z + 220.2068679123761
          ) AS DOUBLE) / NULLIF(
            CAST((
              (
                (
                  (
                    (
                      (
                        (
                          0.08838834764831844 * sm_abs_z + 1.755667163182642
                        ) * sm_abs_z + 16.06417757920695
                      ) * sm_abs_z + 86.78073220294608
                    ) * sm_abs_z + 296.5642487796737
                  ) * sm_abs_z + 637.3336333788311
                ) * sm_abs_z + 793.8265125199484
              ) * sm_abs_z + 440.4137358247522
            ) AS DOUBLE),
            0
          )
        )
        ELSE (
          CAST(EXP(-sm_abs_z * sm_abs_z / 2) AS DOUBLE) / NULLIF(
            CAST((
              sm_abs_z + (
                CAST(1 AS DOUBLE) / NULLIF(
                  CAST(sm_abs_z + (
                    CAST(2 AS DOUBLE) / NULLIF(
                      CAST(sm_abs_z + (
                        CAST(3 AS DOUBLE) / NULLIF(
                          CAST(sm_abs_z + (
                            CAST(4 AS DOUBLE) / NULLIF(CAST(sm_abs_z + 0.65 AS DOUBLE), 0)
                          ) AS DOUBLE),
                          0
                        )
                      ) AS DOUBLE),
                      0
                    )
                  ) AS DOUBLE),
                  0
                )
              )
            ) * 2.506628274631001 AS DOUBLE),
            0
          )
        )
      END
    END AS sm_p
  FROM (
    SELECT
      sm_tested.*,
      ABS(sm_z) AS sm_abs_z
    FROM sm_tested
  ) AS sm_with_abs
), sm_compared AS (
  SELECT
    "country",
    sm_estimate AS auc,
    sm_other_estimate AS other_auc,
    sm_difference AS difference,
    sm_se AS std_error,
    sm_z AS z,
    CASE WHEN sm_p > 1 THEN 1 ELSE sm_p END AS p_value,
    CASE
      WHEN sm_difference - CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se < -1
      THEN -1
      ELSE sm_difference - CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se
    END AS ci_low,
    CASE
      WHEN sm_difference + CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se > 1
      THEN 1
      ELSE sm_difference + CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se
    END AS ci_high,
    sm_positives AS n_pos,
    sm_negatives AS n_neg
  FROM sm_result
)
SELECT
  "country",
  auc,
  other_auc,
  difference,
  std_error,
  z,
  p_value,
  ci_low,
  ci_high,
  n_pos,
  n_neg,
  p_value_holm
FROM (
  SELECT
    sm_holm_terms.*,
    CASE
      WHEN p_value IS NULL
      THEN NULL
      WHEN MAX(sm_holm_term) OVER (
        ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END ASC, p_value ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) > 1
      THEN 1
      ELSE MAX(sm_holm_term) OVER (
        ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END ASC, p_value ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      )
    END AS p_value_holm
  FROM (
    SELECT
      sm_compared.*,
      CASE
        WHEN NOT p_value IS NULL
        THEN (
          COUNT(p_value) OVER () - ROW_NUMBER() OVER (ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END ASC, p_value ASC) + 1
        ) * p_value
      END AS sm_holm_term
    FROM sm_compared
  ) AS sm_holm_terms
) AS sm_adjusted
