SELECT
  "country",
  CAST(SUM(sm_v * sm_auc) AS DOUBLE) / NULLIF(SUM(sm_v), 0) AS gauc,
  CAST(COALESCE(SUM(sm_used), 0) AS BIGINT) AS n_groups_used,
  CAST(COUNT(*) - COALESCE(SUM(sm_used), 0) AS BIGINT) AS n_groups_excluded,
  CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS n,
  CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS n_pos,
  CAST(COALESCE(SUM(sm_n - sm_n_pos), 0) AS BIGINT) AS n_neg
FROM (
  SELECT
    sm_parts.*,
    CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN 1 ELSE 0 END AS sm_used,
    CASE
      WHEN sm_w_pos > 0 AND sm_w_neg > 0
      THEN CAST(sm_u AS DOUBLE) / (
        sm_w_pos * sm_w_neg
      )
    END AS sm_auc,
    CASE
      WHEN sm_w_pos > 0 AND sm_w_neg > 0
      THEN CAST(sm_w_pos + sm_w_neg AS DOUBLE)
    END AS sm_v
  FROM (
    SELECT
      "country",
      "user_id",
      CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS sm_n,
      CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
      SUM(sm_w_pos) AS sm_w_pos,
      SUM(sm_w_neg) AS sm_w_neg,
      SUM(
        sm_cumulative.sm_w_pos * (
          COALESCE(sm_cumulative.sm_w_neg_below, 0) + 0.5 * sm_cumulative.sm_w_neg
        )
      ) AS sm_u,
      SUM(sm_cumulative.sm_w_pos * sm_cumulative.sm_w_neg) AS sm_tied
    FROM (
      SELECT
        sm_by_score.*,
        SUM(sm_w_neg) OVER (
          PARTITION BY "country", "user_id"
          ORDER BY sm_s
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS sm_w_neg_below
      FROM (
        SELECT
          "country",
          "user_id",
          "pctr" AS sm_s,
          COUNT(*) AS sm_n,
          SUM(CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END) AS sm_n_pos,
          SUM(CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END * CAST("impressions" AS DOUBLE)) AS sm_w_pos,
          SUM(
            (
              1 - CASE WHEN "clicked" = 1 THEN 1 ELSE 0 END
            ) * CAST("impressions" AS DOUBLE)
          ) AS sm_w_neg
        FROM analytics.preds
        GROUP BY
          "country",
          "user_id",
          "pctr"
      ) AS sm_by_score
    ) AS sm_cumulative
    GROUP BY
      "country",
      "user_id"
  ) AS sm_parts
) AS sm_groups
GROUP BY
  "country"
