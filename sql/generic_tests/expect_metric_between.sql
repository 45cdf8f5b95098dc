{#- dbt generic test: fails when a metric of the model is undefined (NULL) or outside
    [min_value, max_value] (either bound may be left out); one failing row per failing slice with
    `by`. The other arguments are the metric's own, as in {{ sqlmetrics.<metric>(model, ...) }}:

      data_tests:
        - sqlmetrics.expect_metric_between:
            arguments: {metric: ndcg, qrels: ref('qrels'), k: 10, min_value: 0.4}

    For the metrics with one value per slice (not the curves, not confusion_matrix).
    Written as a test_ macro, dbt's older form of a generic test, rather than a {% test %} block:
    the Python layer reads every file under sql/ with plain jinja2, which has no test blocks. -#}
{% macro test_expect_metric_between(model, metric, min_value=none, max_value=none) %}
{%- set value = sqlmetrics.ident(sqlmetrics.metric_name(metric)) %}
SELECT *
FROM ({{ sqlmetrics.metric(metric, model, **kwargs) }}) AS sm_metric
WHERE {{ value }} IS NULL
{%- if min_value is not none %} OR {{ value }} < {{ min_value }}{% endif %}
{%- if max_value is not none %} OR {{ value }} > {{ max_value }}{% endif %}
{% endmacro %}
