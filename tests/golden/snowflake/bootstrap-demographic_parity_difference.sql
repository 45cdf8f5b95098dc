WITH sm_replicated AS (
  WITH sm_units AS (
    SELECT
      sm_occurrences.*,
      ABS(
        HASH("COUNTRY", "IMPRESSIONS", "CLICKED", "PCTR", "G", "SM_OCCURRENCE") % 2147483647
      ) AS sm_unit
    FROM (
      SELECT
        "COUNTRY",
        "IMPRESSIONS",
        "CLICKED",
        "PCTR",
        "G",
        ROW_NUMBER() OVER (PARTITION BY "COUNTRY", "IMPRESSIONS", "CLICKED", "PCTR", "G" ORDER BY "COUNTRY") AS sm_occurrence
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
      "COUNTRY",
      "IMPRESSIONS",
      "CLICKED",
      "PCTR",
      "G",
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
      END * CAST("IMPRESSIONS" AS DOUBLE) AS sm_boot_weight
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
  ), sm_metric AS (
    SELECT
      "COUNTRY",
      "SM_REPLICATE",
      CASE
        WHEN COUNT(*) >= 2
        THEN CASE
          WHEN COUNT(sm_selection) = COUNT(*)
          THEN MAX(sm_selection) - MIN(sm_selection)
        END
      END AS "DEMOGRAPHIC_PARITY_DIFFERENCE",
      MIN(sm_selection) AS group_min,
      MAX(sm_selection) AS group_max,
      MAX(sm_selection_all) AS overall,
      CAST(COUNT(*) AS BIGINT) AS n_groups,
      CAST(SUM(n) AS BIGINT) AS n
    FROM (
      SELECT
        sm_counts.*,
        (
          CAST(tp + fp AS DOUBLE) / NULLIF(CAST(tp + fp + tn + fn AS DOUBLE), 0)
        ) AS sm_selection,
        (
          CAST(SUM(tp + fp) OVER (PARTITION BY "COUNTRY", "SM_REPLICATE") AS DOUBLE) / NULLIF(
            CAST(SUM(tp + fp + tn + fn) OVER (PARTITION BY "COUNTRY", "SM_REPLICATE") AS DOUBLE),
            0
          )
        ) AS sm_selection_all
      FROM (
        SELECT
          "COUNTRY",
          "SM_REPLICATE",
          "G",
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
            "COUNTRY",
            "SM_REPLICATE",
            "G",
            CASE
              WHEN "CLICKED" = 1
              THEN 1
              WHEN "CLICKED" = 0
              THEN 0
              ELSE CAST(CASE
                WHEN COALESCE(NOT (
                  "CLICKED" = 1 OR "CLICKED" = 0
                ), TRUE)
                THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("CLICKED" AS VARCHAR), 'NULL')
                ELSE '0'
              END AS BIGINT)
            END AS sm_y,
            CASE
              WHEN "PCTR" >= CAST(0.5 AS DOUBLE)
              THEN 1
              WHEN "PCTR" < CAST(0.5 AS DOUBLE)
              THEN 0
              ELSE CAST(CASE
                WHEN COALESCE(NOT (
                  "PCTR" >= CAST(0.5 AS DOUBLE) OR "PCTR" < CAST(0.5 AS DOUBLE)
                ), TRUE)
                THEN 'sqlmetrics: a score must be a number; found ' || COALESCE(CAST("PCTR" AS VARCHAR), 'NULL')
                ELSE '0'
              END AS BIGINT)
            END AS sm_hat,
            CAST("SM_BOOT_WEIGHT" AS DOUBLE) AS sm_w
          FROM sm_resampled
        ) AS sm_rows
        GROUP BY
          "COUNTRY",
          "SM_REPLICATE",
          "G"
      ) AS sm_counts
    ) AS sm_groups
    GROUP BY
      "COUNTRY",
      "SM_REPLICATE"
  )
  SELECT
    *
  FROM sm_metric
), sm_replicate_values AS (
  SELECT
    "COUNTRY",
    sm_replicate,
    "DEMOGRAPHIC_PARITY_DIFFERENCE" AS sm_value
  FROM sm_replicated
), sm_estimated AS (
  SELECT
    "COUNTRY",
    sm_value AS sm_estimate
  FROM sm_replicate_values
  WHERE
    sm_replicate = 0
), sm_ordered AS (
  SELECT
    "COUNTRY",
    sm_value,
    ROW_NUMBER() OVER (PARTITION BY "COUNTRY" ORDER BY sm_value) AS sm_rank,
    COUNT(*) OVER (PARTITION BY "COUNTRY") AS sm_n,
    AVG(sm_value) OVER (PARTITION BY "COUNTRY") AS sm_mean
  FROM sm_replicate_values
  WHERE
    sm_replicate > 0 AND NOT sm_value IS NULL
), sm_spread AS (
  SELECT
    "COUNTRY",
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
    ) AS sm_high
  FROM sm_ordered
  GROUP BY
    "COUNTRY"
)
SELECT
  sm_estimated."COUNTRY" AS "COUNTRY",
  sm_estimated.sm_estimate AS estimate,
  sm_spread.sm_se AS std_error,
  sm_spread.sm_low AS ci_low,
  sm_spread.sm_high AS ci_high,
  COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_boot,
  200 - COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_undefined
FROM sm_estimated
LEFT JOIN sm_spread
  ON (
    sm_estimated."COUNTRY" IS NOT DISTINCT FROM sm_spread."COUNTRY"
  )
