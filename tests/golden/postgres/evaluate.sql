WITH sm_judged AS (
  SELECT
    "country",
    "query_id",
    "doc_id" AS sm_item,
    CASE
      WHEN NOT "relevance" IS NULL
      THEN CAST("relevance" AS DOUBLE PRECISION)
      ELSE CAST(CAST(CASE
        WHEN COALESCE("relevance" IS NULL, TRUE)
        THEN 'sqlmetrics: a relevance must be a number; found ' || COALESCE(CAST("relevance" AS TEXT), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE PRECISION)
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
    "country",
    "query_id",
    SUM(CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE PRECISION) THEN 1 ELSE 0 END) AS sm_n_relevant,
    SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded,
    MAX(CASE WHEN sm_rel > 0 THEN sm_rel ELSE 0 END) AS sm_top_grade,
    SUM(
      CASE
        WHEN sm_ideal_pos <= 10 AND sm_rel > 0
        THEN CAST(sm_rel AS DOUBLE PRECISION) / (
          CAST(LN(sm_ideal_pos + 1) AS DOUBLE PRECISION) / LN(2)
        )
        ELSE 0
      END
    ) AS sm_idcg_4,
    SUM(
      CASE
        WHEN sm_rel > 0
        THEN CAST(sm_rel AS DOUBLE PRECISION) / (
          CAST(LN(sm_ideal_pos + 1) AS DOUBLE PRECISION) / LN(2)
        )
        ELSE 0
      END
    ) AS sm_idcg_5,
    SUM(
      CASE
        WHEN sm_ideal_pos <= 10 AND sm_rel > 0
        THEN CAST((
          CASE
            WHEN (
              sm_rel - sm_grades.sm_shift
            ) > -1022
            THEN POWER(2, sm_rel - sm_grades.sm_shift)
            ELSE 0
          END - sm_grades.sm_unit
        ) AS DOUBLE PRECISION) / (
          CAST(LN(sm_ideal_pos + 1) AS DOUBLE PRECISION) / LN(2)
        )
        ELSE 0
      END
    ) AS sm_idcg_6
  FROM (
    SELECT
      sm_judged.*,
      ROW_NUMBER() OVER (PARTITION BY "country", "query_id" ORDER BY sm_rel DESC NULLS LAST) AS sm_ideal_pos
    FROM sm_judged
  ) AS sm_ideal
  CROSS JOIN sm_grades
  GROUP BY
    "country",
    "query_id"
), sm_rows AS (
  SELECT
    sm_run."country" AS "country",
    sm_run."query_id" AS "query_id",
    sm_run."doc_id" AS sm_item,
    CAST(sm_run."score" AS DOUBLE PRECISION) AS sm_score,
    CASE WHEN sm_judged.sm_rel > 0 THEN sm_judged.sm_rel ELSE 0 END AS sm_rel,
    ROW_NUMBER() OVER (
      PARTITION BY sm_run."country", sm_run."query_id"
      ORDER BY sm_run."score" DESC NULLS LAST, CAST(sm_run."doc_id" AS TEXT) COLLATE "C" DESC NULLS LAST
    ) AS sm_pos
  FROM analytics.run AS sm_run
  LEFT JOIN sm_judged
    ON sm_run."country" = sm_judged."country"
    AND sm_run."query_id" = sm_judged."query_id"
    AND sm_run."doc_id" = sm_judged.sm_item
), sm_marked AS (
  SELECT
    sm_rows.*,
    sm_queries.sm_n_relevant,
    CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE PRECISION) THEN 1 ELSE 0 END AS sm_relevant,
    sm_rel AS sm_gain,
    CAST(1 AS DOUBLE PRECISION) / (
      CAST(LN(sm_pos + 1) AS DOUBLE PRECISION) / LN(2)
    ) AS sm_disc,
    1 AS sm_in_k,
    (
      POWER(2, sm_rel) - 1
    ) AS sm_gain_exponential,
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
  JOIN (
    SELECT
      "country" AS sm_key_1,
      "query_id" AS sm_key_2,
      sm_n_relevant
    FROM sm_queries
  ) AS sm_queries
    ON sm_rows."country" = sm_queries.sm_key_1
    AND sm_rows."query_id" = sm_queries.sm_key_2
), sm_ranked AS (
  SELECT
    sm_marked.*,
    sm_gain AS sm_eff_gain,
    sm_relevant AS sm_eff_relevant,
    sm_gain_exponential AS sm_eff_gain_exponential,
    sm_gain_exponential_scaled AS sm_eff_gain_exponential_scaled,
    SUM(sm_relevant) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_pos
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_cum_relevant
  FROM sm_marked
), sm_values AS (
  SELECT
    "country",
    "query_id",
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain * sm_disc) AS sm_v_1,
    SUM(1 * sm_eff_gain * sm_disc) AS sm_v_2,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential * sm_disc) AS sm_v_3,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain * sm_disc) AS sm_v_4,
    SUM(1 * sm_eff_gain * sm_disc) AS sm_v_5,
    SUM(
      CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential_scaled * sm_disc
    ) AS sm_v_6,
    SUM(
      CAST(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_relevant * CAST(sm_cum_relevant AS DOUBLE PRECISION) AS DOUBLE PRECISION) / sm_pos
    ) AS sm_v_7,
    SUM(
      CAST(1 * sm_relevant * CAST(sm_cum_relevant AS DOUBLE PRECISION) AS DOUBLE PRECISION) / sm_pos
    ) AS sm_v_8,
    MAX(
      CASE
        WHEN sm_pos <= 10 AND sm_relevant = 1
        THEN 1 / CAST(sm_pos AS DOUBLE PRECISION)
        ELSE 0
      END
    ) AS sm_v_9,
    MAX(CASE WHEN sm_relevant = 1 THEN 1 / CAST(sm_pos AS DOUBLE PRECISION) ELSE 0 END) AS sm_v_10,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_relevant) AS sm_v_11,
    SUM(1 * sm_eff_relevant) AS sm_v_12,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_relevant) AS sm_v_13,
    SUM(1 * sm_eff_relevant) AS sm_v_14,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_relevant) AS sm_v_15,
    SUM(1 * sm_relevant) AS sm_v_16,
    MAX(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_relevant) AS sm_v_17,
    SUM(CASE WHEN sm_pos <= sm_ranked.sm_n_relevant THEN sm_relevant ELSE 0 END) AS sm_v_18,
    SUM(
      CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_rel * (
        1 - CAST(0.9 AS DOUBLE PRECISION)
      ) * CASE
        WHEN (
          sm_pos - 1
        ) * LN(CAST(0.9 AS DOUBLE PRECISION)) > -707
        THEN POWER(CAST(0.9 AS DOUBLE PRECISION), sm_pos - 1)
        ELSE 0
      END
    ) AS sm_v_19,
    SUM(
      1 * sm_rel * (
        1 - CAST(0.9 AS DOUBLE PRECISION)
      ) * CASE
        WHEN (
          sm_pos - 1
        ) * LN(CAST(0.9 AS DOUBLE PRECISION)) > -707
        THEN POWER(CAST(0.9 AS DOUBLE PRECISION), sm_pos - 1)
        ELSE 0
      END
    ) AS sm_v_20,
    COUNT(*) AS sm_retrieved,
    1 AS sm_in_run
  FROM sm_ranked
  GROUP BY
    "country",
    "query_id"
), sm_per_query AS (
  SELECT
    sm_queries."country" AS "country",
    sm_queries."query_id" AS "query_id",
    sm_queries.sm_n_relevant,
    sm_queries.sm_n_graded AS sm_nonempty_1,
    sm_queries.sm_n_graded AS sm_nonempty_2,
    sm_queries.sm_n_graded AS sm_nonempty_3,
    sm_queries.sm_n_graded AS sm_nonempty_4,
    sm_queries.sm_n_graded AS sm_nonempty_5,
    sm_queries.sm_n_graded AS sm_nonempty_6,
    sm_queries.sm_n_relevant AS sm_nonempty_7,
    sm_queries.sm_n_relevant AS sm_nonempty_8,
    sm_queries.sm_n_relevant AS sm_nonempty_9,
    sm_queries.sm_n_relevant AS sm_nonempty_10,
    sm_queries.sm_n_relevant AS sm_nonempty_11,
    sm_queries.sm_n_relevant AS sm_nonempty_12,
    sm_queries.sm_n_relevant AS sm_nonempty_13,
    sm_queries.sm_n_relevant AS sm_nonempty_14,
    sm_queries.sm_n_relevant AS sm_nonempty_15,
    sm_queries.sm_n_relevant AS sm_nonempty_16,
    sm_queries.sm_n_relevant AS sm_nonempty_17,
    sm_queries.sm_n_relevant AS sm_nonempty_18,
    sm_queries.sm_n_graded AS sm_nonempty_19,
    sm_queries.sm_n_graded AS sm_nonempty_20,
    CASE WHEN sm_values.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
    CASE
      WHEN sm_v_1 >= CAST('inf' AS DOUBLE PRECISION)
      THEN CAST(CAST(CASE
        WHEN COALESCE(sm_v_1 >= CAST('inf' AS DOUBLE PRECISION), TRUE)
        THEN 'sqlmetrics: the DCG of a query overflows a double (exponential gain 2^relevance - 1): use gain=linear, or ndcg; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE PRECISION)
      ELSE sm_v_1
    END AS sm_value_1,
    CASE
      WHEN sm_v_2 >= CAST('inf' AS DOUBLE PRECISION)
      THEN CAST(CAST(CASE
        WHEN COALESCE(sm_v_2 >= CAST('inf' AS DOUBLE PRECISION), TRUE)
        THEN 'sqlmetrics: the DCG of a query overflows a double (exponential gain 2^relevance - 1): use gain=linear, or ndcg; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE PRECISION)
      ELSE sm_v_2
    END AS sm_value_2,
    CASE
      WHEN sm_v_3 >= CAST('inf' AS DOUBLE PRECISION)
      THEN CAST(CAST(CASE
        WHEN COALESCE(sm_v_3 >= CAST('inf' AS DOUBLE PRECISION), TRUE)
        THEN 'sqlmetrics: the DCG of a query overflows a double (exponential gain 2^relevance - 1): use gain=linear, or ndcg; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE PRECISION)
      ELSE sm_v_3
    END AS sm_value_3,
    CAST(sm_v_4 AS DOUBLE PRECISION) / NULLIF(sm_idcg_4, 0) AS sm_value_4,
    CAST(sm_v_5 AS DOUBLE PRECISION) / NULLIF(sm_idcg_5, 0) AS sm_value_5,
    CASE
      WHEN sm_n_graded > 0 AND NOT (
        sm_idcg_6 > 1e-290
      )
      THEN CAST(CAST(CASE
        WHEN COALESCE(sm_n_graded > 0 AND NOT (
          sm_idcg_6 > 1e-290
        ), TRUE)
        THEN 'sqlmetrics: exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE PRECISION)
      ELSE CAST(sm_v_6 AS DOUBLE PRECISION) / NULLIF(sm_idcg_6, 0)
    END AS sm_value_6,
    (
      CAST(sm_v_7 AS DOUBLE PRECISION) / NULLIF(CAST(sm_n_relevant AS DOUBLE PRECISION), 0)
    ) AS sm_value_7,
    (
      CAST(sm_v_8 AS DOUBLE PRECISION) / NULLIF(CAST(sm_n_relevant AS DOUBLE PRECISION), 0)
    ) AS sm_value_8,
    sm_v_9 AS sm_value_9,
    sm_v_10 AS sm_value_10,
    sm_v_11 / CAST(10 AS DOUBLE PRECISION) AS sm_value_11,
    (
      CAST(sm_v_12 AS DOUBLE PRECISION) / NULLIF(CAST(sm_retrieved AS DOUBLE PRECISION), 0)
    ) AS sm_value_12,
    (
      CAST(sm_v_13 AS DOUBLE PRECISION) / NULLIF(CAST(sm_n_relevant AS DOUBLE PRECISION), 0)
    ) AS sm_value_13,
    (
      CAST(sm_v_14 AS DOUBLE PRECISION) / NULLIF(CAST(sm_n_relevant AS DOUBLE PRECISION), 0)
    ) AS sm_value_14,
    (
      CAST(sm_v_15 AS DOUBLE PRECISION) / NULLIF(
        CAST(CASE
          WHEN sm_n_relevant < CAST(10 AS DOUBLE PRECISION)
          THEN sm_n_relevant
          ELSE CAST(10 AS DOUBLE PRECISION)
        END AS DOUBLE PRECISION),
        0
      )
    ) AS sm_value_15,
    (
      CAST(sm_v_16 AS DOUBLE PRECISION) / NULLIF(
        CAST(CASE WHEN sm_n_relevant < sm_retrieved THEN sm_n_relevant ELSE sm_retrieved END AS DOUBLE PRECISION),
        0
      )
    ) AS sm_value_16,
    CAST(sm_v_17 AS DOUBLE PRECISION) AS sm_value_17,
    (
      CAST(sm_v_18 AS DOUBLE PRECISION) / NULLIF(CAST(sm_queries.sm_n_relevant AS DOUBLE PRECISION), 0)
    ) AS sm_value_18,
    (
      CAST(sm_v_19 AS DOUBLE PRECISION) / NULLIF(
        CAST(CASE WHEN sm_top_grade > 1 THEN sm_top_grade ELSE 1 END AS DOUBLE PRECISION),
        0
      )
    ) AS sm_value_19,
    (
      CAST(sm_v_20 AS DOUBLE PRECISION) / NULLIF(
        CAST(CASE WHEN sm_top_grade > 1 THEN sm_top_grade ELSE 1 END AS DOUBLE PRECISION),
        0
      )
    ) AS sm_value_20
  FROM sm_queries
  LEFT JOIN sm_values
    ON sm_queries."country" = sm_values."country"
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
    CASE WHEN sm_in_run = 0 OR sm_nonempty_4 = 0 THEN 0 ELSE sm_value_4 END AS sm_score_value_4,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_5 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_5,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_5 = 0 THEN 0 ELSE sm_value_5 END AS sm_score_value_5,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_6 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_6,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_6 = 0 THEN 0 ELSE sm_value_6 END AS sm_score_value_6,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_7 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_7,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_7 = 0 THEN 0 ELSE sm_value_7 END AS sm_score_value_7,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_8 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_8,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_8 = 0 THEN 0 ELSE sm_value_8 END AS sm_score_value_8,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_9 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_9,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_9 = 0 THEN 0 ELSE sm_value_9 END AS sm_score_value_9,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_10 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_10,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_10 = 0 THEN 0 ELSE sm_value_10 END AS sm_score_value_10,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_11 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_11,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_11 = 0 THEN 0 ELSE sm_value_11 END AS sm_score_value_11,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_12 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_12,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_12 = 0 THEN 0 ELSE sm_value_12 END AS sm_score_value_12,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_13 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_13,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_13 = 0 THEN 0 ELSE sm_value_13 END AS sm_score_value_13,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_14 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_14,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_14 = 0 THEN 0 ELSE sm_value_14 END AS sm_score_value_14,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_15 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_15,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_15 = 0 THEN 0 ELSE sm_value_15 END AS sm_score_value_15,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_16 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_16,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_16 = 0 THEN 0 ELSE sm_value_16 END AS sm_score_value_16,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_17 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_17,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_17 = 0 THEN 0 ELSE sm_value_17 END AS sm_score_value_17,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_18 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_18,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_18 = 0 THEN 0 ELSE sm_value_18 END AS sm_score_value_18,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_19 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_19,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_19 = 0 THEN 0 ELSE sm_value_19 END AS sm_score_value_19,
    CASE
      WHEN (
        sm_in_run = 1 OR 1 = 1
      ) AND (
        sm_nonempty_20 > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included_20,
    CASE WHEN sm_in_run = 0 OR sm_nonempty_20 = 0 THEN 0 ELSE sm_value_20 END AS sm_score_value_20
  FROM sm_per_query
)
SELECT
  "country",
  CASE
    WHEN SUM(CASE WHEN sm_included_1 = 1 THEN sm_nonempty_1 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_1 = 1 THEN sm_score_value_1 END)
  END AS "dcg@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_2 = 1 THEN sm_nonempty_2 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_2 = 1 THEN sm_score_value_2 END)
  END AS "dcg",
  CASE
    WHEN SUM(CASE WHEN sm_included_3 = 1 THEN sm_nonempty_3 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_3 = 1 THEN sm_score_value_3 END)
  END AS "dcg_burges@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_4 = 1 THEN sm_nonempty_4 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_4 = 1 THEN sm_score_value_4 END)
  END AS "ndcg@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_5 = 1 THEN sm_nonempty_5 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_5 = 1 THEN sm_score_value_5 END)
  END AS "ndcg",
  CASE
    WHEN SUM(CASE WHEN sm_included_6 = 1 THEN sm_nonempty_6 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_6 = 1 THEN sm_score_value_6 END)
  END AS "ndcg_burges@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_7 = 1 THEN sm_nonempty_7 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_7 = 1 THEN sm_score_value_7 END)
  END AS "mean_average_precision@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_8 = 1 THEN sm_nonempty_8 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_8 = 1 THEN sm_score_value_8 END)
  END AS "mean_average_precision",
  CASE
    WHEN SUM(CASE WHEN sm_included_9 = 1 THEN sm_nonempty_9 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_9 = 1 THEN sm_score_value_9 END)
  END AS "mrr@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_10 = 1 THEN sm_nonempty_10 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_10 = 1 THEN sm_score_value_10 END)
  END AS "mrr",
  CASE
    WHEN SUM(CASE WHEN sm_included_11 = 1 THEN sm_nonempty_11 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_11 = 1 THEN sm_score_value_11 END)
  END AS "precision_at_k@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_12 = 1 THEN sm_nonempty_12 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_12 = 1 THEN sm_score_value_12 END)
  END AS "set_precision",
  CASE
    WHEN SUM(CASE WHEN sm_included_13 = 1 THEN sm_nonempty_13 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_13 = 1 THEN sm_score_value_13 END)
  END AS "recall_at_k@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_14 = 1 THEN sm_nonempty_14 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_14 = 1 THEN sm_score_value_14 END)
  END AS "set_recall",
  CASE
    WHEN SUM(CASE WHEN sm_included_15 = 1 THEN sm_nonempty_15 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_15 = 1 THEN sm_score_value_15 END)
  END AS "relative_precision@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_16 = 1 THEN sm_nonempty_16 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_16 = 1 THEN sm_score_value_16 END)
  END AS "relative_precision",
  CASE
    WHEN SUM(CASE WHEN sm_included_17 = 1 THEN sm_nonempty_17 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_17 = 1 THEN sm_score_value_17 END)
  END AS "hit_rate@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_18 = 1 THEN sm_nonempty_18 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_18 = 1 THEN sm_score_value_18 END)
  END AS "r_precision",
  CASE
    WHEN SUM(CASE WHEN sm_included_19 = 1 THEN sm_nonempty_19 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_19 = 1 THEN sm_score_value_19 END)
  END AS "rbp@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_20 = 1 THEN sm_nonempty_20 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_20 = 1 THEN sm_score_value_20 END)
  END AS "rbp",
  CAST(SUM(sm_included_1) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty_1 = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "country"
