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
          THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS Nullable(String)), 'NULL')
          ELSE '0'
        END AS Int64)
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
          THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("treated" AS Nullable(String)), 'NULL')
          ELSE '0'
        END AS Int64)
      END AS sm_t,
      CAST(1 AS Nullable(Float64)) AS sm_w
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
        ABS(sm_x) < CAST('inf' AS Nullable(Float64))
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
    END AS Nullable(Int64)) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(threshold AS Nullable(Float64)) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(threshold AS Nullable(Float64))) >= 2.2250738585072014e-308
          AND ABS(CAST(threshold AS Nullable(Float64))) < CAST('inf' AS Nullable(Float64))
        )
        THEN NULL
        WHEN ABS(CAST(threshold AS Nullable(Float64))) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(threshold AS Nullable(Float64)))) / LN(2)
        ))
      END AS Nullable(Float64)) AS sm_e
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
), sm_top AS (
  SELECT
    "country",
    CASE
      WHEN sm_wt_run + sm_wc_run <= sm_cut
      THEN 1.0
      WHEN sm_wt_run + sm_wc_run - sm_wt - sm_wc >= sm_cut
      THEN 0.0
      ELSE (
        CAST(sm_cut - (
          sm_wt_run + sm_wc_run - sm_wt - sm_wc
        ) AS Nullable(Float64)) / nullIf(CAST(sm_wt + sm_wc AS Nullable(Float64)), 0)
      )
    END AS sm_in,
    sm_wt,
    sm_wc,
    sm_yt,
    sm_yc,
    sm_cut,
    sm_wt_all + sm_wc_all AS sm_n_all
  FROM (
    SELECT
      sm_points.*,
      FLOOR(
        CAST(sm_wt_all + sm_wc_all AS Nullable(Float64)) * CAST(0.3 AS Nullable(Float64))
      ) AS sm_cut
    FROM sm_points
  ) AS sm_cut_points
)
SELECT
  "country",
  (
    CAST(SUM(sm_in * sm_yt) AS Nullable(Float64)) / nullIf(CAST(SUM(sm_in * sm_wt) AS Nullable(Float64)), 0)
  ) - (
    CAST(SUM(sm_in * sm_yc) AS Nullable(Float64)) / nullIf(CAST(SUM(sm_in * sm_wc) AS Nullable(Float64)), 0)
  ) AS uplift_at_k,
  (
    CAST(SUM(sm_in * sm_yt) AS Nullable(Float64)) / nullIf(CAST(SUM(sm_in * sm_wt) AS Nullable(Float64)), 0)
  ) AS treatment_rate,
  (
    CAST(SUM(sm_in * sm_yc) AS Nullable(Float64)) / nullIf(CAST(SUM(sm_in * sm_wc) AS Nullable(Float64)), 0)
  ) AS control_rate,
  CAST(ROUND(SUM(sm_in * (
    sm_wt + sm_wc
  ))) AS Nullable(Int64)) AS n_top,
  CAST(SUM(sm_wt + sm_wc) AS Nullable(Int64)) AS n
FROM sm_top
GROUP BY
  "country"
