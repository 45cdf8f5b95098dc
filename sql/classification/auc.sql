{#- AUC = P(score of a positive > score of a negative) + 1/2 * P(equal), pairs weighted w_i*w_j.
    NULL (undefined) when a slice lacks positives or negatives. Reference: sklearn roc_auc_score.

    bins=N (approximate, O(n), no sort of the rows): scores are bucketed into N equal-width bins
    between the slice's smallest and largest finite score (-inf and +inf get buckets of their own)
    and AUC is computed on the buckets, pairs sharing a bucket counting 1/2. Such a pair truly
    counts 0, 1/2 or 1, so the exact AUC lies within error_bound = 1/2 * (weight of positive-negative
    pairs sharing a bucket) / (W_pos * W_neg) of the value: a guarantee, not an estimate.
    Exact AUC has error_bound 0. -#}
{% macro auc(relation, label, score, weight=none, bins=none, by=[], plan=none) %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- if bins %}
{%- set source %}({{ sqlmetrics.score_buckets(relation, label, score, weight, by, bins, plan) }}) AS sm_bucketed{% endset %}
{{ sqlmetrics.auc_result(sqlmetrics.auc_parts(source, label, 'sm_bucket', weight, by, 'aggregate'), by, 'auc', exact=false) }}
{%- else %}
{{ sqlmetrics.auc_result(sqlmetrics.auc_parts(relation, label, score, weight, by, plan), by, 'auc', exact=true) }}
{%- endif %}
{% endmacro %}

{#- AUC (as column `name`), the counts and error_bound from auc_parts' columns: 0 when exact,
    else half the weight share of the positive-negative pairs sharing a score (a bucket). -#}
{% macro auc_result(parts, by, name, exact) %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('sm_wins', 'sm_w_pos') }} AS {{ name }},
       sm_n AS n, sm_n_pos AS n_pos, sm_n - sm_n_pos AS n_neg,
       {% if exact %}CASE WHEN sm_w_pos > 0 AND sm_w_neg > 0 THEN {{ sqlmetrics.as_double(0) }} END
       {%- else %}0.5 * {{ sqlmetrics.fdiv('sm_ties', 'sm_w_pos') }}{% endif %} AS error_bound
FROM ({{ parts }}) AS sm_parts
{% endmacro %}

{#- The slice columns, label and weight with sm_bucket: the equal-width bin (0 .. bins-1) of the
    score between the slice's smallest and largest finite score; -1 for -inf, bins for +inf. Only
    the columns the metric reads leave `relation` (another one could be named like ours). The range
    of a slice reaches its rows by a window over the slice, or with plan='parallel' by a join with
    the table of slice ranges (a window would gather each slice in one task). -#}
{% macro score_buckets(relation, label, score, weight, by, bins, plan) %}
{%- set s = sqlmetrics.as_double(sqlmetrics.ident(score)) %}
{%- set finite %}{{ s }} > -{{ sqlmetrics.infinity() }} AND {{ s }} < {{ sqlmetrics.infinity() }}{% endset %}
{%- set carried = (by + [label] + ([weight] if weight else [])) | unique | list %}
SELECT {{ sqlmetrics.cols(carried) }}
       CASE WHEN NOT (sm_score > -{{ sqlmetrics.infinity() }} AND sm_score < {{ sqlmetrics.infinity() }})
                 THEN CASE WHEN sm_score < 0 THEN -1 ELSE {{ bins }} END
            WHEN sm_hi > sm_lo THEN {{ sqlmetrics.equal_width_bucket('sm_score', 'sm_lo', 'sm_hi', bins) }}
            ELSE 0 END AS sm_bucket
FROM (
  SELECT {% for c in carried %}sm_input.{{ sqlmetrics.ident(c) }}, {% endfor %}
         {{ s }} AS sm_score,
  {%- if by and plan == 'parallel' %}
         sm_ranges.sm_lo, sm_ranges.sm_hi
  FROM {{ relation }} AS sm_input
  JOIN (
    SELECT {{ sqlmetrics.cols(by) }}
           MIN(CASE WHEN {{ finite }} THEN {{ s }} END) AS sm_lo,
           MAX(CASE WHEN {{ finite }} THEN {{ s }} END) AS sm_hi
    FROM {{ relation }}
    {{ sqlmetrics.group_by(by) }}
  ) AS sm_ranges
    ON {{ sqlmetrics.null_safe_join_on(by, 'sm_input', 'sm_ranges') }}
  {%- elif by %}
         MIN(CASE WHEN {{ finite }} THEN {{ s }} END) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_lo,
         MAX(CASE WHEN {{ finite }} THEN {{ s }} END) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_hi
  FROM {{ relation }} AS sm_input
  {%- else %}
         (SELECT MIN(CASE WHEN {{ finite }} THEN {{ s }} END) FROM {{ relation }}) AS sm_lo,
         (SELECT MAX(CASE WHEN {{ finite }} THEN {{ s }} END) FROM {{ relation }}) AS sm_hi
  FROM {{ relation }} AS sm_input
  {%- endif %}
) AS sm_ranged
{% endmacro %}
