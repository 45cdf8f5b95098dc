{#- Calibration (reliability) curve: per bin of predicted probability, the mean prediction and the
    fraction of positives (weighted means when weighted), one row per non-empty bin, ordered by bin.
    Bins are calibration_bins' (sklearn's): n_bins equal-width bins ('uniform') or bins between the
    quantiles of the slice's probabilities ('quantile', unweighted quantiles). Weighted, a bin whose
    rows all weigh 0 is empty. n: rows in the bin when unweighted, its total weight when weighted.
    Reference: sklearn.calibration.calibration_curve(y, p, n_bins=n_bins, strategy=strategy), whose
    prob_pred / prob_true are mean_predicted / fraction_positive. -#}
{% macro calibration_curve(relation, label, score, weight=none, n_bins=5, strategy='uniform', by=[], plan=none) %}
WITH {{ sqlmetrics.calibration_bins(relation, label, score, weight, n_bins, strategy, by,
                                   plan or sqlmetrics.default_plan()) }}
SELECT {{ sqlmetrics.cols(by) }}
       sm_bin AS bin,
       {{ sqlmetrics.fdiv('sm_wp', 'sm_weight') }} AS mean_predicted,
       {{ sqlmetrics.fdiv('sm_wy', 'sm_weight') }} AS fraction_positive,
       {% if weight %}sm_weight{% else %}sm_rows{% endif %} AS n
FROM sm_bins
WHERE sm_weight > 0
ORDER BY {{ sqlmetrics.cols(by) }} bin
{% endmacro %}
