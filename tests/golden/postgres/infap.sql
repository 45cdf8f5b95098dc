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
), sm_queries AS (
  SELECT
    "country",
    "query_id",
    SUM(CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE PRECISION) THEN 1 ELSE 0 END) AS sm_n_relevant,
    SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded
  FROM sm_judged
  GROUP BY
    "country",
    "query_id"
), sm_rows AS (
  SELECT
    sm_run."country" AS "country",
    sm_run."query_id" AS "query_id",
    sm_run."doc_id" AS sm_item,
    CAST(sm_run."score" AS DOUBLE PRECISION) AS sm_score,
    CASE WHEN sm_marked_judged.sm_rel > 0 THEN sm_marked_judged.sm_rel ELSE 0 END AS sm_rel,
    CASE
      WHEN sm_marked_judged.sm_is_judged = 1 AND sm_marked_judged.sm_rel >= 0
      THEN 1
      ELSE 0
    END AS sm_is_judged,
    CASE WHEN sm_marked_judged.sm_is_judged = 1 THEN 1 ELSE 0 END AS sm_in_pool,
    ROW_NUMBER() OVER (
      PARTITION BY sm_run."country", sm_run."query_id"
      ORDER BY sm_run."score" DESC NULLS LAST, CAST(sm_run."doc_id" AS TEXT) COLLATE "C" DESC NULLS LAST
    ) AS sm_pos
  FROM analytics.run AS sm_run
  LEFT JOIN (
    SELECT
      sm_judged.*,
      1 AS sm_is_judged
    FROM sm_judged
  ) AS sm_marked_judged
    ON sm_run."country" = sm_marked_judged."country"
    AND sm_run."query_id" = sm_marked_judged."query_id"
    AND sm_run."doc_id" = sm_marked_judged.sm_item
), sm_marked AS (
  SELECT
    sm_rows.*,
    CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE PRECISION) THEN 1 ELSE 0 END AS sm_relevant,
    sm_rel AS sm_gain,
    CAST(1 AS DOUBLE PRECISION) / (
      CAST(LN(sm_pos + 1) AS DOUBLE PRECISION) / LN(2)
    ) AS sm_disc,
    1 AS sm_in_k
  FROM sm_rows
), sm_ranked AS (
  SELECT
    sm_marked.*,
    sm_gain AS sm_eff_gain,
    sm_relevant AS sm_eff_relevant,
    SUM(sm_relevant) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_pos
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_relevant AS sm_relevant_above,
    SUM(sm_is_judged) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_pos
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_is_judged AS sm_judged_above,
    SUM(sm_in_pool) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_pos
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_in_pool AS sm_pooled_above
  FROM sm_marked
), sm_values AS (
  SELECT
    "country",
    "query_id",
    SUM(
      CASE
        WHEN sm_relevant = 1
        THEN (
          CAST(1 + sm_pooled_above * (
            CAST(sm_relevant_above + CAST(0.00001 AS DOUBLE PRECISION) AS DOUBLE PRECISION) / NULLIF(
              CAST(sm_judged_above + 2 * CAST(0.00001 AS DOUBLE PRECISION) AS DOUBLE PRECISION),
              0
            )
          ) AS DOUBLE PRECISION) / NULLIF(CAST(sm_pos AS DOUBLE PRECISION), 0)
        )
        ELSE 0
      END
    ) AS sm_inferred,
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
    sm_queries.sm_n_relevant AS sm_nonempty,
    CASE WHEN sm_values.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
    (
      CAST(sm_inferred AS DOUBLE PRECISION) / NULLIF(CAST(sm_queries.sm_n_relevant AS DOUBLE PRECISION), 0)
    ) AS sm_value
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
  END AS "infap",
  CAST(SUM(sm_included) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "country"
