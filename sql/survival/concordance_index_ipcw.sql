{#- Uno's concordance index (Uno et al. 2011), as scikit-survival's concordance_index_ipcw: Harrell's
    comparable pairs (concordance_pairs), each weighted by 1 / G(T_i)^2 of its earlier event i, where
    G is the Kaplan-Meier estimate of the censoring distribution (censoring read as the event, an
    event at a time still at risk of censoring there), and only events before `tau` weigh (others 0).
    Its limit does not depend on the censoring, as Harrell's does.

    G is estimated from `train` (the training data's duration and event, as scikit-survival's
    survival_train; one estimate over all of it, whatever the slice) or, without it, from the data
    itself (per slice). G(T_i) is its value at the last training time at or before T_i (1 before the
    first). Undefined (NULL) when there is no comparable pair, when G(T_i) = 0 for an event before
    tau, or when such an event is later than every training time (scikit-survival refuses both).

    concordant, discordant, tied_risk and comparable count the pairs unweighted, as scikit-survival's. -#}
{% macro concordance_index_ipcw(relation, duration, event, score, tau=none, train=none, higher='risk', by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{#- the slices of the censoring estimate: the data's, or none for a training table's -#}
{%- set km_keys = [] if train is not none else by %}
{%- set tau_bound = sqlmetrics.as_double(tau) if tau is not none else none %}
WITH {{ sqlmetrics.concordance_cells(relation, duration, event, score, higher, by) }}, sm_train_times AS (
  {#- the reverse Kaplan-Meier's counts at each training time: rows there, and their events -#}
  SELECT {{ sqlmetrics.cols(km_keys) }} sm_t, COUNT(*) AS sm_n, SUM(sm_e) AS sm_died
  FROM (
    SELECT {{ sqlmetrics.cols(km_keys) }}
           {{ sqlmetrics.as_double(sqlmetrics.ident(duration)) }} AS sm_t,
           {{ sqlmetrics.is_positive(event) }} AS sm_e
    FROM {{ train if train is not none else relation }}
  ) AS sm_train_rows
  {{ sqlmetrics.group_by(km_keys + ['sm_t']) }}
), {{ sqlmetrics.running_sums('sm_train_order', 'sm_train_times', km_keys, 'sm_t', false, ['sm_died'], ['sm_n'], plan) }}, sm_censoring AS (
  {#- a censored row at t leaves the rows at or after t, less t's events (which are still at risk of
      censoring there): log(1 - censored / at risk), and whether that factor is 0 -#}
  SELECT {{ sqlmetrics.cols(km_keys) }} sm_t,
         CASE WHEN sm_censored = 0 OR sm_censored = sm_at_risk THEN 0
              ELSE {{ sqlmetrics.log1p('-' ~ sqlmetrics.fdiv('sm_censored', 'sm_at_risk')) }} END AS sm_log,
         CASE WHEN sm_censored > 0 AND sm_censored = sm_at_risk THEN 1 ELSE 0 END AS sm_zero,
         1 AS sm_trained
  FROM (
    SELECT {{ sqlmetrics.cols(km_keys) }} sm_t, sm_n - sm_died AS sm_censored,
           sm_n_all - (sm_n_run - sm_n) - sm_died AS sm_at_risk
    FROM sm_train_order
  ) AS sm_counted
), sm_event_times AS (
  {#- G as of every training time and every weighing event's time: the running sums of the logarithms
      (and zeros) up to it, training times first -#}
  SELECT {{ sqlmetrics.cols(km_keys) }} sm_t, SUM(sm_log) AS sm_log, SUM(sm_zero) AS sm_zero,
         SUM(sm_trained) AS sm_trained
  FROM (
    SELECT {{ sqlmetrics.cols(km_keys) }} sm_t, sm_log, sm_zero, sm_trained FROM sm_censoring
    UNION ALL
    SELECT DISTINCT {{ sqlmetrics.cols(km_keys) }} sm_t, 0 AS sm_log, 0 AS sm_zero, 0 AS sm_trained
    FROM sm_cells
    {#- the events that weigh: before tau #}
    WHERE sm_cells.sm_e = 1{% if tau_bound %} AND sm_cells.sm_t < {{ tau_bound }}{% endif %}
  ) AS sm_times_of_both
  {{ sqlmetrics.group_by(km_keys + ['sm_t']) }}
), {{ sqlmetrics.running_sums('sm_as_of', 'sm_event_times', km_keys, 'sm_t', false, [], ['sm_log', 'sm_zero', 'sm_trained'], plan) }}, sm_weights AS (
  {#- 1 / G(t)^2; NULL where G is 0, or past the last training time with no training row at t -#}
  SELECT {{ sqlmetrics.cols(km_keys) }} sm_t,
         CASE WHEN sm_zero_run > 0 OR (sm_trained = 0 AND sm_trained_run = sm_trained_all) THEN NULL
              ELSE EXP(-2 * sm_log_run) END AS sm_ipcw
  FROM sm_as_of
), sm_weighted_cells AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_c') }} sm_c.sm_t AS sm_t, sm_c.sm_e AS sm_e,
         sm_c.sm_risk AS sm_risk, sm_c.sm_n AS sm_n,
         CASE WHEN sm_c.sm_e = 1{% if tau_bound %} AND sm_c.sm_t < {{ tau_bound }}{% endif %} THEN sm_weights.sm_ipcw ELSE 0 END AS sm_w
  FROM sm_cells AS sm_c
  LEFT JOIN sm_weights
    ON {% if km_keys %}{{ sqlmetrics.null_safe_join_on(km_keys, 'sm_c', 'sm_weights') }} AND {% endif %}sm_c.sm_t = sm_weights.sm_t
), sm_unweighable AS (
  SELECT {{ sqlmetrics.cols(by) }} SUM(CASE WHEN sm_w IS NULL THEN 1 ELSE 0 END) AS sm_missing
  FROM sm_weighted_cells
  {{ sqlmetrics.group_by(by) }}
), {{ sqlmetrics.concordance_pairs('sm_weighted_cells', by, plan, weighted=true) }}
SELECT {{ sqlmetrics.qualified_cols(by, 'sm_pairs') }}
       CASE WHEN sm_unweighable.sm_missing = 0
            THEN {{ sqlmetrics.fdiv('sm_pairs.sm_numerator', 'sm_pairs.sm_denominator') }} END AS concordance_index_ipcw,
       sm_pairs.concordant AS concordant,
       sm_pairs.comparable - sm_pairs.concordant - sm_pairs.tied_risk AS discordant,
       sm_pairs.tied_risk AS tied_risk, sm_pairs.comparable AS comparable
FROM sm_pairs
{% if by -%}
JOIN sm_unweighable ON {{ sqlmetrics.null_safe_join_on(by, 'sm_pairs', 'sm_unweighable') }}
{%- else -%}
CROSS JOIN sm_unweighable
{%- endif %}
{% endmacro %}
