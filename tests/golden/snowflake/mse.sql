SELECT
  "COUNTRY",
  sm_loss / NULLIF(sm_weight, 0) AS mse,
  n
FROM (
  SELECT
    "COUNTRY",
    SUM(sm_w * (
      (
        sm_t - sm_p
      ) * (
        sm_t - sm_p
      )
    )) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    COUNT(*) AS n
  FROM (
    SELECT
      "COUNTRY",
      CAST("REVENUE" AS DOUBLE) AS sm_t,
      CAST("PREDICTED_REVENUE" AS DOUBLE) AS sm_p,
      CAST("IMPRESSIONS" AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "COUNTRY"
) AS sm_sums
