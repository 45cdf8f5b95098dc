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
            THEN JSON_EXTRACT(
              '{}',
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
          SUM(CAST("impressions" AS REAL)) AS sm_weight
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
), sm_placements AS (
  SELECT
    "country",
    threshold,
    sm_n_at,
    sm_n_pos_at,
    sm_pos,
    sm_neg,
    (
      CAST(sm_tp_at AS REAL) / NULLIF(CAST(sm_pos AS REAL), 0)
    ) AS sm_share10,
    (
      CAST(sm_fp_at AS REAL) / NULLIF(CAST(sm_neg AS REAL), 0)
    ) AS sm_share01,
    (
      CAST(sm_neg - fp + 0.5 * sm_fp_at AS REAL) / NULLIF(CAST(sm_neg AS REAL), 0)
    ) AS sm_v10,
    (
      CAST(tp - 0.5 * sm_tp_at AS REAL) / NULLIF(CAST(sm_pos AS REAL), 0)
    ) AS sm_v01
  FROM sm_points
), sm_slice_auc AS (
  SELECT
    "country",
    SUM(sm_auc_part) OVER (PARTITION BY "country") AS sm_auc,
    CAST(SUM(sm_n_pos_part) OVER (PARTITION BY "country") AS INTEGER) AS sm_n_pos,
    CAST(SUM(sm_n_neg_part) OVER (PARTITION BY "country") AS INTEGER) AS sm_n_neg
  FROM (
    SELECT
      "country",
      SUM(sm_share10 * sm_v10) AS sm_auc_part,
      SUM(sm_n_pos_at) AS sm_n_pos_part,
      SUM(sm_n_at - sm_n_pos_at) AS sm_n_neg_part
    FROM sm_placements
    GROUP BY
      "country"
  ) AS sm_parts
), sm_placed AS (
  SELECT
    sm_placements.*,
    sm_slice_auc.sm_auc,
    sm_slice_auc.sm_n_pos,
    sm_slice_auc.sm_n_neg
  FROM sm_placements
  JOIN sm_slice_auc
    ON (
      sm_placements."country" IS sm_slice_auc."country"
    )
), sm_spread AS (
  SELECT
    "country",
    MAX(sm_auc) AS sm_estimate,
    MAX(sm_n_pos) AS sm_positives,
    MAX(sm_n_neg) AS sm_negatives,
    MAX(sm_pos) AS sm_w_pos,
    MAX(sm_neg) AS sm_w_neg,
    SUM(sm_share10 * (
      sm_v10 - sm_auc
    ) * (
      sm_v10 - sm_auc
    )) AS sm_ss10,
    SUM(sm_share01 * (
      sm_v01 - sm_auc
    ) * (
      sm_v01 - sm_auc
    )) AS sm_ss01
  FROM sm_placed
  GROUP BY
    "country"
), sm_error AS (
  SELECT
    sm_spread.*,
    CASE
      WHEN sm_w_pos > 1 AND sm_w_neg > 1
      THEN SQRT(
        (
          CAST(sm_ss10 AS REAL) / NULLIF(CAST(sm_w_pos - 1 AS REAL), 0)
        ) + (
          CAST(sm_ss01 AS REAL) / NULLIF(CAST(sm_w_neg - 1 AS REAL), 0)
        )
      )
    END AS sm_se
  FROM sm_spread
)
SELECT
  "country",
  sm_estimate AS auc,
  sm_se AS std_error,
  CASE
    WHEN sm_estimate - CAST(1.95996398454005405e+00 AS REAL) * sm_se < 0
    THEN 0
    ELSE sm_estimate - CAST(1.95996398454005405e+00 AS REAL) * sm_se
  END AS ci_low,
  CASE
    WHEN sm_estimate + CAST(1.95996398454005405e+00 AS REAL) * sm_se > 1
    THEN 1
    ELSE sm_estimate + CAST(1.95996398454005405e+00 AS REAL) * sm_se
  END AS ci_high,
  sm_positives AS n_pos,
  sm_negatives AS n_neg
FROM sm_error
