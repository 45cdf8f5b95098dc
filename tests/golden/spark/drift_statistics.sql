WITH sm_windows AS (
  SELECT
    0 AS sm_window,
    `country`,
    `age`,
    `basket_value`,
    `sessions`,
    `sample_weight`
  FROM analytics.features_last_month
  UNION ALL
  SELECT
    1 AS sm_window,
    `country`,
    `age`,
    `basket_value`,
    `sessions`,
    `sample_weight`
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
    `country`,
    sm_window,
    sm_column,
    CAST(`sample_weight` AS DOUBLE) AS sm_w,
    CASE sm_column
      WHEN 0
      THEN CAST(`age` AS DOUBLE)
      WHEN 1
      THEN CAST(`basket_value` AS DOUBLE)
      WHEN 2
      THEN CAST(`sessions` AS DOUBLE)
    END AS sm_value
  FROM sm_windows
  CROSS JOIN sm_columns
), sm_values AS (
  SELECT
    `country`,
    `sm_column`,
    sm_value,
    CASE WHEN sm_value IS NULL THEN 0 ELSE 1 END AS sm_known,
    SUM(1 - sm_window) AS sm_n_ref,
    SUM(sm_window) AS sm_n_cur,
    SUM(CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END) AS sm_w_ref,
    SUM(CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END) AS sm_w_cur
  FROM sm_long
  GROUP BY
    `country`,
    `sm_column`,
    `sm_value`
), sm_exponents AS (
  SELECT
    sm_values.*,
    CAST(CASE
      WHEN NOT (
        ABS(sm_value) >= 2.2250738585072014e-308
        AND ABS(sm_value) < CAST('inf' AS DOUBLE)
      )
      THEN NULL
      WHEN ABS(sm_value) >= 8.98846567431158e307
      THEN 1023
      ELSE FLOOR((
        LN(ABS(sm_value)) / LN(2)
      ))
    END AS DOUBLE) AS sm_e
  FROM sm_values
  WHERE
    NOT sm_value IS NULL
), sm_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_value = 0
      THEN 0
      WHEN NOT (
        ABS(sm_value) < CAST('inf' AS DOUBLE)
      )
      THEN CASE WHEN sm_value > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_value > 0 THEN 1 ELSE -1 END
      WHEN sm_value > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_value) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_value) / POWER(2, sm_e) - 1
        ) * 1024)
      )
    END AS BIGINT) AS sm_bucket
  FROM sm_exponents
), sm_buckets AS (
  SELECT
    `country`,
    `sm_column`,
    sm_bucket,
    SUM(sm_n_ref) AS sm_n_ref_in,
    SUM(sm_n_cur) AS sm_n_cur_in,
    SUM(sm_w_ref) AS sm_w_ref_in,
    SUM(sm_w_cur) AS sm_w_cur_in,
    SUM(sm_w_ref * sm_value) AS sm_sum_ref,
    MIN(sm_value) AS sm_lowest
  FROM sm_bucketed
  GROUP BY
    `country`,
    `sm_column`,
    `sm_bucket`
), sm_offsets AS (
  SELECT
    `country`,
    `sm_column`,
    sm_bucket,
    SUM(sm_n_ref_in) OVER (
      PARTITION BY `country`, `sm_column`
      ORDER BY sm_bucket NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_ref_in AS sm_n_ref_below,
    SUM(sm_n_cur_in) OVER (
      PARTITION BY `country`, `sm_column`
      ORDER BY sm_bucket NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_cur_in AS sm_n_cur_below,
    SUM(sm_w_ref_in) OVER (
      PARTITION BY `country`, `sm_column`
      ORDER BY sm_bucket NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_w_ref_in AS sm_w_ref_below,
    SUM(sm_w_cur_in) OVER (
      PARTITION BY `country`, `sm_column`
      ORDER BY sm_bucket NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_w_cur_in AS sm_w_cur_below,
    SUM(sm_w_ref_in) OVER (PARTITION BY `country`, `sm_column`) AS sm_total_ref,
    SUM(sm_w_cur_in) OVER (PARTITION BY `country`, `sm_column`) AS sm_total_cur,
    (
      CAST(SUM(sm_sum_ref) OVER (PARTITION BY `country`, `sm_column`) AS DOUBLE) / NULLIF(CAST(SUM(sm_w_ref_in) OVER (PARTITION BY `country`, `sm_column`) AS DOUBLE), 0)
    ) AS sm_ref_mean,
    LEAD(sm_lowest) OVER (PARTITION BY `country`, `sm_column` ORDER BY sm_bucket NULLS LAST) AS sm_next_lowest
  FROM sm_buckets
), sm_joined AS (
  SELECT
    v.*,
    o.sm_n_ref_below,
    o.sm_n_cur_below,
    o.sm_w_ref_below,
    o.sm_w_cur_below,
    o.sm_total_ref,
    o.sm_total_cur,
    o.sm_ref_mean,
    o.sm_next_lowest
  FROM sm_bucketed AS v
  JOIN sm_offsets AS o
    ON (
      v.`country` IS NOT DISTINCT FROM o.`country`
    )
    AND v.sm_column = o.sm_column
    AND v.sm_bucket = o.sm_bucket
), sm_sorted AS (
  SELECT
    `country`,
    `sm_column`,
    sm_value,
    sm_known,
    sm_n_ref,
    sm_n_cur,
    sm_w_ref,
    sm_w_cur,
    sm_n_ref_below + SUM(sm_n_ref) OVER (
      PARTITION BY `country`, `sm_column`, `sm_bucket`
      ORDER BY sm_value NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_ref AS sm_ref_before,
    sm_n_cur_below + SUM(sm_n_cur) OVER (
      PARTITION BY `country`, `sm_column`, `sm_bucket`
      ORDER BY sm_value NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_cur AS sm_cur_before,
    (
      CAST(sm_w_ref_below + SUM(sm_w_ref) OVER (
        PARTITION BY `country`, `sm_column`, `sm_bucket`
        ORDER BY sm_value NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE) / NULLIF(CAST(sm_total_ref AS DOUBLE), 0)
    ) AS sm_f_ref,
    (
      CAST(sm_w_cur_below + SUM(sm_w_cur) OVER (
        PARTITION BY `country`, `sm_column`, `sm_bucket`
        ORDER BY sm_value NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE) / NULLIF(CAST(sm_total_cur AS DOUBLE), 0)
    ) AS sm_f_cur,
    COALESCE(
      LEAD(sm_value) OVER (PARTITION BY `country`, `sm_column`, `sm_bucket` ORDER BY sm_value NULLS LAST),
      sm_next_lowest
    ) - sm_value AS sm_gap,
    sm_ref_mean
  FROM sm_joined
  UNION ALL
  SELECT
    `country`,
    `sm_column`,
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
    `country`,
    `sm_column`,
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
    `country`,
    `sm_column`
)
SELECT
  `country`,
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
  `country` NULLS LAST,
  column_index NULLS LAST
