SELECT
  "country",
  sm_loss / nullIf(sm_weight, 0) AS mse,
  n
FROM (
  SELECT
    "country",
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
      "country",
      CAST("revenue" AS Nullable(Float64)) AS sm_t,
      CAST("predicted_revenue" AS Nullable(Float64)) AS sm_p,
      CAST("impressions" AS Nullable(Float64)) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "country"
) AS sm_sums
