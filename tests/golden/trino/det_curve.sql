WITH sm_at AS (
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
          ELSE CAST(CASE
            WHEN COALESCE(NOT (
              "clicked" = 1 OR "clicked" = 0
            ), TRUE)
            THEN CONCAT(
              CAST('sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' AS VARCHAR),
              CAST(COALESCE(CAST("clicked" AS VARCHAR), 'NULL') AS VARCHAR)
            )
            ELSE '0'
          END AS BIGINT)
        END AS sm_pos
      FROM (
        SELECT
          "country",
          "clicked",
          "pctr" AS threshold,
          1 AS sm_rows,
          CAST("impressions" AS DOUBLE) AS sm_weight
        FROM analytics.preds
      ) AS sm_labelled
    ) AS sm_by_label
    GROUP BY
      "country",
      threshold
  ) AS sm_sums
), sm_running_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < INFINITY()
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
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
          AND ABS(CAST(threshold AS DOUBLE)) < INFINITY()
        )
        THEN NULL
        WHEN ABS(CAST(threshold AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          CAST(LN(ABS(CAST(threshold AS DOUBLE))) AS DOUBLE) / LN(2)
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
    "country",
    "sm_bucket",
    SUM(sm_bucket_sm_tp_at) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_tp_at,
    SUM(sm_bucket_sm_tp_at) OVER (PARTITION BY "country") AS sm_total_sm_tp_at,
    SUM(sm_bucket_sm_fp_at) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_fp_at,
    SUM(sm_bucket_sm_fp_at) OVER (PARTITION BY "country") AS sm_total_sm_fp_at
  FROM (
    SELECT
      "country",
      "sm_bucket",
      SUM(sm_tp_at) AS sm_bucket_sm_tp_at,
      SUM(sm_fp_at) AS sm_bucket_sm_fp_at
    FROM sm_running_bucketed
    GROUP BY
      "country",
      "sm_bucket"
  ) AS sm_per_bucket
), sm_running AS (
  SELECT
    "country",
    "sm_bucket",
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
      "country",
      "sm_bucket",
      sm_kind,
      threshold,
      sm_n_at,
      sm_n_pos_at,
      sm_tp_at,
      SUM(sm_add_sm_tp_at) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_tp_at_run,
      MAX(sm_slice_sm_tp_at) OVER (PARTITION BY "country", "sm_bucket") AS sm_tp_at_all,
      sm_fp_at,
      SUM(sm_add_sm_fp_at) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_fp_at_run,
      MAX(sm_slice_sm_fp_at) OVER (PARTITION BY "country", "sm_bucket") AS sm_fp_at_all
    FROM (
      SELECT
        "country",
        "sm_bucket",
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
        "country",
        "sm_bucket",
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
    "country",
    "sm_bucket",
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
), sm_det_ends AS (
  SELECT
    "country",
    MIN(CASE WHEN sm_point = 1 AND fp = 0 THEN threshold END) AS sm_first,
    MIN(CASE WHEN sm_tp_at > 0 THEN threshold END) AS sm_last,
    MAX(sm_pos) AS sm_w_pos,
    MAX(sm_neg) AS sm_w_neg
  FROM sm_points
  GROUP BY
    "country"
), sm_det_ends_spread AS (
  SELECT
    sm_slices.*,
    sm_keys.sm_bucket AS sm_bucket
  FROM sm_det_ends AS sm_slices
  JOIN (
    SELECT DISTINCT
      "country",
      sm_bucket
    FROM sm_points AS sm_keyed
  ) AS sm_keys
    ON (
      sm_slices."country" IS NOT DISTINCT FROM sm_keys."country"
    )
)
SELECT
  "country",
  threshold,
  fpr,
  fnr,
  fp,
  fn
FROM (
  SELECT
    "country",
    INFINITY() AS threshold,
    (
      CAST(0 AS DOUBLE) / NULLIF(CAST(sm_w_neg AS DOUBLE), 0)
    ) AS fpr,
    (
      CAST(sm_w_pos AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
    ) AS fnr,
    0 AS fp,
    sm_w_pos AS fn
  FROM sm_det_ends
  WHERE
    sm_first IS NULL
  UNION ALL
  SELECT
    sm_points."country" AS "country",
    sm_points.threshold,
    (
      CAST(sm_points.fp AS DOUBLE) / NULLIF(CAST(sm_points.sm_neg AS DOUBLE), 0)
    ) AS fpr,
    (
      CAST(sm_points.sm_pos - sm_points.tp AS DOUBLE) / NULLIF(CAST(sm_points.sm_pos AS DOUBLE), 0)
    ) AS fnr,
    sm_points.fp AS fp,
    sm_points.sm_pos - sm_points.tp AS fn
  FROM sm_points
  JOIN sm_det_ends_spread AS sm_det_ends
    ON sm_points."sm_bucket" = sm_det_ends."sm_bucket"
    AND (
      sm_points."country" IS NOT DISTINCT FROM sm_det_ends."country"
    )
  WHERE
    sm_points.sm_point = 1
    AND sm_points.threshold >= sm_det_ends.sm_last
    AND (
      sm_det_ends.sm_first IS NULL OR sm_points.threshold <= sm_det_ends.sm_first
    )
) AS sm_det
ORDER BY
  "country",
  threshold,
  fn,
  fp DESC
