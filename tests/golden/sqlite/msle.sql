SELECT
  "country",
  (
    CAST(sm_loss AS REAL) / NULLIF(CAST(sm_weight AS REAL), 0)
  ) AS msle,
  n
FROM (
  SELECT
    "country",
    SUM(
      sm_w * (
        (
          CASE
            WHEN sm_t > -1
            THEN CASE
              WHEN 1 + sm_t = 1
              THEN sm_t
              ELSE LN(1 + sm_t) * (
                CAST(sm_t AS REAL) / NULLIF(CAST((
                  1 + sm_t
                ) - 1 AS REAL), 0)
              )
            END
            ELSE CAST(CASE
              WHEN COALESCE(NOT (
                sm_t > -1
              ), TRUE)
              THEN JSON_EXTRACT(
                '{}',
                'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_t AS TEXT), 'NULL')
              )
            END AS REAL)
          END - CASE
            WHEN sm_p > -1
            THEN CASE
              WHEN 1 + sm_p = 1
              THEN sm_p
              ELSE LN(1 + sm_p) * (
                CAST(sm_p AS REAL) / NULLIF(CAST((
                  1 + sm_p
                ) - 1 AS REAL), 0)
              )
            END
            ELSE CAST(CASE
              WHEN COALESCE(NOT (
                sm_p > -1
              ), TRUE)
              THEN JSON_EXTRACT(
                '{}',
                'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_p AS TEXT), 'NULL')
              )
            END AS REAL)
          END
        ) * (
          CASE
            WHEN sm_t > -1
            THEN CASE
              WHEN 1 + sm_t = 1
              THEN sm_t
              ELSE LN(1 + sm_t) * (
                CAST(sm_t AS REAL) / NULLIF(CAST((
                  1 + sm_t
                ) - 1 AS REAL), 0)
              )
            END
            ELSE CAST(CASE
              WHEN COALESCE(NOT (
                sm_t > -1
              ), TRUE)
              THEN JSON_EXTRACT(
                '{}',
                'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_t AS TEXT), 'NULL')
              )
            END AS REAL)
          END - CASE
            WHEN sm_p > -1
            THEN CASE
              WHEN 1 + sm_p = 1
              THEN sm_p
              ELSE LN(1 + sm_p) * (
                CAST(sm_p AS REAL) / NULLIF(CAST((
                  1 + sm_p
                ) - 1 AS REAL), 0)
              )
            END
            ELSE CAST(CASE
              WHEN COALESCE(NOT (
                sm_p > -1
              ), TRUE)
              THEN JSON_EXTRACT(
                '{}',
                'sqlmetrics: msle takes targets and predictions above -1 (it takes the log of 1 + value); found ' || COALESCE(CAST(sm_p AS TEXT), 'NULL')
              )
            END AS REAL)
          END
        )
      )
    ) AS sm_loss,
    SUM(sm_w) AS sm_weight,
    COUNT(*) AS n
  FROM (
    SELECT
      "country",
      CAST("revenue" AS REAL) AS sm_t,
      CAST("predicted_revenue" AS REAL) AS sm_p,
      CAST("impressions" AS REAL) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "country"
) AS sm_sums
