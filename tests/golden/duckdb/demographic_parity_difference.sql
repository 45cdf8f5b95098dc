SELECT
  "country",
  CASE
    WHEN COUNT(*) >= 2
    THEN CASE
      WHEN COUNT(sm_selection) = COUNT(*)
      THEN MAX(sm_selection) - MIN(sm_selection)
    END
  END AS "demographic_parity_difference",
  MIN(sm_selection) AS group_min,
  MAX(sm_selection) AS group_max,
  MAX(sm_selection_all) AS overall,
  CAST(COUNT(*) AS BIGINT) AS n_groups,
  CAST(SUM(n) AS BIGINT) AS n
FROM (
  SELECT
    sm_counts.*,
    (
      CAST(tp + fp AS DOUBLE) / NULLIF(CAST(tp + fp + tn + fn AS DOUBLE), 0)
    ) AS sm_selection,
    (
      CAST(SUM(tp + fp) OVER (PARTITION BY "country") AS DOUBLE) / NULLIF(CAST(SUM(tp + fp + tn + fn) OVER (PARTITION BY "country") AS DOUBLE), 0)
    ) AS sm_selection_all
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
          ELSE CASE
            WHEN COALESCE(NOT (
              "clicked" = 1 OR "clicked" = 0
            ), TRUE)
            THEN ERROR(
              'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
            )
          END
        END AS sm_y,
        CASE
          WHEN "pctr" >= CAST(0.5 AS DOUBLE)
          THEN 1
          WHEN "pctr" < CAST(0.5 AS DOUBLE)
          THEN 0
          ELSE CASE
            WHEN COALESCE(NOT (
              "pctr" >= CAST(0.5 AS DOUBLE) OR "pctr" < CAST(0.5 AS DOUBLE)
            ), TRUE)
            THEN ERROR(
              'sqlmetrics: a score must be a number; found ' || COALESCE(CAST("pctr" AS TEXT), 'NULL')
            )
          END
        END AS sm_hat,
        CAST("impressions" AS DOUBLE) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      "country",
      "g"
  ) AS sm_counts
) AS sm_groups
GROUP BY
  "country"
