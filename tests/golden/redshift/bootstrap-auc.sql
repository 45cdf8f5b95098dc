WITH sm_replicated AS (
  WITH sm_units AS (
    SELECT
      sm_occurrences.*,
      ABS(
        FNV_HASH(
          COALESCE(CAST("sm_occurrence" AS VARCHAR(MAX)), ''),
          FNV_HASH(
            COALESCE(CAST("pctr" AS VARCHAR(MAX)), ''),
            FNV_HASH(
              COALESCE(CAST("clicked" AS VARCHAR(MAX)), ''),
              FNV_HASH(
                COALESCE(CAST("impressions" AS VARCHAR(MAX)), ''),
                FNV_HASH(COALESCE(CAST("country" AS VARCHAR(MAX)), ''))
              )
            )
          )
        ) % 2147483647
      ) AS sm_unit
    FROM (
      SELECT
        "country",
        "impressions",
        "clicked",
        "pctr",
        ROW_NUMBER() OVER (PARTITION BY "country", "impressions", "clicked", "pctr" ORDER BY "country") AS sm_occurrence
      FROM analytics.preds
    ) AS sm_occurrences
  ), sm_labelled AS (
    SELECT
      sm_exponents.*,
      CAST(CASE
        WHEN sm_x = 0
        THEN 0
        WHEN NOT (
          ABS(sm_x) < CAST('Infinity' AS DOUBLE PRECISION)
        )
        THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
        WHEN sm_e IS NULL
        THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
        WHEN sm_x > 0
        THEN (
          (
            sm_e + 1025
          ) * 1024 + FLOOR((
            CAST(ABS(sm_x) AS DOUBLE PRECISION) / POWER(2, sm_e) - 1
          ) * 1024)
        )
        ELSE -(
          (
            sm_e + 1025
          ) * 1024 + FLOOR((
            CAST(ABS(sm_x) AS DOUBLE PRECISION) / POWER(2, sm_e) - 1
          ) * 1024)
        )
      END AS BIGINT) AS sm_bucket
    FROM (
      SELECT
        sm_valued.*,
        CAST(sm_s AS DOUBLE PRECISION) AS sm_x,
        CAST(CASE
          WHEN NOT (
            ABS(CAST(sm_s AS DOUBLE PRECISION)) >= 2.2250738585072014e-308
            AND ABS(CAST(sm_s AS DOUBLE PRECISION)) < CAST('Infinity' AS DOUBLE PRECISION)
          )
          THEN NULL
          WHEN ABS(CAST(sm_s AS DOUBLE PRECISION)) >= 8.98846567431158e307
          THEN 1023
          ELSE FLOOR((
            CAST(LN(ABS(CAST(sm_s AS DOUBLE PRECISION))) AS DOUBLE PRECISION) / LN(2)
          ))
        END AS DOUBLE PRECISION) AS sm_e
      FROM (
        SELECT
          "country",
          sm_unit,
          "pctr" AS sm_s,
          CASE
            WHEN "clicked" = 1
            THEN 1
            WHEN "clicked" = 0
            THEN 0
            ELSE CAST(CASE
              WHEN COALESCE(NOT (
                "clicked" = 1 OR "clicked" = 0
              ), TRUE)
              THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS VARCHAR(MAX)), 'NULL')
              ELSE '0'
            END AS BIGINT)
          END AS sm_pos,
          CAST("impressions" AS DOUBLE PRECISION) AS sm_weight
        FROM sm_units
      ) AS sm_valued
    ) AS sm_exponents
  ), sm_slices AS (
    SELECT
      "country",
      CASE WHEN 2 * SUM(sm_pos) <= COUNT(*) THEN 1 ELSE 0 END AS sm_anchor_positive,
      COUNT(*) AS sm_rows,
      MAX(sm_weight) AS sm_largest
    FROM sm_labelled
    GROUP BY
      "country"
  ), sm_slices_spread AS (
    SELECT
      sm_slices.*,
      sm_keys.sm_bucket AS sm_bucket
    FROM sm_slices AS sm_slices
    JOIN (
      SELECT DISTINCT
        "country",
        sm_bucket
      FROM sm_labelled AS sm_keyed
    ) AS sm_keys
      ON (
        sm_slices."country" = sm_keys."country"
        OR (
          sm_slices."country" IS NULL AND sm_keys."country" IS NULL
        )
      )
  ), sm_anchored AS (
    SELECT
      sm_labelled."country" AS "country",
      sm_labelled."sm_bucket" AS "sm_bucket",
      sm_unit,
      sm_s,
      (
        CAST(sm_weight AS DOUBLE PRECISION) / NULLIF(CAST(sm_largest AS DOUBLE PRECISION), 0)
      ) AS sm_share,
      sm_anchor_positive,
      sm_rows,
      CASE WHEN sm_anchor_positive = 1 THEN sm_pos ELSE 1 - sm_pos END AS sm_a
    FROM sm_labelled
    JOIN sm_slices_spread AS sm_slices
      ON sm_labelled."sm_bucket" = sm_slices."sm_bucket"
      AND (
        sm_labelled."country" = sm_slices."country"
        OR (
          sm_labelled."country" IS NULL AND sm_slices."country" IS NULL
        )
      )
  ), sm_scored AS (
    SELECT
      sm_anchored.*,
      AVG(CAST(sm_a AS DOUBLE PRECISION)) OVER (PARTITION BY "country", "sm_bucket", sm_s) AS sm_score_anchors,
      RANK() OVER (PARTITION BY "country", "sm_bucket" ORDER BY sm_s) AS sm_rank
    FROM sm_anchored
  ), sm_typed AS (
    SELECT
      sm_scored.*,
      CASE WHEN sm_score_anchors > 0 AND sm_score_anchors < 1 THEN 2 ELSE 1 - sm_a END AS sm_type
    FROM sm_scored
  ), sm_keyed AS (
    SELECT
      "country",
      "sm_bucket",
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
            PARTITION BY "country", "sm_bucket"
            ORDER BY sm_s
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ),
          0
        ) + 1
        ELSE 2 * COALESCE(
          MAX(CASE WHEN sm_type <> 1 THEN sm_rank END) OVER (
            PARTITION BY "country", "sm_bucket"
            ORDER BY sm_s
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
      "sm_bucket",
      sm_key,
      MIN(sm_s) AS sm_key_s,
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
        "sm_bucket",
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
          "sm_bucket",
          sm_key,
          sm_s,
          sm_anchor_share,
          sm_other_share,
          CAST((
            (
              sm_m0 * sm_m0 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u0,
          CAST((
            (
              sm_m1 * sm_m1 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u1,
          CAST((
            (
              sm_m2 * sm_m2 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u2,
          CAST((
            (
              sm_m3 * sm_m3 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u3,
          CAST((
            (
              sm_m4 * sm_m4 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u4,
          CAST((
            (
              sm_m5 * sm_m5 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u5,
          CAST((
            (
              sm_m6 * sm_m6 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u6,
          CAST((
            (
              sm_m7 * sm_m7 + 54321
            ) % 2147483647 * 48271
          ) % 2147483647 AS DOUBLE PRECISION) / 2147483647 AS sm_u7
        FROM (
          SELECT
            "country",
            "sm_chunk",
            "sm_anchor_positive",
            "sm_rows",
            "sm_bucket",
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
      "sm_bucket",
      sm_key
  ), sm_key_rows AS (
    SELECT
      "country",
      "sm_chunk",
      "sm_anchor_positive",
      "sm_rows",
      sm_key_s,
      sm_anchor0,
      sm_other0,
      sm_anchor1,
      sm_other1,
      sm_anchor2,
      sm_other2,
      sm_anchor3,
      sm_other3,
      sm_anchor4,
      sm_other4,
      sm_anchor5,
      sm_other5,
      sm_anchor6,
      sm_other6,
      sm_anchor7,
      sm_other7
    FROM sm_key_sums
  ), sm_key_runs_bucketed AS (
    SELECT
      sm_exponents.*,
      CAST(CASE
        WHEN sm_x = 0
        THEN 0
        WHEN NOT (
          ABS(sm_x) < CAST('Infinity' AS DOUBLE PRECISION)
        )
        THEN CASE WHEN sm_x > 0 THEN 2100000 ELSE -2100000 END
        WHEN sm_e IS NULL
        THEN CASE WHEN sm_x > 0 THEN 1 ELSE -1 END
        WHEN sm_x > 0
        THEN (
          (
            sm_e + 1025
          ) * 1024 + FLOOR((
            CAST(ABS(sm_x) AS DOUBLE PRECISION) / POWER(2, sm_e) - 1
          ) * 1024)
        )
        ELSE -(
          (
            sm_e + 1025
          ) * 1024 + FLOOR((
            CAST(ABS(sm_x) AS DOUBLE PRECISION) / POWER(2, sm_e) - 1
          ) * 1024)
        )
      END AS BIGINT) AS sm_bucket
    FROM (
      SELECT
        sm_valued.*,
        CAST(sm_key_s AS DOUBLE PRECISION) AS sm_x,
        CAST(CASE
          WHEN NOT (
            ABS(CAST(sm_key_s AS DOUBLE PRECISION)) >= 2.2250738585072014e-308
            AND ABS(CAST(sm_key_s AS DOUBLE PRECISION)) < CAST('Infinity' AS DOUBLE PRECISION)
          )
          THEN NULL
          WHEN ABS(CAST(sm_key_s AS DOUBLE PRECISION)) >= 8.98846567431158e307
          THEN 1023
          ELSE FLOOR(
            (
              CAST(LN(ABS(CAST(sm_key_s AS DOUBLE PRECISION))) AS DOUBLE PRECISION) / LN(2)
            )
          )
        END AS DOUBLE PRECISION) AS sm_e
      FROM (
        SELECT
          *
        FROM sm_key_rows
      ) AS sm_valued
    ) AS sm_exponents
  ), sm_key_runs_offsets AS (
    SELECT
      "country",
      "sm_chunk",
      "sm_anchor_positive",
      "sm_rows",
      "sm_bucket",
      SUM(sm_bucket_sm_other0) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other0,
      SUM(sm_bucket_sm_other0) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other0,
      SUM(sm_bucket_sm_other1) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other1,
      SUM(sm_bucket_sm_other1) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other1,
      SUM(sm_bucket_sm_other2) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other2,
      SUM(sm_bucket_sm_other2) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other2,
      SUM(sm_bucket_sm_other3) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other3,
      SUM(sm_bucket_sm_other3) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other3,
      SUM(sm_bucket_sm_other4) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other4,
      SUM(sm_bucket_sm_other4) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other4,
      SUM(sm_bucket_sm_other5) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other5,
      SUM(sm_bucket_sm_other5) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other5,
      SUM(sm_bucket_sm_other6) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other6,
      SUM(sm_bucket_sm_other6) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other6,
      SUM(sm_bucket_sm_other7) OVER (
        PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows"
        ORDER BY sm_bucket ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_before_sm_other7,
      SUM(sm_bucket_sm_other7) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows") AS sm_total_sm_other7
    FROM (
      SELECT
        "country",
        "sm_chunk",
        "sm_anchor_positive",
        "sm_rows",
        "sm_bucket",
        SUM(sm_other0) AS sm_bucket_sm_other0,
        SUM(sm_other1) AS sm_bucket_sm_other1,
        SUM(sm_other2) AS sm_bucket_sm_other2,
        SUM(sm_other3) AS sm_bucket_sm_other3,
        SUM(sm_other4) AS sm_bucket_sm_other4,
        SUM(sm_other5) AS sm_bucket_sm_other5,
        SUM(sm_other6) AS sm_bucket_sm_other6,
        SUM(sm_other7) AS sm_bucket_sm_other7
      FROM sm_key_runs_bucketed
      GROUP BY
        "country",
        "sm_chunk",
        "sm_anchor_positive",
        "sm_rows",
        "sm_bucket"
    ) AS sm_per_bucket
  ), sm_key_runs AS (
    SELECT
      "country",
      "sm_chunk",
      "sm_anchor_positive",
      "sm_rows",
      "sm_bucket",
      sm_key_s,
      sm_anchor0,
      sm_anchor1,
      sm_anchor2,
      sm_anchor3,
      sm_anchor4,
      sm_anchor5,
      sm_anchor6,
      sm_anchor7,
      sm_other0,
      sm_other0_run,
      sm_other0_all,
      sm_other1,
      sm_other1_run,
      sm_other1_all,
      sm_other2,
      sm_other2_run,
      sm_other2_all,
      sm_other3,
      sm_other3_run,
      sm_other3_all,
      sm_other4,
      sm_other4_run,
      sm_other4_all,
      sm_other5,
      sm_other5_run,
      sm_other5_all,
      sm_other6,
      sm_other6_run,
      sm_other6_all,
      sm_other7,
      sm_other7_run,
      sm_other7_all
    FROM (
      SELECT
        "country",
        "sm_chunk",
        "sm_anchor_positive",
        "sm_rows",
        "sm_bucket",
        sm_kind,
        sm_key_s,
        sm_anchor0,
        sm_anchor1,
        sm_anchor2,
        sm_anchor3,
        sm_anchor4,
        sm_anchor5,
        sm_anchor6,
        sm_anchor7,
        sm_other0,
        SUM(sm_add_sm_other0) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other0_run,
        MAX(sm_slice_sm_other0) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other0_all,
        sm_other1,
        SUM(sm_add_sm_other1) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other1_run,
        MAX(sm_slice_sm_other1) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other1_all,
        sm_other2,
        SUM(sm_add_sm_other2) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other2_run,
        MAX(sm_slice_sm_other2) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other2_all,
        sm_other3,
        SUM(sm_add_sm_other3) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other3_run,
        MAX(sm_slice_sm_other3) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other3_all,
        sm_other4,
        SUM(sm_add_sm_other4) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other4_run,
        MAX(sm_slice_sm_other4) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other4_all,
        sm_other5,
        SUM(sm_add_sm_other5) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other5_run,
        MAX(sm_slice_sm_other5) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other5_all,
        sm_other6,
        SUM(sm_add_sm_other6) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other6_run,
        MAX(sm_slice_sm_other6) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other6_all,
        sm_other7,
        SUM(sm_add_sm_other7) OVER (
          PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket"
          ORDER BY sm_kind DESC NULLS LAST, sm_key_s ASC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS sm_other7_run,
        MAX(sm_slice_sm_other7) OVER (PARTITION BY "country", "sm_chunk", "sm_anchor_positive", "sm_rows", "sm_bucket") AS sm_other7_all
      FROM (
        SELECT
          "country",
          "sm_chunk",
          "sm_anchor_positive",
          "sm_rows",
          "sm_bucket",
          0 AS sm_kind,
          sm_key_s,
          sm_anchor0,
          sm_anchor1,
          sm_anchor2,
          sm_anchor3,
          sm_anchor4,
          sm_anchor5,
          sm_anchor6,
          sm_anchor7,
          sm_other0,
          sm_other0 AS sm_add_sm_other0,
          NULL AS sm_slice_sm_other0,
          sm_other1,
          sm_other1 AS sm_add_sm_other1,
          NULL AS sm_slice_sm_other1,
          sm_other2,
          sm_other2 AS sm_add_sm_other2,
          NULL AS sm_slice_sm_other2,
          sm_other3,
          sm_other3 AS sm_add_sm_other3,
          NULL AS sm_slice_sm_other3,
          sm_other4,
          sm_other4 AS sm_add_sm_other4,
          NULL AS sm_slice_sm_other4,
          sm_other5,
          sm_other5 AS sm_add_sm_other5,
          NULL AS sm_slice_sm_other5,
          sm_other6,
          sm_other6 AS sm_add_sm_other6,
          NULL AS sm_slice_sm_other6,
          sm_other7,
          sm_other7 AS sm_add_sm_other7,
          NULL AS sm_slice_sm_other7
        FROM sm_key_runs_bucketed
        UNION ALL
        SELECT
          "country",
          "sm_chunk",
          "sm_anchor_positive",
          "sm_rows",
          "sm_bucket",
          1 AS sm_kind,
          NULL AS sm_key_s,
          NULL AS sm_anchor0,
          NULL AS sm_anchor1,
          NULL AS sm_anchor2,
          NULL AS sm_anchor3,
          NULL AS sm_anchor4,
          NULL AS sm_anchor5,
          NULL AS sm_anchor6,
          NULL AS sm_anchor7,
          NULL AS sm_other0,
          sm_before_sm_other0 AS sm_add_sm_other0,
          sm_total_sm_other0 AS sm_slice_sm_other0,
          NULL AS sm_other1,
          sm_before_sm_other1 AS sm_add_sm_other1,
          sm_total_sm_other1 AS sm_slice_sm_other1,
          NULL AS sm_other2,
          sm_before_sm_other2 AS sm_add_sm_other2,
          sm_total_sm_other2 AS sm_slice_sm_other2,
          NULL AS sm_other3,
          sm_before_sm_other3 AS sm_add_sm_other3,
          sm_total_sm_other3 AS sm_slice_sm_other3,
          NULL AS sm_other4,
          sm_before_sm_other4 AS sm_add_sm_other4,
          sm_total_sm_other4 AS sm_slice_sm_other4,
          NULL AS sm_other5,
          sm_before_sm_other5 AS sm_add_sm_other5,
          sm_total_sm_other5 AS sm_slice_sm_other5,
          NULL AS sm_other6,
          sm_before_sm_other6 AS sm_add_sm_other6,
          sm_total_sm_other6 AS sm_slice_sm_other6,
          NULL AS sm_other7,
          sm_before_sm_other7 AS sm_add_sm_other7,
          sm_total_sm_other7 AS sm_slice_sm_other7
        FROM sm_key_runs_offsets
      ) AS sm_with_offsets
    ) AS sm_running
    WHERE
      sm_kind = 0
  ), sm_running AS (
    SELECT
      sm_key_runs.*,
      sm_other0_run - sm_other0 AS sm_below0,
      sm_other1_run - sm_other1 AS sm_below1,
      sm_other2_run - sm_other2 AS sm_below2,
      sm_other3_run - sm_other3 AS sm_below3,
      sm_other4_run - sm_other4 AS sm_below4,
      sm_other5_run - sm_other5 AS sm_below5,
      sm_other6_run - sm_other6 AS sm_below6,
      sm_other7_run - sm_other7 AS sm_below7
    FROM sm_key_runs
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
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor0) * SUM(sm_other0) AS DOUBLE PRECISION), 0)
      ) AS sm_wins0,
      (
        CAST(SUM(sm_anchor1 * (
          COALESCE(sm_below1, 0) + 0.5 * sm_other1
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor1) * SUM(sm_other1) AS DOUBLE PRECISION), 0)
      ) AS sm_wins1,
      (
        CAST(SUM(sm_anchor2 * (
          COALESCE(sm_below2, 0) + 0.5 * sm_other2
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor2) * SUM(sm_other2) AS DOUBLE PRECISION), 0)
      ) AS sm_wins2,
      (
        CAST(SUM(sm_anchor3 * (
          COALESCE(sm_below3, 0) + 0.5 * sm_other3
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor3) * SUM(sm_other3) AS DOUBLE PRECISION), 0)
      ) AS sm_wins3,
      (
        CAST(SUM(sm_anchor4 * (
          COALESCE(sm_below4, 0) + 0.5 * sm_other4
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor4) * SUM(sm_other4) AS DOUBLE PRECISION), 0)
      ) AS sm_wins4,
      (
        CAST(SUM(sm_anchor5 * (
          COALESCE(sm_below5, 0) + 0.5 * sm_other5
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor5) * SUM(sm_other5) AS DOUBLE PRECISION), 0)
      ) AS sm_wins5,
      (
        CAST(SUM(sm_anchor6 * (
          COALESCE(sm_below6, 0) + 0.5 * sm_other6
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor6) * SUM(sm_other6) AS DOUBLE PRECISION), 0)
      ) AS sm_wins6,
      (
        CAST(SUM(sm_anchor7 * (
          COALESCE(sm_below7, 0) + 0.5 * sm_other7
        )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor7) * SUM(sm_other7) AS DOUBLE PRECISION), 0)
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
    ROW_NUMBER() OVER (PARTITION BY "country" ORDER BY sm_value) AS sm_rank,
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
        )) AS DOUBLE PRECISION) / NULLIF(CAST(MAX(sm_n) - 1 AS DOUBLE PRECISION), 0)
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
    sm_estimated."country" = sm_spread."country"
    OR (
      sm_estimated."country" IS NULL AND sm_spread."country" IS NULL
    )
  )
