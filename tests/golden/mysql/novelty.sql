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
), sm_recommended AS (
  SELECT
    `country`,
    sm_item,
    COUNT(*) AS sm_times
  FROM sm_top
  GROUP BY
    `country`,
    sm_item
), sm_informed AS (
  SELECT
    sm_recommended.`country` AS `country`,
    sm_recommended.sm_times AS sm_times,
    CASE
      WHEN sm_known.sm_listed = 1 AND sm_known.sm_count > 0
      THEN (
        LN(sm_all.sm_max) / LN(2)
      ) + (
        LN(sm_all.sm_total_over_max) / LN(2)
      ) - (
        LN(sm_known.sm_count) / LN(2)
      )
    END AS sm_information
  FROM sm_recommended
  LEFT JOIN (
    SELECT
      sm_item,
      sm_count,
      1 AS sm_listed
    FROM sm_popularity
  ) AS sm_known
    ON sm_recommended.sm_item = sm_known.sm_item
  CROSS JOIN (
    SELECT
      MAX(sm_largest.sm_max) AS sm_max,
      SUM(
        (
          CAST(sm_popularity.sm_count AS DOUBLE) / NULLIF(CAST(sm_largest.sm_max AS DOUBLE), 0)
        )
      ) AS sm_total_over_max
    FROM sm_popularity
    CROSS JOIN (
      SELECT
        MAX(sm_count) AS sm_max
      FROM sm_popularity
    ) AS sm_largest
  ) AS sm_all
)
SELECT
  `country`,
  CASE
    WHEN SUM(CASE WHEN sm_information IS NULL THEN 1 ELSE 0 END) > 0
    THEN CAST(CASE
      WHEN COALESCE(SUM(CASE WHEN sm_information IS NULL THEN 1 ELSE 0 END) > 0, TRUE)
      THEN JSON_EXTRACT(
        '{}',
        CONCAT(
          'sqlmetrics: items recommended have no popularity (absent from interactions or popularity, or a count of 0): their self-information -log2 p is infinite; how many; found ',
          COALESCE(CAST(SUM(CASE WHEN sm_information IS NULL THEN 1 ELSE 0 END) AS CHAR), 'NULL')
        )
      )
    END AS DOUBLE)
    ELSE (
      CAST(SUM(sm_times * sm_information) AS DOUBLE) / NULLIF(CAST(SUM(sm_times) AS DOUBLE), 0)
    )
  END AS novelty,
  CAST(SUM(sm_times) AS SIGNED) AS n_recommendations
FROM sm_informed
GROUP BY
  `country`
