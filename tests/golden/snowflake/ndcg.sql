WITH sm_judged AS (
  SELECT
    "COUNTRY",
    "QUERY_ID",
    "DOC_ID" AS sm_item,
    CASE
      WHEN NOT "RELEVANCE" IS NULL
      THEN CAST("RELEVANCE" AS DOUBLE)
      ELSE CAST(CAST(CASE
        WHEN COALESCE("RELEVANCE" IS NULL, TRUE)
        THEN 'sqlmetrics: a relevance must be a number; found ' || COALESCE(CAST("RELEVANCE" AS VARCHAR), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE)
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
    "COUNTRY",
    "QUERY_ID",
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
      ROW_NUMBER() OVER (PARTITION BY "COUNTRY", "QUERY_ID" ORDER BY sm_rel DESC NULLS LAST) AS sm_ideal_pos
    FROM sm_judged
  ) AS sm_ideal
  CROSS JOIN sm_grades
  GROUP BY
    "COUNTRY",
    "QUERY_ID"
), sm_rows AS (
  SELECT
    sm_run."COUNTRY" AS "COUNTRY",
    sm_run."QUERY_ID" AS "QUERY_ID",
    sm_run."DOC_ID" AS sm_item,
    CAST(sm_run."SCORE" AS DOUBLE) AS sm_score,
    CASE WHEN sm_judged.sm_rel > 0 THEN sm_judged.sm_rel ELSE 0 END AS sm_rel,
    ROW_NUMBER() OVER (
      PARTITION BY sm_run."COUNTRY", sm_run."QUERY_ID"
      ORDER BY sm_run."SCORE" DESC NULLS LAST
    ) AS sm_pos
  FROM analytics.run AS sm_run
  LEFT JOIN sm_judged
    ON sm_run."COUNTRY" = sm_judged."COUNTRY"
    AND sm_run."QUERY_ID" = sm_judged."QUERY_ID"
    AND sm_run."DOC_ID" = sm_judged.sm_item
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
      PARTITION BY "COUNTRY", "QUERY_ID"
      ORDER BY sm_score
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_gain,
    AVG(CAST(sm_relevant AS DOUBLE)) OVER (
      PARTITION BY "COUNTRY", "QUERY_ID"
      ORDER BY sm_score
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_relevant,
    AVG(sm_gain_exponential_scaled) OVER (
      PARTITION BY "COUNTRY", "QUERY_ID"
      ORDER BY sm_score
      RANGE BETWEEN CURRENT ROW AND CURRENT ROW
    ) AS sm_eff_gain_exponential_scaled
  FROM sm_marked
), sm_values AS (
  SELECT
    "COUNTRY",
    "QUERY_ID",
    SUM(
      CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END * sm_eff_gain_exponential_scaled * sm_disc
    ) AS sm_v_1,
    1 AS sm_in_run
  FROM sm_ranked
  GROUP BY
    "COUNTRY",
    "QUERY_ID"
), sm_per_query AS (
  SELECT
    sm_queries."COUNTRY" AS "COUNTRY",
    sm_queries."QUERY_ID" AS "QUERY_ID",
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
        THEN 'sqlmetrics: exponential gains of this query (2^relevance - 1) are too small next to the largest grade of the judgments to be represented: use gain=linear; query; found ' || COALESCE(CAST(sm_queries."QUERY_ID" AS VARCHAR), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE)
      ELSE sm_v_1 / NULLIF(sm_idcg_1, 0)
    END AS sm_value
  FROM sm_queries
  LEFT JOIN sm_values
    ON sm_queries."COUNTRY" = sm_values."COUNTRY"
    AND sm_queries."QUERY_ID" = sm_values."QUERY_ID"
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
  "COUNTRY",
  CASE
    WHEN SUM(CASE WHEN sm_included = 1 THEN sm_nonempty ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included = 1 THEN sm_score_value END)
  END AS "NDCG",
  CAST(SUM(sm_included) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "COUNTRY"
