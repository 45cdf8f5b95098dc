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
        ORDER BY "score" DESC, CAST("doc_id" AS TEXT) COLLATE "binary" DESC
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
      CAST(sm_recommended.sm_times AS DOUBLE) / NULLIF(CAST(sm_totals.sm_total AS DOUBLE), 0)
    ) * (
      LN(
        (
          CAST(sm_recommended.sm_times AS DOUBLE) / NULLIF(CAST(sm_totals.sm_total AS DOUBLE), 0)
        )
      ) / LN(2)
    )
  ) AS distributional_coverage,
  CAST(MAX(sm_totals.sm_total) AS BIGINT) AS n_recommendations,
  COUNT(*) AS n_covered
FROM sm_recommended
JOIN sm_totals
  ON (
    sm_recommended."country" IS NOT DISTINCT FROM sm_totals."country"
  )
GROUP BY
  sm_recommended."country"
