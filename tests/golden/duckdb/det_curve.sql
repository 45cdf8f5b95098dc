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
), sm_det_ends AS (
  SELECT
    "country",
    MIN(CASE WHEN sm_point = 1 AND fp = 0 THEN threshold END) AS sm_first,
    MIN(CASE WHEN sm_tp_at > 0 THEN threshold END) AS sm_last,
    MAX(sm_pos) AS sm_w_pos,
    MAX(sm_neg) AS sm_w_neg
  FROM sm_points
  GROUP BY
    "country"
)
SELECT
  "country",
  threshold,
  fpr,
  fnr,
  fp,
  fn
FROM (
  SELECT
    "country",
    CAST('inf' AS DOUBLE) AS threshold,
    (
      CAST(0 AS DOUBLE) / NULLIF(CAST(sm_w_neg AS DOUBLE), 0)
    ) AS fpr,
    (
      CAST(sm_w_pos AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
    ) AS fnr,
    0 AS fp,
    sm_w_pos AS fn
  FROM sm_det_ends
  WHERE
    sm_first IS NULL
  UNION ALL
  SELECT
    sm_points."country" AS "country",
    sm_points.threshold,
    (
      CAST(sm_points.fp AS DOUBLE) / NULLIF(CAST(sm_points.sm_neg AS DOUBLE), 0)
    ) AS fpr,
    (
      CAST(sm_points.sm_pos - sm_points.tp AS DOUBLE) / NULLIF(CAST(sm_points.sm_pos AS DOUBLE), 0)
    ) AS fnr,
    sm_points.fp AS fp,
    sm_points.sm_pos - sm_points.tp AS fn
  FROM sm_points
  JOIN sm_det_ends
    ON (
      sm_points."country" IS NOT DISTINCT FROM sm_det_ends."country"
    )
  WHERE
    sm_points.sm_point = 1
    AND sm_points.threshold >= sm_det_ends.sm_last
    AND (
      sm_det_ends.sm_first IS NULL OR sm_points.threshold <= sm_det_ends.sm_first
    )
) AS sm_det
ORDER BY
  "country" ASC,
  threshold ASC,
  fn ASC,
  fp DESC
