WITH sm_error_median_values AS (
  SELECT
    "country",
    sm_v,
    SUM(sm_w) AS sm_w_v,
    COUNT(*) AS sm_n_v
  FROM (
    SELECT
      "country",
      ABS(sm_t - sm_p) AS sm_v,
      sm_w
    FROM (
      SELECT
        "country",
        CAST("revenue" AS DOUBLE) AS sm_t,
        CAST("predicted_revenue" AS DOUBLE) AS sm_p,
        CAST("impressions" AS DOUBLE) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
  ) AS sm_median_rows
  GROUP BY
    "country",
    sm_v
), sm_error_median_candidates AS (
  SELECT
    "country",
    CASE
      WHEN sm_run >= 0.5 * sm_total
      THEN CASE
        WHEN sm_run - 0.5 * sm_total > 2.220446049250313e-16
        THEN sm_v
        ELSE (
          sm_v + COALESCE(sm_next, sm_v)
        ) / 2
      END
    END AS sm_candidate
  FROM (
    SELECT
      "country",
      sm_v,
      SUM(sm_w_v) OVER (
        PARTITION BY "country"
        ORDER BY sm_v ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_run,
      SUM(sm_w_v) OVER (PARTITION BY "country") AS sm_total,
      MIN(CASE WHEN sm_w_v > 0 THEN sm_v END) OVER (PARTITION BY "country" ORDER BY sm_v ASC ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING) AS sm_next
    FROM sm_error_median_values
    WHERE
      sm_w_v > 0
  ) AS sm_running
), sm_error_median AS (
  SELECT
    "country",
    MIN(sm_candidate) AS sm_median,
    SUM(sm_n_c) AS sm_n
  FROM (
    SELECT
      "country",
      CAST(NULL AS DOUBLE) AS sm_candidate,
      CAST(sm_n_v AS BIGINT) AS sm_n_c
    FROM sm_error_median_values
    UNION ALL
    SELECT
      "country",
      sm_candidate,
      CAST(0 AS BIGINT) AS sm_n_c
    FROM sm_error_median_candidates
  ) AS sm_slice_parts
  GROUP BY
    "country"
)
SELECT
  "country",
  sm_median AS median_absolute_error,
  sm_n AS n
FROM sm_error_median
