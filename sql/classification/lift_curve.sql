{#- Lift by score bins (gain_curve's bins, 1 = the highest scores): lift = gain / share, the positive
    rate of the rows in bins 1 .. this one over the slice's (kds' decile table's lift), and bin_lift,
    the bin's own positive rate over the slice's. NULL without positives. -#}
{% macro lift_curve(relation, label, score, weight=none, n_bins=10, by=[], plan=none) %}
SELECT {{ sqlmetrics.cols(by) }} bin, share, lift, bin_lift, threshold, n, n_pos
FROM ({{ sqlmetrics.score_bins(relation, label, score, weight, n_bins, by, plan) }}) AS sm_lifts
ORDER BY {{ sqlmetrics.cols(by) }} bin
{% endmacro %}
