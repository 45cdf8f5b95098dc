SELECT
  `country`,
  sm_loss / NULLIF(sm_pos_weight, 0) AS calibration,
  n,
  n_pos,
  n_neg
FROM (
  SELECT
    `country`,
    SUM(sm_w * (
      sm_p
    )) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    SUM(sm_w * sm_y) AS sm_pos_weight,
    COUNT(*) AS n,
    CAST(COALESCE(SUM(sm_y), 0) AS SIGNED) AS n_pos,
    CAST(COUNT(*) - COALESCE(SUM(sm_y), 0) AS SIGNED) AS n_neg
  FROM (
    SELECT
      `country`,
      CASE
        WHEN NOT (
          `pctr` IS NULL
        )
        THEN CAST(`pctr` AS DOUBLE)
        ELSE CAST(CASE
          WHEN COALESCE(`pctr` IS NULL, TRUE)
          THEN JSON_EXTRACT(
            '{}',
            CONCAT(
              'sqlmetrics: a probability must be a number; found ',
              COALESCE(CAST(`pctr` AS CHAR), 'NULL')
            )
          )
        END AS DOUBLE)
      END AS sm_p,
      CASE
        WHEN `clicked` = 1
        THEN 1
        WHEN `clicked` = 0
        THEN 0
        ELSE CASE
          WHEN COALESCE(NOT (
            `clicked` = 1 OR `clicked` = 0
          ), TRUE)
          THEN JSON_EXTRACT(
            '{}',
            CONCAT(
              'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ',
              COALESCE(CAST(`clicked` AS CHAR), 'NULL')
            )
          )
        END
      END AS sm_y,
      CAST(`impressions` AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    `country`
) AS sm_sums
