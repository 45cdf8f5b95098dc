SELECT
  "country",
  SQRT(mse) AS rmse,
  n
FROM (
  SELECT
    "country",
    sm_loss / NULLIF(sm_weight, 0) AS mse,
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
        CAST("revenue" AS DOUBLE) AS sm_t,
        CAST("predicted_revenue" AS DOUBLE) AS sm_p,
        CAST("impressions" AS DOUBLE) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      "country"
  ) AS sm_sums
) AS sm_mse
