{#- The bins of drift_statistics, one row each: per slice `by` and column (column_index, its position in
    `columns` then `categorical`, from 1), each bin either window has (bin: a numeric column's, from 0,
    its range low..high the smallest and largest value of either window in it; category: a categorical
    column's value, as text), with each window's count and share (weighted) of the column's values.
    The bins and their options are drift_statistics' (sql/drift/binned_windows.sql): what moved, bin by
    bin, and the data of sqlmetrics drift --plot. -#}
{% macro drift_bins(relation, current, columns=[], categorical=[], binning='quantile', n_bins=10, edges=none,
                    weight=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- set whole %}OVER ({{ sqlmetrics.partition_by(by + ['sm_column']) }}){% endset %}
{{ sqlmetrics.drift_windows('drift_bins', relation, current, columns, categorical, binning, n_bins, edges, weight, by,
                            plan) }}
SELECT {{ sqlmetrics.cols(by) }} sm_column + 1 AS column_index, CAST(sm_bin AS BIGINT) AS bin, sm_category AS category,
       sm_low AS low, sm_high AS high, CAST(sm_n_ref AS BIGINT) AS n_reference, CAST(sm_n_cur AS BIGINT) AS n_current,
       {{ sqlmetrics.fdiv('sm_w_ref', 'SUM(sm_w_ref) ' ~ whole) }} AS share_reference,
       {{ sqlmetrics.fdiv('sm_w_cur', 'SUM(sm_w_cur) ' ~ whole) }} AS share_current
FROM sm_bins
ORDER BY {{ sqlmetrics.cols(by) }} column_index, bin, category
{% endmacro %}
