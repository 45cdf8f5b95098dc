{#- The rows of a long table of class scores (one row per example and class), for the multi-class
    metrics from scores: the slice columns `by`, sm_example, sm_class, sm_score (DOUBLE), sm_label
    (the example's true class: the `label` column, or the `label` column of `labels` matched on
    the example), sm_w (the example's weight, 1 when unweighted) and sm_true: 1 on the row of the
    true class, else 0. With true_score, also sm_true_score: the true class's score, on every row
    of the example. With pairs (a SELECT of sm_a, sm_b, sm_neg), each row joined with the pairs
    whose (sm_a, sm_b) is (its class, its label): sm_neg (multiclass_auc's one-vs-one pairs; a
    join here, not around, keeps SQLite's parser within its depth).
    An example is identified by `example` within its slice. sm_true fails the query
    (invalid_value) for an example that cannot give a right answer: a label that differs between
    its rows, no or several rows in `labels`, fewer rows than the table has classes (the class set
    is the table's distinct classes; with unique (example, class), a missing class), a label that
    is not one of the classes, a weight that differs between its rows, and with sums_to_one,
    scores that do not sum to 1 within 1e-6. sqlmetrics.consistency finds the same first, naming
    the example. The windows are partitioned by the example, which has many values. -#}
{% macro class_rows(relation, example, class_, score, label, labels, weight, by, sums_to_one=false, true_score=false,
                    pairs=none) %}
{%- if (label is none) == (labels is none) %}{{ sqlmetrics.fail('give exactly one of label (a column of the scores) or labels (a table of example and label)') }}{% endif %}
{%- set example_column %}sm_input.{{ sqlmetrics.ident(example) }}{% endset %}
{%- set class_column %}sm_input.{{ sqlmetrics.ident(class_) }}{% endset %}
{%- if labels is none %}
{%- set label_column %}sm_input.{{ sqlmetrics.ident(label) }}{% endset %}
{%- set label_rows = '1' %}
{%- else %}
{%- set label_column = 'sm_given.sm_given_label' %}
{#- an unmatched example counts 0 labels (ClickHouse fills the unmatched side with 0, not NULL) #}
{%- set label_rows = 'COALESCE(sm_given.sm_label_rows, 0)' %}
{%- endif %}
{%- set weight_column = sqlmetrics.as_double('sm_input.' ~ sqlmetrics.ident(weight) if weight else 1) %}
{%- set per_example %}OVER (PARTITION BY {% for c in by %}sm_input.{{ sqlmetrics.ident(c) }}, {% endfor %}{{ example_column }}){% endset %}
{%- set is_true %}sm_class = sm_label{% endset %}
{%- set label_varies %}sm_label_lo <> sm_label_hi{% endset %}
{%- set label_count %}sm_n_labels <> 1{% endset %}
{%- set incomplete %}sm_rows <> {{ sqlmetrics.class_count(relation, class_) }}{% endset %}
{%- set not_a_class %}sm_true_rows <> 1{% endset %}
{%- set weight_varies %}sm_w_lo <> sm_w_hi{% endset %}
{%- set not_one %}ABS(sm_score_sum - 1) > 1e-6{% endset %}
{%- set truth -%}
CASE WHEN {{ label_varies }}
     THEN {{ sqlmetrics.invalid_value('the label differs between the rows of an example; example', 'sm_example', label_varies) }}
     WHEN {{ label_count }}
     THEN {{ sqlmetrics.invalid_value('labels must have exactly one row per example; example', 'sm_example', label_count) }}
     WHEN {{ incomplete }}
     THEN {{ sqlmetrics.invalid_value('an example lacks a row for a class of the table (each example needs one row per class); example', 'sm_example', incomplete) }}
     WHEN {{ not_a_class }}
     THEN {{ sqlmetrics.invalid_value('the label of an example is not one of the classes of the table; label', 'sm_label', not_a_class) }}
     {%- if weight %}
     WHEN {{ weight_varies }}
     THEN {{ sqlmetrics.invalid_value('the weight differs between the rows of an example; example', 'sm_example', weight_varies) }}
     {%- endif %}
     {%- if sums_to_one %}
     WHEN {{ not_one }}
     THEN {{ sqlmetrics.invalid_value('the scores of an example must be probabilities summing to 1 within 1e-6; their sum', 'sm_score_sum', not_one) }}
     {%- endif %}
     WHEN {{ is_true }} THEN 1 ELSE 0 END
{%- endset %}
SELECT {{ sqlmetrics.cols(by) }} sm_example, sm_class, sm_score, sm_label, sm_w,
       {%- if true_score %} sm_true_score,{% endif %}
       {{ truth }} AS sm_true
       {%- if pairs %}, sm_pairs.sm_neg{% endif %}
FROM (
  SELECT {{ sqlmetrics.qualified_cols(by, 'sm_input') }}
         {{ example_column }} AS sm_example,
         {{ class_column }} AS sm_class,
         {{ sqlmetrics.as_double('sm_input.' ~ sqlmetrics.ident(score)) }} AS sm_score,
         {{ label_column }} AS sm_label,
         {{ label_rows }} AS sm_n_labels,
         {{ weight_column }} AS sm_w,
         COUNT(*) {{ per_example }} AS sm_rows,
         MIN({{ label_column }}) {{ per_example }} AS sm_label_lo,
         MAX({{ label_column }}) {{ per_example }} AS sm_label_hi,
         SUM(CASE WHEN {{ class_column }} = {{ label_column }} THEN 1 ELSE 0 END) {{ per_example }} AS sm_true_rows
         {%- if weight %},
         MIN({{ weight_column }}) {{ per_example }} AS sm_w_lo,
         MAX({{ weight_column }}) {{ per_example }} AS sm_w_hi
         {%- endif %}
         {%- if sums_to_one %},
         SUM({{ sqlmetrics.as_double('sm_input.' ~ sqlmetrics.ident(score)) }}) {{ per_example }} AS sm_score_sum
         {%- endif %}
         {%- if true_score %},
         MAX(CASE WHEN {{ class_column }} = {{ label_column }} THEN {{ sqlmetrics.as_double('sm_input.' ~ sqlmetrics.ident(score)) }} END) {{ per_example }} AS sm_true_score
         {%- endif %}
  FROM {{ relation }} AS sm_input
  {%- if labels is not none %}
  LEFT JOIN (
    SELECT {{ sqlmetrics.ident(example) }} AS sm_given_example,
           MIN({{ sqlmetrics.ident('label') }}) AS sm_given_label,
           COUNT(*) AS sm_label_rows
    FROM {{ labels }}
    GROUP BY {{ sqlmetrics.ident(example) }}
  ) AS sm_given
    ON {{ example_column }} = sm_given.sm_given_example
  {%- endif %}
) AS sm_per_example
{%- if pairs %}
{#- a LEFT JOIN: every row reaches sm_true's checks (a valid row always has its pairs) #}
LEFT JOIN ({{ pairs }}) AS sm_pairs
  ON sm_per_example.sm_class = sm_pairs.sm_a AND sm_per_example.sm_label = sm_pairs.sm_b
{%- endif %}
{% endmacro %}

{#- The number of classes of the table: its distinct values of `class_`. -#}
{% macro class_count(relation, class_) -%}
(SELECT COUNT(DISTINCT {{ sqlmetrics.ident(class_) }}) FROM {{ relation }})
{%- endmacro %}

