SELECT
  `country`,
  COUNT(DISTINCT sm_item) / NULLIF(CAST(1000 AS DOUBLE), 0) AS coverage,
  COUNT(DISTINCT sm_item) AS n_covered,
  CAST(CAST(1000 AS DOUBLE) AS BIGINT) AS n_items
FROM (
  SELECT
    *
  FROM (
    SELECT
      `country`,
      `query_id`,
      `doc_id` AS sm_item,
      ROW_NUMBER() OVER (
        PARTITION BY `country`, `query_id`
        ORDER BY `score` DESC, CAST(`doc_id` AS STRING) DESC
      ) AS sm_pos
    FROM analytics.run
  ) AS sm_ranked_lists
  WHERE
    sm_pos <= 10
) AS sm_top
GROUP BY
  `country`
