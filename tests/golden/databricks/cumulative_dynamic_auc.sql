WITH sm_rows AS (
  SELECT
    `country`,
    CAST(`revenue` AS DOUBLE) AS sm_t,
    CASE
      WHEN `clicked` = 1
      THEN 1
      WHEN `clicked` = 0
      THEN 0
      ELSE CASE
        WHEN COALESCE(NOT (
          `clicked` = 1 OR `clicked` = 0
        ), TRUE)
        THEN RAISE_ERROR(
          'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST(`clicked` AS STRING), 'NULL')
        )
      END
    END AS sm_e,
    CAST(`pctr` AS DOUBLE) AS sm_risk
  FROM analytics.preds
), sm_times AS (
  SELECT
    1 AS sm_k,
    CAST(0.5 AS DOUBLE) AS sm_time
  UNION ALL
  SELECT
    2 AS sm_k,
    CAST(1.0 AS DOUBLE) AS sm_time
  UNION ALL
  SELECT
    3 AS sm_k,
    CAST(1.5 AS DOUBLE) AS sm_time
), sm_train_rows AS (
  SELECT
    `country`,
    CAST(`revenue` AS DOUBLE) AS sm_t,
    CASE
      WHEN `clicked` = 1
      THEN 1
      WHEN `clicked` = 0
      THEN 0
      ELSE CASE
        WHEN COALESCE(NOT (
          `clicked` = 1 OR `clicked` = 0
        ), TRUE)
        THEN RAISE_ERROR(
          'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST(`clicked` AS STRING), 'NULL')
        )
      END
    END AS sm_e
  FROM analytics.preds
), sm_censoring_counts AS (
  SELECT
    `country`,
    sm_t,
    COUNT(*) AS sm_n,
    SUM(sm_e) AS sm_died
  FROM sm_train_rows
  GROUP BY
    `country`,
    `sm_t`
), sm_censoring_order_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < CAST('inf' AS DOUBLE)
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
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
          AND ABS(CAST(sm_t AS DOUBLE)) < CAST('inf' AS DOUBLE)
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(sm_t AS DOUBLE))) / LN(2)
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
    `country`,
    `sm_bucket`,
    SUM(sm_bucket_sm_n) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_n,
    SUM(sm_bucket_sm_n) OVER (PARTITION BY `country`) AS sm_total_sm_n
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      SUM(sm_n) AS sm_bucket_sm_n
    FROM sm_censoring_order_bucketed
    GROUP BY
      `country`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_censoring_order AS (
  SELECT
    `country`,
    `sm_bucket`,
    sm_t,
    sm_died,
    sm_n,
    sm_n_run,
    sm_n_all
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      sm_kind,
      sm_t,
      sm_died,
      sm_n,
      SUM(sm_add_sm_n) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_n_run,
      MAX(sm_slice_sm_n) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_n_all
    FROM (
      SELECT
        `country`,
        `sm_bucket`,
        0 AS sm_kind,
        sm_t,
        sm_died,
        sm_n,
        sm_n AS sm_add_sm_n,
        NULL AS sm_slice_sm_n
      FROM sm_censoring_order_bucketed
      UNION ALL
      SELECT
        `country`,
        `sm_bucket`,
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
    `country`,
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
      `country`,
      sm_t,
      sm_n - sm_died AS sm_ended,
      sm_n_all - (
        sm_n_run - sm_n
      ) - sm_died AS sm_at_risk
    FROM sm_censoring_order
  ) AS sm_counted
), sm_censored_by_times AS (
  SELECT
    `country`,
    sm_t,
    SUM(sm_log) AS sm_log,
    SUM(sm_zero) AS sm_zero,
    SUM(sm_step) AS sm_step
  FROM (
    SELECT
      `country`,
      sm_t,
      sm_log,
      sm_zero,
      1 AS sm_step
    FROM sm_censoring
    UNION ALL
    SELECT
      `country`,
      sm_t,
      0 AS sm_log,
      0 AS sm_zero,
      0 AS sm_step
    FROM (
      SELECT
        `country`,
        sm_t
      FROM sm_rows
      WHERE
        sm_e = 1
    ) AS sm_points
  ) AS sm_steps_and_points
  GROUP BY
    `country`,
    `sm_t`
), sm_censored_by_running_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < CAST('inf' AS DOUBLE)
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
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
          AND ABS(CAST(sm_t AS DOUBLE)) < CAST('inf' AS DOUBLE)
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(sm_t AS DOUBLE))) / LN(2)
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
    `country`,
    `sm_bucket`,
    SUM(sm_bucket_sm_log) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_log,
    SUM(sm_bucket_sm_log) OVER (PARTITION BY `country`) AS sm_total_sm_log,
    SUM(sm_bucket_sm_zero) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_zero,
    SUM(sm_bucket_sm_zero) OVER (PARTITION BY `country`) AS sm_total_sm_zero,
    SUM(sm_bucket_sm_step) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_step,
    SUM(sm_bucket_sm_step) OVER (PARTITION BY `country`) AS sm_total_sm_step
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      SUM(sm_log) AS sm_bucket_sm_log,
      SUM(sm_zero) AS sm_bucket_sm_zero,
      SUM(sm_step) AS sm_bucket_sm_step
    FROM sm_censored_by_running_bucketed
    GROUP BY
      `country`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_censored_by_running AS (
  SELECT
    `country`,
    `sm_bucket`,
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
      `country`,
      `sm_bucket`,
      sm_kind,
      sm_t,
      sm_log,
      SUM(sm_add_sm_log) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_log_run,
      MAX(sm_slice_sm_log) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_log_all,
      sm_zero,
      SUM(sm_add_sm_zero) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_zero_run,
      MAX(sm_slice_sm_zero) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_zero_all,
      sm_step,
      SUM(sm_add_sm_step) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_step_run,
      MAX(sm_slice_sm_step) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_step_all
    FROM (
      SELECT
        `country`,
        `sm_bucket`,
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
        `country`,
        `sm_bucket`,
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
    `country`,
    sm_t,
    sm_log_run AS sm_log,
    sm_zero_run AS sm_zero,
    CASE WHEN sm_step = 0 AND sm_step_run = sm_step_all THEN 1 ELSE 0 END AS sm_past
  FROM sm_censored_by_running
), sm_at_times AS (
  SELECT
    sm_r.`country` AS `country`,
    sm_times.sm_time AS sm_time,
    sm_r.sm_risk AS sm_risk,
    CASE WHEN sm_r.sm_t > sm_times.sm_time THEN 0 ELSE 1 END AS sm_case,
    CASE
      WHEN sm_r.sm_t > sm_times.sm_time
      THEN 1
      WHEN sm_g.sm_zero = 0 AND sm_g.sm_past = 0
      THEN EXP(-sm_g.sm_log)
    END AS sm_w
  FROM sm_rows AS sm_r
  CROSS JOIN sm_times
  LEFT JOIN sm_censored_by AS sm_g
    ON (
      sm_r.`country` IS NOT DISTINCT FROM sm_g.`country`
    )
    AND sm_r.sm_t = sm_g.sm_t
  WHERE
    sm_r.sm_t > sm_times.sm_time OR sm_r.sm_e = 1
), sm_unweighable AS (
  SELECT
    `country`,
    `sm_time`,
    SUM(CASE WHEN sm_w IS NULL THEN 1 ELSE 0 END) AS sm_missing
  FROM sm_at_times
  GROUP BY
    `country`,
    `sm_time`
), sm_aucs AS (
  SELECT
    `country`,
    `sm_time`,
    CAST(COALESCE(SUM(sm_cumulative.sm_n), 0) AS BIGINT) AS sm_n,
    CAST(COALESCE(SUM(sm_cumulative.sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
    SUM(sm_cumulative.sm_w_pos) AS sm_w_pos,
    SUM(sm_cumulative.sm_w_neg) AS sm_w_neg,
    SUM(
      COALESCE(sm_cumulative.sm_wins_in, 0) * (
        sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      ) + sm_cumulative.sm_w_pos * (
        COALESCE(sm_cumulative.sm_w_neg_before, 0) / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      )
    ) AS sm_wins,
    SUM(
      COALESCE(sm_cumulative.sm_ties_in, 0) * (
        sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      )
    ) AS sm_ties
  FROM (
    SELECT
      sm_buckets.*,
      SUM(sm_w_neg) OVER (
        PARTITION BY `country`, `sm_time`
        ORDER BY sm_bucket NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_w_neg_before,
      SUM(sm_w_neg) OVER (PARTITION BY `country`, `sm_time`) AS sm_w_neg_all
    FROM (
      SELECT
        `country`,
        `sm_time`,
        `sm_bucket`,
        SUM(sm_in_bucket.sm_n) AS sm_n,
        SUM(sm_in_bucket.sm_n_pos) AS sm_n_pos,
        SUM(sm_in_bucket.sm_w_pos) AS sm_w_pos,
        SUM(sm_in_bucket.sm_w_neg) AS sm_w_neg,
        SUM(
          sm_in_bucket.sm_w_pos * (
            (
              COALESCE(sm_in_bucket.sm_w_neg_below, 0) + 0.5 * sm_in_bucket.sm_w_neg
            ) / NULLIF(sm_in_bucket.sm_w_neg_bucket, 0)
          )
        ) AS sm_wins_in,
        SUM(
          sm_in_bucket.sm_w_pos * (
            sm_in_bucket.sm_w_neg / NULLIF(sm_in_bucket.sm_w_neg_bucket, 0)
          )
        ) AS sm_ties_in
      FROM (
        SELECT
          sm_by_score.*,
          SUM(sm_w_neg) OVER (
            PARTITION BY `country`, `sm_time`, `sm_bucket`
            ORDER BY sm_s NULLS LAST
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
          ) AS sm_w_neg_below,
          SUM(sm_w_neg) OVER (PARTITION BY `country`, `sm_time`, `sm_bucket`) AS sm_w_neg_bucket
        FROM (
          SELECT
            sm_exponents.*,
            CAST(CASE
              WHEN sm_x = 0
              THEN 0
              WHEN NOT (
                ABS(sm_x) < CAST('inf' AS DOUBLE)
              )
              THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
              WHEN sm_e IS NULL
              THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
              WHEN sm_x > 0
              THEN (
                (
                  sm_e + 1025
                ) * 1024 + FLOOR((
                  ABS(sm_x) / POWER(2, sm_e) - 1
                ) * 1024)
              )
              ELSE -(
                (
                  sm_e + 1025
                ) * 1024 + FLOOR((
                  ABS(sm_x) / POWER(2, sm_e) - 1
                ) * 1024)
              )
            END AS BIGINT) AS sm_bucket
          FROM (
            SELECT
              sm_valued.*,
              CAST(sm_s AS DOUBLE) AS sm_x,
              CAST(CASE
                WHEN NOT (
                  ABS(CAST(sm_s AS DOUBLE)) >= 2.2250738585072014e-308
                  AND ABS(CAST(sm_s AS DOUBLE)) < CAST('inf' AS DOUBLE)
                )
                THEN NULL
                WHEN ABS(CAST(sm_s AS DOUBLE)) >= 8.98846567431158e307
                THEN 1023
                ELSE FLOOR((
                  LN(ABS(CAST(sm_s AS DOUBLE))) / LN(2)
                ))
              END AS DOUBLE) AS sm_e
            FROM (
              SELECT
                `country`,
                `sm_time`,
                sm_s,
                SUM(sm_rows) AS sm_n,
                SUM(sm_pos * sm_rows) AS sm_n_pos,
                CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS sm_w_pos,
                CAST(SUM((
                  1 - sm_pos
                ) * sm_weight) AS DOUBLE) AS sm_w_neg
              FROM (
                SELECT
                  `country`,
                  `sm_time`,
                  sm_s,
                  sm_rows,
                  sm_weight,
                  CASE
                    WHEN `sm_case` = 1
                    THEN 1
                    WHEN `sm_case` = 0
                    THEN 0
                    ELSE CASE
                      WHEN COALESCE(NOT (
                        `sm_case` = 1 OR `sm_case` = 0
                      ), TRUE)
                      THEN RAISE_ERROR(
                        'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST(`sm_case` AS STRING), 'NULL')
                      )
                    END
                  END AS sm_pos
                FROM (
                  SELECT
                    `country`,
                    `sm_time`,
                    `sm_case`,
                    `sm_risk` AS sm_s,
                    1 AS sm_rows,
                    CAST(`sm_w` AS DOUBLE) AS sm_weight
                  FROM (
                    SELECT
                      `country`,
                      `sm_time`,
                      sm_case,
                      sm_risk,
                      COALESCE(sm_w, 0) AS sm_w
                    FROM sm_at_times
                  ) AS sm_weighed
                ) AS sm_labelled
              ) AS sm_by_label
              GROUP BY
                `country`,
                `sm_time`,
                sm_s
            ) AS sm_valued
          ) AS sm_exponents
        ) AS sm_by_score
      ) AS sm_in_bucket
      GROUP BY
        `country`,
        `sm_time`,
        `sm_bucket`
    ) AS sm_buckets
  ) AS sm_cumulative
  GROUP BY
    `country`,
    `sm_time`
), sm_grid AS (
  SELECT
    sm_slices.`country` AS `country`,
    sm_times.sm_k AS sm_k,
    sm_times.sm_time AS sm_time,
    sm_times.sm_time AS sm_t
  FROM (
    SELECT DISTINCT
      `country`,
      1 AS sm_one
    FROM sm_rows
  ) AS sm_slices
  CROSS JOIN sm_times
), sm_survival_counts AS (
  SELECT
    `country`,
    sm_t,
    COUNT(*) AS sm_n,
    SUM(sm_e) AS sm_died
  FROM sm_rows
  GROUP BY
    `country`,
    `sm_t`
), sm_survival_order_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < CAST('inf' AS DOUBLE)
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
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
          AND ABS(CAST(sm_t AS DOUBLE)) < CAST('inf' AS DOUBLE)
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(sm_t AS DOUBLE))) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_survival_counts
    ) AS sm_valued
  ) AS sm_exponents
), sm_survival_order_offsets AS (
  SELECT
    `country`,
    `sm_bucket`,
    SUM(sm_bucket_sm_n) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_n,
    SUM(sm_bucket_sm_n) OVER (PARTITION BY `country`) AS sm_total_sm_n
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      SUM(sm_n) AS sm_bucket_sm_n
    FROM sm_survival_order_bucketed
    GROUP BY
      `country`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_survival_order AS (
  SELECT
    `country`,
    `sm_bucket`,
    sm_t,
    sm_died,
    sm_n,
    sm_n_run,
    sm_n_all
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      sm_kind,
      sm_t,
      sm_died,
      sm_n,
      SUM(sm_add_sm_n) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_n_run,
      MAX(sm_slice_sm_n) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_n_all
    FROM (
      SELECT
        `country`,
        `sm_bucket`,
        0 AS sm_kind,
        sm_t,
        sm_died,
        sm_n,
        sm_n AS sm_add_sm_n,
        NULL AS sm_slice_sm_n
      FROM sm_survival_order_bucketed
      UNION ALL
      SELECT
        `country`,
        `sm_bucket`,
        1 AS sm_kind,
        NULL AS sm_t,
        NULL AS sm_died,
        NULL AS sm_n,
        sm_before_sm_n AS sm_add_sm_n,
        sm_total_sm_n AS sm_slice_sm_n
      FROM sm_survival_order_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_survival AS (
  SELECT
    `country`,
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
      `country`,
      sm_t,
      sm_died AS sm_ended,
      sm_n_all - (
        sm_n_run - sm_n
      ) AS sm_at_risk
    FROM sm_survival_order
  ) AS sm_counted
), sm_survival_at_times AS (
  SELECT
    `country`,
    sm_t,
    SUM(sm_log) AS sm_log,
    SUM(sm_zero) AS sm_zero,
    SUM(sm_step) AS sm_step
  FROM (
    SELECT
      `country`,
      sm_t,
      sm_log,
      sm_zero,
      1 AS sm_step
    FROM sm_survival
    UNION ALL
    SELECT
      `country`,
      sm_t,
      0 AS sm_log,
      0 AS sm_zero,
      0 AS sm_step
    FROM (
      SELECT
        `country`,
        sm_t
      FROM sm_grid
    ) AS sm_points
  ) AS sm_steps_and_points
  GROUP BY
    `country`,
    `sm_t`
), sm_survival_at_running_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < CAST('inf' AS DOUBLE)
      )
      THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
      WHEN sm_e IS NULL
      THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
      WHEN sm_x > 0
      THEN (
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
        ) * 1024)
      )
      ELSE -(
        (
          sm_e + 1025
        ) * 1024 + FLOOR((
          ABS(sm_x) / POWER(2, sm_e) - 1
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
          AND ABS(CAST(sm_t AS DOUBLE)) < CAST('inf' AS DOUBLE)
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(sm_t AS DOUBLE))) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_survival_at_times
    ) AS sm_valued
  ) AS sm_exponents
), sm_survival_at_running_offsets AS (
  SELECT
    `country`,
    `sm_bucket`,
    SUM(sm_bucket_sm_log) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_log,
    SUM(sm_bucket_sm_log) OVER (PARTITION BY `country`) AS sm_total_sm_log,
    SUM(sm_bucket_sm_zero) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_zero,
    SUM(sm_bucket_sm_zero) OVER (PARTITION BY `country`) AS sm_total_sm_zero,
    SUM(sm_bucket_sm_step) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_step,
    SUM(sm_bucket_sm_step) OVER (PARTITION BY `country`) AS sm_total_sm_step
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      SUM(sm_log) AS sm_bucket_sm_log,
      SUM(sm_zero) AS sm_bucket_sm_zero,
      SUM(sm_step) AS sm_bucket_sm_step
    FROM sm_survival_at_running_bucketed
    GROUP BY
      `country`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_survival_at_running AS (
  SELECT
    `country`,
    `sm_bucket`,
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
      `country`,
      `sm_bucket`,
      sm_kind,
      sm_t,
      sm_log,
      SUM(sm_add_sm_log) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_log_run,
      MAX(sm_slice_sm_log) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_log_all,
      sm_zero,
      SUM(sm_add_sm_zero) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_zero_run,
      MAX(sm_slice_sm_zero) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_zero_all,
      sm_step,
      SUM(sm_add_sm_step) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_step_run,
      MAX(sm_slice_sm_step) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_step_all
    FROM (
      SELECT
        `country`,
        `sm_bucket`,
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
      FROM sm_survival_at_running_bucketed
      UNION ALL
      SELECT
        `country`,
        `sm_bucket`,
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
      FROM sm_survival_at_running_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_survival_at AS (
  SELECT
    `country`,
    sm_t,
    sm_log_run AS sm_log,
    sm_zero_run AS sm_zero,
    CASE WHEN sm_step = 0 AND sm_step_run = sm_step_all THEN 1 ELSE 0 END AS sm_past
  FROM sm_survival_at_running
), sm_per_time AS (
  SELECT
    sm_grid.`country` AS `country`,
    sm_grid.sm_k AS sm_k,
    sm_grid.sm_time AS sm_time,
    CASE
      WHEN sm_unweighable.sm_missing = 0
      THEN (
        CAST(sm_aucs.sm_wins AS DOUBLE) / NULLIF(CAST(sm_aucs.sm_w_pos AS DOUBLE), 0)
      )
    END AS sm_auc,
    CASE WHEN sm_s.sm_zero > 0 THEN 0 ELSE EXP(sm_s.sm_log) END AS sm_surviving
  FROM sm_grid
  JOIN sm_survival_at AS sm_s
    ON (
      sm_grid.`country` IS NOT DISTINCT FROM sm_s.`country`
    )
    AND sm_grid.sm_t = sm_s.sm_t
  LEFT JOIN sm_aucs
    ON (
      sm_grid.`country` IS NOT DISTINCT FROM sm_aucs.`country`
    )
    AND sm_grid.sm_time = sm_aucs.sm_time
  LEFT JOIN sm_unweighable
    ON (
      sm_grid.`country` IS NOT DISTINCT FROM sm_unweighable.`country`
    )
    AND sm_grid.sm_time = sm_unweighable.sm_time
), sm_drops AS (
  SELECT
    `country`,
    sm_k,
    sm_time,
    sm_auc,
    COALESCE(LAG(sm_surviving) OVER (PARTITION BY `country` ORDER BY sm_k NULLS LAST), 1) - sm_surviving AS sm_drop,
    MAX(sm_k) OVER (PARTITION BY `country`) AS sm_last_k,
    MIN(sm_surviving) OVER (PARTITION BY `country`) AS sm_last_surviving
  FROM sm_per_time
), sm_means AS (
  SELECT
    `country`,
    CASE
      WHEN SUM(CASE WHEN sm_auc IS NULL THEN 1 ELSE 0 END) > 0
      THEN NULL
      WHEN MAX(sm_last_k) = 1
      THEN MAX(sm_auc)
      ELSE (
        CAST(SUM(sm_auc * sm_drop) AS DOUBLE) / NULLIF(CAST(1 - MAX(sm_last_surviving) AS DOUBLE), 0)
      )
    END AS sm_mean
  FROM sm_drops
  GROUP BY
    `country`
)
SELECT
  sm_drops.`country` AS `country`,
  sm_drops.sm_time AS time,
  sm_drops.sm_auc AS cumulative_dynamic_auc,
  sm_means.sm_mean AS mean_auc
FROM sm_drops
JOIN sm_means
  ON (
    sm_drops.`country` IS NOT DISTINCT FROM sm_means.`country`
  )
ORDER BY
  `country` NULLS LAST,
  sm_drops.sm_time NULLS LAST
