SELECT
  "country",
  sm_true AS true_class,
  sm_pred AS predicted_class,
  sm_n AS n
FROM (
  SELECT
    "country",
    "category" AS sm_true,
    "predicted_category" AS sm_pred,
    SUM(
      CASE
        WHEN "category" IS NULL OR "predicted_category" IS NULL
        THEN CAST(CASE
          WHEN COALESCE("category" IS NULL OR "predicted_category" IS NULL, TRUE)
          THEN ERROR(
            'sqlmetrics: a true or predicted class must not be NULL; found ' || COALESCE(CAST("category" AS TEXT), 'NULL')
          )
        END AS DOUBLE)
        ELSE CAST("impressions" AS DOUBLE)
      END
    ) AS sm_n,
    COUNT(*) AS sm_rows
  FROM analytics.preds
  GROUP BY
    "country",
    "category",
    "predicted_category"
) AS sm_cells
ORDER BY
  "country" ASC,
  sm_true ASC,
  sm_pred ASC
