SELECT
  `country`,
  (
    CAST(sm_loss AS FLOAT64) / NULLIF(CAST(sm_weight AS FLOAT64), 0)
  ) AS mape,
  n
FROM (
  SELECT
    `country`,
    SUM(
      sm_w * (
        (
          CAST(ABS(sm_t - sm_p) AS FLOAT64) / NULLIF(
            CAST(CASE
              WHEN ABS(sm_t) > CAST(2.220446049250313e-16 AS FLOAT64)
              THEN ABS(sm_t)
              ELSE CAST(2.220446049250313e-16 AS FLOAT64)
            END AS FLOAT64),
            0
          )
        )
      )
    ) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    COUNT(*) AS n
  FROM (
    SELECT
      `country`,
      CAST(`revenue` AS FLOAT64) AS sm_t,
      CAST(`predicted_revenue` AS FLOAT64) AS sm_p,
      CAST(`impressions` AS FLOAT64) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    `country`
) AS sm_sums
