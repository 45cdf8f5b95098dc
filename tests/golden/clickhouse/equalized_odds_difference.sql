SELECT
  "country",
  CASE
    WHEN COUNT(*) < 2
    OR (
      CASE WHEN COUNT(sm_tpr) = COUNT(*) THEN MAX(sm_tpr) - MIN(sm_tpr) END
    ) IS NULL
    OR (
      CASE WHEN COUNT(sm_fpr) = COUNT(*) THEN MAX(sm_fpr) - MIN(sm_fpr) END
    ) IS NULL
    THEN NULL
    WHEN (
      CASE WHEN COUNT(sm_tpr) = COUNT(*) THEN MAX(sm_tpr) - MIN(sm_tpr) END
    ) >= (
      CASE WHEN COUNT(sm_fpr) = COUNT(*) THEN MAX(sm_fpr) - MIN(sm_fpr) END
    )
    THEN CASE WHEN COUNT(sm_tpr) = COUNT(*) THEN MAX(sm_tpr) - MIN(sm_tpr) END
    ELSE CASE WHEN COUNT(sm_fpr) = COUNT(*) THEN MAX(sm_fpr) - MIN(sm_fpr) END
  END AS "equalized_odds_difference",
  CASE
    WHEN COUNT(*) >= 2
    THEN CASE WHEN COUNT(sm_tpr) = COUNT(*) THEN MAX(sm_tpr) - MIN(sm_tpr) END
  END AS tpr_difference,
  CASE
    WHEN COUNT(*) >= 2
    THEN CASE WHEN COUNT(sm_fpr) = COUNT(*) THEN MAX(sm_fpr) - MIN(sm_fpr) END
  END AS fpr_difference,
  CAST(COUNT(*) AS Nullable(Int64)) AS n_groups,
  CAST(SUM(n) AS Nullable(Int64)) AS n
FROM (
  SELECT
    sm_counts.*,
    (
      CAST(tp AS Nullable(Float64)) / nullIf(CAST(tp + fn AS Nullable(Float64)), 0)
    ) AS sm_tpr,
    (
      CAST(SUM(tp) OVER (PARTITION BY "country") AS Nullable(Float64)) / nullIf(CAST(SUM(tp + fn) OVER (PARTITION BY "country") AS Nullable(Float64)), 0)
    ) AS sm_tpr_all,
    (
      CAST(fp AS Nullable(Float64)) / nullIf(CAST(fp + tn AS Nullable(Float64)), 0)
    ) AS sm_fpr,
    (
      CAST(SUM(fp) OVER (PARTITION BY "country") AS Nullable(Float64)) / nullIf(CAST(SUM(fp + tn) OVER (PARTITION BY "country") AS Nullable(Float64)), 0)
    ) AS sm_fpr_all
  FROM (
    SELECT
      "country",
      "g",
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
        "g",
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
        CASE
          WHEN "pctr" >= CAST(0.5 AS Nullable(Float64))
          THEN 1
          WHEN "pctr" < CAST(0.5 AS Nullable(Float64))
          THEN 0
          ELSE CAST(CASE
            WHEN COALESCE(
              NOT (
                "pctr" >= CAST(0.5 AS Nullable(Float64))
                OR "pctr" < CAST(0.5 AS Nullable(Float64))
              ),
              TRUE
            )
            THEN 'sqlmetrics: a score must be a number; found ' || COALESCE(CAST("pctr" AS Nullable(String)), 'NULL')
            ELSE '0'
          END AS Int64)
        END AS sm_hat,
        CAST("impressions" AS Nullable(Float64)) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      "country",
      "g"
  ) AS sm_counts
) AS sm_groups
GROUP BY
  "country"
