{#- sklearn's classification_report as a table: one row per class (class, precision, recall, f1,
    support; average NULL), in class order, then one row per average ('micro', 'macro', 'weighted';
    class NULL; support the total), as class_average computes them. sklearn's report has an
    'accuracy' entry instead of 'micro' when every class is reported (always here): it is the micro
    row's f1 (= its precision = its recall). Each class row is copied once per row kind (sm_kind:
    0 the class itself, 1 micro, 2 macro, 3 weighted) and one GROUP BY makes every row: the classes
    are read once. -#}
{% macro classification_report(relation, label, prediction, weight=none, zero_division=none, by=[]) %}
{%- set kinds = {'micro': 1, 'macro': 2, 'weighted': 3} %}
{%- set scores = [(sqlmetrics.precision_of, 'precision', 'sm_p'), (sqlmetrics.recall_of, 'recall', 'sm_r'),
                  (sqlmetrics.f_beta_of, 'f1', 'sm_f')] %}
{%- set key %}CASE WHEN sm_kind = 0 THEN sm_class END{% endset %}
SELECT {{ sqlmetrics.cols(by) }} sm_key AS {{ sqlmetrics.ident('class') }},
       CASE sm_kind {% for name, kind in kinds.items() %}WHEN {{ kind }} THEN '{{ name }}' {% endfor %}END AS {{ sqlmetrics.ident('average') }},
       {%- for score_of, column, m in scores %}
       CASE sm_kind WHEN 0 THEN MAX({{ m }})
            {%- for name, kind in kinds.items() %} WHEN {{ kind }} THEN {{ sqlmetrics.class_mean(name, zero_division, score_of, m) }}{% endfor %}
       END AS {{ sqlmetrics.ident(column) }},
       {%- endfor %}
       {{ sqlmetrics.tally('SUM(sm_support)', weight) }} AS support
FROM (
  SELECT {{ sqlmetrics.cols(by) }} sm_kinds.sm_kind AS sm_kind, {{ key }} AS sm_key, sm_tp, sm_fp, sm_fn, sm_support,
         {%- for score_of, _, m in scores %}
         {{ sqlmetrics.zero_division_value(score_of('sm_tp', 'sm_fp', 'sm_fn', 1.0), zero_division) }} AS {{ m }}{{ ',' if not loop.last }}
         {%- endfor %}
  FROM ({{ sqlmetrics.class_counts(relation, label, prediction, weight, by) }}) AS sm_counts
  CROSS JOIN (SELECT 0 AS sm_kind UNION ALL SELECT 1 AS sm_kind UNION ALL SELECT 2 AS sm_kind UNION ALL SELECT 3 AS sm_kind) AS sm_kinds
) AS sm_rows_by_kind
GROUP BY {{ sqlmetrics.cols(by) }} sm_kind, sm_key
ORDER BY {{ sqlmetrics.cols(by) }} sm_kind, {{ sqlmetrics.class_order('sm_key', label) }}
{% endmacro %}
