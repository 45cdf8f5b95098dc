{#- The two windows of the drift metrics (drift_statistics, drift_bins), `relation` (the reference)
    and `current`, as CTEs up to their bins: the rows of both windows unpivoted to one value per (row,
    column), by a join with the small table of the columns' positions (not a query per column); each
    numeric column's values sorted (sm_sorted: their running counts in each window, their distribution
    functions, the reference's range), its distinct values (plans 'aggregate', 'parallel') or its rows
    themselves (plan 'rank', DuckDB's); and, in one pass over those, the bins (sm_parts: a window's
    count and weight in each, its smallest and largest value, and the sums the caller asks for in
    `parts`; sm_bins). NULL values are counted per window as a column's missing values (sm_known 0) and
    left out.
    The `categorical` columns are compared by category (their values as text, compared byte by byte),
    and the numeric ones by bins: n_bins of the reference's quantiles (binning 'quantile': a value's bin
    is floor(n_bins F_ref(x)), F_ref(x) the reference's share at or below x, at most n_bins - 1: the
    bins of numpy.quantile(method='inverted_cdf') edges, each closed on the left), n_bins of equal
    width over the reference's range ('uniform': numpy.histogram's edges), or cut at the given `edges`;
    the outer bins reach -inf and +inf, so a current value beyond the reference's range is counted.
-#}
{% macro drift_windows(metric, relation, current, columns, categorical, binning, n_bins, edges, weight, by, plan,
                       parts=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set keys = by + ['sm_column'] %}
{%- set w = sqlmetrics.as_double(sqlmetrics.ident(weight)) if weight else '1' %}
{%- set read = (by + columns + categorical + ([weight] if weight else [])) | unique | list %}
{%- set compared = columns + categorical %}
{%- if not compared %}{{ sqlmetrics.fail(metric ~ ': no column to compare: pass columns (numeric) or categorical') }}{% endif %}
{%- for c in columns if c in categorical %}{{ sqlmetrics.fail(metric ~ ': column ' ~ c ~ ' is in columns and in categorical: compare it one way') }}{% endfor %}
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
  {%- if plan == 'rank' %}
  WHERE sm_value IS NULL
  {%- endif %}
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
{%- elif plan == 'rank' %}
{#- the rank plan (DuckDB's): the rows themselves in order, with no GROUP BY of the distinct values first.
    A value's ties are all in its F (frames of peers); sm_first, sm_last: the pooled places of the first
    and last of them (its average rank is their mean); sm_ref_before, sm_cur_before: each window's rows
    placed before the row (it is the (before + 1)-th of its own). Without weights the sums are COUNTs,
    whole numbers of 64 bits (DuckDB's SUM of integers is of 128 bits, and twice as slow to add up). -#}
{%- set peers %}OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_value RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW){% endset %}
{%- set order %}OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_value){% endset %}
{#- a reference row's weight, or a value COUNT counts (and a NULL, none) -#}
{%- set in_ref = 'CASE WHEN sm_window = 0 THEN sm_w ELSE 0 END' if weight else 'CASE WHEN sm_window = 0 THEN 1 END' %}
{%- set in_cur = 'CASE WHEN sm_window = 1 THEN sm_w ELSE 0 END' %}
{%- set ref_upto = ('SUM(' if weight else 'COUNT(') ~ in_ref ~ ') ' ~ peers %}
{%- set ref_total = ('SUM(' if weight else 'COUNT(') ~ in_ref ~ ') ' ~ whole %}
{#- the values up to the row's, its ties included: from CUME_DIST, which DuckDB computes from where the
    ties end, with no sum over a frame (a double of that count over the whole count: exact when rounded) -#}
{%- set all_upto = 'ROUND(CUME_DIST() ' ~ order ~ ' * COUNT(*) ' ~ whole ~ ')' %}
{%- set cur_upto = 'SUM(' ~ in_cur ~ ') ' ~ peers if weight else all_upto ~ ' - ' ~ ref_upto %}
{%- set cur_total = 'SUM(' ~ in_cur ~ ') ' ~ whole if weight else 'COUNT(*) ' ~ whole ~ ' - ' ~ ref_total %}
{%- set ref_rows_upto = 'COUNT(CASE WHEN sm_window = 0 THEN 1 END) ' ~ upto %}
{#- only what the windows need is sorted: the rows' counts and weights follow from sm_window -#}
sm_rows AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, sm_window{{ ', sm_w' if weight }}
  FROM sm_long
  WHERE sm_value IS NOT NULL
),
sm_sorted AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_value, {{ sqlmetrics.bytewise('NULL') }} AS sm_category, 1 AS sm_known,
         1 - sm_window AS sm_n_ref, sm_window AS sm_n_cur,
         {%- if weight %}
         {{ in_ref }} AS sm_w_ref, {{ in_cur }} AS sm_w_cur,
         {#- the rank tests have no weights: no places -#}
         NULL AS sm_ref_before, NULL AS sm_cur_before,
         {%- else %}
         1 - sm_window AS sm_w_ref, sm_window AS sm_w_cur,
         {{ ref_rows_upto }} - (1 - sm_window) AS sm_ref_before,
         ROW_NUMBER() {{ order }} - {{ ref_rows_upto }} - sm_window AS sm_cur_before,
         {%- endif %}
         {{ sqlmetrics.fdiv(ref_upto, ref_total) }} AS sm_f_ref,
         {{ sqlmetrics.fdiv(cur_upto, cur_total) }} AS sm_f_cur,
         LEAD(sm_value) {{ order }} - sm_value AS sm_gap,
         {{ sqlmetrics.fdiv('SUM(' ~ in_ref ~ ' * sm_value) ' ~ whole, ref_total) }} AS sm_ref_mean,
         {{ ref_upto }} AS sm_ref_upto, {{ ref_total }} AS sm_ref_total,
         {%- if binning == 'uniform' and not edges %}
         MIN(CASE WHEN sm_window = 0 THEN sm_value END) {{ whole }} AS sm_ref_lo,
         MAX(CASE WHEN sm_window = 0 THEN sm_value END) {{ whole }} AS sm_ref_hi,
         {%- else %}
         {#- the reference's range is for uniform bins only -#}
         {{ sqlmetrics.as_double('NULL') }} AS sm_ref_lo, {{ sqlmetrics.as_double('NULL') }} AS sm_ref_hi,
         {%- endif %}
         {%- if weight %}
         NULL AS sm_first, NULL AS sm_last
         {%- else %}
         RANK() {{ order }} AS sm_first, {{ all_upto }} AS sm_last
         {%- endif %}
  FROM sm_rows
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
         {%- if plan == 'rank' %}
         {#- of the rows' types: their counts whole numbers of 64 bits -#}
         {%- for c in counted %} {{ 'CAST(' ~ c ~ ' AS BIGINT)' if c.startswith('sm_n_') or not weight else c }},{% endfor %}
         {%- else %}
         {%- for c in counted %} {{ c }},{% endfor %}
         {%- endif %} NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL{{ ', NULL, NULL' if plan == 'rank' }}
  FROM sm_values
  WHERE sm_value IS NULL
),
{#- the bins: a numeric value's from its place among the reference's values, a category its own; and,
    for the caller's `parts`, each value's average rank in the pooled sample and the number of values
    tied with it (sm_tied): of a distinct value's row (sm_n_ref + sm_n_cur values), or of a row (one) in
    the rank plan -#}
{%- if edges %}
{%- set cuts = edges | map('float') | map('string') | list %}
{%- elif binning == 'uniform' %}
{%- set cuts = [] %}
{%- for j in range(1, n_bins) %}{% set _ = cuts.append('(sm_ref_hi - sm_ref_lo) / ' ~ n_bins ~ ' * ' ~ j ~ ' + sm_ref_lo') %}{% endfor %}
{%- endif %}
sm_placed AS (
  SELECT sm_sorted.*,
         {%- if cuts is defined %}
         {#- the number of cuts at or below the value (numpy.histogram's bins, closed on the left) -#}
         CASE WHEN sm_known = 1 THEN {% for cut in cuts %}(CASE WHEN sm_value >= ({{ cut }}) THEN 1 ELSE 0 END){{ ' + ' if not loop.last }}{% endfor %} END AS sm_bin
         {%- else %}
         {#- floor(n_bins F_ref(x)): exact for counts, whose product and quotient doubles hold exactly -#}
         CASE WHEN sm_known = 1 THEN FLOOR({{ sqlmetrics.fdiv(n_bins ~ ' * sm_ref_upto', 'sm_ref_total') }}) END AS sm_floor
         {%- endif %}
         {%- if parts and plan == 'rank' %},
         (sm_first + sm_last) / 2.0 AS sm_rank, sm_last - sm_first + 1 AS sm_tied
         {%- elif parts %},
         sm_ref_before + sm_cur_before + (sm_n_ref + sm_n_cur + 1) / 2.0 AS sm_rank, sm_n_ref + sm_n_cur AS sm_tied
         {%- endif %}
  FROM sm_sorted
),
{#- one pass over the sorted values: a row per bin or category of a column's values (sm_known 1, 2) and
    one of its missing values (0), with the `parts` the caller sums over them (the sums of the counts
    named anew, _in: ClickHouse would read a bare name in `parts` as an alias of this SELECT) -#}
sm_parts AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_known, sm_bin, sm_category, MIN(sm_value) AS sm_low, MAX(sm_value) AS sm_high,
         {%- for c in counted %} SUM({{ c }}) AS {{ c }}_in{{ ',' if parts or not loop.last }}{% endfor %}
         {{- parts or '' }}
  FROM {% if cuts is defined %}sm_placed{% else %}(
    SELECT sm_placed.*, CASE WHEN sm_floor >= {{ n_bins - 1 }} THEN {{ n_bins - 1 }} ELSE sm_floor END AS sm_bin FROM sm_placed
  ) AS sm_capped{% endif %}
  {{ sqlmetrics.group_by(keys + ['sm_known', 'sm_bin', 'sm_category']) }}
),
sm_bins AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_bin, sm_category, sm_low, sm_high,
         {%- for c in counted %} {{ c }}_in AS {{ c }}{{ ',' if not loop.last }}{% endfor %}
  FROM sm_parts
  WHERE sm_known > 0
)
{%- endmacro %}
