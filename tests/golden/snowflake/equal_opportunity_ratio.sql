SELECT
  "COUNTRY",
  CASE
    WHEN COUNT(*) >= 2
    THEN CASE WHEN COUNT(sm_tpr) = COUNT(*) THEN MIN(sm_tpr) / NULLIF(MAX(sm_tpr), 0) END
  END AS "EQUAL_OPPORTUNITY_RATIO",
  MIN(sm_tpr) AS group_min,
  MAX(sm_tpr) AS group_max,
  MAX(sm_tpr_all) AS overall,
  CAST(COUNT(*) AS BIGINT) AS n_groups,
  CAST(SUM(n) AS BIGINT) AS n
FROM (
  SELECT
    sm_counts.*,
    (
      CAST(tp AS DOUBLE) / NULLIF(CAST(tp + fn AS DOUBLE), 0)
    ) AS sm_tpr,
    (
      CAST(SUM(tp) OVER (PARTITION BY "COUNTRY") AS DOUBLE) / NULLIF(CAST(SUM(tp + fn) OVER (PARTITION BY "COUNTRY") AS DOUBLE), 0)
    ) AS sm_tpr_all
  FROM (
    SELECT
      "COUNTRY",
      "G",
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
        "COUNTRY",
        "G",
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
        CASE
          WHEN "PCTR" >= CAST(0.5 AS DOUBLE)
          THEN 1
          WHEN "PCTR" < CAST(0.5 AS DOUBLE)
          THEN 0
          ELSE CAST(CASE
            WHEN COALESCE(NOT (
              "PCTR" >= CAST(0.5 AS DOUBLE) OR "PCTR" < CAST(0.5 AS DOUBLE)
            ), TRUE)
            THEN 'sqlmetrics: a score must be a number; found ' || COALESCE(CAST("PCTR" AS VARCHAR), 'NULL')
            ELSE '0'
          END AS BIGINT)
        END AS sm_hat,
        CAST("IMPRESSIONS" AS DOUBLE) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      "COUNTRY",
      "G"
  ) AS sm_counts
) AS sm_groups
GROUP BY
  "COUNTRY"
