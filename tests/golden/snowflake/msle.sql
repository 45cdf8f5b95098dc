SELECT
  "COUNTRY",
  (
    CAST(sm_loss AS DOUBLE) / NULLIF(CAST(sm_weight AS DOUBLE), 0)
  ) AS msle,
  n
FROM (
  SELECT
    "COUNTRY",
    SUM(
      sm_w * (
        (
          CASE
            WHEN sm_t > -1
            THEN CASE
              WHEN 1 + sm_t = 1
              THEN sm_t
              ELSE LN(1 + sm_t) * (
                CAST(sm_t AS DOUBLE) / NULLIF(CAST((
                  1 + sm_t
                ) - 1 AS DOUBLE), 0)
              )
            END
            ELSE CAST(CAST(CASE
              WHEN COALESCE(NOT (
                sm_t > -1
              ), TRUE)
              THEN 'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_t AS VARCHAR), 'NULL')
              ELSE '0'
            END AS BIGINT) AS DOUBLE)
          END - CASE
            WHEN sm_p > -1
            THEN CASE
              WHEN 1 + sm_p = 1
              THEN sm_p
              ELSE LN(1 + sm_p) * (
                CAST(sm_p AS DOUBLE) / NULLIF(CAST((
                  1 + sm_p
                ) - 1 AS DOUBLE), 0)
              )
            END
            ELSE CAST(CAST(CASE
              WHEN COALESCE(NOT (
                sm_p > -1
              ), TRUE)
              THEN 'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_p AS VARCHAR), 'NULL')
              ELSE '0'
            END AS BIGINT) AS DOUBLE)
          END
        ) * (
          CASE
            WHEN sm_t > -1
            THEN CASE
              WHEN 1 + sm_t = 1
              THEN sm_t
              ELSE LN(1 + sm_t) * (
                CAST(sm_t AS DOUBLE) / NULLIF(CAST((
                  1 + sm_t
                ) - 1 AS DOUBLE), 0)
              )
            END
            ELSE CAST(CAST(CASE
              WHEN COALESCE(NOT (
                sm_t > -1
              ), TRUE)
              THEN 'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_t AS VARCHAR), 'NULL')
              ELSE '0'
            END AS BIGINT) AS DOUBLE)
          END - CASE
            WHEN sm_p > -1
            THEN CASE
              WHEN 1 + sm_p = 1
              THEN sm_p
              ELSE LN(1 + sm_p) * (
                CAST(sm_p AS DOUBLE) / NULLIF(CAST((
                  1 + sm_p
                ) - 1 AS DOUBLE), 0)
              )
            END
            ELSE CAST(CAST(CASE
              WHEN COALESCE(NOT (
                sm_p > -1
              ), TRUE)
              THEN 'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_p AS VARCHAR), 'NULL')
              ELSE '0'
            END AS BIGINT) AS DOUBLE)
          END
        )
      )
    ) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    COUNT(*) AS n
  FROM (
    SELECT
      "COUNTRY",
      CAST("REVENUE" AS DOUBLE) AS sm_t,
      CAST("PREDICTED_REVENUE" AS DOUBLE) AS sm_p,
      CAST("IMPRESSIONS" AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "COUNTRY"
) AS sm_sums
