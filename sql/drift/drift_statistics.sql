{#- Distribution drift between two windows of rows, `relation` (the reference) and `current`: the
    two-sample statistics of each of the numeric `columns`, per slice `by`, in one statement that reads
    each window once. The rows of both windows are unpivoted to one value per (row, column): a join with
    the small table of the columns' positions, not a query per column. NULL values are counted per
    window (n_missing_*) and left out of the distributions. A row per (slice, column), the column by its
    position in `columns` (column_index, from 1), all from one sort of the column's distinct values:
      ks              max |F_ref(x) - F_cur(x)|, F the windows' empirical distribution functions, with
                      the rows' weights (scipy.stats.ks_2samp's statistic)
      wasserstein     the integral of |F_ref - F_cur| (scipy.stats.wasserstein_distance)
      energy          sqrt(2 * the integral of (F_ref - F_cur)^2) (scipy.stats.energy_distance)
    and, without weights (NULL with them: they are tests of counts), from the values' average ranks in
    the pooled sample:
      mannwhitney_u   U1 = R1 - n_ref (n_ref + 1) / 2, R1 the reference's rank sum (scipy.stats.mannwhitneyu)
      tie_term        sum over groups of t equal values of t^3 - t (its variance's tie correction)
      cramervonmises  T = U / (n_ref n_cur N) - (4 n_ref n_cur - 1) / (6N), N = n_ref + n_cur, U the sum
                      over each window of its size times sum_i (r_i - i)^2, r_i the pooled rank of its
                      i-th smallest value (scipy.stats.cramervonmises_2samp); a group of c equal values
                      at positions a+1 .. a+c of its window adds c (R - a - (c + 1)/2)^2 + c (c^2 - 1)/12
                      (R their average rank): never a term per row
    and reference_std, the reference's standard deviation (weighted, ddof 0: numpy.std), n_reference,
    n_current (the values), n_missing_reference, n_missing_current. -#}
{% macro drift_statistics(relation, current, columns, weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set keys = by + ['sm_column'] %}
{%- set w = sqlmetrics.as_double(sqlmetrics.ident(weight)) if weight else '1' %}
{%- set read = (by + columns + ([weight] if weight else [])) | unique | list %}
{#- a column's sorted values are its partition (plan 'aggregate'), or its buckets of them (plan 'parallel') -#}
{%- set within = keys + (['sm_bucket'] if plan == 'parallel' else []) %}
{%- set upto %}OVER ({{ sqlmetrics.partition_by(within) }} ORDER BY sm_value ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW){% endset %}
{%- set whole %}OVER ({{ sqlmetrics.partition_by(keys) }}){% endset %}
{%- set counted = ['sm_n_ref', 'sm_n_cur', 'sm_w_ref', 'sm_w_cur'] %}
WITH sm_windows AS (
  SELECT 0 AS sm_window, {{ sqlmetrics.col_list(read) }} FROM {{ relation }}
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
{#- one row per distinct value of a column in its slice, and one for its missing values (sm_known 0),
    set aside while the known values are sorted (a window's NULL keys sort where each engine puts them) -#}
sm_values AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, CASE WHEN sm_value IS NULL THEN 0 ELSE 1 END AS sm_known,
         SUM(1 - sm_window) AS sm_n_ref, SUM(sm_window) AS sm_n_cur,
         SUM(CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END) AS sm_w_ref,
         SUM(CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END) AS sm_w_cur
  FROM sm_long
  {{ sqlmetrics.group_by(keys + ['sm_value']) }}
),
{%- if plan == 'parallel' %}
{#- the parallel plan: each column's values in monotone buckets (parallel.sql), sorted bucket by bucket;
    what a bucket needs from the buckets below it (their running sums) and above it (the next value),
    and the column's totals, come from the small table of one row per bucket -#}
sm_exponents AS (
  SELECT sm_values.*, {{ sqlmetrics.binary_exponent('sm_value') }} AS sm_e FROM sm_values WHERE sm_value IS NOT NULL
),
sm_bucketed AS (
  SELECT sm_exponents.*, {{ sqlmetrics.monotone_bucket('sm_value', 'sm_e') }} AS sm_bucket FROM sm_exponents
),
sm_buckets AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_bucket,
         {%- for c in counted %} SUM({{ c }}) AS {{ c }}_in,{% endfor %}
         SUM(sm_w_ref * sm_value) AS sm_sum_ref, MIN(sm_value) AS sm_lowest
  FROM sm_bucketed
  {{ sqlmetrics.group_by(keys + ['sm_bucket']) }}
),
sm_offsets AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_bucket,
         {%- for c in counted %}
         SUM({{ c }}_in) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_bucket ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
           - {{ c }}_in AS {{ c }}_below,
         {%- endfor %}
         SUM(sm_w_ref_in) {{ whole }} AS sm_total_ref, SUM(sm_w_cur_in) {{ whole }} AS sm_total_cur,
         {{ sqlmetrics.fdiv('SUM(sm_sum_ref) ' ~ whole, 'SUM(sm_w_ref_in) ' ~ whole) }} AS sm_ref_mean,
         LEAD(sm_lowest) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_bucket) AS sm_next_lowest
  FROM sm_buckets
),
sm_joined AS (
  SELECT v.*,
         {%- for c in counted %} o.{{ c }}_below,{% endfor %}
         o.sm_total_ref, o.sm_total_cur, o.sm_ref_mean, o.sm_next_lowest
  FROM sm_bucketed AS v
  JOIN sm_offsets AS o
    ON {{ sqlmetrics.null_safe_join_on(by, 'v', 'o') }}{{ ' AND' if by }} v.sm_column = o.sm_column AND v.sm_bucket = o.sm_bucket
),
sm_sorted AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_known,
         {%- for c in counted %} {{ c }},{% endfor %}
         sm_n_ref_below + SUM(sm_n_ref) {{ upto }} - sm_n_ref AS sm_ref_before,
         sm_n_cur_below + SUM(sm_n_cur) {{ upto }} - sm_n_cur AS sm_cur_before,
         {{ sqlmetrics.fdiv('sm_w_ref_below + SUM(sm_w_ref) ' ~ upto, 'sm_total_ref') }} AS sm_f_ref,
         {{ sqlmetrics.fdiv('sm_w_cur_below + SUM(sm_w_cur) ' ~ upto, 'sm_total_cur') }} AS sm_f_cur,
         COALESCE(LEAD(sm_value) OVER ({{ sqlmetrics.partition_by(within) }} ORDER BY sm_value), sm_next_lowest)
           - sm_value AS sm_gap,
         sm_ref_mean
  FROM sm_joined
{%- else %}
sm_sorted AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_known,
         {%- for c in counted %} {{ c }},{% endfor %}
         SUM(sm_n_ref) {{ upto }} - sm_n_ref AS sm_ref_before,
         SUM(sm_n_cur) {{ upto }} - sm_n_cur AS sm_cur_before,
         {{ sqlmetrics.fdiv('SUM(sm_w_ref) ' ~ upto, 'SUM(sm_w_ref) ' ~ whole) }} AS sm_f_ref,
         {{ sqlmetrics.fdiv('SUM(sm_w_cur) ' ~ upto, 'SUM(sm_w_cur) ' ~ whole) }} AS sm_f_cur,
         LEAD(sm_value) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_value) - sm_value AS sm_gap,
         {{ sqlmetrics.fdiv('SUM(sm_w_ref * sm_value) ' ~ whole, 'SUM(sm_w_ref) ' ~ whole) }} AS sm_ref_mean
  FROM sm_values
  WHERE sm_value IS NOT NULL
{%- endif %}
  UNION ALL
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_known,
         {%- for c in counted %} {{ c }},{% endfor %} NULL, NULL, NULL, NULL, NULL, NULL
  FROM sm_values
  WHERE sm_value IS NULL
),
sm_ranked AS (
  SELECT sm_sorted.*,
         {#- the group's average rank in the pooled sample -#}
         sm_ref_before + sm_cur_before + (sm_n_ref + sm_n_cur + 1) / 2.0 AS sm_rank
  FROM sm_sorted
),
{%- set known %}CASE WHEN sm_known = 1 THEN {% endset %}
sm_statistics AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         MAX({{ known }}ABS(sm_f_ref - sm_f_cur) END) AS ks,
         SUM({{ known }}COALESCE(sm_gap * ABS(sm_f_ref - sm_f_cur), 0) END) AS wasserstein,
         SQRT(2 * SUM({{ known }}COALESCE(sm_gap * (sm_f_ref - sm_f_cur) * (sm_f_ref - sm_f_cur), 0) END)) AS energy,
         SUM({{ known }}sm_n_ref * sm_rank END) AS sm_rank_sum,
         SUM({{ known }}{{ sqlmetrics.as_double('sm_n_ref + sm_n_cur') }} * (sm_n_ref + sm_n_cur) * (sm_n_ref + sm_n_cur)
             - (sm_n_ref + sm_n_cur) END) AS sm_ties,
         {%- for side in ('ref', 'cur') %}
         {%- set c = 'sm_n_' ~ side %}
         {%- set offset %}(sm_rank - sm_{{ side }}_before - ({{ c }} + 1) / 2.0){% endset %}
         SUM({{ known }}{{ c }} END) * SUM({{ known }}{{ c }} * {{ offset }} * {{ offset }}
                                           + {{ c }} * ({{ sqlmetrics.as_double(c) }} * {{ c }} - 1) / 12.0 END)
         {{- ' +' if loop.first else ' AS sm_cvm_u,' }}
         {%- endfor %}
         SQRT({{ sqlmetrics.fdiv('SUM(' ~ known ~ 'sm_w_ref * (sm_value - sm_ref_mean) * (sm_value - sm_ref_mean) END)',
                                 'SUM(' ~ known ~ 'sm_w_ref END)') }}) AS reference_std,
         SUM({{ known }}sm_n_ref END) AS n_reference, SUM({{ known }}sm_n_cur END) AS n_current,
         SUM(CASE WHEN sm_known = 0 THEN sm_n_ref ELSE 0 END) AS n_missing_reference,
         SUM(CASE WHEN sm_known = 0 THEN sm_n_cur ELSE 0 END) AS n_missing_current
  FROM sm_ranked
  {{ sqlmetrics.group_by(keys) }}
)
{%- set k %}{{ sqlmetrics.as_double('n_reference') }} * n_current{% endset %}
SELECT {{ sqlmetrics.cols(by) }} sm_column + 1 AS column_index, ks, wasserstein, energy, reference_std,
       {%- if weight %}
       CAST(NULL AS DOUBLE) AS mannwhitney_u, CAST(NULL AS DOUBLE) AS tie_term, CAST(NULL AS DOUBLE) AS cramervonmises,
       {%- else %}
       sm_rank_sum - {{ sqlmetrics.as_double('n_reference') }} * (n_reference + 1) / 2 AS mannwhitney_u, sm_ties AS tie_term,
       {{ sqlmetrics.fdiv('sm_cvm_u', k ~ ' * (n_reference + n_current)') }}
         - {{ sqlmetrics.fdiv('4 * ' ~ k ~ ' - 1', '6 * (n_reference + n_current)') }} AS cramervonmises,
       {%- endif %}
       {%- for n in ('n_reference', 'n_current', 'n_missing_reference', 'n_missing_current') %}
       CAST({{ n }} AS BIGINT) AS {{ n }}{{ ',' if not loop.last }}
       {%- endfor %}
FROM sm_statistics
ORDER BY {{ sqlmetrics.cols(by) }} column_index
{% endmacro %}
