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
        THEN CAST(CAST(CASE
          WHEN COALESCE("category" IS NULL OR "predicted_category" IS NULL, TRUE)
          THEN 'sqlmetrics: a true or predicted class must not be NULL; found ' || COALESCE(CAST("category" AS Nullable(String)), 'NULL')
          ELSE '0'
        END AS Int64) AS Nullable(Float64))
        ELSE CAST("impressions" AS Nullable(Float64))
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
  "country",
  sm_true,
  sm_pred
