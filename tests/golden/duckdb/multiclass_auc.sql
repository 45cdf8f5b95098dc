SELECT
  "country",
  CASE
    WHEN COUNT((
      CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
    )) = COUNT(*)
    THEN AVG((
      CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
    ))
  END AS multiclass_auc,
  CAST(MAX(sm_n) AS BIGINT) AS n,
  CAST((
    SELECT
      COUNT(DISTINCT "class")
    FROM analytics.class_scores
  ) AS BIGINT) AS n_classes
FROM (
  SELECT
    "country",
    "sm_class",
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
        PARTITION BY "country", "sm_class"
        ORDER BY sm_s ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_w_neg_below,
      SUM(sm_w_neg) OVER (PARTITION BY "country", "sm_class") AS sm_w_neg_all
    FROM (
      SELECT
        "country",
        "sm_class",
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
          "sm_class",
          sm_s,
          sm_rows,
          sm_weight,
          CASE
            WHEN "sm_true" = 1
            THEN 1
            WHEN "sm_true" = 0
            THEN 0
            ELSE CASE
              WHEN COALESCE(NOT (
                "sm_true" = 1 OR "sm_true" = 0
              ), TRUE)
              THEN ERROR(
                'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("sm_true" AS TEXT), 'NULL')
              )
            END
          END AS sm_pos
        FROM (
          SELECT
            "country",
            "sm_class",
            "sm_true",
            "sm_score" AS sm_s,
            COUNT(*) AS sm_rows,
            SUM(CAST("sm_w" AS DOUBLE)) AS sm_weight
          FROM (
            SELECT
              "country",
              sm_example,
              sm_class,
              sm_score,
              sm_label,
              sm_w,
              CASE
                WHEN sm_label_lo <> sm_label_hi
                THEN CASE
                  WHEN COALESCE(sm_label_lo <> sm_label_hi, TRUE)
                  THEN ERROR(
                    'sqlmetrics: the label differs between the rows of an example; example; found ' || COALESCE(CAST(sm_example AS TEXT), 'NULL')
                  )
                END
                WHEN sm_n_labels <> 1
                THEN CASE
                  WHEN COALESCE(sm_n_labels <> 1, TRUE)
                  THEN ERROR(
                    'sqlmetrics: labels must have exactly one row per example; example; found ' || COALESCE(CAST(sm_example AS TEXT), 'NULL')
                  )
                END
                WHEN sm_rows <> (
                  SELECT
                    COUNT(DISTINCT "class")
                  FROM analytics.class_scores
                )
                THEN CASE
                  WHEN COALESCE(
                    sm_rows <> (
                      SELECT
                        COUNT(DISTINCT "class")
                      FROM analytics.class_scores
                    ),
                    TRUE
                  )
                  THEN ERROR(
                    'sqlmetrics: an example lacks a row for a class of the table (each example needs one row per class); example; found ' || COALESCE(CAST(sm_example AS TEXT), 'NULL')
                  )
                END
                WHEN sm_true_rows <> 1
                THEN CASE
                  WHEN COALESCE(sm_true_rows <> 1, TRUE)
                  THEN ERROR(
                    'sqlmetrics: the label of an example is not one of the classes of the table; label; found ' || COALESCE(CAST(sm_label AS TEXT), 'NULL')
                  )
                END
                WHEN sm_w_lo <> sm_w_hi
                THEN CASE
                  WHEN COALESCE(sm_w_lo <> sm_w_hi, TRUE)
                  THEN ERROR(
                    'sqlmetrics: the weight differs between the rows of an example; example; found ' || COALESCE(CAST(sm_example AS TEXT), 'NULL')
                  )
                END
                WHEN sm_class = sm_label
                THEN 1
                ELSE 0
              END AS sm_true
            FROM (
              SELECT
                sm_input."country" AS "country",
                sm_input."image_id" AS sm_example,
                sm_input."class" AS sm_class,
                CAST(sm_input."probability" AS DOUBLE) AS sm_score,
                sm_input."true_class" AS sm_label,
                1 AS sm_n_labels,
                CAST(sm_input."importance" AS DOUBLE) AS sm_w,
                COUNT(*) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_rows,
                MIN(sm_input."true_class") OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_label_lo,
                MAX(sm_input."true_class") OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_label_hi,
                SUM(CASE WHEN sm_input."class" = sm_input."true_class" THEN 1 ELSE 0 END) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_true_rows,
                MIN(CAST(sm_input."importance" AS DOUBLE)) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_w_lo,
                MAX(CAST(sm_input."importance" AS DOUBLE)) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_w_hi
              FROM analytics.class_scores AS sm_input
            ) AS sm_per_example
          ) AS sm_class_rows
          GROUP BY
            "country",
            "sm_class",
            "sm_score",
            "sm_true"
        ) AS sm_labelled
      ) AS sm_by_label
      GROUP BY
        "country",
        "sm_class",
        sm_s
    ) AS sm_by_score
  ) AS sm_cumulative
  GROUP BY
    "country",
    "sm_class"
) AS sm_parts
GROUP BY
  "country"
