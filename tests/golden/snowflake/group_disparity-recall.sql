WITH sm_by_group AS (
  SELECT
    "COUNTRY",
    "GENDER",
    "AGE_BAND",
    (
      CAST(tp AS DOUBLE) / NULLIF(CAST(tp + fn AS DOUBLE), 0)
    ) AS "RECALL",
    tp,
    fp,
    tn,
    fn,
    n
  FROM (
    SELECT
      "COUNTRY",
      "GENDER",
      "AGE_BAND",
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
        "GENDER",
        "AGE_BAND",
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
      "GENDER",
      "AGE_BAND"
  ) AS sm_confusion
), sm_overall AS (
  SELECT
    "COUNTRY",
    (
      CAST(tp AS DOUBLE) / NULLIF(CAST(tp + fn AS DOUBLE), 0)
    ) AS "RECALL",
    tp,
    fp,
    tn,
    fn,
    n
  FROM (
    SELECT
      "COUNTRY",
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
      "COUNTRY"
  ) AS sm_confusion
), sm_groups AS (
  SELECT
    sm_by_group."COUNTRY" AS "COUNTRY",
    sm_by_group."GENDER" AS "GENDER",
    sm_by_group."AGE_BAND" AS "AGE_BAND",
    sm_by_group."RECALL" AS sm_value,
    sm_overall."RECALL" AS sm_overall
  FROM sm_by_group
  JOIN sm_overall
    ON (
      sm_by_group."COUNTRY" IS NOT DISTINCT FROM sm_overall."COUNTRY"
    )
), sm_summaries AS (
  SELECT
    "COUNTRY",
    CASE
      WHEN COUNT(*) >= 2 AND COUNT(sm_value) = COUNT(*)
      THEN MAX(ABS(sm_value - sm_overall))
    END AS difference,
    CASE
      WHEN COUNT(*) >= 2 AND COUNT(sm_value) = COUNT(*)
      THEN CASE
        WHEN MAX(sm_overall) <> 0
        THEN MIN(
          CASE
            WHEN (
              CAST(sm_value AS DOUBLE) / NULLIF(CAST(sm_overall AS DOUBLE), 0)
            ) > 1
            THEN (
              CAST(sm_overall AS DOUBLE) / NULLIF(CAST(sm_value AS DOUBLE), 0)
            )
            ELSE (
              CAST(sm_value AS DOUBLE) / NULLIF(CAST(sm_overall AS DOUBLE), 0)
            )
          END
        )
      END
    END AS ratio,
    CASE WHEN COUNT(sm_value) = COUNT(*) THEN MIN(sm_value) END AS group_min,
    CASE WHEN COUNT(sm_value) = COUNT(*) THEN MAX(sm_value) END AS group_max,
    MAX(sm_overall) AS overall,
    CAST(COUNT(*) AS BIGINT) AS n_groups
  FROM sm_groups
  GROUP BY
    "COUNTRY"
)
SELECT
  *
FROM sm_summaries
