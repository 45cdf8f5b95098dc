WITH sm_rows AS (
  SELECT
    "country",
    "pctr" AS threshold,
    CASE
      WHEN "treated" = 1
      THEN 1
      WHEN "treated" = 0
      THEN 0
      ELSE CASE
        WHEN COALESCE(NOT (
          "treated" = 1 OR "treated" = 0
        ), TRUE)
        THEN ERROR(
          'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("treated" AS TEXT), 'NULL')
        )
      END
    END AS sm_t
  FROM analytics.preds
), sm_ties AS (
  SELECT
    "country",
    "threshold",
    COUNT(*) AS sm_n,
    SUM(sm_t) AS sm_treated
  FROM sm_rows
  GROUP BY
    "country",
    "threshold"
), sm_order AS (
  SELECT
    "country",
    threshold,
    sm_n,
    SUM(sm_n) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_n_run,
    SUM(sm_n) OVER (PARTITION BY "country") AS sm_n_all,
    sm_treated,
    SUM(sm_treated) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_treated_run,
    SUM(sm_treated) OVER (PARTITION BY "country") AS sm_treated_all
  FROM sm_ties
), sm_positions AS (
  SELECT
    sm_o."country" AS "country",
    sm_o.sm_n_all AS sm_rows_all,
    sm_o.sm_n_run - sm_o.sm_n + sm_r.sm_k AS sm_p,
    sm_o.sm_treated_run - sm_o.sm_treated + sm_r.sm_k * (
      CAST(sm_o.sm_treated AS DOUBLE) / NULLIF(CAST(sm_o.sm_n AS DOUBLE), 0)
    ) AS sm_c
  FROM (
    SELECT
      "country",
      "threshold",
      ROW_NUMBER() OVER (PARTITION BY "country", "threshold" ORDER BY sm_t ASC) AS sm_k
    FROM sm_rows
  ) AS sm_r
  JOIN sm_order AS sm_o
    ON (
      sm_r."country" IS NOT DISTINCT FROM sm_o."country"
    )
    AND sm_r.threshold = sm_o.threshold
)
SELECT
  sm_end."country" AS "country",
  CASE
    WHEN sm_end.sm_rows_all = 50
    THEN 1.0
    ELSE 1 + (
      sm_end.sm_p - 50
    ) * (
      CAST(99.0 AS DOUBLE) / NULLIF(CAST(sm_end.sm_rows_all - 50 AS DOUBLE), 0)
    )
  END AS idx,
  (
    sm_end.sm_c - COALESCE(sm_start.sm_c, 0)
  ) / CAST(50 AS DOUBLE) AS balance
FROM sm_positions AS sm_end
LEFT JOIN sm_positions AS sm_start
  ON (
    sm_end."country" IS NOT DISTINCT FROM sm_start."country"
  )
  AND sm_start.sm_p = sm_end.sm_p - 50
WHERE
  sm_end.sm_p >= 50
ORDER BY
  "country" ASC,
  idx ASC
