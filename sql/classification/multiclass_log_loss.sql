{#- Multi-class log loss = -(1/W) sum over examples of w * ln(p), p the probability given to the
    true class, clipped to [eps, 1 - eps] as log_loss (sklearn's eps, the float64 machine epsilon).
    An example's scores must be probabilities summing to 1 within 1e-6 (class_rows fails the query
    otherwise). Reference: sklearn.metrics.log_loss(y, P, labels=classes, sample_weight=w). -#}
{% macro multiclass_log_loss(relation, example='example', class_='class', score='score', label=none, labels=none,
                             weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('-SUM(sm_w * LN(' ~ sqlmetrics.clipped_probability('sm_score') ~ '))', 'SUM(sm_w)') }} AS multiclass_log_loss,
       COUNT(*) AS n,
       CAST({{ sqlmetrics.class_count(relation, class_) }} AS BIGINT) AS n_classes
FROM ({{ sqlmetrics.class_rows(relation, example, class_, score, label, labels, weight, by, sums_to_one=true) }}) AS sm_rows
WHERE sm_true = 1
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
