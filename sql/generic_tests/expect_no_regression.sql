{#- dbt generic test: a regression gate. Fails (a row per failing slice, with `by`) when the model,
    the candidate, is worse than `other` (a baseline run of the same queries for a ranking metric; a
    second score column for the others) by more than `max_drop`, or worse with a p-value below `alpha`
    (the paired `test`, as sqlmetrics.compare), or when the comparison is undefined. Worse is lower, or
    higher for a metric better lower (a loss, an error), as the command line's compare --max-drop and
    --alpha read it; `test` defaults to compare's for the metric (DeLong's for auc, Student's t on
    per-query or per-group differences, the paired bootstrap otherwise). At least one of max_drop and
    alpha is needed. The other arguments are the metric's own:

      data_tests:
        - sqlmetrics.expect_no_regression:
            arguments: {metric: ndcg, other: ref('baseline_run'), qrels: ref('qrels'), k: 10,
                        max_drop: 0.01, alpha: 0.05}
-#}
{% macro test_expect_no_regression(model, metric, other, max_drop=none, alpha=none, test=none, n_resamples=none) %}
{%- if max_drop is none and alpha is none %}{{ sqlmetrics.fail('expect_no_regression needs max_drop or alpha') }}{% endif %}
{%- set defaults = sqlmetrics.comparison_defaults(metric) %}
{%- if defaults is none %}{{ sqlmetrics.fail('expect_no_regression gates a metric sqlmetrics.compare takes; not ' ~ metric) }}{% endif %}
{%- set better, default_test, default_resamples = defaults %}
{%- if better == 'neither' %}
{{ sqlmetrics.fail(metric ~ ' is best at 1, neither higher nor lower: gate it with expect_metric_between') }}
{%- endif %}
{%- set test = test or default_test %}
{%- set n_resamples = n_resamples or (default_resamples if test == default_test else none) %}
{#- > 0: the candidate is worse -#}
{%- set worse %}{% if better == 'lower' %}difference{% else %}-difference{% endif %}{% endset %}
SELECT *
FROM (
  {%- if n_resamples %}
  {{ sqlmetrics.compare(metric, model, other, test=test, n_resamples=n_resamples, **kwargs) }}
  {%- else %}
  {{ sqlmetrics.compare(metric, model, other, test=test, **kwargs) }}
  {%- endif %}
) AS sm_compared
WHERE difference IS NULL
{%- if max_drop is not none %} OR {{ worse }} > {{ max_drop }}{% endif %}
{%- if alpha is not none %} OR ({{ worse }} > 0 AND p_value < {{ alpha }}){% endif %}
{% endmacro %}
