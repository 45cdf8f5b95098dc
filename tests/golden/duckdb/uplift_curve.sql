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
)
SELECT
  "country",
  threshold,
  n,
  uplift,
  n_treatment,
  n_control,
  responders_treatment,
  responders_control
FROM (
  SELECT
    "country",
    CAST('inf' AS DOUBLE) AS threshold,
    MIN(0) AS n,
    CAST(MIN(0) AS DOUBLE) AS uplift,
    MIN(0) AS n_treatment,
    MIN(0) AS n_control,
    MIN(0) AS responders_treatment,
    MIN(0) AS responders_control
  FROM sm_points
  GROUP BY
    "country"
  UNION ALL
  SELECT
    "country",
    threshold,
    sm_wt_run + sm_wc_run AS n,
    (
      COALESCE((
        CAST(sm_yt_run AS DOUBLE) / NULLIF(CAST(sm_wt_run AS DOUBLE), 0)
      ), 0) - COALESCE((
        CAST(sm_yc_run AS DOUBLE) / NULLIF(CAST(sm_wc_run AS DOUBLE), 0)
      ), 0)
    ) * (
      sm_wt_run + sm_wc_run
    ) AS uplift,
    sm_wt_run AS n_treatment,
    sm_wc_run AS n_control,
    sm_yt_run AS responders_treatment,
    sm_yc_run AS responders_control
  FROM sm_points
  WHERE
    sm_wt + sm_wc > 0
) AS sm_curve
ORDER BY
  "country" ASC,
  threshold DESC,
  n ASC
