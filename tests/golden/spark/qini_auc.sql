WITH sm_at AS (
  SELECT
    `country`,
    threshold,
    SUM(sm_t * sm_w) AS sm_wt,
    SUM((
      1 - sm_t
    ) * sm_w) AS sm_wc,
    SUM(sm_y * sm_t * sm_w) AS sm_yt,
    SUM(sm_y * (
      1 - sm_t
    ) * sm_w) AS sm_yc
  FROM (
    SELECT
      `country`,
      `pctr` AS threshold,
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
      END AS sm_y,
      CASE
        WHEN `treated` = 1
        THEN 1
        WHEN `treated` = 0
        THEN 0
        ELSE CASE
          WHEN COALESCE(NOT (
            `treated` = 1 OR `treated` = 0
          ), TRUE)
          THEN RAISE_ERROR(
            'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST(`treated` AS STRING), 'NULL')
          )
        END
      END AS sm_t,
      CAST(`impressions` AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    `country`,
    threshold
), sm_points_bucketed AS (
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
), sm_points_offsets AS (
  SELECT
    `country`,
    `sm_bucket`,
    SUM(sm_bucket_sm_wt) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_wt,
    SUM(sm_bucket_sm_wt) OVER (PARTITION BY `country`) AS sm_total_sm_wt,
    SUM(sm_bucket_sm_wc) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_wc,
    SUM(sm_bucket_sm_wc) OVER (PARTITION BY `country`) AS sm_total_sm_wc,
    SUM(sm_bucket_sm_yt) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_yt,
    SUM(sm_bucket_sm_yt) OVER (PARTITION BY `country`) AS sm_total_sm_yt,
    SUM(sm_bucket_sm_yc) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_yc,
    SUM(sm_bucket_sm_yc) OVER (PARTITION BY `country`) AS sm_total_sm_yc
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      SUM(sm_wt) AS sm_bucket_sm_wt,
      SUM(sm_wc) AS sm_bucket_sm_wc,
      SUM(sm_yt) AS sm_bucket_sm_yt,
      SUM(sm_yc) AS sm_bucket_sm_yc
    FROM sm_points_bucketed
    GROUP BY
      `country`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_points AS (
  SELECT
    `country`,
    `sm_bucket`,
    threshold,
    sm_wt,
    sm_wt_run,
    sm_wt_all,
    sm_wc,
    sm_wc_run,
    sm_wc_all,
    sm_yt,
    sm_yt_run,
    sm_yt_all,
    sm_yc,
    sm_yc_run,
    sm_yc_all
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      sm_kind,
      threshold,
      sm_wt,
      SUM(sm_add_sm_wt) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wt_run,
      MAX(sm_slice_sm_wt) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_wt_all,
      sm_wc,
      SUM(sm_add_sm_wc) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wc_run,
      MAX(sm_slice_sm_wc) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_wc_all,
      sm_yt,
      SUM(sm_add_sm_yt) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yt_run,
      MAX(sm_slice_sm_yt) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_yt_all,
      sm_yc,
      SUM(sm_add_sm_yc) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yc_run,
      MAX(sm_slice_sm_yc) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_yc_all
    FROM (
      SELECT
        `country`,
        `sm_bucket`,
        0 AS sm_kind,
        threshold,
        sm_wt,
        sm_wt AS sm_add_sm_wt,
        NULL AS sm_slice_sm_wt,
        sm_wc,
        sm_wc AS sm_add_sm_wc,
        NULL AS sm_slice_sm_wc,
        sm_yt,
        sm_yt AS sm_add_sm_yt,
        NULL AS sm_slice_sm_yt,
        sm_yc,
        sm_yc AS sm_add_sm_yc,
        NULL AS sm_slice_sm_yc
      FROM sm_points_bucketed
      UNION ALL
      SELECT
        `country`,
        `sm_bucket`,
        1 AS sm_kind,
        NULL AS threshold,
        NULL AS sm_wt,
        sm_before_sm_wt AS sm_add_sm_wt,
        sm_total_sm_wt AS sm_slice_sm_wt,
        NULL AS sm_wc,
        sm_before_sm_wc AS sm_add_sm_wc,
        sm_total_sm_wc AS sm_slice_sm_wc,
        NULL AS sm_yt,
        sm_before_sm_yt AS sm_add_sm_yt,
        sm_total_sm_yt AS sm_slice_sm_yt,
        NULL AS sm_yc,
        sm_before_sm_yc AS sm_add_sm_yc,
        sm_total_sm_yc AS sm_slice_sm_yc
      FROM sm_points_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_slices AS (
  SELECT
    `country`,
    SUM(
      (
        sm_wt + sm_wc
      ) * (
        (
          sm_yt_run - sm_yc_run * COALESCE((
            CAST(sm_wt_run AS DOUBLE) / NULLIF(CAST(sm_wc_run AS DOUBLE), 0)
          ), 0)
        ) + (
          (
            sm_yt_run - sm_yt
          ) - (
            sm_yc_run - sm_yc
          ) * COALESCE(
            (
              CAST((
                sm_wt_run - sm_wt
              ) AS DOUBLE) / NULLIF(CAST((
                sm_wc_run - sm_wc
              ) AS DOUBLE), 0)
            ),
            0
          )
        )
      ) / 2
    ) AS sm_area,
    MAX(sm_wt_all) AS sm_tot_wt,
    MAX(sm_wc_all) AS sm_tot_wc,
    MAX(sm_yt_all) AS sm_tot_yt,
    MAX(sm_yc_all) AS sm_tot_yc
  FROM sm_points
  GROUP BY
    `country`
), sm_cells AS (
  SELECT
    `country`,
    sm_step,
    MAX(sm_area) AS sm_actual_area,
    SUM(sm_cell_wt) AS sm_wt,
    SUM(sm_cell_wc) AS sm_wc,
    SUM(sm_cell_yt) AS sm_yt,
    SUM(sm_cell_yc) AS sm_yc
  FROM (
    SELECT
      `country`,
      1 AS sm_step,
      sm_area,
      sm_tot_yt AS sm_cell_wt,
      0 AS sm_cell_wc,
      sm_tot_yt AS sm_cell_yt,
      0 AS sm_cell_yc
    FROM sm_slices
    UNION ALL
    SELECT
      `country`,
      2 AS sm_step,
      sm_area,
      sm_tot_wt - sm_tot_yt AS sm_cell_wt,
      sm_tot_wc - sm_tot_yc AS sm_cell_wc,
      0 AS sm_cell_yt,
      0 AS sm_cell_yc
    FROM sm_slices
    UNION ALL
    SELECT
      `country`,
      3 AS sm_step,
      sm_area,
      0 AS sm_cell_wt,
      sm_tot_yc AS sm_cell_wc,
      0 AS sm_cell_yt,
      sm_tot_yc AS sm_cell_yc
    FROM sm_slices
  ) AS sm_cell_rows
  GROUP BY
    `country`,
    sm_step
), sm_perfect AS (
  SELECT
    `country`,
    SUM(
      (
        sm_wt + sm_wc
      ) * (
        (
          sm_yt_run - sm_yc_run * COALESCE((
            CAST(sm_wt_run AS DOUBLE) / NULLIF(CAST(sm_wc_run AS DOUBLE), 0)
          ), 0)
        ) + (
          (
            sm_yt_run - sm_yt
          ) - (
            sm_yc_run - sm_yc
          ) * COALESCE(
            (
              CAST((
                sm_wt_run - sm_wt
              ) AS DOUBLE) / NULLIF(CAST((
                sm_wc_run - sm_wc
              ) AS DOUBLE), 0)
            ),
            0
          )
        )
      ) / 2
    ) AS sm_perfect_area,
    MAX(sm_actual_area) AS sm_area,
    SUM(sm_wt) AS sm_tot_wt,
    SUM(sm_wc) AS sm_tot_wc,
    SUM(sm_yt) AS sm_tot_yt,
    SUM(sm_yc) AS sm_tot_yc
  FROM (
    SELECT
      sm_cells.*,
      SUM(sm_wt) OVER (
        PARTITION BY `country`
        ORDER BY sm_step NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wt_run,
      SUM(sm_wc) OVER (
        PARTITION BY `country`
        ORDER BY sm_step NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wc_run,
      SUM(sm_yt) OVER (
        PARTITION BY `country`
        ORDER BY sm_step NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yt_run,
      SUM(sm_yc) OVER (
        PARTITION BY `country`
        ORDER BY sm_step NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yc_run
    FROM sm_cells
  ) AS sm_perfect_points
  GROUP BY
    `country`
)
SELECT
  `country`,
  CASE
    WHEN sm_tot_wt > 0 AND sm_tot_wc > 0
    THEN (
      CAST(sm_area - (
        sm_tot_wt + sm_tot_wc
      ) * sm_end / 2 AS DOUBLE) / NULLIF(CAST(sm_perfect_area - (
        sm_tot_wt + sm_tot_wc
      ) * sm_end / 2 AS DOUBLE), 0)
    )
  END AS qini_auc,
  sm_tot_wt AS n_treatment,
  sm_tot_wc AS n_control,
  sm_tot_yt AS responders_treatment,
  sm_tot_yc AS responders_control
FROM (
  SELECT
    sm_totals.*,
    (
      sm_tot_yt - sm_tot_yc * COALESCE((
        CAST(sm_tot_wt AS DOUBLE) / NULLIF(CAST(sm_tot_wc AS DOUBLE), 0)
      ), 0)
    ) AS sm_end
  FROM sm_perfect AS sm_totals
) AS sm_ends
