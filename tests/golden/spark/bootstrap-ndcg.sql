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
), sm_judged AS (
  SELECT
    `country`,
    `query_id`,
    `doc_id` AS sm_item,
    CASE
      WHEN NOT `relevance` IS NULL
      THEN CAST(`relevance` AS DOUBLE)
      ELSE CAST(CASE
        WHEN COALESCE(`relevance` IS NULL, TRUE)
        THEN RAISE_ERROR(
          'sqlmetrics: a relevance must be a number; found ' || COALESCE(CAST(`relevance` AS STRING), 'NULL')
        )
      END AS DOUBLE)
    END AS sm_rel
  FROM analytics.qrels
), sm_grades AS (
  SELECT
    MAX(sm_rel) AS sm_top,
    CASE WHEN (
      -MAX(sm_rel)
    ) > -1022 THEN POWER(2, -MAX(sm_rel)) ELSE 0 END AS sm_top_unit,
    (
      CASE WHEN MAX(sm_rel) > 960 THEN MAX(sm_rel) - 960 ELSE 0 END
    ) AS sm_shift,
    CASE
      WHEN (
        -(
          CASE WHEN MAX(sm_rel) > 960 THEN MAX(sm_rel) - 960 ELSE 0 END
        )
      ) > -1022
      THEN POWER(2, -(
        CASE WHEN MAX(sm_rel) > 960 THEN MAX(sm_rel) - 960 ELSE 0 END
      ))
      ELSE 0
    END AS sm_unit
  FROM (
    SELECT
      CASE WHEN sm_rel > 0 THEN sm_rel ELSE 0 END AS sm_rel
    FROM sm_judged
  ) AS sm_gains
), sm_queries AS (
  SELECT
    `country`,
    `query_id`,
    SUM(CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE) THEN 1 ELSE 0 END) AS sm_n_relevant,
    SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded,
    SUM(
      CASE
        WHEN sm_ideal_pos <= 10 AND sm_rel > 0
        THEN (
          CASE
            WHEN (
              sm_rel - sm_grades.sm_shift
            ) > -1022
            THEN POWER(2, sm_rel - sm_grades.sm_shift)
            ELSE 0
          END - sm_grades.sm_unit
        ) / (
          LN(sm_ideal_pos + 1) / LN(2)
        )
        ELSE 0
      END
    ) AS sm_idcg_1
  FROM (
    SELECT
      sm_judged.*,
      ROW_NUMBER() OVER (PARTITION BY `country`, `query_id` ORDER BY sm_rel DESC) AS sm_ideal_pos
    FROM sm_judged
  ) AS sm_ideal
  CROSS JOIN sm_grades
  GROUP BY
    `country`,
    `query_id`
), sm_rows AS (
  SELECT
    sm_run.`country` AS `country`,
    sm_run.`query_id` AS `query_id`,
    sm_run.`doc_id` AS sm_item,
    CAST(sm_run.`score` AS DOUBLE) AS sm_score,
    CASE WHEN sm_judged.sm_rel > 0 THEN sm_judged.sm_rel ELSE 0 END AS sm_rel,
    ROW_NUMBER() OVER (PARTITION BY sm_run.`country`, sm_run.`query_id` ORDER BY sm_run.`score` DESC) AS sm_pos
  FROM analytics.run AS sm_run
  LEFT JOIN sm_judged
    ON sm_run.`country` = sm_judged.`country`
    AND sm_run.`query_id` = sm_judged.`query_id`
    AND sm_run.`doc_id` = sm_judged.sm_item
), sm_marked AS (
  SELECT
    sm_rows.*,
    CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE) THEN 1 ELSE 0 END AS sm_relevant,
    sm_rel AS sm_gain,
    1 / (
      LN(sm_pos + 1) / LN(2)
    ) AS sm_disc,
    1 AS sm_in_k,
    (
      CASE
        WHEN (
          sm_rel - sm_grades.sm_shift
        ) > -1022
        THEN POWER(2, sm_rel - sm_grades.sm_shift)
        ELSE 0
      END - sm_grades.sm_unit
    ) AS sm_gain_exponential_scaled
  FROM sm_rows
  CROSS JOIN sm_grades
), sm_ranked AS (
  SELECT
    sm_marked.*,
    AVG(sm_gain) OVER (
      PARTITION BY `country`, `query_id`
      ORDER BY sm_score NULLS LAST
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_gain,
    AVG(CAST(sm_relevant AS DOUBLE)) OVER (
      PARTITION BY `country`, `query_id`
      ORDER BY sm_score NULLS LAST
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_relevant,
    AVG(sm_gain_exponential_scaled) OVER (
      PARTITION BY `country`, `query_id`
      ORDER BY sm_score NULLS LAST
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_gain_exponential_scaled
  FROM sm_marked
), sm_values AS (
  SELECT
    `country`,
    `query_id`,
    SUM(
      CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential_scaled * sm_disc
    ) AS sm_v_1,
    1 AS sm_in_run
  FROM sm_ranked
  GROUP BY
    `country`,
    `query_id`
), sm_per_query AS (
  SELECT
    sm_queries.`country` AS `country`,
    sm_queries.`query_id` AS `query_id`,
    sm_queries.sm_n_relevant,
    sm_queries.sm_n_graded AS sm_nonempty,
    CASE WHEN sm_values.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
    CASE
      WHEN sm_n_graded > 0 AND NOT (
        sm_idcg_1 > 1e-290
      )
      THEN CAST(CASE
        WHEN COALESCE(sm_n_graded > 0 AND NOT (
          sm_idcg_1 > 1e-290
        ), TRUE)
        THEN RAISE_ERROR(
          'sqlmetrics: exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query; found ' || COALESCE(CAST(sm_queries.`query_id` AS STRING), 'NULL')
        )
      END AS DOUBLE)
      ELSE sm_v_1 / NULLIF(sm_idcg_1, 0)
    END AS sm_value
  FROM sm_queries
  LEFT JOIN sm_values
    ON sm_queries.`country` = sm_values.`country`
    AND sm_queries.`query_id` = sm_values.`query_id`
), sm_scored AS (
  SELECT
    sm_per_query.*,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included,
    CASE WHEN sm_in_run = 0 OR sm_nonempty = 0 THEN 0 ELSE sm_value END AS sm_score_value
  FROM sm_per_query
), sm_parts AS (
  SELECT
    `country`,
    `query_id`,
    CAST(sm_score_value AS DOUBLE) AS sm_numerator,
    1 AS sm_denominator,
    sm_nonempty AS sm_n_relevant,
    1 AS sm_relevant_rule
  FROM sm_scored
  WHERE
    sm_included = 1
), sm_units AS (
  SELECT
    sm_parts.*,
    PMOD(XXHASH64(`country`, `query_id`), 2147483647) AS sm_unit
  FROM sm_parts
), sm_replicated AS (
  SELECT
    `country`,
    sm_replicate,
    CASE
      WHEN MAX(sm_relevant_rule) = 0 OR SUM(sm_k * sm_n_relevant) > 0
      THEN (
        CAST(SUM(sm_k * sm_numerator) AS DOUBLE) / NULLIF(CAST(SUM(sm_k * sm_denominator) AS DOUBLE), 0)
      )
    END AS `ndcg`
  FROM (
    SELECT
      sm_drawn.*,
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
      END AS sm_k
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
  ) AS sm_weighted
  GROUP BY
    `country`,
    `sm_replicate`
), sm_replicate_values AS (
  SELECT
    `country`,
    sm_replicate,
    `ndcg` AS sm_value
  FROM sm_replicated
), sm_estimated AS (
  SELECT
    `country`,
    sm_value AS sm_estimate
  FROM sm_replicate_values
  WHERE
    sm_replicate = 0
), sm_ordered AS (
  SELECT
    `country`,
    sm_value,
    ROW_NUMBER() OVER (PARTITION BY `country` ORDER BY sm_value NULLS LAST) AS sm_rank,
    COUNT(*) OVER (PARTITION BY `country`) AS sm_n,
    AVG(sm_value) OVER (PARTITION BY `country`) AS sm_mean
  FROM sm_replicate_values
  WHERE
    sm_replicate > 0 AND NOT sm_value IS NULL
), sm_spread AS (
  SELECT
    `country`,
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
    `country`
)
SELECT
  sm_estimated.`country` AS `country`,
  sm_estimated.sm_estimate AS estimate,
  sm_spread.sm_se AS std_error,
  sm_spread.sm_low AS ci_low,
  sm_spread.sm_high AS ci_high,
  COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_boot,
  200 - COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_undefined
FROM sm_estimated
LEFT JOIN sm_spread
  ON (
    sm_estimated.`country` IS NOT DISTINCT FROM sm_spread.`country`
  )
