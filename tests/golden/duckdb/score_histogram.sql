SELECT
  "country",
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
        THEN ERROR(
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
        CAST("impressions" AS DOUBLE) AS sm_w,
        CAST(CASE
          WHEN CAST("pctr" AS DOUBLE) < CAST(0.0 AS DOUBLE)
          THEN 0
          WHEN CAST("pctr" AS DOUBLE) >= CAST(1.0 AS DOUBLE)
          OR FLOOR(
            (
              CAST("pctr" AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) / (
              CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) * 1000
          ) >= 1000
          THEN 999
          ELSE FLOOR(
            (
              CAST("pctr" AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) / (
              CAST(1.0 AS DOUBLE) - CAST(0.0 AS DOUBLE)
            ) * 1000
          )
        END AS BIGINT) AS sm_bucket
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
  "country" ASC,
  sm_bucket ASC
