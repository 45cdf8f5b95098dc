WITH sm_at AS (
  SELECT
    sm_sums.*
  FROM (
    SELECT
      "country",
      threshold,
      SUM(sm_rows) AS sm_n_at,
      SUM(sm_pos * sm_rows) AS sm_n_pos_at,
      SUM(sm_pos * sm_weight) AS sm_tp_at,
      SUM((
        1 - sm_pos
      ) * sm_weight) AS sm_fp_at
    FROM (
      SELECT
        "country",
        threshold,
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
          "pctr" AS threshold,
          COUNT(*) AS sm_rows,
          SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
        FROM analytics.preds
        GROUP BY
          "country",
          "pctr",
          "clicked"
      ) AS sm_labelled
    ) AS sm_by_label
    GROUP BY
      "country",
      threshold
  ) AS sm_sums
), sm_running AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    SUM(sm_tp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_tp_at_run,
    SUM(sm_tp_at) OVER (PARTITION BY "country") AS sm_tp_at_all,
    sm_fp_at,
    SUM(sm_fp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_fp_at_run,
    SUM(sm_fp_at) OVER (PARTITION BY "country") AS sm_fp_at_all
  FROM sm_at
), sm_points AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    sm_fp_at,
    sm_tp_at_run AS tp,
    sm_fp_at_run AS fp,
    sm_tp_at_all AS sm_pos,
    sm_fp_at_all AS sm_neg,
    CASE WHEN sm_tp_at + sm_fp_at > 0 THEN 1 ELSE 0 END AS sm_point
  FROM sm_running
), sm_valued AS (
  SELECT
    "country",
    threshold,
    tp,
    fp,
    sm_pos,
    sm_neg,
    sm_n_at,
    sm_n_pos_at,
    CASE
      WHEN sm_point = 1
      THEN CASE
        WHEN sm_pos > 0
        THEN CASE
          WHEN tp > 0
          THEN (
            CAST(tp AS DOUBLE) / NULLIF(
              CAST(tp + CAST(0.5 AS DOUBLE) * (
                sm_pos - tp
              ) + CAST(0.5 AS DOUBLE) * fp AS DOUBLE),
              0
            )
          )
          WHEN fp + (
            sm_pos - tp
          ) > 0
          THEN CAST(0 AS DOUBLE)
        END
      END
    END AS sm_value
  FROM sm_points
), sm_top_values AS (
  SELECT
    "country",
    MAX(sm_value) AS sm_top
  FROM sm_valued
  GROUP BY
    "country"
), sm_best AS (
  SELECT
    sm_valued."country" AS "country",
    MAX(sm_top_values.sm_top) AS sm_top,
    MAX(
      CASE
        WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
        THEN sm_valued.threshold
      END
    ) AS sm_threshold,
    MIN(
      CASE
        WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
        THEN sm_valued.tp
      END
    ) AS sm_tp,
    MIN(
      CASE
        WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
        THEN sm_valued.fp
      END
    ) AS sm_fp,
    MAX(sm_valued.sm_pos) AS sm_w_pos,
    MAX(sm_valued.sm_neg) AS sm_w_neg,
    CAST(SUM(sm_valued.sm_n_at) AS BIGINT) AS sm_n,
    CAST(SUM(sm_valued.sm_n_pos_at) AS BIGINT) AS sm_n_pos
  FROM sm_valued
  JOIN sm_top_values
    ON (
      sm_valued."country" IS NOT DISTINCT FROM sm_top_values."country"
    )
  GROUP BY
    sm_valued."country"
)
SELECT
  "country",
  threshold,
  best_value,
  (
    CAST(sm_tp_best AS DOUBLE) / NULLIF(CAST(sm_tp_best + sm_fp_best AS DOUBLE), 0)
  ) AS "precision",
  (
    CAST(sm_tp_best AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
  ) AS recall,
  (
    CAST(sm_fp_best AS DOUBLE) / NULLIF(CAST(sm_w_neg AS DOUBLE), 0)
  ) AS fpr,
  n_pos,
  n_neg
FROM (
  SELECT
    "country",
    sm_threshold AS threshold,
    sm_top AS best_value,
    sm_w_pos,
    sm_w_neg,
    sm_tp AS sm_tp_best,
    sm_fp AS sm_fp_best,
    sm_n_pos AS n_pos,
    sm_n - sm_n_pos AS n_neg
  FROM sm_best
) AS sm_chosen
