{#- Cohen's kappa: 1 - sum_ij w_ij*O_ij / sum_ij w_ij*E_ij, O the confusion matrix (weight sums when
    weighted), E_ij = t_i*p_j / s its expectation from the marginals (t true, p predicted counts, s
    the total), w_ij = [i != j] (weights none), |x_i - x_j| ('linear') or (x_i - x_j)^2
    ('quadratic'), x a class's index in sklearn's order (numbers by value, text byte by byte).
    Undefined (NULL) when sum w*E = 0, e.g. a single class. n = rows.
    Reference: sklearn cohen_kappa_score(y1, y2, weights=..., sample_weight=w).
    The expected sums need no pair of classes: [i != j] gives s^2 - sum_k t_k*p_k; (x_i - x_j)^2
    expands into sums of t*x, t*x^2, p*x, p*x^2; |x_i - x_j| sums over each true class i the
    predicted counts at or below x_i (P_i) and their x-weighted sum (XP_i): t_i*(x_i*(2*P_i - s) + XP
    - 2*XP_i), XP the whole x-weighted sum. Windows run over the cells (two rows per cell, see
    class_sides), never over the rows. -#}
{% macro cohen_kappa(relation, label, prediction, weight=none, weights=none, by=[]) %}
{%- set slice = sqlmetrics.partition_by(by) %}
{%- set true_side %}CASE WHEN sm_side = 0 THEN sm_w ELSE 0 END{% endset %}
{%- set pred_side %}CASE WHEN sm_side = 1 THEN sm_w ELSE 0 END{% endset %}
{%- set cells %}
SELECT {{ sqlmetrics.cols(by) }} sm_side, sm_class, sm_true, sm_pred, {{ sqlmetrics.as_double('sm_n') }} AS sm_w, sm_rows
       {%- if weights %},
       DENSE_RANK() OVER ({{ slice }} ORDER BY {{ sqlmetrics.class_order('sm_class', label) }}) - 1 AS sm_x
       {%- endif %}
FROM ({{ sqlmetrics.class_sides(relation, label, prediction, weight, by) }}) AS sm_sides
{%- endset %}
{%- if weights is none %}
{#- sm_p: the predicted count of the row's class -#}
{%- set ranked %}
SELECT {{ sqlmetrics.cols(by) }} sm_side, sm_true, sm_pred, sm_w, sm_rows,
       SUM({{ pred_side }}) OVER ({{ sqlmetrics.partition_by(by + ['sm_class']) }}) AS sm_p
FROM ({{ cells }}) AS sm_cells
{%- endset %}
{%- set observed %}SUM(CASE WHEN sm_side = 0 AND NOT sm_true = sm_pred THEN sm_w ELSE 0 END){% endset %}
{%- set expected %}SUM({{ true_side }}) * SUM({{ true_side }}) - SUM(CASE WHEN sm_side = 0 THEN sm_w * sm_p ELSE 0 END){% endset %}
{%- else %}
{#- sm_x_pred: the index of the cell's predicted class, on both rows of the cell -#}
{%- set with_pred %}
SELECT {{ sqlmetrics.cols(by) }} sm_side, sm_class, sm_w, sm_rows, sm_x,
       MAX(CASE WHEN sm_side = 1 THEN sm_x END) OVER ({{ sqlmetrics.partition_by(by + ['sm_true', 'sm_pred']) }}) AS sm_x_pred
       {%- if weights == 'linear' %},
       {%- set upto %}OVER ({{ slice }} ORDER BY sm_x ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW){% endset %}
       SUM({{ pred_side }}) {{ upto }} AS sm_p_upto, SUM({{ pred_side }} * sm_x) {{ upto }} AS sm_xp_upto
       {%- endif %}
FROM ({{ cells }}) AS sm_cells
{%- endset %}
{%- if weights == 'linear' %}
{#- P_i, XP_i of the row's class: the running sums at its last row (they only grow; rows of one class
    may come in any order) -#}
{%- set ranked %}
SELECT {{ sqlmetrics.cols(by) }} sm_side, sm_w, sm_rows, sm_x, sm_x_pred,
       MAX(sm_p_upto) OVER ({{ sqlmetrics.partition_by(by + ['sm_class']) }}) AS sm_p_le,
       MAX(sm_xp_upto) OVER ({{ sqlmetrics.partition_by(by + ['sm_class']) }}) AS sm_xp_le
FROM ({{ with_pred }}) AS sm_running
{%- endset %}
{%- set observed %}SUM(CASE WHEN sm_side = 0 THEN sm_w * ABS(sm_x - sm_x_pred) ELSE 0 END){% endset %}
{%- set expected -%}
2 * SUM(CASE WHEN sm_side = 0 THEN sm_w * (sm_x * sm_p_le - sm_xp_le) ELSE 0 END)
+ SUM({{ true_side }}) * (SUM({{ pred_side }} * sm_x) - SUM({{ true_side }} * sm_x))
{%- endset %}
{%- else %}
{%- set ranked = with_pred %}
{%- set observed %}SUM(CASE WHEN sm_side = 0 THEN sm_w * (sm_x - sm_x_pred) * (sm_x - sm_x_pred) ELSE 0 END){% endset %}
{%- set expected -%}
SUM({{ true_side }}) * SUM({{ pred_side }} * sm_x * sm_x) + SUM({{ true_side }}) * SUM({{ true_side }} * sm_x * sm_x)
- 2 * SUM({{ true_side }} * sm_x) * SUM({{ pred_side }} * sm_x)
{%- endset %}
{%- endif %}
{%- endif %}
SELECT {{ sqlmetrics.cols(by) }}
       1 - {{ sqlmetrics.fdiv('sm_s * sm_observed', 'sm_expected') }} AS cohen_kappa, sm_n_rows AS n
FROM (
  SELECT {{ sqlmetrics.cols(by) }} {{ observed }} AS sm_observed, {{ expected }} AS sm_expected,
         SUM({{ true_side }}) AS sm_s, SUM(CASE WHEN sm_side = 0 THEN sm_rows ELSE 0 END) AS sm_n_rows
  FROM ({{ ranked }}) AS sm_ranked
  {{ sqlmetrics.group_by(by) }}
) AS sm_sums
{% endmacro %}
