SELECT
  "country",
  (
    CAST(-SUM(
      sm_w * LN(
        CASE
          WHEN sm_score < CAST(2.220446049250313e-16 AS Nullable(Float64))
          THEN CAST(2.220446049250313e-16 AS Nullable(Float64))
          WHEN sm_score > 1 - CAST(2.220446049250313e-16 AS Nullable(Float64))
          THEN 1 - CAST(2.220446049250313e-16 AS Nullable(Float64))
          ELSE sm_score
        END
      )
    ) AS Nullable(Float64)) / nullIf(CAST(SUM(sm_w) AS Nullable(Float64)), 0)
  ) AS multiclass_log_loss,
  COUNT(*) AS n,
  CAST((
    SELECT
      COUNT(DISTINCT "class")
    FROM analytics.class_scores
  ) AS Nullable(Int64)) AS n_classes
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
      THEN CAST(CASE
        WHEN COALESCE(sm_label_lo <> sm_label_hi, TRUE)
        THEN 'sqlmetrics: the label differs between the rows of an example; example; found ' || COALESCE(CAST(sm_example AS Nullable(String)), 'NULL')
        ELSE '0'
      END AS Int64)
      WHEN sm_n_labels <> 1
      THEN CAST(CASE
        WHEN COALESCE(sm_n_labels <> 1, TRUE)
        THEN 'sqlmetrics: labels must have exactly one row per example; example; found ' || COALESCE(CAST(sm_example AS Nullable(String)), 'NULL')
        ELSE '0'
      END AS Int64)
      WHEN sm_rows <> (
        SELECT
          COUNT(DISTINCT "class")
        FROM analytics.class_scores
      )
      THEN CAST(CASE
        WHEN COALESCE(
          sm_rows <> (
            SELECT
              COUNT(DISTINCT "class")
            FROM analytics.class_scores
          ),
          TRUE
        )
        THEN 'sqlmetrics: an example lacks a row for a class of the table (each example needs one row per class); example; found ' || COALESCE(CAST(sm_example AS Nullable(String)), 'NULL')
        ELSE '0'
      END AS Int64)
      WHEN sm_true_rows <> 1
      THEN CAST(CASE
        WHEN COALESCE(sm_true_rows <> 1, TRUE)
        THEN 'sqlmetrics: the label of an example is not one of the classes of the table; label; found ' || COALESCE(CAST(sm_label AS Nullable(String)), 'NULL')
        ELSE '0'
      END AS Int64)
      WHEN sm_w_lo <> sm_w_hi
      THEN CAST(CASE
        WHEN COALESCE(sm_w_lo <> sm_w_hi, TRUE)
        THEN 'sqlmetrics: the weight differs between the rows of an example; example; found ' || COALESCE(CAST(sm_example AS Nullable(String)), 'NULL')
        ELSE '0'
      END AS Int64)
      WHEN ABS(sm_score_sum - 1) > 1e-6
      THEN CAST(CASE
        WHEN COALESCE(ABS(sm_score_sum - 1) > 1e-6, TRUE)
        THEN 'sqlmetrics: the scores of an example must be probabilities summing to 1 within 1e-6; their sum; found ' || COALESCE(CAST(sm_score_sum AS Nullable(String)), 'NULL')
        ELSE '0'
      END AS Int64)
      WHEN sm_class = sm_label
      THEN 1
      ELSE 0
    END AS sm_true
  FROM (
    SELECT
      sm_input."country" AS "country",
      sm_input."image_id" AS sm_example,
      sm_input."class" AS sm_class,
      CAST(sm_input."probability" AS Nullable(Float64)) AS sm_score,
      sm_input."true_class" AS sm_label,
      1 AS sm_n_labels,
      CAST(sm_input."importance" AS Nullable(Float64)) AS sm_w,
      COUNT(*) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_rows,
      MIN(sm_input."true_class") OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_label_lo,
      MAX(sm_input."true_class") OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_label_hi,
      SUM(CASE WHEN sm_input."class" = sm_input."true_class" THEN 1 ELSE 0 END) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_true_rows,
      MIN(CAST(sm_input."importance" AS Nullable(Float64))) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_w_lo,
      MAX(CAST(sm_input."importance" AS Nullable(Float64))) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_w_hi,
      SUM(CAST(sm_input."probability" AS Nullable(Float64))) OVER (PARTITION BY sm_input."country", sm_input."image_id") AS sm_score_sum
    FROM analytics.class_scores AS sm_input
  ) AS sm_per_example
) AS sm_rows
WHERE
  sm_true = 1
GROUP BY
  "country"
