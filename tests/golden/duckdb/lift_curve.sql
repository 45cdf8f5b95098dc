SELECT
  "country",
  bin,
  share,
  lift,
  bin_lift,
  threshold,
  n,
  n_pos
FROM (
  WITH sm_at AS (
    SELECT
      sm_sums.*
    FROM (
      SELECT
        "country",
        threshold,
        SUM(sm_rows) AS sm_n_at,
        SUM(sm_pos * sm_rows) AS sm_n_pos_at,
        SUM(sm_pos * sm_weight) AS sm_tp_at,
        SUM((
          1 - sm_pos
        ) * sm_weight) AS sm_fp_at
      FROM (
        SELECT
          "country",
          threshold,
          sm_rows,
          sm_weight,
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
          END AS sm_pos
        FROM (
          SELECT
            "country",
            "clicked",
            "pctr" AS threshold,
            COUNT(*) AS sm_rows,
            SUM(CAST("impressions" AS DOUBLE)) AS sm_weight
          FROM analytics.preds
          GROUP BY
            "country",
            "pctr",
            "clicked"
        ) AS sm_labelled
      ) AS sm_by_label
      GROUP BY
        "country",
        threshold
    ) AS sm_sums
  ), sm_running AS (
    SELECT
      "country",
      threshold,
      sm_n_at,
      sm_n_pos_at,
      sm_tp_at,
      SUM(sm_tp_at) OVER (
        PARTITION BY "country"
        ORDER BY threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_tp_at_run,
      SUM(sm_tp_at) OVER (PARTITION BY "country") AS sm_tp_at_all,
      sm_fp_at,
      SUM(sm_fp_at) OVER (
        PARTITION BY "country"
        ORDER BY threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_fp_at_run,
      SUM(sm_fp_at) OVER (PARTITION BY "country") AS sm_fp_at_all
    FROM sm_at
  ), sm_points AS (
    SELECT
      "country",
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
  )
  SELECT
    "country",
    bin,
    (
      CAST(sm_w_run AS DOUBLE) / NULLIF(CAST(sm_w_all AS DOUBLE), 0)
    ) AS share,
    (
      CAST(sm_pos_run AS DOUBLE) / NULLIF(CAST(sm_pos_all AS DOUBLE), 0)
    ) AS gain,
    (
      CAST((
        CAST(sm_pos_run AS DOUBLE) / NULLIF(CAST(sm_pos_all AS DOUBLE), 0)
      ) AS DOUBLE) / NULLIF(
        CAST((
          CAST(sm_w_run AS DOUBLE) / NULLIF(CAST(sm_w_all AS DOUBLE), 0)
        ) AS DOUBLE),
        0
      )
    ) AS lift,
    (
      CAST((
        CAST(sm_pos_in AS DOUBLE) / NULLIF(CAST(sm_w_in AS DOUBLE), 0)
      ) AS DOUBLE) / NULLIF(
        CAST((
          CAST(sm_pos_all AS DOUBLE) / NULLIF(CAST(sm_w_all AS DOUBLE), 0)
        ) AS DOUBLE),
        0
      )
    ) AS bin_lift,
    sm_lowest AS threshold,
    n,
    n_pos
  FROM (
    SELECT
      "country",
      sm_bin AS bin,
      MAX(tp + fp) AS sm_w_run,
      MAX(tp) AS sm_pos_run,
      MAX(sm_pos + sm_neg) AS sm_w_all,
      MAX(sm_pos) AS sm_pos_all,
      SUM(sm_tp_at + sm_fp_at) AS sm_w_in,
      SUM(sm_tp_at) AS sm_pos_in,
      MIN(threshold) AS sm_lowest,
      CAST(SUM(sm_n_at) AS BIGINT) AS n,
      CAST(SUM(sm_n_pos_at) AS BIGINT) AS n_pos
    FROM (
      SELECT
        sm_points.*,
        CAST(CASE
          WHEN FLOOR(
            (
              CAST(10 * (
                tp - sm_tp_at + fp - sm_fp_at
              ) AS DOUBLE) / NULLIF(CAST(sm_pos + sm_neg AS DOUBLE), 0)
            )
          ) >= 10
          THEN 10
          ELSE FLOOR(
            (
              CAST(10 * (
                tp - sm_tp_at + fp - sm_fp_at
              ) AS DOUBLE) / NULLIF(CAST(sm_pos + sm_neg AS DOUBLE), 0)
            )
          ) + 1
        END AS BIGINT) AS sm_bin
      FROM sm_points
    ) AS sm_binned
    GROUP BY
      "country",
      sm_bin
  ) AS sm_per_bin
) AS sm_lifts
ORDER BY
  "country" ASC,
  bin ASC
