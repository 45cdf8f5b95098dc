{#- The cumulative/dynamic AUC at given times (Uno et al. 2007, Hung and Chiang 2010), as
    scikit-survival's cumulative_dynamic_auc: at time t, a case is a row whose event came at or before
    t, weighing 1 / G(T_i) (G the Kaplan-Meier estimate of the censoring distribution, of `train` or
    of each slice of the data, as concordance_index_ipcw's), and a control a row still event-free
    after t, weighing 1; the AUC is the weighted Mann-Whitney share of case-control pairs that the
    risk orders (a tie counts 1/2), auc_parts' rank sums. A row censored at or before t is neither.

    mean_auc: the AUCs averaged over the Kaplan-Meier estimate S of the data's survival (per slice):
    sum_k AUC(t_k) (S(t_(k-1)) - S(t_k)) / (1 - S(t_K)), S(t_0) = 1; one time: its AUC.

    Undefined (NULL) at a time with no case or no control (scikit-survival asks for times within the
    follow-up: at or after the first time, before the last), or with a case whose G is 0 or later
    than every training time; mean_auc where any AUC is. -#}
{% macro cumulative_dynamic_auc(relation, duration, event, score, times, train=none, higher='risk', by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set km_keys = [] if train is not none else by %}
{%- set at = by + ['sm_time'] %}
WITH sm_rows AS (
  {{ sqlmetrics.survival_rows(relation, duration, event, by, score, higher) }}
), sm_times AS (
  {%- for t in times | sort %}
  SELECT {{ loop.index }} AS sm_k, {{ sqlmetrics.as_double(t) }} AS sm_time{% if not loop.last %} UNION ALL{% endif %}
  {%- endfor %}
), {{ sqlmetrics.censoring_steps(relation, train, duration, event, by, plan) }},
{%- set events %}SELECT {{ sqlmetrics.cols(km_keys) }} sm_t FROM sm_rows WHERE sm_e = 1{% endset %}
{{ sqlmetrics.kaplan_meier_as_of('sm_censored_by', 'sm_censoring', events, km_keys, plan) }}, sm_at_times AS (
  {#- each row at each time: a case (sm_case 1) weighing 1 / G(T), NULL where G is 0 or unknown, or a control -#}
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_r') }} sm_times.sm_time AS sm_time, sm_r.sm_risk AS sm_risk,
         CASE WHEN sm_r.sm_t > sm_times.sm_time THEN 0 ELSE 1 END AS sm_case,
         CASE WHEN sm_r.sm_t > sm_times.sm_time THEN 1
              WHEN sm_g.sm_zero = 0 AND sm_g.sm_past = 0 THEN EXP(-sm_g.sm_log) END AS sm_w
  FROM sm_rows AS sm_r
  CROSS JOIN sm_times
  LEFT JOIN sm_censored_by AS sm_g
    ON {% if km_keys %}{{ sqlmetrics.null_safe_join_on(km_keys, 'sm_r', 'sm_g') }} AND {% endif %}sm_r.sm_t = sm_g.sm_t
  WHERE sm_r.sm_t > sm_times.sm_time OR sm_r.sm_e = 1
), sm_unweighable AS (
  SELECT {{ sqlmetrics.cols(at) }} SUM(CASE WHEN sm_w IS NULL THEN 1 ELSE 0 END) AS sm_missing
  FROM sm_at_times
  {{ sqlmetrics.group_by(at) }}
), sm_aucs AS (
  {#- a case without a weight counts 0 here; sm_unweighable makes its time's AUC NULL #}
  {{ sqlmetrics.auc_parts('(SELECT ' ~ sqlmetrics.cols(at) ~ ' sm_case, sm_risk, COALESCE(sm_w, 0) AS sm_w FROM sm_at_times) AS sm_weighed',
                          'sm_case', 'sm_risk', 'sm_w', at, 'parallel' if plan == 'parallel' else 'aggregate') }}
), sm_grid AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_slices') }} sm_times.sm_k AS sm_k, sm_times.sm_time AS sm_time,
         sm_times.sm_time AS sm_t
  FROM (SELECT DISTINCT {{ sqlmetrics.cols(by) }} 1 AS sm_one FROM sm_rows) AS sm_slices
  CROSS JOIN sm_times
), {{ sqlmetrics.kaplan_meier_steps('sm_survival', 'sm_rows', by, false, plan) }},
{%- set grid_times %}SELECT {{ sqlmetrics.cols(by) }} sm_t FROM sm_grid{% endset %}
{{ sqlmetrics.kaplan_meier_as_of('sm_survival_at', 'sm_survival', grid_times, by, plan) }}, sm_per_time AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_grid') }} sm_grid.sm_k AS sm_k, sm_grid.sm_time AS sm_time,
         CASE WHEN sm_unweighable.sm_missing = 0
              THEN {{ sqlmetrics.fdiv('sm_aucs.sm_wins', 'sm_aucs.sm_w_pos') }} END AS sm_auc,
         CASE WHEN sm_s.sm_zero > 0 THEN 0 ELSE EXP(sm_s.sm_log) END AS sm_surviving
  FROM sm_grid
  JOIN sm_survival_at AS sm_s
    ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_grid', 'sm_s') }} AND {% endif %}sm_grid.sm_t = sm_s.sm_t
  LEFT JOIN sm_aucs
    ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_grid', 'sm_aucs') }} AND {% endif %}sm_grid.sm_time = sm_aucs.sm_time
  LEFT JOIN sm_unweighable
    ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_grid', 'sm_unweighable') }} AND {% endif %}sm_grid.sm_time = sm_unweighable.sm_time
), sm_drops AS (
  {#- the survival lost since the time before (S(t_0) = 1): one row per slice and time, a small window -#}
  SELECT {{ sqlmetrics.cols(by) }} sm_k, sm_time, sm_auc,
         COALESCE(LAG(sm_surviving) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_k), 1) - sm_surviving AS sm_drop,
         MAX(sm_k) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_last_k,
         MIN(sm_surviving) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_last_surviving
  FROM sm_per_time
), sm_means AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CASE WHEN SUM(CASE WHEN sm_auc IS NULL THEN 1 ELSE 0 END) > 0 THEN NULL
              WHEN MAX(sm_last_k) = 1 THEN MAX(sm_auc)
              ELSE {{ sqlmetrics.fdiv('SUM(sm_auc * sm_drop)', '1 - MAX(sm_last_surviving)') }} END AS sm_mean
  FROM sm_drops
  {{ sqlmetrics.group_by(by) }}
)
SELECT {{ sqlmetrics.qualified_cols(by, 'sm_drops') }} sm_drops.sm_time AS time,
       sm_drops.sm_auc AS cumulative_dynamic_auc, sm_means.sm_mean AS mean_auc
FROM sm_drops
{{ sqlmetrics.join_slices('sm_drops', 'sm_means', by) }}
ORDER BY {{ sqlmetrics.cols(by) }} sm_drops.sm_time
{% endmacro %}
