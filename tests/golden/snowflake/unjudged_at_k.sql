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
), sm_queries AS (
  SELECT
    "COUNTRY",
    "QUERY_ID",
    SUM(CASE WHEN sm_rel >= CAST(0 AS DOUBLE) THEN 1 ELSE 0 END) AS sm_n_relevant,
    SUM(CASE WHEN sm_rel > 0 THEN 1 ELSE 0 END) AS sm_n_graded
  FROM sm_judged
  GROUP BY
    "COUNTRY",
    "QUERY_ID"
), sm_rows AS (
  SELECT
    sm_run."COUNTRY" AS "COUNTRY",
    sm_run."QUERY_ID" AS "QUERY_ID",
    sm_run."DOC_ID" AS sm_item,
    CAST(sm_run."SCORE" AS DOUBLE) AS sm_score,
    CASE WHEN sm_marked_judged.sm_rel > 0 THEN sm_marked_judged.sm_rel ELSE 0 END AS sm_rel,
    CASE
      WHEN sm_marked_judged.sm_is_judged = 1 AND sm_marked_judged.sm_rel >= 0
      THEN 1
      ELSE 0
    END AS sm_is_judged,
    ROW_NUMBER() OVER (
      PARTITION BY sm_run."COUNTRY", sm_run."QUERY_ID"
      ORDER BY sm_run."SCORE" DESC NULLS LAST, CAST(sm_run."DOC_ID" AS VARCHAR) DESC NULLS LAST
    ) AS sm_pos
  FROM analytics.run AS sm_run
  LEFT JOIN (
    SELECT
      sm_judged.*,
      1 AS sm_is_judged
    FROM sm_judged
  ) AS sm_marked_judged
    ON sm_run."COUNTRY" = sm_marked_judged."COUNTRY"
    AND sm_run."QUERY_ID" = sm_marked_judged."QUERY_ID"
    AND sm_run."DOC_ID" = sm_marked_judged.sm_item
), sm_marked AS (
  SELECT
    sm_rows.*,
    CASE WHEN sm_rel >= CAST(0 AS DOUBLE) THEN 1 ELSE 0 END AS sm_relevant,
    sm_rel AS sm_gain,
    1 / (
      LN(sm_pos + 1) / LN(2)
    ) AS sm_disc,
    CASE WHEN sm_pos <= 10 THEN 1 ELSE 0 END AS sm_in_k
  FROM sm_rows
), sm_ranked AS (
  SELECT
    sm_marked.*,
    sm_gain AS sm_eff_gain,
    sm_relevant AS sm_eff_relevant
  FROM sm_marked
), sm_values AS (
  SELECT
    "COUNTRY",
    "QUERY_ID",
    SUM(sm_in_k * (
      1 - sm_is_judged
    )) AS sm_unjudged_in_k,
    COUNT(*) AS sm_listed,
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
    sm_queries.sm_n_relevant AS sm_nonempty,
    CASE WHEN sm_values.sm_in_run = 1 THEN 1 ELSE 0 END AS sm_in_run,
    (
      CAST(sm_unjudged_in_k AS DOUBLE) / NULLIF(CAST(10 AS DOUBLE), 0)
    ) AS sm_value
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
    CASE WHEN sm_in_run = 0 THEN 0 WHEN sm_nonempty = 0 THEN sm_value ELSE sm_value END AS sm_score_value
  FROM sm_per_query
)
SELECT
  "COUNTRY",
  CASE
    WHEN SUM(CASE WHEN sm_included = 1 THEN sm_nonempty ELSE 0 END) > 0
    THEN AVG(CASE WHEN sm_included = 1 THEN sm_score_value END)
  END AS "UNJUDGED_AT_K",
  CAST(SUM(sm_included) AS BIGINT) AS n_queries,
  CAST(SUM(1 - sm_in_run) AS BIGINT) AS n_missing,
  CAST(SUM(CASE WHEN sm_nonempty = 0 THEN 1 ELSE 0 END) AS BIGINT) AS n_empty
FROM sm_scored
GROUP BY
  "COUNTRY"
