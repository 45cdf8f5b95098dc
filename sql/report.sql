{#- The classification metrics of `relation` as one row each, as `sqlmetrics report` has them (the
    same metrics, order and defaults: sqlmetrics/report.py): metric (text), value (a double; NULL
    where the metric is undefined on the data), n (the rows), n_pos and n_neg (the positive and
    negative rows, where the metric's own result has them: NULL for ece and the metrics at the
    threshold). gauc only with `group`; the metrics of probabilities (log_loss, brier_score,
    calibration, ece) only with probabilities=true: on raw scores (logits, ranks) they fail or mean
    nothing, and dbt runs no check of the values to tell.
    One statement reading `relation` once: its columns in a CTE (sm_input_data, materialized where
    the engine would otherwise read the relation at each reference), each metric's macro over that
    CTE as a derived table of one row, the rows by UNION ALL (in no set order). A metric's macro
    may have a WITH of its own, which must see the outer CTE: where a nested WITH cannot (MariaDB),
    the report stops with a compilation error. -#}
{% macro report(relation, label, score, weight=none, group=none, threshold=0.5, n_bins=5, strategy='uniform', probabilities=true) %}
{%- if not sqlmetrics.nested_with() %}
{{- sqlmetrics.fail("report reads the relation once through a CTE, which a WITH nested in a derived table cannot "
                    "see on this engine (MariaDB): call the metric macros one by one (sqlmetrics.auc(...), ...)") }}
{%- endif %}
{%- set data = 'sm_input_data' %}
{%- set columns = [label, score] + ([weight] if weight else []) + ([group] if group else []) %}
{#- (name, the macro's SQL over the CTE, whether its result has n_pos and n_neg) in the report's order -#}
{%- set metrics = [('auc', sqlmetrics.auc(data, label, score, weight), true),
                   ('gini', sqlmetrics.gini(data, label, score, weight), true),
                   ('average_precision', sqlmetrics.average_precision(data, label, score, weight), true)] %}
{%- if group %}
{%- set metrics = metrics + [('gauc', sqlmetrics.gauc(data, label, score, group, weight), true)] %}
{%- endif %}
{%- if probabilities %}
{%- set metrics = metrics + [('log_loss', sqlmetrics.log_loss(data, label, score, weight), true),
                             ('brier_score', sqlmetrics.brier_score(data, label, score, weight), true),
                             ('calibration', sqlmetrics.calibration(data, label, score, weight), true),
                             ('ece', sqlmetrics.ece(data, label, score, weight, n_bins=n_bins, strategy=strategy), false)] %}
{%- endif %}
{%- set metrics = metrics + [('precision', sqlmetrics.precision(data, label, score, threshold, weight=weight), false),
                             ('recall', sqlmetrics.recall(data, label, score, threshold, weight=weight), false),
                             ('f1', sqlmetrics.f1(data, label, score, threshold, weight=weight), false),
                             ('accuracy', sqlmetrics.accuracy(data, label, score, threshold, weight=weight), false)] %}
{#- the value column as its macro names it: these quoted (keywords on some engines), the others bare
    (a bare name is folded, to upper case on Snowflake, and a quoted one is not) -#}
{%- set quoted = ['precision', 'recall', 'accuracy'] %}
WITH sm_input_data AS {% if sqlmetrics.materialized_cte() %}MATERIALIZED {% endif %}(
  SELECT {{ sqlmetrics.col_list(columns | unique | list) }} FROM {{ relation }}
)
{%- for name, sql, counted in metrics %}
SELECT '{{ name }}' AS metric, {{ sqlmetrics.as_double(sqlmetrics.ident(name) if name in quoted else name) }} AS value, n,
       {{ 'n_pos, n_neg' if counted else 'CAST(NULL AS BIGINT) AS n_pos, CAST(NULL AS BIGINT) AS n_neg' }}
FROM ({{ sql }}) AS sm_{{ name }}
{%- if not loop.last %}
UNION ALL
{%- endif %}
{%- endfor %}
{% endmacro %}

{#- Whether a CTE is written AS MATERIALIZED, so that it is computed once for all its references: a
    fact, not SQL (its spellings return a boolean). PostgreSQL, DuckDB and SQLite are otherwise free
    to inline it at each reference, reading the relation once per metric (the Python layer's
    Capabilities.input_once says "materialized" for PostgreSQL and SQLite); elsewhere there is no
    such keyword (Redshift, built on PostgreSQL's adapter, has none), and the CTE is written plainly. -#}
{% macro materialized_cte() -%}
{{ return(adapter.dispatch('materialized_cte', 'sqlmetrics')()) }}
{%- endmacro %}

{% macro default__materialized_cte() -%}
{{ return(false) }}
{%- endmacro %}

{% macro duckdb__materialized_cte() -%}
{{ return(true) }}
{%- endmacro %}

{% macro postgres__materialized_cte() -%}
{{ return(true) }}
{%- endmacro %}

{% macro redshift__materialized_cte() -%}
{{ return(false) }}
{%- endmacro %}

{% macro sqlite__materialized_cte() -%}
{{ return(true) }}
{%- endmacro %}

{#- Whether a WITH inside a derived table sees the names of the WITH around it: a fact (the Python
    layer's Capabilities.nested_with). MariaDB's does not (MySQL 8's does; dbt's mysql adapter is
    used for both). -#}
{% macro nested_with() -%}
{{ return(adapter.dispatch('nested_with', 'sqlmetrics')()) }}
{%- endmacro %}

{% macro default__nested_with() -%}
{{ return(true) }}
{%- endmacro %}

{% macro mysql__nested_with() -%}
{{ return(false) }}
{%- endmacro %}
