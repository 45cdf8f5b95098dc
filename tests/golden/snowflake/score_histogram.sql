SELECT
  "COUNTRY",
  sm_bucket AS bucket,
  CAST(0.0 AS DOUBLE) + sm_bucket * (
    CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
  ) / 1000 AS low,
  CAST(0.0 AS DOUBLE) + (
    sm_bucket + 1
  ) * (
    CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
  ) / 1000 AS high,
  CAST(SUM(sm_rows) AS BIGINT) AS n,
  CAST(SUM(sm_pos * sm_rows) AS BIGINT) AS n_pos,
  CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS w_pos,
  CAST(SUM((
    1 - sm_pos
  ) * sm_weight) AS DOUBLE) AS w_neg
FROM (
  SELECT
    "COUNTRY",
    sm_bucket,
    sm_rows,
    sm_weight,
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
    END AS sm_pos
  FROM (
    SELECT
      "COUNTRY",
      "CLICKED",
      sm_bucket,
      COUNT(*) AS sm_rows,
      SUM(sm_w) AS sm_weight
    FROM (
      SELECT
        "COUNTRY",
        "CLICKED",
        CAST("IMPRESSIONS" AS DOUBLE) AS sm_w,
        CAST(CASE
          WHEN CAST("PCTR" AS DOUBLE) < CAST(0.0 AS DOUBLE)
          THEN 0
          WHEN CAST("PCTR" AS DOUBLE) >= CAST(1.0 AS DOUBLE)
          OR FLOOR(
            (
              CAST("PCTR" AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) / (
              CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) * 1000
          ) >= 1000
          THEN 999
          ELSE FLOOR(
            (
              CAST("PCTR" AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) / (
              CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) * 1000
          )
        END AS BIGINT) AS sm_bucket
      FROM analytics.preds
    ) AS sm_bucketed
    GROUP BY
      "COUNTRY",
      "CLICKED",
      sm_bucket
  ) AS sm_labelled
) AS sm_by_label
GROUP BY
  "COUNTRY",
  sm_bucket
ORDER BY
  "COUNTRY",
  sm_bucket
