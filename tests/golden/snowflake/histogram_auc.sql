SELECT
  "COUNTRY",
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
    "COUNTRY",
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
        PARTITION BY "COUNTRY"
        ORDER BY sm_s
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_w_neg_below,
      SUM(sm_w_neg) OVER (PARTITION BY "COUNTRY") AS sm_w_neg_all
    FROM (
      SELECT
        "COUNTRY",
        "BUCKET" AS sm_s,
        SUM("N") AS sm_n,
        SUM("N_POS") AS sm_n_pos,
        SUM(CAST("W_POS" AS DOUBLE)) AS sm_w_pos,
        SUM(CAST("W_NEG" AS DOUBLE)) AS sm_w_neg
      FROM analytics.run
      GROUP BY
        "COUNTRY",
        "BUCKET"
    ) AS sm_by_score
  ) AS sm_cumulative
  GROUP BY
    "COUNTRY"
) AS sm_parts
