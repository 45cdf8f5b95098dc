SELECT
  "COUNTRY",
  (
    CAST(sm_loss AS DOUBLE) / NULLIF(CAST(sm_weight AS DOUBLE), 0)
  ) AS mape,
  n
FROM (
  SELECT
    "COUNTRY",
    SUM(
      sm_w * (
        (
          CAST(ABS(sm_t - sm_p) AS DOUBLE) / NULLIF(
            CAST(CASE
              WHEN ABS(sm_t) > CAST(2.220446049250313e-16 AS DOUBLE)
              THEN ABS(sm_t)
              ELSE CAST(2.220446049250313e-16 AS DOUBLE)
            END AS DOUBLE),
            0
          )
        )
      )
    ) AS sm_loss,
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
