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
), sm_popularity AS (
  SELECT
    "doc_id" AS sm_item,
    CAST(COUNT(*) AS DOUBLE) AS sm_count
  FROM analytics.interactions
  GROUP BY
    "doc_id"
), sm_count_groups AS (
  SELECT
    sm_count,
    COUNT(*) AS sm_m
  FROM sm_popularity
  GROUP BY
    sm_count
), sm_groups_cut AS (
  SELECT
    sm_count,
    sm_m,
    sm_before,
    CASE
      WHEN FLOOR(CAST(sm_n AS DOUBLE) * CAST(0.1 AS DOUBLE)) >= 1
      THEN FLOOR(CAST(sm_n AS DOUBLE) * CAST(0.1 AS DOUBLE))
      ELSE 1
    END AS sm_cut
  FROM (
    SELECT
      sm_count,
      sm_m,
      COALESCE(
        SUM(sm_m) OVER (ORDER BY sm_count ASC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
        0
      ) AS sm_before,
      SUM(sm_m) OVER () AS sm_n
    FROM sm_count_groups
  ) AS sm_running
), sm_tail AS (
  SELECT
    sm_popularity.sm_item AS sm_item,
    CASE
      WHEN sm_groups_cut.sm_before >= sm_groups_cut.sm_cut
      THEN CAST(0 AS DOUBLE)
      WHEN sm_groups_cut.sm_before + sm_groups_cut.sm_m <= sm_groups_cut.sm_cut
      THEN CAST(1 AS DOUBLE)
      ELSE (
        CAST(sm_groups_cut.sm_cut - sm_groups_cut.sm_before AS DOUBLE) / NULLIF(CAST(sm_groups_cut.sm_m AS DOUBLE), 0)
      )
    END AS sm_in_tail
  FROM sm_popularity
  JOIN sm_groups_cut
    ON sm_popularity.sm_count = sm_groups_cut.sm_count
), sm_tail_size AS (
  SELECT
    CAST(COALESCE(MAX(sm_cut), 0) AS BIGINT) AS sm_tail_items
  FROM sm_groups_cut
), sm_values AS (
  SELECT
    sm_top."country" AS "country",
    sm_top."query_id" AS "query_id",
    AVG(COALESCE(sm_tail.sm_in_tail, 0)) AS sm_value
  FROM sm_top
  LEFT JOIN sm_tail
    ON sm_top.sm_item = sm_tail.sm_item
  GROUP BY
    sm_top."country",
    sm_top."query_id"
)
SELECT
  "country",
  AVG(sm_value) AS tail_share,
  COUNT(*) AS n_users,
  (
    SELECT
      sm_tail_items
    FROM sm_tail_size
  ) AS n_tail_items
FROM sm_values
GROUP BY
  "country"
