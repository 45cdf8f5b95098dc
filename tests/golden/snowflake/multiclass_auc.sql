SELECT
  "COUNTRY",
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
      COUNT(DISTINCT "CLASS")
    FROM analytics.class_scores
  ) AS BIGINT) AS n_classes
FROM (
  SELECT
    "COUNTRY",
    "SM_CLASS",
    CAST(COALESCE(SUM(sm_cumulative.sm_n), 0) AS BIGINT) AS sm_n,
    CAST(COALESCE(SUM(sm_cumulative.sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
    SUM(sm_cumulative.sm_w_pos) AS sm_w_pos,
    SUM(sm_cumulative.sm_w_neg) AS sm_w_neg,
    SUM(
      COALESCE(sm_cumulative.sm_wins_in, 0) * (
        sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      ) + sm_cumulative.sm_w_pos * (
        COALESCE(sm_cumulative.sm_w_neg_before, 0) / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      )
    ) AS sm_wins,
    SUM(
      COALESCE(sm_cumulative.sm_ties_in, 0) * (
        sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0)
      )
    ) AS sm_ties
  FROM (
    SELECT
      sm_buckets.*,
      SUM(sm_w_neg) OVER (
        PARTITION BY "COUNTRY", "SM_CLASS"
        ORDER BY sm_bucket
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_w_neg_before,
      SUM(sm_w_neg) OVER (PARTITION BY "COUNTRY", "SM_CLASS") AS sm_w_neg_all
    FROM (
      SELECT
        "COUNTRY",
        "SM_CLASS",
        "SM_BUCKET",
        SUM(sm_in_bucket.sm_n) AS sm_n,
        SUM(sm_in_bucket.sm_n_pos) AS sm_n_pos,
        SUM(sm_in_bucket.sm_w_pos) AS sm_w_pos,
        SUM(sm_in_bucket.sm_w_neg) AS sm_w_neg,
        SUM(
          sm_in_bucket.sm_w_pos * (
            (
              COALESCE(sm_in_bucket.sm_w_neg_below, 0) + 0.5 * sm_in_bucket.sm_w_neg
            ) / NULLIF(sm_in_bucket.sm_w_neg_bucket, 0)
          )
        ) AS sm_wins_in,
        SUM(
          sm_in_bucket.sm_w_pos * (
            sm_in_bucket.sm_w_neg / NULLIF(sm_in_bucket.sm_w_neg_bucket, 0)
          )
        ) AS sm_ties_in
      FROM (
        SELECT
          sm_by_score.*,
          SUM(sm_w_neg) OVER (
            PARTITION BY "COUNTRY", "SM_CLASS", "SM_BUCKET"
            ORDER BY sm_s
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
          ) AS sm_w_neg_below,
          SUM(sm_w_neg) OVER (PARTITION BY "COUNTRY", "SM_CLASS", "SM_BUCKET") AS sm_w_neg_bucket
        FROM (
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
              CAST(sm_s AS DOUBLE) AS sm_x,
              CAST(CASE
                WHEN NOT (
                  ABS(CAST(sm_s AS DOUBLE)) >= 2.2250738585072014e-308
                  AND ABS(CAST(sm_s AS DOUBLE)) < CAST('inf' AS DOUBLE)
                )
                THEN NULL
                WHEN ABS(CAST(sm_s AS DOUBLE)) >= 8.98846567431158e307
                THEN 1023
                ELSE FLOOR((
                  LN(ABS(CAST(sm_s AS DOUBLE))) / LN(2)
                ))
              END AS DOUBLE) AS sm_e
            FROM (
              SELECT
                "COUNTRY",
                "SM_CLASS",
                sm_s,
                SUM(sm_rows) AS sm_n,
                SUM(sm_pos * sm_rows) AS sm_n_pos,
                CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS sm_w_pos,
                CAST(SUM((
                  1 - sm_pos
                ) * sm_weight) AS DOUBLE) AS sm_w_neg
              FROM (
                SELECT
                  "COUNTRY",
                  "SM_CLASS",
                  sm_s,
                  sm_rows,
                  sm_weight,
                  CASE
                    WHEN "SM_TRUE" = 1
                    THEN 1
                    WHEN "SM_TRUE" = 0
                    THEN 0
                    ELSE CAST(CASE
                      WHEN COALESCE(NOT (
                        "SM_TRUE" = 1 OR "SM_TRUE" = 0
                      ), TRUE)
                      THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("SM_TRUE" AS VARCHAR), 'NULL')
                      ELSE '0'
                    END AS BIGINT)
                  END AS sm_pos
                FROM (
                  SELECT
                    "COUNTRY",
                    "SM_CLASS",
                    "SM_TRUE",
                    "SM_SCORE" AS sm_s,
                    1 AS sm_rows,
                    CAST("SM_W" AS DOUBLE) AS sm_weight
                  FROM (
                    SELECT
                      "COUNTRY",
                      sm_example,
                      sm_class,
                      sm_score,
                      sm_label,
                      sm_w,
                      CASE
                        WHEN sm_label_lo <> sm_label_hi
                        THEN CAST(CASE
                          WHEN COALESCE(sm_label_lo <> sm_label_hi, TRUE)
                          THEN 'sqlmetrics: the label differs between the rows of an example; example; found ' || COALESCE(CAST(sm_example AS VARCHAR), 'NULL')
                          ELSE '0'
                        END AS BIGINT)
                        WHEN sm_n_labels <> 1
                        THEN CAST(CASE
                          WHEN COALESCE(sm_n_labels <> 1, TRUE)
                          THEN 'sqlmetrics: labels must have exactly one row per example; example; found ' || COALESCE(CAST(sm_example AS VARCHAR), 'NULL')
                          ELSE '0'
                        END AS BIGINT)
                        WHEN sm_rows <> (
                          SELECT
                            COUNT(DISTINCT "CLASS")
                          FROM analytics.class_scores
                        )
                        THEN CAST(CASE
                          WHEN COALESCE(
                            sm_rows <> (
                              SELECT
                                COUNT(DISTINCT "CLASS")
                              FROM analytics.class_scores
                            ),
                            TRUE
                          )
                          THEN 'sqlmetrics: an example lacks a row for a class of the table (each example needs one row per class); example; found ' || COALESCE(CAST(sm_example AS VARCHAR), 'NULL')
                          ELSE '0'
                        END AS BIGINT)
                        WHEN sm_true_rows <> 1
                        THEN CAST(CASE
                          WHEN COALESCE(sm_true_rows <> 1, TRUE)
                          THEN 'sqlmetrics: the label of an example is not one of the classes of the table; label; found ' || COALESCE(CAST(sm_label AS VARCHAR), 'NULL')
                          ELSE '0'
                        END AS BIGINT)
                        WHEN sm_w_lo <> sm_w_hi
                        THEN CAST(CASE
                          WHEN COALESCE(sm_w_lo <> sm_w_hi, TRUE)
                          THEN 'sqlmetrics: the weight differs between the rows of an example; example; found ' || COALESCE(CAST(sm_example AS VARCHAR), 'NULL')
                          ELSE '0'
                        END AS BIGINT)
                        WHEN sm_class = sm_label
                        THEN 1
                        ELSE 0
                      END AS sm_true
                    FROM (
                      SELECT
                        sm_input."COUNTRY" AS "COUNTRY",
                        sm_input."IMAGE_ID" AS sm_example,
                        sm_input."CLASS" AS sm_class,
                        CAST(sm_input."PROBABILITY" AS DOUBLE) AS sm_score,
                        sm_input."TRUE_CLASS" AS sm_label,
                        1 AS sm_n_labels,
                        CAST(sm_input."IMPORTANCE" AS DOUBLE) AS sm_w,
                        COUNT(*) OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_rows,
                        MIN(sm_input."TRUE_CLASS") OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_label_lo,
                        MAX(sm_input."TRUE_CLASS") OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_label_hi,
                        SUM(CASE WHEN sm_input."CLASS" = sm_input."TRUE_CLASS" THEN 1 ELSE 0 END) OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_true_rows,
                        MIN(CAST(sm_input."IMPORTANCE" AS DOUBLE)) OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_w_lo,
                        MAX(CAST(sm_input."IMPORTANCE" AS DOUBLE)) OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_w_hi
                      FROM analytics.class_scores AS sm_input
                    ) AS sm_per_example
                  ) AS sm_class_rows
                ) AS sm_labelled
              ) AS sm_by_label
              GROUP BY
                "COUNTRY",
                "SM_CLASS",
                sm_s
            ) AS sm_valued
          ) AS sm_exponents
        ) AS sm_by_score
      ) AS sm_in_bucket
      GROUP BY
        "COUNTRY",
        "SM_CLASS",
        "SM_BUCKET"
    ) AS sm_buckets
  ) AS sm_cumulative
  GROUP BY
    "COUNTRY",
    "SM_CLASS"
) AS sm_parts
GROUP BY
  "COUNTRY"
