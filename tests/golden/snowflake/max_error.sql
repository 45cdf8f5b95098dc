SELECT
  "COUNTRY",
  CASE WHEN COUNT(*) > 0 THEN MAX(ABS(sm_t - sm_p)) END AS max_error,
  COUNT(*) AS n
FROM (
  SELECT
    "COUNTRY",
    CAST("REVENUE" AS DOUBLE) AS sm_t,
    CAST("PREDICTED_REVENUE" AS DOUBLE) AS sm_p,
    CAST(1 AS DOUBLE) AS sm_w
  FROM analytics.preds
) AS sm_rows
GROUP BY
  "COUNTRY"
