SELECT
  "COUNTRY",
  CASE
    WHEN n < 2 OR sm_weight = 0
    THEN NULL
    WHEN sm_constant = 1
    THEN CASE WHEN sm_residual = 0 THEN 1.0 ELSE 0.0 END
    ELSE 1 - sm_residual / sm_total
  END AS r2,
  n
FROM (
  SELECT
    "COUNTRY",
    SUM(sm_res_b) AS sm_residual,
    SUM(
      sm_m2_b + CASE
        WHEN sm_w_b > 0
        THEN sm_w_b * (
          sm_centre_b - sm_mean
        ) * (
          sm_centre_b - sm_mean
        )
        ELSE 0
      END
    ) AS sm_total,
    SUM(sm_w_b) AS sm_weight,
    CASE WHEN MIN(sm_low_b) = MAX(sm_high_b) THEN 1 ELSE 0 END AS sm_constant,
    SUM(sm_n_b) AS n
  FROM (
    SELECT
      sm_buckets.*,
      SUM(sm_s_b) OVER (PARTITION BY "COUNTRY") / NULLIF(SUM(sm_w_b) OVER (PARTITION BY "COUNTRY"), 0) AS sm_mean
    FROM (
      SELECT
        "COUNTRY",
        "SM_BUCKET",
        SUM(sm_res_t) AS sm_res_b,
        SUM(sm_w_t * (
          sm_t - sm_mean_b
        ) * (
          sm_t - sm_mean_b
        )) AS sm_m2_b,
        SUM(sm_w_t) AS sm_w_b,
        SUM(sm_w_t * sm_t) AS sm_s_b,
        MAX(sm_mean_b) AS sm_centre_b,
        MIN(CASE WHEN sm_w_t > 0 THEN sm_t END) AS sm_low_b,
        MAX(CASE WHEN sm_w_t > 0 THEN sm_t END) AS sm_high_b,
        SUM(sm_n_t) AS sm_n_b
      FROM (
        SELECT
          sm_bucketed.*,
          SUM(sm_w_t * sm_t) OVER (PARTITION BY "COUNTRY", "SM_BUCKET") / NULLIF(SUM(sm_w_t) OVER (PARTITION BY "COUNTRY", "SM_BUCKET"), 0) AS sm_mean_b
        FROM (
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
              CAST(sm_t AS DOUBLE) AS sm_x,
              CAST(CASE
                WHEN NOT (
                  ABS(CAST(sm_t AS DOUBLE)) >= 2.2250738585072014e-308
                  AND ABS(CAST(sm_t AS DOUBLE)) < CAST('inf' AS DOUBLE)
                )
                THEN NULL
                WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
                THEN 1023
                ELSE FLOOR((
                  LN(ABS(CAST(sm_t AS DOUBLE))) / LN(2)
                ))
              END AS DOUBLE) AS sm_e
            FROM (
              SELECT
                "COUNTRY",
                sm_t,
                SUM(sm_w * (
                  sm_t - sm_p
                ) * (
                  sm_t - sm_p
                )) AS sm_res_t,
                SUM(sm_w) AS sm_w_t,
                COUNT(*) AS sm_n_t
              FROM (
                SELECT
                  "COUNTRY",
                  CAST("REVENUE" AS DOUBLE) AS sm_t,
                  CAST("PREDICTED_REVENUE" AS DOUBLE) AS sm_p,
                  CAST("IMPRESSIONS" AS DOUBLE) AS sm_w
                FROM analytics.preds
              ) AS sm_rows
              GROUP BY
                "COUNTRY",
                sm_t
            ) AS sm_valued
          ) AS sm_exponents
        ) AS sm_bucketed
      ) AS sm_centered
      GROUP BY
        "COUNTRY",
        "SM_BUCKET"
    ) AS sm_buckets
  ) AS sm_combined
  GROUP BY
    "COUNTRY"
) AS sm_sums
