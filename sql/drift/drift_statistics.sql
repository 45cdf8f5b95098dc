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
    n_current (the values), n_missing_reference, n_missing_current.
    The `categorical` columns are compared by category (their values as text, compared byte by byte),
    and the numeric ones by bins: n_bins of the reference's quantiles (binning 'quantile': a value's bin
    is floor(n_bins F_ref(x)), F_ref(x) the reference's share at or below x, at most n_bins - 1: the
    bins of numpy.quantile(method='inverted_cdf') edges, each closed on the left), n_bins of equal
    width over the reference's range ('uniform': numpy.histogram's edges), or cut at the given `edges`;
    the outer bins reach -inf and +inf, so a current value beyond the reference's range is counted.
    From each window's shares p (reference) and q (current) of the bins either window has:
      psi             sum (p' - q') ln(p' / q'), p', q' the shares with an empty bin's share replaced by
                      the window's smallest share / 10^6 if that is at most 10^-4, else by 10^-4
                      (Evidently's get_binned_data)
      kl_divergence   sum p'' ln(p'' / q''), p'' and q'' those shares rescaled to sum to 1
                      (scipy.stats.entropy, as Evidently's kl_div calls it)
      jensenshannon   sqrt((KL(p || m) + KL(q || m)) / 2), m = (p + q) / 2, natural logarithms
                      (scipy.spatial.distance.jensenshannon)
      hellinger       sqrt(1 - sum sqrt(p q)), the sum clipped to 1
      total_variation sum |p - q| / 2
    and, without weights, the tests of counts, o a bin's current count and e = its reference count
    times n_current / n_reference (scipy.stats.chisquare's expected counts, as Evidently passes them):
      chisquare       sum (o - e)^2 / e;  g_test  2 sum o ln(o / e) (scipy.stats.power_divergence,
                      'log-likelihood'); both +inf when a bin of the current window is empty in the
                      reference (n_new > 0)
      two_proportion_z |p - q| / sqrt(P (1 - P) (1/n_reference + 1/n_current)) for a column of two bins
                      (P: the pooled share of either), 0 for one bin, NULL for more
    with n_bins (the bins either window has: a test's degrees of freedom are n_bins - 1) and n_new. -#}
{% macro drift_statistics(relation, current, columns, categorical=[], binning='quantile', n_bins=10, edges=none,
                          weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set keys = by + ['sm_column'] %}
{%- set w = sqlmetrics.as_double(sqlmetrics.ident(weight)) if weight else '1' %}
{%- set read = (by + columns + categorical + ([weight] if weight else [])) | unique | list %}
{%- set compared = columns + categorical %}
{%- if not compared %}{{ sqlmetrics.fail('drift_statistics: no column to compare: pass columns (numeric) or categorical') }}{% endif %}
{%- for c in columns if c in categorical %}{{ sqlmetrics.fail('drift_statistics: column ' ~ c ~ ' is in columns and in categorical: compare it one way') }}{% endfor %}
{#- a column's sorted values are its partition (plan 'aggregate'), or its buckets of them (plan 'parallel') -#}
{%- set within = keys + (['sm_bucket'] if plan == 'parallel' else []) %}
{%- set upto %}OVER ({{ sqlmetrics.partition_by(within) }} ORDER BY sm_value ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW){% endset %}
{%- set whole %}OVER ({{ sqlmetrics.partition_by(keys) }}){% endset %}
{%- set counted = ['sm_n_ref', 'sm_n_cur', 'sm_w_ref', 'sm_w_cur'] %}
{%- set in_reference = 'CASE WHEN sm_n_ref > 0 THEN sm_value END' %}
WITH sm_windows AS (
  SELECT 0 AS sm_window, {{ sqlmetrics.col_list(read) }} FROM {{ relation }}
  UNION ALL
  SELECT 1 AS sm_window, {{ sqlmetrics.col_list(read) }} FROM {{ current }}
),
sm_columns AS (
  {%- for c in compared %}
  SELECT {{ loop.index0 }} AS sm_column{{ ' UNION ALL' if not loop.last }}
  {%- endfor %}
),
sm_long AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_window, sm_column, {{ w }} AS sm_w,
         {%- if columns %}
         CASE sm_column
           {%- for c in columns %}
           WHEN {{ loop.index0 }} THEN {{ sqlmetrics.as_double(sqlmetrics.ident(c)) }}
           {%- endfor %}
         END AS sm_value,
         {%- else %}
         {{ sqlmetrics.as_double('NULL') }} AS sm_value,
         {%- endif %}
         {%- if categorical %}
         CASE sm_column
           {%- for c in categorical %}
           WHEN {{ columns | length + loop.index0 }} THEN {{ sqlmetrics.bytewise(sqlmetrics.ident(c)) }}
           {%- endfor %}
         END AS sm_category
         {%- else %}
         {{ sqlmetrics.bytewise('NULL') }} AS sm_category
         {%- endif %}
  FROM sm_windows CROSS JOIN sm_columns
),
{#- one row per distinct value of a numeric column in its slice (sm_known 1), per category of a
    categorical one (2), and one for a column's missing values (0); the last two are set aside while
    the numbers are sorted (a window's NULL keys sort where each engine puts them) -#}
sm_values AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_category,
         CASE WHEN sm_value IS NOT NULL THEN 1 WHEN sm_category IS NOT NULL THEN 2 ELSE 0 END AS sm_known,
         SUM(1 - sm_window) AS sm_n_ref, SUM(sm_window) AS sm_n_cur,
         SUM(CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END) AS sm_w_ref,
         SUM(CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END) AS sm_w_cur
  FROM sm_long
  {{ sqlmetrics.group_by(keys + ['sm_value', 'sm_category']) }}
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
         SUM(sm_w_ref * sm_value) AS sm_sum_ref, MIN(sm_value) AS sm_lowest,
         MIN({{ in_reference }}) AS sm_ref_lo_in, MAX({{ in_reference }}) AS sm_ref_hi_in
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
         LEAD(sm_lowest) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_bucket) AS sm_next_lowest,
         MIN(sm_ref_lo_in) {{ whole }} AS sm_ref_lo, MAX(sm_ref_hi_in) {{ whole }} AS sm_ref_hi
  FROM sm_buckets
),
sm_joined AS (
  SELECT v.*,
         {%- for c in counted %} o.{{ c }}_below,{% endfor %}
         o.sm_total_ref, o.sm_total_cur, o.sm_ref_mean, o.sm_next_lowest, o.sm_ref_lo, o.sm_ref_hi
  FROM sm_bucketed AS v
  JOIN sm_offsets AS o
    ON {{ sqlmetrics.null_safe_join_on(by, 'v', 'o') }}{{ ' AND' if by }} v.sm_column = o.sm_column AND v.sm_bucket = o.sm_bucket
),
sm_sorted AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_category, sm_known,
         {%- for c in counted %} {{ c }},{% endfor %}
         sm_n_ref_below + SUM(sm_n_ref) {{ upto }} - sm_n_ref AS sm_ref_before,
         sm_n_cur_below + SUM(sm_n_cur) {{ upto }} - sm_n_cur AS sm_cur_before,
         {{ sqlmetrics.fdiv('sm_w_ref_below + SUM(sm_w_ref) ' ~ upto, 'sm_total_ref') }} AS sm_f_ref,
         {{ sqlmetrics.fdiv('sm_w_cur_below + SUM(sm_w_cur) ' ~ upto, 'sm_total_cur') }} AS sm_f_cur,
         COALESCE(LEAD(sm_value) OVER ({{ sqlmetrics.partition_by(within) }} ORDER BY sm_value), sm_next_lowest)
           - sm_value AS sm_gap,
         sm_ref_mean, sm_w_ref_below + SUM(sm_w_ref) {{ upto }} AS sm_ref_upto, sm_total_ref AS sm_ref_total,
         sm_ref_lo, sm_ref_hi
  FROM sm_joined
{%- else %}
sm_sorted AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_category, sm_known,
         {%- for c in counted %} {{ c }},{% endfor %}
         SUM(sm_n_ref) {{ upto }} - sm_n_ref AS sm_ref_before,
         SUM(sm_n_cur) {{ upto }} - sm_n_cur AS sm_cur_before,
         {{ sqlmetrics.fdiv('SUM(sm_w_ref) ' ~ upto, 'SUM(sm_w_ref) ' ~ whole) }} AS sm_f_ref,
         {{ sqlmetrics.fdiv('SUM(sm_w_cur) ' ~ upto, 'SUM(sm_w_cur) ' ~ whole) }} AS sm_f_cur,
         LEAD(sm_value) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_value) - sm_value AS sm_gap,
         {{ sqlmetrics.fdiv('SUM(sm_w_ref * sm_value) ' ~ whole, 'SUM(sm_w_ref) ' ~ whole) }} AS sm_ref_mean,
         SUM(sm_w_ref) {{ upto }} AS sm_ref_upto, SUM(sm_w_ref) {{ whole }} AS sm_ref_total,
         MIN({{ in_reference }}) {{ whole }} AS sm_ref_lo, MAX({{ in_reference }}) {{ whole }} AS sm_ref_hi
  FROM sm_values
  WHERE sm_value IS NOT NULL
{%- endif %}
  UNION ALL
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_category, sm_known,
         {%- for c in counted %} {{ c }},{% endfor %} NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
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
         SUM(CASE WHEN sm_known > 0 THEN sm_n_ref ELSE 0 END) AS n_reference,
         SUM(CASE WHEN sm_known > 0 THEN sm_n_cur ELSE 0 END) AS n_current,
         SUM(CASE WHEN sm_known = 0 THEN sm_n_ref ELSE 0 END) AS n_missing_reference,
         SUM(CASE WHEN sm_known = 0 THEN sm_n_cur ELSE 0 END) AS n_missing_current
  FROM sm_ranked
  {{ sqlmetrics.group_by(keys) }}
),
{#- the bins: a numeric value's from its place among the reference's values, a category its own -#}
{%- if edges %}
{%- set cuts = edges | map('float') | map('string') | list %}
{%- elif binning == 'uniform' %}
{%- set cuts = [] %}
{%- for j in range(1, n_bins) %}{% set _ = cuts.append('(sm_ref_hi - sm_ref_lo) / ' ~ n_bins ~ ' * ' ~ j ~ ' + sm_ref_lo') %}{% endfor %}
{%- endif %}
sm_binned AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_category,
         {%- for c in counted %} {{ c }},{% endfor %}
         {%- if cuts is defined %}
         {#- the number of cuts at or below the value (numpy.histogram's bins, closed on the left) -#}
         CASE WHEN sm_known = 1 THEN {% for cut in cuts %}(CASE WHEN sm_value >= ({{ cut }}) THEN 1 ELSE 0 END){{ ' + ' if not loop.last }}{% endfor %} END AS sm_bin
         {%- else %}
         {#- floor(n_bins F_ref(x)): exact for counts, whose product and quotient doubles hold exactly -#}
         CASE WHEN sm_known = 1 THEN FLOOR({{ sqlmetrics.fdiv(n_bins ~ ' * sm_ref_upto', 'sm_ref_total') }}) END AS sm_floor
         {%- endif %}
  FROM sm_sorted
  WHERE sm_known > 0
),
sm_bins AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         {%- for c in counted %} SUM({{ c }}) AS {{ c }}{{ ',' if not loop.last }}{% endfor %}
  FROM {% if cuts is defined %}sm_binned{% else %}(
    SELECT sm_binned.*, CASE WHEN sm_floor >= {{ n_bins - 1 }} THEN {{ n_bins - 1 }} ELSE sm_floor END AS sm_bin FROM sm_binned
  ) AS sm_capped{% endif %}
  {{ sqlmetrics.group_by(keys + ['sm_bin', 'sm_category']) }}
),
{#- each window's share of a bin (p, q), and the pooled share (the z-test's) -#}
sm_shares AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_n_ref, sm_n_cur,
         {{ sqlmetrics.fdiv('sm_w_ref', 'SUM(sm_w_ref) ' ~ whole) }} AS sm_p,
         {{ sqlmetrics.fdiv('sm_w_cur', 'SUM(sm_w_cur) ' ~ whole) }} AS sm_q,
         {{ sqlmetrics.fdiv('sm_n_ref + sm_n_cur', 'SUM(sm_n_ref + sm_n_cur) ' ~ whole) }} AS sm_pooled,
         SUM(sm_n_ref) {{ whole }} AS sm_bins_ref, SUM(sm_n_cur) {{ whole }} AS sm_bins_cur
  FROM sm_bins
),
sm_smallest AS (
  SELECT sm_shares.*,
         MIN(CASE WHEN sm_p > 0 THEN sm_p END) {{ whole }} AS sm_p_min,
         MIN(CASE WHEN sm_q > 0 THEN sm_q END) {{ whole }} AS sm_q_min
  FROM sm_shares
),
{#- an empty bin's share for psi and KL: the window's smallest share / 10^6 if at most 10^-4, else 10^-4
    (Evidently's get_binned_data); and a bin's expected current count, from the reference -#}
sm_filled AS (
  SELECT sm_smallest.*,
         {%- for x in ('p', 'q') %}
         CASE WHEN sm_{{ x }} > 0 THEN sm_{{ x }} WHEN sm_{{ x }}_min <= 0.0001 THEN sm_{{ x }}_min / 1000000 ELSE 0.0001 END AS sm_{{ x }}f,
         {%- endfor %}
         {{ sqlmetrics.fdiv('sm_n_ref * sm_bins_cur', 'sm_bins_ref') }} AS sm_expected
  FROM sm_smallest
),
sm_binned_statistics AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         {%- set log_ratio %}LN({{ sqlmetrics.fdiv('sm_pf', 'sm_qf') }}){% endset %}
         SUM((sm_pf - sm_qf) * {{ log_ratio }}) AS psi,
         {#- scipy.stats.entropy rescales the filled shares to sum to 1 -#}
         {{ sqlmetrics.fdiv('SUM(sm_pf * ' ~ log_ratio ~ ')', 'SUM(sm_pf)') }}
           + LN({{ sqlmetrics.fdiv('SUM(sm_qf)', 'SUM(sm_pf)') }}) AS kl_divergence,
         {%- for x in ('p', 'q') %}
         SUM(CASE WHEN sm_{{ x }} > 0 THEN sm_{{ x }} * LN({{ sqlmetrics.fdiv('2 * sm_' ~ x, 'sm_p + sm_q') }}) ELSE 0 END)
         {{- ' +' if loop.first else ' AS sm_js,' }}
         {%- endfor %}
         SUM(SQRT(sm_p * sm_q)) AS sm_affinity,
         SUM(ABS(sm_p - sm_q)) / 2 AS total_variation,
         SUM(CASE WHEN sm_n_ref > 0 THEN {{ sqlmetrics.fdiv('(sm_n_cur - sm_expected) * (sm_n_cur - sm_expected)', 'sm_expected') }} ELSE 0 END) AS sm_chisquare,
         2 * SUM(CASE WHEN sm_n_ref > 0 AND sm_n_cur > 0 THEN sm_n_cur * LN({{ sqlmetrics.fdiv('sm_n_cur', 'sm_expected') }}) ELSE 0 END) AS sm_g,
         SUM(sm_pooled * (1 - sm_pooled)) AS sm_spread,
         MAX(sm_bins_ref) AS sm_bins_ref, MAX(sm_bins_cur) AS sm_bins_cur,
         COUNT(*) AS n_bins, SUM(CASE WHEN sm_n_ref = 0 THEN sm_n_cur ELSE 0 END) AS n_new
  FROM sm_filled
  {{ sqlmetrics.group_by(keys) }}
),
sm_all AS (
  SELECT s.*, b.psi, b.kl_divergence, b.sm_js, b.sm_affinity, b.total_variation, b.sm_chisquare, b.sm_g,
         b.sm_spread, b.sm_bins_ref, b.sm_bins_cur, b.n_bins, b.n_new
  FROM sm_statistics AS s
  LEFT JOIN sm_binned_statistics AS b
    ON {{ sqlmetrics.null_safe_join_on(by, 's', 'b') }}{{ ' AND' if by }} s.sm_column = b.sm_column
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
       psi, kl_divergence,
       CASE WHEN sm_js > 0 THEN SQRT(sm_js / 2) ELSE 0 END AS jensenshannon,
       CASE WHEN sm_affinity < 1 THEN SQRT(1 - sm_affinity) ELSE 0 END AS hellinger,
       total_variation,
       {%- if weight %}
       CAST(NULL AS DOUBLE) AS chisquare, CAST(NULL AS DOUBLE) AS g_test, CAST(NULL AS DOUBLE) AS two_proportion_z,
       {%- else %}
       CASE WHEN n_new > 0 THEN {{ sqlmetrics.infinity() }} ELSE sm_chisquare END AS chisquare,
       CASE WHEN n_new > 0 THEN {{ sqlmetrics.infinity() }} ELSE sm_g END AS g_test,
       CASE WHEN n_bins = 1 THEN 0
            WHEN n_bins = 2 THEN {{ sqlmetrics.fdiv('total_variation', 'SQRT(sm_spread / 2 * (' ~ sqlmetrics.fdiv(1, 'sm_bins_ref') ~ ' + ' ~ sqlmetrics.fdiv(1, 'sm_bins_cur') ~ '))') }}
       END AS two_proportion_z,
       {%- endif %}
       {%- for n in ('n_bins', 'n_new', 'n_reference', 'n_current', 'n_missing_reference', 'n_missing_current') %}
       CAST({{ n }} AS BIGINT) AS {{ n }}{{ ',' if not loop.last }}
       {%- endfor %}
FROM sm_all
ORDER BY {{ sqlmetrics.cols(by) }} column_index
{% endmacro %}
