{#- The two-sample statistics of distribution drift, for many columns in one statement that reads each
    window once: the reference's and the current window's rows (`reference`, `current`), each of their
    `columns` (numbers) a distribution per slice `by`. The rows of both windows are unpivoted to one
    value per (row, column): a join with the small table of the columns' positions, not a query per
    column. NULL values are counted per window (n_missing_*) and left out of the distributions.

    Per (slice, column) from one sort of its distinct values, with w the rows' weights (1 without
    `weight`) and F_ref, F_cur the two windows' weighted empirical distribution functions:
      ks            max |F_ref(x) - F_cur(x)| (Kolmogorov-Smirnov; scipy.stats.ks_2samp's statistic)
      wasserstein   the integral of |F_ref - F_cur| (scipy.stats.wasserstein_distance)
      energy        sqrt(2 * the integral of (F_ref - F_cur)^2) (scipy.stats.energy_distance)
    and from the rows' ranks in the pooled sample (average ranks for ties; counts, not weights):
      rank_sum_ref  the reference's rank sum (Mann-Whitney's R1; scipy.stats.mannwhitneyu's U1 is
                    R1 - n_ref (n_ref + 1) / 2)
      tie_term      sum over groups of equal values of t^3 - t (the variance's tie correction)
      cvm_u         U of the two-sample Cramer-von Mises test (scipy.stats.cramervonmises_2samp): the
                    sum over each window of its size times sum_i (r_i - i)^2, r_i the pooled rank of
                    its i-th smallest value; a group of c equal values at positions a+1 .. a+c of its
                    window adds c (R - a - (c + 1)/2)^2 + c (c^2 - 1)/12 (R their average rank)
    and n_ref, n_cur (values), w_ref, w_cur (their weights), n_missing_ref, n_missing_cur. -#}
{% macro two_sample_statistics(reference, current, columns, weight=none, by=[]) %}
{%- set keys = by + ['sm_column'] %}
{%- set w = sqlmetrics.as_double(sqlmetrics.ident(weight)) if weight else '1' %}
{%- set read = by + columns + ([weight] if weight else []) %}
{%- set upto %}OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_value ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW){% endset %}
{%- set whole %}OVER ({{ sqlmetrics.partition_by(keys) }}){% endset %}
WITH sm_windows AS (
  SELECT 0 AS sm_window, {{ sqlmetrics.col_list(read) }} FROM {{ reference }}
  UNION ALL
  SELECT 1 AS sm_window, {{ sqlmetrics.col_list(read) }} FROM {{ current }}
),
sm_columns AS (
  {%- for c in columns %}
  SELECT {{ loop.index0 }} AS sm_column{{ ' UNION ALL' if not loop.last }}
  {%- endfor %}
),
sm_long AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_window, sm_column, {{ w }} AS sm_w,
         CASE sm_column
           {%- for c in columns %}
           WHEN {{ loop.index0 }} THEN {{ sqlmetrics.as_double(sqlmetrics.ident(c)) }}
           {%- endfor %}
         END AS sm_value
  FROM sm_windows CROSS JOIN sm_columns
),
sm_values AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value,
         SUM(1 - sm_window) AS sm_n_ref, SUM(sm_window) AS sm_n_cur,
         SUM(CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END) AS sm_w_ref,
         SUM(CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END) AS sm_w_cur
  FROM sm_long
  {{ sqlmetrics.group_by(keys + ['sm_value']) }}
),
sm_sorted AS (
  SELECT sm_values.*,
         SUM(sm_n_ref) {{ upto }} - sm_n_ref AS sm_ref_before,
         SUM(sm_n_cur) {{ upto }} - sm_n_cur AS sm_cur_before,
         SUM(sm_w_ref) {{ upto }} / SUM(sm_w_ref) {{ whole }} AS sm_f_ref,
         SUM(sm_w_cur) {{ upto }} / SUM(sm_w_cur) {{ whole }} AS sm_f_cur,
         LEAD(sm_value) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_value) - sm_value AS sm_gap
  FROM sm_values
  WHERE sm_value IS NOT NULL
),
sm_ranked AS (
  SELECT sm_sorted.*,
         {#- the group's average rank in the pooled sample -#}
         sm_ref_before + sm_cur_before + (sm_n_ref + sm_n_cur + 1) / 2.0 AS sm_rank
  FROM sm_sorted
),
sm_missing AS (
  SELECT {{ sqlmetrics.cols(keys) }} SUM(sm_n_ref) AS n_missing_ref, SUM(sm_n_cur) AS n_missing_cur
  FROM sm_values WHERE sm_value IS NULL
  {{ sqlmetrics.group_by(keys) }}
),
sm_statistics AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         MAX(ABS(sm_f_ref - sm_f_cur)) AS ks,
         SUM(COALESCE(sm_gap * ABS(sm_f_ref - sm_f_cur), 0)) AS wasserstein,
         SQRT(2 * SUM(COALESCE(sm_gap * (sm_f_ref - sm_f_cur) * (sm_f_ref - sm_f_cur), 0))) AS energy,
         SUM(sm_n_ref * sm_rank) AS rank_sum_ref,
         SUM({{ sqlmetrics.as_double('sm_n_ref + sm_n_cur') }} * (sm_n_ref + sm_n_cur) * (sm_n_ref + sm_n_cur)
             - (sm_n_ref + sm_n_cur)) AS tie_term,
         SUM(sm_n_ref) * SUM(sm_n_ref * (sm_rank - sm_ref_before - (sm_n_ref + 1) / 2.0) * (sm_rank - sm_ref_before - (sm_n_ref + 1) / 2.0)
                             + sm_n_ref * ({{ sqlmetrics.as_double('sm_n_ref') }} * sm_n_ref - 1) / 12.0)
         + SUM(sm_n_cur) * SUM(sm_n_cur * (sm_rank - sm_cur_before - (sm_n_cur + 1) / 2.0) * (sm_rank - sm_cur_before - (sm_n_cur + 1) / 2.0)
                               + sm_n_cur * ({{ sqlmetrics.as_double('sm_n_cur') }} * sm_n_cur - 1) / 12.0) AS cvm_u,
         SUM(sm_n_ref) AS n_ref, SUM(sm_n_cur) AS n_cur, SUM(sm_w_ref) AS w_ref, SUM(sm_w_cur) AS w_cur
  FROM sm_ranked
  {{ sqlmetrics.group_by(keys) }}
)
SELECT sm_statistics.*, COALESCE(n_missing_ref, 0) AS n_missing_ref, COALESCE(n_missing_cur, 0) AS n_missing_cur
FROM sm_statistics LEFT JOIN sm_missing USING ({{ sqlmetrics.col_list(keys) }})
{% endmacro %}
