SELECT
  "country",
  sm_bucket AS bucket,
  CAST(0.0 AS REAL) + CAST(sm_bucket * (
    CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
  ) AS REAL) / 1000 AS low,
  CAST(0.0 AS REAL) + CAST((
    sm_bucket + 1
  ) * (
    CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
  ) AS REAL) / 1000 AS high,
  CAST(SUM(sm_rows) AS INTEGER) AS n,
  CAST(SUM(sm_pos * sm_rows) AS INTEGER) AS n_pos,
  CAST(SUM(sm_pos * sm_weight) AS REAL) AS w_pos,
  CAST(SUM((
    1 - sm_pos
  ) * sm_weight) AS REAL) AS w_neg
FROM (
  SELECT
    "country",
    sm_bucket,
    sm_rows,
    sm_weight,
    CASE
      WHEN "clicked" = 1
      THEN 1
      WHEN "clicked" = 0
      THEN 0
      ELSE CASE
        WHEN COALESCE(NOT (
          "clicked" = 1 OR "clicked" = 0
        ), TRUE)
        THEN JSON_EXTRACT(
          '{}',
          'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
        )
      END
    END AS sm_pos
  FROM (
    SELECT
      "country",
      "clicked",
      sm_bucket,
      COUNT(*) AS sm_rows,
      SUM(sm_w) AS sm_weight
    FROM (
      SELECT
        "country",
        "clicked",
        CAST("impressions" AS REAL) AS sm_w,
        CAST(CASE
          WHEN CAST("pctr" AS REAL) < CAST(0.0 AS REAL)
          THEN 0
          WHEN CAST("pctr" AS REAL) >= CAST(1.0 AS REAL)
          OR FLOOR(
            CAST((
              CAST("pctr" AS REAL) - CAST(0.0 AS REAL)
            ) AS REAL) / (
              CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
            ) * 1000
          ) >= 1000
          THEN 999
          ELSE FLOOR(
            CAST((
              CAST("pctr" AS REAL) - CAST(0.0 AS REAL)
            ) AS REAL) / (
              CAST(1.0 AS REAL) - CAST(0.0 AS REAL)
            ) * 1000
          )
        END AS INTEGER) AS sm_bucket
      FROM analytics.preds
    ) AS sm_bucketed
    GROUP BY
      "country",
      "clicked",
      sm_bucket
  ) AS sm_labelled
) AS sm_by_label
GROUP BY
  "country",
  sm_bucket
ORDER BY
  "country" NULLS LAST,
  sm_bucket NULLS LAST
