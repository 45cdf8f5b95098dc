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
), sm_catalogue AS (
  SELECT
    CAST(1000 AS SIGNED) AS sm_size,
    COUNT(DISTINCT `doc_id`) AS sm_run_items,
    0 AS sm_unlisted
  FROM analytics.run
), sm_recommended AS (
  SELECT
    `country`,
    sm_item,
    COUNT(*) AS sm_times
  FROM sm_top
  GROUP BY
    `country`,
    sm_item
), sm_count_groups AS (
  SELECT
    `country`,
    sm_times,
    COUNT(*) AS sm_m
  FROM sm_recommended
  GROUP BY
    `country`,
    sm_times
), sm_placed AS (
  SELECT
    `country`,
    sm_times,
    sm_m,
    SUM(sm_m) OVER (
      PARTITION BY `country`
      ORDER BY sm_times
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_through,
    SUM(sm_m) OVER (PARTITION BY `country`) AS sm_covered,
    (
      SELECT
        sm_size
      FROM sm_catalogue
    ) AS sm_n
  FROM sm_count_groups
)
SELECT
  `country`,
  CASE
    WHEN (
      SELECT
        sm_unlisted
      FROM sm_catalogue
    ) > 0
    THEN CAST(CASE
      WHEN COALESCE((
        SELECT
          sm_unlisted
        FROM sm_catalogue
      ) > 0, TRUE)
      THEN JSON_EXTRACT(
        '{}',
        CONCAT(
          'sqlmetrics: items of the run are missing from the catalogue (items); how many; found ',
          COALESCE(CAST((
            SELECT
              sm_unlisted
            FROM sm_catalogue
          ) AS CHAR), 'NULL')
        )
      )
    END AS DOUBLE)
    WHEN (
      SELECT
        sm_run_items
      FROM sm_catalogue
    ) > (
      SELECT
        sm_size
      FROM sm_catalogue
    )
    THEN CAST(CASE
      WHEN COALESCE(
        (
          SELECT
            sm_run_items
          FROM sm_catalogue
        ) > (
          SELECT
            sm_size
          FROM sm_catalogue
        ),
        TRUE
      )
      THEN JSON_EXTRACT(
        '{}',
        CONCAT(
          'sqlmetrics: n_items is below the number of distinct items in the run; found ',
          COALESCE(CAST((
            SELECT
              sm_run_items
            FROM sm_catalogue
          ) AS CHAR), 'NULL')
        )
      )
    END AS DOUBLE)
    ELSE (
      CAST(SUM(
        CAST(sm_times AS DOUBLE) * CAST(sm_m AS DOUBLE) * (
          CAST(sm_n AS DOUBLE) - 2 * CAST(sm_covered AS DOUBLE) + 2 * CAST(sm_through AS DOUBLE) - CAST(sm_m AS DOUBLE)
        )
      ) AS DOUBLE) / NULLIF(
        CAST(CAST((
          SELECT
            sm_size
          FROM sm_catalogue
        ) AS DOUBLE) * SUM(CAST(sm_times AS DOUBLE) * CAST(sm_m AS DOUBLE)) AS DOUBLE),
        0
      )
    )
  END AS gini_index,
  CAST(SUM(sm_m) AS SIGNED) AS n_covered,
  CAST((
    SELECT
      sm_size
    FROM sm_catalogue
  ) AS SIGNED) AS n_items
FROM sm_placed
GROUP BY
  `country`
