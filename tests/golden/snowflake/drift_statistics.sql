WITH sm_windows AS (
  SELECT
    0 AS sm_window,
    "COUNTRY",
    "AGE",
    "BASKET_VALUE",
    "SESSIONS",
    "DEVICE",
    "SAMPLE_WEIGHT"
  FROM analytics.features_last_month
  UNION ALL
  SELECT
    1 AS sm_window,
    "COUNTRY",
    "AGE",
    "BASKET_VALUE",
    "SESSIONS",
    "DEVICE",
    "SAMPLE_WEIGHT"
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
  UNION ALL
  SELECT
    3 AS sm_column
), sm_long AS (
  SELECT
    "COUNTRY",
    sm_window,
    sm_column,
    CAST("SAMPLE_WEIGHT" AS DOUBLE) AS sm_w,
    CASE sm_column
      WHEN 0
      THEN CAST("AGE" AS DOUBLE)
      WHEN 1
      THEN CAST("BASKET_VALUE" AS DOUBLE)
      WHEN 2
      THEN CAST("SESSIONS" AS DOUBLE)
    END AS sm_value,
    CASE sm_column WHEN 3 THEN CAST("DEVICE" AS VARCHAR) END AS sm_category
  FROM sm_windows
  CROSS JOIN sm_columns
), sm_values AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    sm_value,
    sm_category,
    CASE WHEN NOT sm_value IS NULL THEN 1 WHEN NOT sm_category IS NULL THEN 2 ELSE 0 END AS sm_known,
    SUM(1 - sm_window) AS sm_n_ref,
    SUM(sm_window) AS sm_n_cur,
    SUM(CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END) AS sm_w_ref,
    SUM(CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END) AS sm_w_cur
  FROM sm_long
  GROUP BY
    "COUNTRY",
    "SM_COLUMN",
    "SM_VALUE",
    "SM_CATEGORY"
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
    "COUNTRY",
    "SM_COLUMN",
    sm_bucket,
    SUM(sm_n_ref) AS sm_n_ref_in,
    SUM(sm_n_cur) AS sm_n_cur_in,
    SUM(sm_w_ref) AS sm_w_ref_in,
    SUM(sm_w_cur) AS sm_w_cur_in,
    SUM(sm_w_ref * sm_value) AS sm_sum_ref,
    MIN(sm_value) AS sm_lowest,
    MIN(CASE WHEN sm_n_ref > 0 THEN sm_value END) AS sm_ref_lo_in,
    MAX(CASE WHEN sm_n_ref > 0 THEN sm_value END) AS sm_ref_hi_in
  FROM sm_bucketed
  GROUP BY
    "COUNTRY",
    "SM_COLUMN",
    "SM_BUCKET"
), sm_offsets AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    sm_bucket,
    SUM(sm_n_ref_in) OVER (
      PARTITION BY "COUNTRY", "SM_COLUMN"
      ORDER BY sm_bucket
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_ref_in AS sm_n_ref_below,
    SUM(sm_n_cur_in) OVER (
      PARTITION BY "COUNTRY", "SM_COLUMN"
      ORDER BY sm_bucket
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_cur_in AS sm_n_cur_below,
    SUM(sm_w_ref_in) OVER (
      PARTITION BY "COUNTRY", "SM_COLUMN"
      ORDER BY sm_bucket
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_w_ref_in AS sm_w_ref_below,
    SUM(sm_w_cur_in) OVER (
      PARTITION BY "COUNTRY", "SM_COLUMN"
      ORDER BY sm_bucket
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_w_cur_in AS sm_w_cur_below,
    SUM(sm_w_ref_in) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_total_ref,
    SUM(sm_w_cur_in) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_total_cur,
    (
      CAST(SUM(sm_sum_ref) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS DOUBLE) / NULLIF(CAST(SUM(sm_w_ref_in) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS DOUBLE), 0)
    ) AS sm_ref_mean,
    LEAD(sm_lowest) OVER (PARTITION BY "COUNTRY", "SM_COLUMN" ORDER BY sm_bucket) AS sm_next_lowest,
    MIN(sm_ref_lo_in) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_ref_lo,
    MAX(sm_ref_hi_in) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_ref_hi
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
    o.sm_next_lowest,
    o.sm_ref_lo,
    o.sm_ref_hi
  FROM sm_bucketed AS v
  JOIN sm_offsets AS o
    ON (
      v."COUNTRY" IS NOT DISTINCT FROM o."COUNTRY"
    )
    AND v.sm_column = o.sm_column
    AND v.sm_bucket = o.sm_bucket
), sm_sorted AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    sm_value,
    sm_category,
    sm_known,
    sm_n_ref,
    sm_n_cur,
    sm_w_ref,
    sm_w_cur,
    sm_n_ref_below + SUM(sm_n_ref) OVER (
      PARTITION BY "COUNTRY", "SM_COLUMN", "SM_BUCKET"
      ORDER BY sm_value
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_ref AS sm_ref_before,
    sm_n_cur_below + SUM(sm_n_cur) OVER (
      PARTITION BY "COUNTRY", "SM_COLUMN", "SM_BUCKET"
      ORDER BY sm_value
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_cur AS sm_cur_before,
    (
      CAST(sm_w_ref_below + SUM(sm_w_ref) OVER (
        PARTITION BY "COUNTRY", "SM_COLUMN", "SM_BUCKET"
        ORDER BY sm_value
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE) / NULLIF(CAST(sm_total_ref AS DOUBLE), 0)
    ) AS sm_f_ref,
    (
      CAST(sm_w_cur_below + SUM(sm_w_cur) OVER (
        PARTITION BY "COUNTRY", "SM_COLUMN", "SM_BUCKET"
        ORDER BY sm_value
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE) / NULLIF(CAST(sm_total_cur AS DOUBLE), 0)
    ) AS sm_f_cur,
    COALESCE(
      LEAD(sm_value) OVER (PARTITION BY "COUNTRY", "SM_COLUMN", "SM_BUCKET" ORDER BY sm_value),
      sm_next_lowest
    ) - sm_value AS sm_gap,
    sm_ref_mean,
    sm_w_ref_below + SUM(sm_w_ref) OVER (
      PARTITION BY "COUNTRY", "SM_COLUMN", "SM_BUCKET"
      ORDER BY sm_value
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_ref_upto,
    sm_total_ref AS sm_ref_total,
    sm_ref_lo,
    sm_ref_hi
  FROM sm_joined
  UNION ALL
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    sm_value,
    sm_category,
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
    NULL,
    NULL,
    NULL,
    NULL,
    NULL
  FROM sm_values
  WHERE
    sm_value IS NULL
), sm_placed AS (
  SELECT
    sm_sorted.*,
    CASE
      WHEN sm_known = 1
      THEN FLOOR((
        CAST(10 * sm_ref_upto AS DOUBLE) / NULLIF(CAST(sm_ref_total AS DOUBLE), 0)
      ))
    END AS sm_floor,
    sm_ref_before + sm_cur_before + (
      sm_n_ref + sm_n_cur + 1
    ) / 2.0 AS sm_rank,
    sm_n_ref + sm_n_cur AS sm_tied
  FROM sm_sorted
), sm_parts AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    sm_known,
    sm_bin,
    sm_category,
    MIN(sm_value) AS sm_low,
    MAX(sm_value) AS sm_high,
    SUM(sm_n_ref) AS sm_n_ref_in,
    SUM(sm_n_cur) AS sm_n_cur_in,
    SUM(sm_w_ref) AS sm_w_ref_in,
    SUM(sm_w_cur) AS sm_w_cur_in,
    MAX(ABS(sm_f_ref - sm_f_cur)) AS sm_ks,
    SUM(COALESCE(sm_gap * ABS(sm_f_ref - sm_f_cur), 0)) AS sm_wasserstein,
    SUM(COALESCE(sm_gap * (
      sm_f_ref - sm_f_cur
    ) * (
      sm_f_ref - sm_f_cur
    ), 0)) AS sm_energy,
    SUM(sm_n_ref * sm_rank) AS sm_rank_sum_in,
    SUM(
      CAST(sm_n_ref + sm_n_cur AS DOUBLE) * (
        CAST(sm_tied AS DOUBLE) * sm_tied - 1
      )
    ) AS sm_ties_in,
    SUM(
      sm_n_ref * (
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
    ) AS sm_cvm_ref,
    SUM(
      sm_n_cur * (
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
    ) AS sm_cvm_cur,
    SUM(sm_w_ref * (
      sm_value - sm_ref_mean
    ) * (
      sm_value - sm_ref_mean
    )) AS sm_squares
  FROM (
    SELECT
      sm_placed.*,
      CASE WHEN sm_floor >= 9 THEN 9 ELSE sm_floor END AS sm_bin
    FROM sm_placed
  ) AS sm_capped
  GROUP BY
    "COUNTRY",
    "SM_COLUMN",
    "SM_KNOWN",
    "SM_BIN",
    "SM_CATEGORY"
), sm_bins AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    sm_bin,
    sm_category,
    sm_low,
    sm_high,
    sm_n_ref_in AS sm_n_ref,
    sm_n_cur_in AS sm_n_cur,
    sm_w_ref_in AS sm_w_ref,
    sm_w_cur_in AS sm_w_cur
  FROM sm_parts
  WHERE
    sm_known > 0
), sm_statistics AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    MAX(CASE WHEN sm_known = 1 THEN sm_ks END) AS ks,
    SUM(CASE WHEN sm_known = 1 THEN sm_wasserstein END) AS wasserstein,
    SQRT(2 * SUM(CASE WHEN sm_known = 1 THEN sm_energy END)) AS energy,
    SUM(CASE WHEN sm_known = 1 THEN sm_rank_sum_in END) AS sm_rank_sum,
    SUM(CASE WHEN sm_known = 1 THEN sm_ties_in END) AS sm_ties,
    SUM(CASE WHEN sm_known = 1 THEN sm_n_ref_in END) * SUM(CASE WHEN sm_known = 1 THEN sm_cvm_ref END) + SUM(CASE WHEN sm_known = 1 THEN sm_n_cur_in END) * SUM(CASE WHEN sm_known = 1 THEN sm_cvm_cur END) AS sm_cvm_u,
    SQRT(
      (
        CAST(SUM(CASE WHEN sm_known = 1 THEN sm_squares END) AS DOUBLE) / NULLIF(CAST(SUM(CASE WHEN sm_known = 1 THEN sm_w_ref_in END) AS DOUBLE), 0)
      )
    ) AS reference_std,
    SUM(CASE WHEN sm_known > 0 THEN sm_n_ref_in ELSE 0 END) AS n_reference,
    SUM(CASE WHEN sm_known > 0 THEN sm_n_cur_in ELSE 0 END) AS n_current,
    SUM(CASE WHEN sm_known = 0 THEN sm_n_ref_in ELSE 0 END) AS n_missing_reference,
    SUM(CASE WHEN sm_known = 0 THEN sm_n_cur_in ELSE 0 END) AS n_missing_current
  FROM sm_parts
  GROUP BY
    "COUNTRY",
    "SM_COLUMN"
), sm_shares AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    sm_n_ref,
    sm_n_cur,
    (
      CAST(sm_w_ref AS DOUBLE) / NULLIF(CAST(SUM(sm_w_ref) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS DOUBLE), 0)
    ) AS sm_p,
    (
      CAST(sm_w_cur AS DOUBLE) / NULLIF(CAST(SUM(sm_w_cur) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS DOUBLE), 0)
    ) AS sm_q,
    (
      CAST(sm_n_ref + sm_n_cur AS DOUBLE) / NULLIF(
        CAST(SUM(sm_n_ref + sm_n_cur) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS DOUBLE),
        0
      )
    ) AS sm_pooled,
    SUM(sm_n_ref) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_bins_ref,
    SUM(sm_n_cur) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_bins_cur
  FROM sm_bins
), sm_smallest AS (
  SELECT
    sm_shares.*,
    MIN(CASE WHEN sm_p > 0 THEN sm_p END) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_p_min,
    MIN(CASE WHEN sm_q > 0 THEN sm_q END) OVER (PARTITION BY "COUNTRY", "SM_COLUMN") AS sm_q_min
  FROM sm_shares
), sm_filled AS (
  SELECT
    sm_smallest.*,
    CASE
      WHEN sm_p > 0
      THEN sm_p
      WHEN sm_p_min <= 0.0001
      THEN sm_p_min / 1000000
      ELSE 0.0001
    END AS sm_pf,
    CASE
      WHEN sm_q > 0
      THEN sm_q
      WHEN sm_q_min <= 0.0001
      THEN sm_q_min / 1000000
      ELSE 0.0001
    END AS sm_qf,
    (
      CAST(sm_n_ref * sm_bins_cur AS DOUBLE) / NULLIF(CAST(sm_bins_ref AS DOUBLE), 0)
    ) AS sm_expected
  FROM sm_smallest
), sm_binned_statistics AS (
  SELECT
    "COUNTRY",
    "SM_COLUMN",
    SUM(
      (
        sm_pf - sm_qf
      ) * LN((
        CAST(sm_pf AS DOUBLE) / NULLIF(CAST(sm_qf AS DOUBLE), 0)
      ))
    ) AS psi,
    (
      CAST(SUM(sm_pf * LN((
        CAST(sm_pf AS DOUBLE) / NULLIF(CAST(sm_qf AS DOUBLE), 0)
      ))) AS DOUBLE) / NULLIF(CAST(SUM(sm_pf) AS DOUBLE), 0)
    ) + LN((
      CAST(SUM(sm_qf) AS DOUBLE) / NULLIF(CAST(SUM(sm_pf) AS DOUBLE), 0)
    )) AS kl_divergence,
    SUM(
      CASE
        WHEN sm_p > 0
        THEN sm_p * LN((
          CAST(2 * sm_p AS DOUBLE) / NULLIF(CAST(sm_p + sm_q AS DOUBLE), 0)
        ))
        ELSE 0
      END
    ) + SUM(
      CASE
        WHEN sm_q > 0
        THEN sm_q * LN((
          CAST(2 * sm_q AS DOUBLE) / NULLIF(CAST(sm_p + sm_q AS DOUBLE), 0)
        ))
        ELSE 0
      END
    ) AS sm_js,
    SUM(SQRT(sm_p * sm_q)) AS sm_affinity,
    SUM(ABS(sm_p - sm_q)) / 2 AS total_variation,
    SUM(
      CASE
        WHEN sm_n_ref > 0
        THEN (
          CAST((
            sm_n_cur - sm_expected
          ) * (
            sm_n_cur - sm_expected
          ) AS DOUBLE) / NULLIF(CAST(sm_expected AS DOUBLE), 0)
        )
        ELSE 0
      END
    ) AS sm_chisquare,
    2 * SUM(
      CASE
        WHEN sm_n_ref > 0 AND sm_n_cur > 0
        THEN sm_n_cur * LN((
          CAST(sm_n_cur AS DOUBLE) / NULLIF(CAST(sm_expected AS DOUBLE), 0)
        ))
        ELSE 0
      END
    ) AS sm_g,
    SUM(sm_pooled * (
      1 - sm_pooled
    )) AS sm_spread,
    MAX(sm_bins_ref) AS sm_bins_ref,
    MAX(sm_bins_cur) AS sm_bins_cur,
    COUNT(*) AS n_bins,
    SUM(CASE WHEN sm_n_ref = 0 THEN sm_n_cur ELSE 0 END) AS n_new
  FROM sm_filled
  GROUP BY
    "COUNTRY",
    "SM_COLUMN"
), sm_all AS (
  SELECT
    s.*,
    b.psi,
    b.kl_divergence,
    b.sm_js,
    b.sm_affinity,
    b.total_variation,
    b.sm_chisquare,
    b.sm_g,
    b.sm_spread,
    b.sm_bins_ref,
    b.sm_bins_cur,
    b.n_bins,
    b.n_new
  FROM sm_statistics AS s
  LEFT JOIN sm_binned_statistics AS b
    ON (
      s."COUNTRY" IS NOT DISTINCT FROM b."COUNTRY"
    ) AND s.sm_column = b.sm_column
)
SELECT
  "COUNTRY",
  sm_column + 1 AS column_index,
  ks,
  wasserstein,
  energy,
  reference_std,
  CAST(NULL AS DOUBLE) AS mannwhitney_u,
  CAST(NULL AS DOUBLE) AS tie_term,
  CAST(NULL AS DOUBLE) AS cramervonmises,
  psi,
  kl_divergence,
  CASE WHEN sm_js > 0 THEN SQRT(sm_js / 2) ELSE 0 END AS jensenshannon,
  CASE WHEN sm_affinity < 1 THEN SQRT(1 - sm_affinity) ELSE 0 END AS hellinger,
  total_variation,
  CAST(NULL AS DOUBLE) AS chisquare,
  CAST(NULL AS DOUBLE) AS g_test,
  CAST(NULL AS DOUBLE) AS two_proportion_z,
  CAST(n_bins AS BIGINT) AS n_bins,
  CAST(n_new AS BIGINT) AS n_new,
  CAST(n_reference AS BIGINT) AS n_reference,
  CAST(n_current AS BIGINT) AS n_current,
  CAST(n_missing_reference AS BIGINT) AS n_missing_reference,
  CAST(n_missing_current AS BIGINT) AS n_missing_current
FROM sm_all
ORDER BY
  "COUNTRY",
  column_index
