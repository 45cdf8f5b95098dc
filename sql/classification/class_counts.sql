{#- The building blocks of the multi-class metrics: everything comes from one GROUP BY of the rows
    by (slice, true class, predicted class), the confusion matrix, whose rows are few (at most the
    square of the classes per slice); what follows runs on it, never on the rows again. The classes
    of a slice are those true or predicted in it (the union, sklearn's default `labels`), rows of
    zero weight included. -#}

{#- The confusion matrix of each slice, one row per cell (sm_true, sm_pred): sm_n its count (weight
    sum when weighted), sm_rows its rows. A NULL class fails the query (sklearn has no NULL class). -#}
{% macro class_cells(relation, label, prediction, weight, by) %}
{%- set y = sqlmetrics.ident(label) %}
{%- set p = sqlmetrics.ident(prediction) %}
{%- set missing %}{{ y }} IS NULL OR {{ p }} IS NULL{% endset %}
{%- set w %}CASE WHEN {{ missing }} THEN {{ sqlmetrics.as_double(sqlmetrics.invalid_value('a true or predicted class must not be NULL', y, missing)) }} ELSE {{ sqlmetrics.row_weight(weight) }} END{% endset %}
SELECT {{ sqlmetrics.cols(by) }} {{ y }} AS sm_true, {{ p }} AS sm_pred,
       {{ sqlmetrics.tally('SUM(' ~ w ~ ')', weight) }} AS sm_n, COUNT(*) AS sm_rows
FROM {{ relation }}
GROUP BY {{ sqlmetrics.cols(by) }} {{ y }}, {{ p }}
{% endmacro %}

{#- The cells of the confusion matrix, each twice: sm_side 0 stands for its true class (sm_class =
    sm_true), sm_side 1 for its predicted class (sm_class = sm_pred), so that one GROUP BY (or
    window) by sm_class sums a class's row (true counts) and column (predicted counts) of the matrix
    without a second read of the cells (ClickHouse computes a CTE read twice twice). -#}
{% macro class_sides(relation, label, prediction, weight, by) %}
SELECT {{ sqlmetrics.qualified_cols(by, 'sm_cells') }}
       sm_sides.sm_side AS sm_side,
       CASE WHEN sm_sides.sm_side = 0 THEN sm_cells.sm_true ELSE sm_cells.sm_pred END AS sm_class,
       sm_cells.sm_true AS sm_true, sm_cells.sm_pred AS sm_pred, sm_cells.sm_n AS sm_n, sm_cells.sm_rows AS sm_rows
FROM ({{ sqlmetrics.class_cells(relation, label, prediction, weight, by) }}) AS sm_cells
CROSS JOIN (SELECT 0 AS sm_side UNION ALL SELECT 1 AS sm_side) AS sm_sides
{% endmacro %}

{#- One row per class of each slice: its one-vs-rest counts sm_tp, sm_fp, sm_fn, sm_tn (counts, or
    weight sums), sm_support = sm_tp + sm_fn (the class's true count), and sm_rows, the rows of the
    slice. -#}
{% macro class_counts(relation, label, prediction, weight, by) %}
{%- set slice %}OVER ({{ sqlmetrics.partition_by(by) }}){% endset %}
SELECT {{ sqlmetrics.cols(by) }} sm_class, sm_tp, sm_predicted - sm_tp AS sm_fp, sm_support - sm_tp AS sm_fn,
       {{ sqlmetrics.tally('SUM(sm_support) ' ~ slice, weight) }} - (sm_support + sm_predicted - sm_tp) AS sm_tn,
       sm_support, {{ sqlmetrics.tally('SUM(sm_class_rows) ' ~ slice, none) }} AS sm_rows
FROM (
  SELECT {{ sqlmetrics.cols(by) }} sm_class,
         {{ sqlmetrics.tally('SUM(CASE WHEN sm_side = 0 THEN sm_n ELSE 0 END)', weight) }} AS sm_support,
         {{ sqlmetrics.tally('SUM(CASE WHEN sm_side = 1 THEN sm_n ELSE 0 END)', weight) }} AS sm_predicted,
         {{ sqlmetrics.tally('SUM(CASE WHEN sm_side = 0 AND sm_true = sm_pred THEN sm_n ELSE 0 END)', weight) }} AS sm_tp,
         {{ sqlmetrics.tally('SUM(CASE WHEN sm_side = 0 THEN sm_rows ELSE 0 END)', none) }} AS sm_class_rows
  FROM ({{ sqlmetrics.class_sides(relation, label, prediction, weight, by) }}) AS sm_sides
  GROUP BY {{ sqlmetrics.cols(by) }} sm_class
) AS sm_classes
{% endmacro %}

{#- A class value `x` (of column `label`'s type) as it sorts in numpy (np.unique, the order of
    sklearn's classes): numbers by value, text byte by byte (code point order). dbt does not know
    the column's type: there text sorts in the column's collation. -#}
{% macro class_order(x, label) -%}
{%- if sqlmetrics.column_type(label) == 'text' %}{{ sqlmetrics.bytewise(x) }}{% else %}{{ x }}{% endif -%}
{%- endmacro %}
