SELECT
  `country`,
  CASE
    WHEN sm_rate > 0 AND sm_other > 0
    THEN (
      CAST(log_loss AS DOUBLE) / NULLIF(CAST(-(
        sm_rate * LN(sm_rate) + sm_other * LN(sm_other)
      ) AS DOUBLE), 0)
    )
  END AS normalized_entropy,
  log_loss,
  sm_rate AS base_rate,
  n,
  n_pos,
  n_neg
FROM (
  SELECT
    `country`,
    (
      CAST(sm_loss AS DOUBLE) / NULLIF(CAST(sm_weight AS DOUBLE), 0)
    ) AS log_loss,
    (
      CAST(sm_pos_weight AS DOUBLE) / NULLIF(CAST(sm_weight AS DOUBLE), 0)
    ) AS sm_rate,
    (
      CAST(sm_weight - sm_pos_weight AS DOUBLE) / NULLIF(CAST(sm_weight AS DOUBLE), 0)
    ) AS sm_other,
    n,
    n_pos,
    n_neg
  FROM (
    SELECT
      `country`,
      SUM(
        sm_w * (
          CASE
            WHEN sm_y = 1
            THEN -LN(
              CASE
                WHEN sm_p < CAST(2.220446049250313e-16 AS DOUBLE)
                THEN CAST(2.220446049250313e-16 AS DOUBLE)
                WHEN sm_p > 1 - CAST(2.220446049250313e-16 AS DOUBLE)
                THEN 1 - CAST(2.220446049250313e-16 AS DOUBLE)
                ELSE sm_p
              END
            )
            ELSE -LN(
              1 - (
                CASE
                  WHEN sm_p < CAST(2.220446049250313e-16 AS DOUBLE)
                  THEN CAST(2.220446049250313e-16 AS DOUBLE)
                  WHEN sm_p > 1 - CAST(2.220446049250313e-16 AS DOUBLE)
                  THEN 1 - CAST(2.220446049250313e-16 AS DOUBLE)
                  ELSE sm_p
                END
              )
            )
          END
        )
      ) AS sm_loss,
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
) AS sm_rates
