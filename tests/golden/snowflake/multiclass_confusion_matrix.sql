SELECT
  "COUNTRY",
  sm_true AS true_class,
  sm_pred AS predicted_class,
  sm_n AS n
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
ORDER BY
  "COUNTRY",
  sm_true,
  sm_pred
