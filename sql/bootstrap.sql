{#- A confidence interval for a metric by the Poisson bootstrap (Hanley & MacGibbon 2006; the
    resampling of TFMA and Fairlearn's n_boot), done by the engine: in replicate b every resampling
    unit weighs k ~ Poisson(1), drawn from the unit and (b, seed) by arithmetic, with no random state,
    so the same call gives the same interval; the `metric` (a macro with frequency weights) then runs
    once over the replicates, as a slice of its own each (`by` + sm_replicate), with the row weights
    times k; replicate 0, every unit weighing 1, gives the metric on the data (so the metric is called
    once, and its CTEs appear once). Returned per slice `by`: estimate (the metric on the data),
    std_error (the replicates' standard deviation), the percentile interval ci_low, ci_high (numpy's
    linear interpolation between order statistics), n_boot (the replicates that gave a value: a
    replicate that leaves a slice without one class gives none) and n_undefined (those that did not).
    The unit: the `cluster` column when given (rows of a user resample together), else the row: a
    row is its columns and its place among the rows equal to it (identical rows are exchangeable,
    so which of them is first does not matter, and each resamples on its own; the numbering's ORDER
    BY, which Spark requires, orders equal values). Every replicate reads every row: n_boot times
    the metric's work. For a ranking metric the unit is the query: the metric runs once, per query
    (mean_over_queries' per_query='parts'), and each replicate recombines the queries' parts with
    their weights (n_boot times the number of queries, not of rows). The other keywords are the
    metric's own. -#}
{% macro bootstrap(metric, relation, n_boot=1000, confidence=0.95, seed=0, cluster=none, weight=none, by=[]) %}
{%- set read = namespace(columns=by + ([weight] if weight else []) + ([cluster] if cluster else [])) %}
{%- for p in ('label', 'score', 'prediction', 'target', 'group', 'base_score', 'other_score') %}
{%- if kwargs.get(p) %}{% set read.columns = read.columns + [kwargs[p]] %}{% endif %}
{%- endfor %}
{%- set carried = read.columns | unique | list %}
{%- set ranking = sqlmetrics.per_query_metric(metric) %}
{%- set unit = [cluster] if cluster else carried + ['sm_occurrence'] %}
{%- set tail = (1 - confidence) / 2 %}
{%- set resampled_by = by + ['sm_replicate'] %}
{#- replicate 0 weighs every unit 1: the metric on the data, from the same (one) call of it #}
{%- set draw %}CASE WHEN sm_replicate = 0 THEN 1 ELSE {{ sqlmetrics.poisson_one('sm_uniform') }} END{% endset %}
WITH sm_replicates AS (
  {{ sqlmetrics.replicate_numbers(n_boot) }}
),
{%- if ranking %}
sm_parts AS (
  {{ sqlmetrics.metric(metric, relation, by=by, per_query='parts', **kwargs) }}
),
sm_units AS (
  SELECT sm_parts.*, {{ sqlmetrics.unit_hash(by + [kwargs.get('query', 'query')]) }} AS sm_unit FROM sm_parts
),
sm_replicated AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_replicate,
         CASE WHEN MAX(sm_relevant_rule) = 0 OR SUM(sm_k * sm_n_relevant) > 0
              THEN {{ sqlmetrics.fdiv('SUM(sm_k * sm_numerator)', 'SUM(sm_k * sm_denominator)') }} END
           AS {{ sqlmetrics.ident(metric) }}
  FROM (
    SELECT sm_drawn.*, {{ draw }} AS sm_k
    FROM ({{ sqlmetrics.unit_uniform('sm_units', 'sm_replicates', seed) }}) AS sm_drawn
  ) AS sm_weighted
  {{ sqlmetrics.group_by(by + ['sm_replicate']) }}
),
{%- else %}
sm_units AS (
  SELECT sm_occurrences.*, {{ sqlmetrics.unit_hash(unit) }} AS sm_unit
  FROM (
    SELECT {{ sqlmetrics.col_list(carried) }}
           {%- if not cluster %},
           ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(carried) }} ORDER BY {{ sqlmetrics.ident(carried[0]) }}) AS sm_occurrence
           {%- endif %}
    FROM {{ relation }}
  ) AS sm_occurrences
),
sm_resampled AS (
  SELECT {{ sqlmetrics.cols(carried) }} sm_replicate,
         {{ draw }} * {{ sqlmetrics.row_weight(weight) }} AS sm_boot_weight
  FROM ({{ sqlmetrics.unit_uniform('sm_units', 'sm_replicates', seed) }}) AS sm_drawn
),
sm_replicated AS (
  {{ sqlmetrics.metric(metric, 'sm_resampled', weight='sm_boot_weight', by=resampled_by, **kwargs) }}
),
{%- endif %}
sm_estimated AS (
  SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.ident(metric) }} FROM sm_replicated WHERE sm_replicate = 0
),
sm_ordered AS (
  SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.ident(metric) }} AS sm_value,
         ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY {{ sqlmetrics.ident(metric) }}) AS sm_rank,
         COUNT(*) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_n,
         AVG({{ sqlmetrics.ident(metric) }}) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_mean
  FROM sm_replicated
  WHERE sm_replicate > 0 AND {{ sqlmetrics.ident(metric) }} IS NOT NULL
),
sm_spread AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(MAX(sm_n) AS BIGINT) AS sm_replicates_with_value,
         SQRT({{ sqlmetrics.fdiv('SUM((sm_value - sm_mean) * (sm_value - sm_mean))', 'MAX(sm_n) - 1') }}) AS sm_se,
         {{ sqlmetrics.order_statistic(tail) }} AS sm_low,
         {{ sqlmetrics.order_statistic(1 - tail) }} AS sm_high
  FROM sm_ordered
  {{ sqlmetrics.group_by(by) }}
)
SELECT {{ sqlmetrics.qualified_cols(by, 'sm_estimated') }}
       sm_estimated.{{ sqlmetrics.ident(metric) }} AS estimate,
       sm_spread.sm_se AS std_error, sm_spread.sm_low AS ci_low, sm_spread.sm_high AS ci_high,
       COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_boot,
       {{ n_boot }} - COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_undefined
FROM sm_estimated
LEFT JOIN sm_spread
  {% if by %}ON {{ sqlmetrics.null_safe_join_on(by, 'sm_estimated', 'sm_spread') }}{% else %}ON 1 = 1{% endif %}
{% endmacro %}

{#- The p-quantile of the sm_value of a group of sm_ordered (sm_rank 1..sm_n), as numpy's default:
    h = p (sm_n - 1), the order statistic at floor(h) plus the fraction of the way to the next. -#}
{% macro order_statistic(p) -%}
{%- set h %}({{ p }} * (MAX(sm_n) - 1)){% endset -%}
{%- set floor_h %}FLOOR({{ p }} * (sm_n - 1)){% endset -%}
(MAX(CASE WHEN sm_rank = {{ floor_h }} + 1 THEN sm_value END)
 + ({{ h }} - MAX(FLOOR({{ p }} * (sm_n - 1))))
   * (COALESCE(MAX(CASE WHEN sm_rank = {{ floor_h }} + 2 THEN sm_value END),
               MAX(CASE WHEN sm_rank = {{ floor_h }} + 1 THEN sm_value END))
      - MAX(CASE WHEN sm_rank = {{ floor_h }} + 1 THEN sm_value END)))
{%- endmacro %}

{#- One row per replicate, sm_replicate = 0 .. n: crossed tables of the ten digits (no series
    function is common to every engine). -#}
{% macro replicate_numbers(n) %}
{%- set places = (n | string) | length %}
SELECT sm_replicate FROM (
  SELECT {% for i in range(places) %}sm_d{{ i }}.sm_digit * {{ 10 ** i }}{{ " + " if not loop.last }}{% endfor %} AS sm_replicate
  FROM {% for i in range(places) %}(SELECT 0 AS sm_digit{% for d in range(1, 10) %} UNION ALL SELECT {{ d }}{% endfor %}) AS sm_d{{ i }}
       {{- " CROSS JOIN " if not loop.last }}{% endfor %}
) AS sm_numbers
WHERE sm_replicate <= {{ n }}
{% endmacro %}

{#- The rows of `units` (with sm_unit, the unit's hash: an integer in [0, M), M = 2^31 - 1) for each
    row of `replicates` (sm_replicate), with sm_uniform in [0, 1) drawn from the unit, the replicate
    and the seed: the three combined, then two rounds of squaring modulo M between multiplications
    (Park & Miller's 48271 and 16807). Integer arithmetic below 2^63 on every engine, and no longer
    linear in the replicate, so that a unit's draws in successive replicates are not shifted copies
    of each other. -#}
{% macro unit_uniform(units, replicates, seed) -%}
{%- set m = 2147483647 -%}
SELECT sm_second.*, {{ sqlmetrics.as_double('MOD(MOD(sm_r3 * sm_r3 + 54321, ' ~ m ~ ') * 48271, ' ~ m ~ ')') }} / {{ m }} AS sm_uniform
FROM (
  SELECT sm_first.*, MOD(MOD(sm_r1 * sm_r1 + 12345, {{ m }}) * 16807 + sm_unit, {{ m }}) AS sm_r3
  FROM (
    SELECT {{ units }}.*, {{ replicates }}.sm_replicate,
           MOD(MOD(sm_unit + CAST({{ replicates }}.sm_replicate AS BIGINT) * 1000003 + {{ (seed * 999983 + 1) % m }}, {{ m }})
               * 48271, {{ m }}) AS sm_r1
    FROM {{ units }}
    CROSS JOIN {{ replicates }}
  ) AS sm_first
) AS sm_second
{%- endmacro %}

{#- k ~ Poisson(1) from a uniform u in [0, 1): the smallest k whose distribution function
    e^-1 * sum_{j <= k} 1/j! exceeds u (computed here, at render time), up to 12 (then 13: a chance
    below 1e-10). -#}
{% macro poisson_one(u) -%}
{%- set ns = namespace(term=2.718281828459045 ** -1, total=0.0) -%}
CASE
{%- for k in range(13) %}
{%- set ns.total = ns.total + ns.term %}
  WHEN {{ u }} < {{ '%.17g' | format(ns.total) }} THEN {{ k }}
{%- set ns.term = ns.term / (k + 1) %}
{%- endfor %}
  ELSE 13 END
{%- endmacro %}

{#- A resampling unit (the `columns` of a row; a slice column may be NULL) as an integer in
    [0, 2^31 - 1): the engine's own hash of the values, so that it is computed row by row, in
    parallel; the unit's draws are the same on every run of one engine, not across engines (their
    hash functions differ). -#}
{% macro unit_hash(columns) -%}
{{ return(adapter.dispatch('unit_hash', 'sqlmetrics')(columns)) }}
{%- endmacro %}

{% macro default__unit_hash(columns) -%}
CAST(hash({{ sqlmetrics.col_list(columns) }}) % 2147483647 AS BIGINT)
{%- endmacro %}

{% macro spark__unit_hash(columns) -%}
pmod(xxhash64({{ sqlmetrics.col_list(columns) }}), 2147483647)
{%- endmacro %}

{#- ClickHouse's hash of a NULL argument is NULL; of a tuple holding one, a number. -#}
{% macro clickhouse__unit_hash(columns) -%}
CAST(cityHash64(tuple({{ sqlmetrics.col_list(columns) }})) % 2147483647 AS BIGINT)
{%- endmacro %}

{#- PostgreSQL (and Redshift) hash text: the values joined with a separator no value has. -#}
{% macro postgres__unit_hash(columns) -%}
MOD(MOD(hashtextextended(CONCAT_WS(CHR(31){% for c in columns %}, CAST({{ sqlmetrics.ident(c) }} AS TEXT){% endfor %}), 0), 2147483647) + 2147483647, 2147483647)
{%- endmacro %}

{#- SQLite has no hash function: a unit's rank among the distinct units instead (a sort of the
    units, which a single-machine engine can afford). -#}
{% macro sqlite__unit_hash(columns) -%}
DENSE_RANK() OVER (ORDER BY {% for c in columns %}{{ sqlmetrics.ident(c) }} NULLS LAST{{ ", " if not loop.last }}{% endfor %})
{%- endmacro %}

{% macro bigquery__unit_hash(columns) -%}
ABS(MOD(FARM_FINGERPRINT(TO_JSON_STRING(STRUCT({{ sqlmetrics.col_list(columns) }}))), 2147483647))
{%- endmacro %}

{% macro snowflake__unit_hash(columns) -%}
ABS(MOD(HASH({{ sqlmetrics.col_list(columns) }}), 2147483647))
{%- endmacro %}

{% macro trino__unit_hash(columns) -%}
ABS(MOD(from_big_endian_64(xxhash64(to_utf8(CONCAT_WS(CHR(31){% for c in columns %}, CAST({{ sqlmetrics.ident(c) }} AS VARCHAR){% endfor %})))), 2147483647))
{%- endmacro %}

{#- Redshift's FNV_HASH takes one value and chains: FNV_HASH(b, FNV_HASH(a)); each value as text,
    '' for NULL (a slice may be NULL; FNV_HASH of NULL is not documented). -#}
{% macro redshift__unit_hash(columns) -%}
{%- set text = [] %}
{%- for c in columns %}{% set _ = text.append('NVL(CAST(' ~ sqlmetrics.ident(c) ~ ' AS VARCHAR(MAX)), \'\')') %}{% endfor %}
{%- set chain = namespace(hash='FNV_HASH(' ~ text[0] ~ ')') %}
{%- for t in text[1:] %}{% set chain.hash = 'FNV_HASH(' ~ t ~ ', ' ~ chain.hash ~ ')' %}{% endfor -%}
ABS(MOD({{ chain.hash }}, 2147483647))
{%- endmacro %}

{% macro mysql__unit_hash(columns) -%}
MOD(CRC32(CONCAT_WS(CHAR(31){% for c in columns %}, {{ sqlmetrics.ident(c) }}{% endfor %})), 2147483647)
{%- endmacro %}
