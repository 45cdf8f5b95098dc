{#- dbt generic test: fails when the AUC of the model (of any slice, with `by`) is below min_value
    or undefined; expect_metric_between with metric='auc'. -#}
{% macro test_expect_auc_above(model, label, score, min_value, weight=none, by=[]) %}
{{ sqlmetrics.test_expect_metric_between(model, 'auc', min_value=min_value, label=label, score=score,
                                         weight=weight, by=by) }}
{% endmacro %}
