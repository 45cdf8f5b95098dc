WITH sm_cmp_scores AS (
  SELECT
    `country`,
    `user_id`,
    `clicked`,
    `impressions`,
    `pctr` AS sm_cmp_score,
    0 AS sm_cmp_system
  FROM analytics.preds
  UNION ALL
  SELECT
    `country`,
    `user_id`,
    `clicked`,
    `impressions`,
    `pctr_baseline` AS sm_cmp_score,
    1 AS sm_cmp_system
  FROM analytics.preds
), sm_cmp_groups AS (
  SELECT
    `country`,
    `user_id`,
    `sm_cmp_system`,
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
        PARTITION BY `country`, `user_id`, `sm_cmp_system`
        ORDER BY sm_s NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ) AS sm_w_neg_below,
      SUM(sm_w_neg) OVER (PARTITION BY `country`, `user_id`, `sm_cmp_system`) AS sm_w_neg_all
    FROM (
      SELECT
        `country`,
        `user_id`,
        `sm_cmp_system`,
        sm_s,
        SUM(sm_rows) AS sm_n,
        SUM(sm_pos * sm_rows) AS sm_n_pos,
        CAST(SUM(sm_pos * sm_weight) AS DOUBLE) AS sm_w_pos,
        CAST(SUM((
          1 - sm_pos
        ) * sm_weight) AS DOUBLE) AS sm_w_neg
      FROM (
        SELECT
          `country`,
          `user_id`,
          `sm_cmp_system`,
          sm_s,
          sm_rows,
          sm_weight,
          CASE
            WHEN `clicked` = 1
            THEN 1
            WHEN `clicked` = 0
            THEN 0
            ELSE CASE
              WHEN COALESCE(NOT (
                `clicked` = 1 OR `clicked` = 0
              ), TRUE)
              THEN RAISE_ERROR(
                'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST(`clicked` AS STRING), 'NULL')
              )
            END
          END AS sm_pos
        FROM (
          SELECT
            `country`,
            `user_id`,
            `sm_cmp_system`,
            `clicked`,
            `sm_cmp_score` AS sm_s,
            COUNT(*) AS sm_rows,
            SUM(CAST(`impressions` AS DOUBLE)) AS sm_weight
          FROM sm_cmp_scores
          GROUP BY
            `country`,
            `user_id`,
            `sm_cmp_system`,
            `sm_cmp_score`,
            `clicked`
        ) AS sm_labelled
      ) AS sm_by_label
      GROUP BY
        `country`,
        `user_id`,
        `sm_cmp_system`,
        sm_s
    ) AS sm_by_score
  ) AS sm_cumulative
  GROUP BY
    `country`,
    `user_id`,
    `sm_cmp_system`
), sm_cmp_units AS (
  SELECT
    `country`,
    `user_id`,
    MAX(CASE WHEN sm_cmp_system = 0 THEN sm_group_auc END) AS sm_a,
    MAX(CASE WHEN sm_cmp_system = 1 THEN sm_group_auc END) AS sm_b,
    MAX(sm_group_weight) AS sm_v
  FROM (
    SELECT
      sm_cmp_groups.*,
      (
        CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
      ) AS sm_group_auc,
      CAST(sm_w_pos + sm_w_neg AS DOUBLE) AS sm_group_weight
    FROM sm_cmp_groups
    WHERE
      sm_w_pos > 0 AND sm_w_neg > 0
  ) AS sm_cmp_group_aucs
  GROUP BY
    `country`,
    `user_id`
), sm_cmp_summary AS (
  SELECT
    `country`,
    CAST(COUNT(*) AS BIGINT) AS sm_n,
    SUM(sm_v) AS sm_sv,
    (
      CAST(SUM(sm_v * sm_a) AS DOUBLE) / NULLIF(CAST(SUM(sm_v) AS DOUBLE), 0)
    ) AS sm_estimate,
    (
      CAST(SUM(sm_v * sm_b) AS DOUBLE) / NULLIF(CAST(SUM(sm_v) AS DOUBLE), 0)
    ) AS sm_other_estimate,
    (
      CAST(SUM(sm_v * (
        sm_a - sm_b
      )) AS DOUBLE) / NULLIF(CAST(SUM(sm_v) AS DOUBLE), 0)
    ) AS sm_difference,
    CAST(SUM(CASE WHEN sm_a - sm_b >= 0.5e-12 THEN 1 ELSE 0 END) AS BIGINT) AS sm_wins,
    CAST(SUM(CASE WHEN sm_b - sm_a >= 0.5e-12 THEN 1 ELSE 0 END) AS BIGINT) AS sm_losses
  FROM sm_cmp_units
  GROUP BY
    `country`
), sm_cmp_deviations AS (
  SELECT
    sm_cmp_units.`country` AS `country`,
    sm_cmp_units.`user_id` AS `user_id`,
    sm_cmp_units.sm_v AS sm_v,
    sm_cmp_units.sm_a - sm_cmp_units.sm_b AS sm_d,
    sm_cmp_summary.sm_difference AS sm_mean_d
  FROM sm_cmp_units
  JOIN sm_cmp_summary
    ON (
      sm_cmp_units.`country` IS NOT DISTINCT FROM sm_cmp_summary.`country`
    )
), sm_cmp_squares AS (
  SELECT
    `country`,
    SUM(sm_v * sm_v * (
      sm_d - sm_mean_d
    ) * (
      sm_d - sm_mean_d
    )) AS sm_ss
  FROM sm_cmp_deviations
  GROUP BY
    `country`
), sm_cmp_spread AS (
  SELECT
    sm_cmp_summary.*,
    CASE
      WHEN sm_n > 1
      THEN (
        CAST(SQRT(
          (
            CAST(sm_n AS DOUBLE) / NULLIF(CAST(sm_n - 1 AS DOUBLE), 0)
          ) * CASE WHEN sm_cmp_squares.sm_ss > 0 THEN sm_cmp_squares.sm_ss ELSE 0 END
        ) AS DOUBLE) / NULLIF(CAST(sm_sv AS DOUBLE), 0)
      )
    END AS sm_se
  FROM sm_cmp_summary
  JOIN sm_cmp_squares
    ON (
      sm_cmp_summary.`country` IS NOT DISTINCT FROM sm_cmp_squares.`country`
    )
), sm_cmp_t AS (
  SELECT
    sm_cmp_spread.*,
    CASE
      WHEN sm_se > 0
      THEN (
        CAST(sm_difference AS DOUBLE) / NULLIF(CAST(sm_se AS DOUBLE), 0)
      )
      WHEN sm_se = 0 AND sm_difference = 0
      THEN 0
    END AS sm_t,
    sm_n - 1 AS sm_df
  FROM sm_cmp_spread
), sm_cmp_hashed AS (
  SELECT
    `country`,
    `user_id`,
    sm_v * sm_d AS sm_vd,
    PMOD(XXHASH64(`country`, `user_id`), 2147483647) AS sm_unit
  FROM sm_cmp_deviations
), sm_cmp_resamples AS (
  SELECT
    sm_replicate
  FROM (
    SELECT
      sm_d0.sm_digit * 1 + sm_d1.sm_digit * 10 + sm_d2.sm_digit * 100 + sm_d3.sm_digit * 1000 AS sm_replicate
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
    ) AS sm_d2
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
    ) AS sm_d3
  ) AS sm_numbers
  WHERE
    sm_replicate <= 1000
), sm_cmp_flipped AS (
  SELECT
    `country`,
    sm_replicate,
    SUM(CASE WHEN sm_uniform < 0.5 THEN -sm_vd ELSE sm_vd END) AS sm_flipped
  FROM (
    SELECT
      sm_second.*,
      CAST((
        (
          sm_r3 * sm_r3 + 54321
        ) % 2147483647 * 48271
      ) % 2147483647 AS DOUBLE) / 2147483647 AS sm_uniform
    FROM (
      SELECT
        sm_first.*,
        (
          (
            sm_r1 * sm_r1 + 12345
          ) % 2147483647 * 16807 + sm_unit
        ) % 2147483647 AS sm_r3
      FROM (
        SELECT
          sm_seeded_units.*,
          sm_seeds.sm_replicate,
          (
            sm_seeded_units.sm_unit_seeded + sm_seeds.sm_offset
          ) % 2147483647 AS sm_r1
        FROM (
          SELECT
            sm_cmp_hashed.*,
            (
              (
                sm_unit + 1
              ) * 48271
            ) % 2147483647 AS sm_unit_seeded
          FROM sm_cmp_hashed
        ) AS sm_seeded_units
        CROSS JOIN (
          SELECT
            sm_replicate,
            (
              CAST(sm_replicate AS BIGINT) * 1000003 * 48271
            ) % 2147483647 AS sm_offset
          FROM sm_cmp_resamples
        ) AS sm_seeds
      ) AS sm_first
    ) AS sm_second
  ) AS sm_drawn
  WHERE
    sm_replicate > 0
  GROUP BY
    `country`,
    `sm_replicate`
), sm_cmp_observed AS (
  SELECT
    `country`,
    SUM(sm_vd) AS sm_observed
  FROM sm_cmp_hashed
  GROUP BY
    `country`
), sm_cmp_extreme AS (
  SELECT
    sm_cmp_observed.`country` AS `country`,
    SUM(
      CASE
        WHEN ABS(sm_cmp_flipped.sm_flipped) >= ABS(sm_cmp_observed.sm_observed) * (
          1 - 1e-12
        )
        THEN 1
        ELSE 0
      END
    ) AS sm_as_far
  FROM sm_cmp_flipped
  JOIN sm_cmp_observed
    ON (
      sm_cmp_flipped.`country` IS NOT DISTINCT FROM sm_cmp_observed.`country`
    )
  GROUP BY
    sm_cmp_observed.`country`
), sm_cmp_tested AS (
  SELECT
    sm_cmp_t.*,
    sm_difference AS sm_statistic,
    (
      CAST(1 + sm_cmp_extreme.sm_as_far AS DOUBLE) / NULLIF(CAST(1001 AS DOUBLE), 0)
    ) AS sm_p
  FROM sm_cmp_t
  JOIN sm_cmp_extreme
    ON (
      sm_cmp_t.`country` IS NOT DISTINCT FROM sm_cmp_extreme.`country`
    )
), sm_cmp_result AS (
  SELECT
    `country`,
    sm_estimate AS estimate,
    sm_other_estimate AS other_estimate,
    sm_difference AS difference,
    sm_se AS std_error,
    sm_statistic AS statistic,
    CASE WHEN sm_p > 1 THEN 1 ELSE sm_p END AS p_value,
    sm_difference - sm_t_q * sm_se AS ci_low,
    sm_difference + sm_t_q * sm_se AS ci_high,
    sm_n AS n_units,
    sm_wins AS n_wins,
    sm_n - sm_wins - sm_losses AS n_ties,
    sm_losses AS n_losses
  FROM (
    SELECT
      sm_cmp_tested.*,
      CASE
        WHEN sm_df = 1
        THEN 1.27062047361746426e+01
        WHEN sm_df = 2
        THEN 4.30265272974946100e+00
        WHEN sm_df = 3
        THEN 3.18244630528370598e+00
        WHEN sm_df = 4
        THEN 2.77644510519778986e+00
        WHEN sm_df = 5
        THEN 2.57058183563631193e+00
        WHEN sm_df = 6
        THEN 2.44691185114496834e+00
        WHEN sm_df = 7
        THEN 2.36462425159278222e+00
        WHEN sm_df = 8
        THEN 2.30600413520416403e+00
        WHEN sm_df = 9
        THEN 2.26215716279820489e+00
        WHEN sm_df = 10
        THEN 2.22813885198627615e+00
        WHEN sm_df = 11
        THEN 2.20098516009163792e+00
        WHEN sm_df = 12
        THEN 2.17881282966723022e+00
        WHEN sm_df = 13
        THEN 2.16036865646279175e+00
        WHEN sm_df = 14
        THEN 2.14478668791780347e+00
        WHEN sm_df = 15
        THEN 2.13144954555977240e+00
        WHEN sm_df = 16
        THEN 2.11990529922125370e+00
        WHEN sm_df = 17
        THEN 2.10981557783331564e+00
        WHEN sm_df = 18
        THEN 2.10092204024103690e+00
        WHEN sm_df = 19
        THEN 2.09302405440830963e+00
        WHEN sm_df = 20
        THEN 2.08596344726586569e+00
        WHEN sm_df = 21
        THEN 2.07961384472767774e+00
        WHEN sm_df = 22
        THEN 2.07387306790402626e+00
        WHEN sm_df = 23
        THEN 2.06865761041904683e+00
        WHEN sm_df = 24
        THEN 2.06389856162802277e+00
        WHEN sm_df = 25
        THEN 2.05953855275329722e+00
        WHEN sm_df = 26
        THEN 2.05552943864287396e+00
        WHEN sm_df = 27
        THEN 2.05183051648028414e+00
        WHEN sm_df = 28
        THEN 2.04840714179524230e+00
        WHEN sm_df = 29
        THEN 2.04522964213270164e+00
        WHEN sm_df = 30
        THEN 2.04227245630123821e+00
        WHEN sm_df = 31
        THEN 2.03951344639640775e+00
        WHEN sm_df = 32
        THEN 2.03693334346010024e+00
        WHEN sm_df = 33
        THEN 2.03451529744933834e+00
        WHEN sm_df = 34
        THEN 2.03224450931772083e+00
        WHEN sm_df = 35
        THEN 2.03010792825034247e+00
        WHEN sm_df = 36
        THEN 2.02809400098044978e+00
        WHEN sm_df = 37
        THEN 2.02619246302910927e+00
        WHEN sm_df = 38
        THEN 2.02439416391197158e+00
        WHEN sm_df = 39
        THEN 2.02269092003676265e+00
        WHEN sm_df = 40
        THEN 2.02107539030627237e+00
        WHEN sm_df = 41
        THEN 2.01954097044137493e+00
        WHEN sm_df = 42
        THEN 2.01808170281844390e+00
        WHEN sm_df = 43
        THEN 2.01669219922782350e+00
        WHEN sm_df = 44
        THEN 2.01536757444376180e+00
        WHEN sm_df = 45
        THEN 2.01410338888084484e+00
        WHEN sm_df = 46
        THEN 2.01289559891943304e+00
        WHEN sm_df = 47
        THEN 2.01174051372976503e+00
        WHEN sm_df = 48
        THEN 2.01063475762423138e+00
        WHEN sm_df = 49
        THEN 2.00957523712924013e+00
        WHEN sm_df = 50
        THEN 2.00855911210076110e+00
        WHEN sm_df = 51
        THEN 2.00758377031583679e+00
        WHEN sm_df = 52
        THEN 2.00664680506168613e+00
        WHEN sm_df = 53
        THEN 2.00574599531786513e+00
        WHEN sm_df = 54
        THEN 2.00487928818805594e+00
        WHEN sm_df = 55
        THEN 2.00404478328914681e+00
        WHEN sm_df = 56
        THEN 2.00324071884787047e+00
        WHEN sm_df = 57
        THEN 2.00246545929100339e+00
        WHEN sm_df = 58
        THEN 2.00171748414523654e+00
        WHEN sm_df = 59
        THEN 2.00099537808826344e+00
        WHEN sm_df = 60
        THEN 2.00029782201426043e+00
        WHEN sm_df = 61
        THEN 1.99962358499493731e+00
        WHEN sm_df = 62
        THEN 1.99897151703337683e+00
        WHEN sm_df = 63
        THEN 1.99834054252073767e+00
        WHEN sm_df = 64
        THEN 1.99772965431769656e+00
        WHEN sm_df = 65
        THEN 1.99713790839200378e+00
        WHEN sm_df = 66
        THEN 1.99656441895231462e+00
        WHEN sm_df = 67
        THEN 1.99600835402529331e+00
        WHEN sm_df = 68
        THEN 1.99546893142984416e+00
        WHEN sm_df = 69
        THEN 1.99494541510723278e+00
        WHEN sm_df = 70
        THEN 1.99443711177118765e+00
        WHEN sm_df = 71
        THEN 1.99394336784562887e+00
        WHEN sm_df = 72
        THEN 1.99346356666187208e+00
        WHEN sm_df = 73
        THEN 1.99299712588985267e+00
        WHEN sm_df = 74
        THEN 1.99254349518093155e+00
        WHEN sm_df = 75
        THEN 1.99210215400224122e+00
        WHEN sm_df = 76
        THEN 1.99167260964467041e+00
        WHEN sm_df = 77
        THEN 1.99125439538838411e+00
        WHEN sm_df = 78
        THEN 1.99084706881168794e+00
        WHEN sm_df = 79
        THEN 1.99045021023012669e+00
        WHEN sm_df = 80
        THEN 1.99006342125444657e+00
        WHEN sm_df = 81
        THEN 1.98968632345689866e+00
        WHEN sm_df = 82
        THEN 1.98931855713657457e+00
        WHEN sm_df = 83
        THEN 1.98895978017516106e+00
        WHEN sm_df = 84
        THEN 1.98860966697571473e+00
        WHEN sm_df = 85
        THEN 1.98826790747721716e+00
        WHEN sm_df = 86
        THEN 1.98793420623902484e+00
        WHEN sm_df = 87
        THEN 1.98760828158906966e+00
        WHEN sm_df = 88
        THEN 1.98728986483117409e+00
        WHEN sm_df = 89
        THEN 1.98697869950627770e+00
        WHEN sm_df = 90
        THEN 1.98667454070376914e+00
        WHEN sm_df = 91
        THEN 1.98637715441861862e+00
        WHEN sm_df = 92
        THEN 1.98608631695112448e+00
        WHEN sm_df = 93
        THEN 1.98580181434582315e+00
        WHEN sm_df = 94
        THEN 1.98552344186660745e+00
        WHEN sm_df = 95
        THEN 1.98525100350549222e+00
        WHEN sm_df = 96
        THEN 1.98498431152245480e+00
        WHEN sm_df = 97
        THEN 1.98472318601398023e+00
        WHEN sm_df = 98
        THEN 1.98446745450847906e+00
        WHEN sm_df = 99
        THEN 1.98421695158641542e+00
        ELSE 1.959963984540054 + (
          CAST(2.372271230298562 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 1) AS DOUBLE), 0)
        ) + (
          CAST(2.8224986157396112 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 2) AS DOUBLE), 0)
        ) + (
          CAST(2.555849679507722 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 3) AS DOUBLE), 0)
        ) + (
          CAST(1.5895340533938225 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 4) AS DOUBLE), 0)
        ) + (
          CAST(0.7328982119816051 AS DOUBLE) / NULLIF(CAST(POWER(sm_df, 5) AS DOUBLE), 0)
        )
      END AS sm_t_q
    FROM sm_cmp_tested
  ) AS sm_cmp_interval
)
SELECT
  `country`,
  estimate,
  other_estimate,
  difference,
  std_error,
  statistic,
  p_value,
  ci_low,
  ci_high,
  n_units,
  n_wins,
  n_ties,
  n_losses,
  p_value_holm
FROM (
  SELECT
    sm_holm_terms.*,
    CASE
      WHEN p_value IS NULL
      THEN NULL
      WHEN MAX(sm_holm_term) OVER (
        ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END NULLS LAST, p_value NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) > 1
      THEN 1
      ELSE MAX(sm_holm_term) OVER (
        ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END NULLS LAST, p_value NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      )
    END AS p_value_holm
  FROM (
    SELECT
      sm_cmp_result.*,
      CASE
        WHEN NOT p_value IS NULL
        THEN (
          COUNT(p_value) OVER () - ROW_NUMBER() OVER (
            ORDER BY CASE WHEN p_value IS NULL THEN 1 ELSE 0 END NULLS LAST, p_value NULLS LAST
          ) + 1
        ) * p_value
      END AS sm_holm_term
    FROM sm_cmp_result
  ) AS sm_holm_terms
) AS sm_adjusted
