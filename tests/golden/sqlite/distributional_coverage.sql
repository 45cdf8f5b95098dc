WITH sm_top AS (
  SELECT
    *
  FROM (
    SELECT
      "country",
      "query_id",
      "doc_id" AS sm_item,
      ROW_NUMBER() OVER (
        PARTITION BY "country", "query_id"
        ORDER BY "score" DESC, CAST("doc_id" AS TEXT) DESC
      ) AS sm_pos
    FROM analytics.run
  ) AS sm_ranked_lists
  WHERE
    sm_pos <= 10
), sm_recommended AS (
  SELECT
    "country",
    sm_item,
    COUNT(*) AS sm_times
  FROM sm_top
  GROUP BY
    "country",
    sm_item
), sm_totals AS (
  SELECT
    "country",
    SUM(sm_times) AS sm_total
  FROM sm_recommended
  GROUP BY
    "country"
)
SELECT
  sm_recommended."country" AS "country",
  -SUM(
    (
      CAST(sm_recommended.sm_times AS REAL) / NULLIF(CAST(sm_totals.sm_total AS REAL), 0)
    ) * (
      CAST(LN(
        (
          CAST(sm_recommended.sm_times AS REAL) / NULLIF(CAST(sm_totals.sm_total AS REAL), 0)
        )
      ) AS REAL) / LN(2)
    )
  ) AS distributional_coverage,
  CAST(MAX(sm_totals.sm_total) AS INTEGER) AS n_recommendations,
  COUNT(*) AS n_covered
FROM sm_recommended
JOIN sm_totals
  ON (
    sm_recommended."country" IS sm_totals."country"
  )
GROUP BY
  sm_recommended."country"
