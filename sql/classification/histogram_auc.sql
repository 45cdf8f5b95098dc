{#- AUC, with its guaranteed error bound, from score bucket counts: score_histogram's output, or
    the UNION ALL of several made with the same bins, lower and upper (rows of one bucket are added
    up first, so stacking days merges them). Buckets rank by `bucket`; a positive-negative pair
    sharing a bucket counts 1/2 where the rows' true order makes it 0 or 1, so the exact AUC of the
    rows behind the histogram lies within error_bound of the value. -#}
{% macro histogram_auc(relation, bucket='bucket', n='n', n_pos='n_pos', w_pos='w_pos', w_neg='w_neg', by=[]) %}
{%- set sums %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.ident(bucket) }} AS sm_s,
       SUM({{ sqlmetrics.ident(n) }}) AS sm_n,
       SUM({{ sqlmetrics.ident(n_pos) }}) AS sm_n_pos,
       SUM({{ sqlmetrics.as_double(sqlmetrics.ident(w_pos)) }}) AS sm_w_pos,
       SUM({{ sqlmetrics.as_double(sqlmetrics.ident(w_neg)) }}) AS sm_w_neg
FROM {{ relation }}
GROUP BY {{ sqlmetrics.cols(by) }}{{ sqlmetrics.ident(bucket) }}
{%- endset %}
{{ sqlmetrics.auc_result(sqlmetrics.auc_parts_from_sums(sums, by), by, 'histogram_auc', exact=false) }}
{% endmacro %}
