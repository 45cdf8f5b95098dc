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
), sm_similar AS (
  SELECT
    sm_x,
    sm_y,
    CASE
      WHEN MIN(sm_s) < MAX(sm_s)
      THEN CAST(CAST(CASE
        WHEN COALESCE(MIN(sm_s) < MAX(sm_s), TRUE)
        THEN 'sqlmetrics: the similarity table gives a pair with this item two different similarities (either direction is the same pair); found ' || COALESCE(CAST(sm_x AS VARCHAR), 'NULL')
        ELSE '0'
      END AS BIGINT) AS DOUBLE)
      ELSE MAX(sm_s)
    END AS sm_s
  FROM (
    SELECT
      item_a AS sm_x,
      item_b AS sm_y,
      CAST(similarity AS DOUBLE) AS sm_s
    FROM analytics.similar_items
    UNION ALL
    SELECT
      item_b AS sm_x,
      item_a AS sm_y,
      CAST(similarity AS DOUBLE) AS sm_s
    FROM analytics.similar_items
  ) AS sm_both_ways
  GROUP BY
    sm_x,
    sm_y
), sm_values AS (
  SELECT
    sm_a."COUNTRY" AS "COUNTRY",
    sm_a."QUERY_ID" AS "QUERY_ID",
    AVG(COALESCE(sm_similar.sm_s, 0)) AS sm_value
  FROM sm_top AS sm_a
  JOIN sm_top AS sm_b
    ON sm_a."COUNTRY" = sm_b."COUNTRY"
    AND sm_a."QUERY_ID" = sm_b."QUERY_ID"
    AND sm_a.sm_pos < sm_b.sm_pos
  LEFT JOIN sm_similar
    ON sm_similar.sm_x = sm_a.sm_item AND sm_similar.sm_y = sm_b.sm_item
  GROUP BY
    sm_a."COUNTRY",
    sm_a."QUERY_ID"
)
SELECT
  "COUNTRY",
  AVG(sm_value) AS ils,
  COUNT(*) AS n_queries
FROM sm_values
GROUP BY
  "COUNTRY"
