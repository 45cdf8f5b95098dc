{#- Harrell's concordance index (Harrell et al. 1982) of a risk score under right censoring, as
    scikit-survival's concordance_index_censored and lifelines' concordance_index.

    A pair (i, j) is comparable when i's event is observed and j is still at risk after it:
    T_i < T_j, or T_i = T_j with j censored (both references count an event against a row censored at
    its time, and never two events of one time). It is concordant when i, the earlier event, has the
    higher risk; a tie of risks counts 1/2 (tied_risk). C = (concordant + tied_risk/2) / comparable;
    NULL (undefined) when there is no comparable pair (no observed event, or every event is the last
    time of its slice).

    No pair is enumerated. Each row gets a position in time order: 2 x (the rows of earlier times) for
    an event, one more for a row censored (rows sharing both share a position, so they are not
    compared), and a comparable pair is a pair of positions pos_i < pos_j with i an event. The highest
    bit where pos_i and pos_j differ is 0 in pos_i and 1 in pos_j, with the higher bits equal: for each
    bit (a step 2^k up to the largest position), the rows of one block of 2^(k+1) positions split into
    a lower half (the events i) and an upper half (the rows j), and every comparable pair is counted in
    exactly one such block. Within a block the count of pairs with risk_j < risk_i is a Mann-Whitney
    count, read from a running sum of the upper half over the sorted risks, as the AUC's rank sums.
    That is O(log n) sorts of the n rows: O(n log^2 n).

    Both orders (of the times, and of the risks in a block) are running_sums: plan='parallel' splits
    them into buckets of the value, so that no window spans a slice (or the top step's one block,
    which holds every row) on a distributed engine.

    higher='risk': a higher score predicts an earlier event (scikit-survival's estimate);
    higher='survival': a longer survival (lifelines' predicted_scores). -#}
{% macro concordance_index(relation, duration, event, score, higher='risk', by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- if higher not in ('risk', 'survival') %}
{{ sqlmetrics.fail("concordance_index's higher is 'risk' (a higher score, an earlier event) or 'survival' (a longer survival); got " ~ higher) }}
{%- endif %}
{%- set s = sqlmetrics.as_double(sqlmetrics.ident(score)) %}
{%- set blocks = by + ['sm_step', 'sm_block'] %}
WITH sm_cells AS (
  {#- the rows, one per (slice, time, event, risk) with their count: ties in both are one cell -#}
  SELECT {{ sqlmetrics.cols(by) }} sm_t, sm_e, sm_risk, COUNT(*) AS sm_n
  FROM (
    SELECT {{ sqlmetrics.cols(by) }}
           {{ sqlmetrics.as_double(sqlmetrics.ident(duration)) }} AS sm_t,
           {{ sqlmetrics.is_positive(event) }} AS sm_e,
           {% if higher == 'survival' %}-{% endif %}{{ s }} AS sm_risk
    FROM {{ relation }}
  ) AS sm_rows
  {{ sqlmetrics.group_by(by + ['sm_t', 'sm_e', 'sm_risk']) }}
), sm_times AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_t, SUM(sm_n) AS sm_at
  FROM sm_cells
  {{ sqlmetrics.group_by(by + ['sm_t']) }}
), {{ sqlmetrics.running_sums('sm_time_order', 'sm_times', by, 'sm_t', false, [], ['sm_at'], plan) }}, sm_positioned AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_cells') }} sm_cells.sm_e AS sm_e, sm_cells.sm_risk AS sm_risk,
         sm_cells.sm_n AS sm_n,
         2 * (sm_time_order.sm_at_run - sm_time_order.sm_at) + 1 - sm_cells.sm_e AS sm_pos,
         {#- above every position -#}
         2 * sm_time_order.sm_at_all AS sm_last
  FROM sm_cells
  JOIN sm_time_order
    ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_cells', 'sm_time_order') }} AND {% endif %}sm_cells.sm_t = sm_time_order.sm_t
), sm_steps AS (
  {#- the halves of 2^k and 2^(k+1) positions as multiplications by powers of two: exact in doubles -#}
  {%- for k in range(48) %}
  SELECT {{ 2 ** k }} AS sm_step, {{ sqlmetrics.as_double(0.5 ** k) }} AS sm_per_half,
         {{ sqlmetrics.as_double(0.5 ** (k + 1)) }} AS sm_per_block{% if not loop.last %} UNION ALL{% endif %}
  {%- endfor %}
), sm_halves AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_e, sm_risk, sm_n, sm_step,
         FLOOR(sm_pos * sm_per_block) AS sm_block,
         FLOOR(sm_pos * sm_per_half) - 2 * FLOOR(sm_pos * sm_per_block) AS sm_upper
  FROM sm_positioned CROSS JOIN sm_steps
  WHERE sm_steps.sm_step <= sm_positioned.sm_last
), sm_blocks AS (
  SELECT {{ sqlmetrics.cols(blocks) }} sm_risk,
         SUM(CASE WHEN sm_upper = 0 THEN sm_e * sm_n ELSE 0 END) AS sm_events,
         SUM(CASE WHEN sm_upper = 1 THEN sm_n ELSE 0 END) AS sm_later
  FROM sm_halves
  {{ sqlmetrics.group_by(blocks + ['sm_risk']) }}
), {{ sqlmetrics.running_sums('sm_below', 'sm_blocks', blocks, 'sm_risk', false, ['sm_events'], ['sm_later'], plan) }}, sm_pairs AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(SUM(sm_events * (sm_later_run - sm_later)) AS BIGINT) AS concordant,
         CAST(SUM(sm_events * sm_later) AS BIGINT) AS tied_risk,
         CAST(SUM(sm_events * sm_later_all) AS BIGINT) AS comparable
  FROM sm_below
  {{ sqlmetrics.group_by(by) }}
)
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('concordant + 0.5 * tied_risk', 'comparable') }} AS concordance_index,
       concordant, comparable - concordant - tied_risk AS discordant, tied_risk, comparable
FROM sm_pairs
{% endmacro %}
