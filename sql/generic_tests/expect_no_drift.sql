{#- dbt generic test: a drift gate. Fails with a row per (slice, column) whose distribution moved from
    the model, the reference window, to `current` by a statistic at or above its threshold (above, for
    energy, as sqlmetrics.drift and Evidently flag it), or that has no value in one of the windows.
    `thresholds` maps statistics of drift_statistics (ks, wasserstein, energy, psi, kl_divergence,
    jensenshannon, hellinger, total_variation) or wasserstein_normed (Evidently's: wasserstein over
    the reference's standard deviation, at least 0.001) to their thresholds; a statistic a column does
    not have (ks of a categorical column) passes. The tests' p-values are computed in Python
    (sqlmetrics drift --alpha): gate on their statistics here. The other arguments are
    drift_statistics' own:

      data_tests:
        - sqlmetrics.expect_no_drift:
            arguments: {current: ref('features_today'), columns: [age, basket_value], categorical: [device],
                        thresholds: {psi: 0.2, wasserstein_normed: 0.1}}
-#}
{% macro test_expect_no_drift(model, current, thresholds, columns=[], categorical=[], binning='quantile', n_bins=10,
                              edges=none, weight=none, by=[]) %}
{%- set statistics = ['ks', 'wasserstein', 'wasserstein_normed', 'energy', 'psi', 'kl_divergence', 'jensenshannon',
                      'hellinger', 'total_variation'] %}
{%- if thresholds is not mapping or not thresholds %}
{{ sqlmetrics.fail('expect_no_drift needs thresholds: a statistic and its threshold each, e.g. {psi: 0.2}') }}
{%- endif %}
{%- for statistic, bound in thresholds.items() %}
{%- if statistic not in statistics %}
{{ sqlmetrics.fail('expect_no_drift: ' ~ statistic ~ ' is not a statistic it gates; the statistics: ' ~ statistics | join(', ')) }}
{%- elif bound is not number or bound is boolean %}
{{ sqlmetrics.fail('expect_no_drift: the threshold of ' ~ statistic ~ ' must be a number') }}
{%- endif %}
{%- endfor %}
SELECT *
FROM (
  SELECT sm_drift.*,
         wasserstein / CASE WHEN reference_std > 0.001 THEN reference_std ELSE 0.001 END AS wasserstein_normed
  FROM (
    {{ sqlmetrics.drift_statistics(model, current, columns=columns, categorical=categorical, binning=binning, n_bins=n_bins,
                                   edges=edges, weight=weight, by=by) }}
  ) AS sm_drift
) AS sm_drifted
WHERE n_reference = 0 OR n_current = 0
{%- for statistic, bound in thresholds.items() %}
   OR {{ statistic }} {{ '>' if statistic == 'energy' else '>=' }} {{ bound }}
{%- endfor %}
{% endmacro %}
