SELECT
  `country`,
  1 - (
    CAST(sm_s * sm_observed AS DOUBLE) / NULLIF(CAST(sm_expected AS DOUBLE), 0)
  ) AS cohen_kappa,
  sm_n_rows AS n
FROM (
  SELECT
    `country`,
    SUM(CASE WHEN sm_side = 0 AND NOT (
      sm_true = sm_pred
    ) THEN sm_w ELSE 0 END) AS sm_observed,
    SUM(CASE WHEN sm_side = 0 THEN sm_w ELSE 0 END) * SUM(CASE WHEN sm_side = 0 THEN sm_w ELSE 0 END) - SUM(CASE WHEN sm_side = 0 THEN sm_w * sm_p ELSE 0 END) AS sm_expected,
    SUM(CASE WHEN sm_side = 0 THEN sm_w ELSE 0 END) AS sm_s,
    SUM(CASE WHEN sm_side = 0 THEN sm_rows ELSE 0 END) AS sm_n_rows
  FROM (
    SELECT
      `country`,
      sm_side,
      sm_true,
      sm_pred,
      sm_w,
      sm_rows,
      SUM(CASE WHEN sm_side = 1 THEN sm_w ELSE 0 END) OVER (PARTITION BY `country`, `sm_class`) AS sm_p
    FROM (
      SELECT
        `country`,
        sm_side,
        sm_class,
        sm_true,
        sm_pred,
        CAST(sm_n AS DOUBLE) AS sm_w,
        sm_rows
      FROM (
        SELECT
          sm_cells.`country` AS `country`,
          sm_sides.sm_side AS sm_side,
          CASE WHEN sm_sides.sm_side = 0 THEN sm_cells.sm_true ELSE sm_cells.sm_pred END AS sm_class,
          sm_cells.sm_true AS sm_true,
          sm_cells.sm_pred AS sm_pred,
          sm_cells.sm_n AS sm_n,
          sm_cells.sm_rows AS sm_rows
        FROM (
          SELECT
            `country`,
            `category` AS sm_true,
            `predicted_category` AS sm_pred,
            SUM(
              CASE
                WHEN `category` IS NULL OR `predicted_category` IS NULL
                THEN CAST(CASE
                  WHEN COALESCE(`category` IS NULL OR `predicted_category` IS NULL, TRUE)
                  THEN JSON_EXTRACT(
                    '{}',
                    CONCAT(
                      'sqlmetrics: a true or predicted class must not be NULL; found ',
                      COALESCE(CAST(`category` AS CHAR), 'NULL')
                    )
                  )
                END AS DOUBLE)
                ELSE CAST(`impressions` AS DOUBLE)
              END
            ) AS sm_n,
            COUNT(*) AS sm_rows
          FROM analytics.preds
          GROUP BY
            `country`,
            `category`,
            `predicted_category`
        ) AS sm_cells
        CROSS JOIN (
          SELECT
            0 AS sm_side
          UNION ALL
          SELECT
            1 AS sm_side
        ) AS sm_sides
      ) AS sm_sides
    ) AS sm_cells
  ) AS sm_ranked
  GROUP BY
    `country`
) AS sm_sums
