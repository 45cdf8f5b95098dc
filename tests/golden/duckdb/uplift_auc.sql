WITH sm_at AS (
  SELECT
    "country",
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
      "country",
      "pctr" AS threshold,
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
      END AS sm_y,
      CASE
        WHEN "treated" = 1
        THEN 1
        WHEN "treated" = 0
        THEN 0
        ELSE CASE
          WHEN COALESCE(NOT (
            "treated" = 1 OR "treated" = 0
          ), TRUE)
          THEN ERROR(
            'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("treated" AS TEXT), 'NULL')
          )
        END
      END AS sm_t,
      CAST("impressions" AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    "country",
    threshold
), sm_points AS (
  SELECT
    "country",
    threshold,
    sm_wt,
    SUM(sm_wt) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_wt_run,
    SUM(sm_wt) OVER (PARTITION BY "country") AS sm_wt_all,
    sm_wc,
    SUM(sm_wc) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_wc_run,
    SUM(sm_wc) OVER (PARTITION BY "country") AS sm_wc_all,
    sm_yt,
    SUM(sm_yt) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_yt_run,
    SUM(sm_yt) OVER (PARTITION BY "country") AS sm_yt_all,
    sm_yc,
    SUM(sm_yc) OVER (
      PARTITION BY "country"
      ORDER BY threshold DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_yc_run,
    SUM(sm_yc) OVER (PARTITION BY "country") AS sm_yc_all
  FROM sm_at
), sm_slices AS (
  SELECT
    "country",
    SUM(
      (
        sm_wt + sm_wc
      ) * (
        (
          COALESCE((
            CAST(sm_yt_run AS DOUBLE) / NULLIF(CAST(sm_wt_run AS DOUBLE), 0)
          ), 0) - COALESCE((
            CAST(sm_yc_run AS DOUBLE) / NULLIF(CAST(sm_wc_run AS DOUBLE), 0)
          ), 0)
        ) * (
          sm_wt_run + sm_wc_run
        ) + (
          COALESCE(
            (
              CAST((
                sm_yt_run - sm_yt
              ) AS DOUBLE) / NULLIF(CAST((
                sm_wt_run - sm_wt
              ) AS DOUBLE), 0)
            ),
            0
          ) - COALESCE(
            (
              CAST((
                sm_yc_run - sm_yc
              ) AS DOUBLE) / NULLIF(CAST((
                sm_wc_run - sm_wc
              ) AS DOUBLE), 0)
            ),
            0
          )
        ) * (
          (
            sm_wt_run - sm_wt
          ) + (
            sm_wc_run - sm_wc
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
    "country"
), sm_cells AS (
  SELECT
    "country",
    sm_step,
    MAX(sm_area) AS sm_actual_area,
    SUM(sm_cell_wt) AS sm_wt,
    SUM(sm_cell_wc) AS sm_wc,
    SUM(sm_cell_yt) AS sm_yt,
    SUM(sm_cell_yc) AS sm_yc
  FROM (
    SELECT
      "country",
      1 AS sm_step,
      sm_area,
      sm_tot_yt AS sm_cell_wt,
      0 AS sm_cell_wc,
      sm_tot_yt AS sm_cell_yt,
      0 AS sm_cell_yc
    FROM sm_slices
    UNION ALL
    SELECT
      "country",
      2 AS sm_step,
      sm_area,
      0 AS sm_cell_wt,
      sm_tot_wc - sm_tot_yc AS sm_cell_wc,
      0 AS sm_cell_yt,
      0 AS sm_cell_yc
    FROM sm_slices
    UNION ALL
    SELECT
      "country",
      CASE WHEN sm_tot_yc > sm_tot_wt - sm_tot_yt THEN 3 ELSE 4 END AS sm_step,
      sm_area,
      0 AS sm_cell_wt,
      sm_tot_yc AS sm_cell_wc,
      0 AS sm_cell_yt,
      sm_tot_yc AS sm_cell_yc
    FROM sm_slices
    UNION ALL
    SELECT
      "country",
      CASE WHEN sm_tot_yc > sm_tot_wt - sm_tot_yt THEN 4 ELSE 3 END AS sm_step,
      sm_area,
      sm_tot_wt - sm_tot_yt AS sm_cell_wt,
      0 AS sm_cell_wc,
      0 AS sm_cell_yt,
      0 AS sm_cell_yc
    FROM sm_slices
  ) AS sm_cell_rows
  GROUP BY
    "country",
    sm_step
), sm_perfect AS (
  SELECT
    "country",
    SUM(
      (
        sm_wt + sm_wc
      ) * (
        (
          COALESCE((
            CAST(sm_yt_run AS DOUBLE) / NULLIF(CAST(sm_wt_run AS DOUBLE), 0)
          ), 0) - COALESCE((
            CAST(sm_yc_run AS DOUBLE) / NULLIF(CAST(sm_wc_run AS DOUBLE), 0)
          ), 0)
        ) * (
          sm_wt_run + sm_wc_run
        ) + (
          COALESCE(
            (
              CAST((
                sm_yt_run - sm_yt
              ) AS DOUBLE) / NULLIF(CAST((
                sm_wt_run - sm_wt
              ) AS DOUBLE), 0)
            ),
            0
          ) - COALESCE(
            (
              CAST((
                sm_yc_run - sm_yc
              ) AS DOUBLE) / NULLIF(CAST((
                sm_wc_run - sm_wc
              ) AS DOUBLE), 0)
            ),
            0
          )
        ) * (
          (
            sm_wt_run - sm_wt
          ) + (
            sm_wc_run - sm_wc
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
        PARTITION BY "country"
        ORDER BY sm_step ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wt_run,
      SUM(sm_wc) OVER (
        PARTITION BY "country"
        ORDER BY sm_step ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_wc_run,
      SUM(sm_yt) OVER (
        PARTITION BY "country"
        ORDER BY sm_step ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yt_run,
      SUM(sm_yc) OVER (
        PARTITION BY "country"
        ORDER BY sm_step ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_yc_run
    FROM sm_cells
  ) AS sm_perfect_points
  GROUP BY
    "country"
)
SELECT
  "country",
  CASE
    WHEN sm_tot_wt > 0 AND sm_tot_wc > 0
    THEN (
      CAST(sm_area - (
        sm_tot_wt + sm_tot_wc
      ) * sm_end / 2 AS DOUBLE) / NULLIF(CAST(sm_perfect_area - (
        sm_tot_wt + sm_tot_wc
      ) * sm_end / 2 AS DOUBLE), 0)
    )
  END AS uplift_auc,
  sm_tot_wt AS n_treatment,
  sm_tot_wc AS n_control,
  sm_tot_yt AS responders_treatment,
  sm_tot_yc AS responders_control
FROM (
  SELECT
    sm_totals.*,
    (
      COALESCE((
        CAST(sm_tot_yt AS DOUBLE) / NULLIF(CAST(sm_tot_wt AS DOUBLE), 0)
      ), 0) - COALESCE((
        CAST(sm_tot_yc AS DOUBLE) / NULLIF(CAST(sm_tot_wc AS DOUBLE), 0)
      ), 0)
    ) * (
      sm_tot_wt + sm_tot_wc
    ) AS sm_end
  FROM sm_perfect AS sm_totals
) AS sm_ends
