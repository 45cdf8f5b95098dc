SELECT
  "country",
  (
    CAST(sm_loss AS DOUBLE PRECISION) / NULLIF(CAST(sm_weight AS DOUBLE PRECISION), 0)
  ) AS mape,
  n
FROM (
  SELECT
    "country",
    SUM(
      sm_w * (
        (
          CAST(ABS(sm_t - sm_p) AS DOUBLE PRECISION) / NULLIF(
            CAST(CASE
              WHEN ABS(sm_t) > CAST(2.220446049250313e-16 AS DOUBLE PRECISION)
              THEN ABS(sm_t)
              ELSE CAST(2.220446049250313e-16 AS DOUBLE PRECISION)
            END AS DOUBLE PRECISION),
            0
          )
        )
      )
    ) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    COUNT(*) AS n
  FROM (
    SELECT
      "country",
      CAST("revenue" AS DOUBLE PRECISION) AS sm_t,
      CAST("predicted_revenue" AS DOUBLE PRECISION) AS sm_p,
      CAST("impressions" AS DOUBLE PRECISION) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "country"
) AS sm_sums
