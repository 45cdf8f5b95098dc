SELECT
  "country",
  COALESCE(SUM(sm_w * sm_y * sm_hat), 0) AS tp,
  COALESCE(SUM(sm_w * (
    1 - sm_y
  ) * sm_hat), 0) AS fp,
  COALESCE(SUM(sm_w * (
    1 - sm_y
  ) * (
    1 - sm_hat
  )), 0) AS tn,
  COALESCE(SUM(sm_w * sm_y * (
    1 - sm_hat
  )), 0) AS fn,
  COUNT(*) AS n
FROM (
  SELECT
    "country",
    CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END AS sm_y,
    CASE WHEN "pctr" >= CAST(0.5 AS Nullable(Float64)) THEN 1 ELSE 0 END AS sm_hat,
    CAST("impressions" AS Nullable(Float64)) AS sm_w
  FROM analytics.preds
) AS sm_rows
GROUP BY
  "country"
