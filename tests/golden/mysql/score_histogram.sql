SELECT
  `country`,
  sm_bucket AS bucket,
  CAST(0.0 AS DOUBLE) + sm_bucket * (
    CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
  ) / 1000 AS low,
  CAST(0.0 AS DOUBLE) + (
    sm_bucket + 1
  ) * (
    CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
  ) / 1000 AS high,
  CAST(COUNT(*) AS SIGNED) AS n,
  CAST(SUM(CASE WHEN `clicked` = 1 THEN 1 ELSE 0 END) AS SIGNED) AS n_pos,
  SUM(CASE WHEN `clicked` = 1 THEN 1 ELSE 0 END * CAST(`impressions` AS DOUBLE)) AS w_pos,
  SUM(
    (
      1 - CASE WHEN `clicked` = 1 THEN 1 ELSE 0 END
    ) * CAST(`impressions` AS DOUBLE)
  ) AS w_neg
FROM (
  SELECT
    sm_input.*,
    CAST(CASE
      WHEN CAST(`pctr` AS DOUBLE) < CAST(0.0 AS DOUBLE)
      THEN 0
      WHEN CAST(`pctr` AS DOUBLE) >= CAST(1.0 AS DOUBLE)
      OR FLOOR(
        (
          CAST(`pctr` AS DOUBLE) - CAST(0.0 AS DOUBLE)
        ) / (
          CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
        ) * 1000
      ) >= 1000
      THEN 999
      ELSE FLOOR(
        (
          CAST(`pctr` AS DOUBLE) - CAST(0.0 AS DOUBLE)
        ) / (
          CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
        ) * 1000
      )
    END AS SIGNED) AS sm_bucket
  FROM analytics.preds AS sm_input
) AS sm_bucketed
GROUP BY
  `country`,
  sm_bucket
ORDER BY
  CASE WHEN `country` IS NULL THEN 1 ELSE 0 END, `country`,
  CASE WHEN sm_bucket IS NULL THEN 1 ELSE 0 END, sm_bucket
