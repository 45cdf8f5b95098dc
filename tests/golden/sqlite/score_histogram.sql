SELECT
  "country",
  sm_bucket AS bucket,
  CAST(0.0 AS REAL) + CAST(sm_bucket * (
    CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
  ) AS REAL) / 1000 AS low,
  CAST(0.0 AS REAL) + CAST((
    sm_bucket + 1
  ) * (
    CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
  ) AS REAL) / 1000 AS high,
  CAST(COUNT(*) AS INTEGER) AS n,
  CAST(SUM(CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END) AS INTEGER) AS n_pos,
  SUM(CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END * CAST("impressions" AS REAL)) AS w_pos,
  SUM(
    (
      1 - CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END
    ) * CAST("impressions" AS REAL)
  ) AS w_neg
FROM (
  SELECT
    sm_input.*,
    CAST(CASE
      WHEN CAST("pctr" AS REAL) < CAST(0.0 AS REAL)
      THEN 0
      WHEN CAST("pctr" AS REAL) >= CAST(1.0 AS REAL)
      OR FLOOR(
        CAST((
          CAST("pctr" AS REAL) - CAST(0.0 AS REAL)
        ) AS REAL) / (
          CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
        ) * 1000
      ) >= 1000
      THEN 999
      ELSE FLOOR(
        CAST((
          CAST("pctr" AS REAL) - CAST(0.0 AS REAL)
        ) AS REAL) / (
          CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
        ) * 1000
      )
    END AS INTEGER) AS sm_bucket
  FROM analytics.preds AS sm_input
) AS sm_bucketed
GROUP BY
  "country",
  sm_bucket
ORDER BY
  "country" NULLS LAST,
  sm_bucket NULLS LAST
