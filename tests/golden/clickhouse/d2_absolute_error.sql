WITH sm_target_median_values AS (
  SELECT
    "country",
    sm_v,
    SUM(sm_w) AS sm_w_v,
    COUNT(*) AS sm_n_v
  FROM (
    SELECT
      "country",
      sm_t AS sm_v,
      sm_w
    FROM (
      SELECT
        "country",
        CAST("revenue" AS Nullable(Float64)) AS sm_t,
        CAST("predicted_revenue" AS Nullable(Float64)) AS sm_p,
        CAST("impressions" AS Nullable(Float64)) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
  ) AS sm_median_rows
  GROUP BY
    "country",
    sm_v
), sm_target_median_bucketed AS (
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
      CAST(sm_v AS Nullable(Float64)) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(sm_v AS Nullable(Float64))) >= 2.2250738585072014e-308
          AND ABS(CAST(sm_v AS Nullable(Float64))) < CAST('inf' AS Nullable(Float64))
        )
        THEN NULL
        WHEN ABS(CAST(sm_v AS Nullable(Float64))) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(sm_v AS Nullable(Float64)))) / LN(2)
        ))
      END AS Nullable(Float64)) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_target_median_values
      WHERE
        sm_w_v > 0
    ) AS sm_valued
  ) AS sm_exponents
), sm_target_median_bucket AS (
  SELECT
    "country",
    sm_bucket,
    sm_before,
    sm_total,
    sm_next_first
  FROM (
    SELECT
      "country",
      sm_bucket,
      sm_through,
      sm_total,
      COALESCE(lag(sm_through) OVER (PARTITION BY "country" ORDER BY sm_bucket), 0) AS sm_before,
      MIN(CASE WHEN sm_w_b > 0 THEN sm_first END) OVER (PARTITION BY "country" ORDER BY sm_bucket ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING) AS sm_next_first
    FROM (
      SELECT
        "country",
        sm_bucket,
        sm_w_b,
        sm_first,
        SUM(sm_w_b) OVER (
          PARTITION BY "country"
          ORDER BY sm_bucket
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_through,
        SUM(sm_w_b) OVER (PARTITION BY "country") AS sm_total
      FROM (
        SELECT
          "country",
          sm_bucket,
          SUM(sm_w_v) AS sm_w_b,
          MIN(sm_v) AS sm_first
        FROM sm_target_median_bucketed
        GROUP BY
          "country",
          "sm_bucket"
      ) AS sm_per_bucket
    ) AS sm_running
  ) AS sm_buckets
  WHERE
    sm_through >= 0.5 * sm_total AND sm_before < 0.5 * sm_total
), sm_target_median_candidates AS (
  SELECT
    "country",
    CASE
      WHEN sm_run >= 0.5 * sm_total OR sm_next IS NULL
      THEN CASE
        WHEN sm_run - 0.5 * sm_total > 2.220446049250313e-16
        THEN sm_v
        ELSE (
          sm_v + COALESCE(COALESCE(sm_next, sm_next_first), sm_v)
        ) / 2
      END
    END AS sm_candidate
  FROM (
    SELECT
      "country",
      sm_v,
      sm_total,
      sm_next_first,
      sm_before + SUM(sm_w_v) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_v
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_run,
      MIN(CASE WHEN sm_w_v > 0 THEN sm_v END) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_v
        ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING
      ) AS sm_next
    FROM (
      SELECT
        sm_in."country" AS "country",
        sm_in.sm_bucket AS sm_bucket,
        sm_in.sm_v AS sm_v,
        sm_in.sm_w_v AS sm_w_v,
        sm_at.sm_before AS sm_before,
        sm_at.sm_total AS sm_total,
        sm_at.sm_next_first AS sm_next_first
      FROM sm_target_median_bucketed AS sm_in
      JOIN sm_target_median_bucket AS sm_at
        ON sm_in.sm_bucket = sm_at.sm_bucket
        AND (
          sm_in."country" IS NOT DISTINCT FROM sm_at."country"
        )
    ) AS sm_median_bucket
  ) AS sm_running_in_bucket
), sm_target_median AS (
  SELECT
    "country",
    MIN(sm_candidate) AS sm_median,
    SUM(sm_n_c) AS sm_n
  FROM (
    SELECT
      "country",
      CAST(NULL AS Nullable(Float64)) AS sm_candidate,
      CAST(sm_n_v AS Nullable(Int64)) AS sm_n_c
    FROM sm_target_median_values
    UNION ALL
    SELECT
      "country",
      sm_candidate,
      CAST(0 AS Nullable(Int64)) AS sm_n_c
    FROM sm_target_median_candidates
  ) AS sm_slice_parts
  GROUP BY
    "country"
), sm_target_median_spread AS (
  SELECT
    sm_slices.*,
    sm_keys.sm_part AS sm_part
  FROM sm_target_median AS sm_slices
  JOIN (
    SELECT DISTINCT
      "country",
      sm_part
    FROM (
      SELECT
        sm_parted.*,
        CAST(cityHash64(tuple("sm_t", "sm_p")) % 2147483647 AS Int64) % 1024 AS sm_part
      FROM (
        SELECT
          "country",
          CAST("revenue" AS Nullable(Float64)) AS sm_t,
          CAST("predicted_revenue" AS Nullable(Float64)) AS sm_p,
          CAST("impressions" AS Nullable(Float64)) AS sm_w
        FROM analytics.preds
      ) AS sm_parted
    ) AS sm_keyed
  ) AS sm_keys
    ON (
      sm_slices."country" IS NOT DISTINCT FROM sm_keys."country"
    )
)
SELECT
  "country",
  CASE
    WHEN n < 2 OR NOT sm_weight > 0
    THEN NULL
    WHEN sm_loss = 0
    THEN 1.0
    WHEN sm_spread = 0
    THEN 0.0
    ELSE 1 - (
      CAST(sm_loss AS Nullable(Float64)) / nullIf(CAST(sm_spread AS Nullable(Float64)), 0)
    )
  END AS d2_absolute_error,
  n
FROM (
  SELECT
    sm_rows."country" AS "country",
    SUM(sm_rows.sm_w * ABS(sm_rows.sm_t - sm_rows.sm_p)) AS sm_loss,
    SUM(sm_rows.sm_w * ABS(sm_rows.sm_t - sm_target_median.sm_median)) AS sm_spread,
    SUM(sm_rows.sm_w) AS sm_weight,
    COUNT(*) AS n
  FROM (
    SELECT
      sm_parted.*,
      CAST(cityHash64(tuple("sm_t", "sm_p")) % 2147483647 AS Int64) % 1024 AS sm_part
    FROM (
      SELECT
        "country",
        CAST("revenue" AS Nullable(Float64)) AS sm_t,
        CAST("predicted_revenue" AS Nullable(Float64)) AS sm_p,
        CAST("impressions" AS Nullable(Float64)) AS sm_w
      FROM analytics.preds
    ) AS sm_parted
  ) AS sm_rows
  JOIN sm_target_median_spread AS sm_target_median
    ON sm_rows."sm_part" = sm_target_median."sm_part"
    AND (
      sm_rows."country" IS NOT DISTINCT FROM sm_target_median."country"
    )
  GROUP BY
    sm_rows."country"
) AS sm_sums
