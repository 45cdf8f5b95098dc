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
{#- the times of the events that weigh: before tau -#}
{%- set weighing %}
SELECT {{ sqlmetrics.cols(km_keys) }} sm_t FROM sm_cells
WHERE sm_cells.sm_e = 1{% if tau_bound %} AND sm_cells.sm_t < {{ tau_bound }}{% endif %}
{%- endset %}
WITH {{ sqlmetrics.concordance_cells(relation, duration, event, score, higher, by) }}, {{ sqlmetrics.censoring_steps(relation, train, duration, event, by, plan) }}, {{ sqlmetrics.kaplan_meier_as_of('sm_censored_by', 'sm_censoring', weighing, km_keys, plan) }}, sm_weights AS (
  {#- 1 / G(t)^2; NULL where G is 0, or past the last training time -#}
  SELECT {{ sqlmetrics.cols(km_keys) }} sm_t,
         CASE WHEN sm_zero = 0 AND sm_past = 0 THEN EXP(-2 * sm_log) END AS sm_ipcw
  FROM sm_censored_by
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
{{ sqlmetrics.join_slices('sm_pairs', 'sm_unweighable', by) }}
{% endmacro %}
