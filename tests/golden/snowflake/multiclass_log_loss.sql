SELECT
  "COUNTRY",
  (
    CAST(-SUM(
      sm_w * LN(
        CASE
          WHEN sm_score < CAST(2.220446049250313e-16 AS DOUBLE)
          THEN CAST(2.220446049250313e-16 AS DOUBLE)
          WHEN sm_score > 1 - CAST(2.220446049250313e-16 AS DOUBLE)
          THEN 1 - CAST(2.220446049250313e-16 AS DOUBLE)
          ELSE sm_score
        END
      )
    ) AS DOUBLE) / NULLIF(CAST(SUM(sm_w) AS DOUBLE), 0)
  ) AS multiclass_log_loss,
  COUNT(*) AS n,
  CAST((
    SELECT
      COUNT(DISTINCT "CLASS")
    FROM analytics.class_scores
  ) AS BIGINT) AS n_classes
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
      WHEN ABS(sm_score_sum - 1) > 1e-6
      THEN CAST(CASE
        WHEN COALESCE(ABS(sm_score_sum - 1) > 1e-6, TRUE)
        THEN 'sqlmetrics: the scores of an example must be probabilities summing to 1 within 1e-6; their sum; found ' || COALESCE(CAST(sm_score_sum AS VARCHAR), 'NULL')
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
      MAX(CAST(sm_input."IMPORTANCE" AS DOUBLE)) OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_w_hi,
      SUM(CAST(sm_input."PROBABILITY" AS DOUBLE)) OVER (PARTITION BY sm_input."COUNTRY", sm_input."IMAGE_ID") AS sm_score_sum
    FROM analytics.class_scores AS sm_input
  ) AS sm_per_example
) AS sm_rows
WHERE
  sm_true = 1
GROUP BY
  "COUNTRY"
