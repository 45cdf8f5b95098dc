{#- Harrell's concordance index (Harrell et al. 1982) of a risk score under right censoring, as
    scikit-survival's concordance_index_censored and lifelines' concordance_index.

    A pair (i, j) is comparable when i's event is observed and j is still at risk after it:
    T_i < T_j, or T_i = T_j with j censored (both references count an event against a row censored at
    its time, and never two events of one time). It is concordant when i, the earlier event, has the
    higher risk; a tie of risks counts 1/2 (tied_risk). C = (concordant + tied_risk/2) / comparable;
    NULL (undefined) when there is no comparable pair (no observed event, or every event is the last
    time of its slice).

    No pair is enumerated. Rows are ranked in time order (events before the rows censored at their
    time; rows sharing both share a rank, so they are not compared), and a comparable pair is a pair of
    ranks pos_i < pos_j with i an event. The highest bit where pos_i and pos_j differ is 0 in pos_i and
    1 in pos_j, with the higher bits equal: for each bit (a step 2^k up to the largest rank), the rows of
    one block of 2^(k+1) ranks split into a lower half (the events i) and an upper half (the rows j),
    and every comparable pair is counted in exactly one such block. Within a block the count of pairs
    with risk_j < risk_i is a Mann-Whitney count, read from a running sum of the upper half over the
    sorted risks, as the AUC's rank sums. That is O(log n) sorts of the n rows: O(n log^2 n).

    higher='risk': a higher score predicts an earlier event (scikit-survival's estimate);
    higher='survival': a longer survival (lifelines' predicted_scores). -#}
{% macro concordance_index(relation, duration, event, score, higher='risk', by=[]) %}
{%- if higher not in ('risk', 'survival') %}
{{ sqlmetrics.fail("concordance_index's higher is 'risk' (a higher score, an earlier event) or 'survival' (a longer survival); got " ~ higher) }}
{%- endif %}
{%- set s = sqlmetrics.as_double(sqlmetrics.ident(score)) %}
WITH sm_rows AS (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.as_double(sqlmetrics.ident(duration)) }} AS sm_t,
         {{ sqlmetrics.is_positive(event) }} AS sm_e,
         {% if higher == 'survival' %}-{% endif %}{{ s }} AS sm_risk
  FROM {{ relation }}
), sm_ranked AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_e, sm_risk,
         DENSE_RANK() OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_t, sm_e DESC) - 1 AS sm_pos
  FROM sm_rows
), sm_sized AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_e, sm_risk, sm_pos,
         MAX(sm_pos) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_last
  FROM sm_ranked
), sm_steps AS (
  {#- the halves of 2^k and 2^(k+1) ranks as multiplications by powers of two: exact in doubles -#}
  {%- for k in range(48) %}
  SELECT {{ 2 ** k }} AS sm_step, {{ sqlmetrics.as_double(0.5 ** k) }} AS sm_per_half,
         {{ sqlmetrics.as_double(0.5 ** (k + 1)) }} AS sm_per_block{% if not loop.last %} UNION ALL{% endif %}
  {%- endfor %}
), sm_halves AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_e, sm_risk, sm_step,
         FLOOR(sm_pos * sm_per_block) AS sm_block,
         FLOOR(sm_pos * sm_per_half) - 2 * FLOOR(sm_pos * sm_per_block) AS sm_upper
  FROM sm_sized CROSS JOIN sm_steps
  -- step 1 for a slice of one rank too: its row, with no pair, is still there
  WHERE sm_steps.sm_step = 1 OR sm_steps.sm_step <= sm_sized.sm_last
), sm_cells AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_step, sm_block, sm_risk,
         SUM(CASE WHEN sm_upper = 0 THEN sm_e ELSE 0 END) AS sm_events,
         SUM(CASE WHEN sm_upper = 1 THEN 1 ELSE 0 END) AS sm_later
  FROM sm_halves
  GROUP BY {{ sqlmetrics.cols(by) }} sm_step, sm_block, sm_risk
), sm_below AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_events, sm_later,
         SUM(sm_later) OVER ({{ sqlmetrics.partition_by(by + ['sm_step', 'sm_block']) }} ORDER BY sm_risk
                             ROWS UNBOUNDED PRECEDING) - sm_later AS sm_lower,
         SUM(sm_later) OVER ({{ sqlmetrics.partition_by(by + ['sm_step', 'sm_block']) }}) AS sm_block_later
  FROM sm_cells
), sm_pairs AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(SUM(sm_events * sm_lower) AS BIGINT) AS concordant,
         CAST(SUM(sm_events * sm_later) AS BIGINT) AS tied_risk,
         CAST(SUM(sm_events * sm_block_later) AS BIGINT) AS comparable
  FROM sm_below
  {{ sqlmetrics.group_by(by) }}
)
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('concordant + 0.5 * tied_risk', 'comparable') }} AS concordance_index,
       concordant, comparable - concordant - tied_risk AS discordant, tied_risk, comparable
FROM sm_pairs
{% endmacro %}
