WITH sm_rows AS (
  SELECT
    "country",
    "pctr" AS threshold,
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
    END AS sm_t
  FROM analytics.preds
), sm_ties AS (
  SELECT
    "country",
    "threshold",
    COUNT(*) AS sm_n,
    SUM(sm_t) AS sm_treated
  FROM sm_rows
  GROUP BY
    "country",
    "threshold"
), sm_order_bucketed AS (
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
      FROM sm_ties
    ) AS sm_valued
  ) AS sm_exponents
), sm_order_offsets AS (
  SELECT
    "country",
    "sm_bucket",
    SUM(sm_bucket_sm_n) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_n,
    SUM(sm_bucket_sm_n) OVER (PARTITION BY "country") AS sm_total_sm_n,
    SUM(sm_bucket_sm_treated) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_treated,
    SUM(sm_bucket_sm_treated) OVER (PARTITION BY "country") AS sm_total_sm_treated
  FROM (
    SELECT
      "country",
      "sm_bucket",
      SUM(sm_n) AS sm_bucket_sm_n,
      SUM(sm_treated) AS sm_bucket_sm_treated
    FROM sm_order_bucketed
    GROUP BY
      "country",
      "sm_bucket"
  ) AS sm_per_bucket
), sm_order AS (
  SELECT
    "country",
    "sm_bucket",
    threshold,
    sm_n,
    sm_n_run,
    sm_n_all,
    sm_treated,
    sm_treated_run,
    sm_treated_all
  FROM (
    SELECT
      "country",
      "sm_bucket",
      sm_kind,
      threshold,
      sm_n,
      SUM(sm_add_sm_n) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_n_run,
      MAX(sm_slice_sm_n) OVER (PARTITION BY "country", "sm_bucket") AS sm_n_all,
      sm_treated,
      SUM(sm_add_sm_treated) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_treated_run,
      MAX(sm_slice_sm_treated) OVER (PARTITION BY "country", "sm_bucket") AS sm_treated_all
    FROM (
      SELECT
        "country",
        "sm_bucket",
        0 AS sm_kind,
        threshold,
        sm_n,
        sm_n AS sm_add_sm_n,
        NULL AS sm_slice_sm_n,
        sm_treated,
        sm_treated AS sm_add_sm_treated,
        NULL AS sm_slice_sm_treated
      FROM sm_order_bucketed
      UNION ALL
      SELECT
        "country",
        "sm_bucket",
        1 AS sm_kind,
        NULL AS threshold,
        NULL AS sm_n,
        sm_before_sm_n AS sm_add_sm_n,
        sm_total_sm_n AS sm_slice_sm_n,
        NULL AS sm_treated,
        sm_before_sm_treated AS sm_add_sm_treated,
        sm_total_sm_treated AS sm_slice_sm_treated
      FROM sm_order_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_positions AS (
  SELECT
    sm_o."country" AS "country",
    sm_o.sm_n_all AS sm_rows_all,
    sm_o.sm_n_run - sm_o.sm_n + sm_r.sm_k AS sm_p,
    sm_o.sm_treated_run - sm_o.sm_treated + sm_r.sm_k * (
      CAST(sm_o.sm_treated AS DOUBLE) / NULLIF(CAST(sm_o.sm_n AS DOUBLE), 0)
    ) AS sm_c
  FROM (
    SELECT
      "country",
      "threshold",
      ROW_NUMBER() OVER (PARTITION BY "country", "threshold" ORDER BY sm_t) AS sm_k
    FROM sm_rows
  ) AS sm_r
  JOIN sm_order AS sm_o
    ON (
      sm_r."country" IS NOT DISTINCT FROM sm_o."country"
    )
    AND sm_r.threshold = sm_o.threshold
)
SELECT
  sm_end."country" AS "country",
  CASE
    WHEN sm_end.sm_rows_all = 50
    THEN 1.0
    ELSE 1 + (
      sm_end.sm_p - 50
    ) * (
      CAST(99.0 AS DOUBLE) / NULLIF(CAST(sm_end.sm_rows_all - 50 AS DOUBLE), 0)
    )
  END AS idx,
  (
    sm_end.sm_c - COALESCE(sm_start.sm_c, 0)
  ) / CAST(50 AS DOUBLE) AS balance
FROM sm_positions AS sm_end
LEFT JOIN sm_positions AS sm_start
  ON (
    sm_end."country" IS NOT DISTINCT FROM sm_start."country"
  )
  AND sm_start.sm_p = sm_end.sm_p - 50
WHERE
  sm_end.sm_p >= 50
ORDER BY
  "country",
  idx
