SELECT
  "country",
  SUM(sm_tp_at * CAST(tp AS DOUBLE) / NULLIF(CAST(tp + fp AS DOUBLE), 0)) / NULLIF(MAX(sm_pos), 0) AS average_precision,
  CAST(COALESCE(SUM(sm_n_at), 0) AS BIGINT) AS n,
  CAST(COALESCE(SUM(sm_n_pos_at), 0) AS BIGINT) AS n_pos,
  CAST(COALESCE(SUM(sm_n_at - sm_n_pos_at), 0) AS BIGINT) AS n_neg
FROM (
  SELECT
    sm_at.*,
    SUM(sm_tp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tp,
    SUM(sm_fp_at) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS fp,
    SUM(sm_tp_at) OVER (PARTITION BY "country") AS sm_pos,
    SUM(sm_fp_at) OVER (PARTITION BY "country") AS sm_neg
  FROM (
    SELECT
      "country",
      "pctr" AS threshold,
      COUNT(*) AS sm_n_at,
      SUM(CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END) AS sm_n_pos_at,
      SUM(CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END * CAST("impressions" AS DOUBLE)) AS sm_tp_at,
      SUM(
        (
          1 - CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END
        ) * CAST("impressions" AS DOUBLE)
      ) AS sm_fp_at
    FROM analytics.preds
    GROUP BY
      "country",
      "pctr"
  ) AS sm_at
) AS sm_points
GROUP BY
  "country"
