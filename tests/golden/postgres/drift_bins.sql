WITH sm_windows AS (
  SELECT
    0 AS sm_window,
    "country",
    "age",
    "basket_value",
    "sessions",
    "device",
    "sample_weight"
  FROM analytics.features_last_month
  UNION ALL
  SELECT
    1 AS sm_window,
    "country",
    "age",
    "basket_value",
    "sessions",
    "device",
    "sample_weight"
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
    "country",
    sm_window,
    sm_column,
    CAST("sample_weight" AS DOUBLE PRECISION) AS sm_w,
    CASE sm_column
      WHEN 0
      THEN CAST("age" AS DOUBLE PRECISION)
      WHEN 1
      THEN CAST("basket_value" AS DOUBLE PRECISION)
      WHEN 2
      THEN CAST("sessions" AS DOUBLE PRECISION)
    END AS sm_value,
    CASE sm_column WHEN 3 THEN CAST("device" AS TEXT) COLLATE "C" END AS sm_category
  FROM sm_windows
  CROSS JOIN sm_columns
), sm_values AS (
  SELECT
    "country",
    "sm_column",
    sm_value,
    sm_category,
    CASE WHEN NOT sm_value IS NULL THEN 1 WHEN NOT sm_category IS NULL THEN 2 ELSE 0 END AS sm_known,
    SUM(1 - sm_window) AS sm_n_ref,
    SUM(sm_window) AS sm_n_cur,
    SUM(CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END) AS sm_w_ref,
    SUM(CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END) AS sm_w_cur
  FROM sm_long
  GROUP BY
    "country",
    "sm_column",
    "sm_value",
    "sm_category"
), sm_sorted AS (
  SELECT
    "country",
    "sm_column",
    sm_value,
    sm_category,
    sm_known,
    sm_n_ref,
    sm_n_cur,
    sm_w_ref,
    sm_w_cur,
    SUM(sm_n_ref) OVER (
      PARTITION BY "country", "sm_column"
      ORDER BY sm_value
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_ref AS sm_ref_before,
    SUM(sm_n_cur) OVER (
      PARTITION BY "country", "sm_column"
      ORDER BY sm_value
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - sm_n_cur AS sm_cur_before,
    (
      CAST(SUM(sm_w_ref) OVER (
        PARTITION BY "country", "sm_column"
        ORDER BY sm_value
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE PRECISION) / NULLIF(
        CAST(SUM(sm_w_ref) OVER (PARTITION BY "country", "sm_column") AS DOUBLE PRECISION),
        0
      )
    ) AS sm_f_ref,
    (
      CAST(SUM(sm_w_cur) OVER (
        PARTITION BY "country", "sm_column"
        ORDER BY sm_value
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS DOUBLE PRECISION) / NULLIF(
        CAST(SUM(sm_w_cur) OVER (PARTITION BY "country", "sm_column") AS DOUBLE PRECISION),
        0
      )
    ) AS sm_f_cur,
    LEAD(sm_value) OVER (PARTITION BY "country", "sm_column" ORDER BY sm_value) - sm_value AS sm_gap,
    (
      CAST(SUM(sm_w_ref * sm_value) OVER (PARTITION BY "country", "sm_column") AS DOUBLE PRECISION) / NULLIF(
        CAST(SUM(sm_w_ref) OVER (PARTITION BY "country", "sm_column") AS DOUBLE PRECISION),
        0
      )
    ) AS sm_ref_mean,
    SUM(sm_w_ref) OVER (
      PARTITION BY "country", "sm_column"
      ORDER BY sm_value
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS sm_ref_upto,
    SUM(sm_w_ref) OVER (PARTITION BY "country", "sm_column") AS sm_ref_total,
    MIN(CASE WHEN sm_n_ref > 0 THEN sm_value END) OVER (PARTITION BY "country", "sm_column") AS sm_ref_lo,
    MAX(CASE WHEN sm_n_ref > 0 THEN sm_value END) OVER (PARTITION BY "country", "sm_column") AS sm_ref_hi
  FROM sm_values
  WHERE
    NOT sm_value IS NULL
  UNION ALL
  SELECT
    "country",
    "sm_column",
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
      THEN FLOOR(
        (
          CAST(10 * sm_ref_upto AS DOUBLE PRECISION) / NULLIF(CAST(sm_ref_total AS DOUBLE PRECISION), 0)
        )
      )
    END AS sm_floor
  FROM sm_sorted
), sm_parts AS (
  SELECT
    "country",
    "sm_column",
    sm_known,
    sm_bin,
    sm_category,
    MIN(sm_value) AS sm_low,
    MAX(sm_value) AS sm_high,
    SUM(sm_n_ref) AS sm_n_ref_in,
    SUM(sm_n_cur) AS sm_n_cur_in,
    SUM(sm_w_ref) AS sm_w_ref_in,
    SUM(sm_w_cur) AS sm_w_cur_in
  FROM (
    SELECT
      sm_placed.*,
      CASE WHEN sm_floor >= 9 THEN 9 ELSE sm_floor END AS sm_bin
    FROM sm_placed
  ) AS sm_capped
  GROUP BY
    "country",
    "sm_column",
    "sm_known",
    "sm_bin",
    "sm_category"
), sm_bins AS (
  SELECT
    "country",
    "sm_column",
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
)
SELECT
  "country",
  sm_column + 1 AS column_index,
  CAST(sm_bin AS BIGINT) AS bin,
  sm_category AS category,
  sm_low AS low,
  sm_high AS high,
  CAST(sm_n_ref AS BIGINT) AS n_reference,
  CAST(sm_n_cur AS BIGINT) AS n_current,
  (
    CAST(sm_w_ref AS DOUBLE PRECISION) / NULLIF(
      CAST(SUM(sm_w_ref) OVER (PARTITION BY "country", "sm_column") AS DOUBLE PRECISION),
      0
    )
  ) AS share_reference,
  (
    CAST(sm_w_cur AS DOUBLE PRECISION) / NULLIF(
      CAST(SUM(sm_w_cur) OVER (PARTITION BY "country", "sm_column") AS DOUBLE PRECISION),
      0
    )
  ) AS share_current
FROM sm_bins
ORDER BY
  "country",
  column_index,
  bin,
  category
