{#- The Kaplan-Meier estimate (Kaplan and Meier 1958) as scikit-survival's kaplan_meier_estimator, of
    the survival (reverse=false) or of the censoring distribution (reverse=true: censoring read as the
    event; a row whose event is at t is still at risk of censoring there, as
    CensoringDistributionEstimator has it), in logarithms, so that its product over times is a
    running sum: exact orders, on every engine, and a parallel plan (running_sums). -#}

{#- CTE definitions ending in `name`: per (`keys`, sm_t) of `rows` (a CTE with keys, sm_t, sm_e), the
    step at sm_t: sm_log = ln(1 - d/r) (0 where d = 0), sm_zero = 1 where d = r (the estimate drops
    to 0 there), for d the rows ending at t (events, or censored ones reversed) and r those at risk. -#}
{% macro kaplan_meier_steps(name, rows, keys, reverse, plan) %}
{{ name }}_counts AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_t, COUNT(*) AS sm_n, SUM(sm_e) AS sm_died
  FROM {{ rows }}
  {{ sqlmetrics.group_by(keys + ['sm_t']) }}
), {{ sqlmetrics.running_sums(name ~ '_order', name ~ '_counts', keys, 'sm_t', false, ['sm_died'], ['sm_n'], plan) }}, {{ name }} AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_t,
         CASE WHEN sm_ended = 0 OR sm_ended = sm_at_risk THEN 0
              ELSE {{ sqlmetrics.log1p('-' ~ sqlmetrics.fdiv('sm_ended', 'sm_at_risk')) }} END AS sm_log,
         CASE WHEN sm_ended > 0 AND sm_ended = sm_at_risk THEN 1 ELSE 0 END AS sm_zero
  FROM (
    SELECT {{ sqlmetrics.cols(keys) }} sm_t,
           {% if reverse %}sm_n - sm_died{% else %}sm_died{% endif %} AS sm_ended,
           {#- the rows at or after t; reversed, less t's events #}
           sm_n_all - (sm_n_run - sm_n){% if reverse %} - sm_died{% endif %} AS sm_at_risk
    FROM {{ name }}_order
  ) AS sm_counted
)
{%- endmacro %}

{#- CTE definitions ending in `name`: the estimate of `steps` (kaplan_meier_steps') as of each time of
    `points` (a SELECT of keys, sm_t), its value at the last step at or before it (1 before the
    first): sm_log (its logarithm), sm_zero (> 0 where it is 0) and sm_past (1 where the time is
    later than every step, where scikit-survival's estimate is undefined unless it reached 0). -#}
{% macro kaplan_meier_as_of(name, steps, points, keys, plan) %}
{{ name }}_times AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_t, SUM(sm_log) AS sm_log, SUM(sm_zero) AS sm_zero, SUM(sm_step) AS sm_step
  FROM (
    SELECT {{ sqlmetrics.cols(keys) }} sm_t, sm_log, sm_zero, 1 AS sm_step FROM {{ steps }}
    UNION ALL
    SELECT {{ sqlmetrics.cols(keys) }} sm_t, 0 AS sm_log, 0 AS sm_zero, 0 AS sm_step
    FROM ({{ points }}) AS sm_points
  ) AS sm_steps_and_points
  {{ sqlmetrics.group_by(keys + ['sm_t']) }}
), {{ sqlmetrics.running_sums(name ~ '_running', name ~ '_times', keys, 'sm_t', false, [], ['sm_log', 'sm_zero', 'sm_step'], plan) }}, {{ name }} AS (
  SELECT {{ sqlmetrics.cols(keys) }} sm_t, sm_log_run AS sm_log, sm_zero_run AS sm_zero,
         CASE WHEN sm_step = 0 AND sm_step_run = sm_step_all THEN 1 ELSE 0 END AS sm_past
  FROM {{ name }}_running
)
{%- endmacro %}

{#- CTE definitions ending in sm_censoring: kaplan_meier_steps of the censoring distribution, of `train`
    (one estimate over all of it, as scikit-survival's survival_train) or else of `relation`, per
    slice `by`. -#}
{% macro censoring_steps(relation, train, duration, event, by, plan) %}
{%- set keys = [] if train is not none else by %}
sm_train_rows AS (
  {{ sqlmetrics.survival_rows(train if train is not none else relation, duration, event, keys) }}
), {{ sqlmetrics.kaplan_meier_steps('sm_censoring', 'sm_train_rows', keys, true, plan) }}
{%- endmacro %}
