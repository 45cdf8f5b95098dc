WITH sm_top AS (
  SELECT
    *
  FROM (
    SELECT
      "COUNTRY",
      "QUERY_ID",
      "DOC_ID" AS sm_item,
      ROW_NUMBER() OVER (
        PARTITION BY "COUNTRY", "QUERY_ID"
        ORDER BY "SCORE" DESC NULLS LAST, CAST("DOC_ID" AS VARCHAR) DESC NULLS LAST
      ) AS sm_pos
    FROM analytics.run
  ) AS sm_ranked_lists
  WHERE
    sm_pos <= 10
), sm_recommended AS (
  SELECT
    "COUNTRY",
    sm_item,
    COUNT(*) AS sm_times
  FROM sm_top
  GROUP BY
    "COUNTRY",
    sm_item
), sm_totals AS (
  SELECT
    "COUNTRY",
    SUM(sm_times) AS sm_total
  FROM sm_recommended
  GROUP BY
    "COUNTRY"
)
SELECT
  sm_recommended."COUNTRY" AS "COUNTRY",
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
    sm_recommended."COUNTRY" IS NOT DISTINCT FROM sm_totals."COUNTRY"
  )
GROUP BY
  sm_recommended."COUNTRY"
