{#- Expected calibration error over calibration_bins' bins (those of calibration_curve):
    ECE = sum over bins of (W_bin / W) * |fraction_positive_bin - mean_predicted_bin|, W = total weight
    (row counts when unweighted). n: rows; n_bins_used: bins with positive weight. NULL without rows
    (or with zero total weight). -#}
{% macro ece(relation, label, score, weight=none, n_bins=5, strategy='uniform', by=[], plan=none) %}
WITH {{ sqlmetrics.calibration_bins(relation, label, score, weight, n_bins, strategy, by,
                                   plan or sqlmetrics.default_plan()) }}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('SUM(sm_weight * ABS(sm_fraction_positive - sm_mean_predicted))', 'SUM(sm_weight)') }}
           AS ece,
       CAST(COALESCE(SUM(sm_rows), 0) AS BIGINT) AS n,
       CAST(COALESCE(SUM(CASE WHEN sm_weight > 0 THEN 1 ELSE 0 END), 0) AS BIGINT) AS n_bins_used
FROM (
  SELECT {{ sqlmetrics.cols(by) }} sm_rows, sm_weight,
         {{ sqlmetrics.fdiv('sm_wp', 'sm_weight') }} AS sm_mean_predicted,
         {{ sqlmetrics.fdiv('sm_wy', 'sm_weight') }} AS sm_fraction_positive
  FROM sm_bins
) AS sm_per_bin
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
