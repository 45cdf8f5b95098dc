WITH sm_replicated AS (
  WITH sm_units AS (
    SELECT
      sm_occurrences.*,
      (
        HASHTEXTEXTENDED(
          CONCAT_WS(
            CHR(  31),
            CAST("country" AS TEXT),
            CAST("impressions" AS TEXT),
            CAST("clicked" AS TEXT),
            CAST("pctr" AS TEXT),
            CAST("sm_occurrence" AS TEXT)
          ),
          0
        ) % 2147483647 + 2147483647
      ) % 2147483647 AS sm_unit
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
          THEN 'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST("clicked" AS TEXT), 'NULL')
          ELSE '0'
        END AS BIGINT)
      END AS sm_pos,
      CAST("impressions" AS DOUBLE PRECISION) AS sm_weight
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
        CAST(sm_weight AS DOUBLE PRECISION) / NULLIF(CAST(sm_largest AS DOUBLE PRECISION), 0)
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
      AVG(CAST(sm_a AS DOUBLE PRECISION)) OVER (PARTITION BY "country" ORDER BY sm_s RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS sm_score_anchors,
      RANK() OVER (PARTITION BY "country" ORDER BY sm_s) AS sm_rank
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
            ORDER BY sm_s
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ),
          0
        ) + 1
        ELSE 2 * COALESCE(
          MAX(CASE WHEN sm_type <> 1 THEN sm_rank END) OVER (
            PARTITION BY "country"
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
    OFFSET 0
  ), sm_key_rows AS MATERIALIZED (
    SELECT
      "country",
      "sm_key",
      sm_a,
      sm_anchor_share + sm_other_share AS sm_share,
      sm_unit_seeded
    FROM sm_keyed
  ), sm_chunked AS (
    SELECT
      sm_chunk_wins.*,
      sm_slices.sm_anchor_positive,
      sm_slices.sm_rows
    FROM sm_chunks
    CROSS JOIN LATERAL (
      SELECT
        "country",
        sm_chunks.sm_chunk AS sm_chunk,
        CAST(COUNT(*) AS BIGINT) AS sm_keys,
        (
          CAST(SUM(sm_anchor0 * (
            COALESCE(sm_through0, 0) - 0.5 * COALESCE(sm_other0, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor0) * SUM(sm_other0) AS DOUBLE PRECISION), 0)
        ) AS sm_wins0,
        (
          CAST(SUM(sm_anchor1 * (
            COALESCE(sm_through1, 0) - 0.5 * COALESCE(sm_other1, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor1) * SUM(sm_other1) AS DOUBLE PRECISION), 0)
        ) AS sm_wins1,
        (
          CAST(SUM(sm_anchor2 * (
            COALESCE(sm_through2, 0) - 0.5 * COALESCE(sm_other2, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor2) * SUM(sm_other2) AS DOUBLE PRECISION), 0)
        ) AS sm_wins2,
        (
          CAST(SUM(sm_anchor3 * (
            COALESCE(sm_through3, 0) - 0.5 * COALESCE(sm_other3, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor3) * SUM(sm_other3) AS DOUBLE PRECISION), 0)
        ) AS sm_wins3,
        (
          CAST(SUM(sm_anchor4 * (
            COALESCE(sm_through4, 0) - 0.5 * COALESCE(sm_other4, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor4) * SUM(sm_other4) AS DOUBLE PRECISION), 0)
        ) AS sm_wins4,
        (
          CAST(SUM(sm_anchor5 * (
            COALESCE(sm_through5, 0) - 0.5 * COALESCE(sm_other5, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor5) * SUM(sm_other5) AS DOUBLE PRECISION), 0)
        ) AS sm_wins5,
        (
          CAST(SUM(sm_anchor6 * (
            COALESCE(sm_through6, 0) - 0.5 * COALESCE(sm_other6, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor6) * SUM(sm_other6) AS DOUBLE PRECISION), 0)
        ) AS sm_wins6,
        (
          CAST(SUM(sm_anchor7 * (
            COALESCE(sm_through7, 0) - 0.5 * COALESCE(sm_other7, 0)
          )) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(sm_anchor7) * SUM(sm_other7) AS DOUBLE PRECISION), 0)
        ) AS sm_wins7
      FROM (
        SELECT
          sm_key_sums.*,
          SUM(sm_other0) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through0,
          SUM(sm_other1) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through1,
          SUM(sm_other2) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through2,
          SUM(sm_other3) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through3,
          SUM(sm_other4) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through4,
          SUM(sm_other5) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through5,
          SUM(sm_other6) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through6,
          SUM(sm_other7) OVER (
            PARTITION BY "country"
            ORDER BY sm_key
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
          ) AS sm_through7
        FROM (
          SELECT
            "country",
            "sm_key",
            SUM(CASE WHEN sm_a = 1 THEN sm_k0 * sm_share END) AS sm_anchor0,
            SUM(CASE WHEN sm_a = 0 THEN sm_k0 * sm_share END) AS sm_other0,
            SUM(CASE WHEN sm_a = 1 THEN sm_k1 * sm_share END) AS sm_anchor1,
            SUM(CASE WHEN sm_a = 0 THEN sm_k1 * sm_share END) AS sm_other1,
            SUM(CASE WHEN sm_a = 1 THEN sm_k2 * sm_share END) AS sm_anchor2,
            SUM(CASE WHEN sm_a = 0 THEN sm_k2 * sm_share END) AS sm_other2,
            SUM(CASE WHEN sm_a = 1 THEN sm_k3 * sm_share END) AS sm_anchor3,
            SUM(CASE WHEN sm_a = 0 THEN sm_k3 * sm_share END) AS sm_other3,
            SUM(CASE WHEN sm_a = 1 THEN sm_k4 * sm_share END) AS sm_anchor4,
            SUM(CASE WHEN sm_a = 0 THEN sm_k4 * sm_share END) AS sm_other4,
            SUM(CASE WHEN sm_a = 1 THEN sm_k5 * sm_share END) AS sm_anchor5,
            SUM(CASE WHEN sm_a = 0 THEN sm_k5 * sm_share END) AS sm_other5,
            SUM(CASE WHEN sm_a = 1 THEN sm_k6 * sm_share END) AS sm_anchor6,
            SUM(CASE WHEN sm_a = 0 THEN sm_k6 * sm_share END) AS sm_other6,
            SUM(CASE WHEN sm_a = 1 THEN sm_k7 * sm_share END) AS sm_anchor7,
            SUM(CASE WHEN sm_a = 0 THEN sm_k7 * sm_share END) AS sm_other7
          FROM (
            SELECT
              "country",
              "sm_key",
              sm_a,
              sm_share,
              CASE
                WHEN sm_chunks.sm_chunk = 0
                THEN CAST(1 AS DOUBLE PRECISION)
                ELSE CASE
                  WHEN sm_h0 < -2437194135585890304
                  THEN CAST(0 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 4348983765682995200
                  THEN CAST(1 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 7742072716317437952
                  THEN CAST(2 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 8873102366528919552
                  THEN CAST(3 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9155859779081789440
                  THEN CAST(4 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9212411261592363008
                  THEN CAST(5 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9221836508677457920
                  THEN CAST(6 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9223182972546756608
                  THEN CAST(7 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9223351280530419712
                  THEN CAST(8 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9223369981417492480
                  THEN CAST(9 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9223371851506200576
                  THEN CAST(10 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9223372021514264576
                  THEN CAST(11 AS DOUBLE PRECISION)
                  WHEN sm_h0 < 9223372035681603584
                  THEN CAST(12 AS DOUBLE PRECISION)
                  ELSE CAST(13 AS DOUBLE PRECISION)
                END
              END AS sm_k0,
              CASE
                WHEN sm_h1 < -2437194135585890304
                THEN CAST(0 AS DOUBLE PRECISION)
                WHEN sm_h1 < 4348983765682995200
                THEN CAST(1 AS DOUBLE PRECISION)
                WHEN sm_h1 < 7742072716317437952
                THEN CAST(2 AS DOUBLE PRECISION)
                WHEN sm_h1 < 8873102366528919552
                THEN CAST(3 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9155859779081789440
                THEN CAST(4 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9212411261592363008
                THEN CAST(5 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9221836508677457920
                THEN CAST(6 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9223182972546756608
                THEN CAST(7 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9223351280530419712
                THEN CAST(8 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9223369981417492480
                THEN CAST(9 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9223371851506200576
                THEN CAST(10 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9223372021514264576
                THEN CAST(11 AS DOUBLE PRECISION)
                WHEN sm_h1 < 9223372035681603584
                THEN CAST(12 AS DOUBLE PRECISION)
                ELSE CAST(13 AS DOUBLE PRECISION)
              END AS sm_k1,
              CASE
                WHEN sm_h2 < -2437194135585890304
                THEN CAST(0 AS DOUBLE PRECISION)
                WHEN sm_h2 < 4348983765682995200
                THEN CAST(1 AS DOUBLE PRECISION)
                WHEN sm_h2 < 7742072716317437952
                THEN CAST(2 AS DOUBLE PRECISION)
                WHEN sm_h2 < 8873102366528919552
                THEN CAST(3 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9155859779081789440
                THEN CAST(4 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9212411261592363008
                THEN CAST(5 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9221836508677457920
                THEN CAST(6 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9223182972546756608
                THEN CAST(7 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9223351280530419712
                THEN CAST(8 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9223369981417492480
                THEN CAST(9 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9223371851506200576
                THEN CAST(10 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9223372021514264576
                THEN CAST(11 AS DOUBLE PRECISION)
                WHEN sm_h2 < 9223372035681603584
                THEN CAST(12 AS DOUBLE PRECISION)
                ELSE CAST(13 AS DOUBLE PRECISION)
              END AS sm_k2,
              CASE
                WHEN sm_h3 < -2437194135585890304
                THEN CAST(0 AS DOUBLE PRECISION)
                WHEN sm_h3 < 4348983765682995200
                THEN CAST(1 AS DOUBLE PRECISION)
                WHEN sm_h3 < 7742072716317437952
                THEN CAST(2 AS DOUBLE PRECISION)
                WHEN sm_h3 < 8873102366528919552
                THEN CAST(3 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9155859779081789440
                THEN CAST(4 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9212411261592363008
                THEN CAST(5 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9221836508677457920
                THEN CAST(6 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9223182972546756608
                THEN CAST(7 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9223351280530419712
                THEN CAST(8 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9223369981417492480
                THEN CAST(9 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9223371851506200576
                THEN CAST(10 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9223372021514264576
                THEN CAST(11 AS DOUBLE PRECISION)
                WHEN sm_h3 < 9223372035681603584
                THEN CAST(12 AS DOUBLE PRECISION)
                ELSE CAST(13 AS DOUBLE PRECISION)
              END AS sm_k3,
              CASE
                WHEN sm_h4 < -2437194135585890304
                THEN CAST(0 AS DOUBLE PRECISION)
                WHEN sm_h4 < 4348983765682995200
                THEN CAST(1 AS DOUBLE PRECISION)
                WHEN sm_h4 < 7742072716317437952
                THEN CAST(2 AS DOUBLE PRECISION)
                WHEN sm_h4 < 8873102366528919552
                THEN CAST(3 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9155859779081789440
                THEN CAST(4 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9212411261592363008
                THEN CAST(5 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9221836508677457920
                THEN CAST(6 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9223182972546756608
                THEN CAST(7 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9223351280530419712
                THEN CAST(8 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9223369981417492480
                THEN CAST(9 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9223371851506200576
                THEN CAST(10 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9223372021514264576
                THEN CAST(11 AS DOUBLE PRECISION)
                WHEN sm_h4 < 9223372035681603584
                THEN CAST(12 AS DOUBLE PRECISION)
                ELSE CAST(13 AS DOUBLE PRECISION)
              END AS sm_k4,
              CASE
                WHEN sm_h5 < -2437194135585890304
                THEN CAST(0 AS DOUBLE PRECISION)
                WHEN sm_h5 < 4348983765682995200
                THEN CAST(1 AS DOUBLE PRECISION)
                WHEN sm_h5 < 7742072716317437952
                THEN CAST(2 AS DOUBLE PRECISION)
                WHEN sm_h5 < 8873102366528919552
                THEN CAST(3 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9155859779081789440
                THEN CAST(4 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9212411261592363008
                THEN CAST(5 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9221836508677457920
                THEN CAST(6 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9223182972546756608
                THEN CAST(7 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9223351280530419712
                THEN CAST(8 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9223369981417492480
                THEN CAST(9 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9223371851506200576
                THEN CAST(10 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9223372021514264576
                THEN CAST(11 AS DOUBLE PRECISION)
                WHEN sm_h5 < 9223372035681603584
                THEN CAST(12 AS DOUBLE PRECISION)
                ELSE CAST(13 AS DOUBLE PRECISION)
              END AS sm_k5,
              CASE
                WHEN sm_h6 < -2437194135585890304
                THEN CAST(0 AS DOUBLE PRECISION)
                WHEN sm_h6 < 4348983765682995200
                THEN CAST(1 AS DOUBLE PRECISION)
                WHEN sm_h6 < 7742072716317437952
                THEN CAST(2 AS DOUBLE PRECISION)
                WHEN sm_h6 < 8873102366528919552
                THEN CAST(3 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9155859779081789440
                THEN CAST(4 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9212411261592363008
                THEN CAST(5 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9221836508677457920
                THEN CAST(6 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9223182972546756608
                THEN CAST(7 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9223351280530419712
                THEN CAST(8 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9223369981417492480
                THEN CAST(9 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9223371851506200576
                THEN CAST(10 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9223372021514264576
                THEN CAST(11 AS DOUBLE PRECISION)
                WHEN sm_h6 < 9223372035681603584
                THEN CAST(12 AS DOUBLE PRECISION)
                ELSE CAST(13 AS DOUBLE PRECISION)
              END AS sm_k6,
              CASE
                WHEN sm_h7 < -2437194135585890304
                THEN CAST(0 AS DOUBLE PRECISION)
                WHEN sm_h7 < 4348983765682995200
                THEN CAST(1 AS DOUBLE PRECISION)
                WHEN sm_h7 < 7742072716317437952
                THEN CAST(2 AS DOUBLE PRECISION)
                WHEN sm_h7 < 8873102366528919552
                THEN CAST(3 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9155859779081789440
                THEN CAST(4 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9212411261592363008
                THEN CAST(5 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9221836508677457920
                THEN CAST(6 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9223182972546756608
                THEN CAST(7 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9223351280530419712
                THEN CAST(8 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9223369981417492480
                THEN CAST(9 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9223371851506200576
                THEN CAST(10 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9223372021514264576
                THEN CAST(11 AS DOUBLE PRECISION)
                WHEN sm_h7 < 9223372035681603584
                THEN CAST(12 AS DOUBLE PRECISION)
                ELSE CAST(13 AS DOUBLE PRECISION)
              END AS sm_k7
            FROM (
              SELECT
                sm_sorted.*,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset0) AS sm_h0,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset1) AS sm_h1,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset2) AS sm_h2,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset3) AS sm_h3,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset4) AS sm_h4,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset5) AS sm_h5,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset6) AS sm_h6,
                HASHINT8EXTENDED(sm_unit_seeded, sm_chunks.sm_offset7) AS sm_h7
              FROM (
                SELECT
                  *
                FROM sm_key_rows
                ORDER BY
                  "country",
                  "sm_key"
              ) AS sm_sorted
              ORDER BY
                "country",
                "sm_key"
              OFFSET 0
            ) AS sm_hashed
          ) AS sm_drawn
          GROUP BY
            "country",
            "sm_key"
        ) AS sm_key_sums
      ) AS sm_running
      GROUP BY
        "country"
    ) AS sm_chunk_wins
    JOIN sm_slices
      ON (
        sm_chunk_wins."country" IS NOT DISTINCT FROM sm_slices."country"
      )
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
    sm_estimated."country" IS NOT DISTINCT FROM sm_spread."country"
  )
