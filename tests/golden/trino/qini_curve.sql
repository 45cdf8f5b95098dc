WITH sm_at AS (
  SELECT
    "country",
    threshold,
    SUM(sm_t * sm_w) AS sm_wt,
    SUM((
      1 - sm_t
    ) * sm_w) AS sm_wc,
    SUM(sm_y * sm_t * sm_w) AS sm_yt,
    SUM(sm_y * (
      1 - sm_t
    ) * sm_w) AS sm_yc
  FROM (
    SELECT
      "country",
      "pctr" AS threshold,
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
      END AS sm_y,
      CASE
        WHEN "treated" = 1
        THEN 1
        WHEN "treated" = 0
        THEN 0
        ELSE CAST(CASE
          WHEN COALESCE(NOT (
            "treated" = 1 OR "treated" = 0
          ), TRUE)
          THEN CONCAT(
            CAST('sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' AS VARCHAR),
            CAST(COALESCE(CAST("treated" AS VARCHAR), 'NULL') AS VARCHAR)
          )
          ELSE '0'
        END AS BIGINT)
      END AS sm_t,
      CAST("impressions" AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "country",
    threshold
), sm_points_bucketed AS (
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
), sm_points_offsets AS (
  SELECT
    "country",
    "sm_bucket",
    SUM(sm_bucket_sm_wt) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_wt,
    SUM(sm_bucket_sm_wt) OVER (PARTITION BY "country") AS sm_total_sm_wt,
    SUM(sm_bucket_sm_wc) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_wc,
    SUM(sm_bucket_sm_wc) OVER (PARTITION BY "country") AS sm_total_sm_wc,
    SUM(sm_bucket_sm_yt) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_yt,
    SUM(sm_bucket_sm_yt) OVER (PARTITION BY "country") AS sm_total_sm_yt,
    SUM(sm_bucket_sm_yc) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_yc,
    SUM(sm_bucket_sm_yc) OVER (PARTITION BY "country") AS sm_total_sm_yc
  FROM (
    SELECT
      "country",
      "sm_bucket",
      SUM(sm_wt) AS sm_bucket_sm_wt,
      SUM(sm_wc) AS sm_bucket_sm_wc,
      SUM(sm_yt) AS sm_bucket_sm_yt,
      SUM(sm_yc) AS sm_bucket_sm_yc
    FROM sm_points_bucketed
    GROUP BY
      "country",
      "sm_bucket"
  ) AS sm_per_bucket
), sm_points AS (
  SELECT
    "country",
    "sm_bucket",
    threshold,
    sm_wt,
    sm_wt_run,
    sm_wt_all,
    sm_wc,
    sm_wc_run,
    sm_wc_all,
    sm_yt,
    sm_yt_run,
    sm_yt_all,
    sm_yc,
    sm_yc_run,
    sm_yc_all
  FROM (
    SELECT
      "country",
      "sm_bucket",
      sm_kind,
      threshold,
      sm_wt,
      SUM(sm_add_sm_wt) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wt_run,
      MAX(sm_slice_sm_wt) OVER (PARTITION BY "country", "sm_bucket") AS sm_wt_all,
      sm_wc,
      SUM(sm_add_sm_wc) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wc_run,
      MAX(sm_slice_sm_wc) OVER (PARTITION BY "country", "sm_bucket") AS sm_wc_all,
      sm_yt,
      SUM(sm_add_sm_yt) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yt_run,
      MAX(sm_slice_sm_yt) OVER (PARTITION BY "country", "sm_bucket") AS sm_yt_all,
      sm_yc,
      SUM(sm_add_sm_yc) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yc_run,
      MAX(sm_slice_sm_yc) OVER (PARTITION BY "country", "sm_bucket") AS sm_yc_all
    FROM (
      SELECT
        "country",
        "sm_bucket",
        0 AS sm_kind,
        threshold,
        sm_wt,
        sm_wt AS sm_add_sm_wt,
        NULL AS sm_slice_sm_wt,
        sm_wc,
        sm_wc AS sm_add_sm_wc,
        NULL AS sm_slice_sm_wc,
        sm_yt,
        sm_yt AS sm_add_sm_yt,
        NULL AS sm_slice_sm_yt,
        sm_yc,
        sm_yc AS sm_add_sm_yc,
        NULL AS sm_slice_sm_yc
      FROM sm_points_bucketed
      UNION ALL
      SELECT
        "country",
        "sm_bucket",
        1 AS sm_kind,
        NULL AS threshold,
        NULL AS sm_wt,
        sm_before_sm_wt AS sm_add_sm_wt,
        sm_total_sm_wt AS sm_slice_sm_wt,
        NULL AS sm_wc,
        sm_before_sm_wc AS sm_add_sm_wc,
        sm_total_sm_wc AS sm_slice_sm_wc,
        NULL AS sm_yt,
        sm_before_sm_yt AS sm_add_sm_yt,
        sm_total_sm_yt AS sm_slice_sm_yt,
        NULL AS sm_yc,
        sm_before_sm_yc AS sm_add_sm_yc,
        sm_total_sm_yc AS sm_slice_sm_yc
      FROM sm_points_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
)
SELECT
  "country",
  threshold,
  n,
  qini,
  n_treatment,
  n_control,
  responders_treatment,
  responders_control
FROM (
  SELECT
    "country",
    INFINITY() AS threshold,
    MIN(0) AS n,
    CAST(MIN(0) AS DOUBLE) AS qini,
    MIN(0) AS n_treatment,
    MIN(0) AS n_control,
    MIN(0) AS responders_treatment,
    MIN(0) AS responders_control
  FROM sm_points
  GROUP BY
    "country"
  UNION ALL
  SELECT
    "country",
    threshold,
    sm_wt_run + sm_wc_run AS n,
    (
      sm_yt_run - sm_yc_run * COALESCE((
        CAST(sm_wt_run AS DOUBLE) / NULLIF(CAST(sm_wc_run AS DOUBLE), 0)
      ), 0)
    ) AS qini,
    sm_wt_run AS n_treatment,
    sm_wc_run AS n_control,
    sm_yt_run AS responders_treatment,
    sm_yc_run AS responders_control
  FROM sm_points
  WHERE
    sm_wt + sm_wc > 0
) AS sm_curve
ORDER BY
  "country",
  threshold DESC,
  n
