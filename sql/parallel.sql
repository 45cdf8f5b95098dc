{#- The pieces of the parallel plan: a global order of the values of a slice (scores, thresholds,
    probabilities) split into many small ordered buckets, so that no window spans the whole order.
    A window partitioned by (slice, bucket) does the work inside each bucket, spread over the
    workers of a distributed engine; what a bucket needs from the buckets before it comes from a
    window over the small table of one row per bucket. -#}

{#- A bucket of `x` (a DOUBLE) that no larger value can precede: the bucket number never decreases as x
    grows, whatever the distribution, so that a global order splits into independent ordered parts.
    `e` is binary_exponent(x), computed once beforehand. Each power-of-two range [2^e, 2^(e+1)) of
    |x| is cut into 1024 equal parts (the top ten bits of the mantissa): a range holding a share q of
    the values gives parts of about q/1024 each, on uniform, log-normal or bimodal scores alike; 0,
    subnormals and the infinities have buckets of their own, and a negative x mirrors its absolute
    value's bucket below 0. Exactly monotone: e may be off by one next to a power of two (LN rounds),
    but |x| / 2^e, its distance to 1 and the product by 1024 are exact in binary floating point, so an
    e one too small or too large gives the true bucket (|x| / 2^e then just reaches 2, or stays
    below 1). -#}
{% macro monotone_bucket(x, e) -%}
{%- set level %}(({{ e }} + 1025) * 1024 + FLOOR((ABS({{ x }}) / POWER(2, {{ e }}) - 1) * 1024)){% endset -%}
{#- one integer type for every branch (ClickHouse would make a Variant of mixed types, which it
    refuses to group by) -#}
CAST(CASE WHEN {{ x }} = 0 THEN 0
          WHEN NOT (ABS({{ x }}) < {{ sqlmetrics.infinity() }}) THEN CASE WHEN {{ x }} > 0 THEN 2100000 ELSE -2100000 END
          WHEN {{ e }} IS NULL THEN CASE WHEN {{ x }} > 0 THEN 1 ELSE -1 END
          WHEN {{ x }} > 0 THEN {{ level }}
          ELSE -{{ level }} END AS BIGINT)
{%- endmacro %}

{#- FLOOR(log2 |x|) as a DOUBLE for a finite, normal x (|x| >= 2^-1022), at most 1023 (so that
    2^e is finite even where the logarithm rounds up); NULL for 0, subnormals and the infinities,
    whose logarithm some engines refuse. -#}
{% macro binary_exponent(x) -%}
{%- set magnitude %}ABS({{ x }}){% endset -%}
{%- set exponent -%}
CASE WHEN NOT ({{ magnitude }} >= 2.2250738585072014e-308 AND {{ magnitude }} < {{ sqlmetrics.infinity() }}) THEN NULL
     WHEN {{ magnitude }} >= 8.98846567431158e307 THEN 1023
     ELSE FLOOR({{ sqlmetrics.log2(magnitude) }}) END
{%- endset -%}
{{ sqlmetrics.as_double(exponent) }}
{%- endmacro %}

{#- The plan of a metric with one order over all the scores (or rows) of a slice when the caller
    names none: 'parallel' on the distributed engines, where one window over that order would run
    in one task; 'aggregate' on the single-machine engines, where that window is the cheapest. -#}
{% macro default_plan() -%}
{{ return('parallel' if sqlmetrics.distributed() else 'aggregate') }}
{%- endmacro %}

{#- Whether the engine spreads a query over workers: a fact, not SQL (its spellings return a
    boolean). Warehouses are (Spark, Databricks, BigQuery, Snowflake, Redshift, Trino, ClickHouse);
    the engines of one machine say otherwise. -#}
{% macro distributed() -%}
{{ return(adapter.dispatch('distributed', 'sqlmetrics')()) }}
{%- endmacro %}

{% macro default__distributed() -%}
{{ return(true) }}
{%- endmacro %}

{% macro duckdb__distributed() -%}
{{ return(false) }}
{%- endmacro %}

{% macro sqlite__distributed() -%}
{{ return(false) }}
{%- endmacro %}

{% macro postgres__distributed() -%}
{{ return(false) }}
{%- endmacro %}

{#- built on PostgreSQL's adapter, and a cluster -#}
{% macro redshift__distributed() -%}
{{ return(true) }}
{%- endmacro %}

{% macro mysql__distributed() -%}
{{ return(false) }}
{%- endmacro %}

{#- `rows` (a SELECT) with sm_x = `value` as a DOUBLE and sm_bucket, its monotone_bucket. -#}
{% macro with_bucket(rows, value) %}
SELECT sm_exponents.*, {{ sqlmetrics.monotone_bucket('sm_x', 'sm_e') }} AS sm_bucket
FROM (
  SELECT sm_valued.*, {{ sqlmetrics.as_double(value) }} AS sm_x,
         {{ sqlmetrics.binary_exponent(sqlmetrics.as_double(value)) }} AS sm_e
  FROM ({{ rows }}) AS sm_valued
) AS sm_exponents
{% endmacro %}

{#- `rows` (a SELECT) with sm_part, a hash of its `columns` in 0 .. 1023: a key of many values for
    rows that have no bucket of their own (spread_slices), which a distributed engine's hash
    partitioning spreads over its workers; rows equal in `columns` share it. -#}
{% macro with_part(rows, columns) %}
SELECT sm_parted.*, MOD({{ sqlmetrics.unit_hash(columns) }}, 1024) AS sm_part
FROM ({{ rows }}) AS sm_parted
{% endmacro %}

{#- A SELECT of one row per (slice, `key`) of `rows` (a FROM item with the slice columns `by` and
    `key`: sm_bucket, sm_part) holding the columns of `per_slice` (a FROM item of one row per slice):
    the per-slice values to join back to those rows by (slice, key). A distributed engine hashes that
    join by (slice, key) and spreads a slice's rows over its workers; on the slice alone it sent all
    the rows of a slice to one task. This table is small (a slice's keys), and so is its own join on
    the slice alone. `per_slice` on the left: ClickHouse renames the right side's columns that the
    left has too (the slice's). -#}
{% macro spread_slices(per_slice, rows, by, key) %}
SELECT sm_slices.*, sm_keys.{{ key }} AS {{ key }}
FROM {{ per_slice }} AS sm_slices
JOIN (SELECT DISTINCT {{ sqlmetrics.cols(by) }} {{ key }} FROM {{ rows }} AS sm_keyed) AS sm_keys
  ON {{ sqlmetrics.null_safe_join_on(by, 'sm_slices', 'sm_keys') }}
{% endmacro %}

{#- With `key` (spread_key's), a CTE definition, after a comma: `per_slice`_spread, spread_slices'
    table of `per_slice` (a CTE) over the keys of `rows`, which join_slices(..., key) joins as
    `per_slice`. Without, nothing. -#}
{% macro spread_cte(per_slice, rows, by, key) %}
{%- if key %},
{{ per_slice }}_spread AS (
  {{ sqlmetrics.spread_slices(per_slice, rows, by, key) }}
)
{%- endif %}
{%- endmacro %}

{#- The key by which the parallel plan joins per-slice values back to a slice's rows (`key`: the
    rows' column, sm_bucket or sm_part); none without slices or on another plan, where a slice's
    values join on the slice. -#}
{% macro spread_key(by, plan, key='sm_bucket') -%}
{{ return(key if by and plan == 'parallel' else none) }}
{%- endmacro %}

{#- CTE definitions (to follow a WITH) ending in `name`: the rows of `rows` (a CTE of one row per
    slice `keys` and distinct `order` value) with, for each column c of `columns`, c_run = the sum of
    c over the rows up to this one in the order (`descending` or not) and c_all = its sum over the
    slice. `name` has the columns keys, `order`, then c, c_run, c_all for each c.
    plan='aggregate': one window per slice. plan='parallel': the running sums within each
    monotone_bucket of `order`, plus the sums of the buckets before, which a window over the table
    of one row per bucket gives; that offset enters each bucket's window as a first row (sm_kind 1)
    and leaves with it. `name` then has sm_bucket too, a key of many values to join on. Distinct
    output names: ClickHouse resolves a bare name to an alias of the same SELECT. -#}
{% macro running_sums(name, rows, keys, order, descending, carried, columns, plan) %}
{%- set direction = 'DESC' if descending else 'ASC' %}
{%- set in_bucket = keys + ['sm_bucket'] %}
{%- if plan == 'parallel' %}
{{ name }}_bucketed AS (
  {{ sqlmetrics.with_bucket('SELECT * FROM ' ~ rows, order) }}
),
{{ name }}_offsets AS (
  SELECT {{ sqlmetrics.cols(in_bucket) }}
         {%- for c in columns %}
         SUM(sm_bucket_{{ c }}) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_bucket {{ direction }}
                                     ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS sm_before_{{ c }},
         SUM(sm_bucket_{{ c }}) OVER ({{ sqlmetrics.partition_by(keys) }}) AS sm_total_{{ c }}{{ "," if not loop.last }}
         {%- endfor %}
  FROM (
    SELECT {{ sqlmetrics.cols(in_bucket) }}
           {%- for c in columns %}
           SUM({{ c }}) AS sm_bucket_{{ c }}{{ "," if not loop.last }}
           {%- endfor %}
    FROM {{ name }}_bucketed
    {{ sqlmetrics.group_by(in_bucket) }}
  ) AS sm_per_bucket
),
{{ name }} AS (
  SELECT {{ sqlmetrics.cols(in_bucket) }} {{ order }}
         {%- for c in carried %}, {{ c }}{% endfor %}
         {%- for c in columns %}, {{ c }}, {{ c }}_run, {{ c }}_all{% endfor %}
  FROM (
    SELECT {{ sqlmetrics.cols(in_bucket) }} sm_kind, {{ order }}
           {%- for c in carried %}, {{ c }}{% endfor %}
           {%- for c in columns %},
           {{ c }},
           SUM(sm_add_{{ c }}) OVER ({{ sqlmetrics.partition_by(in_bucket) }}
                                  ORDER BY sm_kind DESC, {{ order }} {{ direction }}
                                  ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS {{ c }}_run,
           MAX(sm_slice_{{ c }}) OVER ({{ sqlmetrics.partition_by(in_bucket) }}) AS {{ c }}_all
           {%- endfor %}
    FROM (
      SELECT {{ sqlmetrics.cols(in_bucket) }} 0 AS sm_kind, {{ order }}
             {%- for c in carried %}, {{ c }}{% endfor %}
             {%- for c in columns %}, {{ c }}, {{ c }} AS sm_add_{{ c }}, NULL AS sm_slice_{{ c }}{% endfor %}
      FROM {{ name }}_bucketed
      UNION ALL
      SELECT {{ sqlmetrics.cols(in_bucket) }} 1 AS sm_kind, NULL AS {{ order }}
             {%- for c in carried %}, NULL AS {{ c }}{% endfor %}
             {%- for c in columns %}, NULL AS {{ c }}, sm_before_{{ c }} AS sm_add_{{ c }}, sm_total_{{ c }} AS sm_slice_{{ c }}{% endfor %}
      FROM {{ name }}_offsets
    ) AS sm_with_offsets
  ) AS sm_running
  WHERE sm_kind = 0
)
{%- else %}
{{ name }} AS (
  SELECT {{ sqlmetrics.cols(keys) }} {{ order }}
         {%- for c in carried %}, {{ c }}{% endfor %}
         {%- for c in columns %},
         {{ c }},
         SUM({{ c }}) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY {{ order }} {{ direction }}
                            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS {{ c }}_run,
         SUM({{ c }}) OVER ({{ sqlmetrics.partition_by(keys) }}) AS {{ c }}_all
         {%- endfor %}
  FROM {{ rows }}
)
{%- endif %}
{% endmacro %}
