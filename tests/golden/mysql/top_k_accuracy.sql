SELECT
  `country`,
  (
    CAST(SUM(sm_example_w * sm_hit) AS DOUBLE) / NULLIF(CAST(SUM(sm_example_w) AS DOUBLE), 0)
  ) AS top_k_accuracy,
  COUNT(*) AS n,
  CAST((
    SELECT
      COUNT(DISTINCT `class`)
    FROM analytics.class_scores
  ) AS SIGNED) AS n_classes
FROM (
  SELECT
    `country`,
    MAX(sm_w) AS sm_example_w,
    CASE WHEN SUM(sm_ahead) < 2 THEN 1 ELSE 0 END AS sm_hit
  FROM (
    SELECT
      `country`,
      sm_example,
      sm_w,
      CASE
        WHEN sm_true = 1
        THEN 0
        WHEN sm_score > sm_true_score
        OR (
          sm_score = sm_true_score
          AND (
            sm_class > sm_label
          ) <> (
            (
              SELECT
                COUNT(DISTINCT `class`)
              FROM analytics.class_scores
            ) = 2
          )
        )
        THEN 1
        ELSE 0
      END AS sm_ahead
    FROM (
      SELECT
        `country`,
        sm_example,
        sm_class,
        sm_score,
        sm_label,
        sm_w,
        sm_true_score,
        CASE
          WHEN sm_label_lo <> sm_label_hi
          THEN CASE
            WHEN COALESCE(sm_label_lo <> sm_label_hi, TRUE)
            THEN JSON_EXTRACT(
              '{}',
              CONCAT(
                'sqlmetrics: the label differs between the rows of an example; example; found ',
                COALESCE(CAST(sm_example AS CHAR), 'NULL')
              )
            )
          END
          WHEN sm_n_labels <> 1
          THEN CASE
            WHEN COALESCE(sm_n_labels <> 1, TRUE)
            THEN JSON_EXTRACT(
              '{}',
              CONCAT(
                'sqlmetrics: labels must have exactly one row per example; example; found ',
                COALESCE(CAST(sm_example AS CHAR), 'NULL')
              )
            )
          END
          WHEN sm_rows <> (
            SELECT
              COUNT(DISTINCT `class`)
            FROM analytics.class_scores
          )
          THEN CASE
            WHEN COALESCE(
              sm_rows <> (
                SELECT
                  COUNT(DISTINCT `class`)
                FROM analytics.class_scores
              ),
              TRUE
            )
            THEN JSON_EXTRACT(
              '{}',
              CONCAT(
                'sqlmetrics: an example lacks a row for a class of the table (each example needs one row per class); example; found ',
                COALESCE(CAST(sm_example AS CHAR), 'NULL')
              )
            )
          END
          WHEN sm_true_rows <> 1
          THEN CASE
            WHEN COALESCE(sm_true_rows <> 1, TRUE)
            THEN JSON_EXTRACT(
              '{}',
              CONCAT(
                'sqlmetrics: the label of an example is not one of the classes of the table; label; found ',
                COALESCE(CAST(sm_label AS CHAR), 'NULL')
              )
            )
          END
          WHEN sm_w_lo <> sm_w_hi
          THEN CASE
            WHEN COALESCE(sm_w_lo <> sm_w_hi, TRUE)
            THEN JSON_EXTRACT(
              '{}',
              CONCAT(
                'sqlmetrics: the weight differs between the rows of an example; example; found ',
                COALESCE(CAST(sm_example AS CHAR), 'NULL')
              )
            )
          END
          WHEN sm_class = sm_label
          THEN 1
          ELSE 0
        END AS sm_true
      FROM (
        SELECT
          sm_input.`country` AS `country`,
          sm_input.`image_id` AS sm_example,
          sm_input.`class` AS sm_class,
          CAST(sm_input.`probability` AS DOUBLE) AS sm_score,
          sm_input.`true_class` AS sm_label,
          1 AS sm_n_labels,
          CAST(sm_input.`importance` AS DOUBLE) AS sm_w,
          COUNT(*) OVER (PARTITION BY sm_input.`country`, sm_input.`image_id`) AS sm_rows,
          MIN(sm_input.`true_class`) OVER (PARTITION BY sm_input.`country`, sm_input.`image_id`) AS sm_label_lo,
          MAX(sm_input.`true_class`) OVER (PARTITION BY sm_input.`country`, sm_input.`image_id`) AS sm_label_hi,
          SUM(CASE WHEN sm_input.`class` = sm_input.`true_class` THEN 1 ELSE 0 END) OVER (PARTITION BY sm_input.`country`, sm_input.`image_id`) AS sm_true_rows,
          MIN(CAST(sm_input.`importance` AS DOUBLE)) OVER (PARTITION BY sm_input.`country`, sm_input.`image_id`) AS sm_w_lo,
          MAX(CAST(sm_input.`importance` AS DOUBLE)) OVER (PARTITION BY sm_input.`country`, sm_input.`image_id`) AS sm_w_hi,
          MAX(
            CASE
              WHEN sm_input.`class` = sm_input.`true_class`
              THEN CAST(sm_input.`probability` AS DOUBLE)
            END
          ) OVER (PARTITION BY sm_input.`country`, sm_input.`image_id`) AS sm_true_score
        FROM analytics.class_scores AS sm_input
      ) AS sm_per_example
    ) AS sm_rows
  ) AS sm_compared
  GROUP BY
    `country`,
    sm_example
) AS sm_examples
GROUP BY
  `country`
