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
    CASE
      WHEN "clicked" = 1
      THEN 1
      WHEN "clicked" = 0
      THEN 0
      ELSE CAST(CASE
        WHEN COALESCE(NOT (
          "clicked" = 1 OR "clicked" = 0
        ), TRUE)
        THEN CONCAT(
          CAST('sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' AS VARCHAR),
          CAST(COALESCE(CAST("clicked" AS VARCHAR), 'NULL') AS VARCHAR)
        )
        ELSE '0'
      END AS BIGINT)
    END AS sm_y,
    CASE
      WHEN "pctr" >= CAST(0.5 AS DOUBLE)
      THEN 1
      WHEN "pctr" < CAST(0.5 AS DOUBLE)
      THEN 0
      ELSE CAST(CASE
        WHEN COALESCE(NOT (
          "pctr" >= CAST(0.5 AS DOUBLE) OR "pctr" < CAST(0.5 AS DOUBLE)
        ), TRUE)
        THEN CONCAT(
          CAST('sqlmetrics: a score must be a number; found ' AS VARCHAR),
          CAST(COALESCE(CAST("pctr" AS VARCHAR), 'NULL') AS VARCHAR)
        )
        ELSE '0'
      END AS BIGINT)
    END AS sm_hat,
    CAST("impressions" AS DOUBLE) AS sm_w
  FROM analytics.preds
) AS sm_rows
GROUP BY
  "country"
