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
)
SELECT
  "country",
  threshold,
  "precision",
  recall,
  tp,
  fp
FROM (
  SELECT
    "country",
    CAST('inf' AS DOUBLE) AS threshold,
    CAST(1 AS DOUBLE) AS "precision",
    (
      CAST(0 AS DOUBLE) / NULLIF(CAST(MAX(sm_pos) AS DOUBLE), 0)
    ) AS recall,
    0 AS tp,
    0 AS fp
  FROM sm_points
  GROUP BY
    "country"
  UNION ALL
  SELECT
    "country",
    threshold,
    (
      CAST(tp AS DOUBLE) / NULLIF(CAST(tp + fp AS DOUBLE), 0)
    ) AS "precision",
    (
      CAST(tp AS DOUBLE) / NULLIF(CAST(sm_pos AS DOUBLE), 0)
    ) AS recall,
    tp AS tp,
    fp AS fp
  FROM sm_points
  WHERE
    sm_point = 1
) AS sm_curve
ORDER BY
  "country" ASC,
  threshold DESC,
  tp ASC,
  fp ASC
