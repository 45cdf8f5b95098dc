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
), sm_catalogue AS (
  SELECT
    CAST(1000 AS BIGINT) AS sm_size,
    COUNT(DISTINCT "doc_id") AS sm_run_items,
    0 AS sm_unlisted
  FROM analytics.run
)
SELECT
  "country",
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
      THEN ERROR(
        'sqlmetrics: items of the run are missing from the catalogue (items); how many; found ' || COALESCE(CAST((
          SELECT
            sm_unlisted
          FROM sm_catalogue
        ) AS TEXT), 'NULL')
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
      THEN ERROR(
        'sqlmetrics: n_items is below the number of distinct items in the run; found ' || COALESCE(CAST((
          SELECT
            sm_run_items
          FROM sm_catalogue
        ) AS TEXT), 'NULL')
      )
    END AS DOUBLE)
    ELSE (
      CAST(COUNT(DISTINCT sm_item) AS DOUBLE) / NULLIF(CAST((
        SELECT
          sm_size
        FROM sm_catalogue
      ) AS DOUBLE), 0)
    )
  END AS coverage,
  COUNT(DISTINCT sm_item) AS n_covered,
  CAST((
    SELECT
      sm_size
    FROM sm_catalogue
  ) AS BIGINT) AS n_items
FROM sm_top
GROUP BY
  "country"
