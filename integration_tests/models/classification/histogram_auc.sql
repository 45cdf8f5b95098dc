-- the per-country histograms of the model above, merged
{{ sqlmetrics.histogram_auc(ref('score_histogram_by_country')) }}
