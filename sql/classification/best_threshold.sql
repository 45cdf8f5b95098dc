{#- The threshold (a row predicted positive iff score >= threshold) that maximises `criterion`:
    'f_beta', F_beta of the point (f_beta_of; reference: the argmax over sklearn's
    precision_recall_curve), or 'youden', Youden's J = tpr - fpr (the argmax over sklearn's
    roc_curve, whose first point, threshold +inf with J = 0, is a candidate: J is then >= 0 and its
    maximum is ks_statistic). Candidates are the distinct scores of non-zero weight (and +inf for
    'youden'); ties: the highest threshold, best_point's. best_value is the criterion there, with the
    precision, recall (= tpr) and fpr of that threshold. NULL without positives (f_beta) or without
    both classes (youden). -#}
{% macro best_threshold(relation, label, score, weight=none, criterion='f_beta', beta=1.0, by=[], plan=none) %}
{%- if criterion == 'youden' %}
{%- if beta != 1.0 %}{{ sqlmetrics.fail("beta weighs recall in criterion='f_beta'; criterion='youden' takes none: leave beta out") }}{% endif %}
{%- set value = sqlmetrics.fdiv('tp', 'sm_pos') ~ ' - ' ~ sqlmetrics.fdiv('fp', 'sm_neg') %}
{%- elif criterion == 'f_beta' %}
{%- set value %}CASE WHEN sm_pos > 0 THEN {{ sqlmetrics.f_beta_of('tp', 'fp', '(sm_pos - tp)', beta) }} END{% endset %}
{%- else %}
{{ sqlmetrics.fail("best_threshold's criterion must be 'f_beta' or 'youden'; got " ~ criterion) }}
{%- endif %}
{%- set chosen = namespace(threshold='sm_threshold', value='sm_top', tp='sm_tp', fp='sm_fp') %}
{%- if criterion == 'youden' %}
{#- J at +inf is 0 (nothing predicted positive): that point wins when no score does better -#}
{%- set chosen.threshold = 'CASE WHEN sm_top <= 0 THEN ' ~ sqlmetrics.infinity() ~ ' ELSE sm_threshold END' %}
{%- set chosen.value = 'CASE WHEN sm_top <= 0 THEN ' ~ sqlmetrics.as_double(0) ~ ' ELSE sm_top END' %}
{%- set chosen.tp = 'CASE WHEN sm_top <= 0 THEN ' ~ sqlmetrics.as_double(0) ~ ' ELSE sm_tp END' %}
{%- set chosen.fp = 'CASE WHEN sm_top <= 0 THEN ' ~ sqlmetrics.as_double(0) ~ ' ELSE sm_fp END' %}
{%- endif %}
WITH {{ sqlmetrics.best_point(relation, label, score, weight, by, plan or sqlmetrics.default_plan(), value) }}
SELECT {{ sqlmetrics.cols(by) }} threshold, best_value,
       {{ sqlmetrics.fdiv('sm_tp_best', 'sm_tp_best + sm_fp_best') }} AS {{ sqlmetrics.ident('precision') }},
       {{ sqlmetrics.fdiv('sm_tp_best', 'sm_w_pos') }} AS recall,
       {{ sqlmetrics.fdiv('sm_fp_best', 'sm_w_neg') }} AS fpr,
       n_pos, n_neg
FROM (
  SELECT {{ sqlmetrics.cols(by) }} {{ chosen.threshold }} AS threshold, {{ chosen.value }} AS best_value,
         sm_w_pos, sm_w_neg, {{ chosen.tp }} AS sm_tp_best, {{ chosen.fp }} AS sm_fp_best,
         sm_n_pos AS n_pos, sm_n - sm_n_pos AS n_neg
  FROM sm_best
) AS sm_chosen
{% endmacro %}
