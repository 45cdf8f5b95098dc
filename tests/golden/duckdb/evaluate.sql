WITH sm_judged AS (
  SELECT
    "country",
    "query_id",
    "doc_id" AS sm_item,
    CASE
      WHEN NOT "relevance" IS NULL
      THEN CAST("relevance" AS DOUBLE)
      ELSE CAST(CASE
        WHEN COALESCE("relevance" IS NULL, TRUE)
        THEN ERROR(
          'sqlmetrics: a relevance must be a number; found ' || COALESCE(CAST("relevance" AS TEXT), 'NULL')
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
    "country",
    "query_id",
    SUM(CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE) THEN 1 ELSE 0 END) AS sm_n_relevant,
    SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded,
    SUM(CASE WHEN sm_rel > 0 THEN sm_rel / (
      LN(sm_ideal_pos + 1) / LN(2)
    ) ELSE 0 END) AS sm_idcg,
    SUM(
      CASE
        WHEN sm_ideal_pos <= 10 AND sm_rel > 0
        THEN sm_rel / (
          LN(sm_ideal_pos + 1) / LN(2)
        )
        ELSE 0
      END
    ) AS sm_idcg_1,
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
    ) AS sm_idcg_2
  FROM (
    SELECT
      sm_judged.*,
      ROW_NUMBER() OVER (PARTITION BY "country", "query_id" ORDER BY sm_rel DESC) AS sm_ideal_pos
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
    CAST(sm_run."score" AS DOUBLE) AS sm_score,
    CASE WHEN sm_judged.sm_rel > 0 THEN sm_judged.sm_rel ELSE 0 END AS sm_rel,
    ROW_NUMBER() OVER (
      PARTITION BY sm_run."country", sm_run."query_id"
      ORDER BY sm_run."score" DESC, CAST(sm_run."doc_id" AS TEXT) COLLATE "binary" DESC
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
    ) AS sm_gain_exponential_scaled,
    (
      POWER(2, sm_rel) - 1
    ) AS sm_gain_exponential
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
    sm_gain_exponential_scaled AS sm_eff_gain_exponential_scaled,
    sm_gain_exponential AS sm_eff_gain_exponential,
    SUM(sm_relevant) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_pos ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_cum_relevant
  FROM sm_marked
), sm_values AS (
  SELECT
    "country",
    "query_id",
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain * sm_disc) AS sm_v_1,
    SUM(
      CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential_scaled * sm_disc
    ) AS sm_v_2,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain * sm_disc) AS sm_v_3,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential * sm_disc) AS sm_v_4,
    SUM(1 * sm_relevant * CAST(sm_cum_relevant AS DOUBLE) / sm_pos) AS sm_v_5,
    SUM(
      CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_relevant * CAST(sm_cum_relevant AS DOUBLE) / sm_pos
    ) AS sm_v_6,
    MAX(
      CASE
        WHEN sm_pos <= 10 AND sm_relevant = 1
        THEN 1 / CAST(sm_pos AS DOUBLE)
        ELSE 0
      END
    ) AS sm_v_7,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_relevant) AS sm_v_8,
    SUM(1 * sm_eff_relevant) AS sm_v_9,
    SUM(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_relevant) AS sm_v_10,
    SUM(1 * sm_eff_relevant) AS sm_v_11,
    MAX(CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_relevant) AS sm_v_12,
    SUM(CASE WHEN sm_pos <= sm_n_relevant THEN sm_relevant ELSE 0 END) AS sm_v_13,
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
    sm_queries.sm_n_relevant AS sm_nonempty_5,
    sm_queries.sm_n_relevant AS sm_nonempty_6,
    sm_queries.sm_n_relevant AS sm_nonempty_7,
    sm_queries.sm_n_relevant AS sm_nonempty_8,
    sm_queries.sm_n_relevant AS sm_nonempty_9,
    sm_queries.sm_n_relevant AS sm_nonempty_10,
    sm_queries.sm_n_relevant AS sm_nonempty_11,
    sm_queries.sm_n_relevant AS sm_nonempty_12,
    sm_queries.sm_n_relevant AS sm_nonempty_13,
    CASE WHEN sm_values.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
    sm_v_1 / NULLIF(sm_idcg_1, 0) AS sm_value_1,
    CASE
      WHEN sm_n_graded > 0 AND NOT (
        sm_idcg_2 > 1e-290
      )
      THEN CAST(CASE
        WHEN COALESCE(sm_n_graded > 0 AND NOT (
          sm_idcg_2 > 1e-290
        ), TRUE)
        THEN ERROR(
          'sqlmetrics: exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        )
      END AS DOUBLE)
      ELSE sm_v_2 / NULLIF(sm_idcg_2, 0)
    END AS sm_value_2,
    CASE
      WHEN sm_v_3 >= CAST('inf' AS DOUBLE)
      THEN CAST(CASE
        WHEN COALESCE(sm_v_3 >= CAST('inf' AS DOUBLE), TRUE)
        THEN ERROR(
          'sqlmetrics: the DCG of a query overflows a double (exponential gain 2^relevance - 1): use gain=linear, or ndcg; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        )
      END AS DOUBLE)
      ELSE sm_v_3
    END AS sm_value_3,
    CASE
      WHEN sm_v_4 >= CAST('inf' AS DOUBLE)
      THEN CAST(CASE
        WHEN COALESCE(sm_v_4 >= CAST('inf' AS DOUBLE), TRUE)
        THEN ERROR(
          'sqlmetrics: the DCG of a query overflows a double (exponential gain 2^relevance - 1): use gain=linear, or ndcg; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        )
      END AS DOUBLE)
      ELSE sm_v_4
    END AS sm_value_4,
    (
      CAST(sm_v_5 AS DOUBLE) / NULLIF(CAST(sm_n_relevant AS DOUBLE), 0)
    ) AS sm_value_5,
    (
      CAST(sm_v_6 AS DOUBLE) / NULLIF(CAST(sm_n_relevant AS DOUBLE), 0)
    ) AS sm_value_6,
    sm_v_7 AS sm_value_7,
    sm_v_8 / CAST(10 AS DOUBLE) AS sm_value_8,
    (
      CAST(sm_v_9 AS DOUBLE) / NULLIF(CAST(sm_retrieved AS DOUBLE), 0)
    ) AS sm_value_9,
    (
      CAST(sm_v_10 AS DOUBLE) / NULLIF(CAST(sm_n_relevant AS DOUBLE), 0)
    ) AS sm_value_10,
    (
      CAST(sm_v_11 AS DOUBLE) / NULLIF(CAST(sm_n_relevant AS DOUBLE), 0)
    ) AS sm_value_11,
    CAST(sm_v_12 AS DOUBLE) AS sm_value_12,
    (
      CAST(sm_v_13 AS DOUBLE) / NULLIF(CAST(sm_queries.sm_n_relevant AS DOUBLE), 0)
    ) AS sm_value_13
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
    CASE WHEN sm_in_run = 0 OR sm_nonempty_13 = 0 THEN 0 ELSE sm_value_13 END AS sm_score_value_13
  FROM sm_per_query
)
SELECT
  "country",
  CASE
    WHEN SUM(CASE WHEN sm_included_1 = 1 THEN sm_nonempty_1 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_1 = 1 THEN sm_score_value_1 END)
  END AS "ndcg@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_2 = 1 THEN sm_nonempty_2 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_2 = 1 THEN sm_score_value_2 END)
  END AS "ndcg_burges@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_3 = 1 THEN sm_nonempty_3 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_3 = 1 THEN sm_score_value_3 END)
  END AS "dcg@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_4 = 1 THEN sm_nonempty_4 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_4 = 1 THEN sm_score_value_4 END)
  END AS "dcg_burges@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_5 = 1 THEN sm_nonempty_5 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_5 = 1 THEN sm_score_value_5 END)
  END AS "map",
  CASE
    WHEN SUM(CASE WHEN sm_included_6 = 1 THEN sm_nonempty_6 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_6 = 1 THEN sm_score_value_6 END)
  END AS "map_cut_10",
  CASE
    WHEN SUM(CASE WHEN sm_included_7 = 1 THEN sm_nonempty_7 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_7 = 1 THEN sm_score_value_7 END)
  END AS "mrr@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_8 = 1 THEN sm_nonempty_8 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_8 = 1 THEN sm_score_value_8 END)
  END AS "P@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_9 = 1 THEN sm_nonempty_9 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_9 = 1 THEN sm_score_value_9 END)
  END AS "set_P",
  CASE
    WHEN SUM(CASE WHEN sm_included_10 = 1 THEN sm_nonempty_10 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_10 = 1 THEN sm_score_value_10 END)
  END AS "recall@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_11 = 1 THEN sm_nonempty_11 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_11 = 1 THEN sm_score_value_11 END)
  END AS "set_recall",
  CASE
    WHEN SUM(CASE WHEN sm_included_12 = 1 THEN sm_nonempty_12 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_12 = 1 THEN sm_score_value_12 END)
  END AS "hit_rate@10",
  CASE
    WHEN SUM(CASE WHEN sm_included_13 = 1 THEN sm_nonempty_13 ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included_13 = 1 THEN sm_score_value_13 END)
  END AS "Rprec",
  CAST(SUM(sm_included_1) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty_1 = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "country"
