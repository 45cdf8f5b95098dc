WITH sm_by_group AS (
  SELECT
    "country",
    "gender",
    (
      CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
    ) AS auc,
    sm_n AS n,
    sm_n_pos AS n_pos,
    sm_n - sm_n_pos AS n_neg
  FROM (
    SELECT
      "country",
      "gender",
      CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS sm_n,
      CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
      SUM(sm_w_pos) AS sm_w_pos,
      SUM(sm_w_neg) AS sm_w_neg,
      SUM(
        sm_cumulative.sm_w_pos * (
          (
            COALESCE(sm_cumulative.sm_w_neg_below, 0) + 0.5 * sm_cumulative.sm_w_neg
          ) / NULLIF(sm_cumulative.sm_w_neg_all, 0)
        )
      ) AS sm_wins,
      SUM(
        sm_cumulative.sm_w_pos * (
          sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
        )
      ) AS sm_ties
    FROM (
      SELECT
        sm_by_score.*,
        SUM(sm_w_neg) OVER (
          PARTITION BY "country", "gender"
          ORDER BY sm_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS sm_w_neg_below,
        SUM(sm_w_neg) OVER (PARTITION BY "country", "gender") AS sm_w_neg_all
      FROM (
        SELECT
          "country",
          "gender",
          sm_s,
          SUM(sm_rows) AS sm_n,
          SUM(sm_pos * sm_rows) AS sm_n_pos,
          CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS sm_w_pos,
          CAST(SUM((
            1 - sm_pos
          ) * sm_weight) AS DOUBLE) AS sm_w_neg
        FROM (
          SELECT
            "country",
            "gender",
            sm_s,
            sm_rows,
            sm_weight,
            CASE
              WHEN "clicked" = 1
              THEN 1
              WHEN "clicked" = 0
              THEN 0
              ELSE CASE
                WHEN COALESCE(NOT (
                  "clicked" = 1 OR "clicked" = 0
                ), TRUE)
                THEN ERROR(
                  'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
                )
              END
            END AS sm_pos
          FROM (
            SELECT
              "country",
              "gender",
              "clicked",
              "pctr" AS sm_s,
              COUNT(*) AS sm_rows,
              SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
            FROM analytics.preds
            GROUP BY
              "country",
              "gender",
              "pctr",
              "clicked"
          ) AS sm_labelled
        ) AS sm_by_label
        GROUP BY
          "country",
          "gender",
          sm_s
      ) AS sm_by_score
    ) AS sm_cumulative
    GROUP BY
      "country",
      "gender"
  ) AS sm_parts
), sm_overall AS (
  SELECT
    "country",
    (
      CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
    ) AS auc,
    sm_n AS n,
    sm_n_pos AS n_pos,
    sm_n - sm_n_pos AS n_neg
  FROM (
    SELECT
      "country",
      CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS sm_n,
      CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
      SUM(sm_w_pos) AS sm_w_pos,
      SUM(sm_w_neg) AS sm_w_neg,
      SUM(
        sm_cumulative.sm_w_pos * (
          (
            COALESCE(sm_cumulative.sm_w_neg_below, 0) + 0.5 * sm_cumulative.sm_w_neg
          ) / NULLIF(sm_cumulative.sm_w_neg_all, 0)
        )
      ) AS sm_wins,
      SUM(
        sm_cumulative.sm_w_pos * (
          sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
        )
      ) AS sm_ties
    FROM (
      SELECT
        sm_by_score.*,
        SUM(sm_w_neg) OVER (
          PARTITION BY "country"
          ORDER BY sm_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS sm_w_neg_below,
        SUM(sm_w_neg) OVER (PARTITION BY "country") AS sm_w_neg_all
      FROM (
        SELECT
          "country",
          sm_s,
          SUM(sm_rows) AS sm_n,
          SUM(sm_pos * sm_rows) AS sm_n_pos,
          CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS sm_w_pos,
          CAST(SUM((
            1 - sm_pos
          ) * sm_weight) AS DOUBLE) AS sm_w_neg
        FROM (
          SELECT
            "country",
            sm_s,
            sm_rows,
            sm_weight,
            CASE
              WHEN "clicked" = 1
              THEN 1
              WHEN "clicked" = 0
              THEN 0
              ELSE CASE
                WHEN COALESCE(NOT (
                  "clicked" = 1 OR "clicked" = 0
                ), TRUE)
                THEN ERROR(
                  'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
                )
              END
            END AS sm_pos
          FROM (
            SELECT
              "country",
              "clicked",
              "pctr" AS sm_s,
              COUNT(*) AS sm_rows,
              SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
            FROM analytics.preds
            GROUP BY
              "country",
              "pctr",
              "clicked"
          ) AS sm_labelled
        ) AS sm_by_label
        GROUP BY
          "country",
          sm_s
      ) AS sm_by_score
    ) AS sm_cumulative
    GROUP BY
      "country"
  ) AS sm_parts
), sm_groups AS (
  SELECT
    sm_by_group."country" AS "country",
    sm_by_group."gender" AS "gender",
    sm_by_group."auc" AS sm_value,
    sm_overall."auc" AS sm_overall
  FROM sm_by_group
  JOIN sm_overall
    ON (
      sm_by_group."country" IS NOT DISTINCT FROM sm_overall."country"
    )
), sm_summaries AS (
  SELECT
    "country",
    CASE
      WHEN COUNT(*) >= 2 AND COUNT(sm_value) = COUNT(*)
      THEN MAX(sm_value) - MIN(sm_value)
    END AS difference,
    CASE
      WHEN COUNT(*) >= 2 AND COUNT(sm_value) = COUNT(*)
      THEN (
        CAST(MIN(sm_value) AS DOUBLE) / NULLIF(CAST(MAX(sm_value) AS DOUBLE), 0)
      )
    END AS ratio,
    CASE WHEN COUNT(sm_value) = COUNT(*) THEN MIN(sm_value) END AS group_min,
    CASE WHEN COUNT(sm_value) = COUNT(*) THEN MAX(sm_value) END AS group_max,
    MAX(sm_overall) AS overall,
    CAST(COUNT(*) AS BIGINT) AS n_groups
  FROM sm_groups
  GROUP BY
    "country"
)
SELECT
  sm_groups."country" AS "country",
  sm_groups."gender" AS "gender",
  sm_groups.sm_value AS "auc",
  sm_summaries.difference,
  sm_summaries.ratio,
  sm_summaries.group_min,
  sm_summaries.group_max,
  sm_summaries.overall,
  sm_summaries.n_groups
FROM sm_groups
JOIN sm_summaries
  ON (
    sm_groups."country" IS NOT DISTINCT FROM sm_summaries."country"
  )
