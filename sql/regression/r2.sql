{#- R^2 = 1 - sum w*(y - p)^2 / sum w*(y - mean_w(y))^2, the total sum of squares taken about the
    weighted mean (two passes: no cancellation). As sklearn (force_finite): a constant target gives
    1.0 when predicted exactly, else 0.0; fewer than two rows give NULL. Reference: sklearn r2_score.
    plan='aggregate': the mean of the slice from a window over its rows.
    plan='parallel': no window over all the rows of a slice. One row per distinct target (a tie
    group is one row), each monotone_bucket's own mean from a window over the bucket, its sum of
    squares about that mean, and the buckets combined about the slice's mean (Chan, Golub & LeVeque
    1979: M2 = sum_b M2_b + W_b * (mean_b - mean)^2). Inside a bucket the targets are within 0.1% of
    each other, so the two-pass sums stay exact to rounding. -#}
{% macro r2(relation, target, prediction, weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set in_bucket = by + ['sm_bucket'] %}
{%- set rows = sqlmetrics.regression_rows(relation, target, prediction, weight, by) %}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN n < 2 OR sm_weight = 0 THEN NULL
            WHEN sm_constant = 1 THEN CASE WHEN sm_residual = 0 THEN 1.0 ELSE 0.0 END
            ELSE 1 - sm_residual / sm_total END AS r2,
       n
FROM (
{%- if plan == 'parallel' %}
  {#- names differ from level to level: ClickHouse resolves a bare name to an alias of the same SELECT #}
  SELECT {{ sqlmetrics.cols(by) }}
         SUM(sm_res_b) AS sm_residual,
         SUM(sm_m2_b + CASE WHEN sm_w_b > 0 THEN sm_w_b * (sm_centre_b - sm_mean) * (sm_centre_b - sm_mean) ELSE 0 END) AS sm_total,
         SUM(sm_w_b) AS sm_weight,
         CASE WHEN MIN(sm_low_b) = MAX(sm_high_b) THEN 1 ELSE 0 END AS sm_constant,
         SUM(sm_n_b) AS n
  FROM (
    SELECT sm_buckets.*,
           SUM(sm_s_b) OVER ({{ sqlmetrics.partition_by(by) }})
             / NULLIF(SUM(sm_w_b) OVER ({{ sqlmetrics.partition_by(by) }}), 0) AS sm_mean
    FROM (
      SELECT {{ sqlmetrics.cols(in_bucket) }}
             SUM(sm_res_t) AS sm_res_b,
             SUM(sm_w_t * (sm_t - sm_mean_b) * (sm_t - sm_mean_b)) AS sm_m2_b,
             SUM(sm_w_t) AS sm_w_b,
             SUM(sm_w_t * sm_t) AS sm_s_b,
             MAX(sm_mean_b) AS sm_centre_b,
             MIN(CASE WHEN sm_w_t > 0 THEN sm_t END) AS sm_low_b,
             MAX(CASE WHEN sm_w_t > 0 THEN sm_t END) AS sm_high_b,
             SUM(sm_n_t) AS sm_n_b
      FROM (
        SELECT sm_bucketed.*,
               SUM(sm_w_t * sm_t) OVER ({{ sqlmetrics.partition_by(in_bucket) }})
                 / NULLIF(SUM(sm_w_t) OVER ({{ sqlmetrics.partition_by(in_bucket) }}), 0) AS sm_mean_b
        FROM (
          {%- set targets %}
          SELECT {{ sqlmetrics.cols(by) }} sm_t,
                 SUM(sm_w * (sm_t - sm_p) * (sm_t - sm_p)) AS sm_res_t,
                 SUM(sm_w) AS sm_w_t,
                 COUNT(*) AS sm_n_t
          FROM ({{ rows }}) AS sm_rows
          GROUP BY {{ sqlmetrics.cols(by) }}sm_t
          {%- endset %}
          {{ sqlmetrics.with_bucket(targets, 'sm_t') }}
        ) AS sm_bucketed
      ) AS sm_centered
      {{ sqlmetrics.group_by(in_bucket) }}
    ) AS sm_buckets
  ) AS sm_combined
  {{ sqlmetrics.group_by(by) }}
{%- else %}
  SELECT {{ sqlmetrics.cols(by) }}
         SUM(sm_w * (sm_t - sm_p) * (sm_t - sm_p)) AS sm_residual,
         SUM(sm_w * (sm_t - sm_mean) * (sm_t - sm_mean)) AS sm_total,
         SUM(sm_w) AS sm_weight,
         {#- a constant target, tested exactly: its computed variance may be a rounding residue #}
         CASE WHEN MIN(CASE WHEN sm_w > 0 THEN sm_t END) = MAX(CASE WHEN sm_w > 0 THEN sm_t END)
              THEN 1 ELSE 0 END AS sm_constant,
         COUNT(*) AS n
  FROM (
    SELECT sm_rows.*,
           SUM(sm_w * sm_t) OVER ({{ sqlmetrics.partition_by(by) }})
             / NULLIF(SUM(sm_w) OVER ({{ sqlmetrics.partition_by(by) }}), 0) AS sm_mean
    FROM ({{ rows }}) AS sm_rows
  ) AS sm_centered
  {{ sqlmetrics.group_by(by) }}
{%- endif %}
) AS sm_sums
{% endmacro %}
