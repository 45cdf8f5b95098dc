WITH sm_at AS (
  SELECT
    sm_sums.*
  FROM (
    SELECT
      "COUNTRY",
      threshold,
      SUM(sm_rows) AS sm_n_at,
      SUM(sm_pos * sm_rows) AS sm_n_pos_at,
      SUM(sm_pos * sm_weight) AS sm_tp_at,
      SUM((
        1 - sm_pos
      ) * sm_weight) AS sm_fp_at
    FROM (
      SELECT
        "COUNTRY",
        threshold,
        sm_rows,
        sm_weight,
        CASE
          WHEN "CLICKED" = 1
          THEN 1
          WHEN "CLICKED" = 0
          THEN 0
          ELSE CAST(CASE
            WHEN COALESCE(NOT (
              "CLICKED" = 1 OR "CLICKED" = 0
            ), TRUE)
            THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("CLICKED" AS VARCHAR), 'NULL')
            ELSE '0'
          END AS BIGINT)
        END AS sm_pos
      FROM (
        SELECT
          "COUNTRY",
          "CLICKED",
          "PCTR" AS threshold,
          1 AS sm_rows,
          CAST("IMPRESSIONS" AS DOUBLE) AS sm_weight
        FROM analytics.preds
      ) AS sm_labelled
    ) AS sm_by_label
    GROUP BY
      "COUNTRY",
      threshold
  ) AS sm_sums
), sm_running_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < CAST('inf' AS DOUBLE)
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
        ) * 1024)
      )
    END AS BIGINT) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(threshold AS DOUBLE) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(threshold AS DOUBLE)) >= 2.2250738585072014e-308
          AND ABS(CAST(threshold AS DOUBLE)) < CAST('inf' AS DOUBLE)
        )
        THEN NULL
        WHEN ABS(CAST(threshold AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(threshold AS DOUBLE))) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_at
    ) AS sm_valued
  ) AS sm_exponents
), sm_running_offsets AS (
  SELECT
    "COUNTRY",
    "SM_BUCKET",
    SUM(sm_bucket_sm_tp_at) OVER (
      PARTITION BY "COUNTRY"
      ORDER BY sm_bucket DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_tp_at,
    SUM(sm_bucket_sm_tp_at) OVER (PARTITION BY "COUNTRY") AS sm_total_sm_tp_at,
    SUM(sm_bucket_sm_fp_at) OVER (
      PARTITION BY "COUNTRY"
      ORDER BY sm_bucket DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_fp_at,
    SUM(sm_bucket_sm_fp_at) OVER (PARTITION BY "COUNTRY") AS sm_total_sm_fp_at
  FROM (
    SELECT
      "COUNTRY",
      "SM_BUCKET",
      SUM(sm_tp_at) AS sm_bucket_sm_tp_at,
      SUM(sm_fp_at) AS sm_bucket_sm_fp_at
    FROM sm_running_bucketed
    GROUP BY
      "COUNTRY",
      "SM_BUCKET"
  ) AS sm_per_bucket
), sm_running AS (
  SELECT
    "COUNTRY",
    "SM_BUCKET",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    sm_tp_at_run,
    sm_tp_at_all,
    sm_fp_at,
    sm_fp_at_run,
    sm_fp_at_all
  FROM (
    SELECT
      "COUNTRY",
      "SM_BUCKET",
      sm_kind,
      threshold,
      sm_n_at,
      sm_n_pos_at,
      sm_tp_at,
      SUM(sm_add_sm_tp_at) OVER (
        PARTITION BY "COUNTRY", "SM_BUCKET"
        ORDER BY sm_kind DESC NULLS LAST, threshold DESC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_tp_at_run,
      MAX(sm_slice_sm_tp_at) OVER (PARTITION BY "COUNTRY", "SM_BUCKET") AS sm_tp_at_all,
      sm_fp_at,
      SUM(sm_add_sm_fp_at) OVER (
        PARTITION BY "COUNTRY", "SM_BUCKET"
        ORDER BY sm_kind DESC NULLS LAST, threshold DESC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_fp_at_run,
      MAX(sm_slice_sm_fp_at) OVER (PARTITION BY "COUNTRY", "SM_BUCKET") AS sm_fp_at_all
    FROM (
      SELECT
        "COUNTRY",
        "SM_BUCKET",
        0 AS sm_kind,
        threshold,
        sm_n_at,
        sm_n_pos_at,
        sm_tp_at,
        sm_tp_at AS sm_add_sm_tp_at,
        NULL AS sm_slice_sm_tp_at,
        sm_fp_at,
        sm_fp_at AS sm_add_sm_fp_at,
        NULL AS sm_slice_sm_fp_at
      FROM sm_running_bucketed
      UNION ALL
      SELECT
        "COUNTRY",
        "SM_BUCKET",
        1 AS sm_kind,
        NULL AS threshold,
        NULL AS sm_n_at,
        NULL AS sm_n_pos_at,
        NULL AS sm_tp_at,
        sm_before_sm_tp_at AS sm_add_sm_tp_at,
        sm_total_sm_tp_at AS sm_slice_sm_tp_at,
        NULL AS sm_fp_at,
        sm_before_sm_fp_at AS sm_add_sm_fp_at,
        sm_total_sm_fp_at AS sm_slice_sm_fp_at
      FROM sm_running_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_points AS (
  SELECT
    "COUNTRY",
    "SM_BUCKET",
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
  FROM sm_running
), sm_placements AS (
  SELECT
    "COUNTRY",
    "SM_BUCKET",
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
  FROM sm_points
), sm_slice_auc AS (
  SELECT
    "COUNTRY",
    "SM_BUCKET",
    SUM(sm_auc_part) OVER (PARTITION BY "COUNTRY") AS sm_auc,
    CAST(SUM(sm_n_pos_part) OVER (PARTITION BY "COUNTRY") AS BIGINT) AS sm_n_pos,
    CAST(SUM(sm_n_neg_part) OVER (PARTITION BY "COUNTRY") AS BIGINT) AS sm_n_neg
  FROM (
    SELECT
      "COUNTRY",
      "SM_BUCKET",
      SUM(sm_share10 * sm_v10) AS sm_auc_part,
      SUM(sm_n_pos_at) AS sm_n_pos_part,
      SUM(sm_n_at - sm_n_pos_at) AS sm_n_neg_part
    FROM sm_placements
    GROUP BY
      "COUNTRY",
      "SM_BUCKET"
  ) AS sm_parts
), sm_placed AS (
  SELECT
    sm_placements.*,
    sm_slice_auc.sm_auc,
    sm_slice_auc.sm_n_pos,
    sm_slice_auc.sm_n_neg
  FROM sm_placements
  JOIN sm_slice_auc
    ON (
      sm_placements."COUNTRY" IS NOT DISTINCT FROM sm_slice_auc."COUNTRY"
    )
    AND (
      sm_placements."SM_BUCKET" IS NOT DISTINCT FROM sm_slice_auc."SM_BUCKET"
    )
), sm_spread AS (
  SELECT
    "COUNTRY",
    MAX(sm_auc) AS sm_estimate,
    MAX(sm_n_pos) AS sm_positives,
    MAX(sm_n_neg) AS sm_negatives,
    MAX(sm_pos) AS sm_w_pos,
    MAX(sm_neg) AS sm_w_neg,
    SUM(sm_share10 * (
      sm_v10 - sm_auc
    ) * (
      sm_v10 - sm_auc
    )) AS sm_ss10,
    SUM(sm_share01 * (
      sm_v01 - sm_auc
    ) * (
      sm_v01 - sm_auc
    )) AS sm_ss01
  FROM sm_placed
  GROUP BY
    "COUNTRY"
), sm_error AS (
  SELECT
    sm_spread.*,
    CASE
      WHEN sm_w_pos > 1 AND sm_w_neg > 1
      THEN SQRT(
        (
          CAST(sm_ss10 AS DOUBLE) / NULLIF(CAST(sm_w_pos - 1 AS DOUBLE), 0)
        ) + (
          CAST(sm_ss01 AS DOUBLE) / NULLIF(CAST(sm_w_neg - 1 AS DOUBLE), 0)
        )
      )
    END AS sm_se
  FROM sm_spread
)
SELECT
  "COUNTRY",
  sm_estimate AS auc,
  sm_se AS std_error,
  CASE
    WHEN sm_estimate - CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se < 0
    THEN 0
    ELSE sm_estimate - CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se
  END AS ci_low,
  CASE
    WHEN sm_estimate + CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se > 1
    THEN 1
    ELSE sm_estimate + CAST(1.95996398454005405e+00 AS DOUBLE) * sm_se
  END AS ci_high,
  sm_positives AS n_pos,
  sm_negatives AS n_neg
FROM sm_error
