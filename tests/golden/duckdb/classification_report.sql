SELECT
  "country",
  sm_key AS "class",
  CASE sm_kind WHEN 1 THEN 'micro' WHEN 2 THEN 'macro' WHEN 3 THEN 'weighted' END AS "average",
  CASE sm_kind
    WHEN 0
    THEN MAX(sm_p)
    WHEN 1
    THEN (
      CAST(SUM(sm_tp) AS DOUBLE) / NULLIF(CAST(SUM(sm_tp) + SUM(sm_fp) AS DOUBLE), 0)
    )
    WHEN 2
    THEN CASE WHEN COUNT(sm_p) = COUNT(*) THEN AVG(sm_p) END
    WHEN 3
    THEN CASE
      WHEN SUM(CASE WHEN sm_p IS NULL AND sm_support > 0 THEN 1 ELSE 0 END) = 0
      THEN COALESCE(
        (
          CAST(SUM(sm_support * sm_p) AS DOUBLE) / NULLIF(CAST(SUM(CASE WHEN NOT sm_p IS NULL THEN sm_support ELSE 0 END) AS DOUBLE), 0)
        ),
        AVG(sm_p)
      )
    END
  END AS "precision",
  CASE sm_kind
    WHEN 0
    THEN MAX(sm_r)
    WHEN 1
    THEN (
      CAST(SUM(sm_tp) AS DOUBLE) / NULLIF(CAST(SUM(sm_tp) + SUM(sm_fn) AS DOUBLE), 0)
    )
    WHEN 2
    THEN CASE WHEN COUNT(sm_r) = COUNT(*) THEN AVG(sm_r) END
    WHEN 3
    THEN CASE
      WHEN SUM(CASE WHEN sm_r IS NULL AND sm_support > 0 THEN 1 ELSE 0 END) = 0
      THEN COALESCE(
        (
          CAST(SUM(sm_support * sm_r) AS DOUBLE) / NULLIF(CAST(SUM(CASE WHEN NOT sm_r IS NULL THEN sm_support ELSE 0 END) AS DOUBLE), 0)
        ),
        AVG(sm_r)
      )
    END
  END AS "recall",
  CASE sm_kind
    WHEN 0
    THEN MAX(sm_f)
    WHEN 1
    THEN CASE
      WHEN SUM(sm_tp) > 0
      THEN (
        CAST(SUM(sm_tp) AS DOUBLE) / NULLIF(
          CAST(SUM(sm_tp) + CAST(0.5 AS DOUBLE) * SUM(sm_fn) + CAST(0.5 AS DOUBLE) * SUM(sm_fp) AS DOUBLE),
          0
        )
      )
      WHEN SUM(sm_fp) + SUM(sm_fn) > 0
      THEN CAST(0 AS DOUBLE)
    END
    WHEN 2
    THEN CASE WHEN COUNT(sm_f) = COUNT(*) THEN AVG(sm_f) END
    WHEN 3
    THEN CASE
      WHEN SUM(CASE WHEN sm_f IS NULL AND sm_support > 0 THEN 1 ELSE 0 END) = 0
      THEN COALESCE(
        (
          CAST(SUM(sm_support * sm_f) AS DOUBLE) / NULLIF(CAST(SUM(CASE WHEN NOT sm_f IS NULL THEN sm_support ELSE 0 END) AS DOUBLE), 0)
        ),
        AVG(sm_f)
      )
    END
  END AS "f1",
  SUM(sm_support) AS support
FROM (
  SELECT
    "country",
    sm_kinds.sm_kind AS sm_kind,
    CASE WHEN sm_kind = 0 THEN sm_class END AS sm_key,
    sm_tp,
    sm_fp,
    sm_fn,
    sm_support,
    (
      CAST(sm_tp AS DOUBLE) / NULLIF(CAST(sm_tp + sm_fp AS DOUBLE), 0)
    ) AS sm_p,
    (
      CAST(sm_tp AS DOUBLE) / NULLIF(CAST(sm_tp + sm_fn AS DOUBLE), 0)
    ) AS sm_r,
    CASE
      WHEN sm_tp > 0
      THEN (
        CAST(sm_tp AS DOUBLE) / NULLIF(
          CAST(sm_tp + CAST(0.5 AS DOUBLE) * sm_fn + CAST(0.5 AS DOUBLE) * sm_fp AS DOUBLE),
          0
        )
      )
      WHEN sm_fp + sm_fn > 0
      THEN CAST(0 AS DOUBLE)
    END AS sm_f
  FROM (
    SELECT
      "country",
      sm_class,
      sm_tp,
      sm_predicted - sm_tp AS sm_fp,
      sm_support - sm_tp AS sm_fn,
      SUM(sm_support) OVER (PARTITION BY "country") - (
        sm_support + sm_predicted - sm_tp
      ) AS sm_tn,
      sm_support,
      CAST(SUM(sm_class_rows) OVER (PARTITION BY "country") AS BIGINT) AS sm_rows
    FROM (
      SELECT
        "country",
        sm_class,
        SUM(CASE WHEN sm_side = 0 THEN sm_n ELSE 0 END) AS sm_support,
        SUM(CASE WHEN sm_side = 1 THEN sm_n ELSE 0 END) AS sm_predicted,
        SUM(CASE WHEN sm_side = 0 AND sm_true = sm_pred THEN sm_n ELSE 0 END) AS sm_tp,
        CAST(SUM(CASE WHEN sm_side = 0 THEN sm_rows ELSE 0 END) AS BIGINT) AS sm_class_rows
      FROM (
        SELECT
          sm_cells."country" AS "country",
          sm_sides.sm_side AS sm_side,
          CASE WHEN sm_sides.sm_side = 0 THEN sm_cells.sm_true ELSE sm_cells.sm_pred END AS sm_class,
          sm_cells.sm_true AS sm_true,
          sm_cells.sm_pred AS sm_pred,
          sm_cells.sm_n AS sm_n,
          sm_cells.sm_rows AS sm_rows
        FROM (
          SELECT
            "country",
            "category" AS sm_true,
            "predicted_category" AS sm_pred,
            SUM(
              CASE
                WHEN "category" IS NULL OR "predicted_category" IS NULL
                THEN CAST(CASE
                  WHEN COALESCE("category" IS NULL OR "predicted_category" IS NULL, TRUE)
                  THEN ERROR(
                    'sqlmetrics: a true or predicted class must not be NULL; found ' || COALESCE(CAST("category" AS TEXT), 'NULL')
                  )
                END AS DOUBLE)
                ELSE CAST("impressions" AS DOUBLE)
              END
            ) AS sm_n,
            COUNT(*) AS sm_rows
          FROM analytics.preds
          GROUP BY
            "country",
            "category",
            "predicted_category"
        ) AS sm_cells
        CROSS JOIN (
          SELECT
            0 AS sm_side
          UNION ALL
          SELECT
            1 AS sm_side
        ) AS sm_sides
      ) AS sm_sides
      GROUP BY
        "country",
        sm_class
    ) AS sm_classes
  ) AS sm_counts
  CROSS JOIN (
    SELECT
      0 AS sm_kind
    UNION ALL
    SELECT
      1 AS sm_kind
    UNION ALL
    SELECT
      2 AS sm_kind
    UNION ALL
    SELECT
      3 AS sm_kind
  ) AS sm_kinds
) AS sm_rows_by_kind
GROUP BY
  "country",
  sm_kind,
  sm_key
ORDER BY
  "country" ASC,
  sm_kind ASC,
  sm_key ASC
