WITH sm_at AS (
  SELECT
    sm_sums.*
  FROM (
    SELECT
      `country`,
      threshold,
      SUM(sm_rows) AS sm_n_at,
      SUM(sm_pos * sm_rows) AS sm_n_pos_at,
      SUM(sm_pos * sm_weight) AS sm_tp_at,
      SUM((
        1 - sm_pos
      ) * sm_weight) AS sm_fp_at
    FROM (
      SELECT
        `country`,
        threshold,
        sm_rows,
        sm_weight,
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
        END AS sm_pos
      FROM (
        SELECT
          `country`,
          `clicked`,
          `pctr` AS threshold,
          1 AS sm_rows,
          CAST(`impressions` AS DOUBLE) AS sm_weight
        FROM analytics.preds
      ) AS sm_labelled
    ) AS sm_by_label
    GROUP BY
      `country`,
      threshold
  ) AS sm_sums
), sm_running_bucketed AS (
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
      CAST(threshold AS DOUBLE) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(threshold AS DOUBLE)) >= 2.2250738585072014e-308
          AND ABS(CAST(threshold AS DOUBLE)) < CAST('inf' AS DOUBLE)
        )
        THEN NULL
        WHEN ABS(CAST(threshold AS DOUBLE)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(threshold AS DOUBLE))) / LN(2)
        ))
      END AS DOUBLE) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_at
    ) AS sm_valued
  ) AS sm_exponents
), sm_running_offsets AS (
  SELECT
    `country`,
    `sm_bucket`,
    SUM(sm_bucket_sm_tp_at) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_tp_at,
    SUM(sm_bucket_sm_tp_at) OVER (PARTITION BY `country`) AS sm_total_sm_tp_at,
    SUM(sm_bucket_sm_fp_at) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_fp_at,
    SUM(sm_bucket_sm_fp_at) OVER (PARTITION BY `country`) AS sm_total_sm_fp_at
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      SUM(sm_tp_at) AS sm_bucket_sm_tp_at,
      SUM(sm_fp_at) AS sm_bucket_sm_fp_at
    FROM sm_running_bucketed
    GROUP BY
      `country`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_running AS (
  SELECT
    `country`,
    `sm_bucket`,
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    sm_tp_at_run,
    sm_tp_at_all,
    sm_fp_at,
    sm_fp_at_run,
    sm_fp_at_all
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      sm_kind,
      threshold,
      sm_n_at,
      sm_n_pos_at,
      sm_tp_at,
      SUM(sm_add_sm_tp_at) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_tp_at_run,
      MAX(sm_slice_sm_tp_at) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_tp_at_all,
      sm_fp_at,
      SUM(sm_add_sm_fp_at) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_fp_at_run,
      MAX(sm_slice_sm_fp_at) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_fp_at_all
    FROM (
      SELECT
        `country`,
        `sm_bucket`,
        0 AS sm_kind,
        threshold,
        sm_n_at,
        sm_n_pos_at,
        sm_tp_at,
        sm_tp_at AS sm_add_sm_tp_at,
        NULL AS sm_slice_sm_tp_at,
        sm_fp_at,
        sm_fp_at AS sm_add_sm_fp_at,
        NULL AS sm_slice_sm_fp_at
      FROM sm_running_bucketed
      UNION ALL
      SELECT
        `country`,
        `sm_bucket`,
        1 AS sm_kind,
        NULL AS threshold,
        NULL AS sm_n_at,
        NULL AS sm_n_pos_at,
        NULL AS sm_tp_at,
        sm_before_sm_tp_at AS sm_add_sm_tp_at,
        sm_total_sm_tp_at AS sm_slice_sm_tp_at,
        NULL AS sm_fp_at,
        sm_before_sm_fp_at AS sm_add_sm_fp_at,
        sm_total_sm_fp_at AS sm_slice_sm_fp_at
      FROM sm_running_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_points AS (
  SELECT
    `country`,
    `sm_bucket`,
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_tp_at,
    sm_fp_at,
    sm_tp_at_run AS tp,
    sm_fp_at_run AS fp,
    sm_tp_at_all AS sm_pos,
    sm_fp_at_all AS sm_neg,
    CASE WHEN sm_tp_at + sm_fp_at > 0 THEN 1 ELSE 0 END AS sm_point
  FROM sm_running
), sm_valued AS (
  SELECT
    `country`,
    `sm_bucket`,
    threshold,
    tp,
    fp,
    sm_pos,
    sm_neg,
    sm_n_at,
    sm_n_pos_at,
    CASE
      WHEN sm_point = 1
      THEN CASE
        WHEN sm_pos > 0
        THEN CASE
          WHEN tp > 0
          THEN (
            CAST(tp AS DOUBLE) / NULLIF(
              CAST(tp + CAST(0.5 AS DOUBLE) * (
                sm_pos - tp
              ) + CAST(0.5 AS DOUBLE) * fp AS DOUBLE),
              0
            )
          )
          WHEN fp + (
            sm_pos - tp
          ) > 0
          THEN CAST(0 AS DOUBLE)
        END
      END
    END AS sm_value
  FROM sm_points
), sm_top_values AS (
  SELECT
    `country`,
    MAX(sm_value) AS sm_top
  FROM sm_valued
  GROUP BY
    `country`
), sm_top_values_spread AS (
  SELECT
    sm_slices.*,
    sm_keys.sm_bucket AS sm_bucket
  FROM sm_top_values AS sm_slices
  JOIN (
    SELECT DISTINCT
      `country`,
      sm_bucket
    FROM sm_valued AS sm_keyed
  ) AS sm_keys
    ON (
      sm_slices.`country` IS NOT DISTINCT FROM sm_keys.`country`
    )
), sm_best AS (
  SELECT
    sm_valued.`country` AS `country`,
    MAX(sm_top_values.sm_top) AS sm_top,
    MAX(
      CASE
        WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
        THEN sm_valued.threshold
      END
    ) AS sm_threshold,
    MIN(
      CASE
        WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
        THEN sm_valued.tp
      END
    ) AS sm_tp,
    MIN(
      CASE
        WHEN sm_valued.sm_value >= sm_top_values.sm_top - 1e-12 * ABS(sm_top_values.sm_top)
        THEN sm_valued.fp
      END
    ) AS sm_fp,
    MAX(sm_valued.sm_pos) AS sm_w_pos,
    MAX(sm_valued.sm_neg) AS sm_w_neg,
    CAST(SUM(sm_valued.sm_n_at) AS BIGINT) AS sm_n,
    CAST(SUM(sm_valued.sm_n_pos_at) AS BIGINT) AS sm_n_pos
  FROM sm_valued
  JOIN sm_top_values_spread AS sm_top_values
    ON sm_valued.`sm_bucket` = sm_top_values.`sm_bucket`
    AND (
      sm_valued.`country` IS NOT DISTINCT FROM sm_top_values.`country`
    )
  GROUP BY
    sm_valued.`country`
)
SELECT
  `country`,
  threshold,
  best_value,
  (
    CAST(sm_tp_best AS DOUBLE) / NULLIF(CAST(sm_tp_best + sm_fp_best AS DOUBLE), 0)
  ) AS `precision`,
  (
    CAST(sm_tp_best AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
  ) AS recall,
  (
    CAST(sm_fp_best AS DOUBLE) / NULLIF(CAST(sm_w_neg AS DOUBLE), 0)
  ) AS fpr,
  n_pos,
  n_neg
FROM (
  SELECT
    `country`,
    sm_threshold AS threshold,
    sm_top AS best_value,
    sm_w_pos,
    sm_w_neg,
    sm_tp AS sm_tp_best,
    sm_fp AS sm_fp_best,
    sm_n_pos AS n_pos,
    sm_n - sm_n_pos AS n_neg
  FROM sm_best
) AS sm_chosen
