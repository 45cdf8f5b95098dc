SELECT
  "country",
  CASE
    WHEN n < 2 OR sm_weight = 0
    THEN NULL
    WHEN sm_constant = 1
    THEN CASE WHEN sm_residual = 0 THEN 1.0 ELSE 0.0 END
    ELSE 1 - CAST(sm_residual AS DOUBLE PRECISION) / sm_total
  END AS r2,
  n
FROM (
  SELECT
    "country",
    SUM(sm_w * (
      sm_t - sm_p
    ) * (
      sm_t - sm_p
    )) AS sm_residual,
    SUM(sm_w * (
      sm_t - sm_mean
    ) * (
      sm_t - sm_mean
    )) AS sm_total,
    SUM(sm_w) AS sm_weight,
    CASE
      WHEN MIN(CASE WHEN sm_w > 0 THEN sm_t END) = MAX(CASE WHEN sm_w > 0 THEN sm_t END)
      THEN 1
      ELSE 0
    END AS sm_constant,
    COUNT(*) AS n
  FROM (
    SELECT
      sm_rows.*,
      CAST(SUM(sm_w * sm_t) OVER (PARTITION BY "country") AS DOUBLE PRECISION) / NULLIF(SUM(sm_w) OVER (PARTITION BY "country"), 0) AS sm_mean
    FROM (
      SELECT
        "country",
        CAST("revenue" AS DOUBLE PRECISION) AS sm_t,
        CAST("predicted_revenue" AS DOUBLE PRECISION) AS sm_p,
        CAST("impressions" AS DOUBLE PRECISION) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
  ) AS sm_centered
  GROUP BY
    "country"
) AS sm_sums
