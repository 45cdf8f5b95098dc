{#- Two systems compared on the same units by paired differences: for a ranking metric the queries,
    `relation` and `other` being two runs of them (judged by the same qrels, or each carrying the
    relevance), for gauc the groups, `other` being a second score column of `relation`. Per unit u
    the metric of each system, a_u and b_u, and its weight v_u (1 for a query; the GAUC weight of a
    group, as `weighting` says), over the units both systems count (a query missing from one run
    under missing='skip' is left out). Per slice `by`:
      estimate, other_estimate  the v-weighted means of a and b (the metrics, on those units)
      difference                the v-weighted mean of d = a - b
      std_error                 sqrt(n / (n - 1) * sum v^2 (d - difference)^2) / sum v: the
                                standard error of a weighted mean (s / sqrt(n) for equal weights)
      ci_low, ci_high           difference -/+ t_q std_error, t_q Student's quantile of
                                (1 + confidence) / 2 with n - 1 degrees of freedom, whatever the test
      statistic, p_value        two-sided, by `test`:
        'paired_t'       t = difference / std_error (scipy.stats.ttest_rel for equal weights)
        'wilcoxon'       the signed-rank test of the nonzero d (equal weights only), statistic
                         min(R+, R-) with average ranks for ties, as scipy.stats.wilcoxon: the
                         exact distribution for n <= 50 units without zeros or ties, and for
                         n <= 13 with them (every sign flip, as scipy's permutation test), else
                         the normal approximation with the tie correction
        'randomization'  Fisher's sign-flip test of the difference: in each of n_resamples
                         replicates every d flips its sign with chance 1/2, drawn from a hash of
                         (unit, replicate, seed) as the bootstrap draws; p = (1 + replicates as
                         far from 0 as the data) / (1 + n_resamples); statistic = difference
      n_units                   n, the paired units
      n_wins, n_ties, n_losses  the units where a > b, a = b and a < b (unweighted counts, as ranx's
                                win/tie/loss); a and b are equal when |d| < 0.5e-12, the rounding of
                                their sums (as the Wilcoxon test's zeros below)
    std_error, t and p_value are NULL for one unit, t and p_value when std_error is 0 and the
    difference is not (0 and 1 when both are 0). With `by`, p_value_holm: Holm's adjustment over
    the slices. The other keywords are the metric's own.
    A metric of one value over rows compares `score` (or `prediction`) with `other`, a second column
    of the same rows, by the test:
        'delong'     auc: DeLong's paired test (compare_delong), n_pos and n_neg for n_units
        'bootstrap'  the paired bootstrap (sql/bootstrap.sql with `other`), n_resamples replicates
                     drawn from `seed` (and `cluster`), n_boot and n_undefined for n_units. -#}
{% macro compare(metric, relation, other, test='paired_t', n_resamples=10000, seed=0, confidence=0.95, by=[]) %}
{%- set metric = sqlmetrics.metric_name(metric) %}
{%- if test == 'delong' %}
{{ sqlmetrics.compare_delong(metric, relation, other, confidence, by, **kwargs) }}
{%- elif test == 'bootstrap' %}
{{ sqlmetrics.bootstrap(metric, relation, n_boot=n_resamples, confidence=confidence, seed=seed, by=by, other=other, **kwargs) }}
{%- else %}
{%- if test not in ('paired_t', 'wilcoxon', 'randomization') %}{{ sqlmetrics.fail('test is paired_t, wilcoxon, randomization, delong or bootstrap') }}{% endif %}
{%- set unit = kwargs.get('group') if metric == 'gauc' else kwargs.get('query', 'query') %}
{%- set keys = by + [unit] %}
WITH {% if metric == 'gauc' -%}
{{ sqlmetrics.compare_groups(relation, other, by, **kwargs) }}
{%- else -%}
{{ sqlmetrics.compare_queries(metric, relation, other, by, **kwargs) }}
{%- endif %},
{{ sqlmetrics.compare_statistics(by, keys, test, n_resamples, seed, confidence) }}
SELECT {{ sqlmetrics.cols(by) }} estimate, other_estimate, difference, std_error, statistic, p_value, ci_low, ci_high, n_units,
       n_wins, n_ties, n_losses
       {%- if by %}, p_value_holm{% endif %}
FROM {% if by %}({{ sqlmetrics.with_holm('sm_cmp_result', 'p_value') }}) AS sm_adjusted{% else %}sm_cmp_result{% endif %}
{%- endif %}
{% endmacro %}

{#- Several runs of the same queries compared on several ranking measures, reading each run once:
    the runs (`relation`, then run_1, run_2, ... among the keywords) side by side, a slice
    sm_cmp_system each (0, 1, ...), the qrels copied for each, sm.evaluate's one pass over them
    (each query's value of every measure under every run), then compare's paired test of every
    pair of runs on every measure, the pair and the measure as slices (compare_statistics): the
    run numbered `baseline` against each other run, or with none every later run against every
    earlier one. A pair's units are the queries both runs give a value (as compare_queries pairs
    them), and the randomization test draws a query's signs from the hash of its columns alone, as
    compare of the two runs does. Per (`by`, pair, measure): system_index, baseline_index,
    measure_index (the measures' order) and compare's outputs; Holm's adjustment is the caller's
    (over the pairs of a measure). -#}
{% macro compare_runs(metric, relation, qrels=none, query='query', item='item', score='score', relevance='relevance',
                      measures=[], ties='item_desc', gain='exponential', relevance_threshold=1.0, missing='zero',
                      empty='zero', by=[], baseline=none, test='paired_t', n_resamples=10000, seed=0, confidence=0.95) %}
{%- if test not in ('paired_t', 'wilcoxon', 'randomization') %}{{ sqlmetrics.fail('test is paired_t, wilcoxon or randomization') }}{% endif %}
{%- set runs = [relation] %}
{%- for i in range(1, kwargs | length + 1) if kwargs.get('run_' ~ i) %}{% set _ = runs.append(kwargs['run_' ~ i]) %}{% endfor %}
{%- set carried = (by + [query, item, score] + ([] if qrels else [relevance])) | unique | list %}
{%- set lacking = sqlmetrics.slices_lacking(relation, qrels, by) %}
{%- set slices = by + ['sm_cmp_system', 'sm_cmp_baseline', 'sm_cmp_measure'] %}
{%- set numbers %}SELECT sm_replicate AS sm_cmp_number FROM ({{ sqlmetrics.replicate_numbers(runs | length - 1) }}) AS sm_cmp_numbers{% endset %}
WITH sm_cmp_systems AS (
  {%- for run in runs %}
  SELECT {{ sqlmetrics.cols(carried) }} {{ loop.index0 }} AS sm_cmp_system
  FROM {{ sqlmetrics.with_slices(run, qrels, query, lacking.run, 'qrels') }}
  {%- if not loop.last %}
  UNION ALL
  {%- endif %}
  {%- endfor %}
),
{%- if qrels %}
sm_cmp_judgments AS (
  SELECT sm_cmp_qrels.*, sm_cmp_copies.sm_cmp_system
  FROM {{ sqlmetrics.with_slices(qrels, 'sm_cmp_systems', query, lacking.qrels, 'run', 'sm_cmp_qrels') }}
  CROSS JOIN (SELECT DISTINCT sm_cmp_system FROM sm_cmp_systems) AS sm_cmp_copies
),
{%- endif %}
sm_cmp_values AS (
  {{ sqlmetrics.evaluate('sm_cmp_systems', qrels='sm_cmp_judgments' if qrels else none, query=query, item=item, score=score,
                         relevance=relevance, measures=measures, ties=ties, gain=gain,
                         relevance_threshold=relevance_threshold, missing=missing, empty=empty,
                         by=by + ['sm_cmp_system'], per_query=true) }}
),
{#- a row per query, run and measure with a value (a measure leaves out the queries it does not count) -#}
sm_cmp_measured AS (
  SELECT {{ sqlmetrics.cols(by + [query]) }} sm_cmp_run, sm_cmp_measure, sm_value
  FROM (
    SELECT {{ sqlmetrics.qualified_cols(by + [query], 'sm_cmp_values') }} sm_cmp_values.sm_cmp_system AS sm_cmp_run,
           sm_cmp_measures.sm_cmp_number AS sm_cmp_measure,
           CASE sm_cmp_measures.sm_cmp_number
           {%- for m in measures %} WHEN {{ loop.index0 }} THEN sm_cmp_values.{{ sqlmetrics.ident(m.name) }}{% endfor %} END AS sm_value
    FROM sm_cmp_values
    CROSS JOIN (SELECT sm_replicate AS sm_cmp_number FROM ({{ sqlmetrics.replicate_numbers(measures | length - 1) }}) AS sm_cmp_measure_numbers) AS sm_cmp_measures
  ) AS sm_cmp_unpivoted
  WHERE sm_value IS NOT NULL
),
sm_cmp_pairs AS (
  SELECT sm_cmp_left.sm_cmp_number AS sm_cmp_system, sm_cmp_right.sm_cmp_number AS sm_cmp_baseline
  FROM ({{ numbers }}) AS sm_cmp_left
  CROSS JOIN ({{ numbers }}) AS sm_cmp_right
  WHERE {% if baseline is none %}sm_cmp_left.sm_cmp_number > sm_cmp_right.sm_cmp_number
        {%- else %}sm_cmp_right.sm_cmp_number = {{ baseline }} AND sm_cmp_left.sm_cmp_number <> {{ baseline }}{% endif %}
),
sm_cmp_units AS (
  SELECT {{ sqlmetrics.cols(slices + [query]) }}
         MAX(CASE WHEN sm_cmp_run = sm_cmp_system THEN sm_value END) AS sm_a,
         MAX(CASE WHEN sm_cmp_run = sm_cmp_baseline THEN sm_value END) AS sm_b,
         {{ sqlmetrics.as_double('1') }} AS sm_v
  FROM sm_cmp_measured
  CROSS JOIN sm_cmp_pairs
  WHERE sm_cmp_run = sm_cmp_system OR sm_cmp_run = sm_cmp_baseline
  {{ sqlmetrics.group_by(slices + [query]) }}
  HAVING COUNT(*) = 2
),
{{ sqlmetrics.compare_statistics(slices, slices + [query], test, n_resamples, seed, confidence, hashed=by + [query]) }}
SELECT {{ sqlmetrics.cols(by) }} sm_cmp_system AS system_index, sm_cmp_baseline AS baseline_index,
       sm_cmp_measure AS measure_index, estimate, other_estimate, difference, std_error, statistic, p_value, ci_low,
       ci_high, n_units, n_wins, n_ties, n_losses
FROM sm_cmp_result
{% endmacro %}

{#- compare's statistics of the paired units sm_cmp_units (`keys`: the slices `by` and the unit),
    as CTEs ending in sm_cmp_result: a row per slice with compare's outputs. `hashed`: the columns
    whose hash draws a unit's signs in the randomization test (the keys, unless the slices hold
    more than the call's own: compare_runs' pairs and measures draw as one pair's call does). -#}
{% macro compare_statistics(by, keys, test, n_resamples, seed, confidence, hashed=none) %}
sm_cmp_summary AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(COUNT(*) AS BIGINT) AS sm_n, SUM(sm_v) AS sm_sv,
         {{ sqlmetrics.fdiv('SUM(sm_v * sm_a)', 'SUM(sm_v)') }} AS sm_estimate,
         {{ sqlmetrics.fdiv('SUM(sm_v * sm_b)', 'SUM(sm_v)') }} AS sm_other_estimate,
         {{ sqlmetrics.fdiv('SUM(sm_v * (sm_a - sm_b))', 'SUM(sm_v)') }} AS sm_difference,
         CAST(SUM(CASE WHEN sm_a - sm_b >= 0.5e-12 THEN 1 ELSE 0 END) AS BIGINT) AS sm_wins,
         CAST(SUM(CASE WHEN sm_b - sm_a >= 0.5e-12 THEN 1 ELSE 0 END) AS BIGINT) AS sm_losses
  FROM sm_cmp_units
  {{ sqlmetrics.group_by(by) }}
),
{#- the units with their slice's mean difference: squares of deviations, no difference of large sums -#}
sm_cmp_deviations AS (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_cmp_units') }} sm_cmp_units.sm_v AS sm_v,
         sm_cmp_units.sm_a - sm_cmp_units.sm_b AS sm_d, sm_cmp_summary.sm_difference AS sm_mean_d
  FROM sm_cmp_units
  {{ sqlmetrics.join_slices('sm_cmp_units', 'sm_cmp_summary', by) }}
),
sm_cmp_squares AS (
  SELECT {{ sqlmetrics.cols(by) }} SUM(sm_v * sm_v * (sm_d - sm_mean_d) * (sm_d - sm_mean_d)) AS sm_ss
  FROM sm_cmp_deviations
  {{ sqlmetrics.group_by(by) }}
),
sm_cmp_spread AS (
  SELECT sm_cmp_summary.*,
         CASE WHEN sm_n > 1
              THEN {{ sqlmetrics.fdiv('SQRT(' ~ sqlmetrics.fdiv('sm_n', 'sm_n - 1') ~ ' * ' ~ sqlmetrics.nonnegative('sm_cmp_squares.sm_ss') ~ ')', 'sm_sv') }}
         END AS sm_se
  FROM sm_cmp_summary
  {{ sqlmetrics.join_slices('sm_cmp_summary', 'sm_cmp_squares', by) }}
),
sm_cmp_t AS (
  SELECT sm_cmp_spread.*,
         CASE WHEN sm_se > 0 THEN {{ sqlmetrics.fdiv('sm_difference', 'sm_se') }}
              WHEN sm_se = 0 AND sm_difference = 0 THEN 0 END AS sm_t,
         sm_n - 1 AS sm_df
  FROM sm_cmp_spread
),
{%- if test == 'paired_t' %}
{{ sqlmetrics.paired_t_p(by) }},
{%- elif test == 'wilcoxon' %}
{{ sqlmetrics.wilcoxon_p(keys, by) }},
{%- else %}
{{ sqlmetrics.randomization_p(keys, by, n_resamples, seed, hashed or keys) }},
{%- endif %}
sm_cmp_result AS (
  SELECT {{ sqlmetrics.cols(by) }}
         sm_estimate AS estimate, sm_other_estimate AS other_estimate, sm_difference AS difference,
         sm_se AS std_error, sm_statistic AS statistic, CASE WHEN sm_p > 1 THEN 1 ELSE sm_p END AS p_value,
         sm_difference - sm_t_q * sm_se AS ci_low, sm_difference + sm_t_q * sm_se AS ci_high,
         sm_n AS n_units, sm_wins AS n_wins, sm_n - sm_wins - sm_losses AS n_ties, sm_losses AS n_losses
  FROM (
    SELECT sm_cmp_tested.*, {{ sqlmetrics.student_t_quantile((1 - confidence) / 2, 'sm_df') }} AS sm_t_q
    FROM sm_cmp_tested
  ) AS sm_cmp_interval
)
{%- endmacro %}

{#- compare's test='delong': auc_compare's paired DeLong test of `score` against the column
    `other`, in compare's columns (its z the statistic). -#}
{% macro compare_delong(metric, relation, other, confidence, by) %}
{%- if metric != 'auc' %}{{ sqlmetrics.fail("test='delong' compares AUCs: metric='auc'") }}{% endif %}
SELECT {{ sqlmetrics.cols(by) }} auc AS estimate, other_auc AS other_estimate, difference, std_error, z AS statistic,
       p_value, ci_low, ci_high, n_pos, n_neg{% if by %}, p_value_holm{% endif %}
FROM ({{ sqlmetrics.auc_compare(relation, kwargs['label'], kwargs['score'], other, weight=kwargs.get('weight'),
                                 confidence=confidence, by=by, plan=kwargs.get('plan')) }}) AS sm_delong
{% endmacro %}

{#- CTEs ending in sm_cmp_units (by, query, sm_a, sm_b, sm_v): the per-query values of a ranking
    metric for two runs, from one call of the metric over both (a slice sm_cmp_system each; the
    qrels, if any, copied for each), paired by query. A `by` column of the runs only, or of the
    qrels only, is given to the other side here (with_slices), where the relations' columns can be
    known: the call over both reads CTEs. -#}
{% macro compare_queries(metric, relation, other, by) %}
{%- set query = kwargs.get('query', 'query') %}
{#- the run's relevance: a judged metric's without qrels; a list metric's own (serendipity's), if given #}
{%- if metric in ('ils', 'serendipity', 'average_popularity', 'tail_share') %}
{%- set relevance = kwargs.get('relevance') %}
{%- else %}
{%- set relevance = none if kwargs.get('qrels') else kwargs.get('relevance', 'relevance') %}
{%- endif %}
{%- set carried = (by + [query, kwargs.get('item', 'item'), kwargs.get('score', 'score')]
                   + ([relevance] if relevance else [])) | unique | list %}
{%- set params = dict(kwargs) %}
{%- if kwargs.get('qrels') %}{% set _ = params.update({'qrels': 'sm_cmp_judgments'}) %}{% endif %}
{%- set lacking = sqlmetrics.slices_lacking(relation, kwargs.get('qrels'), by) %}
sm_cmp_systems AS (
  SELECT {{ sqlmetrics.cols(carried) }} 0 AS sm_cmp_system
  FROM {{ sqlmetrics.with_slices(relation, kwargs.get('qrels'), query, lacking.run, 'qrels') }}
  UNION ALL
  SELECT {{ sqlmetrics.cols(carried) }} 1 AS sm_cmp_system
  FROM {{ sqlmetrics.with_slices(other, kwargs.get('qrels'), query, lacking.run, 'qrels') }}
),
{%- if kwargs.get('qrels') %}
{#- a copy of the qrels per system, numbered by the systems' own column (a literal UNION here made
    Spark's executors fail to deserialize the plan) -#}
sm_cmp_judgments AS (
  SELECT sm_cmp_qrels.*, sm_cmp_copies.sm_cmp_system
  FROM {{ sqlmetrics.with_slices(kwargs['qrels'], 'sm_cmp_systems', query, lacking.qrels, 'run', 'sm_cmp_qrels') }}
  CROSS JOIN (SELECT DISTINCT sm_cmp_system FROM sm_cmp_systems) AS sm_cmp_copies
),
{%- endif %}
{#- the counted queries' parts (numerator over denominator: the query's value), unsorted -#}
sm_cmp_values AS (
  {{ sqlmetrics.metric(metric, 'sm_cmp_systems', by=by + ['sm_cmp_system'], per_query='parts', **params) }}
),
sm_cmp_units AS (
  SELECT {{ sqlmetrics.cols(by + [query]) }}
         MAX(CASE WHEN sm_cmp_system = 0 THEN {{ sqlmetrics.fdiv('sm_numerator', 'sm_denominator') }} END) AS sm_a,
         MAX(CASE WHEN sm_cmp_system = 1 THEN {{ sqlmetrics.fdiv('sm_numerator', 'sm_denominator') }} END) AS sm_b,
         {{ sqlmetrics.as_double('1') }} AS sm_v
  FROM sm_cmp_values
  {{ sqlmetrics.group_by(by + [query]) }}
  HAVING COUNT(*) = 2
)
{%- endmacro %}

{#- CTEs ending in sm_cmp_units (by, group, sm_a, sm_b, sm_v): the AUC of each group under `score`
    and under `other` (a column), from one call of auc_parts over both (a slice sm_cmp_system
    each), for the groups with both classes; sm_v the group's GAUC weight. -#}
{% macro compare_groups(relation, other, by, label, score, group, weight=none, weighting='impressions', plan='aggregate') %}
{%- set carried = (by + [group, label] + ([weight] if weight else [])) | unique | list %}
sm_cmp_scores AS (
  SELECT {{ sqlmetrics.cols(carried) }} {{ sqlmetrics.ident(score) }} AS sm_cmp_score, 0 AS sm_cmp_system FROM {{ relation }}
  UNION ALL
  SELECT {{ sqlmetrics.cols(carried) }} {{ sqlmetrics.ident(other) }} AS sm_cmp_score, 1 AS sm_cmp_system FROM {{ relation }}
),
sm_cmp_groups AS (
  {{ sqlmetrics.auc_parts('sm_cmp_scores', label, 'sm_cmp_score', weight, by + [group, 'sm_cmp_system'], plan) }}
),
sm_cmp_units AS (
  SELECT {{ sqlmetrics.cols(by + [group]) }}
         MAX(CASE WHEN sm_cmp_system = 0 THEN sm_group_auc END) AS sm_a,
         MAX(CASE WHEN sm_cmp_system = 1 THEN sm_group_auc END) AS sm_b,
         MAX(sm_group_weight) AS sm_v
  FROM (
    SELECT sm_cmp_groups.*, {{ sqlmetrics.fdiv('sm_wins', 'sm_w_pos') }} AS sm_group_auc,
           {{ sqlmetrics.as_double(sqlmetrics.gauc_group_weight(weighting, weight, by + ['sm_cmp_system'])) }} AS sm_group_weight
    FROM sm_cmp_groups
    WHERE sm_w_pos > 0 AND sm_w_neg > 0
  ) AS sm_cmp_group_aucs
  {{ sqlmetrics.group_by(by + [group]) }}
)
{%- endmacro %}

{#- sm_cmp_tested: sm_cmp_t with sm_statistic = t and sm_p, its two-sided p-value from Student's
    distribution with sm_df degrees of freedom (statistics.sql): the series' sums from each slice
    crossed with their terms, joined back to the slice. -#}
{% macro paired_t_p(by) %}
sm_cmp_t_terms AS (
  {{ sqlmetrics.student_t_terms() }}
),
sm_cmp_t_abs AS (
  SELECT sm_cmp_t.*, ABS(sm_t) AS sm_abs_t, {{ sqlmetrics.fdiv('sm_df', 'sm_df + sm_t * sm_t') }} AS sm_y
  FROM sm_cmp_t
),
sm_cmp_t_sums AS (
  SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.student_t_sums('sm_y', 'sm_df') }}
  FROM sm_cmp_t_abs
  CROSS JOIN sm_cmp_t_terms
  {{ sqlmetrics.group_by(by) }}
),
sm_cmp_tested AS (
  SELECT sm_cmp_hill.*, sm_t AS sm_statistic,
         CASE WHEN sm_t IS NOT NULL AND sm_df > 0 THEN {{ sqlmetrics.student_t_p('sm_abs_t', 'sm_y', 'sm_df', 'sm_hill_z') }} END AS sm_p
  FROM (
    SELECT sm_cmp_t_abs.*, sm_cmp_t_sums.sm_t_head, sm_cmp_t_sums.sm_t_rest,
           {{ sqlmetrics.student_t_hill_z('sm_cmp_t_abs.sm_abs_t', 'sm_cmp_t_abs.sm_df') }} AS sm_hill_z
    FROM sm_cmp_t_abs
    {{ sqlmetrics.join_slices('sm_cmp_t_abs', 'sm_cmp_t_sums', by) }}
  ) AS sm_cmp_hill
)
{%- endmacro %}

{#- sm_cmp_tested: sm_cmp_t with the Wilcoxon signed-rank test's sm_statistic and sm_p. Ranks of
    |d| among the nonzero d of a slice, doubled (2 x an average rank is an integer): sm_plus2, the
    doubled rank sum of the positive d. |d| is compared in units of 1e-12: a unit's two values are
    sums whose last digits depend on the order of the rows, so two equal values may differ by a
    rounding error, which must not make a zero difference nonzero, nor split a tie.
    The exact distribution of that sum when every sign is equally likely, for the slices that take
    it: a row per slice with its (up to 54) doubled ranks as columns, then 9 steps of 6 units (64
    sign patterns each; few steps for Spark's analyzer, and every CTE read once, as ClickHouse
    inlines them), the ranks of a slice with fewer units padded with 0, which multiplies every
    count alike (a count is a multiple of 2^(54 - n) below 2^54: exact in a double). -#}
{% macro wilcoxon_p(keys, by) %}
{%- set per_step, steps = 6, 9 %}
{%- set ranks = range(per_step * steps) | map('string') | map('replace', '', 'sm_r', 1) | list %}
{%- set window %}{{ sqlmetrics.partition_by(by) }}{% endset %}
sm_cmp_signed AS (
  SELECT sm_ranked_d.*,
         CASE WHEN sm_n_nonzero > 0 AND (sm_n_all <= 13 OR (sm_n_all <= 50 AND sm_n_nonzero = sm_n_all AND sm_most_tied = 1))
              THEN 1 ELSE 0 END AS sm_exact
  FROM (
    SELECT sm_keyed.*,
           2 * (RANK() OVER ({{ window }} ORDER BY sm_abs_d) - sm_n_zero) + sm_tied - 1 AS sm_rank2,
           MAX(CASE WHEN sm_abs_d > 0 THEN sm_tied ELSE 1 END) OVER ({{ window }}) AS sm_most_tied
    FROM (
      SELECT sm_measured.*,
             COUNT(*) OVER ({{ window }}) AS sm_n_all,
             SUM(CASE WHEN sm_abs_d > 0 THEN 1 ELSE 0 END) OVER ({{ window }}) AS sm_n_nonzero,
             SUM(CASE WHEN sm_abs_d > 0 THEN 0 ELSE 1 END) OVER ({{ window }}) AS sm_n_zero,
             COUNT(*) OVER ({{ sqlmetrics.partition_by(by + ['sm_abs_d']) }}) AS sm_tied
      FROM (
        SELECT {{ sqlmetrics.cols(keys) }} sm_d, FLOOR(ABS(sm_d) * 1e12 + 0.5) AS sm_abs_d FROM sm_cmp_deviations
      ) AS sm_measured
    ) AS sm_keyed
  ) AS sm_ranked_d
),
sm_cmp_signed_sums AS (
  SELECT {{ sqlmetrics.cols(by) }} MAX(sm_n_nonzero) AS sm_n_nonzero_all, MAX(sm_exact) AS sm_exact_all,
         SUM(CASE WHEN sm_abs_d > 0 AND sm_d > 0 THEN sm_rank2 ELSE 0 END) AS sm_plus2_all,
         SUM(CASE WHEN sm_abs_d > 0 THEN sm_tied * sm_tied - 1 ELSE 0 END) AS sm_tie_terms_all
  FROM sm_cmp_signed
  {{ sqlmetrics.group_by(by) }}
),
sm_cmp_level0 AS (
  SELECT {{ sqlmetrics.cols(by) }}
         {% for r in ranks %}SUM(CASE WHEN sm_j = {{ loop.index }} THEN sm_rank2 ELSE 0 END) AS {{ r }}, {% endfor %}
         SUM(CASE WHEN sm_d > 0 THEN sm_rank2 ELSE 0 END) AS sm_plus2, 0 AS sm_s, {{ sqlmetrics.as_double('1') }} AS sm_count
  FROM (
    SELECT sm_cmp_signed.*, ROW_NUMBER() OVER ({{ window }} ORDER BY sm_rank2) AS sm_j
    FROM sm_cmp_signed
    WHERE sm_exact = 1 AND sm_abs_d > 0
  ) AS sm_numbered
  {{ sqlmetrics.group_by(by) }}
),
sm_cmp_bits AS (
  SELECT {% for i in range(per_step) %}sm_bit{{ i }}.sm_bit AS sm_b{{ i }}{{ ", " if not loop.last }}{% endfor %}
  FROM {% for i in range(per_step) %}(SELECT 0 AS sm_bit UNION ALL SELECT 1 AS sm_bit) AS sm_bit{{ i }}{{ " CROSS JOIN " if not loop.last }}{% endfor %}
),
{%- for step in range(steps) %}
sm_cmp_level{{ step + 1 }} AS (
  SELECT {{ sqlmetrics.cols(by) }} {% for r in ranks %}MAX({{ r }}) AS {{ r }}, {% endfor %}MAX(sm_plus2) AS sm_plus2,
         sm_s_next AS sm_s, SUM(sm_count) AS sm_count
  FROM (
    SELECT sm_cmp_level{{ step }}.*,
           sm_s{% for i in range(per_step) %} + sm_b{{ i }} * {{ ranks[step * per_step + i] }}{% endfor %} AS sm_s_next
    FROM sm_cmp_level{{ step }}
    CROSS JOIN sm_cmp_bits
  ) AS sm_cmp_step{{ step + 1 }}
  {{ sqlmetrics.group_by(by + ['sm_s_next']) }}
),
{%- endfor %}
sm_cmp_exact AS (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.fdiv('SUM(CASE WHEN sm_s <= sm_plus2 THEN sm_count ELSE 0 END)', 'SUM(sm_count)') }} AS sm_p_low,
         {{ sqlmetrics.fdiv('SUM(CASE WHEN sm_s >= sm_plus2 THEN sm_count ELSE 0 END)', 'SUM(sm_count)') }} AS sm_p_high
  FROM sm_cmp_level{{ steps }}
  {{ sqlmetrics.group_by(by) }}
),
sm_cmp_tested AS (
  SELECT sm_cmp_w_z.*,
         {{ sqlmetrics.as_double('CASE WHEN sm_plus2 < sm_n_nonzero * (sm_n_nonzero + 1) - sm_plus2 THEN sm_plus2 '
                                 ~ 'ELSE sm_n_nonzero * (sm_n_nonzero + 1) - sm_plus2 END') }} / 2 AS sm_statistic,
         CASE WHEN sm_n_nonzero = 0 THEN NULL
              WHEN sm_exact = 1 THEN 2 * (CASE WHEN sm_p_low < sm_p_high THEN sm_p_low ELSE sm_p_high END)
              ELSE 2 * {{ sqlmetrics.normal_tail('sm_abs_z') }} END AS sm_p
  FROM (
    SELECT sm_cmp_w.*,
           {{ sqlmetrics.fdiv('ABS(sm_plus2 / 2.0 - sm_n_nonzero * (sm_n_nonzero + 1) / 4.0)',
                              'SQRT((sm_n_nonzero * (sm_n_nonzero + 1) * (2 * sm_n_nonzero + 1) - sm_tie_terms / 2.0) / 24.0)') }}
             AS sm_abs_z
    FROM (
      SELECT {{ sqlmetrics.qualified_cols(by + ['sm_n', 'sm_estimate', 'sm_other_estimate', 'sm_difference', 'sm_se',
                                               'sm_t', 'sm_df', 'sm_wins', 'sm_losses'], 'sm_cmp_t') }}
             COALESCE(sm_sums.sm_n_nonzero_all, 0) AS sm_n_nonzero, COALESCE(sm_sums.sm_exact_all, 0) AS sm_exact,
             COALESCE(sm_sums.sm_plus2_all, 0) AS sm_plus2, COALESCE(sm_sums.sm_tie_terms_all, 0) AS sm_tie_terms,
             sm_exact_p.sm_p_low, sm_exact_p.sm_p_high
      FROM sm_cmp_t
      LEFT JOIN sm_cmp_signed_sums AS sm_sums
        ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_cmp_t', 'sm_sums') }}{% else %}1 = 1{% endif %}
      LEFT JOIN sm_cmp_exact AS sm_exact_p
        ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_cmp_t', 'sm_exact_p') }}{% else %}1 = 1{% endif %}
    ) AS sm_cmp_w
  ) AS sm_cmp_w_z
)
{%- endmacro %}

{#- sm_cmp_tested: sm_cmp_t with Fisher's sign-flip randomization test of the (weighted) mean
    difference: sm_statistic = the difference, sm_p = (1 + replicates whose |sum of v d with flipped
    signs| reaches the data's, up to rounding) / (1 + n_resamples); a unit's signs drawn from the hash
    of its columns `hashed`. -#}
{% macro randomization_p(keys, by, n_resamples, seed, hashed) %}
sm_cmp_hashed AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_v * sm_d AS sm_vd, {{ sqlmetrics.unit_hash(hashed) }} AS sm_unit
  FROM sm_cmp_deviations
),
sm_cmp_resamples AS (
  {{ sqlmetrics.replicate_numbers(n_resamples) }}
),
sm_cmp_flipped AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_replicate, SUM(CASE WHEN sm_uniform < 0.5 THEN -sm_vd ELSE sm_vd END) AS sm_flipped
  FROM ({{ sqlmetrics.unit_uniform('sm_cmp_hashed', 'sm_cmp_resamples', seed) }}) AS sm_drawn
  WHERE sm_replicate > 0
  {{ sqlmetrics.group_by(by + ['sm_replicate']) }}
),
sm_cmp_observed AS (
  SELECT {{ sqlmetrics.cols(by) }} SUM(sm_vd) AS sm_observed FROM sm_cmp_hashed {{ sqlmetrics.group_by(by) }}
),
sm_cmp_extreme AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_cmp_observed') }}
         SUM(CASE WHEN ABS(sm_cmp_flipped.sm_flipped) >= ABS(sm_cmp_observed.sm_observed) * (1 - 1e-12) THEN 1 ELSE 0 END)
           AS sm_as_far
  FROM sm_cmp_flipped
  {{ sqlmetrics.join_slices('sm_cmp_flipped', 'sm_cmp_observed', by) }}
  {%- if by %}
  GROUP BY {% for c in by %}sm_cmp_observed.{{ sqlmetrics.ident(c) }}{{ ", " if not loop.last }}{% endfor %}
  {%- endif %}
),
sm_cmp_tested AS (
  SELECT sm_cmp_t.*, sm_difference AS sm_statistic,
         {{ sqlmetrics.fdiv('1 + sm_cmp_extreme.sm_as_far', 1 + n_resamples) }} AS sm_p
  FROM sm_cmp_t
  {{ sqlmetrics.join_slices('sm_cmp_t', 'sm_cmp_extreme', by) }}
)
{%- endmacro %}
