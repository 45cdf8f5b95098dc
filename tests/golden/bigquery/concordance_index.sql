WITH sm_cells AS (
  SELECT
    `country`,
    sm_t,
    sm_e,
    sm_risk,
    COUNT(*) AS sm_n
  FROM (
    SELECT
      `country`,
      CAST(`revenue` AS FLOAT64) AS sm_t,
      CASE
        WHEN `clicked` = 1
        THEN 1
        WHEN `clicked` = 0
        THEN 0
        ELSE CASE
          WHEN COALESCE(NOT (
            `clicked` = 1 OR `clicked` = 0
          ), TRUE)
          THEN ERROR(
            'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST(`clicked` AS STRING), 'NULL')
          )
        END
      END AS sm_e,
      CAST(`pctr` AS FLOAT64) AS sm_risk
    FROM analytics.preds
  ) AS sm_rows
  GROUP BY
    `country`,
    `sm_t`,
    `sm_e`,
    `sm_risk`
), sm_times AS (
  SELECT
    `country`,
    sm_t,
    SUM(sm_n) AS sm_at
  FROM sm_cells
  GROUP BY
    `country`,
    `sm_t`
), sm_time_order_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < CAST('inf' AS FLOAT64)
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
    END AS INT64) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(sm_t AS FLOAT64) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(sm_t AS FLOAT64)) >= 2.2250738585072014e-308
          AND ABS(CAST(sm_t AS FLOAT64)) < CAST('inf' AS FLOAT64)
        )
        THEN NULL
        WHEN ABS(CAST(sm_t AS FLOAT64)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(sm_t AS FLOAT64))) / LN(2)
        ))
      END AS FLOAT64) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_times
    ) AS sm_valued
  ) AS sm_exponents
), sm_time_order_offsets AS (
  SELECT
    `country`,
    `sm_bucket`,
    SUM(sm_bucket_sm_at) OVER (
      PARTITION BY `country`
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_at,
    SUM(sm_bucket_sm_at) OVER (PARTITION BY `country`) AS sm_total_sm_at
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      SUM(sm_at) AS sm_bucket_sm_at
    FROM sm_time_order_bucketed
    GROUP BY
      `country`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_time_order AS (
  SELECT
    `country`,
    `sm_bucket`,
    sm_t,
    sm_at,
    sm_at_run,
    sm_at_all
  FROM (
    SELECT
      `country`,
      `sm_bucket`,
      sm_kind,
      sm_t,
      sm_at,
      SUM(sm_add_sm_at) OVER (
        PARTITION BY `country`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_t ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_at_run,
      MAX(sm_slice_sm_at) OVER (PARTITION BY `country`, `sm_bucket`) AS sm_at_all
    FROM (
      SELECT
        `country`,
        `sm_bucket`,
        0 AS sm_kind,
        sm_t,
        sm_at,
        sm_at AS sm_add_sm_at,
        NULL AS sm_slice_sm_at
      FROM sm_time_order_bucketed
      UNION ALL
      SELECT
        `country`,
        `sm_bucket`,
        1 AS sm_kind,
        NULL AS sm_t,
        NULL AS sm_at,
        sm_before_sm_at AS sm_add_sm_at,
        sm_total_sm_at AS sm_slice_sm_at
      FROM sm_time_order_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_positioned AS (
  SELECT
    sm_c.`country` AS `country`,
    sm_c.sm_e AS sm_e,
    sm_c.sm_risk AS sm_risk,
    sm_c.sm_n AS sm_n,
    2 * (
      sm_time_order.sm_at_run - sm_time_order.sm_at
    ) + 1 - sm_c.sm_e AS sm_pos,
    2 * sm_time_order.sm_at_all AS sm_last
  FROM sm_cells AS sm_c
  JOIN sm_time_order
    ON (
      sm_c.`country` IS NOT DISTINCT FROM sm_time_order.`country`
    )
    AND sm_c.sm_t = sm_time_order.sm_t
), sm_steps AS (
  SELECT
    1 AS sm_step,
    CAST(1.0 AS FLOAT64) AS sm_per_half,
    CAST(0.5 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    2 AS sm_step,
    CAST(0.5 AS FLOAT64) AS sm_per_half,
    CAST(0.25 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    4 AS sm_step,
    CAST(0.25 AS FLOAT64) AS sm_per_half,
    CAST(0.125 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    8 AS sm_step,
    CAST(0.125 AS FLOAT64) AS sm_per_half,
    CAST(0.0625 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    16 AS sm_step,
    CAST(0.0625 AS FLOAT64) AS sm_per_half,
    CAST(0.03125 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    32 AS sm_step,
    CAST(0.03125 AS FLOAT64) AS sm_per_half,
    CAST(0.015625 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    64 AS sm_step,
    CAST(0.015625 AS FLOAT64) AS sm_per_half,
    CAST(0.0078125 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    128 AS sm_step,
    CAST(0.0078125 AS FLOAT64) AS sm_per_half,
    CAST(0.00390625 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    256 AS sm_step,
    CAST(0.00390625 AS FLOAT64) AS sm_per_half,
    CAST(0.001953125 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    512 AS sm_step,
    CAST(0.001953125 AS FLOAT64) AS sm_per_half,
    CAST(0.0009765625 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    1024 AS sm_step,
    CAST(0.0009765625 AS FLOAT64) AS sm_per_half,
    CAST(0.00048828125 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    2048 AS sm_step,
    CAST(0.00048828125 AS FLOAT64) AS sm_per_half,
    CAST(0.000244140625 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    4096 AS sm_step,
    CAST(0.000244140625 AS FLOAT64) AS sm_per_half,
    CAST(0.0001220703125 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    8192 AS sm_step,
    CAST(0.0001220703125 AS FLOAT64) AS sm_per_half,
    CAST(6.103515625e-05 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    16384 AS sm_step,
    CAST(6.103515625e-05 AS FLOAT64) AS sm_per_half,
    CAST(3.0517578125e-05 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    32768 AS sm_step,
    CAST(3.0517578125e-05 AS FLOAT64) AS sm_per_half,
    CAST(1.52587890625e-05 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    65536 AS sm_step,
    CAST(1.52587890625e-05 AS FLOAT64) AS sm_per_half,
    CAST(7.62939453125e-06 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    131072 AS sm_step,
    CAST(7.62939453125e-06 AS FLOAT64) AS sm_per_half,
    CAST(3.814697265625e-06 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    262144 AS sm_step,
    CAST(3.814697265625e-06 AS FLOAT64) AS sm_per_half,
    CAST(1.9073486328125e-06 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    524288 AS sm_step,
    CAST(1.9073486328125e-06 AS FLOAT64) AS sm_per_half,
    CAST(9.5367431640625e-07 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    1048576 AS sm_step,
    CAST(9.5367431640625e-07 AS FLOAT64) AS sm_per_half,
    CAST(4.76837158203125e-07 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    2097152 AS sm_step,
    CAST(4.76837158203125e-07 AS FLOAT64) AS sm_per_half,
    CAST(2.384185791015625e-07 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    4194304 AS sm_step,
    CAST(2.384185791015625e-07 AS FLOAT64) AS sm_per_half,
    CAST(1.1920928955078125e-07 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    8388608 AS sm_step,
    CAST(1.1920928955078125e-07 AS FLOAT64) AS sm_per_half,
    CAST(5.960464477539063e-08 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    16777216 AS sm_step,
    CAST(5.960464477539063e-08 AS FLOAT64) AS sm_per_half,
    CAST(2.9802322387695312e-08 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    33554432 AS sm_step,
    CAST(2.9802322387695312e-08 AS FLOAT64) AS sm_per_half,
    CAST(1.4901161193847656e-08 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    67108864 AS sm_step,
    CAST(1.4901161193847656e-08 AS FLOAT64) AS sm_per_half,
    CAST(7.450580596923828e-09 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    134217728 AS sm_step,
    CAST(7.450580596923828e-09 AS FLOAT64) AS sm_per_half,
    CAST(3.725290298461914e-09 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    268435456 AS sm_step,
    CAST(3.725290298461914e-09 AS FLOAT64) AS sm_per_half,
    CAST(1.862645149230957e-09 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    536870912 AS sm_step,
    CAST(1.862645149230957e-09 AS FLOAT64) AS sm_per_half,
    CAST(9.313225746154785e-10 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    1073741824 AS sm_step,
    CAST(9.313225746154785e-10 AS FLOAT64) AS sm_per_half,
    CAST(4.656612873077393e-10 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    2147483648 AS sm_step,
    CAST(4.656612873077393e-10 AS FLOAT64) AS sm_per_half,
    CAST(2.3283064365386963e-10 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    4294967296 AS sm_step,
    CAST(2.3283064365386963e-10 AS FLOAT64) AS sm_per_half,
    CAST(1.1641532182693481e-10 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    8589934592 AS sm_step,
    CAST(1.1641532182693481e-10 AS FLOAT64) AS sm_per_half,
    CAST(5.820766091346741e-11 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    17179869184 AS sm_step,
    CAST(5.820766091346741e-11 AS FLOAT64) AS sm_per_half,
    CAST(2.9103830456733704e-11 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    34359738368 AS sm_step,
    CAST(2.9103830456733704e-11 AS FLOAT64) AS sm_per_half,
    CAST(1.4551915228366852e-11 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    68719476736 AS sm_step,
    CAST(1.4551915228366852e-11 AS FLOAT64) AS sm_per_half,
    CAST(7.275957614183426e-12 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    137438953472 AS sm_step,
    CAST(7.275957614183426e-12 AS FLOAT64) AS sm_per_half,
    CAST(3.637978807091713e-12 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    274877906944 AS sm_step,
    CAST(3.637978807091713e-12 AS FLOAT64) AS sm_per_half,
    CAST(1.8189894035458565e-12 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    549755813888 AS sm_step,
    CAST(1.8189894035458565e-12 AS FLOAT64) AS sm_per_half,
    CAST(9.094947017729282e-13 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    1099511627776 AS sm_step,
    CAST(9.094947017729282e-13 AS FLOAT64) AS sm_per_half,
    CAST(4.547473508864641e-13 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    2199023255552 AS sm_step,
    CAST(4.547473508864641e-13 AS FLOAT64) AS sm_per_half,
    CAST(2.2737367544323206e-13 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    4398046511104 AS sm_step,
    CAST(2.2737367544323206e-13 AS FLOAT64) AS sm_per_half,
    CAST(1.1368683772161603e-13 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    8796093022208 AS sm_step,
    CAST(1.1368683772161603e-13 AS FLOAT64) AS sm_per_half,
    CAST(5.684341886080802e-14 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    17592186044416 AS sm_step,
    CAST(5.684341886080802e-14 AS FLOAT64) AS sm_per_half,
    CAST(2.842170943040401e-14 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    35184372088832 AS sm_step,
    CAST(2.842170943040401e-14 AS FLOAT64) AS sm_per_half,
    CAST(1.4210854715202004e-14 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    70368744177664 AS sm_step,
    CAST(1.4210854715202004e-14 AS FLOAT64) AS sm_per_half,
    CAST(7.105427357601002e-15 AS FLOAT64) AS sm_per_block
  UNION ALL
  SELECT
    140737488355328 AS sm_step,
    CAST(7.105427357601002e-15 AS FLOAT64) AS sm_per_half,
    CAST(3.552713678800501e-15 AS FLOAT64) AS sm_per_block
), sm_halves AS (
  SELECT
    `country`,
    sm_e,
    sm_risk,
    sm_n,
    sm_step,
    FLOOR(sm_pos * sm_per_block) AS sm_block,
    FLOOR(sm_pos * sm_per_half) - 2 * FLOOR(sm_pos * sm_per_block) AS sm_upper
  FROM sm_positioned
  CROSS JOIN sm_steps
  WHERE
    sm_steps.sm_step <= sm_positioned.sm_last
), sm_blocks AS (
  SELECT
    `country`,
    `sm_step`,
    `sm_block`,
    sm_risk,
    SUM(CASE WHEN sm_upper = 0 THEN sm_e * sm_n ELSE 0 END) AS sm_events,
    SUM(CASE WHEN sm_upper = 1 THEN sm_n ELSE 0 END) AS sm_later
  FROM sm_halves
  GROUP BY
    `country`,
    `sm_step`,
    `sm_block`,
    `sm_risk`
), sm_below_bucketed AS (
  SELECT
    sm_exponents.*,
    CAST(CASE
      WHEN sm_x = 0
      THEN 0
      WHEN NOT (
        ABS(sm_x) < CAST('inf' AS FLOAT64)
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
    END AS INT64) AS sm_bucket
  FROM (
    SELECT
      sm_valued.*,
      CAST(sm_risk AS FLOAT64) AS sm_x,
      CAST(CASE
        WHEN NOT (
          ABS(CAST(sm_risk AS FLOAT64)) >= 2.2250738585072014e-308
          AND ABS(CAST(sm_risk AS FLOAT64)) < CAST('inf' AS FLOAT64)
        )
        THEN NULL
        WHEN ABS(CAST(sm_risk AS FLOAT64)) >= 8.98846567431158e307
        THEN 1023
        ELSE FLOOR((
          LN(ABS(CAST(sm_risk AS FLOAT64))) / LN(2)
        ))
      END AS FLOAT64) AS sm_e
    FROM (
      SELECT
        *
      FROM sm_blocks
    ) AS sm_valued
  ) AS sm_exponents
), sm_below_offsets AS (
  SELECT
    `country`,
    `sm_step`,
    `sm_block`,
    `sm_bucket`,
    SUM(sm_bucket_sm_later) OVER (
      PARTITION BY `country`, `sm_step`, `sm_block`
      ORDER BY sm_bucket ASC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS sm_before_sm_later,
    SUM(sm_bucket_sm_later) OVER (PARTITION BY `country`, `sm_step`, `sm_block`) AS sm_total_sm_later
  FROM (
    SELECT
      `country`,
      `sm_step`,
      `sm_block`,
      `sm_bucket`,
      SUM(sm_later) AS sm_bucket_sm_later
    FROM sm_below_bucketed
    GROUP BY
      `country`,
      `sm_step`,
      `sm_block`,
      `sm_bucket`
  ) AS sm_per_bucket
), sm_below AS (
  SELECT
    `country`,
    `sm_step`,
    `sm_block`,
    `sm_bucket`,
    sm_risk,
    sm_events,
    sm_later,
    sm_later_run,
    sm_later_all
  FROM (
    SELECT
      `country`,
      `sm_step`,
      `sm_block`,
      `sm_bucket`,
      sm_kind,
      sm_risk,
      sm_events,
      sm_later,
      SUM(sm_add_sm_later) OVER (
        PARTITION BY `country`, `sm_step`, `sm_block`, `sm_bucket`
        ORDER BY sm_kind DESC, sm_risk ASC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS sm_later_run,
      MAX(sm_slice_sm_later) OVER (PARTITION BY `country`, `sm_step`, `sm_block`, `sm_bucket`) AS sm_later_all
    FROM (
      SELECT
        `country`,
        `sm_step`,
        `sm_block`,
        `sm_bucket`,
        0 AS sm_kind,
        sm_risk,
        sm_events,
        sm_later,
        sm_later AS sm_add_sm_later,
        NULL AS sm_slice_sm_later
      FROM sm_below_bucketed
      UNION ALL
      SELECT
        `country`,
        `sm_step`,
        `sm_block`,
        `sm_bucket`,
        1 AS sm_kind,
        NULL AS sm_risk,
        NULL AS sm_events,
        NULL AS sm_later,
        sm_before_sm_later AS sm_add_sm_later,
        sm_total_sm_later AS sm_slice_sm_later
      FROM sm_below_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE
    sm_kind = 0
), sm_pairs AS (
  SELECT
    `country`,
    CAST(SUM(sm_events * (
      sm_later_run - sm_later
    )) AS INT64) AS concordant,
    CAST(SUM(sm_events * sm_later) AS INT64) AS tied_risk,
    CAST(SUM(sm_events * sm_later_all) AS INT64) AS comparable
  FROM sm_below
  GROUP BY
    `country`
)
SELECT
  `country`,
  (
    CAST(concordant + 0.5 * tied_risk AS FLOAT64) / NULLIF(CAST(comparable AS FLOAT64), 0)
  ) AS concordance_index,
  concordant,
  comparable - concordant - tied_risk AS discordant,
  tied_risk,
  comparable
FROM sm_pairs
