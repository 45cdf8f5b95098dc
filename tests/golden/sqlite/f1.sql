SELECT
  "country",
  f_beta AS f1,
  tp,
  fp,
  tn,
  fn,
  n
FROM (
  SELECT
    "country",
    CAST((
      1 + CAST(1.0 AS REAL) * CAST(1.0 AS REAL)
    ) * tp AS REAL) / NULLIF(
      CAST((
        1 + CAST(1.0 AS REAL) * CAST(1.0 AS REAL)
      ) * tp + CAST(1.0 AS REAL) * CAST(1.0 AS REAL) * fn + fp AS REAL),
      0
    ) AS f_beta,
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
        CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END AS sm_y,
        CASE WHEN "pctr" >= CAST(0.5 AS REAL) THEN 1 ELSE 0 END AS sm_hat,
        CAST("impressions" AS REAL) AS sm_w
      FROM analytics.preds
    ) AS sm_rows
    GROUP BY
      "country"
  ) AS sm_confusion
) AS sm_f
