SELECT
  `country`,
  sm_bucket AS bucket,
  CAST(0.0 AS FLOAT64) + sm_bucket * (
    CAST(1.0 AS FLOAT64) - CAST(0.0 AS FLOAT64)
  ) / 1000 AS low,
  CAST(0.0 AS FLOAT64) + (
    sm_bucket + 1
  ) * (
    CAST(1.0 AS FLOAT64) - CAST(0.0 AS FLOAT64)
  ) / 1000 AS high,
  CAST(SUM(sm_rows) AS INT64) AS n,
  CAST(SUM(sm_pos * sm_rows) AS INT64) AS n_pos,
  CAST(SUM(sm_pos * sm_weight) AS FLOAT64) AS w_pos,
  CAST(SUM((
    1 - sm_pos
  ) * sm_weight) AS FLOAT64) AS w_neg
FROM (
  SELECT
    `country`,
    sm_bucket,
    sm_rows,
    sm_weight,
    CASE
      WHEN `clicked` = 1
      THEN 1
      WHEN `clicked` = 0
      THEN 0
      ELSE CASE
        WHEN COALESCE(NOT (
          `clicked` = 1 OR `clicked` = 0
        ), TRUE)
        THEN ERROR(
          'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST(`clicked` AS STRING), 'NULL')
        )
      END
    END AS sm_pos
  FROM (
    SELECT
      `country`,
      `clicked`,
      sm_bucket,
      COUNT(*) AS sm_rows,
      SUM(sm_w) AS sm_weight
    FROM (
      SELECT
        `country`,
        `clicked`,
        CAST(`impressions` AS FLOAT64) AS sm_w,
        CAST(CASE
          WHEN CAST(`pctr` AS FLOAT64) < CAST(0.0 AS FLOAT64)
          THEN 0
          WHEN CAST(`pctr` AS FLOAT64) >= CAST(1.0 AS FLOAT64)
          OR FLOOR(
            (
              CAST(`pctr` AS FLOAT64) - CAST(0.0 AS FLOAT64)
            ) / (
              CAST(1.0 AS FLOAT64) - CAST(0.0 AS FLOAT64)
            ) * 1000
          ) >= 1000
          THEN 999
          ELSE FLOOR(
            (
              CAST(`pctr` AS FLOAT64) - CAST(0.0 AS FLOAT64)
            ) / (
              CAST(1.0 AS FLOAT64) - CAST(0.0 AS FLOAT64)
            ) * 1000
          )
        END AS INT64) AS sm_bucket
      FROM analytics.preds
    ) AS sm_bucketed
    GROUP BY
      `country`,
      `clicked`,
      sm_bucket
  ) AS sm_labelled
) AS sm_by_label
GROUP BY
  `country`,
  bucket
ORDER BY
  `country` NULLS LAST,
  sm_bucket NULLS LAST
