WITH sm_cmp_systems AS (
  SELECT
    `country`,
    `query_id`,
    `doc_id`,
    `score`,
    0 AS sm_cmp_system
  FROM analytics.run
  UNION ALL
  SELECT
    `country`,
    `query_id`,
    `doc_id`,
    `score`,
    1 AS sm_cmp_system
  FROM analytics.run_baseline
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
      `country`,
      `sm_cmp_system`,
      `query_id`,
      `doc_id` AS sm_item,
      CASE
        WHEN NOT `relevance` IS NULL
        THEN CAST(`relevance` AS FLOAT64)
        ELSE CAST(CASE
          WHEN COALESCE(`relevance` IS NULL, TRUE)
          THEN ERROR(
            'sqlmetrics: a relevance must be a number; found ' || COALESCE(CAST(`relevance` AS STRING), 'NULL')
          )
        END AS FLOAT64)
      END AS sm_rel
    FROM sm_cmp_judgments
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
      `sm_cmp_system`,
      `query_id`,
      SUM(CASE WHEN sm_rel >= CAST(1.0 AS FLOAT64) THEN 1 ELSE 0 END) AS sm_n_relevant,
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
        ROW_NUMBER() OVER (PARTITION BY `country`, `sm_cmp_system`, `query_id` ORDER BY sm_rel DESC) AS sm_ideal_pos
      FROM sm_judged
    ) AS sm_ideal
    CROSS JOIN sm_grades
    GROUP BY
      `country`,
      `sm_cmp_system`,
      `query_id`
  ), sm_rows AS (
    SELECT
      sm_run.`country` AS `country`,
      sm_run.`sm_cmp_system` AS `sm_cmp_system`,
      sm_run.`query_id` AS `query_id`,
      sm_run.`doc_id` AS sm_item,
      CAST(sm_run.`score` AS FLOAT64) AS sm_score,
      CASE WHEN sm_judged.sm_rel > 0 THEN sm_judged.sm_rel ELSE 0 END AS sm_rel,
      ROW_NUMBER() OVER (
        PARTITION BY sm_run.`country`, sm_run.`sm_cmp_system`, sm_run.`query_id`
        ORDER BY sm_run.`score` DESC
      ) AS sm_pos
    FROM sm_cmp_systems AS sm_run
    LEFT JOIN sm_judged
      ON sm_run.`country` = sm_judged.`country`
      AND sm_run.`sm_cmp_system` = sm_judged.`sm_cmp_system`
      AND sm_run.`query_id` = sm_judged.`query_id`
      AND sm_run.`doc_id` = sm_judged.sm_item
  ), sm_marked AS (
    SELECT
      sm_rows.*,
      CASE WHEN sm_rel >= CAST(1.0 AS FLOAT64) THEN 1 ELSE 0 END AS sm_relevant,
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
        PARTITION BY `country`, `sm_cmp_system`, `query_id`
        ORDER BY sm_score
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      ) AS sm_eff_gain,
      AVG(CAST(sm_relevant AS FLOAT64)) OVER (
        PARTITION BY `country`, `sm_cmp_system`, `query_id`
        ORDER BY sm_score
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      ) AS sm_eff_relevant,
      AVG(sm_gain_exponential_scaled) OVER (
        PARTITION BY `country`, `sm_cmp_system`, `query_id`
        ORDER BY sm_score
        RANGE BETWEEN CURRENT ROW AND CURRENT ROW
      ) AS sm_eff_gain_exponential_scaled
    FROM sm_marked
  ), sm_values AS (
    SELECT
      `country`,
      `sm_cmp_system`,
      `query_id`,
      SUM(
        CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential_scaled * sm_disc
      ) AS sm_v_1,
      1 AS sm_in_run
    FROM sm_ranked
    GROUP BY
      `country`,
      `sm_cmp_system`,
      `query_id`
  ), sm_per_query AS (
    SELECT
      sm_queries.`country` AS `country`,
      sm_queries.`sm_cmp_system` AS `sm_cmp_system`,
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
          THEN ERROR(
            'sqlmetrics: exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query; found ' || COALESCE(CAST(sm_queries.`query_id` AS STRING), 'NULL')
          )
        END AS FLOAT64)
        ELSE sm_v_1 / NULLIF(sm_idcg_1, 0)
      END AS sm_value
    FROM sm_queries
    LEFT JOIN sm_values
      ON sm_queries.`country` = sm_values.`country`
      AND sm_queries.`sm_cmp_system` = sm_values.`sm_cmp_system`
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
  )
  SELECT
    `country`,
    `sm_cmp_system`,
    `query_id`,
    CAST(sm_score_value AS FLOAT64) AS sm_numerator,
    1 AS sm_denominator,
    sm_nonempty AS sm_n_relevant,
    1 AS sm_relevant_rule
  FROM sm_scored
  WHERE
    sm_included = 1
), sm_cmp_units AS (
  SELECT
    `country`,
    `query_id`,
    MAX(
      CASE
        WHEN sm_cmp_system = 0
        THEN (
          CAST(sm_numerator AS FLOAT64) / NULLIF(CAST(sm_denominator AS FLOAT64), 0)
        )
      END
    ) AS sm_a,
    MAX(
      CASE
        WHEN sm_cmp_system = 1
        THEN (
          CAST(sm_numerator AS FLOAT64) / NULLIF(CAST(sm_denominator AS FLOAT64), 0)
        )
      END
    ) AS sm_b,
    CAST(1 AS FLOAT64) AS sm_v
  FROM sm_cmp_values
  GROUP BY
    `country`,
    `query_id`
  HAVING
    COUNT(*) = 2
), sm_cmp_summary AS (
  SELECT
    `country`,
    CAST(COUNT(*) AS INT64) AS sm_n,
    SUM(sm_v) AS sm_sv,
    (
      CAST(SUM(sm_v * sm_a) AS FLOAT64) / NULLIF(CAST(SUM(sm_v) AS FLOAT64), 0)
    ) AS sm_estimate,
    (
      CAST(SUM(sm_v * sm_b) AS FLOAT64) / NULLIF(CAST(SUM(sm_v) AS FLOAT64), 0)
    ) AS sm_other_estimate,
    (
      CAST(SUM(sm_v * (
        sm_a - sm_b
      )) AS FLOAT64) / NULLIF(CAST(SUM(sm_v) AS FLOAT64), 0)
    ) AS sm_difference,
    CAST(SUM(CASE WHEN sm_a - sm_b >= 0.5e-12 THEN 1 ELSE 0 END) AS INT64) AS sm_wins,
    CAST(SUM(CASE WHEN sm_b - sm_a >= 0.5e-12 THEN 1 ELSE 0 END) AS INT64) AS sm_losses
  FROM sm_cmp_units
  GROUP BY
    `country`
), sm_cmp_deviations AS (
  SELECT
    sm_cmp_units.`country` AS `country`,
    sm_cmp_units.`query_id` AS `query_id`,
    sm_cmp_units.sm_v AS sm_v,
    sm_cmp_units.sm_a - sm_cmp_units.sm_b AS sm_d,
    sm_cmp_summary.sm_difference AS sm_mean_d
  FROM sm_cmp_units
  JOIN sm_cmp_summary
    ON (
      sm_cmp_units.`country` IS NOT DISTINCT FROM sm_cmp_summary.`country`
    )
), sm_cmp_squares AS (
  SELECT
    `country`,
    SUM(sm_v * sm_v * (
      sm_d - sm_mean_d
    ) * (
      sm_d - sm_mean_d
    )) AS sm_ss
  FROM sm_cmp_deviations
  GROUP BY
    `country`
), sm_cmp_spread AS (
  SELECT
    sm_cmp_summary.*,
    CASE
      WHEN sm_n > 1
      THEN (
        CAST(SQRT(
          (
            CAST(sm_n AS FLOAT64) / NULLIF(CAST(sm_n - 1 AS FLOAT64), 0)
          ) * CASE WHEN sm_cmp_squares.sm_ss > 0 THEN sm_cmp_squares.sm_ss ELSE 0 END
        ) AS FLOAT64) / NULLIF(CAST(sm_sv AS FLOAT64), 0)
      )
    END AS sm_se
  FROM sm_cmp_summary
  JOIN sm_cmp_squares
    ON (
      sm_cmp_summary.`country` IS NOT DISTINCT FROM sm_cmp_squares.`country`
    )
), sm_cmp_t AS (
  SELECT
    sm_cmp_spread.*,
    CASE
      WHEN sm_se > 0
      THEN (
        CAST(sm_difference AS FLOAT64) / NULLIF(CAST(sm_se AS FLOAT64), 0)
      )
      WHEN sm_se = 0 AND sm_difference = 0
      THEN 0
    END AS sm_t,
    sm_n - 1 AS sm_df
  FROM sm_cmp_spread
), sm_cmp_signed AS (
  SELECT
    sm_ranked_d.*,
    CASE
      WHEN sm_n_nonzero > 0
      AND (
        sm_n_all <= 13
        OR (
          sm_n_all <= 50 AND sm_n_nonzero = sm_n_all AND sm_most_tied = 1
        )
      )
      THEN 1
      ELSE 0
    END AS sm_exact
  FROM (
    SELECT
      sm_keyed.*,
      2 * (
        RANK() OVER (PARTITION BY `country` ORDER BY sm_abs_d NULLS LAST) - sm_n_zero
      ) + sm_tied - 1 AS sm_rank2,
      MAX(CASE WHEN sm_abs_d > 0 THEN sm_tied ELSE 1 END) OVER (PARTITION BY `country`) AS sm_most_tied
    FROM (
      SELECT
        sm_measured.*,
        COUNT(*) OVER (PARTITION BY `country`) AS sm_n_all,
        SUM(CASE WHEN sm_abs_d > 0 THEN 1 ELSE 0 END) OVER (PARTITION BY `country`) AS sm_n_nonzero,
        SUM(CASE WHEN sm_abs_d > 0 THEN 0 ELSE 1 END) OVER (PARTITION BY `country`) AS sm_n_zero,
        COUNT(*) OVER (PARTITION BY `country`, `sm_abs_d`) AS sm_tied
      FROM (
        SELECT
          `country`,
          `query_id`,
          sm_d,
          FLOOR(ABS(sm_d) * 1e12 + 0.5) AS sm_abs_d
        FROM sm_cmp_deviations
      ) AS sm_measured
    ) AS sm_keyed
  ) AS sm_ranked_d
), sm_cmp_signed_sums AS (
  SELECT
    `country`,
    MAX(sm_n_nonzero) AS sm_n_nonzero_all,
    MAX(sm_exact) AS sm_exact_all,
    SUM(CASE WHEN sm_abs_d > 0 AND sm_d > 0 THEN sm_rank2 ELSE 0 END) AS sm_plus2_all,
    SUM(CASE WHEN sm_abs_d > 0 THEN sm_tied * sm_tied - 1 ELSE 0 END) AS sm_tie_terms_all
  FROM sm_cmp_signed
  GROUP BY
    `country`
), sm_cmp_level0 AS (
  SELECT
    `country`,
    SUM(CASE WHEN sm_j = 1 THEN sm_rank2 ELSE 0 END) AS sm_r0,
    SUM(CASE WHEN sm_j = 2 THEN sm_rank2 ELSE 0 END) AS sm_r1,
    SUM(CASE WHEN sm_j = 3 THEN sm_rank2 ELSE 0 END) AS sm_r2,
    SUM(CASE WHEN sm_j = 4 THEN sm_rank2 ELSE 0 END) AS sm_r3,
    SUM(CASE WHEN sm_j = 5 THEN sm_rank2 ELSE 0 END) AS sm_r4,
    SUM(CASE WHEN sm_j = 6 THEN sm_rank2 ELSE 0 END) AS sm_r5,
    SUM(CASE WHEN sm_j = 7 THEN sm_rank2 ELSE 0 END) AS sm_r6,
    SUM(CASE WHEN sm_j = 8 THEN sm_rank2 ELSE 0 END) AS sm_r7,
    SUM(CASE WHEN sm_j = 9 THEN sm_rank2 ELSE 0 END) AS sm_r8,
    SUM(CASE WHEN sm_j = 10 THEN sm_rank2 ELSE 0 END) AS sm_r9,
    SUM(CASE WHEN sm_j = 11 THEN sm_rank2 ELSE 0 END) AS sm_r10,
    SUM(CASE WHEN sm_j = 12 THEN sm_rank2 ELSE 0 END) AS sm_r11,
    SUM(CASE WHEN sm_j = 13 THEN sm_rank2 ELSE 0 END) AS sm_r12,
    SUM(CASE WHEN sm_j = 14 THEN sm_rank2 ELSE 0 END) AS sm_r13,
    SUM(CASE WHEN sm_j = 15 THEN sm_rank2 ELSE 0 END) AS sm_r14,
    SUM(CASE WHEN sm_j = 16 THEN sm_rank2 ELSE 0 END) AS sm_r15,
    SUM(CASE WHEN sm_j = 17 THEN sm_rank2 ELSE 0 END) AS sm_r16,
    SUM(CASE WHEN sm_j = 18 THEN sm_rank2 ELSE 0 END) AS sm_r17,
    SUM(CASE WHEN sm_j = 19 THEN sm_rank2 ELSE 0 END) AS sm_r18,
    SUM(CASE WHEN sm_j = 20 THEN sm_rank2 ELSE 0 END) AS sm_r19,
    SUM(CASE WHEN sm_j = 21 THEN sm_rank2 ELSE 0 END) AS sm_r20,
    SUM(CASE WHEN sm_j = 22 THEN sm_rank2 ELSE 0 END) AS sm_r21,
    SUM(CASE WHEN sm_j = 23 THEN sm_rank2 ELSE 0 END) AS sm_r22,
    SUM(CASE WHEN sm_j = 24 THEN sm_rank2 ELSE 0 END) AS sm_r23,
    SUM(CASE WHEN sm_j = 25 THEN sm_rank2 ELSE 0 END) AS sm_r24,
    SUM(CASE WHEN sm_j = 26 THEN sm_rank2 ELSE 0 END) AS sm_r25,
    SUM(CASE WHEN sm_j = 27 THEN sm_rank2 ELSE 0 END) AS sm_r26,
    SUM(CASE WHEN sm_j = 28 THEN sm_rank2 ELSE 0 END) AS sm_r27,
    SUM(CASE WHEN sm_j = 29 THEN sm_rank2 ELSE 0 END) AS sm_r28,
    SUM(CASE WHEN sm_j = 30 THEN sm_rank2 ELSE 0 END) AS sm_r29,
    SUM(CASE WHEN sm_j = 31 THEN sm_rank2 ELSE 0 END) AS sm_r30,
    SUM(CASE WHEN sm_j = 32 THEN sm_rank2 ELSE 0 END) AS sm_r31,
    SUM(CASE WHEN sm_j = 33 THEN sm_rank2 ELSE 0 END) AS sm_r32,
    SUM(CASE WHEN sm_j = 34 THEN sm_rank2 ELSE 0 END) AS sm_r33,
    SUM(CASE WHEN sm_j = 35 THEN sm_rank2 ELSE 0 END) AS sm_r34,
    SUM(CASE WHEN sm_j = 36 THEN sm_rank2 ELSE 0 END) AS sm_r35,
    SUM(CASE WHEN sm_j = 37 THEN sm_rank2 ELSE 0 END) AS sm_r36,
    SUM(CASE WHEN sm_j = 38 THEN sm_rank2 ELSE 0 END) AS sm_r37,
    SUM(CASE WHEN sm_j = 39 THEN sm_rank2 ELSE 0 END) AS sm_r38,
    SUM(CASE WHEN sm_j = 40 THEN sm_rank2 ELSE 0 END) AS sm_r39,
    SUM(CASE WHEN sm_j = 41 THEN sm_rank2 ELSE 0 END) AS sm_r40,
    SUM(CASE WHEN sm_j = 42 THEN sm_rank2 ELSE 0 END) AS sm_r41,
    SUM(CASE WHEN sm_j = 43 THEN sm_rank2 ELSE 0 END) AS sm_r42,
    SUM(CASE WHEN sm_j = 44 THEN sm_rank2 ELSE 0 END) AS sm_r43,
    SUM(CASE WHEN sm_j = 45 THEN sm_rank2 ELSE 0 END) AS sm_r44,
    SUM(CASE WHEN sm_j = 46 THEN sm_rank2 ELSE 0 END) AS sm_r45,
    SUM(CASE WHEN sm_j = 47 THEN sm_rank2 ELSE 0 END) AS sm_r46,
    SUM(CASE WHEN sm_j = 48 THEN sm_rank2 ELSE 0 END) AS sm_r47,
    SUM(CASE WHEN sm_j = 49 THEN sm_rank2 ELSE 0 END) AS sm_r48,
    SUM(CASE WHEN sm_j = 50 THEN sm_rank2 ELSE 0 END) AS sm_r49,
    SUM(CASE WHEN sm_j = 51 THEN sm_rank2 ELSE 0 END) AS sm_r50,
    SUM(CASE WHEN sm_j = 52 THEN sm_rank2 ELSE 0 END) AS sm_r51,
    SUM(CASE WHEN sm_j = 53 THEN sm_rank2 ELSE 0 END) AS sm_r52,
    SUM(CASE WHEN sm_j = 54 THEN sm_rank2 ELSE 0 END) AS sm_r53,
    SUM(CASE WHEN sm_d > 0 THEN sm_rank2 ELSE 0 END) AS sm_plus2,
    0 AS sm_s,
    CAST(1 AS FLOAT64) AS sm_count
  FROM (
    SELECT
      sm_cmp_signed.*,
      ROW_NUMBER() OVER (PARTITION BY `country` ORDER BY sm_rank2 NULLS LAST) AS sm_j
    FROM sm_cmp_signed
    WHERE
      sm_exact = 1 AND sm_abs_d > 0
  ) AS sm_numbered
  GROUP BY
    `country`
), sm_cmp_bits AS (
  SELECT
    sm_bit0.sm_bit AS sm_b0,
    sm_bit1.sm_bit AS sm_b1,
    sm_bit2.sm_bit AS sm_b2,
    sm_bit3.sm_bit AS sm_b3,
    sm_bit4.sm_bit AS sm_b4,
    sm_bit5.sm_bit AS sm_b5
  FROM (
    SELECT
      0 AS sm_bit
    UNION ALL
    SELECT
      1 AS sm_bit
  ) AS sm_bit0
  CROSS JOIN (
    SELECT
      0 AS sm_bit
    UNION ALL
    SELECT
      1 AS sm_bit
  ) AS sm_bit1
  CROSS JOIN (
    SELECT
      0 AS sm_bit
    UNION ALL
    SELECT
      1 AS sm_bit
  ) AS sm_bit2
  CROSS JOIN (
    SELECT
      0 AS sm_bit
    UNION ALL
    SELECT
      1 AS sm_bit
  ) AS sm_bit3
  CROSS JOIN (
    SELECT
      0 AS sm_bit
    UNION ALL
    SELECT
      1 AS sm_bit
  ) AS sm_bit4
  CROSS JOIN (
    SELECT
      0 AS sm_bit
    UNION ALL
    SELECT
      1 AS sm_bit
  ) AS sm_bit5
), sm_cmp_level1 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level0.*,
      sm_s + sm_b0 * sm_r0 + sm_b1 * sm_r1 + sm_b2 * sm_r2 + sm_b3 * sm_r3 + sm_b4 * sm_r4 + sm_b5 * sm_r5 AS sm_s_next
    FROM sm_cmp_level0
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step1
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level2 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level1.*,
      sm_s + sm_b0 * sm_r6 + sm_b1 * sm_r7 + sm_b2 * sm_r8 + sm_b3 * sm_r9 + sm_b4 * sm_r10 + sm_b5 * sm_r11 AS sm_s_next
    FROM sm_cmp_level1
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step2
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level3 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level2.*,
      sm_s + sm_b0 * sm_r12 + sm_b1 * sm_r13 + sm_b2 * sm_r14 + sm_b3 * sm_r15 + sm_b4 * sm_r16 + sm_b5 * sm_r17 AS sm_s_next
    FROM sm_cmp_level2
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step3
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level4 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level3.*,
      sm_s + sm_b0 * sm_r18 + sm_b1 * sm_r19 + sm_b2 * sm_r20 + sm_b3 * sm_r21 + sm_b4 * sm_r22 + sm_b5 * sm_r23 AS sm_s_next
    FROM sm_cmp_level3
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step4
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level5 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level4.*,
      sm_s + sm_b0 * sm_r24 + sm_b1 * sm_r25 + sm_b2 * sm_r26 + sm_b3 * sm_r27 + sm_b4 * sm_r28 + sm_b5 * sm_r29 AS sm_s_next
    FROM sm_cmp_level4
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step5
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level6 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level5.*,
      sm_s + sm_b0 * sm_r30 + sm_b1 * sm_r31 + sm_b2 * sm_r32 + sm_b3 * sm_r33 + sm_b4 * sm_r34 + sm_b5 * sm_r35 AS sm_s_next
    FROM sm_cmp_level5
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step6
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level7 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level6.*,
      sm_s + sm_b0 * sm_r36 + sm_b1 * sm_r37 + sm_b2 * sm_r38 + sm_b3 * sm_r39 + sm_b4 * sm_r40 + sm_b5 * sm_r41 AS sm_s_next
    FROM sm_cmp_level6
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step7
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level8 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level7.*,
      sm_s + sm_b0 * sm_r42 + sm_b1 * sm_r43 + sm_b2 * sm_r44 + sm_b3 * sm_r45 + sm_b4 * sm_r46 + sm_b5 * sm_r47 AS sm_s_next
    FROM sm_cmp_level7
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step8
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_level9 AS (
  SELECT
    `country`,
    MAX(sm_r0) AS sm_r0,
    MAX(sm_r1) AS sm_r1,
    MAX(sm_r2) AS sm_r2,
    MAX(sm_r3) AS sm_r3,
    MAX(sm_r4) AS sm_r4,
    MAX(sm_r5) AS sm_r5,
    MAX(sm_r6) AS sm_r6,
    MAX(sm_r7) AS sm_r7,
    MAX(sm_r8) AS sm_r8,
    MAX(sm_r9) AS sm_r9,
    MAX(sm_r10) AS sm_r10,
    MAX(sm_r11) AS sm_r11,
    MAX(sm_r12) AS sm_r12,
    MAX(sm_r13) AS sm_r13,
    MAX(sm_r14) AS sm_r14,
    MAX(sm_r15) AS sm_r15,
    MAX(sm_r16) AS sm_r16,
    MAX(sm_r17) AS sm_r17,
    MAX(sm_r18) AS sm_r18,
    MAX(sm_r19) AS sm_r19,
    MAX(sm_r20) AS sm_r20,
    MAX(sm_r21) AS sm_r21,
    MAX(sm_r22) AS sm_r22,
    MAX(sm_r23) AS sm_r23,
    MAX(sm_r24) AS sm_r24,
    MAX(sm_r25) AS sm_r25,
    MAX(sm_r26) AS sm_r26,
    MAX(sm_r27) AS sm_r27,
    MAX(sm_r28) AS sm_r28,
    MAX(sm_r29) AS sm_r29,
    MAX(sm_r30) AS sm_r30,
    MAX(sm_r31) AS sm_r31,
    MAX(sm_r32) AS sm_r32,
    MAX(sm_r33) AS sm_r33,
    MAX(sm_r34) AS sm_r34,
    MAX(sm_r35) AS sm_r35,
    MAX(sm_r36) AS sm_r36,
    MAX(sm_r37) AS sm_r37,
    MAX(sm_r38) AS sm_r38,
    MAX(sm_r39) AS sm_r39,
    MAX(sm_r40) AS sm_r40,
    MAX(sm_r41) AS sm_r41,
    MAX(sm_r42) AS sm_r42,
    MAX(sm_r43) AS sm_r43,
    MAX(sm_r44) AS sm_r44,
    MAX(sm_r45) AS sm_r45,
    MAX(sm_r46) AS sm_r46,
    MAX(sm_r47) AS sm_r47,
    MAX(sm_r48) AS sm_r48,
    MAX(sm_r49) AS sm_r49,
    MAX(sm_r50) AS sm_r50,
    MAX(sm_r51) AS sm_r51,
    MAX(sm_r52) AS sm_r52,
    MAX(sm_r53) AS sm_r53,
    MAX(sm_plus2) AS sm_plus2,
    sm_s_next AS sm_s,
    SUM(sm_count) AS sm_count
  FROM (
    SELECT
      sm_cmp_level8.*,
      sm_s + sm_b0 * sm_r48 + sm_b1 * sm_r49 + sm_b2 * sm_r50 + sm_b3 * sm_r51 + sm_b4 * sm_r52 + sm_b5 * sm_r53 AS sm_s_next
    FROM sm_cmp_level8
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step9
  GROUP BY
    `country`,
    `sm_s_next`
), sm_cmp_exact AS (
  SELECT
    `country`,
    (
      CAST(SUM(CASE WHEN sm_s <= sm_plus2 THEN sm_count ELSE 0 END) AS FLOAT64) / NULLIF(CAST(SUM(sm_count) AS FLOAT64), 0)
    ) AS sm_p_low,
    (
      CAST(SUM(CASE WHEN sm_s >= sm_plus2 THEN sm_count ELSE 0 END) AS FLOAT64) / NULLIF(CAST(SUM(sm_count) AS FLOAT64), 0)
    ) AS sm_p_high
  FROM sm_cmp_level9
  GROUP BY
    `country`
), sm_cmp_tested AS (
  SELECT
    sm_cmp_w_z.*,
    CAST(CASE
      WHEN sm_plus2 < sm_n_nonzero * (
        sm_n_nonzero + 1
      ) - sm_plus2
      THEN sm_plus2
      ELSE sm_n_nonzero * (
        sm_n_nonzero + 1
      ) - sm_plus2
    END AS FLOAT64) / 2 AS sm_statistic,
    CASE
      WHEN sm_n_nonzero = 0
      THEN NULL
      WHEN sm_exact = 1
      THEN 2 * (
        CASE WHEN sm_p_low < sm_p_high THEN sm_p_low ELSE sm_p_high END
      )
      ELSE 2 * CASE
        WHEN sm_abs_z > 37
        THEN 0
        WHEN sm_abs_z < 7.07106781186547
        THEN EXP(-sm_abs_z * sm_abs_z / 2) * (
          CAST((
            (
              (
                (
                  (
                    (
                      0.03526249659989109 * sm_abs_z + 0.7003830644436881
                    ) * sm_abs_z + 6.373962203531650
                  ) * sm_abs_z + 33.91286607838300
                ) * sm_abs_z + 112.0792914978709
              ) * sm_abs_z + 221.2135961699311
            ) * sm_abs_z + 220.2068679123761
          ) AS FLOAT64) / NULLIF(
            CAST((
              (
                (
                  (
                    (
                      (
                        (
                          0.08838834764831844 * sm_abs_z + 1.755667163182642
                        ) * sm_abs_z + 16.06417757920695
                      ) * sm_abs_z + 86.78073220294608
                    ) * sm_abs_z + 296.5642487796737
                  ) * sm_abs_z + 637.3336333788311
                ) * sm_abs_z + 793.8265125199484
              ) * sm_abs_z + 440.4137358247522
            ) AS FLOAT64),
            0
          )
        )
        ELSE (
          CAST(EXP(-sm_abs_z * sm_abs_z / 2) AS FLOAT64) / NULLIF(
            CAST((
              sm_abs_z + (
                CAST(1 AS FLOAT64) / NULLIF(
                  CAST(sm_abs_z + (
                    CAST(2 AS FLOAT64) / NULLIF(
                      CAST(sm_abs_z + (
                        CAST(3 AS FLOAT64) / NULLIF(
                          CAST(sm_abs_z + (
                            CAST(4 AS FLOAT64) / NULLIF(CAST(sm_abs_z + 0.65 AS FLOAT64), 0)
                          ) AS FLOAT64),
                          0
                        )
                      ) AS FLOAT64),
                      0
                    )
                  ) AS FLOAT64),
                  0
                )
              )
            ) * 2.506628274631001 AS FLOAT64),
            0
          )
        )
      END
    END AS sm_p
  FROM (
    SELECT
      sm_cmp_w.*,
      (
        CAST(ABS(sm_plus2 / 2.0 - sm_n_nonzero * (
          sm_n_nonzero + 1
        ) / 4.0) AS FLOAT64) / NULLIF(
          CAST(SQRT(
            (
              sm_n_nonzero * (
                sm_n_nonzero + 1
              ) * (
                2 * sm_n_nonzero + 1
              ) - sm_tie_terms / 2.0
            ) / 24.0
          ) AS FLOAT64),
          0
        )
      ) AS sm_abs_z
    FROM (
      SELECT
        sm_cmp_t.`country` AS `country`,
        sm_cmp_t.`sm_n` AS `sm_n`,
        sm_cmp_t.`sm_estimate` AS `sm_estimate`,
        sm_cmp_t.`sm_other_estimate` AS `sm_other_estimate`,
        sm_cmp_t.`sm_difference` AS `sm_difference`,
        sm_cmp_t.`sm_se` AS `sm_se`,
        sm_cmp_t.`sm_t` AS `sm_t`,
        sm_cmp_t.`sm_df` AS `sm_df`,
        sm_cmp_t.`sm_wins` AS `sm_wins`,
        sm_cmp_t.`sm_losses` AS `sm_losses`,
        COALESCE(sm_sums.sm_n_nonzero_all, 0) AS sm_n_nonzero,
        COALESCE(sm_sums.sm_exact_all, 0) AS sm_exact,
        COALESCE(sm_sums.sm_plus2_all, 0) AS sm_plus2,
        COALESCE(sm_sums.sm_tie_terms_all, 0) AS sm_tie_terms,
        sm_exact_p.sm_p_low,
        sm_exact_p.sm_p_high
      FROM sm_cmp_t
      LEFT JOIN sm_cmp_signed_sums AS sm_sums
        ON (
          sm_cmp_t.`country` IS NOT DISTINCT FROM sm_sums.`country`
        )
      LEFT JOIN sm_cmp_exact AS sm_exact_p
        ON (
          sm_cmp_t.`country` IS NOT DISTINCT FROM sm_exact_p.`country`
        )
    ) AS sm_cmp_w
  ) AS sm_cmp_w_z
), sm_cmp_result AS (
  SELECT
    `country`,
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
          CAST(2.372271230298562 AS FLOAT64) / NULLIF(CAST(POWER(sm_df, 1) AS FLOAT64), 0)
        ) + (
          CAST(2.8224986157396112 AS FLOAT64) / NULLIF(CAST(POWER(sm_df, 2) AS FLOAT64), 0)
        ) + (
          CAST(2.555849679507722 AS FLOAT64) / NULLIF(CAST(POWER(sm_df, 3) AS FLOAT64), 0)
        ) + (
          CAST(1.5895340533938225 AS FLOAT64) / NULLIF(CAST(POWER(sm_df, 4) AS FLOAT64), 0)
        ) + (
          CAST(0.7328982119816051 AS FLOAT64) / NULLIF(CAST(POWER(sm_df, 5) AS FLOAT64), 0)
        )
      END AS sm_t_q
    FROM sm_cmp_tested
  ) AS sm_cmp_interval
)
SELECT
  `country`,
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
  n_losses,
  p_value_holm
FROM (
  SELECT
    sm_holm_terms.*,
    CASE
      WHEN p_value IS NULL
      THEN NULL
      WHEN MAX(sm_holm_term) OVER (
        ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END, p_value
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) > 1
      THEN 1
      ELSE MAX(sm_holm_term) OVER (
        ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END, p_value
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      )
    END AS p_value_holm
  FROM (
    SELECT
      sm_cmp_result.*,
      CASE
        WHEN NOT p_value IS NULL
        THEN (
          COUNT(p_value) OVER () - ROW_NUMBER() OVER (
            ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END NULLS LAST, p_value NULLS LAST
          ) + 1
        ) * p_value
      END AS sm_holm_term
    FROM sm_cmp_result
  ) AS sm_holm_terms
) AS sm_adjusted
