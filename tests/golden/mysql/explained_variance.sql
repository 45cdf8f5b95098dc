WITH sm_means AS (
  SELECT
    `country`,
    (
      CAST(SUM(sm_w * sm_t) AS DOUBLE) / NULLIF(CAST(SUM(sm_w) AS DOUBLE), 0)
    ) AS sm_mean_t,
    (
      CAST(SUM(sm_w * (
        sm_t - sm_p
      )) AS DOUBLE) / NULLIF(CAST(SUM(sm_w) AS DOUBLE), 0)
    ) AS sm_mean_d
  FROM (
    SELECT
      `country`,
      CAST(`revenue` AS DOUBLE) AS sm_t,
      CAST(`predicted_revenue` AS DOUBLE) AS sm_p,
      CAST(`impressions` AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    `country`
)
SELECT
  `country`,
  CASE
    WHEN NOT (
      sm_weight > 0
    )
    THEN NULL
    WHEN sm_d_low = sm_d_high
    THEN 1.0
    WHEN sm_t_low = sm_t_high
    THEN 0.0
    ELSE 1 - (
      CAST(sm_d_squares AS DOUBLE) / NULLIF(CAST(sm_t_squares AS DOUBLE), 0)
    )
  END AS explained_variance,
  n
FROM (
  SELECT
    sm_rows.`country` AS `country`,
    SUM(
      sm_rows.sm_w * (
        sm_rows.sm_t - sm_rows.sm_p - sm_means.sm_mean_d
      ) * (
        sm_rows.sm_t - sm_rows.sm_p - sm_means.sm_mean_d
      )
    ) AS sm_d_squares,
    SUM(
      sm_rows.sm_w * (
        sm_rows.sm_t - sm_means.sm_mean_t
      ) * (
        sm_rows.sm_t - sm_means.sm_mean_t
      )
    ) AS sm_t_squares,
    SUM(sm_rows.sm_w) AS sm_weight,
    MIN(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t - sm_rows.sm_p END) AS sm_d_low,
    MAX(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t - sm_rows.sm_p END) AS sm_d_high,
    MIN(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t END) AS sm_t_low,
    MAX(CASE WHEN sm_rows.sm_w > 0 THEN sm_rows.sm_t END) AS sm_t_high,
    COUNT(*) AS n
  FROM (
    SELECT
      `country`,
      CAST(`revenue` AS DOUBLE) AS sm_t,
      CAST(`predicted_revenue` AS DOUBLE) AS sm_p,
      CAST(`impressions` AS DOUBLE) AS sm_w
    FROM analytics.preds
  ) AS sm_rows
  JOIN sm_means
    ON (
      sm_rows.`country` <=> sm_means.`country`
    )
  GROUP BY
    sm_rows.`country`
) AS sm_sums
