{#- Label counts per fixed score bucket: the mergeable summary behind approximate AUC.
    The buckets are `bins` equal-width intervals of [lower, upper]: bucket b holds
    lower + b*w <= score < lower + (b+1)*w, w = (upper - lower) / bins (the last one holds upper
    too); scores below lower (above upper, -inf and +inf included) are counted in the first (last)
    bucket. They depend on (bins, lower, upper) alone, never on the data, so histograms of
    different days or partitions made with the same three can be stacked (UNION ALL) and passed to
    histogram_auc. Only buckets holding rows are returned. -#}
{% macro score_histogram(relation, label, score, bins=1000, lower=0.0, upper=1.0, weight=none, by=[]) %}
{%- if not upper > lower %}{{ sqlmetrics.fail('score_histogram needs lower < upper; got lower=' ~ lower ~ ', upper=' ~ upper) }}{% endif %}
{%- set s = sqlmetrics.as_double(sqlmetrics.ident(score)) %}
{%- set lo = sqlmetrics.as_double(lower) %}
{%- set width = '(' ~ sqlmetrics.as_double(upper) ~ ' - ' ~ lo ~ ')' %}
{%- set cell = 'FLOOR((' ~ s ~ ' - ' ~ lo ~ ') / ' ~ width ~ ' * ' ~ bins ~ ')' %}
{%- set pos = sqlmetrics.is_positive(label) %}
SELECT {{ sqlmetrics.cols(by) }}
       sm_bucket AS bucket,
       {{ lo }} + sm_bucket * {{ width }} / {{ bins }} AS low,
       {{ lo }} + (sm_bucket + 1) * {{ width }} / {{ bins }} AS high,
       CAST(COUNT(*) AS BIGINT) AS n,
       CAST(SUM({{ pos }}) AS BIGINT) AS n_pos,
       SUM({{ pos }} * {{ sqlmetrics.row_weight(weight) }}) AS w_pos,
       SUM((1 - {{ pos }}) * {{ sqlmetrics.row_weight(weight) }}) AS w_neg
FROM (
  SELECT sm_input.*,
         CAST(CASE WHEN {{ s }} < {{ lo }} THEN 0
                   WHEN {{ s }} >= {{ sqlmetrics.as_double(upper) }} OR {{ cell }} >= {{ bins }} THEN {{ bins - 1 }}
                   ELSE {{ cell }} END AS BIGINT) AS sm_bucket
  FROM {{ relation }} AS sm_input
) AS sm_bucketed
GROUP BY {{ sqlmetrics.cols(by) }}sm_bucket
ORDER BY {{ sqlmetrics.cols(by) }}sm_bucket
{% endmacro %}
