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
{%- set pos = sqlmetrics.is_positive(label) %}
SELECT {{ sqlmetrics.cols(by) }}
       sm_bucket AS bucket,
       {{ lo }} + sm_bucket * ({{ hi }} - {{ lo }}) / {{ bins }} AS low,
       {{ lo }} + (sm_bucket + 1) * ({{ hi }} - {{ lo }}) / {{ bins }} AS high,
       CAST(COUNT(*) AS BIGINT) AS n,
       CAST(SUM({{ pos }}) AS BIGINT) AS n_pos,
       {{ sqlmetrics.weight_sums(pos, weight, '') }}
FROM (
  SELECT sm_input.*,
         CAST({{ sqlmetrics.equal_width_bucket(s, lo, hi, bins) }} AS BIGINT) AS sm_bucket
  FROM {{ relation }} AS sm_input
) AS sm_bucketed
GROUP BY {{ sqlmetrics.cols(by) }}sm_bucket
ORDER BY {{ sqlmetrics.cols(by) }}sm_bucket
{% endmacro %}
