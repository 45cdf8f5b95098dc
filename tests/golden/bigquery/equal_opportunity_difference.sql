SELECT
  `country`,
  CASE
    WHEN COUNT(*) >= 2
    THEN CASE WHEN COUNT(sm_tpr) = COUNT(*) THEN MAX(sm_tpr) - MIN(sm_tpr) END
  END AS `equal_opportunity_difference`,
  MIN(sm_tpr) AS group_min,
  MAX(sm_tpr) AS group_max,
  MAX(sm_tpr_all) AS overall,
  CAST(COUNT(*) AS INT64) AS n_groups,
  CAST(SUM(n) AS INT64) AS n
FROM (
  SELECT
    sm_counts.*,
    (
      CAST(tp AS FLOAT64) / NULLIF(CAST(tp + fn AS FLOAT64), 0)
    ) AS sm_tpr,
    (
      CAST(SUM(tp) OVER (PARTITION BY `country`) AS FLOAT64) / NULLIF(CAST(SUM(tp + fn) OVER (PARTITION BY `country`) AS FLOAT64), 0)
    ) AS sm_tpr_all
  FROM (
    SELECT
      `country`,
      `g`,
      COALESCE(SUM(sm_w * sm_y * sm_hat), 0) AS tp,
      COALESCE(SUM(sm_w * (
        1 - sm_y
      ) * sm_hat), 0) AS fp,
      COALESCE(SUM(sm_w * (
        1 - sm_y
      ) * (
        1 - sm_hat
      )), 0) AS tn,
      COALESCE(SUM(sm_w * sm_y * (
        1 - sm_hat
      )), 0) AS fn,
      COUNT(*) AS n
    FROM (
      SELECT
        `country`,
        `g`,
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
        END AS sm_y,
        CASE
          WHEN `pctr` >= CAST(0.5 AS FLOAT64)
          THEN 1
          WHEN `pctr` < CAST(0.5 AS FLOAT64)
          THEN 0
          ELSE CASE
            WHEN COALESCE(NOT (
              `pctr` >= CAST(0.5 AS FLOAT64) OR `pctr` < CAST(0.5 AS FLOAT64)
            ), TRUE)
            THEN ERROR(
              'sqlmetrics: a score must be a number; found ' || COALESCE(CAST(`pctr` AS STRING), 'NULL')
            )
          END
        END AS sm_hat,
        CAST(`impressions` AS FLOAT64) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      `country`,
      `g`
  ) AS sm_counts
) AS sm_groups
GROUP BY
  `country`
