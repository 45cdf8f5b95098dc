{#- Distribution drift between two windows of rows, `relation` (the reference) and `current`: the
    two-sample statistics of each of the numeric `columns`, per slice `by`, in one statement that reads
    each window once. The rows of both windows are unpivoted to one value per (row, column): a join with
    the small table of the columns' positions, not a query per column. NULL values are counted per
    window (n_missing_*) and left out of the distributions. A row per (slice, column), the column by its
    position in `columns` (column_index, from 1), all from one sort of the column's values:
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
    The `categorical` columns are compared by category and the numeric ones by bins (drift_windows,
    sql/drift/binned_windows.sql). From each window's shares p (reference) and q (current) of the bins
    either window has:
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
{% macro drift_statistics(relation, current, columns=[], categorical=[], binning='quantile', n_bins=10, edges=none,
                          weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set keys = by + ['sm_column'] %}
{%- set whole %}OVER ({{ sqlmetrics.partition_by(keys) }}){% endset %}
{#- the sums over a column's values, bin by bin (a single pass over the sorted values); with ties, the
    Cramér-von Mises term of c values of a window tied at positions a+1 .. a+c of it (a = its before) is
    c (R - a - (c + 1)/2)^2 + c (c^2 - 1)/12, R their average rank: a term per distinct value (in the rank
    plan a row is one value, c = 1, and the term is (R - a - 1)^2) -#}
{%- set parts %}
         MAX(ABS(sm_f_ref - sm_f_cur)) AS sm_ks,
         SUM(COALESCE(sm_gap * ABS(sm_f_ref - sm_f_cur), 0)) AS sm_wasserstein,
         SUM(COALESCE(sm_gap * (sm_f_ref - sm_f_cur) * (sm_f_ref - sm_f_cur), 0)) AS sm_energy,
         SUM(sm_n_ref * sm_rank) AS sm_rank_sum_in,
         {#- t^3 - t of a group of t ties: t^2 - 1 from each of its values -#}
         SUM({{ sqlmetrics.as_double('sm_n_ref + sm_n_cur') }} * ({{ sqlmetrics.as_double('sm_tied') }} * sm_tied - 1)) AS sm_ties_in,
         {%- for side in ('ref', 'cur') %}
         {%- set c = 'sm_n_' ~ side %}
         {%- set offset %}(sm_rank - sm_{{ side }}_before - ({{ c }} + 1) / 2.0){% endset %}
         SUM({{ c }} * {{ offset }} * {{ offset }} + {{ c }} * ({{ sqlmetrics.as_double(c) }} * {{ c }} - 1) / 12.0) AS sm_cvm_{{ side }},
         {%- endfor %}
         SUM(sm_w_ref * (sm_value - sm_ref_mean) * (sm_value - sm_ref_mean)) AS sm_squares
{%- endset %}
{{ sqlmetrics.drift_windows('drift_statistics', relation, current, columns, categorical, binning, n_bins, edges, weight,
                            by, plan, parts) }},
{%- set known %}CASE WHEN sm_known = 1 THEN {% endset %}
sm_statistics AS (
  SELECT {{ sqlmetrics.cols(keys) }}
         MAX({{ known }}sm_ks END) AS ks,
         SUM({{ known }}sm_wasserstein END) AS wasserstein,
         SQRT(2 * SUM({{ known }}sm_energy END)) AS energy,
         SUM({{ known }}sm_rank_sum_in END) AS sm_rank_sum,
         SUM({{ known }}sm_ties_in END) AS sm_ties,
         SUM({{ known }}sm_n_ref_in END) * SUM({{ known }}sm_cvm_ref END) + SUM({{ known }}sm_n_cur_in END) * SUM({{ known }}sm_cvm_cur END) AS sm_cvm_u,
         SQRT({{ sqlmetrics.fdiv('SUM(' ~ known ~ 'sm_squares END)', 'SUM(' ~ known ~ 'sm_w_ref_in END)') }}) AS reference_std,
         SUM(CASE WHEN sm_known > 0 THEN sm_n_ref_in ELSE 0 END) AS n_reference,
         SUM(CASE WHEN sm_known > 0 THEN sm_n_cur_in ELSE 0 END) AS n_current,
         SUM(CASE WHEN sm_known = 0 THEN sm_n_ref_in ELSE 0 END) AS n_missing_reference,
         SUM(CASE WHEN sm_known = 0 THEN sm_n_cur_in ELSE 0 END) AS n_missing_current
  FROM sm_parts
  {{ sqlmetrics.group_by(keys) }}
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
