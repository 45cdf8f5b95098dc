WITH sm_judged AS (
  SELECT
    "country",
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
  FROM analytics.qrels
), sm_queries AS (
  SELECT
    "country",
    "query_id",
    SUM(CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE) THEN 1 ELSE 0 END) AS sm_n_relevant,
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
    CAST(sm_run."score" AS DOUBLE) AS sm_score,
    CASE WHEN sm_judged.sm_rel > 0 THEN sm_judged.sm_rel ELSE 0 END AS sm_rel,
    ROW_NUMBER() OVER (
      PARTITION BY sm_run."country", sm_run."query_id"
      ORDER BY sm_run."score" DESC, CAST(sm_run."doc_id" AS VARCHAR) DESC
    ) AS sm_pos
  FROM analytics.run AS sm_run
  LEFT JOIN sm_judged
    ON sm_run."country" = sm_judged."country"
    AND sm_run."query_id" = sm_judged."query_id"
    AND sm_run."doc_id" = sm_judged.sm_item
), sm_values AS (
  SELECT
    "country",
    "query_id",
    COUNT(*) AS sm_retrieved,
    1 AS sm_in_run
  FROM sm_rows
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
    sm_retrieved AS sm_value
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
    CASE WHEN sm_in_run = 0 THEN 0 WHEN sm_nonempty = 0 THEN sm_value ELSE sm_value END AS sm_score_value
  FROM sm_per_query
)
SELECT
  "country",
  CAST(COALESCE(SUM(CASE WHEN sm_included = 1 THEN sm_score_value ELSE 0 END), 0) AS BIGINT) AS "num_ret",
  CAST(SUM(sm_included) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "country"
