{#- The pairs of a concordance index, counted without enumerating them.

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

    `cells` is a CTE of the rows, one per (slice `by`, sm_t, sm_e, sm_risk) with their count sm_n
    (concordance_cells) and, `weighted`, sm_w: the weight of an event row (Uno's inverse probability
    of censoring weights). The CTE definitions end in sm_pairs: per slice, the counts concordant,
    tied_risk and comparable and, `weighted`, sm_numerator and sm_denominator, their sums weighted
    by the earlier event's weight (a tie counting 1/2). -#}
{% macro concordance_pairs(cells, by, plan, weighted=false) %}
{%- set blocks = by + ['sm_step', 'sm_block'] %}
{%- set events = ['sm_events', 'sm_weighted'] if weighted else ['sm_events'] %}
sm_times AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_t, SUM(sm_n) AS sm_at
  FROM {{ cells }}
  {{ sqlmetrics.group_by(by + ['sm_t']) }}
), {{ sqlmetrics.running_sums('sm_time_order', 'sm_times', by, 'sm_t', false, [], ['sm_at'], plan) }}, sm_positioned AS (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_c') }} sm_c.sm_e AS sm_e, sm_c.sm_risk AS sm_risk, sm_c.sm_n AS sm_n,
         {%- if weighted %} sm_c.sm_w AS sm_w,{% endif %}
         2 * (sm_time_order.sm_at_run - sm_time_order.sm_at) + 1 - sm_c.sm_e AS sm_pos,
         {#- above every position -#}
         2 * sm_time_order.sm_at_all AS sm_last
  FROM {{ cells }} AS sm_c
  JOIN sm_time_order
    ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_c', 'sm_time_order') }} AND {% endif %}sm_c.sm_t = sm_time_order.sm_t
), sm_steps AS (
  {#- the halves of 2^k and 2^(k+1) positions as multiplications by powers of two: exact in doubles -#}
  {%- for k in range(48) %}
  SELECT {{ 2 ** k }} AS sm_step, {{ sqlmetrics.as_double(0.5 ** k) }} AS sm_per_half,
         {{ sqlmetrics.as_double(0.5 ** (k + 1)) }} AS sm_per_block{% if not loop.last %} UNION ALL{% endif %}
  {%- endfor %}
), sm_halves AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_e, sm_risk, sm_n, {% if weighted %}sm_w, {% endif %}sm_step,
         FLOOR(sm_pos * sm_per_block) AS sm_block,
         FLOOR(sm_pos * sm_per_half) - 2 * FLOOR(sm_pos * sm_per_block) AS sm_upper
  FROM sm_positioned CROSS JOIN sm_steps
  WHERE sm_steps.sm_step <= sm_positioned.sm_last
), sm_blocks AS (
  SELECT {{ sqlmetrics.cols(blocks) }} sm_risk,
         SUM(CASE WHEN sm_upper = 0 THEN sm_e * sm_n ELSE 0 END) AS sm_events,
         {%- if weighted %}
         SUM(CASE WHEN sm_upper = 0 THEN sm_e * sm_n * sm_w ELSE 0 END) AS sm_weighted,
         {%- endif %}
         SUM(CASE WHEN sm_upper = 1 THEN sm_n ELSE 0 END) AS sm_later
  FROM sm_halves
  {{ sqlmetrics.group_by(blocks + ['sm_risk']) }}
), {{ sqlmetrics.running_sums('sm_below', 'sm_blocks', blocks, 'sm_risk', false, events, ['sm_later'], plan) }}, sm_pairs AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(SUM(sm_events * (sm_later_run - sm_later)) AS BIGINT) AS concordant,
         CAST(SUM(sm_events * sm_later) AS BIGINT) AS tied_risk,
         CAST(SUM(sm_events * sm_later_all) AS BIGINT) AS comparable
         {%- if weighted %},
         SUM(sm_weighted * (sm_later_run - 0.5 * sm_later)) AS sm_numerator,
         SUM(sm_weighted * sm_later_all) AS sm_denominator
         {%- endif %}
  FROM sm_below
  {{ sqlmetrics.group_by(by) }}
)
{%- endmacro %}

{#- The CTE sm_cells of concordance_pairs: the rows of `relation`, one per (slice, time, event, risk)
    with their count (ties in both are one cell). -#}
{% macro concordance_cells(relation, duration, event, score, higher, by) %}
sm_cells AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_t, sm_e, sm_risk, COUNT(*) AS sm_n
  FROM ({{ sqlmetrics.survival_rows(relation, duration, event, by, score, higher) }}) AS sm_rows
  {{ sqlmetrics.group_by(by + ['sm_t', 'sm_e', 'sm_risk']) }}
)
{%- endmacro %}

{#- The rows of a survival metric: the slice columns `by`, sm_t (the duration, a DOUBLE), sm_e (1: the
    event, 0: censored) and, with a `score`, sm_risk (`higher`='survival' negates it into a risk). -#}
{% macro survival_rows(relation, duration, event, by, score=none, higher='risk') %}
{%- if higher not in ('risk', 'survival') %}
{{ sqlmetrics.fail("higher is 'risk' (a higher score, an earlier event) or 'survival' (a longer survival); got " ~ higher) }}
{%- endif %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.as_double(sqlmetrics.ident(duration)) }} AS sm_t,
       {{ sqlmetrics.is_positive(event) }} AS sm_e
       {%- if score is not none %},
       {% if higher == 'survival' %}-{% endif %}{{ sqlmetrics.as_double(sqlmetrics.ident(score)) }} AS sm_risk
       {%- endif %}
FROM {{ relation }}
{%- endmacro %}
