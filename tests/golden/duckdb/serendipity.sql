WITH sm_top AS (
  SELECT
    *
  FROM (
    SELECT
      "country",
      "query_id",
      "doc_id" AS sm_item,
      CASE
        WHEN NOT "relevance" IS NULL
        THEN CAST("relevance" AS DOUBLE)
        ELSE CAST(CASE
          WHEN COALESCE("relevance" IS NULL, TRUE)
          THEN ERROR(
            'sqlmetrics: a relevance must be a number; found ' || COALESCE(CAST("relevance" AS TEXT), 'NULL')
          )
        END AS DOUBLE)
      END AS sm_relevance,
      ROW_NUMBER() OVER (
        PARTITION BY "country", "query_id"
        ORDER BY "score" DESC, CAST("doc_id" AS TEXT) COLLATE "binary" DESC
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
        THEN ERROR(
          'sqlmetrics: the similarity table gives a pair with this item two different similarities (either direction is the same pair); found ' || COALESCE(CAST(sm_x AS TEXT), 'NULL')
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
), sm_history AS (
  SELECT
    "query_id" AS sm_user,
    "doc_id" AS sm_seen,
    1 AS sm_has_history
  FROM analytics.interactions
), sm_items AS (
  SELECT
    sm_top."country" AS "country",
    sm_top."query_id" AS "query_id",
    MAX(COALESCE(sm_history.sm_has_history, 0)) AS sm_known,
    AVG(COALESCE(sm_similar.sm_s, 0)) AS sm_similarity,
    MAX(sm_top.sm_relevance) AS sm_rel,
    SUM(
      CASE
        WHEN sm_history.sm_has_history = 1 AND sm_history.sm_seen = sm_top.sm_item
        THEN 1
        ELSE 0
      END
    ) AS sm_seen_before
  FROM sm_top
  LEFT JOIN sm_history
    ON sm_history.sm_user = sm_top."query_id"
  LEFT JOIN sm_similar
    ON sm_similar.sm_x = sm_top.sm_item AND sm_similar.sm_y = sm_history.sm_seen
  GROUP BY
    sm_top."country",
    sm_top."query_id",
    sm_top.sm_item
), sm_users AS (
  SELECT
    "country",
    "query_id",
    MAX(sm_known) AS sm_user_known,
    AVG((
      1 - sm_similarity
    ) * sm_rel) AS sm_mean,
    SUM(sm_seen_before) AS sm_user_seen
  FROM sm_items
  GROUP BY
    "country",
    "query_id"
), sm_values AS (
  SELECT
    "country",
    "query_id",
    CASE
      WHEN (
        SELECT
          SUM(sm_user_seen)
        FROM sm_users
      ) > 0
      THEN CAST(CASE
        WHEN COALESCE((
          SELECT
            SUM(sm_user_seen)
          FROM sm_users
        ) > 0, TRUE)
        THEN ERROR(
          'sqlmetrics: recommended items are among the interactions of their user (serendipity is of items new to the user); how many; found ' || COALESCE(CAST((
            SELECT
              SUM(sm_user_seen)
            FROM sm_users
          ) AS TEXT), 'NULL')
        )
      END AS DOUBLE)
      WHEN sm_user_known = 1
      THEN sm_mean
    END AS sm_value
  FROM sm_users
)
SELECT
  "country",
  AVG(sm_value) AS serendipity,
  COUNT(sm_value) AS n_users,
  CAST(SUM(CASE WHEN sm_value IS NULL THEN 1 ELSE 0 END) AS BIGINT) AS n_without_history
FROM sm_values
GROUP BY
  "country"
