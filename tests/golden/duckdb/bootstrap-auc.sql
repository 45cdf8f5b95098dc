WITH sm_replicated AS (
  WITH sm_units AS (
    SELECT
      sm_occurrences.*,
      CAST(HASH("country", "impressions", "clicked", "pctr", "sm_occurrence") % 2147483647 AS BIGINT) AS sm_unit
    FROM (
      SELECT
        "country",
        "impressions",
        "clicked",
        "pctr",
        ROW_NUMBER() OVER (PARTITION BY "country", "impressions", "clicked", "pctr" ORDER BY "country" ASC) AS sm_occurrence
      FROM analytics.preds
    ) AS sm_occurrences
  ), sm_labelled AS (
    SELECT
      "country",
      sm_unit,
      "pctr" AS sm_s,
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
      END AS sm_pos,
      CAST("impressions" AS DOUBLE) AS sm_weight
    FROM sm_units
  ), sm_slices AS (
    SELECT
      "country",
      CASE WHEN 2 * SUM(sm_pos) <= COUNT(*) THEN 1 ELSE 0 END AS sm_anchor_positive,
      COUNT(*) AS sm_rows,
      MAX(sm_weight) AS sm_largest
    FROM sm_labelled
    GROUP BY
      "country"
  ), sm_anchored AS (
    SELECT
      sm_labelled."country" AS "country",
      sm_unit,
      sm_s,
      (
        CAST(sm_weight AS DOUBLE) / NULLIF(CAST(sm_largest AS DOUBLE), 0)
      ) AS sm_share,
      sm_anchor_positive,
      sm_rows,
      CASE WHEN sm_anchor_positive = 1 THEN sm_pos ELSE 1 - sm_pos END AS sm_a
    FROM sm_labelled
    JOIN sm_slices
      ON (
        sm_labelled."country" IS NOT DISTINCT FROM sm_slices."country"
      )
  ), sm_scored AS (
    SELECT
      sm_anchored.*,
      AVG(CAST(sm_a AS DOUBLE)) OVER (PARTITION BY "country" ORDER BY sm_s ASC RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS sm_score_anchors,
      RANK() OVER (PARTITION BY "country" ORDER BY sm_s ASC) AS sm_rank
    FROM sm_anchored
  ), sm_typed AS (
    SELECT
      sm_scored.*,
      CASE WHEN sm_score_anchors > 0 AND sm_score_anchors < 1 THEN 2 ELSE 1 - sm_a END AS sm_type
    FROM sm_scored
  ), sm_keyed AS (
    SELECT
      "country",
      sm_unit,
      sm_s,
      sm_anchor_positive,
      sm_rows,
      sm_a,
      sm_a * sm_share AS sm_anchor_share,
      (
        1 - sm_a
      ) * sm_share AS sm_other_share,
      (
        (
          sm_unit + 1
        ) * 48271
      ) % 2147483647 AS sm_unit_seeded,
      CASE sm_type
        WHEN 2
        THEN 2 * sm_rank
        WHEN 0
        THEN 2 * COALESCE(
          MAX(CASE WHEN sm_type <> 0 THEN sm_rank END) OVER (
            PARTITION BY "country"
            ORDER BY sm_s ASC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ),
          0
        ) + 1
        ELSE 2 * COALESCE(
          MAX(CASE WHEN sm_type <> 1 THEN sm_rank END) OVER (
            PARTITION BY "country"
            ORDER BY sm_s ASC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ),
          0
        ) + 1
      END AS sm_key
    FROM sm_typed
  ), sm_chunks AS (
    SELECT
      sm_replicate AS sm_chunk,
      (
        CAST(sm_replicate * 8 + 0 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset0,
      (
        CAST(sm_replicate * 8 + 1 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset1,
      (
        CAST(sm_replicate * 8 + 2 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset2,
      (
        CAST(sm_replicate * 8 + 3 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset3,
      (
        CAST(sm_replicate * 8 + 4 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset4,
      (
        CAST(sm_replicate * 8 + 5 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset5,
      (
        CAST(sm_replicate * 8 + 6 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset6,
      (
        CAST(sm_replicate * 8 + 7 AS BIGINT) * 1000003 * 48271
      ) % 2147483647 AS sm_offset7
    FROM (
      SELECT
        sm_replicate
      FROM (
        SELECT
          sm_d0.sm_digit * 1 + sm_d1.sm_digit * 10 AS sm_replicate
        FROM (
          SELECT
            0 AS sm_digit
          UNION ALL
          SELECT
            1
          UNION ALL
          SELECT
            2
          UNION ALL
          SELECT
            3
          UNION ALL
          SELECT
            4
          UNION ALL
          SELECT
            5
          UNION ALL
          SELECT
            6
          UNION ALL
          SELECT
            7
          UNION ALL
          SELECT
            8
          UNION ALL
          SELECT
            9
        ) AS sm_d0
        CROSS JOIN (
          SELECT
            0 AS sm_digit
          UNION ALL
          SELECT
            1
          UNION ALL
          SELECT
            2
          UNION ALL
          SELECT
            3
          UNION ALL
          SELECT
            4
          UNION ALL
          SELECT
            5
          UNION ALL
          SELECT
            6
          UNION ALL
          SELECT
            7
          UNION ALL
          SELECT
            8
          UNION ALL
          SELECT
            9
        ) AS sm_d1
      ) AS sm_numbers
      WHERE
        sm_replicate <= 25
    ) AS sm_chunk_numbers
  ), sm_key_sums AS (
    SELECT
      "country",
      "sm_chunk",
      "sm_anchor_positive",
      "sm_rows",
      sm_key,
      SUM(sm_k0 * sm_anchor_share) AS sm_anchor0,
      SUM(sm_k0 * sm_other_share) AS sm_other0,
      SUM(sm_k1 * sm_anchor_share) AS sm_anchor1,
      SUM(sm_k1 * sm_other_share) AS sm_other1,
      SUM(sm_k2 * sm_anchor_share) AS sm_anchor2,
      SUM(sm_k2 * sm_other_share) AS sm_other2,
      SUM(sm_k3 * sm_anchor_share) AS sm_anchor3,
      SUM(sm_k3 * sm_other_share) AS sm_other3,
      SUM(sm_k4 * sm_anchor_share) AS sm_anchor4,
      SUM(sm_k4 * sm_other_share) AS sm_other4,
      SUM(sm_k5 * sm_anchor_share) AS sm_anchor5,
      SUM(sm_k5 * sm_other_share) AS sm_other5,
      SUM(sm_k6 * sm_anchor_share) AS sm_anchor6,
      SUM(sm_k6 * sm_other_share) AS sm_other6,
      SUM(sm_k7 * sm_anchor_share) AS sm_anchor7,
      SUM(sm_k7 * sm_other_share) AS sm_other7
    FROM (
      SELECT
        "country",
        "sm_chunk",
        "sm_anchor_positive",
        "sm_rows",
        sm_key,
        sm_s,
        sm_anchor_share,
        sm_other_share,
        CASE
          WHEN sm_chunk = 0
          THEN 1
          ELSE CASE
            WHEN sm_u0 < 0.36787944117144233
            THEN 0
            WHEN sm_u0 < 0.73575888234288467
            THEN 1
            WHEN sm_u0 < 0.91969860292860584
            THEN 2
            WHEN sm_u0 < 0.98101184312384626
            THEN 3
            WHEN sm_u0 < 0.99634015317265634
            THEN 4
            WHEN sm_u0 < 0.99940581518241833
            THEN 5
            WHEN sm_u0 < 0.99991675885071196
            THEN 6
            WHEN sm_u0 < 0.99998975080332531
            THEN 7
            WHEN sm_u0 < 0.99999887479740202
            THEN 8
            WHEN sm_u0 < 0.9999998885745216
            THEN 9
            WHEN sm_u0 < 0.9999999899522336
            THEN 10
            WHEN sm_u0 < 0.99999999916838922
            THEN 11
            WHEN sm_u0 < 0.99999999993640221
            THEN 12
            ELSE 13
          END
        END AS sm_k0,
        CASE
          WHEN sm_u1 < 0.36787944117144233
          THEN 0
          WHEN sm_u1 < 0.73575888234288467
          THEN 1
          WHEN sm_u1 < 0.91969860292860584
          THEN 2
          WHEN sm_u1 < 0.98101184312384626
          THEN 3
          WHEN sm_u1 < 0.99634015317265634
          THEN 4
          WHEN sm_u1 < 0.99940581518241833
          THEN 5
          WHEN sm_u1 < 0.99991675885071196
          THEN 6
          WHEN sm_u1 < 0.99998975080332531
          THEN 7
          WHEN sm_u1 < 0.99999887479740202
          THEN 8
          WHEN sm_u1 < 0.9999998885745216
          THEN 9
          WHEN sm_u1 < 0.9999999899522336
          THEN 10
          WHEN sm_u1 < 0.99999999916838922
          THEN 11
          WHEN sm_u1 < 0.99999999993640221
          THEN 12
          ELSE 13
        END AS sm_k1,
        CASE
          WHEN sm_u2 < 0.36787944117144233
          THEN 0
          WHEN sm_u2 < 0.73575888234288467
          THEN 1
          WHEN sm_u2 < 0.91969860292860584
          THEN 2
          WHEN sm_u2 < 0.98101184312384626
          THEN 3
          WHEN sm_u2 < 0.99634015317265634
          THEN 4
          WHEN sm_u2 < 0.99940581518241833
          THEN 5
          WHEN sm_u2 < 0.99991675885071196
          THEN 6
          WHEN sm_u2 < 0.99998975080332531
          THEN 7
          WHEN sm_u2 < 0.99999887479740202
          THEN 8
          WHEN sm_u2 < 0.9999998885745216
          THEN 9
          WHEN sm_u2 < 0.9999999899522336
          THEN 10
          WHEN sm_u2 < 0.99999999916838922
          THEN 11
          WHEN sm_u2 < 0.99999999993640221
          THEN 12
          ELSE 13
        END AS sm_k2,
        CASE
          WHEN sm_u3 < 0.36787944117144233
          THEN 0
          WHEN sm_u3 < 0.73575888234288467
          THEN 1
          WHEN sm_u3 < 0.91969860292860584
          THEN 2
          WHEN sm_u3 < 0.98101184312384626
          THEN 3
          WHEN sm_u3 < 0.99634015317265634
          THEN 4
          WHEN sm_u3 < 0.99940581518241833
          THEN 5
          WHEN sm_u3 < 0.99991675885071196
          THEN 6
          WHEN sm_u3 < 0.99998975080332531
          THEN 7
          WHEN sm_u3 < 0.99999887479740202
          THEN 8
          WHEN sm_u3 < 0.9999998885745216
          THEN 9
          WHEN sm_u3 < 0.9999999899522336
          THEN 10
          WHEN sm_u3 < 0.99999999916838922
          THEN 11
          WHEN sm_u3 < 0.99999999993640221
          THEN 12
          ELSE 13
        END AS sm_k3,
        CASE
          WHEN sm_u4 < 0.36787944117144233
          THEN 0
          WHEN sm_u4 < 0.73575888234288467
          THEN 1
          WHEN sm_u4 < 0.91969860292860584
          THEN 2
          WHEN sm_u4 < 0.98101184312384626
          THEN 3
          WHEN sm_u4 < 0.99634015317265634
          THEN 4
          WHEN sm_u4 < 0.99940581518241833
          THEN 5
          WHEN sm_u4 < 0.99991675885071196
          THEN 6
          WHEN sm_u4 < 0.99998975080332531
          THEN 7
          WHEN sm_u4 < 0.99999887479740202
          THEN 8
          WHEN sm_u4 < 0.9999998885745216
          THEN 9
          WHEN sm_u4 < 0.9999999899522336
          THEN 10
          WHEN sm_u4 < 0.99999999916838922
          THEN 11
          WHEN sm_u4 < 0.99999999993640221
          THEN 12
          ELSE 13
        END AS sm_k4,
        CASE
          WHEN sm_u5 < 0.36787944117144233
          THEN 0
          WHEN sm_u5 < 0.73575888234288467
          THEN 1
          WHEN sm_u5 < 0.91969860292860584
          THEN 2
          WHEN sm_u5 < 0.98101184312384626
          THEN 3
          WHEN sm_u5 < 0.99634015317265634
          THEN 4
          WHEN sm_u5 < 0.99940581518241833
          THEN 5
          WHEN sm_u5 < 0.99991675885071196
          THEN 6
          WHEN sm_u5 < 0.99998975080332531
          THEN 7
          WHEN sm_u5 < 0.99999887479740202
          THEN 8
          WHEN sm_u5 < 0.9999998885745216
          THEN 9
          WHEN sm_u5 < 0.9999999899522336
          THEN 10
          WHEN sm_u5 < 0.99999999916838922
          THEN 11
          WHEN sm_u5 < 0.99999999993640221
          THEN 12
          ELSE 13
        END AS sm_k5,
        CASE
          WHEN sm_u6 < 0.36787944117144233
          THEN 0
          WHEN sm_u6 < 0.73575888234288467
          THEN 1
          WHEN sm_u6 < 0.91969860292860584
          THEN 2
          WHEN sm_u6 < 0.98101184312384626
          THEN 3
          WHEN sm_u6 < 0.99634015317265634
          THEN 4
          WHEN sm_u6 < 0.99940581518241833
          THEN 5
          WHEN sm_u6 < 0.99991675885071196
          THEN 6
          WHEN sm_u6 < 0.99998975080332531
          THEN 7
          WHEN sm_u6 < 0.99999887479740202
          THEN 8
          WHEN sm_u6 < 0.9999998885745216
          THEN 9
          WHEN sm_u6 < 0.9999999899522336
          THEN 10
          WHEN sm_u6 < 0.99999999916838922
          THEN 11
          WHEN sm_u6 < 0.99999999993640221
          THEN 12
          ELSE 13
        END AS sm_k6,
        CASE
          WHEN sm_u7 < 0.36787944117144233
          THEN 0
          WHEN sm_u7 < 0.73575888234288467
          THEN 1
          WHEN sm_u7 < 0.91969860292860584
          THEN 2
          WHEN sm_u7 < 0.98101184312384626
          THEN 3
          WHEN sm_u7 < 0.99634015317265634
          THEN 4
          WHEN sm_u7 < 0.99940581518241833
          THEN 5
          WHEN sm_u7 < 0.99991675885071196
          THEN 6
          WHEN sm_u7 < 0.99998975080332531
          THEN 7
          WHEN sm_u7 < 0.99999887479740202
          THEN 8
          WHEN sm_u7 < 0.9999998885745216
          THEN 9
          WHEN sm_u7 < 0.9999999899522336
          THEN 10
          WHEN sm_u7 < 0.99999999916838922
          THEN 11
          WHEN sm_u7 < 0.99999999993640221
          THEN 12
          ELSE 13
        END AS sm_k7
      FROM (
        SELECT
          "country",
          "sm_chunk",
          "sm_anchor_positive",
          "sm_rows",
          sm_key,
          sm_s,
          sm_anchor_share,
          sm_other_share,
          CAST((
            (
              sm_m0 * sm_m0 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u0,
          CAST((
            (
              sm_m1 * sm_m1 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u1,
          CAST((
            (
              sm_m2 * sm_m2 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u2,
          CAST((
            (
              sm_m3 * sm_m3 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u3,
          CAST((
            (
              sm_m4 * sm_m4 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u4,
          CAST((
            (
              sm_m5 * sm_m5 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u5,
          CAST((
            (
              sm_m6 * sm_m6 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u6,
          CAST((
            (
              sm_m7 * sm_m7 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_u7
        FROM (
          SELECT
            "country",
            "sm_chunk",
            "sm_anchor_positive",
            "sm_rows",
            sm_key,
            sm_s,
            sm_anchor_share,
            sm_other_share,
            (
              (
                sm_r0 * sm_r0 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m0,
            (
              (
                sm_r1 * sm_r1 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m1,
            (
              (
                sm_r2 * sm_r2 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m2,
            (
              (
                sm_r3 * sm_r3 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m3,
            (
              (
                sm_r4 * sm_r4 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m4,
            (
              (
                sm_r5 * sm_r5 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m5,
            (
              (
                sm_r6 * sm_r6 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m6,
            (
              (
                sm_r7 * sm_r7 + 12345
              ) % 2147483647 * 16807 + sm_unit
            ) % 2147483647 AS sm_m7
          FROM (
            SELECT
              sm_keyed.*,
              sm_chunks.sm_chunk,
              (
                sm_unit_seeded + sm_offset0
              ) % 2147483647 AS sm_r0,
              (
                sm_unit_seeded + sm_offset1
              ) % 2147483647 AS sm_r1,
              (
                sm_unit_seeded + sm_offset2
              ) % 2147483647 AS sm_r2,
              (
                sm_unit_seeded + sm_offset3
              ) % 2147483647 AS sm_r3,
              (
                sm_unit_seeded + sm_offset4
              ) % 2147483647 AS sm_r4,
              (
                sm_unit_seeded + sm_offset5
              ) % 2147483647 AS sm_r5,
              (
                sm_unit_seeded + sm_offset6
              ) % 2147483647 AS sm_r6,
              (
                sm_unit_seeded + sm_offset7
              ) % 2147483647 AS sm_r7
            FROM sm_keyed
            CROSS JOIN sm_chunks
          ) AS sm_seeded
        ) AS sm_mixed
      ) AS sm_uniforms
    ) AS sm_drawn
    GROUP BY
      "country",
      "sm_chunk",
      "sm_anchor_positive",
      "sm_rows",
      sm_key
  ), sm_running AS (
    SELECT
      sm_key_sums.*,
      SUM(sm_other0) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below0,
      SUM(sm_other1) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below1,
      SUM(sm_other2) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below2,
      SUM(sm_other3) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below3,
      SUM(sm_other4) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below4,
      SUM(sm_other5) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below5,
      SUM(sm_other6) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below6,
      SUM(sm_other7) OVER (
        PARTITION BY "country", "sm_chunk"
        ORDER BY sm_key ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_below7
    FROM sm_key_sums
  ), sm_chunked AS (
    SELECT
      "country",
      "sm_chunk",
      "sm_anchor_positive",
      "sm_rows",
      CAST(COUNT(*) AS BIGINT) AS sm_keys,
      (
        CAST(SUM(sm_anchor0 * (
          COALESCE(sm_below0, 0) + 0.5 * sm_other0
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor0) * SUM(sm_other0) AS DOUBLE), 0)
      ) AS sm_wins0,
      (
        CAST(SUM(sm_anchor1 * (
          COALESCE(sm_below1, 0) + 0.5 * sm_other1
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor1) * SUM(sm_other1) AS DOUBLE), 0)
      ) AS sm_wins1,
      (
        CAST(SUM(sm_anchor2 * (
          COALESCE(sm_below2, 0) + 0.5 * sm_other2
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor2) * SUM(sm_other2) AS DOUBLE), 0)
      ) AS sm_wins2,
      (
        CAST(SUM(sm_anchor3 * (
          COALESCE(sm_below3, 0) + 0.5 * sm_other3
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor3) * SUM(sm_other3) AS DOUBLE), 0)
      ) AS sm_wins3,
      (
        CAST(SUM(sm_anchor4 * (
          COALESCE(sm_below4, 0) + 0.5 * sm_other4
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor4) * SUM(sm_other4) AS DOUBLE), 0)
      ) AS sm_wins4,
      (
        CAST(SUM(sm_anchor5 * (
          COALESCE(sm_below5, 0) + 0.5 * sm_other5
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor5) * SUM(sm_other5) AS DOUBLE), 0)
      ) AS sm_wins5,
      (
        CAST(SUM(sm_anchor6 * (
          COALESCE(sm_below6, 0) + 0.5 * sm_other6
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor6) * SUM(sm_other6) AS DOUBLE), 0)
      ) AS sm_wins6,
      (
        CAST(SUM(sm_anchor7 * (
          COALESCE(sm_below7, 0) + 0.5 * sm_other7
        )) AS DOUBLE) / NULLIF(CAST(SUM(sm_anchor7) * SUM(sm_other7) AS DOUBLE), 0)
      ) AS sm_wins7
    FROM sm_running
    GROUP BY
      "country",
      "sm_chunk",
      "sm_anchor_positive",
      "sm_rows"
  )
  SELECT
    "country",
    sm_replicate,
    CASE WHEN sm_anchor_positive = 1 THEN sm_wins ELSE 1 - sm_wins END AS auc,
    sm_rows,
    sm_keys
  FROM (
    SELECT
      "country",
      sm_anchor_positive,
      sm_rows,
      sm_keys,
      sm_chunk * 8 + sm_column AS sm_replicate,
      CASE sm_column
        WHEN 0
        THEN sm_wins0
        WHEN 1
        THEN sm_wins1
        WHEN 2
        THEN sm_wins2
        WHEN 3
        THEN sm_wins3
        WHEN 4
        THEN sm_wins4
        WHEN 5
        THEN sm_wins5
        WHEN 6
        THEN sm_wins6
        WHEN 7
        THEN sm_wins7
      END AS sm_wins
    FROM sm_chunked
    CROSS JOIN (
      SELECT
        sm_replicate AS sm_column
      FROM (
        SELECT
          sm_replicate
        FROM (
          SELECT
            sm_d0.sm_digit * 1 AS sm_replicate
          FROM (
            SELECT
              0 AS sm_digit
            UNION ALL
            SELECT
              1
            UNION ALL
            SELECT
              2
            UNION ALL
            SELECT
              3
            UNION ALL
            SELECT
              4
            UNION ALL
            SELECT
              5
            UNION ALL
            SELECT
              6
            UNION ALL
            SELECT
              7
            UNION ALL
            SELECT
              8
            UNION ALL
            SELECT
              9
          ) AS sm_d0
        ) AS sm_numbers
        WHERE
          sm_replicate <= 7
      ) AS sm_column_numbers
    ) AS sm_columns
  ) AS sm_unpivoted
  WHERE
    sm_replicate BETWEEN 0 AND 200
), sm_replicate_values AS (
  SELECT
    "country",
    sm_replicate,
    "auc" AS sm_value
  FROM sm_replicated
), sm_estimated AS (
  SELECT
    "country",
    sm_value AS sm_estimate
  FROM sm_replicate_values
  WHERE
    sm_replicate = 0
), sm_ordered AS (
  SELECT
    "country",
    sm_value,
    ROW_NUMBER() OVER (PARTITION BY "country" ORDER BY sm_value ASC) AS sm_rank,
    COUNT(*) OVER (PARTITION BY "country") AS sm_n,
    AVG(sm_value) OVER (PARTITION BY "country") AS sm_mean
  FROM sm_replicate_values
  WHERE
    sm_replicate > 0 AND NOT sm_value IS NULL
), sm_spread AS (
  SELECT
    "country",
    CAST(MAX(sm_n) AS BIGINT) AS sm_replicates_with_value,
    SQRT(
      (
        CAST(SUM((
          sm_value - sm_mean
        ) * (
          sm_value - sm_mean
        )) AS DOUBLE) / NULLIF(CAST(MAX(sm_n) - 1 AS DOUBLE), 0)
      )
    ) AS sm_se,
    (
      MAX(
        CASE
          WHEN sm_rank = FLOOR(0.025000000000000022 * (
            sm_n - 1
          )) + 1
          THEN sm_value
        END
      ) + (
        (
          0.025000000000000022 * (
            MAX(sm_n) - 1
          )
        ) - MAX(FLOOR(0.025000000000000022 * (
          sm_n - 1
        )))
      ) * (
        COALESCE(
          MAX(
            CASE
              WHEN sm_rank = FLOOR(0.025000000000000022 * (
                sm_n - 1
              )) + 2
              THEN sm_value
            END
          ),
          MAX(
            CASE
              WHEN sm_rank = FLOOR(0.025000000000000022 * (
                sm_n - 1
              )) + 1
              THEN sm_value
            END
          )
        ) - MAX(
          CASE
            WHEN sm_rank = FLOOR(0.025000000000000022 * (
              sm_n - 1
            )) + 1
            THEN sm_value
          END
        )
      )
    ) AS sm_low,
    (
      MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
        sm_n - 1
      )) + 1 THEN sm_value END) + (
        (
          0.975 * (
            MAX(sm_n) - 1
          )
        ) - MAX(FLOOR(0.975 * (
          sm_n - 1
        )))
      ) * (
        COALESCE(
          MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
            sm_n - 1
          )) + 2 THEN sm_value END),
          MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
            sm_n - 1
          )) + 1 THEN sm_value END)
        ) - MAX(CASE WHEN sm_rank = FLOOR(0.975 * (
          sm_n - 1
        )) + 1 THEN sm_value END)
      )
    ) AS sm_high
  FROM sm_ordered
  GROUP BY
    "country"
)
SELECT
  sm_estimated."country" AS "country",
  sm_estimated.sm_estimate AS estimate,
  sm_spread.sm_se AS std_error,
  sm_spread.sm_low AS ci_low,
  sm_spread.sm_high AS ci_high,
  COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_boot,
  200 - COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_undefined
FROM sm_estimated
LEFT JOIN sm_spread
  ON (
    sm_estimated."country" IS NOT DISTINCT FROM sm_spread."country"
  )
