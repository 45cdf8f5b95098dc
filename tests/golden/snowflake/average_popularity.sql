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
), sm_popularity AS (
  SELECT
    "DOC_ID" AS sm_item,
    CAST(COUNT(*) AS DOUBLE) AS sm_count
  FROM analytics.interactions
  GROUP BY
    "DOC_ID"
), sm_values AS (
  SELECT
    sm_top."COUNTRY" AS "COUNTRY",
    sm_top."QUERY_ID" AS "QUERY_ID",
    AVG(COALESCE(sm_popularity.sm_count, 0)) AS sm_value
  FROM sm_top
  LEFT JOIN sm_popularity
    ON sm_top.sm_item = sm_popularity.sm_item
  GROUP BY
    sm_top."COUNTRY",
    sm_top."QUERY_ID"
)
SELECT
  "COUNTRY",
  AVG(sm_value) AS average_popularity,
  COUNT(*) AS n_users
FROM sm_values
GROUP BY
  "COUNTRY"
