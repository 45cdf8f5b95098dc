WITH sm_rows AS (
  SELECT
    "country",
    CAST("revenue" AS DOUBLE) AS sm_t,
    CASE
      WHEN "clicked" = 1
      THEN 1
      WHEN "clicked" = 0
      THEN 0
      ELSE CASE
        WHEN COALESCE(NOT (
          "clicked" = 1 OR "clicked" = 0
        ), TRUE)
        THEN ERROR(
          'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
        )
      END
    END AS sm_e,
    CAST("pctr" AS DOUBLE) AS sm_risk
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
    "country",
    CAST("revenue" AS DOUBLE) AS sm_t,
    CASE
      WHEN "clicked" = 1
      THEN 1
      WHEN "clicked" = 0
      THEN 0
      ELSE CASE
        WHEN COALESCE(NOT (
          "clicked" = 1 OR "clicked" = 0
        ), TRUE)
        THEN ERROR(
          'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
        )
      END
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
), sm_censoring_order AS (
  SELECT
    "country",
    sm_t,
    sm_died,
    sm_n,
    SUM(sm_n) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_n_run,
    SUM(sm_n) OVER (PARTITION BY "country") AS sm_n_all
  FROM sm_censoring_counts
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
      FROM sm_rows
      WHERE
        sm_e = 1
    ) AS sm_points
  ) AS sm_steps_and_points
  GROUP BY
    "country",
    "sm_t"
), sm_censored_by_running AS (
  SELECT
    "country",
    sm_t,
    sm_log,
    SUM(sm_log) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_log_run,
    SUM(sm_log) OVER (PARTITION BY "country") AS sm_log_all,
    sm_zero,
    SUM(sm_zero) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_zero_run,
    SUM(sm_zero) OVER (PARTITION BY "country") AS sm_zero_all,
    sm_step,
    SUM(sm_step) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_step_run,
    SUM(sm_step) OVER (PARTITION BY "country") AS sm_step_all
  FROM sm_censored_by_times
), sm_censored_by AS (
  SELECT
    "country",
    sm_t,
    sm_log_run AS sm_log,
    sm_zero_run AS sm_zero,
    CASE WHEN sm_step = 0 AND sm_step_run = sm_step_all THEN 1 ELSE 0 END AS sm_past
  FROM sm_censored_by_running
), sm_at_times AS (
  SELECT
    sm_r."country" AS "country",
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
      sm_r."country" IS NOT DISTINCT FROM sm_g."country"
    )
    AND sm_r.sm_t = sm_g.sm_t
  WHERE
    sm_r.sm_t > sm_times.sm_time OR sm_r.sm_e = 1
), sm_unweighable AS (
  SELECT
    "country",
    "sm_time",
    SUM(CASE WHEN sm_w IS NULL THEN 1 ELSE 0 END) AS sm_missing
  FROM sm_at_times
  GROUP BY
    "country",
    "sm_time"
), sm_aucs AS (
  SELECT
    "country",
    "sm_time",
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
        PARTITION BY "country", "sm_time"
        ORDER BY sm_s ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_w_neg_below,
      SUM(sm_w_neg) OVER (PARTITION BY "country", "sm_time") AS sm_w_neg_all
    FROM (
      SELECT
        "country",
        "sm_time",
        sm_s,
        SUM(sm_rows) AS sm_n,
        SUM(sm_pos * sm_rows) AS sm_n_pos,
        CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS sm_w_pos,
        CAST(SUM((
          1 - sm_pos
        ) * sm_weight) AS DOUBLE) AS sm_w_neg
      FROM (
        SELECT
          "country",
          "sm_time",
          sm_s,
          sm_rows,
          sm_weight,
          CASE
            WHEN "sm_case" = 1
            THEN 1
            WHEN "sm_case" = 0
            THEN 0
            ELSE CASE
              WHEN COALESCE(NOT (
                "sm_case" = 1 OR "sm_case" = 0
              ), TRUE)
              THEN ERROR(
                'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("sm_case" AS TEXT), 'NULL')
              )
            END
          END AS sm_pos
        FROM (
          SELECT
            "country",
            "sm_time",
            "sm_case",
            "sm_risk" AS sm_s,
            COUNT(*) AS sm_rows,
            SUM(CAST("sm_w" AS DOUBLE)) AS sm_weight
          FROM (
            SELECT
              "country",
              "sm_time",
              sm_case,
              sm_risk,
              COALESCE(sm_w, 0) AS sm_w
            FROM sm_at_times
          ) AS sm_weighed
          GROUP BY
            "country",
            "sm_time",
            "sm_risk",
            "sm_case"
        ) AS sm_labelled
      ) AS sm_by_label
      GROUP BY
        "country",
        "sm_time",
        sm_s
    ) AS sm_by_score
  ) AS sm_cumulative
  GROUP BY
    "country",
    "sm_time"
), sm_grid AS (
  SELECT
    sm_slices."country" AS "country",
    sm_times.sm_k AS sm_k,
    sm_times.sm_time AS sm_time,
    sm_times.sm_time AS sm_t
  FROM (
    SELECT DISTINCT
      "country",
      1 AS sm_one
    FROM sm_rows
  ) AS sm_slices
  CROSS JOIN sm_times
), sm_survival_counts AS (
  SELECT
    "country",
    sm_t,
    COUNT(*) AS sm_n,
    SUM(sm_e) AS sm_died
  FROM sm_rows
  GROUP BY
    "country",
    "sm_t"
), sm_survival_order AS (
  SELECT
    "country",
    sm_t,
    sm_died,
    sm_n,
    SUM(sm_n) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_n_run,
    SUM(sm_n) OVER (PARTITION BY "country") AS sm_n_all
  FROM sm_survival_counts
), sm_survival AS (
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
      sm_died AS sm_ended,
      sm_n_all - (
        sm_n_run - sm_n
      ) AS sm_at_risk
    FROM sm_survival_order
  ) AS sm_counted
), sm_survival_at_times AS (
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
    FROM sm_survival
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
      FROM sm_grid
    ) AS sm_points
  ) AS sm_steps_and_points
  GROUP BY
    "country",
    "sm_t"
), sm_survival_at_running AS (
  SELECT
    "country",
    sm_t,
    sm_log,
    SUM(sm_log) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_log_run,
    SUM(sm_log) OVER (PARTITION BY "country") AS sm_log_all,
    sm_zero,
    SUM(sm_zero) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_zero_run,
    SUM(sm_zero) OVER (PARTITION BY "country") AS sm_zero_all,
    sm_step,
    SUM(sm_step) OVER (
      PARTITION BY "country"
      ORDER BY sm_t ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_step_run,
    SUM(sm_step) OVER (PARTITION BY "country") AS sm_step_all
  FROM sm_survival_at_times
), sm_survival_at AS (
  SELECT
    "country",
    sm_t,
    sm_log_run AS sm_log,
    sm_zero_run AS sm_zero,
    CASE WHEN sm_step = 0 AND sm_step_run = sm_step_all THEN 1 ELSE 0 END AS sm_past
  FROM sm_survival_at_running
), sm_per_time AS (
  SELECT
    sm_grid."country" AS "country",
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
      sm_grid."country" IS NOT DISTINCT FROM sm_s."country"
    )
    AND sm_grid.sm_t = sm_s.sm_t
  LEFT JOIN sm_aucs
    ON (
      sm_grid."country" IS NOT DISTINCT FROM sm_aucs."country"
    )
    AND sm_grid.sm_time = sm_aucs.sm_time
  LEFT JOIN sm_unweighable
    ON (
      sm_grid."country" IS NOT DISTINCT FROM sm_unweighable."country"
    )
    AND sm_grid.sm_time = sm_unweighable.sm_time
), sm_drops AS (
  SELECT
    "country",
    sm_k,
    sm_time,
    sm_auc,
    COALESCE(LAG(sm_surviving) OVER (PARTITION BY "country" ORDER BY sm_k ASC), 1) - sm_surviving AS sm_drop,
    MAX(sm_k) OVER (PARTITION BY "country") AS sm_last_k,
    MIN(sm_surviving) OVER (PARTITION BY "country") AS sm_last_surviving
  FROM sm_per_time
), sm_means AS (
  SELECT
    "country",
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
    "country"
)
SELECT
  sm_drops."country" AS "country",
  sm_drops.sm_time AS time,
  sm_drops.sm_auc AS cumulative_dynamic_auc,
  sm_means.sm_mean AS mean_auc
FROM sm_drops
JOIN sm_means
  ON (
    sm_drops."country" IS NOT DISTINCT FROM sm_means."country"
  )
ORDER BY
  "country" ASC,
  sm_drops.sm_time ASC
