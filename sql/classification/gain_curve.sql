{#- Cumulative gains by score bins: the rows sorted by score descending are cut into n_bins bins of
    about equal weight (10: deciles), as kds' decile table cuts them (decile = FLOOR(n_bins * i / N) + 1
    for the row at position i = 0 .. N-1 from the top), except that a tie group is never split: it
    goes whole to the bin where it starts, FLOOR(n_bins * W_above / W) + 1 with W_above the weight of
    the rows scoring strictly higher (rows when unweighted; the cap at n_bins only catches zero-weight
    rows below every weighted one). A bin a large tie group skips over is empty and has no row. Per
    bin (1 = the highest scores): share = the weight share of the rows in bins 1 .. this one (score
    >= threshold, the bin's lowest score), gain = the positive weight share of the same rows, lift =
    gain / share, n and n_pos its rows and positive rows. gain is NULL without positives. -#}
{% macro gain_curve(relation, label, score, weight=none, n_bins=10, by=[], plan=none) %}
SELECT {{ sqlmetrics.cols(by) }} bin, share, gain, lift, threshold, n, n_pos
FROM ({{ sqlmetrics.score_bins(relation, label, score, weight, n_bins, by, plan) }}) AS sm_gains
ORDER BY {{ sqlmetrics.cols(by) }} bin
{% endmacro %}

{#- gain_curve's bins: per slice and bin, bin, share, gain, lift, bin_lift (the bin's own positive
    rate over the slice's), threshold, n, n_pos. Each bin's cumulative weights are those of its
    lowest score, where curve_points' running sums (tp, fp: weights at or above the score) stand: no
    window beyond curve_points' (whose parallel plan serves as is; its rank plan's running sums are
    per row, so 'aggregate' instead). -#}
{% macro score_bins(relation, label, score, weight, n_bins, by, plan) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set above = sqlmetrics.fdiv(n_bins ~ ' * (tp - sm_tp_at + fp - sm_fp_at)', 'sm_pos + sm_neg') %}
WITH {{ sqlmetrics.curve_points(relation, label, score, weight, by, 'parallel' if plan == 'parallel' else 'aggregate') }}
SELECT {{ sqlmetrics.cols(by) }} bin,
       {{ sqlmetrics.fdiv('sm_w_run', 'sm_w_all') }} AS share,
       {{ sqlmetrics.fdiv('sm_pos_run', 'sm_pos_all') }} AS gain,
       {{ sqlmetrics.fdiv(sqlmetrics.fdiv('sm_pos_run', 'sm_pos_all'), sqlmetrics.fdiv('sm_w_run', 'sm_w_all')) }} AS lift,
       {{ sqlmetrics.fdiv(sqlmetrics.fdiv('sm_pos_in', 'sm_w_in'), sqlmetrics.fdiv('sm_pos_all', 'sm_w_all')) }} AS bin_lift,
       sm_lowest AS threshold, n, n_pos
FROM (
  SELECT {{ sqlmetrics.cols(by) }} sm_bin AS bin,
         MAX(tp + fp) AS sm_w_run, MAX(tp) AS sm_pos_run, MAX(sm_pos + sm_neg) AS sm_w_all, MAX(sm_pos) AS sm_pos_all,
         SUM(sm_tp_at + sm_fp_at) AS sm_w_in, SUM(sm_tp_at) AS sm_pos_in,
         MIN(threshold) AS sm_lowest, CAST(SUM(sm_n_at) AS BIGINT) AS n, CAST(SUM(sm_n_pos_at) AS BIGINT) AS n_pos
  FROM (
    SELECT sm_points.*,
           CAST(CASE WHEN FLOOR({{ above }}) >= {{ n_bins }} THEN {{ n_bins }} ELSE FLOOR({{ above }}) + 1 END AS BIGINT) AS sm_bin
    FROM sm_points
  ) AS sm_binned
  GROUP BY {{ sqlmetrics.cols(by) }} sm_bin
) AS sm_per_bin
{% endmacro %}
