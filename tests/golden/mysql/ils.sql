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
), sm_similar AS (
  SELECT
    sm_x,
    sm_y,
    CASE
      WHEN MIN(sm_s) < MAX(sm_s)
      THEN CAST(CASE
        WHEN COALESCE(MIN(sm_s) < MAX(sm_s), TRUE)
        THEN JSON_EXTRACT(
          '{}',
          CONCAT(
            'sqlmetrics: the similarity table gives a pair with this item two different similarities (either direction is the same pair); found ',
            COALESCE(CAST(sm_x AS CHAR), 'NULL')
          )
        )
      END AS DOUBLE)
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
    sm_a.`country` AS `country`,
    sm_a.`query_id` AS `query_id`,
    AVG(COALESCE(sm_similar.sm_s, 0)) AS sm_value
  FROM sm_top AS sm_a
  JOIN sm_top AS sm_b
    ON sm_a.`country` = sm_b.`country`
    AND sm_a.`query_id` = sm_b.`query_id`
    AND sm_a.sm_pos < sm_b.sm_pos
  LEFT JOIN sm_similar
    ON sm_similar.sm_x = sm_a.sm_item AND sm_similar.sm_y = sm_b.sm_item
  GROUP BY
    sm_a.`country`,
    sm_a.`query_id`
)
SELECT
  `country`,
  AVG(sm_value) AS ils,
  COUNT(*) AS n_queries
FROM sm_values
GROUP BY
  `country`
