SELECT
  "country",
  (
    CAST(sm_pos_weight AS Nullable(Float64)) / nullIf(CAST(sm_loss AS Nullable(Float64)), 0)
  ) AS copc,
  n,
  n_pos,
  n_neg
FROM (
  SELECT
    "country",
    SUM(sm_w * (
      sm_p
    )) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    SUM(sm_w * sm_y) AS sm_pos_weight,
    COUNT(*) AS n,
    CAST(COALESCE(SUM(sm_y), 0) AS Nullable(Int64)) AS n_pos,
    CAST(COUNT(*) - COALESCE(SUM(sm_y), 0) AS Nullable(Int64)) AS n_neg
  FROM (
    SELECT
      "country",
      CASE
        WHEN NOT (
          "pctr" IS NULL
        )
        THEN CAST("pctr" AS Nullable(Float64))
        ELSE CAST(CAST(CASE
          WHEN COALESCE("pctr" IS NULL, TRUE)
          THEN 'sqlmetrics: a probability must be a number; found ' || COALESCE(CAST("pctr" AS Nullable(String)), 'NULL')
          ELSE '0'
        END AS Int64) AS Nullable(Float64))
      END AS sm_p,
      CASE
        WHEN "clicked" = 1
        THEN 1
        WHEN "clicked" = 0
        THEN 0
        ELSE CAST(CASE
          WHEN COALESCE(NOT (
            "clicked" = 1 OR "clicked" = 0
          ), TRUE)
          THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS Nullable(String)), 'NULL')
          ELSE '0'
        END AS Int64)
      END AS sm_y,
      CAST("impressions" AS Nullable(Float64)) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "country"
) AS sm_sums
