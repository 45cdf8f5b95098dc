{#- The rows of a long table of class scores (one row per example and class), for the multi-class
    metrics from scores: the slice columns `by`, sm_example, sm_class, sm_score (DOUBLE), sm_label
    (the example's true class: the `label` column, or the `label` column of `labels` matched on
    the example), sm_w (the example's weight, 1 when unweighted) and sm_true: 1 on the row of the
    true class, else 0. With true_score, also sm_true_score: the true class's score, on every row
    of the example.
    An example is identified by `example` within its slice. sm_true fails the query
    (invalid_value) for an example that cannot give a right answer: a label that differs between
    its rows, no or several rows in `labels`, fewer rows than the table has classes (the class set
    is the table's distinct classes; with unique (example, class), a missing class), a label that
    is not one of the classes, a weight that differs between its rows, and with sums_to_one,
    scores that do not sum to 1 within 1e-6. sqlmetrics.consistency finds the same first, naming
    the example. The windows are partitioned by the example, which has many values. -#}
{% macro class_rows(relation, example, class_, score, label, labels, weight, by, sums_to_one=false, true_score=false) %}
{%- if (label is none) == (labels is none) %}{{ sqlmetrics.fail('give exactly one of label (a column of the scores) or labels (a table of example and label)') }}{% endif %}
{%- set per_example %}OVER ({{ sqlmetrics.partition_by(by + ['sm_example']) }}){% endset %}
{%- set is_true %}sm_class = sm_label{% endset %}
{%- set label_varies %}sm_label_lo <> sm_label_hi{% endset %}
{%- set label_count %}sm_n_labels <> 1{% endset %}
{%- set incomplete %}sm_rows <> {{ sqlmetrics.class_count(relation, class_) }}{% endset %}
{%- set not_a_class %}sm_true_rows <> 1{% endset %}
{%- set weight_varies %}sm_w_lo <> sm_w_hi{% endset %}
{%- set not_one %}ABS(sm_score_sum - 1) > 1e-6{% endset %}
SELECT {{ sqlmetrics.cols(by) }} sm_example, sm_class, sm_score, sm_label, sm_w,
       {%- if true_score %} sm_true_score,{% endif %}
       CASE WHEN {{ label_varies }}
            THEN {{ sqlmetrics.invalid_value('the label differs between the rows of an example; example', 'sm_example', label_varies) }}
            WHEN {{ label_count }}
            THEN {{ sqlmetrics.invalid_value('labels must have exactly one row per example; example', 'sm_example', label_count) }}
            WHEN {{ incomplete }}
            THEN {{ sqlmetrics.invalid_value('an example lacks a row for a class of the table (each example needs one row per class); example', 'sm_example', incomplete) }}
            WHEN {{ not_a_class }}
            THEN {{ sqlmetrics.invalid_value('the label of an example is not one of the classes of the table; label', 'sm_label', not_a_class) }}
            WHEN {{ weight_varies }}
            THEN {{ sqlmetrics.invalid_value('the weight differs between the rows of an example; example', 'sm_example', weight_varies) }}
            {%- if sums_to_one %}
            WHEN {{ not_one }}
            THEN {{ sqlmetrics.invalid_value('the scores of an example must be probabilities summing to 1 within 1e-6; their sum', 'sm_score_sum', not_one) }}
            {%- endif %}
            WHEN {{ is_true }} THEN 1 ELSE 0 END AS sm_true
FROM (
  SELECT sm_labelled.*,
         COUNT(*) {{ per_example }} AS sm_rows,
         MIN(sm_label) {{ per_example }} AS sm_label_lo,
         MAX(sm_label) {{ per_example }} AS sm_label_hi,
         SUM(CASE WHEN {{ is_true }} THEN 1 ELSE 0 END) {{ per_example }} AS sm_true_rows,
         MIN(sm_w) {{ per_example }} AS sm_w_lo,
         MAX(sm_w) {{ per_example }} AS sm_w_hi
         {%- if sums_to_one %},
         SUM(sm_score) {{ per_example }} AS sm_score_sum
         {%- endif %}
         {%- if true_score %},
         MAX(CASE WHEN {{ is_true }} THEN sm_score END) {{ per_example }} AS sm_true_score
         {%- endif %}
  FROM (
    SELECT {{ sqlmetrics.qualified_cols(by, 'sm_input') }}
           sm_input.{{ sqlmetrics.ident(example) }} AS sm_example,
           sm_input.{{ sqlmetrics.ident(class_) }} AS sm_class,
           {{ sqlmetrics.as_double('sm_input.' ~ sqlmetrics.ident(score)) }} AS sm_score,
           {%- if labels is none %}
           sm_input.{{ sqlmetrics.ident(label) }} AS sm_label,
           1 AS sm_n_labels,
           {%- else %}
           sm_given.sm_given_label AS sm_label,
           {#- an unmatched example counts 0 labels (ClickHouse fills the unmatched side with 0, not NULL) #}
           COALESCE(sm_given.sm_label_rows, 0) AS sm_n_labels,
           {%- endif %}
           {{ sqlmetrics.as_double('sm_input.' ~ sqlmetrics.ident(weight) if weight else 1) }} AS sm_w
    FROM {{ relation }} AS sm_input
    {%- if labels is not none %}
    LEFT JOIN (
      SELECT {{ sqlmetrics.ident(example) }} AS sm_given_example,
             MIN({{ sqlmetrics.ident('label') }}) AS sm_given_label,
             COUNT(*) AS sm_label_rows
      FROM {{ labels }}
      GROUP BY {{ sqlmetrics.ident(example) }}
    ) AS sm_given
      ON sm_input.{{ sqlmetrics.ident(example) }} = sm_given.sm_given_example
    {%- endif %}
  ) AS sm_labelled
) AS sm_per_example
{% endmacro %}

{#- The number of classes of the table: its distinct values of `class_`. -#}
{% macro class_count(relation, class_) -%}
(SELECT COUNT(DISTINCT {{ sqlmetrics.ident(class_) }}) FROM {{ relation }})
{%- endmacro %}

{#- `x`, a class, in the order of sorted class labels (numpy's, as sklearn sorts them): numbers as
    numbers, text in byte (code point) order whatever the column's collation. The type is known
    to the Python layer; in dbt (unknown) the column's own order. -#}
{% macro class_order(x, class_) -%}
{%- if sqlmetrics.column_type(class_) == 'text' %}{{ sqlmetrics.bytewise(x) }}{% else %}{{ x }}{% endif -%}
{%- endmacro %}
