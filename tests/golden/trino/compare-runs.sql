WITH sm_cmp_systems AS (
  SELECT
    "query_id",
    "doc_id",
    "score",
    0 AS sm_cmp_system
  FROM analytics.run
  UNION ALL
  SELECT
    "query_id",
    "doc_id",
    "score",
    1 AS sm_cmp_system
  FROM analytics.run_baseline
  UNION ALL
  SELECT
    "query_id",
    "doc_id",
    "score",
    2 AS sm_cmp_system
  FROM analytics.run_candidate
), sm_cmp_judgments AS (
  SELECT
    sm_cmp_qrels.*,
    sm_cmp_copies.sm_cmp_system
  FROM analytics.qrels AS sm_cmp_qrels
  CROSS JOIN (
    SELECT DISTINCT
      sm_cmp_system
    FROM sm_cmp_systems
  ) AS sm_cmp_copies
), sm_cmp_values AS (
  WITH sm_judged AS (
    SELECT
      "sm_cmp_system",
      "query_id",
      "doc_id" AS sm_item,
      CASE
        WHEN NOT "relevance" IS NULL
        THEN CAST("relevance" AS DOUBLE)
        ELSE CAST(CAST(CASE
          WHEN COALESCE("relevance" IS NULL, TRUE)
          THEN CONCAT(
            CAST('sqlmetrics: a relevance must be a number; found ' AS VARCHAR),
            CAST(COALESCE(CAST("relevance" AS VARCHAR), 'NULL') AS VARCHAR)
          )
          ELSE '0'
        END AS BIGINT) AS DOUBLE)
      END AS sm_rel
    FROM sm_cmp_judgments
  ), sm_queries AS (
    SELECT
      "sm_cmp_system",
      "query_id",
      SUM(CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE) THEN 1 ELSE 0 END) AS sm_n_relevant,
      SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded,
      SUM(
        CASE
          WHEN sm_ideal_pos <= 10 AND sm_rel > 0
          THEN CAST(sm_rel AS DOUBLE) / (
            CAST(LN(sm_ideal_pos + 1) AS DOUBLE) / LN(2)
          )
          ELSE 0
        END
      ) AS sm_idcg_1
    FROM (
      SELECT
        sm_judged.*,
        ROW_NUMBER() OVER (PARTITION BY "sm_cmp_system", "query_id" ORDER BY sm_rel DESC) AS sm_ideal_pos
      FROM sm_judged
    ) AS sm_ideal
    GROUP BY
      "sm_cmp_system",
      "query_id"
  ), sm_rows AS (
    SELECT
      sm_run."sm_cmp_system" AS "sm_cmp_system",
      sm_run."query_id" AS "query_id",
      sm_run."doc_id" AS sm_item,
      CAST(sm_run."score" AS DOUBLE) AS sm_score,
      CASE WHEN sm_judged.sm_rel > 0 THEN sm_judged.sm_rel ELSE 0 END AS sm_rel,
      ROW_NUMBER() OVER (
        PARTITION BY sm_run."sm_cmp_system", sm_run."query_id"
        ORDER BY sm_run."score" DESC, CAST(sm_run."doc_id" AS VARCHAR) DESC
      ) AS sm_pos
    FROM sm_cmp_systems AS sm_run
    LEFT JOIN sm_judged
      ON sm_run."sm_cmp_system" = sm_judged."sm_cmp_system"
      AND sm_run."query_id" = sm_judged."query_id"
      AND sm_run."doc_id" = sm_judged.sm_item
  ), sm_marked AS (
    SELECT
      sm_rows.*,
      CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE) THEN 1 ELSE 0 END AS sm_relevant,
      sm_rel AS sm_gain,
      CAST(1 AS DOUBLE) / (
        CAST(LN(sm_pos + 1) AS DOUBLE) / LN(2)
      ) AS sm_disc,
      1 AS sm_in_k
    FROM sm_rows
  ), sm_ranked AS (
    SELECT
      sm_marked.*,
      sm_gain AS sm_eff_gain,
      sm_relevant AS sm_eff_relevant,
      SUM(sm_relevant) OVER (
        PARTITION BY "sm_cmp_system", "query_id"
        ORDER BY sm_pos
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_cum_relevant
    FROM sm_marked
  ), sm_values AS (
    SELECT
      "sm_cmp_system",
      "query_id",
      SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain * sm_disc) AS sm_v_1,
      SUM(CAST(1 * sm_relevant * CAST(sm_cum_relevant AS DOUBLE) AS DOUBLE) / sm_pos) AS sm_v_2,
      SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_relevant) AS sm_v_3,
      MAX(CASE WHEN sm_relevant = 1 THEN 1 / CAST(sm_pos AS DOUBLE) ELSE 0 END) AS sm_v_4,
      1 AS sm_in_run
    FROM sm_ranked
    GROUP BY
      "sm_cmp_system",
      "query_id"
  ), sm_per_query AS (
    SELECT
      sm_queries."sm_cmp_system" AS "sm_cmp_system",
      sm_queries."query_id" AS "query_id",
      sm_queries.sm_n_relevant,
      sm_queries.sm_n_graded AS sm_nonempty_1,
      sm_queries.sm_n_relevant AS sm_nonempty_2,
      sm_queries.sm_n_relevant AS sm_nonempty_3,
      sm_queries.sm_n_relevant AS sm_nonempty_4,
      CASE WHEN sm_values.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
      CAST(sm_v_1 AS DOUBLE) / NULLIF(sm_idcg_1, 0) AS sm_value_1,
      (
        CAST(sm_v_2 AS DOUBLE) / NULLIF(CAST(sm_n_relevant AS DOUBLE), 0)
      ) AS sm_value_2,
      sm_v_3 / CAST(10 AS DOUBLE) AS sm_value_3,
      sm_v_4 AS sm_value_4
    FROM sm_queries
    LEFT JOIN sm_values
      ON sm_queries."sm_cmp_system" = sm_values."sm_cmp_system"
      AND sm_queries."query_id" = sm_values."query_id"
  ), sm_scored AS (
    SELECT
      sm_per_query.*,
      CASE
        WHEN (
          sm_in_run = 1 OR 1 = 1
        ) AND (
          sm_nonempty_1 > 0 OR 1 = 1
        )
        THEN 1
        ELSE 0
      END AS sm_included_1,
      CASE WHEN sm_in_run = 0 OR sm_nonempty_1 = 0 THEN 0 ELSE sm_value_1 END AS sm_score_value_1,
      CASE
        WHEN (
          sm_in_run = 1 OR 1 = 1
        ) AND (
          sm_nonempty_2 > 0 OR 1 = 1
        )
        THEN 1
        ELSE 0
      END AS sm_included_2,
      CASE WHEN sm_in_run = 0 OR sm_nonempty_2 = 0 THEN 0 ELSE sm_value_2 END AS sm_score_value_2,
      CASE
        WHEN (
          sm_in_run = 1 OR 1 = 1
        ) AND (
          sm_nonempty_3 > 0 OR 1 = 1
        )
        THEN 1
        ELSE 0
      END AS sm_included_3,
      CASE WHEN sm_in_run = 0 OR sm_nonempty_3 = 0 THEN 0 ELSE sm_value_3 END AS sm_score_value_3,
      CASE
        WHEN (
          sm_in_run = 1 OR 1 = 1
        ) AND (
          sm_nonempty_4 > 0 OR 1 = 1
        )
        THEN 1
        ELSE 0
      END AS sm_included_4,
      CASE WHEN sm_in_run = 0 OR sm_nonempty_4 = 0 THEN 0 ELSE sm_value_4 END AS sm_score_value_4
    FROM sm_per_query
  )
  SELECT
    "sm_cmp_system",
    "query_id",
    CASE WHEN sm_included_1 = 1 THEN sm_score_value_1 END AS "ndcg@10",
    CASE WHEN sm_included_2 = 1 THEN sm_score_value_2 END AS "map",
    CASE WHEN sm_included_3 = 1 THEN sm_score_value_3 END AS "P@10",
    CASE WHEN sm_included_4 = 1 THEN sm_score_value_4 END AS "recip_rank",
    CAST(sm_n_relevant AS BIGINT) AS n_relevant
  FROM sm_scored
  WHERE
    sm_included_1 = 1 OR sm_included_2 = 1 OR sm_included_3 = 1 OR sm_included_4 = 1
  ORDER BY
    "sm_cmp_system",
    "query_id"
), sm_cmp_measured AS (
  SELECT
    "query_id",
    sm_cmp_run,
    sm_cmp_measure,
    sm_value
  FROM (
    SELECT
      sm_cmp_values."query_id" AS "query_id",
      sm_cmp_values.sm_cmp_system AS sm_cmp_run,
      sm_cmp_measures.sm_cmp_number AS sm_cmp_measure,
      CASE sm_cmp_measures.sm_cmp_number
        WHEN 0
        THEN sm_cmp_values."ndcg@10"
        WHEN 1
        THEN sm_cmp_values."map"
        WHEN 2
        THEN sm_cmp_values."P@10"
        WHEN 3
        THEN sm_cmp_values."recip_rank"
      END AS sm_value
    FROM sm_cmp_values
    CROSS JOIN (
      SELECT
        sm_replicate AS sm_cmp_number
      FROM (
        SELECT
          sm_replicate
        FROM (
          SELECT
            sm_d0.sm_digit * 1 AS sm_replicate
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
        ) AS sm_numbers
        WHERE
          sm_replicate <= 3
      ) AS sm_cmp_measure_numbers
    ) AS sm_cmp_measures
  ) AS sm_cmp_unpivoted
  WHERE
    NOT sm_value IS NULL
), sm_cmp_pairs AS (
  SELECT
    sm_cmp_left.sm_cmp_number AS sm_cmp_system,
    sm_cmp_right.sm_cmp_number AS sm_cmp_baseline
  FROM (
    SELECT
      sm_replicate AS sm_cmp_number
    FROM (
      SELECT
        sm_replicate
      FROM (
        SELECT
          sm_d0.sm_digit * 1 AS sm_replicate
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
      ) AS sm_numbers
      WHERE
        sm_replicate <= 2
    ) AS sm_cmp_numbers
  ) AS sm_cmp_left
  CROSS JOIN (
    SELECT
      sm_replicate AS sm_cmp_number
    FROM (
      SELECT
        sm_replicate
      FROM (
        SELECT
          sm_d0.sm_digit * 1 AS sm_replicate
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
      ) AS sm_numbers
      WHERE
        sm_replicate <= 2
    ) AS sm_cmp_numbers
  ) AS sm_cmp_right
  WHERE
    sm_cmp_right.sm_cmp_number = 0 AND sm_cmp_left.sm_cmp_number <> 0
), sm_cmp_units AS (
  SELECT
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure",
    "query_id",
    MAX(CASE WHEN sm_cmp_run = sm_cmp_system THEN sm_value END) AS sm_a,
    MAX(CASE WHEN sm_cmp_run = sm_cmp_baseline THEN sm_value END) AS sm_b,
    CAST(1 AS DOUBLE) AS sm_v
  FROM sm_cmp_measured
  CROSS JOIN sm_cmp_pairs
  WHERE
    sm_cmp_run = sm_cmp_system OR sm_cmp_run = sm_cmp_baseline
  GROUP BY
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure",
    "query_id"
  HAVING
    COUNT(*) = 2
), sm_cmp_summary AS (
  SELECT
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure",
    CAST(COUNT(*) AS BIGINT) AS sm_n,
    SUM(sm_v) AS sm_sv,
    (
      CAST(SUM(sm_v * sm_a) AS DOUBLE) / NULLIF(CAST(SUM(sm_v) AS DOUBLE), 0)
    ) AS sm_estimate,
    (
      CAST(SUM(sm_v * sm_b) AS DOUBLE) / NULLIF(CAST(SUM(sm_v) AS DOUBLE), 0)
    ) AS sm_other_estimate,
    (
      CAST(SUM(sm_v * (
        sm_a - sm_b
      )) AS DOUBLE) / NULLIF(CAST(SUM(sm_v) AS DOUBLE), 0)
    ) AS sm_difference,
    CAST(SUM(CASE WHEN sm_a - sm_b >= 0.5e-12 THEN 1 ELSE 0 END) AS BIGINT) AS sm_wins,
    CAST(SUM(CASE WHEN sm_b - sm_a >= 0.5e-12 THEN 1 ELSE 0 END) AS BIGINT) AS sm_losses
  FROM sm_cmp_units
  GROUP BY
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure"
), sm_cmp_deviations AS (
  SELECT
    sm_cmp_units."sm_cmp_system" AS "sm_cmp_system",
    sm_cmp_units."sm_cmp_baseline" AS "sm_cmp_baseline",
    sm_cmp_units."sm_cmp_measure" AS "sm_cmp_measure",
    sm_cmp_units."query_id" AS "query_id",
    sm_cmp_units.sm_v AS sm_v,
    sm_cmp_units.sm_a - sm_cmp_units.sm_b AS sm_d,
    sm_cmp_summary.sm_difference AS sm_mean_d
  FROM sm_cmp_units
  JOIN sm_cmp_summary
    ON (
      sm_cmp_units."sm_cmp_system" IS NOT DISTINCT FROM sm_cmp_summary."sm_cmp_system"
    )
    AND (
      sm_cmp_units."sm_cmp_baseline" IS NOT DISTINCT FROM sm_cmp_summary."sm_cmp_baseline"
    )
    AND (
      sm_cmp_units."sm_cmp_measure" IS NOT DISTINCT FROM sm_cmp_summary."sm_cmp_measure"
    )
), sm_cmp_squares AS (
  SELECT
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure",
    SUM(sm_v * sm_v * (
      sm_d - sm_mean_d
    ) * (
      sm_d - sm_mean_d
    )) AS sm_ss
  FROM sm_cmp_deviations
  GROUP BY
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure"
), sm_cmp_spread AS (
  SELECT
    sm_cmp_summary.*,
    CASE
      WHEN sm_n > 1
      THEN (
        CAST(SQRT(
          (
            CAST(sm_n AS DOUBLE) / NULLIF(CAST(sm_n - 1 AS DOUBLE), 0)
          ) * CASE WHEN sm_cmp_squares.sm_ss > 0 THEN sm_cmp_squares.sm_ss ELSE 0 END
        ) AS DOUBLE) / NULLIF(CAST(sm_sv AS DOUBLE), 0)
      )
    END AS sm_se
  FROM sm_cmp_summary
  JOIN sm_cmp_squares
    ON (
      sm_cmp_summary."sm_cmp_system" IS NOT DISTINCT FROM sm_cmp_squares."sm_cmp_system"
    )
    AND (
      sm_cmp_summary."sm_cmp_baseline" IS NOT DISTINCT FROM sm_cmp_squares."sm_cmp_baseline"
    )
    AND (
      sm_cmp_summary."sm_cmp_measure" IS NOT DISTINCT FROM sm_cmp_squares."sm_cmp_measure"
    )
), sm_cmp_t AS (
  SELECT
    sm_cmp_spread.*,
    CASE
      WHEN sm_se > 0
      THEN (
        CAST(sm_difference AS DOUBLE) / NULLIF(CAST(sm_se AS DOUBLE), 0)
      )
      WHEN sm_se = 0 AND sm_difference = 0
      THEN 0
    END AS sm_t,
    sm_n - 1 AS sm_df
  FROM sm_cmp_spread
), sm_cmp_t_terms AS (
  SELECT
    sm_k,
    SUM(
      CASE
        WHEN sm_k = 0
        THEN 0
        ELSE LN((
          CAST(2.0 * sm_k - 1 AS DOUBLE) / NULLIF(CAST(2.0 * sm_k AS DOUBLE), 0)
        ))
      END
    ) OVER (ORDER BY sm_k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_ln_even,
    SUM(
      CASE
        WHEN sm_k = 0
        THEN 0
        ELSE LN((
          CAST(2.0 * sm_k AS DOUBLE) / NULLIF(CAST(2.0 * sm_k + 1 AS DOUBLE), 0)
        ))
      END
    ) OVER (ORDER BY sm_k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_ln_odd
  FROM (
    SELECT
      sm_replicate AS sm_k
    FROM (
      SELECT
        sm_replicate
      FROM (
        SELECT
          sm_d0.sm_digit * 1 + sm_d1.sm_digit * 10 + sm_d2.sm_digit * 100 + sm_d3.sm_digit * 1000 AS sm_replicate
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
        ) AS sm_d3
      ) AS sm_numbers
      WHERE
        sm_replicate <= 1199
    ) AS sm_numbers
  ) AS sm_term_numbers
), sm_cmp_t_abs AS (
  SELECT
    sm_cmp_t.*,
    ABS(sm_t) AS sm_abs_t,
    (
      CAST(sm_df AS DOUBLE) / NULLIF(CAST(sm_df + sm_t * sm_t AS DOUBLE), 0)
    ) AS sm_y
  FROM sm_cmp_t
), sm_cmp_t_sums AS (
  SELECT
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure",
    SUM(
      CASE
        WHEN sm_k < FLOOR(CAST(sm_df AS DOUBLE) / 2)
        THEN CASE
          WHEN sm_y > 0
          AND (
            CASE WHEN sm_df % 2 = 0 THEN sm_ln_even ELSE sm_ln_odd END
          ) + sm_k * LN(sm_y) > -700
          THEN EXP(
            (
              CASE WHEN sm_df % 2 = 0 THEN sm_ln_even ELSE sm_ln_odd END
            ) + sm_k * LN(sm_y)
          )
          ELSE 0
        END
        ELSE 0
      END
    ) AS sm_t_head,
    SUM(
      CASE
        WHEN sm_k >= FLOOR(CAST(sm_df AS DOUBLE) / 2)
        THEN CASE
          WHEN sm_y > 0
          AND (
            CASE WHEN sm_df % 2 = 0 THEN sm_ln_even ELSE sm_ln_odd END
          ) + sm_k * LN(sm_y) > -700
          THEN EXP(
            (
              CASE WHEN sm_df % 2 = 0 THEN sm_ln_even ELSE sm_ln_odd END
            ) + sm_k * LN(sm_y)
          )
          ELSE 0
        END
        ELSE 0
      END
    ) AS sm_t_rest
  FROM sm_cmp_t_abs
  CROSS JOIN sm_cmp_t_terms
  GROUP BY
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure"
), sm_cmp_tested AS (
  SELECT
    sm_cmp_hill.*,
    sm_t AS sm_statistic,
    CASE
      WHEN NOT sm_t IS NULL AND sm_df > 0
      THEN CASE
        WHEN sm_df >= 300
        THEN 2 * CASE
          WHEN sm_hill_z > 37
          THEN 0
          WHEN sm_hill_z < 7.07106781186547
          THEN EXP(CAST(-sm_hill_z * sm_hill_z AS DOUBLE) / 2) * (
            CAST((
              (
                (
                  (
                    (
                      (
                        0.03526249659989109 * sm_hill_z + 0.7003830644436881
                      ) * sm_hill_z + 6.373962203531650
                    ) * sm_hill_z + 33.91286607838300
                  ) * sm_hill_z + 112.0792914978709
                ) * sm_hill_z + 221.2135961699311
              ) * sm_hill_z + 220.2068679123761
            ) AS DOUBLE) / NULLIF(
              CAST((
                (
                  (
                    (
                      (
                        (
                          (
                            0.08838834764831844 * sm_hill_z + 1.755667163182642
                          ) * sm_hill_z + 16.06417757920695
                        ) * sm_hill_z + 86.78073220294608
                      ) * sm_hill_z + 296.5642487796737
                    ) * sm_hill_z + 637.3336333788311
                  ) * sm_hill_z + 793.8265125199484
                ) * sm_hill_z + 440.4137358247522
              ) AS DOUBLE),
              0
            )
          )
          ELSE (
            CAST(EXP(CAST(-sm_hill_z * sm_hill_z AS DOUBLE) / 2) AS DOUBLE) / NULLIF(
              CAST((
                sm_hill_z + (
                  CAST(1 AS DOUBLE) / NULLIF(
                    CAST(sm_hill_z + (
                      CAST(2 AS DOUBLE) / NULLIF(
                        CAST(sm_hill_z + (
                          CAST(3 AS DOUBLE) / NULLIF(
                            CAST(sm_hill_z + (
                              CAST(4 AS DOUBLE) / NULLIF(CAST(sm_hill_z + 0.65 AS DOUBLE), 0)
                            ) AS DOUBLE),
                            0
                          )
                        ) AS DOUBLE),
                        0
                      )
                    ) AS DOUBLE),
                    0
                  )
                )
              ) * 2.506628274631001 AS DOUBLE),
              0
            )
          )
        END
        WHEN sm_y < 1 AND (
          1199 - FLOOR(CAST(sm_df AS DOUBLE) / 2)
        ) * -LN(sm_y) > 40
        THEN (
          CASE
            WHEN sm_df % 2 = 0
            THEN SQRT(1 - sm_y)
            ELSE 0.6366197723675814 * SQRT(sm_y * (
              1 - sm_y
            ))
          END
        ) * sm_t_rest
        WHEN sm_df % 2 = 0
        THEN CASE
          WHEN 1 - (
            CASE
              WHEN sm_df % 2 = 0
              THEN SQRT(1 - sm_y)
              ELSE 0.6366197723675814 * SQRT(sm_y * (
                1 - sm_y
              ))
            END
          ) * sm_t_head > 0
          THEN 1 - (
            CASE
              WHEN sm_df % 2 = 0
              THEN SQRT(1 - sm_y)
              ELSE 0.6366197723675814 * SQRT(sm_y * (
                1 - sm_y
              ))
            END
          ) * sm_t_head
          ELSE 0
        END
        ELSE CASE
          WHEN 1 - 0.6366197723675814 * ATAN((
            CAST(sm_abs_t AS DOUBLE) / NULLIF(CAST(SQRT(sm_df) AS DOUBLE), 0)
          )) - (
            CASE
              WHEN sm_df % 2 = 0
              THEN SQRT(1 - sm_y)
              ELSE 0.6366197723675814 * SQRT(sm_y * (
                1 - sm_y
              ))
            END
          ) * sm_t_head > 0
          THEN 1 - 0.6366197723675814 * ATAN((
            CAST(sm_abs_t AS DOUBLE) / NULLIF(CAST(SQRT(sm_df) AS DOUBLE), 0)
          )) - (
            CASE
              WHEN sm_df % 2 = 0
              THEN SQRT(1 - sm_y)
              ELSE 0.6366197723675814 * SQRT(sm_y * (
                1 - sm_y
              ))
            END
          ) * sm_t_head
          ELSE 0
        END
      END
    END AS sm_p
  FROM (
    SELECT
      sm_cmp_t_abs.*,
      sm_cmp_t_sums.sm_t_head,
      sm_cmp_t_sums.sm_t_rest,
      (
        (
          CAST((
            CAST((
              (
                -0.4 * (
                  (
                    sm_cmp_t_abs.sm_df - 0.5
                  ) * CASE
                    WHEN (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) > 1e-3
                    THEN LN(
                      1 + (
                        CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                      )
                    )
                    ELSE (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) * (
                      1 - (
                        CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                      ) * (
                        0.5 - (
                          CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                        ) * (
                          CAST(1.0 AS DOUBLE) / 3 - (
                            CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                          ) * (
                            0.25 - (
                              CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                            ) * 0.2
                          )
                        )
                      )
                    )
                  END
                ) - 3.3
              ) * (
                (
                  sm_cmp_t_abs.sm_df - 0.5
                ) * CASE
                  WHEN (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) > 1e-3
                  THEN LN(
                    1 + (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    )
                  )
                  ELSE (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) * (
                    1 - (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) * (
                      0.5 - (
                        CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                      ) * (
                        CAST(1.0 AS DOUBLE) / 3 - (
                          CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                        ) * (
                          0.25 - (
                            CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                          ) * 0.2
                        )
                      )
                    )
                  )
                END
              ) - 24
            ) * (
              (
                sm_cmp_t_abs.sm_df - 0.5
              ) * CASE
                WHEN (
                  CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                ) > 1e-3
                THEN LN(
                  1 + (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  )
                )
                ELSE (
                  CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                ) * (
                  1 - (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) * (
                    0.5 - (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) * (
                      CAST(1.0 AS DOUBLE) / 3 - (
                        CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                      ) * (
                        0.25 - (
                          CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                        ) * 0.2
                      )
                    )
                  )
                )
              END
            ) - 85.5 AS DOUBLE) / NULLIF(
              CAST(0.8 * (
                (
                  sm_cmp_t_abs.sm_df - 0.5
                ) * CASE
                  WHEN (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) > 1e-3
                  THEN LN(
                    1 + (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    )
                  )
                  ELSE (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) * (
                    1 - (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) * (
                      0.5 - (
                        CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                      ) * (
                        CAST(1.0 AS DOUBLE) / 3 - (
                          CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                        ) * (
                          0.25 - (
                            CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                          ) * 0.2
                        )
                      )
                    )
                  )
                END
              ) * (
                (
                  sm_cmp_t_abs.sm_df - 0.5
                ) * CASE
                  WHEN (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) > 1e-3
                  THEN LN(
                    1 + (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    )
                  )
                  ELSE (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) * (
                    1 - (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) * (
                      0.5 - (
                        CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                      ) * (
                        CAST(1.0 AS DOUBLE) / 3 - (
                          CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                        ) * (
                          0.25 - (
                            CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                          ) * 0.2
                        )
                      )
                    )
                  )
                END
              ) + 100 + (
                48 * (
                  sm_cmp_t_abs.sm_df - 0.5
                ) * (
                  sm_cmp_t_abs.sm_df - 0.5
                )
              ) AS DOUBLE),
              0
            )
          ) + (
            (
              sm_cmp_t_abs.sm_df - 0.5
            ) * CASE
              WHEN (
                CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
              ) > 1e-3
              THEN LN(
                1 + (
                  CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                )
              )
              ELSE (
                CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
              ) * (
                1 - (
                  CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                ) * (
                  0.5 - (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) * (
                    CAST(1.0 AS DOUBLE) / 3 - (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) * (
                      0.25 - (
                        CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                      ) * 0.2
                    )
                  )
                )
              )
            END
          ) + 3 AS DOUBLE) / NULLIF(
            CAST((
              48 * (
                sm_cmp_t_abs.sm_df - 0.5
              ) * (
                sm_cmp_t_abs.sm_df - 0.5
              )
            ) AS DOUBLE),
            0
          )
        ) + 1
      ) * SQRT(
        (
          (
            sm_cmp_t_abs.sm_df - 0.5
          ) * CASE
            WHEN (
              CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
            ) > 1e-3
            THEN LN(
              1 + (
                CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
              )
            )
            ELSE (
              CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
            ) * (
              1 - (
                CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
              ) * (
                0.5 - (
                  CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                ) * (
                  CAST(1.0 AS DOUBLE) / 3 - (
                    CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                  ) * (
                    0.25 - (
                      CAST(sm_cmp_t_abs.sm_abs_t * sm_cmp_t_abs.sm_abs_t AS DOUBLE) / NULLIF(CAST(sm_cmp_t_abs.sm_df AS DOUBLE), 0)
                    ) * 0.2
                  )
                )
              )
            )
          END
        )
      ) AS sm_hill_z
    FROM sm_cmp_t_abs
    JOIN sm_cmp_t_sums
      ON (
        sm_cmp_t_abs."sm_cmp_system" IS NOT DISTINCT FROM sm_cmp_t_sums."sm_cmp_system"
      )
      AND (
        sm_cmp_t_abs."sm_cmp_baseline" IS NOT DISTINCT FROM sm_cmp_t_sums."sm_cmp_baseline"
      )
      AND (
        sm_cmp_t_abs."sm_cmp_measure" IS NOT DISTINCT FROM sm_cmp_t_sums."sm_cmp_measure"
      )
  ) AS sm_cmp_hill
), sm_cmp_result AS (
  SELECT
    "sm_cmp_system",
    "sm_cmp_baseline",
    "sm_cmp_measure",
    sm_estimate AS estimate,
    sm_other_estimate AS other_estimate,
    sm_difference AS difference,
    sm_se AS std_error,
    sm_statistic AS statistic,
    CASE WHEN sm_p > 1 THEN 1 ELSE sm_p END AS p_value,
    sm_difference - sm_t_q * sm_se AS ci_low,
    sm_difference + sm_t_q * sm_se AS ci_high,
    sm_n AS n_units,
    sm_wins AS n_wins,
    sm_n - sm_wins - sm_losses AS n_ties,
    sm_losses AS n_losses
  FROM (
    SELECT
      sm_cmp_tested.*,
      CASE
        WHEN sm_df = 1
        THEN 1.27062047361746426e+01
        WHEN sm_df = 2
        THEN 4.30265272974946100e+00
        WHEN sm_df = 3
        THEN 3.18244630528370598e+00
        WHEN sm_df = 4
        THEN 2.77644510519778986e+00
        WHEN sm_df = 5
        THEN 2.57058183563631193e+00
        WHEN sm_df = 6
        THEN 2.44691185114496834e+00
        WHEN sm_df = 7
        THEN 2.36462425159278222e+00
        WHEN sm_df = 8
        THEN 2.30600413520416403e+00
        WHEN sm_df = 9
        THEN 2.26215716279820489e+00
        WHEN sm_df = 10
        THEN 2.22813885198627615e+00
        WHEN sm_df = 11
        THEN 2.20098516009163792e+00
        WHEN sm_df = 12
        THEN 2.17881282966723022e+00
        WHEN sm_df = 13
        THEN 2.16036865646279175e+00
        WHEN sm_df = 14
        THEN 2.14478668791780347e+00
        WHEN sm_df = 15
        THEN 2.13144954555977240e+00
        WHEN sm_df = 16
        THEN 2.11990529922125370e+00
        WHEN sm_df = 17
        THEN 2.10981557783331564e+00
        WHEN sm_df = 18
        THEN 2.10092204024103690e+00
        WHEN sm_df = 19
        THEN 2.09302405440830963e+00
        WHEN sm_df = 20
        THEN 2.08596344726586569e+00
        WHEN sm_df = 21
        THEN 2.07961384472767774e+00
        WHEN sm_df = 22
        THEN 2.07387306790402626e+00
        WHEN sm_df = 23
        THEN 2.06865761041904683e+00
        WHEN sm_df = 24
        THEN 2.06389856162802277e+00
        WHEN sm_df = 25
        THEN 2.05953855275329722e+00
        WHEN sm_df = 26
        THEN 2.05552943864287396e+00
        WHEN sm_df = 27
        THEN 2.05183051648028414e+00
        WHEN sm_df = 28
        THEN 2.04840714179524230e+00
        WHEN sm_df = 29
        THEN 2.04522964213270164e+00
        WHEN sm_df = 30
        THEN 2.04227245630123821e+00
        WHEN sm_df = 31
        THEN 2.03951344639640775e+00
        WHEN sm_df = 32
        THEN 2.03693334346010024e+00
        WHEN sm_df = 33
        THEN 2.03451529744933834e+00
        WHEN sm_df = 34
        THEN 2.03224450931772083e+00
        WHEN sm_df = 35
        THEN 2.03010792825034247e+00
        WHEN sm_df = 36
        THEN 2.02809400098044978e+00
        WHEN sm_df = 37
        THEN 2.02619246302910927e+00
        WHEN sm_df = 38
        THEN 2.02439416391197158e+00
        WHEN sm_df = 39
        THEN 2.02269092003676265e+00
        WHEN sm_df = 40
        THEN 2.02107539030627237e+00
        WHEN sm_df = 41
        THEN 2.01954097044137493e+00
        WHEN sm_df = 42
        THEN 2.01808170281844390e+00
        WHEN sm_df = 43
        THEN 2.01669219922782350e+00
        WHEN sm_df = 44
        THEN 2.01536757444376180e+00
        WHEN sm_df = 45
        THEN 2.01410338888084484e+00
        WHEN sm_df = 46
        THEN 2.01289559891943304e+00
        WHEN sm_df = 47
        THEN 2.01174051372976503e+00
        WHEN sm_df = 48
        THEN 2.01063475762423138e+00
        WHEN sm_df = 49
        THEN 2.00957523712924013e+00
        WHEN sm_df = 50
        THEN 2.00855911210076110e+00
        WHEN sm_df = 51
        THEN 2.00758377031583679e+00
        WHEN sm_df = 52
        THEN 2.00664680506168613e+00
        WHEN sm_df = 53
        THEN 2.00574599531786513e+00
        WHEN sm_df = 54
        THEN 2.00487928818805594e+00
        WHEN sm_df = 55
        THEN 2.00404478328914681e+00
        WHEN sm_df = 56
        THEN 2.00324071884787047e+00
        WHEN sm_df = 57
        THEN 2.00246545929100339e+00
        WHEN sm_df = 58
        THEN 2.00171748414523654e+00
        WHEN sm_df = 59
        THEN 2.00099537808826344e+00
        WHEN sm_df = 60
        THEN 2.00029782201426043e+00
        WHEN sm_df = 61
        THEN 1.99962358499493731e+00
        WHEN sm_df = 62
        THEN 1.99897151703337683e+00
        WHEN sm_df = 63
        THEN 1.99834054252073767e+00
        WHEN sm_df = 64
        THEN 1.99772965431769656e+00
        WHEN sm_df = 65
        THEN 1.99713790839200378e+00
        WHEN sm_df = 66
        THEN 1.99656441895231462e+00
        WHEN sm_df = 67
        THEN 1.99600835402529331e+00
        WHEN sm_df = 68
        THEN 1.99546893142984416e+00
        WHEN sm_df = 69
        THEN 1.99494541510723278e+00
        WHEN sm_df = 70
        THEN 1.99443711177118765e+00
        WHEN sm_df = 71
        THEN 1.99394336784562887e+00
        WHEN sm_df = 72
        THEN 1.99346356666187208e+00
        WHEN sm_df = 73
        THEN 1.99299712588985267e+00
        WHEN sm_df = 74
        THEN 1.99254349518093155e+00
        WHEN sm_df = 75
        THEN 1.99210215400224122e+00
        WHEN sm_df = 76
        THEN 1.99167260964467041e+00
        WHEN sm_df = 77
        THEN 1.99125439538838411e+00
        WHEN sm_df = 78
        THEN 1.99084706881168794e+00
        WHEN sm_df = 79
        THEN 1.99045021023012669e+00
        WHEN sm_df = 80
        THEN 1.99006342125444657e+00
        WHEN sm_df = 81
        THEN 1.98968632345689866e+00
        WHEN sm_df = 82
        THEN 1.98931855713657457e+00
        WHEN sm_df = 83
        THEN 1.98895978017516106e+00
        WHEN sm_df = 84
        THEN 1.98860966697571473e+00
        WHEN sm_df = 85
        THEN 1.98826790747721716e+00
        WHEN sm_df = 86
        THEN 1.98793420623902484e+00
        WHEN sm_df = 87
        THEN 1.98760828158906966e+00
        WHEN sm_df = 88
        THEN 1.98728986483117409e+00
        WHEN sm_df = 89
        THEN 1.98697869950627770e+00
        WHEN sm_df = 90
        THEN 1.98667454070376914e+00
        WHEN sm_df = 91
        THEN 1.98637715441861862e+00
        WHEN sm_df = 92
        THEN 1.98608631695112448e+00
        WHEN sm_df = 93
        THEN 1.98580181434582315e+00
        WHEN sm_df = 94
        THEN 1.98552344186660745e+00
        WHEN sm_df = 95
        THEN 1.98525100350549222e+00
        WHEN sm_df = 96
        THEN 1.98498431152245480e+00
        WHEN sm_df = 97
        THEN 1.98472318601398023e+00
        WHEN sm_df = 98
        THEN 1.98446745450847906e+00
        WHEN sm_df = 99
        THEN 1.98421695158641542e+00
        ELSE 1.959963984540054 + (
          CAST(2.372271230298562 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 1) AS DOUBLE), 0)
        ) + (
          CAST(2.8224986157396112 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 2) AS DOUBLE), 0)
        ) + (
          CAST(2.555849679507722 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 3) AS DOUBLE), 0)
        ) + (
          CAST(1.5895340533938225 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 4) AS DOUBLE), 0)
        ) + (
          CAST(0.7328982119816051 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 5) AS DOUBLE), 0)
        )
      END AS sm_t_q
    FROM sm_cmp_tested
  ) AS sm_cmp_interval
)
SELECT
  sm_cmp_system AS system_index,
  sm_cmp_baseline AS baseline_index,
  sm_cmp_measure AS measure_index,
  estimate,
  other_estimate,
  difference,
  std_error,
  statistic,
  p_value,
  ci_low,
  ci_high,
  n_units,
  n_wins,
  n_ties,
  n_losses
FROM sm_cmp_result
