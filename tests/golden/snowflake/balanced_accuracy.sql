SELECT
  "COUNTRY",
  sm_mean AS balanced_accuracy,
  sm_k AS n_classes,
  sm_n_rows AS n
FROM (
  SELECT
    "COUNTRY",
    AVG(sm_recall) AS sm_mean,
    COUNT(sm_recall) AS sm_k,
    COALESCE(MAX(sm_rows), 0) AS sm_n_rows
  FROM (
    SELECT
      "COUNTRY",
      (
        CAST(sm_tp AS DOUBLE) / NULLIF(CAST(sm_tp + sm_fn AS DOUBLE), 0)
      ) AS sm_recall,
      sm_rows
    FROM (
      SELECT
        "COUNTRY",
        sm_class,
        sm_tp,
        sm_predicted - sm_tp AS sm_fp,
        sm_support - sm_tp AS sm_fn,
        SUM(sm_support) OVER (PARTITION BY "COUNTRY") - (
          sm_support + sm_predicted - sm_tp
        ) AS sm_tn,
        sm_support,
        CAST(SUM(sm_class_rows) OVER (PARTITION BY "COUNTRY") AS BIGINT) AS sm_rows
      FROM (
        SELECT
          "COUNTRY",
          sm_class,
          SUM(CASE WHEN sm_side = 0 THEN sm_n ELSE 0 END) AS sm_support,
          SUM(CASE WHEN sm_side = 1 THEN sm_n ELSE 0 END) AS sm_predicted,
          SUM(CASE WHEN sm_side = 0 AND sm_true = sm_pred THEN sm_n ELSE 0 END) AS sm_tp,
          CAST(SUM(CASE WHEN sm_side = 0 THEN sm_rows ELSE 0 END) AS BIGINT) AS sm_class_rows
        FROM (
          SELECT
            sm_cells."COUNTRY" AS "COUNTRY",
            sm_sides.sm_side AS sm_side,
            CASE WHEN sm_sides.sm_side = 0 THEN sm_cells.sm_true ELSE sm_cells.sm_pred END AS sm_class,
            sm_cells.sm_true AS sm_true,
            sm_cells.sm_pred AS sm_pred,
            sm_cells.sm_n AS sm_n,
            sm_cells.sm_rows AS sm_rows
          FROM (
            SELECT
              "COUNTRY",
              "CATEGORY" AS sm_true,
              "PREDICTED_CATEGORY" AS sm_pred,
              SUM(
                CASE
                  WHEN "CATEGORY" IS NULL OR "PREDICTED_CATEGORY" IS NULL
                  THEN CAST(CAST(CASE
                    WHEN COALESCE("CATEGORY" IS NULL OR "PREDICTED_CATEGORY" IS NULL, TRUE)
                    THEN 'sqlmetrics: a true or predicted class must not be NULL; found ' || COALESCE(CAST("CATEGORY" AS VARCHAR), 'NULL')
                    ELSE '0'
                  END AS BIGINT) AS DOUBLE)
                  ELSE CAST("IMPRESSIONS" AS DOUBLE)
                END
              ) AS sm_n,
              COUNT(*) AS sm_rows
            FROM analytics.preds
            GROUP BY
              "COUNTRY",
              "CATEGORY",
              "PREDICTED_CATEGORY"
          ) AS sm_cells
          CROSS JOIN (
            SELECT
              0 AS sm_side
            UNION ALL
            SELECT
              1 AS sm_side
          ) AS sm_sides
        ) AS sm_sides
        GROUP BY
          "COUNTRY",
          sm_class
      ) AS sm_classes
    ) AS sm_counts
  ) AS sm_recalls
  GROUP BY
    "COUNTRY"
) AS sm_mean_recall
