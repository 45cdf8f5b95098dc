WITH sm_rows AS (
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
), sm_binned AS (
  SELECT
    `country`,
    sm_p,
    sm_y,
    sm_w,
    CASE WHEN sm_k >= 1 THEN sm_k - 1 ELSE 0 END + CASE
      WHEN sm_k >= 1
      AND sm_k <= 4
      AND CAST(sm_k AS DOUBLE) * (
        CAST(1 AS DOUBLE) / CAST(5 AS DOUBLE)
      ) < sm_p
      THEN 1
      ELSE 0
    END + CASE
      WHEN sm_k + 1 <= 4
      AND CAST(sm_k + 1 AS DOUBLE) * (
        CAST(1 AS DOUBLE) / CAST(5 AS DOUBLE)
      ) < sm_p
      THEN 1
      ELSE 0
    END AS sm_bin
  FROM (
    SELECT
      `country`,
      sm_p,
      sm_y,
      sm_w,
      CAST(FLOOR(sm_p * 5) AS SIGNED) AS sm_k
    FROM sm_rows
  ) AS sm_candidates
), sm_bins AS (
  SELECT
    `country`,
    CAST(sm_bin AS SIGNED) AS sm_bin,
    COUNT(*) AS sm_rows,
    SUM(sm_w) AS sm_weight,
    SUM(sm_w * sm_p) AS sm_wp,
    SUM(sm_w * sm_y) AS sm_wy
  FROM sm_binned
  GROUP BY
    `country`,
    sm_bin
)
SELECT
  `country`,
  sm_bin AS bin,
  (
    CAST(sm_wp AS DOUBLE) / NULLIF(CAST(sm_weight AS DOUBLE), 0)
  ) AS mean_predicted,
  (
    CAST(sm_wy AS DOUBLE) / NULLIF(CAST(sm_weight AS DOUBLE), 0)
  ) AS fraction_positive,
  sm_weight AS n
FROM sm_bins
WHERE
  sm_weight > 0
ORDER BY
  CASE WHEN `country` IS NULL THEN 1 ELSE 0 END, `country`,
  CASE WHEN sm_bin IS NULL THEN 1 ELSE 0 END, sm_bin
