{#- F_beta = (1 + beta^2)*tp / ((1 + beta^2)*tp + beta^2*fn + fp); NULL when tp = fp = fn = 0.
    Reference: sklearn fbeta_score. -#}
{% macro f_beta(relation, label, score=none, threshold=0.5, prediction=none, weight=none, by=[], beta=1.0) %}
{%- set b2 = sqlmetrics.as_double(beta) ~ ' * ' ~ sqlmetrics.as_double(beta) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('(1 + ' ~ b2 ~ ') * tp', '(1 + ' ~ b2 ~ ') * tp + ' ~ b2 ~ ' * fn + fp') }} AS f_beta,
       tp, fp, tn, fn, n
FROM ({{ sqlmetrics.confusion_matrix(relation, label, score, threshold, prediction, weight, by) }}) AS sm_confusion
{% endmacro %}
