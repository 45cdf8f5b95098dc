SELECT
  "country",
  SUM(sm_v * sm_auc) / NULLIF(SUM(sm_v), 0) AS gauc,
  CAST(COALESCE(SUM(sm_used), 0) AS BIGINT) AS n_groups_used,
  CAST(COUNT(*) - COALESCE(SUM(sm_used), 0) AS BIGINT) AS n_groups_excluded,
  CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS n,
  CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS n_pos,
  CAST(COALESCE(SUM(sm_n - sm_n_pos), 0) AS BIGINT) AS n_neg
FROM (
  SELECT
    sm_parts.*,
    CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN 1 ELSE 0 END AS sm_used,
    CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN sm_wins / NULLIF(sm_w_pos, 0) END AS sm_auc,
    CASE
      WHEN sm_w_pos > 0 AND sm_w_neg > 0
      THEN CAST(sm_w_pos + sm_w_neg AS DOUBLE)
    END AS sm_v
  FROM (
    SELECT
      "country",
      "user_id",
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
          PARTITION BY "country", "user_id"
          ORDER BY sm_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS sm_w_neg_below,
        SUM(sm_w_neg) OVER (PARTITION BY "country", "user_id") AS sm_w_neg_all
      FROM (
        SELECT
          "country",
          "user_id",
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
            "user_id",
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
              "user_id",
              "clicked",
              "pctr" AS sm_s,
              COUNT(*) AS sm_rows,
              SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
            FROM analytics.preds
            GROUP BY
              "country",
              "user_id",
              "pctr",
              "clicked"
          ) AS sm_labelled
        ) AS sm_by_label
        GROUP BY
          "country",
          "user_id",
          sm_s
      ) AS sm_by_score
    ) AS sm_cumulative
    GROUP BY
      "country",
      "user_id"
  ) AS sm_parts
) AS sm_groups
GROUP BY
  "country"
