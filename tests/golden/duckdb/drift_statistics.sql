WITH sm_windows AS (
  SELECT
    0 AS sm_window,
    "country",
    "age",
    "basket_value",
    "sessions",
    "sample_weight"
  FROM analytics.features_last_month
  UNION ALL
  SELECT
    1 AS sm_window,
    "country",
    "age",
    "basket_value",
    "sessions",
    "sample_weight"
  FROM analytics.features_this_week
), sm_columns AS (
  SELECT
    0 AS sm_column
  UNION ALL
  SELECT
    1 AS sm_column
  UNION ALL
  SELECT
    2 AS sm_column
), sm_long AS (
  SELECT
    "country",
    sm_window,
    sm_column,
    CAST("sample_weight" AS DOUBLE) AS sm_w,
    CASE sm_column
      WHEN 0
      THEN CAST("age" AS DOUBLE)
      WHEN 1
      THEN CAST("basket_value" AS DOUBLE)
      WHEN 2
      THEN CAST("sessions" AS DOUBLE)
    END AS sm_value
  FROM sm_windows
  CROSS JOIN sm_columns
), sm_values AS (
  SELECT
    "country",
    "sm_column",
    sm_value,
    CASE WHEN sm_value IS NULL THEN 0 ELSE 1 END AS sm_known,
    SUM(1 - sm_window) AS sm_n_ref,
    SUM(sm_window) AS sm_n_cur,
    SUM(CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END) AS sm_w_ref,
    SUM(CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END) AS sm_w_cur
  FROM sm_long
  GROUP BY
    "country",
    "sm_column",
    "sm_value"
), sm_sorted AS (
  SELECT
    "country",
    "sm_column",
    sm_value,
    sm_known,
    sm_n_ref,
    sm_n_cur,
    sm_w_ref,
    sm_w_cur,
    SUM(sm_n_ref) OVER (
      PARTITION BY "country", "sm_column"
      ORDER BY sm_value ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_ref AS sm_ref_before,
    SUM(sm_n_cur) OVER (
      PARTITION BY "country", "sm_column"
      ORDER BY sm_value ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_cur AS sm_cur_before,
    (
      CAST(SUM(sm_w_ref) OVER (
        PARTITION BY "country", "sm_column"
        ORDER BY sm_value ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE) / NULLIF(CAST(SUM(sm_w_ref) OVER (PARTITION BY "country", "sm_column") AS DOUBLE), 0)
    ) AS sm_f_ref,
    (
      CAST(SUM(sm_w_cur) OVER (
        PARTITION BY "country", "sm_column"
        ORDER BY sm_value ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE) / NULLIF(CAST(SUM(sm_w_cur) OVER (PARTITION BY "country", "sm_column") AS DOUBLE), 0)
    ) AS sm_f_cur,
    LEAD(sm_value) OVER (PARTITION BY "country", "sm_column" ORDER BY sm_value ASC) - sm_value AS sm_gap,
    (
      CAST(SUM(sm_w_ref * sm_value) OVER (PARTITION BY "country", "sm_column") AS DOUBLE) / NULLIF(CAST(SUM(sm_w_ref) OVER (PARTITION BY "country", "sm_column") AS DOUBLE), 0)
    ) AS sm_ref_mean
  FROM sm_values
  WHERE
    NOT sm_value IS NULL
  UNION ALL
  SELECT
    "country",
    "sm_column",
    sm_value,
    sm_known,
    sm_n_ref,
    sm_n_cur,
    sm_w_ref,
    sm_w_cur,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL
  FROM sm_values
  WHERE
    sm_value IS NULL
), sm_ranked AS (
  SELECT
    sm_sorted.*,
    sm_ref_before + sm_cur_before + (
      sm_n_ref + sm_n_cur + 1
    ) / 2.0 AS sm_rank
  FROM sm_sorted
), sm_statistics AS (
  SELECT
    "country",
    "sm_column",
    MAX(CASE WHEN sm_known = 1 THEN ABS(sm_f_ref - sm_f_cur) END) AS ks,
    SUM(CASE WHEN sm_known = 1 THEN COALESCE(sm_gap * ABS(sm_f_ref - sm_f_cur), 0) END) AS wasserstein,
    SQRT(
      2 * SUM(
        CASE
          WHEN sm_known = 1
          THEN COALESCE(sm_gap * (
            sm_f_ref - sm_f_cur
          ) * (
            sm_f_ref - sm_f_cur
          ), 0)
        END
      )
    ) AS energy,
    SUM(CASE WHEN sm_known = 1 THEN sm_n_ref * sm_rank END) AS sm_rank_sum,
    SUM(
      CASE
        WHEN sm_known = 1
        THEN CAST(sm_n_ref + sm_n_cur AS DOUBLE) * (
          sm_n_ref + sm_n_cur
        ) * (
          sm_n_ref + sm_n_cur
        ) - (
          sm_n_ref + sm_n_cur
        )
      END
    ) AS sm_ties,
    SUM(CASE WHEN sm_known = 1 THEN sm_n_ref END) * SUM(
      CASE
        WHEN sm_known = 1
        THEN sm_n_ref * (
          sm_rank - sm_ref_before - (
            sm_n_ref + 1
          ) / 2.0
        ) * (
          sm_rank - sm_ref_before - (
            sm_n_ref + 1
          ) / 2.0
        ) + sm_n_ref * (
          CAST(sm_n_ref AS DOUBLE) * sm_n_ref - 1
        ) / 12.0
      END
    ) + SUM(CASE WHEN sm_known = 1 THEN sm_n_cur END) * SUM(
      CASE
        WHEN sm_known = 1
        THEN sm_n_cur * (
          sm_rank - sm_cur_before - (
            sm_n_cur + 1
          ) / 2.0
        ) * (
          sm_rank - sm_cur_before - (
            sm_n_cur + 1
          ) / 2.0
        ) + sm_n_cur * (
          CAST(sm_n_cur AS DOUBLE) * sm_n_cur - 1
        ) / 12.0
      END
    ) AS sm_cvm_u,
    SQRT(
      (
        CAST(SUM(
          CASE
            WHEN sm_known = 1
            THEN sm_w_ref * (
              sm_value - sm_ref_mean
            ) * (
              sm_value - sm_ref_mean
            )
          END
        ) AS DOUBLE) / NULLIF(CAST(SUM(CASE WHEN sm_known = 1 THEN sm_w_ref END) AS DOUBLE), 0)
      )
    ) AS reference_std,
    SUM(CASE WHEN sm_known = 1 THEN sm_n_ref END) AS n_reference,
    SUM(CASE WHEN sm_known = 1 THEN sm_n_cur END) AS n_current,
    SUM(CASE WHEN sm_known = 0 THEN sm_n_ref ELSE 0 END) AS n_missing_reference,
    SUM(CASE WHEN sm_known = 0 THEN sm_n_cur ELSE 0 END) AS n_missing_current
  FROM sm_ranked
  GROUP BY
    "country",
    "sm_column"
)
SELECT
  "country",
  sm_column + 1 AS column_index,
  ks,
  wasserstein,
  energy,
  reference_std,
  CAST(NULL AS DOUBLE) AS mannwhitney_u,
  CAST(NULL AS DOUBLE) AS tie_term,
  CAST(NULL AS DOUBLE) AS cramervonmises,
  CAST(n_reference AS BIGINT) AS n_reference,
  CAST(n_current AS BIGINT) AS n_current,
  CAST(n_missing_reference AS BIGINT) AS n_missing_reference,
  CAST(n_missing_current AS BIGINT) AS n_missing_current
FROM sm_statistics
ORDER BY
  "country" ASC,
  column_index ASC
