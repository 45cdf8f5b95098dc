{#- dbt generic test: a regression gate. Fails (a row per failing slice, with `by`) when the model,
    the candidate, is worse than `other` (a baseline run of the same queries for a ranking metric;
    a second score column for gauc) by more than `max_drop`, or worse with a p-value below `alpha`
    (the paired `test`, as sqlmetrics.compare), or when the comparison is undefined. At least one of
    max_drop and alpha is needed. The other arguments are the metric's own:

      data_tests:
        - sqlmetrics.expect_no_regression:
            arguments: {metric: ndcg, other: ref('baseline_run'), qrels: ref('qrels'), k: 10,
                        max_drop: 0.01, alpha: 0.05}
-#}
{% macro test_expect_no_regression(model, metric, other, max_drop=none, alpha=none, test='paired_t') %}
{%- if max_drop is none and alpha is none %}{{ sqlmetrics.fail('expect_no_regression needs max_drop or alpha') }}{% endif %}
SELECT *
FROM ({{ sqlmetrics.compare(metric, model, other, test=test, **kwargs) }}) AS sm_compared
WHERE difference IS NULL
{%- if max_drop is not none %} OR difference < -{{ max_drop }}{% endif %}
{%- if alpha is not none %} OR (difference < 0 AND p_value < {{ alpha }}){% endif %}
{% endmacro %}
