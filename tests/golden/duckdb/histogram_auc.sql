SELECT
  "country",
  (
    CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
  ) AS histogram_auc,
  sm_n AS n,
  sm_n_pos AS n_pos,
  sm_n - sm_n_pos AS n_neg,
  0.5 * (
    CAST(sm_ties AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
  ) AS error_bound
FROM (
  SELECT
    "country",
    CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS sm_n,
    CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
    SUM(sm_w_pos) AS sm_w_pos,
    SUM(sm_w_neg) AS sm_w_neg,
    SUM(
      sm_cumulative.sm_w_pos * (
        (
          COALESCE(sm_cumulative.sm_w_neg_below, 0) + 0.5 * sm_cumulative.sm_w_neg
        ) / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      )
    ) AS sm_wins,
    SUM(
      sm_cumulative.sm_w_pos * (
        sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      )
    ) AS sm_ties
  FROM (
    SELECT
      sm_by_score.*,
      SUM(sm_w_neg) OVER (
        PARTITION BY "country"
        ORDER BY sm_s ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_w_neg_below,
      SUM(sm_w_neg) OVER (PARTITION BY "country") AS sm_w_neg_all
    FROM (
      SELECT
        "country",
        "bucket" AS sm_s,
        SUM("n") AS sm_n,
        SUM("n_pos") AS sm_n_pos,
        SUM(CAST("w_pos" AS DOUBLE)) AS sm_w_pos,
        SUM(CAST("w_neg" AS DOUBLE)) AS sm_w_neg
      FROM analytics.run
      GROUP BY
        "country",
        "bucket"
    ) AS sm_by_score
  ) AS sm_cumulative
  GROUP BY
    "country"
) AS sm_parts
