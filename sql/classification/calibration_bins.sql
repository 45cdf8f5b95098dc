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
      in the last bit, which moves probabilities that sit on an edge. -#}
{% macro calibration_bins(relation, label, score, weight, n_bins, strategy, by) %}
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
{%- else %}
{%- set row_index %}ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_p) - 1{% endset %}
sm_sorted AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_p,
         LEAD(sm_p) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_p) AS sm_next,
         {{ sqlmetrics.as_double(row_index) }} AS sm_pos,
         COUNT(*) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_count
  FROM sm_rows
),
{#- j = 1 .. n_bins-1 from a cross join of decimal digits: the same short SQL for any n_bins #}
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
  SELECT {{ sqlmetrics.cols(by) }} sm_j,
         {{ sqlmetrics.as_double('sm_count - 1') }}
         * ({{ sqlmetrics.as_double('sm_j') }} * {{ step }} * {{ sqlmetrics.as_double(100) }} / {{ sqlmetrics.as_double(100) }}) AS sm_pos
  FROM (SELECT DISTINCT {{ sqlmetrics.cols(by) }} sm_count FROM sm_sorted) AS sm_slices
  CROSS JOIN sm_edge_ids
),
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
         CASE WHEN sm_gamma >= 0.5 THEN sm_hi - (sm_hi - sm_lo) * (1 - sm_gamma)
              ELSE sm_lo + (sm_hi - sm_lo) * sm_gamma END AS sm_edge
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
{% endmacro %}
