{#- Label counts per fixed score bucket: the mergeable summary behind approximate AUC.
    The buckets are `bins` equal-width intervals of [lower, upper]: bucket b holds
    lower + b*w <= score < lower + (b+1)*w, w = (upper - lower) / bins (the last one holds upper
    too); scores below lower (above upper, -inf and +inf included) are counted in the first (last)
    bucket. They depend on (bins, lower, upper) alone, never on the data, so histograms of
    different days or partitions made with the same three can be stacked (UNION ALL) and passed to
    histogram_auc. Only buckets holding rows are returned. -#}
{% macro score_histogram(relation, label, score, bins=1000, lower=0.0, upper=1.0, weight=none, by=[]) %}
{%- if not bins >= 1 %}{{ sqlmetrics.fail('score_histogram needs bins >= 1; got ' ~ bins) }}{% endif %}
{%- if not upper > lower %}{{ sqlmetrics.fail('score_histogram needs lower < upper; got lower=' ~ lower ~ ', upper=' ~ upper) }}{% endif %}
{%- set s = sqlmetrics.as_double(sqlmetrics.ident(score)) %}
{%- set lo = sqlmetrics.as_double(lower) %}
{%- set hi = sqlmetrics.as_double(upper) %}
{%- set carried = (by + [label]) | unique | list %}
SELECT {{ sqlmetrics.cols(by) }}
       sm_bucket AS bucket,
       {{ lo }} + sm_bucket * ({{ hi }} - {{ lo }}) / {{ bins }} AS low,
       {{ lo }} + (sm_bucket + 1) * ({{ hi }} - {{ lo }}) / {{ bins }} AS high,
       CAST(SUM(sm_rows) AS BIGINT) AS n,
       CAST(SUM(sm_pos * sm_rows) AS BIGINT) AS n_pos,
       {{ sqlmetrics.as_double('SUM(sm_pos * sm_weight)') }} AS w_pos,
       {{ sqlmetrics.as_double('SUM((1 - sm_pos) * sm_weight)') }} AS w_neg
FROM (
  SELECT {{ sqlmetrics.cols(by) }} sm_bucket, sm_rows, sm_weight, {{ sqlmetrics.is_positive(label) }} AS sm_pos
  FROM (
    {#- grouped by label as well: the label's test runs once per group, not once per row #}
    SELECT {{ sqlmetrics.cols(carried) }}
           sm_bucket,
           COUNT(*) AS sm_rows,
           {% if weight %}SUM(sm_w){% else %}COUNT(*){% endif %} AS sm_weight
    FROM (
      {#- only the columns the metric reads leave the relation: another one could be named like ours #}
      SELECT {{ sqlmetrics.cols(carried) }}
             {% if weight %}{{ sqlmetrics.row_weight(weight) }} AS sm_w,{% endif %}
             CAST({{ sqlmetrics.equal_width_bucket(s, lo, hi, bins) }} AS BIGINT) AS sm_bucket
      FROM {{ relation }}
    ) AS sm_bucketed
    GROUP BY {{ sqlmetrics.cols(carried) }}sm_bucket
  ) AS sm_labelled
) AS sm_by_label
GROUP BY {{ sqlmetrics.cols(by) }}sm_bucket
ORDER BY {{ sqlmetrics.cols(by) }}sm_bucket
{% endmacro %}
