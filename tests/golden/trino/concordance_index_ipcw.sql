WITH sm_cells AS (
  SELECT
    "country",
    sm_t,
    sm_e,
    sm_risk,
    COUNT(*) AS sm_n
  FROM (
    SELECT
      "country",
      CAST("revenue" AS DOUBLE) AS sm_t,
      CASE
        WHEN "clicked" = 1
        THEN 1
        WHEN "clicked" = 0
        THEN 0
        ELSE CAST(CASE
          WHEN COALESCE(NOT (
            "clicked" = 1 OR "clicked" = 0
          ), TRUE)
          THEN CONCAT(
            CAST('sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' AS VARCHAR),
            CAST(COALESCE(CAST("clicked" AS VARCHAR), 'NULL') AS VARCHAR)
          )
          ELSE '0'
        END AS BIGINT)
      END AS sm_e,
      CAST("pctr" AS DOUBLE) AS sm_risk
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "country",
    "sm_t",
    "sm_e",
    "sm_risk"
), sm_train_rows AS (
  SELECT
    "country",
    CAST("revenue" AS DOUBLE) AS sm_t,
    CASE
      WHEN "clicked" = 1
      THEN 1
      WHEN "clicked" = 0
      THEN 0
      ELSE CAST(CASE
        WHEN COALESCE(NOT (
          "clicked" = 1 OR "clicked" = 0
        ), TRUE)
        THEN CONCAT(
          CAST('sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' AS VARCHAR),
          CAST(COALESCE(CAST("clicked" AS VARCHAR), 'NULL') AS VARCHAR)
        )
        ELSE '0'
      END AS BIGINT)
    END AS sm_e
  FROM analytics.preds
), sm_censoring_counts AS (
  SELECT
    "country",
    sm_t,
    COUNT(*) AS sm_n,
    SUM(sm_e) AS sm_died
  FROM sm_train_rows
  GROUP BY
    "country",
    "sm_t"
), sm_censoring_order_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < INFINITY()
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
    END AS BIGINT) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(sm_t AS DOUBLE) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(sm_t AS DOUBLE)) >= 2.2250738585072014e-308
          AND ABS(CAST(sm_t AS DOUBLE)) < INFINITY()
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          CAST(LN(ABS(CAST(sm_t AS DOUBLE))) AS DOUBLE) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_censoring_counts
    ) AS sm_valued
  ) AS sm_exponents
), sm_censoring_order_offsets AS (
  SELECT
    "country",
    "sm_bucket",
    SUM(sm_bucket_sm_n) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_n,
    SUM(sm_bucket_sm_n) OVER (PARTITION BY "country") AS sm_total_sm_n
  FROM (
    SELECT
      "country",
      "sm_bucket",
      SUM(sm_n) AS sm_bucket_sm_n
    FROM sm_censoring_order_bucketed
    GROUP BY
      "country",
      "sm_bucket"
  ) AS sm_per_bucket
), sm_censoring_order AS (
  SELECT
    "country",
    "sm_bucket",
    sm_t,
    sm_died,
    sm_n,
    sm_n_run,
    sm_n_all
  FROM (
    SELECT
      "country",
      "sm_bucket",
      sm_kind,
      sm_t,
      sm_died,
      sm_n,
      SUM(sm_add_sm_n) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, sm_t ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_n_run,
      MAX(sm_slice_sm_n) OVER (PARTITION BY "country", "sm_bucket") AS sm_n_all
    FROM (
      SELECT
        "country",
        "sm_bucket",
        0 AS sm_kind,
        sm_t,
        sm_died,
        sm_n,
        sm_n AS sm_add_sm_n,
        NULL AS sm_slice_sm_n
      FROM sm_censoring_order_bucketed
      UNION ALL
      SELECT
        "country",
        "sm_bucket",
        1 AS sm_kind,
        NULL AS sm_t,
        NULL AS sm_died,
        NULL AS sm_n,
        sm_before_sm_n AS sm_add_sm_n,
        sm_total_sm_n AS sm_slice_sm_n
      FROM sm_censoring_order_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_censoring AS (
  SELECT
    "country",
    sm_t,
    CASE
      WHEN sm_ended = 0 OR sm_ended = sm_at_risk
      THEN 0
      ELSE CASE
        WHEN 1 + -(
          CAST(sm_ended AS DOUBLE) / NULLIF(CAST(sm_at_risk AS DOUBLE), 0)
        ) = 1
        THEN -(
          CAST(sm_ended AS DOUBLE) / NULLIF(CAST(sm_at_risk AS DOUBLE), 0)
        )
        ELSE LN(1 + -(
          CAST(sm_ended AS DOUBLE) / NULLIF(CAST(sm_at_risk AS DOUBLE), 0)
        )) * (
          CAST(-(
            CAST(sm_ended AS DOUBLE) / NULLIF(CAST(sm_at_risk AS DOUBLE), 0)
          ) AS DOUBLE) / NULLIF(
            CAST((
              1 + -(
                CAST(sm_ended AS DOUBLE) / NULLIF(CAST(sm_at_risk AS DOUBLE), 0)
              )
            ) - 1 AS DOUBLE),
            0
          )
        )
      END
    END AS sm_log,
    CASE WHEN sm_ended > 0 AND sm_ended = sm_at_risk THEN 1 ELSE 0 END AS sm_zero
  FROM (
    SELECT
      "country",
      sm_t,
      sm_n - sm_died AS sm_ended,
      sm_n_all - (
        sm_n_run - sm_n
      ) - sm_died AS sm_at_risk
    FROM sm_censoring_order
  ) AS sm_counted
), sm_censored_by_times AS (
  SELECT
    "country",
    sm_t,
    SUM(sm_log) AS sm_log,
    SUM(sm_zero) AS sm_zero,
    SUM(sm_step) AS sm_step
  FROM (
    SELECT
      "country",
      sm_t,
      sm_log,
      sm_zero,
      1 AS sm_step
    FROM sm_censoring
    UNION ALL
    SELECT
      "country",
      sm_t,
      0 AS sm_log,
      0 AS sm_zero,
      0 AS sm_step
    FROM (
      SELECT
        "country",
        sm_t
      FROM sm_cells
      WHERE
        sm_cells.sm_e = 1
    ) AS sm_points
  ) AS sm_steps_and_points
  GROUP BY
    "country",
    "sm_t"
), sm_censored_by_running_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < INFINITY()
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
    END AS BIGINT) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(sm_t AS DOUBLE) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(sm_t AS DOUBLE)) >= 2.2250738585072014e-308
          AND ABS(CAST(sm_t AS DOUBLE)) < INFINITY()
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          CAST(LN(ABS(CAST(sm_t AS DOUBLE))) AS DOUBLE) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_censored_by_times
    ) AS sm_valued
  ) AS sm_exponents
), sm_censored_by_running_offsets AS (
  SELECT
    "country",
    "sm_bucket",
    SUM(sm_bucket_sm_log) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_log,
    SUM(sm_bucket_sm_log) OVER (PARTITION BY "country") AS sm_total_sm_log,
    SUM(sm_bucket_sm_zero) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_zero,
    SUM(sm_bucket_sm_zero) OVER (PARTITION BY "country") AS sm_total_sm_zero,
    SUM(sm_bucket_sm_step) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_step,
    SUM(sm_bucket_sm_step) OVER (PARTITION BY "country") AS sm_total_sm_step
  FROM (
    SELECT
      "country",
      "sm_bucket",
      SUM(sm_log) AS sm_bucket_sm_log,
      SUM(sm_zero) AS sm_bucket_sm_zero,
      SUM(sm_step) AS sm_bucket_sm_step
    FROM sm_censored_by_running_bucketed
    GROUP BY
      "country",
      "sm_bucket"
  ) AS sm_per_bucket
), sm_censored_by_running AS (
  SELECT
    "country",
    "sm_bucket",
    sm_t,
    sm_log,
    sm_log_run,
    sm_log_all,
    sm_zero,
    sm_zero_run,
    sm_zero_all,
    sm_step,
    sm_step_run,
    sm_step_all
  FROM (
    SELECT
      "country",
      "sm_bucket",
      sm_kind,
      sm_t,
      sm_log,
      SUM(sm_add_sm_log) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, sm_t ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_log_run,
      MAX(sm_slice_sm_log) OVER (PARTITION BY "country", "sm_bucket") AS sm_log_all,
      sm_zero,
      SUM(sm_add_sm_zero) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, sm_t ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_zero_run,
      MAX(sm_slice_sm_zero) OVER (PARTITION BY "country", "sm_bucket") AS sm_zero_all,
      sm_step,
      SUM(sm_add_sm_step) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, sm_t ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_step_run,
      MAX(sm_slice_sm_step) OVER (PARTITION BY "country", "sm_bucket") AS sm_step_all
    FROM (
      SELECT
        "country",
        "sm_bucket",
        0 AS sm_kind,
        sm_t,
        sm_log,
        sm_log AS sm_add_sm_log,
        NULL AS sm_slice_sm_log,
        sm_zero,
        sm_zero AS sm_add_sm_zero,
        NULL AS sm_slice_sm_zero,
        sm_step,
        sm_step AS sm_add_sm_step,
        NULL AS sm_slice_sm_step
      FROM sm_censored_by_running_bucketed
      UNION ALL
      SELECT
        "country",
        "sm_bucket",
        1 AS sm_kind,
        NULL AS sm_t,
        NULL AS sm_log,
        sm_before_sm_log AS sm_add_sm_log,
        sm_total_sm_log AS sm_slice_sm_log,
        NULL AS sm_zero,
        sm_before_sm_zero AS sm_add_sm_zero,
        sm_total_sm_zero AS sm_slice_sm_zero,
        NULL AS sm_step,
        sm_before_sm_step AS sm_add_sm_step,
        sm_total_sm_step AS sm_slice_sm_step
      FROM sm_censored_by_running_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_censored_by AS (
  SELECT
    "country",
    sm_t,
    sm_log_run AS sm_log,
    sm_zero_run AS sm_zero,
    CASE WHEN sm_step = 0 AND sm_step_run = sm_step_all THEN 1 ELSE 0 END AS sm_past
  FROM sm_censored_by_running
), sm_weights AS (
  SELECT
    "country",
    sm_t,
    CASE WHEN sm_zero = 0 AND sm_past = 0 THEN EXP(-2 * sm_log) END AS sm_ipcw
  FROM sm_censored_by
), sm_weighted_cells AS (
  SELECT
    sm_c."country" AS "country",
    sm_c.sm_t AS sm_t,
    sm_c.sm_e AS sm_e,
    sm_c.sm_risk AS sm_risk,
    sm_c.sm_n AS sm_n,
    CASE WHEN sm_c.sm_e = 1 THEN sm_weights.sm_ipcw ELSE 0 END AS sm_w
  FROM sm_cells AS sm_c
  LEFT JOIN sm_weights
    ON (
      sm_c."country" IS NOT DISTINCT FROM sm_weights."country"
    )
    AND sm_c.sm_t = sm_weights.sm_t
), sm_unweighable AS (
  SELECT
    "country",
    SUM(CASE WHEN sm_w IS NULL THEN 1 ELSE 0 END) AS sm_missing
  FROM sm_weighted_cells
  GROUP BY
    "country"
), sm_times AS (
  SELECT
    "country",
    sm_t,
    SUM(sm_n) AS sm_at
  FROM sm_weighted_cells
  GROUP BY
    "country",
    "sm_t"
), sm_time_order_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < INFINITY()
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
    END AS BIGINT) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(sm_t AS DOUBLE) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(sm_t AS DOUBLE)) >= 2.2250738585072014e-308
          AND ABS(CAST(sm_t AS DOUBLE)) < INFINITY()
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          CAST(LN(ABS(CAST(sm_t AS DOUBLE))) AS DOUBLE) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_times
    ) AS sm_valued
  ) AS sm_exponents
), sm_time_order_offsets AS (
  SELECT
    "country",
    "sm_bucket",
    SUM(sm_bucket_sm_at) OVER (
      PARTITION BY "country"
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_at,
    SUM(sm_bucket_sm_at) OVER (PARTITION BY "country") AS sm_total_sm_at
  FROM (
    SELECT
      "country",
      "sm_bucket",
      SUM(sm_at) AS sm_bucket_sm_at
    FROM sm_time_order_bucketed
    GROUP BY
      "country",
      "sm_bucket"
  ) AS sm_per_bucket
), sm_time_order AS (
  SELECT
    "country",
    "sm_bucket",
    sm_t,
    sm_at,
    sm_at_run,
    sm_at_all
  FROM (
    SELECT
      "country",
      "sm_bucket",
      sm_kind,
      sm_t,
      sm_at,
      SUM(sm_add_sm_at) OVER (
        PARTITION BY "country", "sm_bucket"
        ORDER BY sm_kind DESC, sm_t ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_at_run,
      MAX(sm_slice_sm_at) OVER (PARTITION BY "country", "sm_bucket") AS sm_at_all
    FROM (
      SELECT
        "country",
        "sm_bucket",
        0 AS sm_kind,
        sm_t,
        sm_at,
        sm_at AS sm_add_sm_at,
        NULL AS sm_slice_sm_at
      FROM sm_time_order_bucketed
      UNION ALL
      SELECT
        "country",
        "sm_bucket",
        1 AS sm_kind,
        NULL AS sm_t,
        NULL AS sm_at,
        sm_before_sm_at AS sm_add_sm_at,
        sm_total_sm_at AS sm_slice_sm_at
      FROM sm_time_order_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_positioned AS (
  SELECT
    sm_c."country" AS "country",
    sm_c.sm_e AS sm_e,
    sm_c.sm_risk AS sm_risk,
    sm_c.sm_n AS sm_n,
    sm_c.sm_w AS sm_w,
    2 * (
      sm_time_order.sm_at_run - sm_time_order.sm_at
    ) + 1 - sm_c.sm_e AS sm_pos,
    2 * sm_time_order.sm_at_all AS sm_last
  FROM sm_weighted_cells AS sm_c
  JOIN sm_time_order
    ON (
      sm_c."country" IS NOT DISTINCT FROM sm_time_order."country"
    )
    AND sm_c.sm_t = sm_time_order.sm_t
), sm_steps AS (
  SELECT
    1 AS sm_step,
    CAST(1.0 AS DOUBLE) AS sm_per_half,
    CAST(0.5 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    2 AS sm_step,
    CAST(0.5 AS DOUBLE) AS sm_per_half,
    CAST(0.25 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    4 AS sm_step,
    CAST(0.25 AS DOUBLE) AS sm_per_half,
    CAST(0.125 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    8 AS sm_step,
    CAST(0.125 AS DOUBLE) AS sm_per_half,
    CAST(0.0625 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    16 AS sm_step,
    CAST(0.0625 AS DOUBLE) AS sm_per_half,
    CAST(0.03125 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    32 AS sm_step,
    CAST(0.03125 AS DOUBLE) AS sm_per_half,
    CAST(0.015625 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    64 AS sm_step,
    CAST(0.015625 AS DOUBLE) AS sm_per_half,
    CAST(0.0078125 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    128 AS sm_step,
    CAST(0.0078125 AS DOUBLE) AS sm_per_half,
    CAST(0.00390625 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    256 AS sm_step,
    CAST(0.00390625 AS DOUBLE) AS sm_per_half,
    CAST(0.001953125 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    512 AS sm_step,
    CAST(0.001953125 AS DOUBLE) AS sm_per_half,
    CAST(0.0009765625 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    1024 AS sm_step,
    CAST(0.0009765625 AS DOUBLE) AS sm_per_half,
    CAST(0.00048828125 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    2048 AS sm_step,
    CAST(0.00048828125 AS DOUBLE) AS sm_per_half,
    CAST(0.000244140625 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    4096 AS sm_step,
    CAST(0.000244140625 AS DOUBLE) AS sm_per_half,
    CAST(0.0001220703125 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    8192 AS sm_step,
    CAST(0.0001220703125 AS DOUBLE) AS sm_per_half,
    CAST(6.103515625e-05 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    16384 AS sm_step,
    CAST(6.103515625e-05 AS DOUBLE) AS sm_per_half,
    CAST(3.0517578125e-05 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    32768 AS sm_step,
    CAST(3.0517578125e-05 AS DOUBLE) AS sm_per_half,
    CAST(1.52587890625e-05 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    65536 AS sm_step,
    CAST(1.52587890625e-05 AS DOUBLE) AS sm_per_half,
    CAST(7.62939453125e-06 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    131072 AS sm_step,
    CAST(7.62939453125e-06 AS DOUBLE) AS sm_per_half,
    CAST(3.814697265625e-06 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    262144 AS sm_step,
    CAST(3.814697265625e-06 AS DOUBLE) AS sm_per_half,
    CAST(1.9073486328125e-06 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    524288 AS sm_step,
    CAST(1.9073486328125e-06 AS DOUBLE) AS sm_per_half,
    CAST(9.5367431640625e-07 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    1048576 AS sm_step,
    CAST(9.5367431640625e-07 AS DOUBLE) AS sm_per_half,
    CAST(4.76837158203125e-07 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    2097152 AS sm_step,
    CAST(4.76837158203125e-07 AS DOUBLE) AS sm_per_half,
    CAST(2.384185791015625e-07 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    4194304 AS sm_step,
    CAST(2.384185791015625e-07 AS DOUBLE) AS sm_per_half,
    CAST(1.1920928955078125e-07 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    8388608 AS sm_step,
    CAST(1.1920928955078125e-07 AS DOUBLE) AS sm_per_half,
    CAST(5.960464477539063e-08 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    16777216 AS sm_step,
    CAST(5.960464477539063e-08 AS DOUBLE) AS sm_per_half,
    CAST(2.9802322387695312e-08 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    33554432 AS sm_step,
    CAST(2.9802322387695312e-08 AS DOUBLE) AS sm_per_half,
    CAST(1.4901161193847656e-08 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    67108864 AS sm_step,
    CAST(1.4901161193847656e-08 AS DOUBLE) AS sm_per_half,
    CAST(7.450580596923828e-09 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    134217728 AS sm_step,
    CAST(7.450580596923828e-09 AS DOUBLE) AS sm_per_half,
    CAST(3.725290298461914e-09 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    268435456 AS sm_step,
    CAST(3.725290298461914e-09 AS DOUBLE) AS sm_per_half,
    CAST(1.862645149230957e-09 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    536870912 AS sm_step,
    CAST(1.862645149230957e-09 AS DOUBLE) AS sm_per_half,
    CAST(9.313225746154785e-10 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    1073741824 AS sm_step,
    CAST(9.313225746154785e-10 AS DOUBLE) AS sm_per_half,
    CAST(4.656612873077393e-10 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    2147483648 AS sm_step,
    CAST(4.656612873077393e-10 AS DOUBLE) AS sm_per_half,
    CAST(2.3283064365386963e-10 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    4294967296 AS sm_step,
    CAST(2.3283064365386963e-10 AS DOUBLE) AS sm_per_half,
    CAST(1.1641532182693481e-10 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    8589934592 AS sm_step,
    CAST(1.1641532182693481e-10 AS DOUBLE) AS sm_per_half,
    CAST(5.820766091346741e-11 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    17179869184 AS sm_step,
    CAST(5.820766091346741e-11 AS DOUBLE) AS sm_per_half,
    CAST(2.9103830456733704e-11 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    34359738368 AS sm_step,
    CAST(2.9103830456733704e-11 AS DOUBLE) AS sm_per_half,
    CAST(1.4551915228366852e-11 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    68719476736 AS sm_step,
    CAST(1.4551915228366852e-11 AS DOUBLE) AS sm_per_half,
    CAST(7.275957614183426e-12 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    137438953472 AS sm_step,
    CAST(7.275957614183426e-12 AS DOUBLE) AS sm_per_half,
    CAST(3.637978807091713e-12 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    274877906944 AS sm_step,
    CAST(3.637978807091713e-12 AS DOUBLE) AS sm_per_half,
    CAST(1.8189894035458565e-12 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    549755813888 AS sm_step,
    CAST(1.8189894035458565e-12 AS DOUBLE) AS sm_per_half,
    CAST(9.094947017729282e-13 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    1099511627776 AS sm_step,
    CAST(9.094947017729282e-13 AS DOUBLE) AS sm_per_half,
    CAST(4.547473508864641e-13 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    2199023255552 AS sm_step,
    CAST(4.547473508864641e-13 AS DOUBLE) AS sm_per_half,
    CAST(2.2737367544323206e-13 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    4398046511104 AS sm_step,
    CAST(2.2737367544323206e-13 AS DOUBLE) AS sm_per_half,
    CAST(1.1368683772161603e-13 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    8796093022208 AS sm_step,
    CAST(1.1368683772161603e-13 AS DOUBLE) AS sm_per_half,
    CAST(5.684341886080802e-14 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    17592186044416 AS sm_step,
    CAST(5.684341886080802e-14 AS DOUBLE) AS sm_per_half,
    CAST(2.842170943040401e-14 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    35184372088832 AS sm_step,
    CAST(2.842170943040401e-14 AS DOUBLE) AS sm_per_half,
    CAST(1.4210854715202004e-14 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    70368744177664 AS sm_step,
    CAST(1.4210854715202004e-14 AS DOUBLE) AS sm_per_half,
    CAST(7.105427357601002e-15 AS DOUBLE) AS sm_per_block
  UNION ALL
  SELECT
    140737488355328 AS sm_step,
    CAST(7.105427357601002e-15 AS DOUBLE) AS sm_per_half,
    CAST(3.552713678800501e-15 AS DOUBLE) AS sm_per_block
), sm_halves AS (
  SELECT
    "country",
    sm_e,
    sm_risk,
    sm_n,
    sm_w,
    sm_step,
    FLOOR(sm_pos * sm_per_block) AS sm_block,
    FLOOR(sm_pos * sm_per_half) - 2 * FLOOR(sm_pos * sm_per_block) AS sm_upper
  FROM sm_positioned
  CROSS JOIN sm_steps
  WHERE
    sm_steps.sm_step <= sm_positioned.sm_last
), sm_blocks AS (
  SELECT
    "country",
    "sm_step",
    "sm_block",
    sm_risk,
    SUM(CASE WHEN sm_upper = 0 THEN sm_e * sm_n ELSE 0 END) AS sm_events,
    SUM(CASE WHEN sm_upper = 0 THEN sm_e * sm_n * sm_w ELSE 0 END) AS sm_weighted,
    SUM(CASE WHEN sm_upper = 1 THEN sm_n ELSE 0 END) AS sm_later
  FROM sm_halves
  GROUP BY
    "country",
    "sm_step",
    "sm_block",
    "sm_risk"
), sm_below_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < INFINITY()
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          CAST(ABS(sm_x) AS DOUBLE) / POWER(2, sm_e) - 1
        ) * 1024)
      )
    END AS BIGINT) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(sm_risk AS DOUBLE) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(sm_risk AS DOUBLE)) >= 2.2250738585072014e-308
          AND ABS(CAST(sm_risk AS DOUBLE)) < INFINITY()
        )
        THEN NULL
        WHEN ABS(CAST(sm_risk AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          CAST(LN(ABS(CAST(sm_risk AS DOUBLE))) AS DOUBLE) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_blocks
    ) AS sm_valued
  ) AS sm_exponents
), sm_below_offsets AS (
  SELECT
    "country",
    "sm_step",
    "sm_block",
    "sm_bucket",
    SUM(sm_bucket_sm_later) OVER (
      PARTITION BY "country", "sm_step", "sm_block"
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_later,
    SUM(sm_bucket_sm_later) OVER (PARTITION BY "country", "sm_step", "sm_block") AS sm_total_sm_later
  FROM (
    SELECT
      "country",
      "sm_step",
      "sm_block",
      "sm_bucket",
      SUM(sm_later) AS sm_bucket_sm_later
    FROM sm_below_bucketed
    GROUP BY
      "country",
      "sm_step",
      "sm_block",
      "sm_bucket"
  ) AS sm_per_bucket
), sm_below AS (
  SELECT
    "country",
    "sm_step",
    "sm_block",
    "sm_bucket",
    sm_risk,
    sm_events,
    sm_weighted,
    sm_later,
    sm_later_run,
    sm_later_all
  FROM (
    SELECT
      "country",
      "sm_step",
      "sm_block",
      "sm_bucket",
      sm_kind,
      sm_risk,
      sm_events,
      sm_weighted,
      sm_later,
      SUM(sm_add_sm_later) OVER (
        PARTITION BY "country", "sm_step", "sm_block", "sm_bucket"
        ORDER BY sm_kind DESC, sm_risk ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_later_run,
      MAX(sm_slice_sm_later) OVER (PARTITION BY "country", "sm_step", "sm_block", "sm_bucket") AS sm_later_all
    FROM (
      SELECT
        "country",
        "sm_step",
        "sm_block",
        "sm_bucket",
        0 AS sm_kind,
        sm_risk,
        sm_events,
        sm_weighted,
        sm_later,
        sm_later AS sm_add_sm_later,
        NULL AS sm_slice_sm_later
      FROM sm_below_bucketed
      UNION ALL
      SELECT
        "country",
        "sm_step",
        "sm_block",
        "sm_bucket",
        1 AS sm_kind,
        NULL AS sm_risk,
        NULL AS sm_events,
        NULL AS sm_weighted,
        NULL AS sm_later,
        sm_before_sm_later AS sm_add_sm_later,
        sm_total_sm_later AS sm_slice_sm_later
      FROM sm_below_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_pairs AS (
  SELECT
    "country",
    CAST(SUM(sm_events * (
      sm_later_run - sm_later
    )) AS BIGINT) AS concordant,
    CAST(SUM(sm_events * sm_later) AS BIGINT) AS tied_risk,
    CAST(SUM(sm_events * sm_later_all) AS BIGINT) AS comparable,
    SUM(sm_weighted * (
      sm_later_run - 0.5 * sm_later
    )) AS sm_numerator,
    SUM(sm_weighted * sm_later_all) AS sm_denominator
  FROM sm_below
  GROUP BY
    "country"
)
SELECT
  sm_pairs."country" AS "country",
  CASE
    WHEN sm_unweighable.sm_missing = 0
    THEN (
      CAST(sm_pairs.sm_numerator AS DOUBLE) / NULLIF(CAST(sm_pairs.sm_denominator AS DOUBLE), 0)
    )
  END AS concordance_index_ipcw,
  sm_pairs.concordant AS concordant,
  sm_pairs.comparable - sm_pairs.concordant - sm_pairs.tied_risk AS discordant,
  sm_pairs.tied_risk AS tied_risk,
  sm_pairs.comparable AS comparable
FROM sm_pairs
JOIN sm_unweighable
  ON (
    sm_pairs."country" IS NOT DISTINCT FROM sm_unweighable."country"
  )
