{#- Building blocks shared by every metric template: the only place vendor syntax may appear.
    Written to run unchanged as dbt macros: no leading underscores, no top-level set, and calls
    across files go through the package prefix `sqlmetrics.`. Intermediate columns are named sm_*
    (reserved: the Python layer rejects user columns with that prefix).

    The Python layer renders the default__ spellings (DuckDB's) and lets sqlglot transpile them.
    Inside dbt nothing transpiles, so the few helpers whose spelling differs by engine go through
    adapter.dispatch (dbt-utils style): <adapter>__<name> where an engine needs its own spelling,
    default__<name> otherwise. A project can add its own through dbt's `dispatch` config. -#}

{#- Stops with `message`: a compilation error naming the model in dbt. The Python layer validates
    every parameter before rendering, so only a call from dbt can get here. -#}
{% macro fail(message) -%}
{{ exceptions.raise_compiler_error('sqlmetrics: ' ~ message) }}
{%- endmacro %}

{#- A column name, quoted for the engine whatever it contains. (dbt renders a missing argument as
    empty: a metric called without, say, label= stops here rather than querying a column "".) -#}
{% macro ident(name) -%}
{%- if not name %}{{ sqlmetrics.fail('a column name is missing: pass every column argument of the metric (label=, score=, ...)') }}{% endif -%}
{{ adapter.quote(name) }}
{%- endmacro %}

{#- `"a", "b", ` : columns each followed by a comma, to stand before further select items. -#}
{% macro cols(names) -%}
{%- if names is string %}{{ sqlmetrics.fail("by takes a list of columns: by=['" ~ names ~ "']") }}{% endif -%}
{% for c in names %}{{ sqlmetrics.ident(c) }}, {% endfor %}
{%- endmacro %}

{% macro col_list(names) -%}
{%- if names is string %}{{ sqlmetrics.fail("by takes a list of columns: by=['" ~ names ~ "']") }}{% endif -%}
{% for c in names %}{{ sqlmetrics.ident(c) }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}

{% macro partition_by(names) -%}
{% if names %}PARTITION BY {{ sqlmetrics.col_list(names) }}{% endif %}
{%- endmacro %}

{% macro group_by(names) -%}
{% if names %}GROUP BY {{ sqlmetrics.col_list(names) }}{% endif %}
{%- endmacro %}

{#- Float division that yields NULL instead of failing (or truncating) when the denominator is 0. -#}
{% macro fdiv(num, den) -%}
{{ sqlmetrics.as_double(num) }} / NULLIF({{ sqlmetrics.as_double(den) }}, 0)
{%- endmacro %}

{#- x as a 64-bit float. -#}
{% macro as_double(x) -%}
{{ return(adapter.dispatch('as_double', 'sqlmetrics')(x)) }}
{%- endmacro %}

{% macro default__as_double(x) -%}
CAST({{ x }} AS DOUBLE)
{%- endmacro %}

{#- PostgreSQL has no type DOUBLE, only DOUBLE PRECISION (Redshift too):
    https://www.postgresql.org/docs/current/datatype-numeric.html#DATATYPE-FLOAT -#}
{% macro postgres__as_double(x) -%}
CAST({{ x }} AS DOUBLE PRECISION)
{%- endmacro %}

{#- +infinity as a 64-bit float: the threshold of the first point of a curve. -#}
{% macro infinity() -%}
{{ return(adapter.dispatch('infinity', 'sqlmetrics')()) }}
{%- endmacro %}

{% macro default__infinity() -%}
{{ sqlmetrics.as_double("'inf'") }}
{%- endmacro %}

{#- 'Infinity': PostgreSQL's documented spelling, and Redshift's (it falls back to postgres__
    macros), which the Python layer sends it too: https://www.postgresql.org/docs/current/datatype-numeric.html#DATATYPE-FLOAT -#}
{% macro postgres__infinity() -%}
{{ sqlmetrics.as_double("'Infinity'") }}
{%- endmacro %}

{#- 1 for a positive row, else 0; the label (or prediction) column holds 0/1 or booleans (the
    Python layer checks that before rendering; in dbt, test the column with accepted_values). -#}
{% macro is_positive(label) -%}
{{ return(adapter.dispatch('is_positive', 'sqlmetrics')(label)) }}
{%- endmacro %}

{% macro default__is_positive(label) -%}
CASE WHEN {{ sqlmetrics.ident(label) }} = 1 THEN 1 ELSE 0 END
{%- endmacro %}

{#- PostgreSQL has no operator boolean = integer, so a boolean label goes through its cast to
    integer (true -> 1), which leaves 0/1 numbers as they are:
    https://www.postgresql.org/docs/current/datatype-boolean.html -#}
{% macro postgres__is_positive(label) -%}
CASE WHEN CAST({{ sqlmetrics.ident(label) }} AS INTEGER) = 1 THEN 1 ELSE 0 END
{%- endmacro %}

{#- x as text that sorts byte by byte, as trec_eval's strcmp breaks score ties between item ids. -#}
{% macro bytewise(x) -%}
{{ return(adapter.dispatch('bytewise', 'sqlmetrics')(x)) }}
{%- endmacro %}

{% macro default__bytewise(x) -%}
CAST({{ x }} AS VARCHAR)
{%- endmacro %}

{#- PostgreSQL compares text in the column's or database's collation, often a linguistic one
    ('a' < 'B'); the "C" collation compares bytes: https://www.postgresql.org/docs/current/collation.html -#}
{% macro postgres__bytewise(x) -%}
CAST({{ x }} AS VARCHAR) COLLATE "C"
{%- endmacro %}

{#- Redshift falls back to postgres__ macros but has no COLLATE clause, only a COLLATE(string,
    'case_sensitive') function: keep the default, as the Python layer's Redshift SQL does.
    https://docs.aws.amazon.com/redshift/latest/dg/r_COLLATE.html -#}
{% macro redshift__bytewise(x) -%}
{{ return(sqlmetrics.default__bytewise(x)) }}
{%- endmacro %}

{#- Weight of a row as DOUBLE (1 when unweighted): sums of weights never overflow an integer type. -#}
{% macro row_weight(weight) -%}
{{ sqlmetrics.as_double(sqlmetrics.ident(weight) if weight else 1) }}
{%- endmacro %}

{#- A total that is a count when unweighted (BIGINT: safe past 2^31 rows) and a DOUBLE sum of weights otherwise. -#}
{% macro tally(expr, weight) -%}
{% if weight %}{{ expr }}{% else %}CAST({{ expr }} AS BIGINT){% endif %}
{%- endmacro %}

{#- log base 2, spelled so no dialect can swap LOG's argument order or base. -#}
{% macro log2(x) -%}
(LN({{ x }}) / LN(2))
{%- endmacro %}

{#- `alias."a" AS "a", ` for each column: carry key columns out of a join. -#}
{% macro qualified_cols(names, alias) -%}
{% for c in names %}{{ alias }}.{{ sqlmetrics.ident(c) }} AS {{ sqlmetrics.ident(c) }}, {% endfor %}
{%- endmacro %}

{#- `l."a" = r."a" AND l."b" = r."b"` (key columns are validated non-NULL). -#}
{% macro join_on(names, left, right) -%}
{% for c in names %}{{ left }}.{{ sqlmetrics.ident(c) }} = {{ right }}.{{ sqlmetrics.ident(c) }}{{ " AND " if not loop.last }}{% endfor %}
{%- endmacro %}

{#- `alias."a", alias."b"` -#}
{% macro col_list_of(names, alias) -%}
{% for c in names %}{{ alias }}.{{ sqlmetrics.ident(c) }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}

{#- Window of the rows sharing `column`'s value within the partition `keys`: the peers of an ORDER BY
    with a RANGE frame, so one sort per partition (a PARTITION BY the value too would make DuckDB
    build a partition per distinct value: 1.3x slower for NDCG with ties='average'). -#}
{% macro peers(keys, column) -%}
{{ return(adapter.dispatch('peers', 'sqlmetrics')(keys, column)) }}
{%- endmacro %}

{% macro default__peers(keys, column) -%}
{{ sqlmetrics.partition_by(keys) }} ORDER BY {{ column }} RANGE BETWEEN CURRENT ROW AND CURRENT ROW
{%- endmacro %}

{#- Redshift's window frames are ROWS only (no RANGE): partition by the value instead, as the
    Python layer's Redshift SQL does. https://docs.aws.amazon.com/redshift/latest/dg/r_Window_function_synopsis.html -#}
{% macro redshift__peers(keys, column) -%}
PARTITION BY {% for c in keys %}{{ sqlmetrics.ident(c) }}, {% endfor %}{{ column }}
{%- endmacro %}

{#- `w_pos AS <prefix>w_pos, w_neg AS <prefix>w_neg`: the weight of the positive and of the negative
    rows of a GROUP BY (`pos`: 1 for a positive row, else 0). Unweighted, the counts themselves:
    two aggregates fewer per row. -#}
{% macro weight_sums(pos, weight, prefix) -%}
{%- if weight -%}
SUM({{ pos }} * {{ sqlmetrics.row_weight(weight) }}) AS {{ prefix }}w_pos,
SUM((1 - {{ pos }}) * {{ sqlmetrics.row_weight(weight) }}) AS {{ prefix }}w_neg
{%- else -%}
{{ sqlmetrics.as_double('SUM(' ~ pos ~ ')') }} AS {{ prefix }}w_pos,
{{ sqlmetrics.as_double('COUNT(*) - SUM(' ~ pos ~ ')') }} AS {{ prefix }}w_neg
{%- endif %}
{%- endmacro %}

{#- The equal-width bucket (0 .. bins-1) of `x` between `lo` and `hi` (hi > lo): below lo counts in
    the first, hi and above (and whatever float rounding pushes to bins) in the last. -#}
{% macro equal_width_bucket(x, lo, hi, bins) -%}
{%- set cell = 'FLOOR((' ~ x ~ ' - ' ~ lo ~ ') / (' ~ hi ~ ' - ' ~ lo ~ ') * ' ~ bins ~ ')' -%}
CASE WHEN {{ x }} < {{ lo }} THEN 0
     WHEN {{ x }} >= {{ hi }} OR {{ cell }} >= {{ bins }} THEN {{ bins - 1 }}
     ELSE {{ cell }} END
{%- endmacro %}
