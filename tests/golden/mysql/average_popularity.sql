WITH sm_top AS (
  SELECT
    *
  FROM (
    SELECT
      `country`,
      `query_id`,
      `doc_id` AS sm_item,
      ROW_NUMBER() OVER (
        PARTITION BY `country`, `query_id`
        ORDER BY `score` DESC, CAST(CAST(`doc_id` AS CHAR CHARACTER SET utf8mb4) AS BINARY) DESC
      ) AS sm_pos
    FROM analytics.run
  ) AS sm_ranked_lists
  WHERE
    sm_pos <= 10
), sm_popularity AS (
  SELECT
    `doc_id` AS sm_item,
    CAST(COUNT(*) AS DOUBLE) AS sm_count
  FROM analytics.interactions
  GROUP BY
    `doc_id`
), sm_values AS (
  SELECT
    sm_top.`country` AS `country`,
    sm_top.`query_id` AS `query_id`,
    AVG(COALESCE(sm_popularity.sm_count, 0)) AS sm_value
  FROM sm_top
  LEFT JOIN sm_popularity
    ON sm_top.sm_item = sm_popularity.sm_item
  GROUP BY
    sm_top.`country`,
    sm_top.`query_id`
)
SELECT
  `country`,
  AVG(sm_value) AS average_popularity,
  COUNT(*) AS n_users
FROM sm_values
GROUP BY
  `country`
