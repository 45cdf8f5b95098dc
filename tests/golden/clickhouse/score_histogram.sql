SELECT
  "country",
  sm_bucket AS bucket,
  CAST(0.0 AS Nullable(Float64)) + sm_bucket * (
    CAST(1.0 AS Nullable(Float64)) - CAST(0.0 AS Nullable(Float64))
  ) / 1000 AS low,
  CAST(0.0 AS Nullable(Float64)) + (
    sm_bucket + 1
  ) * (
    CAST(1.0 AS Nullable(Float64)) - CAST(0.0 AS Nullable(Float64))
  ) / 1000 AS high,
  CAST(COUNT(*) AS Nullable(Int64)) AS n,
  CAST(SUM(CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END) AS Nullable(Int64)) AS n_pos,
  SUM(
    CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END * CAST("impressions" AS Nullable(Float64))
  ) AS w_pos,
  SUM(
    (
      1 - CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END
    ) * CAST("impressions" AS Nullable(Float64))
  ) AS w_neg
FROM (
  SELECT
    sm_input.*,
    CAST(CASE
      WHEN CAST("pctr" AS Nullable(Float64)) < CAST(0.0 AS Nullable(Float64))
      THEN 0
      WHEN CAST("pctr" AS Nullable(Float64)) >= CAST(1.0 AS Nullable(Float64))
      OR FLOOR(
        (
          CAST("pctr" AS Nullable(Float64)) - CAST(0.0 AS Nullable(Float64))
        ) / (
          CAST(1.0 AS Nullable(Float64)) - CAST(0.0 AS Nullable(Float64))
        ) * 1000
      ) >= 1000
      THEN 999
      ELSE FLOOR(
        (
          CAST("pctr" AS Nullable(Float64)) - CAST(0.0 AS Nullable(Float64))
        ) / (
          CAST(1.0 AS Nullable(Float64)) - CAST(0.0 AS Nullable(Float64))
        ) * 1000
      )
    END AS Nullable(Int64)) AS sm_bucket
  FROM analytics.preds AS sm_input
) AS sm_bucketed
GROUP BY
  "country",
  sm_bucket
ORDER BY
  "country",
  sm_bucket
