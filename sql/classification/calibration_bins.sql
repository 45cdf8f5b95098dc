{#- Shared frame of calibration_curve and ece: the reliability bins of predicted probabilities, as
    sklearn.calibration.calibration_curve(y, p, n_bins, strategy) builds them. Renders CTE definitions
    (to follow a WITH) ending in sm_bins: one row per (slice, non-empty bin) with
      sm_bin      0-based bin index (sklearn's binids),
      sm_rows     rows in the bin,
      sm_weight   sum of w, sm_wp = sum of w*p, sm_wy = sum of w*y (w = 1 when unweighted).

    Bin of a probability p: the number of inner edges e_1 .. e_(n_bins-1) strictly below p, i.e.
    np.searchsorted(edges[1:-1], p) (side='left'): a probability exactly on an edge goes to the lower
    bin, 0 to bin 0 and 1 to bin n_bins-1. Edges are computed with numpy's floating-point operations so
    that probabilities on an edge are placed exactly as sklearn places them:
    - 'uniform': e_j = j * (1/n_bins) in double precision (np.linspace, e.g. 3 * 0.1 = 0.30000000000000004).
      A candidate k = FLOOR(p*n_bins) is within one bin of the answer; comparing p with e_k and e_(k+1)
      settles it, so the bins cost one pass with no sort.
    - 'quantile': np.percentile(p, linspace(0, 1, n_bins+1)*100) of the slice's rows (all rows, whatever
      their weight: the edges are unweighted quantiles), method 'linear': q_j = (e_j*100)/100,
      v_j = (N-1)*q_j, lo/hi = the order statistics at FLOOR(v_j) and FLOOR(v_j)+1 (capped at N-1),
      gamma = v_j - FLOOR(v_j), edge = hi - (hi-lo)*(1-gamma) if gamma >= 0.5 else lo + (hi-lo)*gamma
      (numpy's _lerp, both branches). The order statistics come from one window pass over the sorted
      rows (each carrying the next value, LEAD) with the edge requests interleaved at position v_j: the
      running maxima of p and of the next value at a request are lo and hi, the rows being sorted (no
      join, so NULL slices work); the bins come from a second pass over rows and edges sorted together
      (an edge equal to p sorts after it, so it is not below p).
      QUANTILE_CONT is not used: its interpolation (lo + (hi-lo)*gamma only) can differ from numpy's
      in the last bit, which moves probabilities that sit on an edge.
      plan='parallel' (quantile_bins_in_parallel): the same edges and bins with no window over all
      the rows or distinct probabilities of a slice. -#}
{% macro calibration_bins(relation, label, score, weight, n_bins, strategy, by, plan) %}
{%- set step %}({{ sqlmetrics.as_double(1) }} / {{ sqlmetrics.as_double(n_bins) }}){% endset %}
sm_rows AS (
  {{ sqlmetrics.labelled_rows(relation, label, score, weight, by) }}
),
{%- if strategy == 'uniform' %}
sm_binned AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_p, sm_y, sm_w,
         CASE WHEN sm_k >= 1 THEN sm_k - 1 ELSE 0 END
         + CASE WHEN sm_k >= 1 AND sm_k <= {{ n_bins - 1 }}
                     AND {{ sqlmetrics.as_double('sm_k') }} * {{ step }} < sm_p THEN 1 ELSE 0 END
         + CASE WHEN sm_k + 1 <= {{ n_bins - 1 }}
                     AND {{ sqlmetrics.as_double('sm_k + 1') }} * {{ step }} < sm_p THEN 1 ELSE 0 END AS sm_bin
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} sm_p, sm_y, sm_w, CAST(FLOOR(sm_p * {{ n_bins }}) AS BIGINT) AS sm_k
    FROM sm_rows
  ) AS sm_candidates
),
{%- elif plan == 'parallel' %}
{{ sqlmetrics.quantile_bins_in_parallel(n_bins, by) }}
{%- else %}
{%- set row_index %}ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_p) - 1{% endset %}
sm_sorted AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_p,
         LEAD(sm_p) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_p) AS sm_next,
         {{ sqlmetrics.as_double(row_index) }} AS sm_pos,
         COUNT(*) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_count
  FROM sm_rows
),
{{ sqlmetrics.quantile_requests('(SELECT DISTINCT ' ~ sqlmetrics.cols(by) ~ ' sm_count FROM sm_sorted) AS sm_slices', n_bins, by) }},
sm_neighbours AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_kind, sm_pos,
         MAX(sm_p) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_pos, sm_kind
                         ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_lo,
         MAX(sm_next) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_pos, sm_kind
                            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_hi
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} 0 AS sm_kind, sm_pos, sm_p, sm_next FROM sm_sorted
    UNION ALL
    SELECT {{ sqlmetrics.cols(by) }} 1 AS sm_kind, sm_pos, {{ sqlmetrics.as_double('NULL') }} AS sm_p,
           {{ sqlmetrics.as_double('NULL') }} AS sm_next
    FROM sm_requests
  ) AS sm_positions
),
sm_edges AS (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.quantile_edge('sm_lo', 'sm_hi', 'sm_gamma') }} AS sm_edge
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} sm_lo, COALESCE(sm_hi, sm_lo) AS sm_hi, sm_pos - FLOOR(sm_pos) AS sm_gamma
    FROM sm_neighbours
    WHERE sm_kind = 1
  ) AS sm_interpolation
),
sm_binned AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_p, sm_y, sm_w, sm_bin
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} sm_kind, sm_p, sm_y, sm_w,
           SUM(sm_kind) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_value, sm_kind
                              ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_bin
    FROM (
      SELECT {{ sqlmetrics.cols(by) }} 0 AS sm_kind, sm_p AS sm_value, sm_p, sm_y, sm_w FROM sm_rows
      UNION ALL
      SELECT {{ sqlmetrics.cols(by) }} 1 AS sm_kind, sm_edge AS sm_value, {{ sqlmetrics.as_double('NULL') }} AS sm_p,
             CAST(NULL AS INTEGER) AS sm_y, {{ sqlmetrics.as_double('NULL') }} AS sm_w
      FROM sm_edges
    ) AS sm_stream
  ) AS sm_counted
  WHERE sm_kind = 0
),
{%- endif %}
{%- if strategy == 'uniform' or plan != 'parallel' %}
sm_bins AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(sm_bin AS BIGINT) AS sm_bin,
         COUNT(*) AS sm_rows,
         SUM(sm_w) AS sm_weight,
         SUM(sm_w * sm_p) AS sm_wp,
         SUM(sm_w * sm_y) AS sm_wy
  FROM sm_binned
  GROUP BY {{ sqlmetrics.cols(by) }} sm_bin
)
{%- endif %}
{% endmacro %}

{#- CTE definitions sm_digits, sm_edge_ids, sm_requests: per slice of `slices` (a FROM item with the
    slice columns and sm_count, its rows) and edge j = 1 .. n_bins-1, sm_pos = numpy's position v_j
    of the quantile in the sorted rows (calibration_bins'); j from a cross join of decimal digits,
    the same short SQL for any n_bins. -#}
{% macro quantile_requests(slices, n_bins, by) %}
{%- set step %}({{ sqlmetrics.as_double(1) }} / {{ sqlmetrics.as_double(n_bins) }}){% endset %}
sm_digits AS (
  {% for d in range(10) %}SELECT {{ d }} AS sm_d{{ " UNION ALL " if not loop.last }}{% endfor %}
),
sm_edge_ids AS (
  SELECT sm_j FROM (
    SELECT {% for i in range((n_bins - 1) | string | length) -%}
             sm_d{{ i }}.sm_d * {{ 10 ** i }}{{ " + " if not loop.last }}
           {%- endfor %} AS sm_j
    FROM {% for i in range((n_bins - 1) | string | length) -%}
           sm_digits AS sm_d{{ i }}{{ " CROSS JOIN " if not loop.last }}
         {%- endfor %}
  ) AS sm_all_ids
  WHERE sm_j BETWEEN 1 AND {{ n_bins - 1 }}
),
sm_requests AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_j, sm_count,
         {{ sqlmetrics.as_double('sm_count - 1') }}
         * ({{ sqlmetrics.as_double('sm_j') }} * {{ step }} * {{ sqlmetrics.as_double(100) }} / {{ sqlmetrics.as_double(100) }}) AS sm_pos
  FROM {{ slices }}
  CROSS JOIN sm_edge_ids
)
{% endmacro %}

{#- numpy's linear interpolation between the order statistics lo and hi (_lerp: both branches). -#}
{% macro quantile_edge(lo, hi, gamma) -%}
CASE WHEN {{ gamma }} >= 0.5 THEN {{ hi }} - ({{ hi }} - {{ lo }}) * (1 - {{ gamma }})
     ELSE {{ lo }} + ({{ hi }} - {{ lo }}) * {{ gamma }} END
{%- endmacro %}

{#- CTE definitions (after calibration_bins' sm_rows) ending in sm_bins, for strategy 'quantile' in
    parallel: the edges and bins of calibration_bins, computed on one row per distinct probability
    (a tie group is one row) split by monotone_bucket, with no window over a whole slice except
    over small tables (one row per bucket, per edge request).
    1. sm_values: per (slice, probability): rows and sums, and its bucket; sm_value_buckets: each
       bucket's first position in the sorted rows (the rows of the buckets below) and the slice's rows.
    2. Each edge needs the order statistics at FLOOR(v_j) and the next position (capped at N-1): a
       window over buckets and these positions finds the bucket holding each, a window inside that
       bucket the probability whose positions cover it (the largest that starts at or before it).
    3. A probability's bin is the number of edges strictly below it: the edges of the buckets below
       (a window over buckets and edges) plus those of its own bucket below it (a window inside the
       bucket, where an edge equal to the probability sorts after it). -#}
{% macro quantile_bins_in_parallel(n_bins, by) %}
{%- set keys = sqlmetrics.cols(by) %}
{%- set rows_to_here %}ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW{% endset %}
{%- set values %}
SELECT {{ keys }} sm_p, COUNT(*) AS sm_c, SUM(sm_w) AS sm_w_v, SUM(sm_w * sm_p) AS sm_wp_v, SUM(sm_w * sm_y) AS sm_wy_v
FROM sm_rows
GROUP BY {{ keys }}sm_p
{%- endset %}
sm_values AS (
  {{ sqlmetrics.with_bucket(values, 'sm_p') }}
),
sm_value_buckets AS (
  SELECT {{ keys }} sm_bucket,
         {#- BIGINT throughout: ClickHouse makes a Variant of a union of UInt64 and Int64 columns,
             which it does not sort by #}
         CAST(COALESCE(SUM(sm_c_b) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_bucket
                                         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS BIGINT) AS sm_first,
         CAST(SUM(sm_c_b) OVER ({{ sqlmetrics.partition_by(by) }}) AS BIGINT) AS sm_count
  FROM (
    SELECT {{ keys }} sm_bucket, SUM(sm_c) AS sm_c_b
    FROM sm_values
    GROUP BY {{ keys }}sm_bucket
  ) AS sm_per_bucket
),
{{ sqlmetrics.quantile_requests('(SELECT DISTINCT ' ~ keys ~ ' sm_count FROM sm_value_buckets) AS sm_slices', n_bins, by) }},
sm_lookups AS (
  SELECT {{ keys }} sm_j, sm_pos, 0 AS sm_upper, CAST(FLOOR(sm_pos) AS BIGINT) AS sm_at
  FROM sm_requests
  UNION ALL
  SELECT {{ keys }} sm_j, sm_pos, 1 AS sm_upper,
         CAST(CASE WHEN FLOOR(sm_pos) + 1 < sm_count THEN FLOOR(sm_pos) + 1 ELSE sm_count - 1 END AS BIGINT) AS sm_at
  FROM sm_requests
),
sm_located AS (
  SELECT {{ keys }} sm_j, sm_pos, sm_upper, sm_in_bucket AS sm_bucket, CAST(sm_at - sm_bucket_first AS BIGINT) AS sm_local
  FROM (
    SELECT {{ keys }} sm_kind, sm_j, sm_pos, sm_upper, sm_at,
           MAX(sm_b) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_at, sm_kind {{ rows_to_here }}) AS sm_in_bucket,
           MAX(sm_first) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_at, sm_kind {{ rows_to_here }}) AS sm_bucket_first
    FROM (
      SELECT {{ keys }} 0 AS sm_kind, sm_bucket AS sm_b, sm_first, sm_first AS sm_at,
             CAST(NULL AS BIGINT) AS sm_j, {{ sqlmetrics.as_double('NULL') }} AS sm_pos, CAST(NULL AS INTEGER) AS sm_upper
      FROM sm_value_buckets
      UNION ALL
      SELECT {{ keys }} 1 AS sm_kind, CAST(NULL AS BIGINT) AS sm_b, CAST(NULL AS BIGINT) AS sm_first, sm_at,
             sm_j, sm_pos, sm_upper
      FROM sm_lookups
    ) AS sm_positions
  ) AS sm_found
  WHERE sm_kind = 1
),
sm_order_statistics AS (
  SELECT {{ keys }} sm_j, sm_pos, sm_upper, sm_value
  FROM (
    SELECT {{ keys }} sm_kind, sm_j, sm_pos, sm_upper,
           MAX(sm_p) OVER ({{ sqlmetrics.partition_by(by + ['sm_bucket']) }} ORDER BY sm_start, sm_kind {{ rows_to_here }}) AS sm_value
    FROM (
      SELECT {{ keys }} sm_bucket, 0 AS sm_kind, sm_p,
             CAST(SUM(sm_c) OVER ({{ sqlmetrics.partition_by(by + ['sm_bucket']) }} ORDER BY sm_p {{ rows_to_here }}) - sm_c
                  AS BIGINT) AS sm_start,
             CAST(NULL AS BIGINT) AS sm_j, {{ sqlmetrics.as_double('NULL') }} AS sm_pos, CAST(NULL AS INTEGER) AS sm_upper
      FROM sm_values
      UNION ALL
      SELECT {{ keys }} sm_bucket, 1 AS sm_kind, {{ sqlmetrics.as_double('NULL') }} AS sm_p, sm_local AS sm_start,
             sm_j, sm_pos, sm_upper
      FROM sm_located
    ) AS sm_stream
  ) AS sm_read
  WHERE sm_kind = 1
),
sm_edges AS (
  {%- set edge %}
  SELECT {{ keys }} {{ sqlmetrics.quantile_edge('sm_lo', 'sm_hi', 'sm_gamma') }} AS sm_edge
  FROM (
    SELECT {{ keys }} MAX(CASE WHEN sm_upper = 0 THEN sm_value END) AS sm_lo,
           MAX(CASE WHEN sm_upper = 1 THEN sm_value END) AS sm_hi,
           MAX(sm_pos) - FLOOR(MAX(sm_pos)) AS sm_gamma
    FROM sm_order_statistics
    GROUP BY {{ keys }}sm_j
  ) AS sm_interpolation
  {%- endset %}
  {{ sqlmetrics.with_bucket(edge, 'sm_edge') }}
),
sm_edges_below AS (
  SELECT {{ keys }} sm_b AS sm_bucket, CAST(sm_below AS BIGINT) AS sm_below_b
  FROM (
    SELECT {{ keys }} sm_kind, sm_b,
           SUM(sm_kind) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_b, sm_kind {{ rows_to_here }}) AS sm_below
    FROM (
      SELECT {{ keys }} 0 AS sm_kind, sm_bucket AS sm_b FROM sm_value_buckets
      UNION ALL
      SELECT {{ keys }} 1 AS sm_kind, sm_bucket AS sm_b FROM sm_edges
    ) AS sm_buckets_and_edges
  ) AS sm_counted
  WHERE sm_kind = 0
),
sm_bins AS (
  SELECT {{ keys }} CAST(sm_bin AS BIGINT) AS sm_bin,
         CAST(SUM(sm_c) AS BIGINT) AS sm_rows, SUM(sm_w_v) AS sm_weight, SUM(sm_wp_v) AS sm_wp, SUM(sm_wy_v) AS sm_wy
  FROM (
    SELECT {{ keys }} sm_kind, sm_c, sm_w_v, sm_wp_v, sm_wy_v,
           SUM(sm_add) OVER ({{ sqlmetrics.partition_by(by + ['sm_bucket']) }}
                             ORDER BY sm_stage, sm_value, sm_kind {{ rows_to_here }}) AS sm_bin
    FROM (
      SELECT {{ keys }} sm_bucket, 0 AS sm_stage, {{ sqlmetrics.as_double('NULL') }} AS sm_value, 2 AS sm_kind,
             sm_below_b AS sm_add, CAST(NULL AS BIGINT) AS sm_c, {{ sqlmetrics.as_double('NULL') }} AS sm_w_v,
             {{ sqlmetrics.as_double('NULL') }} AS sm_wp_v, {{ sqlmetrics.as_double('NULL') }} AS sm_wy_v
      FROM sm_edges_below
      UNION ALL
      SELECT {{ keys }} sm_bucket, 1 AS sm_stage, sm_p AS sm_value, 0 AS sm_kind, CAST(0 AS BIGINT) AS sm_add,
             CAST(sm_c AS BIGINT) AS sm_c, sm_w_v, sm_wp_v, sm_wy_v
      FROM sm_values
      UNION ALL
      SELECT {{ keys }} sm_bucket, 1 AS sm_stage, sm_edge AS sm_value, 1 AS sm_kind, CAST(1 AS BIGINT) AS sm_add,
             CAST(NULL AS BIGINT) AS sm_c,
             {{ sqlmetrics.as_double('NULL') }} AS sm_w_v, {{ sqlmetrics.as_double('NULL') }} AS sm_wp_v,
             {{ sqlmetrics.as_double('NULL') }} AS sm_wy_v
      FROM sm_edges
    ) AS sm_stream
  ) AS sm_counted
  WHERE sm_kind = 0
  GROUP BY {{ keys }}sm_bin
)
{% endmacro %}
