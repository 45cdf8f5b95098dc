SELECT
  "country",
  (
    MAX(CASE WHEN sm_model = 1 THEN sm_both.auc END) - 0.5
  ) / NULLIF(MAX(CASE WHEN sm_model = 0 THEN sm_both.auc END) - 0.5, 0) - 1 AS rela_impr,
  MAX(CASE WHEN sm_model = 1 THEN sm_both.auc END) AS auc,
  MAX(CASE WHEN sm_model = 0 THEN sm_both.auc END) AS base_auc,
  MAX(n) AS n,
  MAX(n_pos) AS n_pos,
  MAX(n_neg) AS n_neg
FROM (
  SELECT
    1 AS sm_model,
    sm_new.*
  FROM (
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
  ) AS sm_new
  UNION ALL
  SELECT
    0 AS sm_model,
    sm_base.*
  FROM (
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
                "pctr_baseline" AS sm_s,
                COUNT(*) AS sm_rows,
                SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
              FROM analytics.preds
              GROUP BY
                "country",
                "pctr_baseline",
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
  ) AS sm_base
) AS sm_both
GROUP BY
  "country"
