WITH sm_replicates AS (
  SELECT
    sm_replicate
  FROM (
    SELECT
      sm_d0.sm_digit * 1 + sm_d1.sm_digit * 10 + sm_d2.sm_digit * 100 AS sm_replicate
    FROM (
      SELECT
        0 AS sm_digit
      UNION ALL
      SELECT
        1
      UNION ALL
      SELECT
        2
      UNION ALL
      SELECT
        3
      UNION ALL
      SELECT
        4
      UNION ALL
      SELECT
        5
      UNION ALL
      SELECT
        6
      UNION ALL
      SELECT
        7
      UNION ALL
      SELECT
        8
      UNION ALL
      SELECT
        9
    ) AS sm_d0
    CROSS JOIN (
      SELECT
        0 AS sm_digit
      UNION ALL
      SELECT
        1
      UNION ALL
      SELECT
        2
      UNION ALL
      SELECT
        3
      UNION ALL
      SELECT
        4
      UNION ALL
      SELECT
        5
      UNION ALL
      SELECT
        6
      UNION ALL
      SELECT
        7
      UNION ALL
      SELECT
        8
      UNION ALL
      SELECT
        9
    ) AS sm_d1
    CROSS JOIN (
      SELECT
        0 AS sm_digit
      UNION ALL
      SELECT
        1
      UNION ALL
      SELECT
        2
      UNION ALL
      SELECT
        3
      UNION ALL
      SELECT
        4
      UNION ALL
      SELECT
        5
      UNION ALL
      SELECT
        6
      UNION ALL
      SELECT
        7
      UNION ALL
      SELECT
        8
      UNION ALL
      SELECT
        9
    ) AS sm_d2
  ) AS sm_numbers
  WHERE
    sm_replicate <= 200
), sm_units AS (
  SELECT
    sm_occurrences.*,
    CRC32(
      CONCAT_WS(CHAR(  31), `country`, `impressions`, `clicked`, `pctr`, `sm_occurrence`)
    ) % 2147483647 AS sm_unit
  FROM (
    SELECT
      `country`,
      `impressions`,
      `clicked`,
      `pctr`,
      ROW_NUMBER() OVER (
        PARTITION BY `country`, `impressions`, `clicked`, `pctr`
        ORDER BY CASE WHEN `country` IS NULL THEN 1 ELSE 0 END, `country`
      ) AS sm_occurrence
    FROM analytics.preds
  ) AS sm_occurrences
), sm_resampled AS (
  SELECT
    `country`,
    `impressions`,
    `clicked`,
    `pctr`,
    sm_replicate,
    CASE
      WHEN sm_replicate = 0
      THEN 1
      ELSE CASE
        WHEN sm_uniform < 0.36787944117144233
        THEN 0
        WHEN sm_uniform < 0.73575888234288467
        THEN 1
        WHEN sm_uniform < 0.91969860292860584
        THEN 2
        WHEN sm_uniform < 0.98101184312384626
        THEN 3
        WHEN sm_uniform < 0.99634015317265634
        THEN 4
        WHEN sm_uniform < 0.99940581518241833
        THEN 5
        WHEN sm_uniform < 0.99991675885071196
        THEN 6
        WHEN sm_uniform < 0.99998975080332531
        THEN 7
        WHEN sm_uniform < 0.99999887479740202
        THEN 8
        WHEN sm_uniform < 0.9999998885745216
        THEN 9
        WHEN sm_uniform < 0.9999999899522336
        THEN 10
        WHEN sm_uniform < 0.99999999916838922
        THEN 11
        WHEN sm_uniform < 0.99999999993640221
        THEN 12
        ELSE 13
      END
    END * CAST(`impressions` AS DOUBLE) AS sm_boot_weight
  FROM (
    SELECT
      sm_second.*,
      CAST((
        (
          sm_r3 * sm_r3 + 54321
        ) % 2147483647 * 48271
      ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_uniform
    FROM (
      SELECT
        sm_first.*,
        (
          (
            sm_r1 * sm_r1 + 12345
          ) % 2147483647 * 16807 + sm_unit
        ) % 2147483647 AS sm_r3
      FROM (
        SELECT
          sm_units.*,
          sm_replicates.sm_replicate,
          (
            (
              sm_unit + CAST(sm_replicates.sm_replicate AS SIGNED) * 1000003 + 1
            ) % 2147483647 * 48271
          ) % 2147483647 AS sm_r1
        FROM sm_units
        CROSS JOIN sm_replicates
      ) AS sm_first
    ) AS sm_second
  ) AS sm_drawn
), sm_replicated AS (
  SELECT
    `country`,
    `sm_replicate`,
    (
      CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
    ) AS auc,
    sm_n AS n,
    sm_n_pos AS n_pos,
    sm_n - sm_n_pos AS n_neg,
    CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN CAST(0 AS DOUBLE) END AS error_bound
  FROM (
    SELECT
      `country`,
      `sm_replicate`,
      CAST(COALESCE(SUM(sm_n), 0) AS SIGNED) AS sm_n,
      CAST(COALESCE(SUM(sm_n_pos), 0) AS SIGNED) AS sm_n_pos,
      SUM(sm_w_pos) AS sm_w_pos,
      SUM(sm_w_neg) AS sm_w_neg,
      SUM(
        sm_cumulative.sm_w_pos * (
          (
            COALESCE(sm_cumulative.sm_w_neg_below, 0) + 0.5 * sm_cumulative.sm_w_neg
          ) / NULLIF(sm_cumulative.sm_w_neg_all, 0)
        )
      ) AS sm_wins,
      SUM(
        sm_cumulative.sm_w_pos * (
          sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
        )
      ) AS sm_ties
    FROM (
      SELECT
        sm_by_score.*,
        SUM(sm_w_neg) OVER (
          PARTITION BY `country`, `sm_replicate`
          ORDER BY sm_s
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS sm_w_neg_below,
        SUM(sm_w_neg) OVER (PARTITION BY `country`, `sm_replicate`) AS sm_w_neg_all
      FROM (
        SELECT
          `country`,
          `sm_replicate`,
          sm_s,
          SUM(sm_rows) AS sm_n,
          SUM(sm_pos * sm_rows) AS sm_n_pos,
          CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS sm_w_pos,
          CAST(SUM((
            1 - sm_pos
          ) * sm_weight) AS DOUBLE) AS sm_w_neg
        FROM (
          SELECT
            `country`,
            `sm_replicate`,
            sm_s,
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
                THEN JSON_EXTRACT(
                  '{}',
                  CONCAT(
                    'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ',
                    COALESCE(CAST(`clicked` AS CHAR), 'NULL')
                  )
                )
              END
            END AS sm_pos
          FROM (
            SELECT
              `country`,
              `sm_replicate`,
              `clicked`,
              `pctr` AS sm_s,
              COUNT(*) AS sm_rows,
              SUM(CAST(`sm_boot_weight` AS DOUBLE)) AS sm_weight
            FROM sm_resampled
            GROUP BY
              `country`,
              `sm_replicate`,
              `pctr`,
              `clicked`
          ) AS sm_labelled
        ) AS sm_by_label
        GROUP BY
          `country`,
          `sm_replicate`,
          sm_s
      ) AS sm_by_score
    ) AS sm_cumulative
    GROUP BY
      `country`,
      `sm_replicate`
  ) AS sm_parts
), sm_estimated AS (
  SELECT
    `country`,
    `auc`
  FROM sm_replicated
  WHERE
    sm_replicate = 0
), sm_ordered AS (
  SELECT
    `country`,
    `auc` AS sm_value,
    ROW_NUMBER() OVER (PARTITION BY `country` ORDER BY CASE WHEN `auc` IS NULL THEN 1 ELSE 0 END, `auc`) AS sm_rank,
    COUNT(*) OVER (PARTITION BY `country`) AS sm_n,
    AVG(`auc`) OVER (PARTITION BY `country`) AS sm_mean
  FROM sm_replicated
  WHERE
    sm_replicate > 0 AND NOT `auc` IS NULL
), sm_spread AS (
  SELECT
    `country`,
    CAST(MAX(sm_n) AS SIGNED) AS sm_replicates_with_value,
    SQRT(
      (
        CAST(SUM((
          sm_value - sm_mean
        ) * (
          sm_value - sm_mean
        )) AS DOUBLE) / NULLIF(CAST(MAX(sm_n) - 1 AS DOUBLE), 0)
      )
    ) AS sm_se,
    (
      MAX(
        CASE
          WHEN sm_rank = FLOOR(0.025000000000000022 * (
            sm_n - 1
          )) + 1
          THEN sm_value
        END
      ) + (
        (
          0.025000000000000022 * (
            MAX(sm_n) - 1
          )
        ) - MAX(FLOOR(0.025000000000000022 * (
          sm_n - 1
        )))
      ) * (
        COALESCE(
          MAX(
            CASE
              WHEN sm_rank = FLOOR(0.025000000000000022 * (
                sm_n - 1
              )) + 2
              THEN sm_value
            END
          ),
          MAX(
            CASE
              WHEN sm_rank = FLOOR(0.025000000000000022 * (
                sm_n - 1
              )) + 1
              THEN sm_value
            END
          )
        ) - MAX(
          CASE
            WHEN sm_rank = FLOOR(0.025000000000000022 * (
              sm_n - 1
            )) + 1
            THEN sm_value
          END
        )
      )
    ) AS sm_low,
    (
      MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
        sm_n - 1
      )) + 1 THEN sm_value END) + (
        (
          0.975 * (
            MAX(sm_n) - 1
          )
        ) - MAX(FLOOR(0.975 * (
          sm_n - 1
        )))
      ) * (
        COALESCE(
          MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
            sm_n - 1
          )) + 2 THEN sm_value END),
          MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
            sm_n - 1
          )) + 1 THEN sm_value END)
        ) - MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
          sm_n - 1
        )) + 1 THEN sm_value END)
      )
    ) AS sm_high
  FROM sm_ordered
  GROUP BY
    `country`
)
SELECT
  sm_estimated.`country` AS `country`,
  sm_estimated.`auc` AS estimate,
  sm_spread.sm_se AS std_error,
  sm_spread.sm_low AS ci_low,
  sm_spread.sm_high AS ci_high,
  COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_boot,
  200 - COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_undefined
FROM sm_estimated
LEFT JOIN sm_spread
  ON (
    sm_estimated.`country` <=> sm_spread.`country`
  )
