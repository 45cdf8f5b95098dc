WITH sm_replicated AS (
  WITH sm_units AS (
    SELECT
      sm_occurrences.*,
      CAST(HASH("country", "impressions", "pctr_baseline", "clicked", "pctr", "sm_occurrence") % 2147483647 AS BIGINT) AS sm_unit
    FROM (
      SELECT
        "country",
        "impressions",
        "pctr_baseline",
        "clicked",
        "pctr",
        ROW_NUMBER() OVER (
          PARTITION BY "country", "impressions", "pctr_baseline", "clicked", "pctr"
          ORDER BY "country" ASC
        ) AS sm_occurrence
      FROM analytics.preds
    ) AS sm_occurrences
  ), sm_replicates AS (
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
  ), sm_resampled AS (
    SELECT
      "country",
      "impressions",
      "pctr_baseline",
      "clicked",
      "pctr",
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
      END * CAST("impressions" AS DOUBLE) AS sm_boot_weight
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
            sm_seeded_units.*,
            sm_seeds.sm_replicate,
            (
              sm_seeded_units.sm_unit_seeded + sm_seeds.sm_offset
            ) % 2147483647 AS sm_r1
          FROM (
            SELECT
              sm_units.*,
              (
                (
                  sm_unit + 1
                ) * 48271
              ) % 2147483647 AS sm_unit_seeded
            FROM sm_units
          ) AS sm_seeded_units
          CROSS JOIN (
            SELECT
              sm_replicate,
              (
                CAST(sm_replicate AS BIGINT) * 1000003 * 48271
              ) % 2147483647 AS sm_offset
            FROM sm_replicates
          ) AS sm_seeds
        ) AS sm_first
      ) AS sm_second
    ) AS sm_drawn
  ), sm_systems AS (
    SELECT
      "country",
      "impressions",
      "pctr_baseline",
      "clicked",
      "pctr",
      sm_replicate,
      sm_boot_weight,
      0 AS sm_cmp_system
    FROM sm_resampled
    UNION ALL
    SELECT
      "country" AS "country",
      "impressions" AS "impressions",
      "pctr_baseline" AS "pctr_baseline",
      "clicked" AS "clicked",
      "pctr_baseline" AS "pctr",
      sm_replicate,
      sm_boot_weight,
      1 AS sm_cmp_system
    FROM sm_resampled
  ), sm_metric AS (
    SELECT
      "country",
      "sm_replicate",
      "sm_cmp_system",
      sm_loss / NULLIF(sm_weight, 0) AS log_loss,
      n,
      n_pos,
      n_neg
    FROM (
      SELECT
        "country",
        "sm_replicate",
        "sm_cmp_system",
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
        CAST(COALESCE(SUM(sm_y), 0) AS BIGINT) AS n_pos,
        CAST(COUNT(*) - COALESCE(SUM(sm_y), 0) AS BIGINT) AS n_neg
      FROM (
        SELECT
          "country",
          "sm_replicate",
          "sm_cmp_system",
          CASE
            WHEN NOT "pctr" IS NULL
            THEN CAST("pctr" AS DOUBLE)
            ELSE CAST(CASE
              WHEN COALESCE("pctr" IS NULL, TRUE)
              THEN ERROR(
                'sqlmetrics: a probability must be a number; found ' || COALESCE(CAST("pctr" AS TEXT), 'NULL')
              )
            END AS DOUBLE)
          END AS sm_p,
          CASE
            WHEN "clicked" = 1
            THEN 1
            WHEN "clicked" = 0
            THEN 0
            ELSE CASE
              WHEN COALESCE(NOT (
                "clicked" = 1 OR "clicked" = 0
              ), TRUE)
              THEN ERROR(
                'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
              )
            END
          END AS sm_y,
          CAST("sm_boot_weight" AS DOUBLE) AS sm_w
        FROM sm_systems
      ) AS sm_rows
      GROUP BY
        "country",
        "sm_replicate",
        "sm_cmp_system"
    ) AS sm_sums
  )
  SELECT
    "country",
    sm_replicate,
    MAX(CASE WHEN sm_cmp_system = 0 THEN sm_metric."log_loss" END) AS "log_loss",
    MAX(CASE WHEN sm_cmp_system = 1 THEN sm_metric."log_loss" END) AS sm_other_value
  FROM sm_metric
  GROUP BY
    "country",
    "sm_replicate"
), sm_replicate_values AS (
  SELECT
    "country",
    sm_replicate,
    "log_loss" - sm_other_value AS sm_value,
    "log_loss" AS sm_a,
    sm_other_value AS sm_b
  FROM sm_replicated
), sm_estimated AS (
  SELECT
    "country",
    sm_value AS sm_estimate,
    sm_a,
    sm_b
  FROM sm_replicate_values
  WHERE
    sm_replicate = 0
), sm_ordered AS (
  SELECT
    "country",
    sm_value,
    ROW_NUMBER() OVER (PARTITION BY "country" ORDER BY sm_value ASC) AS sm_rank,
    COUNT(*) OVER (PARTITION BY "country") AS sm_n,
    AVG(sm_value) OVER (PARTITION BY "country") AS sm_mean
  FROM sm_replicate_values
  WHERE
    sm_replicate > 0 AND NOT sm_value IS NULL
), sm_spread AS (
  SELECT
    "country",
    CAST(MAX(sm_n) AS BIGINT) AS sm_replicates_with_value,
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
    ) AS sm_high,
    CASE
      WHEN SUM(CASE WHEN sm_value <= 0 THEN 1 ELSE 0 END) < SUM(CASE WHEN sm_value >= 0 THEN 1 ELSE 0 END)
      THEN SUM(CASE WHEN sm_value <= 0 THEN 1 ELSE 0 END)
      ELSE SUM(CASE WHEN sm_value >= 0 THEN 1 ELSE 0 END)
    END AS sm_fewer_side
  FROM sm_ordered
  GROUP BY
    "country"
)
SELECT
  sm_estimated."country" AS "country",
  sm_estimated.sm_a AS estimate,
  sm_estimated.sm_b AS other_estimate,
  sm_estimated.sm_estimate AS difference,
  sm_spread.sm_se AS std_error,
  CASE
    WHEN sm_spread.sm_se > 0
    THEN (
      CAST(sm_estimated.sm_estimate AS DOUBLE) / NULLIF(CAST(sm_spread.sm_se AS DOUBLE), 0)
    )
    WHEN sm_spread.sm_se = 0 AND sm_estimated.sm_estimate = 0
    THEN 0
  END AS statistic,
  CASE
    WHEN 2 * (
      1 + sm_spread.sm_fewer_side
    ) < 1 + sm_spread.sm_replicates_with_value
    THEN (
      CAST(2 * (
        1 + sm_spread.sm_fewer_side
      ) AS DOUBLE) / NULLIF(CAST(1 + sm_spread.sm_replicates_with_value AS DOUBLE), 0)
    )
    WHEN sm_spread.sm_replicates_with_value > 0
    THEN 1
  END AS p_value,
  sm_spread.sm_low AS ci_low,
  sm_spread.sm_high AS ci_high,
  COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_boot,
  200 - COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_undefined
FROM sm_estimated
LEFT JOIN sm_spread
  ON (
    sm_estimated."country" IS NOT DISTINCT FROM sm_spread."country"
  )
