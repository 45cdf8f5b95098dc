WITH sm_at AS (
  SELECT
    `country`,
    threshold,
    SUM(sm_t * sm_w) AS sm_wt,
    SUM((
      1 - sm_t
    ) * sm_w) AS sm_wc,
    SUM(sm_y * sm_t * sm_w) AS sm_yt,
    SUM(sm_y * (
      1 - sm_t
    ) * sm_w) AS sm_yc
  FROM (
    SELECT
      `country`,
      `pctr` AS threshold,
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
      CASE
        WHEN `treated` = 1
        THEN 1
        WHEN `treated` = 0
        THEN 0
        ELSE CASE
          WHEN COALESCE(NOT (
            `treated` = 1 OR `treated` = 0
          ), TRUE)
          THEN JSON_EXTRACT(
            '{}',
            CONCAT(
              'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ',
              COALESCE(CAST(`treated` AS CHAR), 'NULL')
            )
          )
        END
      END AS sm_t,
      CAST(1 AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    `country`,
    threshold
), sm_points AS (
  SELECT
    `country`,
    threshold,
    sm_wt,
    SUM(sm_wt) OVER (
      PARTITION BY `country`
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_wt_run,
    SUM(sm_wt) OVER (PARTITION BY `country`) AS sm_wt_all,
    sm_wc,
    SUM(sm_wc) OVER (
      PARTITION BY `country`
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_wc_run,
    SUM(sm_wc) OVER (PARTITION BY `country`) AS sm_wc_all,
    sm_yt,
    SUM(sm_yt) OVER (
      PARTITION BY `country`
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_yt_run,
    SUM(sm_yt) OVER (PARTITION BY `country`) AS sm_yt_all,
    sm_yc,
    SUM(sm_yc) OVER (
      PARTITION BY `country`
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_yc_run,
    SUM(sm_yc) OVER (PARTITION BY `country`) AS sm_yc_all
  FROM sm_at
), sm_top AS (
  SELECT
    `country`,
    CASE
      WHEN sm_wt_run + sm_wc_run <= sm_cut
      THEN 1.0
      WHEN sm_wt_run + sm_wc_run - sm_wt - sm_wc >= sm_cut
      THEN 0.0
      ELSE (
        CAST(sm_cut - (
          sm_wt_run + sm_wc_run - sm_wt - sm_wc
        ) AS DOUBLE) / NULLIF(CAST(sm_wt + sm_wc AS DOUBLE), 0)
      )
    END AS sm_in,
    sm_wt,
    sm_wc,
    sm_yt,
    sm_yc,
    sm_cut,
    sm_wt_all + sm_wc_all AS sm_n_all
  FROM (
    SELECT
      sm_points.*,
      FLOOR(CAST(sm_wt_all + sm_wc_all AS DOUBLE) * CAST(0.3 AS DOUBLE)) AS sm_cut
    FROM sm_points
  ) AS sm_cut_points
)
SELECT
  `country`,
  (
    CAST(SUM(sm_in * sm_yt) AS DOUBLE) / NULLIF(CAST(SUM(sm_in * sm_wt) AS DOUBLE), 0)
  ) - (
    CAST(SUM(sm_in * sm_yc) AS DOUBLE) / NULLIF(CAST(SUM(sm_in * sm_wc) AS DOUBLE), 0)
  ) AS uplift_at_k,
  (
    CAST(SUM(sm_in * sm_yt) AS DOUBLE) / NULLIF(CAST(SUM(sm_in * sm_wt) AS DOUBLE), 0)
  ) AS treatment_rate,
  (
    CAST(SUM(sm_in * sm_yc) AS DOUBLE) / NULLIF(CAST(SUM(sm_in * sm_wc) AS DOUBLE), 0)
  ) AS control_rate,
  CAST(ROUND(SUM(sm_in * (
    sm_wt + sm_wc
  ))) AS SIGNED) AS n_top,
  CAST(SUM(sm_wt + sm_wc) AS SIGNED) AS n
FROM sm_top
GROUP BY
  `country`
