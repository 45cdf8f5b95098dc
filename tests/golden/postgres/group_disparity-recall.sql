WITH sm_by_group AS (
  SELECT
    "country",
    "gender",
    "age_band",
    (
      CAST(tp AS DOUBLE PRECISION) / NULLIF(CAST(tp + fn AS DOUBLE PRECISION), 0)
    ) AS "recall",
    tp,
    fp,
    tn,
    fn,
    n
  FROM (
    SELECT
      "country",
      "gender",
      "age_band",
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
        "gender",
        "age_band",
        CASE
          WHEN "clicked" = 1
          THEN 1
          WHEN "clicked" = 0
          THEN 0
          ELSE CAST(CASE
            WHEN COALESCE(NOT (
              "clicked" = 1 OR "clicked" = 0
            ), TRUE)
            THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
            ELSE '0'
          END AS BIGINT)
        END AS sm_y,
        CASE
          WHEN "pctr" >= CAST(0.5 AS DOUBLE PRECISION)
          THEN 1
          WHEN "pctr" < CAST(0.5 AS DOUBLE PRECISION)
          THEN 0
          ELSE CAST(CASE
            WHEN COALESCE(
              NOT (
                "pctr" >= CAST(0.5 AS DOUBLE PRECISION) OR "pctr" < CAST(0.5 AS DOUBLE PRECISION)
              ),
              TRUE
            )
            THEN 'sqlmetrics: a score must be a number; found ' || COALESCE(CAST("pctr" AS TEXT), 'NULL')
            ELSE '0'
          END AS BIGINT)
        END AS sm_hat,
        CAST("impressions" AS DOUBLE PRECISION) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      "country",
      "gender",
      "age_band"
  ) AS sm_confusion
), sm_overall AS (
  SELECT
    "country",
    (
      CAST(tp AS DOUBLE PRECISION) / NULLIF(CAST(tp + fn AS DOUBLE PRECISION), 0)
    ) AS "recall",
    tp,
    fp,
    tn,
    fn,
    n
  FROM (
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
            THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
            ELSE '0'
          END AS BIGINT)
        END AS sm_y,
        CASE
          WHEN "pctr" >= CAST(0.5 AS DOUBLE PRECISION)
          THEN 1
          WHEN "pctr" < CAST(0.5 AS DOUBLE PRECISION)
          THEN 0
          ELSE CAST(CASE
            WHEN COALESCE(
              NOT (
                "pctr" >= CAST(0.5 AS DOUBLE PRECISION) OR "pctr" < CAST(0.5 AS DOUBLE PRECISION)
              ),
              TRUE
            )
            THEN 'sqlmetrics: a score must be a number; found ' || COALESCE(CAST("pctr" AS TEXT), 'NULL')
            ELSE '0'
          END AS BIGINT)
        END AS sm_hat,
        CAST("impressions" AS DOUBLE PRECISION) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      "country"
  ) AS sm_confusion
), sm_groups AS (
  SELECT
    sm_by_group."country" AS "country",
    sm_by_group."gender" AS "gender",
    sm_by_group."age_band" AS "age_band",
    sm_by_group."recall" AS sm_value,
    sm_overall."recall" AS sm_overall
  FROM sm_by_group
  JOIN sm_overall
    ON (
      sm_by_group."country" IS NOT DISTINCT FROM sm_overall."country"
    )
), sm_summaries AS (
  SELECT
    "country",
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
              CAST(sm_value AS DOUBLE PRECISION) / NULLIF(CAST(sm_overall AS DOUBLE PRECISION), 0)
            ) > 1
            THEN (
              CAST(sm_overall AS DOUBLE PRECISION) / NULLIF(CAST(sm_value AS DOUBLE PRECISION), 0)
            )
            ELSE (
              CAST(sm_value AS DOUBLE PRECISION) / NULLIF(CAST(sm_overall AS DOUBLE PRECISION), 0)
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
    "country"
)
SELECT
  *
FROM sm_summaries
