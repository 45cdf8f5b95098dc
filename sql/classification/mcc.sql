{#- Matthews correlation coefficient, binary and multi-class (Gorodkin 2004's R_K):
    (c*s - sum_k p_k*t_k) / sqrt((s^2 - sum_k p_k^2) * (s^2 - sum_k t_k^2)), s the rows (weight),
    c those predicted right, t_k and p_k the true and predicted counts of class k. Undefined (NULL,
    or zero_division's value; sklearn returns 0) when the true or the predicted classes are
    constant. Sums in DOUBLE (s^2 overflows an integer past 3e9 rows). n = rows.
    Reference: sklearn matthews_corrcoef(y, y_pred, sample_weight=w). -#}
{% macro mcc(relation, label, prediction, weight=none, zero_division=none, by=[]) %}
{%- set root %}CASE WHEN {0} > 0 THEN SQRT({0}) ELSE 0 END{% endset %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.zero_division_value(sqlmetrics.fdiv('sm_s * sm_c - sm_dot', root.format('sm_s * sm_s - sm_pp') ~ ' * ' ~ root.format('sm_s * sm_s - sm_tt')), zero_division) }} AS mcc,
       sm_n_rows AS n
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         SUM({{ sqlmetrics.as_double('sm_support') }}) AS sm_s, SUM({{ sqlmetrics.as_double('sm_tp') }}) AS sm_c,
         SUM({{ sqlmetrics.as_double('sm_support') }} * {{ sqlmetrics.as_double('sm_tp + sm_fp') }}) AS sm_dot,
         SUM({{ sqlmetrics.as_double('sm_tp + sm_fp') }} * {{ sqlmetrics.as_double('sm_tp + sm_fp') }}) AS sm_pp,
         SUM({{ sqlmetrics.as_double('sm_support') }} * {{ sqlmetrics.as_double('sm_support') }}) AS sm_tt,
         COALESCE(MAX(sm_rows), 0) AS sm_n_rows
  FROM ({{ sqlmetrics.class_counts(relation, label, prediction, weight, by) }}) AS sm_counts
  {{ sqlmetrics.group_by(by) }}
) AS sm_sums
{% endmacro %}
