{#- The treatment balance curve (scikit-uplift's treatment_balance_curve): the share of treated rows in
    a moving window of `winsize` rows over the rows in descending score order, one point per window
    (n - winsize + 1 of them), at idx = 1 .. 100 evenly spaced (numpy's linspace).

    Rows of one score have no order of their own (scikit-uplift's is its sort's): each position of a
    tie group counts the group's share of treated rows, the expected value over the group's orders,
    which on distinct scores is scikit-uplift's curve. No window spans the rows: a tie group's first
    position is a running sum over the distinct scores (running_sums, parallel on distributed
    engines), a row's position within its group a window over that group, and C(p), the treated
    count up to position p, is in closed form; a window's share is (C(q) - C(q - winsize)) / winsize,
    the rows at positions q and q - winsize joined on their positions. -#}
{% macro treatment_balance_curve(relation, treatment, score, winsize, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set tie = by + ['threshold'] %}
WITH sm_rows AS (
  SELECT {{ sqlmetrics.cols(by) }} {{ sqlmetrics.ident(score) }} AS threshold,
         {{ sqlmetrics.is_treated(treatment) }} AS sm_t
  FROM {{ relation }}
), sm_ties AS (
  SELECT {{ sqlmetrics.cols(tie) }} COUNT(*) AS sm_n, SUM(sm_t) AS sm_treated
  FROM sm_rows
  {{ sqlmetrics.group_by(tie) }}
), {{ sqlmetrics.running_sums('sm_order', 'sm_ties', by, 'threshold', true, [], ['sm_n', 'sm_treated'], plan) }}, sm_positions AS (
  {#- position p of a row (1-based) and C(p): the rows of earlier ties, then this tie's share per row -#}
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_o') }} sm_o.sm_n_all AS sm_rows_all,
         sm_o.sm_n_run - sm_o.sm_n + sm_r.sm_k AS sm_p,
         sm_o.sm_treated_run - sm_o.sm_treated + sm_r.sm_k * {{ sqlmetrics.fdiv('sm_o.sm_treated', 'sm_o.sm_n') }} AS sm_c
  FROM (
    SELECT {{ sqlmetrics.cols(tie) }} ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(tie) }} ORDER BY sm_t) AS sm_k
    FROM sm_rows
  ) AS sm_r
  JOIN sm_order AS sm_o
    ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_r', 'sm_o') }} AND {% endif %}sm_r.threshold = sm_o.threshold
)
SELECT {{ sqlmetrics.qualified_cols(by, 'sm_end') }}
       CASE WHEN sm_end.sm_rows_all = {{ winsize }} THEN 1.0
            ELSE 1 + (sm_end.sm_p - {{ winsize }}) * {{ sqlmetrics.fdiv('99.0', 'sm_end.sm_rows_all - ' ~ winsize) }} END AS idx,
       (sm_end.sm_c - COALESCE(sm_start.sm_c, 0)) / {{ sqlmetrics.as_double(winsize) }} AS balance
FROM sm_positions AS sm_end
LEFT JOIN sm_positions AS sm_start
  ON {% if by %}{{ sqlmetrics.null_safe_join_on(by, 'sm_end', 'sm_start') }} AND {% endif %}sm_start.sm_p = sm_end.sm_p - {{ winsize }}
WHERE sm_end.sm_p >= {{ winsize }}
ORDER BY {{ sqlmetrics.cols(by) }} idx
{% endmacro %}
