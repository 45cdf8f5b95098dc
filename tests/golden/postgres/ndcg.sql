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
    ) AS sm_idcg_1
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
      ORDER BY sm_run."score" DESC NULLS LAST
    ) AS sm_pos
  FROM analytics.run AS sm_run
  LEFT JOIN sm_judged
    ON sm_run."country" = sm_judged."country"
    AND sm_run."query_id" = sm_judged."query_id"
    AND sm_run."doc_id" = sm_judged.sm_item
), sm_marked AS (
  SELECT
    sm_rows.*,
    CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE PRECISION) THEN 1 ELSE 0 END AS sm_relevant,
    sm_rel AS sm_gain,
    CAST(1 AS DOUBLE PRECISION) / (
      CAST(LN(sm_pos + 1) AS DOUBLE PRECISION) / LN(2)
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
      PARTITION BY "country", "query_id"
      ORDER BY sm_score
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_gain,
    AVG(CAST(sm_relevant AS DOUBLE PRECISION)) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_score
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_relevant,
    AVG(sm_gain_exponential_scaled) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_score
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_gain_exponential_scaled
  FROM sm_marked
), sm_values AS (
  SELECT
    "country",
    "query_id",
    SUM(
      CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential_scaled * sm_disc
    ) AS sm_v_1,
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
    sm_queries.sm_n_graded AS sm_nonempty,
    CASE WHEN sm_values.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
    CASE
      WHEN sm_n_graded > 0 AND NOT (
        sm_idcg_1 > 1e-290
      )
      THEN CAST(CAST(CASE
        WHEN COALESCE(sm_n_graded > 0 AND NOT (
          sm_idcg_1 > 1e-290
        ), TRUE)
        THEN 'sqlmetrics: exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query; found ' || COALESCE(CAST(sm_queries."query_id" AS TEXT), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE PRECISION)
      ELSE CAST(sm_v_1 AS DOUBLE PRECISION) / NULLIF(sm_idcg_1, 0)
    END AS sm_value
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
        sm_nonempty > 0 OR 1 = 1
      )
      THEN 1
      ELSE 0
    END AS sm_included,
    CASE WHEN sm_in_run = 0 OR sm_nonempty = 0 THEN 0 ELSE sm_value END AS sm_score_value
  FROM sm_per_query
)
SELECT
  "country",
  CASE
    WHEN SUM(CASE WHEN sm_included = 1 THEN sm_nonempty ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included = 1 THEN sm_score_value END)
  END AS "ndcg",
  CAST(SUM(sm_included) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "country"
