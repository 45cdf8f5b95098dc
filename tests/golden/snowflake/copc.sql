SELECT
  "COUNTRY",
  (
    CAST(sm_pos_weight AS DOUBLE) / NULLIF(CAST(sm_loss AS DOUBLE), 0)
  ) AS copc,
  n,
  n_pos,
  n_neg
FROM (
  SELECT
    "COUNTRY",
    SUM(sm_w * (
      sm_p
    )) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    SUM(sm_w * sm_y) AS sm_pos_weight,
    COUNT(*) AS n,
    CAST(COALESCE(SUM(sm_y), 0) AS BIGINT) AS n_pos,
    CAST(COUNT(*) - COALESCE(SUM(sm_y), 0) AS BIGINT) AS n_neg
  FROM (
    SELECT
      "COUNTRY",
      CASE
        WHEN NOT "PCTR" IS NULL
        THEN CAST("PCTR" AS DOUBLE)
        ELSE CAST(CAST(CASE
          WHEN COALESCE("PCTR" IS NULL, TRUE)
          THEN 'sqlmetrics: a probability must be a number; found ' || COALESCE(CAST("PCTR" AS VARCHAR), 'NULL')
          ELSE '0'
        END AS BIGINT) AS DOUBLE)
      END AS sm_p,
      CASE
        WHEN "CLICKED" = 1
        THEN 1
        WHEN "CLICKED" = 0
        THEN 0
        ELSE CAST(CASE
          WHEN COALESCE(NOT (
            "CLICKED" = 1 OR "CLICKED" = 0
          ), TRUE)
          THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("CLICKED" AS VARCHAR), 'NULL')
          ELSE '0'
        END AS BIGINT)
      END AS sm_y,
      CAST("IMPRESSIONS" AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "COUNTRY"
) AS sm_sums
