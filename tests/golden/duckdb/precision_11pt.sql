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
    CASE WHEN sm_rel >= CAST(1.0 AS DOUBLE) THEN 1 ELSE 0 END AS sm_relevant,
    sm_rel AS sm_gain,
    1 / (
      LN(sm_pos + 1) / LN(2)
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
      ORDER BY sm_pos ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_cum_relevant
  FROM sm_marked
), sm_levels AS (
  SELECT
    CAST(0.0 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.1 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.2 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.3 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.4 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.5 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.6 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.7 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.8 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(0.9 AS DOUBLE) AS recall_level
  UNION ALL
  SELECT
    CAST(1.0 AS DOUBLE) AS recall_level
), sm_level_queries AS (
  SELECT
    sm_scaled.*,
    CASE
      WHEN sm_scaled_level < 0.5
      THEN 1
      ELSE CAST(FLOOR(sm_scaled_level) AS BIGINT) + CASE WHEN sm_scaled_level - FLOOR(sm_scaled_level) >= 0.5 THEN 1 ELSE 0 END
    END AS sm_needed
  FROM (
    SELECT
      sm_queries.*,
      sm_levels.recall_level AS recall_level,
      sm_levels.recall_level * CAST(sm_queries.sm_n_relevant AS DOUBLE) AS sm_scaled_level
    FROM sm_queries
    CROSS JOIN sm_levels
  ) AS sm_scaled
), sm_hits AS (
  SELECT
    "country",
    "query_id",
    sm_cum_relevant,
    1 AS sm_is_hit,
    MAX((
      CAST(sm_cum_relevant AS DOUBLE) / NULLIF(CAST(sm_pos AS DOUBLE), 0)
    )) OVER (
      PARTITION BY "country", "query_id"
      ORDER BY sm_pos DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_int_precision
  FROM sm_ranked
  WHERE
    sm_relevant = 1
), sm_level_values AS (
  SELECT
    sm_level_queries."country" AS "country",
    sm_level_queries."recall_level" AS "recall_level",
    sm_level_queries."query_id" AS "query_id",
    CASE WHEN sm_hits.sm_is_hit = 1 THEN sm_hits.sm_int_precision ELSE 0 END AS sm_ip
  FROM sm_level_queries
  JOIN (
    SELECT DISTINCT
      "country",
      "query_id"
    FROM sm_ranked
  ) AS sm_run_queries
    ON sm_level_queries."country" = sm_run_queries."country"
    AND sm_level_queries."query_id" = sm_run_queries."query_id"
  LEFT JOIN sm_hits
    ON sm_level_queries."country" = sm_hits."country"
    AND sm_level_queries."query_id" = sm_hits."query_id"
    AND sm_hits.sm_cum_relevant = sm_level_queries.sm_needed
), sm_values AS (
  SELECT
    "country",
    "query_id",
    AVG(sm_ip) AS sm_mean_ip,
    1 AS sm_in_run
  FROM sm_level_values
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
    sm_mean_ip AS sm_value
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
  END AS "precision_11pt",
  CAST(SUM(sm_included) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "country"
