{#- Top-k accuracy = (1/W) sum over examples of w * [the true class is among the k classes of highest
    score]. Ties as sklearn's top_k_accuracy_score (a stable argsort of the scores, reversed): of
    equal scores, the class later in the sorted class labels ranks first. So the true class t is
    in the top k iff fewer than k classes have a higher score, or the same score and a label
    after t. With two classes, as sklearn's binary form (the later class's probability above 0.5:
    top_k_accuracy_score(y, P[:, 1])): a tie goes to the earlier class.
    Reference: sklearn.metrics.top_k_accuracy_score(y, P, k=k, labels=classes, sample_weight=w). -#}
{% macro top_k_accuracy(relation, example='example', class_='class', score='score', label=none, labels=none,
                        weight=none, k=2, by=[]) %}
{#- a class tied with the true one is ahead of it when it comes later in sorted order, or with two
    classes earlier (the class is never the true one here: "later" <> "two classes") #}
{%- set ahead -%}
sm_score > sm_true_score
OR (sm_score = sm_true_score
    AND ({{ sqlmetrics.class_order('sm_class', class_) }} > {{ sqlmetrics.class_order('sm_label', class_) }})
        <> ({{ sqlmetrics.class_count(relation, class_) }} = 2))
{%- endset %}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('SUM(sm_example_w * sm_hit)', 'SUM(sm_example_w)') }} AS top_k_accuracy,
       COUNT(*) AS n,
       CAST({{ sqlmetrics.class_count(relation, class_) }} AS BIGINT) AS n_classes
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         MAX(sm_w) AS sm_example_w,
         CASE WHEN SUM(sm_ahead) < {{ k }} THEN 1 ELSE 0 END AS sm_hit
  FROM (
    SELECT {{ sqlmetrics.cols(by) }} sm_example, sm_w,
           CASE WHEN sm_true = 1 THEN 0 WHEN {{ ahead }} THEN 1 ELSE 0 END AS sm_ahead
    FROM ({{ sqlmetrics.class_rows(relation, example, class_, score, label, labels, weight, by, true_score=true) }}) AS sm_rows
  ) AS sm_compared
  GROUP BY {{ sqlmetrics.cols(by) }}sm_example
) AS sm_examples
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
