{#- CTE definitions (to follow a WITH) ending in `name`: one row per slice `by` of `rows` (a SELECT
    with the slice columns, sm_v the value, sm_w its weight) with sm_median, the weighted median of
    sm_v as sklearn computes it (sklearn.utils.stats._weighted_percentile(v, w, 50, average=True),
    Hyndman & Fan's averaged inverted CDF; with unit weights numpy.median), and sm_n, the rows.
    Rows of weight 0 never count. Over the distinct values v of positive weight, in increasing
    order, with W_v their running weight and W the total: the median is the first v with
    W_v >= W/2, averaged with the next value when W_v - W/2 <= 2.220446049250313e-16 (the float64
    epsilon: sklearn's absolute test that W/2 falls on v's end, not inside it). It is NULL when the
    slice has no weight. Integer weights sum exactly; other weights may round differently from
    sklearn's cumulative sum, which could only matter where W/2 falls within rounding of a value's end.
    Of the values at or past W/2, that first one has the smallest candidate (its average with the
    next value is at most the next value), so a slice's median is the MIN of the candidates.
    plan='aggregate': one window over the slice's distinct values.
    plan='parallel': no window over all the values of a slice. Values are split by monotone_bucket;
    a window over the small table of one row per bucket finds the bucket where the running weight
    reaches W/2 (the weight of the buckets before it, and the first value of the next bucket), and
    only that bucket's values are ordered. -#}
{% macro weighted_median(name, rows, by, plan) %}
{%- set keys = sqlmetrics.cols(by) %}
{%- set in_bucket = by + ['sm_bucket'] %}
{%- set to_here %}ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW{% endset %}
{#- the next row's value, NULL after the last: a CASE without ELSE makes the type nullable, for
    ClickHouse, which otherwise gives 0 past the end of a frame #}
{%- set next_value %}ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING{% endset %}
{{ name }}_values AS (
  SELECT {{ keys }} sm_v, SUM(sm_w) AS sm_w_v, COUNT(*) AS sm_n_v
  FROM ({{ rows }}) AS sm_median_rows
  GROUP BY {{ keys }}sm_v
),
{%- if plan == 'parallel' %}
{{ name }}_bucketed AS (
  {{ sqlmetrics.with_bucket('SELECT * FROM ' ~ name ~ '_values WHERE sm_w_v > 0', 'sm_v') }}
),
{{ name }}_bucket AS (
  SELECT {{ keys }} sm_bucket, sm_before, sm_total, sm_next_first
  FROM (
    SELECT {{ keys }} sm_bucket, sm_through, sm_total,
           {#- the previous bucket's own running weight (the same float): exactly one bucket is picked
               (ClickHouse's LAG gives 0 before the first row, not NULL: the same here) #}
           COALESCE(LAG(sm_through) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_bucket), 0) AS sm_before,
           MIN(CASE WHEN sm_w_b > 0 THEN sm_first END) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_bucket
                                                            {{ next_value }}) AS sm_next_first
    FROM (
      SELECT {{ keys }} sm_bucket, sm_w_b, sm_first,
             SUM(sm_w_b) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_bucket {{ to_here }}) AS sm_through,
             SUM(sm_w_b) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_total
      FROM (
        SELECT {{ keys }} sm_bucket, SUM(sm_w_v) AS sm_w_b, MIN(sm_v) AS sm_first
        FROM {{ name }}_bucketed
        {{ sqlmetrics.group_by(in_bucket) }}
      ) AS sm_per_bucket
    ) AS sm_running
  ) AS sm_buckets
  WHERE sm_through >= 0.5 * sm_total AND sm_before < 0.5 * sm_total
),
{{ name }}_candidates AS (
  {#- the bucket's last value stays a candidate: its running weight may round below W/2 when the
      bucket's does not #}
  SELECT {{ keys }}
         CASE WHEN sm_run >= 0.5 * sm_total OR sm_next IS NULL
              THEN {{ sqlmetrics.median_candidate('sm_v', 'COALESCE(sm_next, sm_next_first)', 'sm_run', 'sm_total') }}
         END AS sm_candidate
  FROM (
    SELECT {{ keys }} sm_v, sm_total, sm_next_first,
           sm_before + SUM(sm_w_v) OVER ({{ sqlmetrics.partition_by(in_bucket) }} ORDER BY sm_v {{ to_here }}) AS sm_run,
           MIN(CASE WHEN sm_w_v > 0 THEN sm_v END) OVER ({{ sqlmetrics.partition_by(in_bucket) }} ORDER BY sm_v
                                                         {{ next_value }}) AS sm_next
    FROM (
      SELECT {{ sqlmetrics.qualified_cols(by, 'sm_in') }} sm_in.sm_bucket AS sm_bucket, sm_in.sm_v AS sm_v,
             sm_in.sm_w_v AS sm_w_v, sm_at.sm_before AS sm_before, sm_at.sm_total AS sm_total,
             sm_at.sm_next_first AS sm_next_first
      FROM {{ name }}_bucketed AS sm_in
      JOIN {{ name }}_bucket AS sm_at
        ON sm_in.sm_bucket = sm_at.sm_bucket{% if by %} AND {{ sqlmetrics.null_safe_join_on(by, 'sm_in', 'sm_at') }}{% endif %}
    ) AS sm_median_bucket
  ) AS sm_running_in_bucket
),
{%- else %}
{{ name }}_candidates AS (
  SELECT {{ keys }}
         CASE WHEN sm_run >= 0.5 * sm_total
              THEN {{ sqlmetrics.median_candidate('sm_v', 'sm_next', 'sm_run', 'sm_total') }} END AS sm_candidate
  FROM (
    SELECT {{ keys }} sm_v,
           SUM(sm_w_v) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_v {{ to_here }}) AS sm_run,
           SUM(sm_w_v) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_total,
           MIN(CASE WHEN sm_w_v > 0 THEN sm_v END) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_v
                                                         {{ next_value }}) AS sm_next
    FROM {{ name }}_values
    WHERE sm_w_v > 0
  ) AS sm_running
),
{%- endif %}
{{ name }} AS (
  SELECT {{ keys }} MIN(sm_candidate) AS sm_median, SUM(sm_n_c) AS sm_n
  FROM (
    {#- BIGINT on both sides: ClickHouse makes a Variant of a union of different integer types #}
    SELECT {{ keys }} {{ sqlmetrics.as_double('NULL') }} AS sm_candidate, CAST(sm_n_v AS BIGINT) AS sm_n_c
    FROM {{ name }}_values
    UNION ALL
    SELECT {{ keys }} sm_candidate, CAST(0 AS BIGINT) AS sm_n_c FROM {{ name }}_candidates
  ) AS sm_slice_parts
  {{ sqlmetrics.group_by(by) }}
)
{% endmacro %}

{#- The median's value if it is `value`, the first distinct value whose running weight `run` reaches
    half the `total`: `value`, or its average with `next` (the next value of positive weight; none:
    `value` itself) when the half falls on its end, as sklearn's _weighted_percentile(average=True). -#}
{% macro median_candidate(value, next, run, total) -%}
CASE WHEN {{ run }} - 0.5 * {{ total }} > 2.220446049250313e-16 THEN {{ value }}
     ELSE ({{ value }} + COALESCE({{ next }}, {{ value }})) / 2 END
{%- endmacro %}
