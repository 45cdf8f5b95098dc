{#- Building blocks shared by every metric template: the only place vendor syntax may appear.
    Written to run unchanged as dbt macros: no leading underscores, no top-level set, and calls
    across files go through the package prefix `sqlmetrics.`. Intermediate columns are named sm_*
    (reserved: the Python layer rejects user columns with that prefix). -#}

{#- A column name, quoted for the engine whatever it contains. -#}
{% macro ident(name) -%}
{{ adapter.quote(name) }}
{%- endmacro %}

{#- `"a", "b", ` : columns each followed by a comma, to stand before further select items. -#}
{% macro cols(names) -%}
{% for c in names %}{{ sqlmetrics.ident(c) }}, {% endfor %}
{%- endmacro %}

{% macro col_list(names) -%}
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
CAST({{ num }} AS DOUBLE) / NULLIF(CAST({{ den }} AS DOUBLE), 0)
{%- endmacro %}

{% macro as_double(x) -%}
CAST({{ x }} AS DOUBLE)
{%- endmacro %}

{% macro infinity() -%}
CAST('inf' AS DOUBLE)
{%- endmacro %}

{#- 1 for a positive row, else 0; labels are validated as 0/1 or boolean before this runs. -#}
{% macro is_positive(label) -%}
CASE WHEN {{ sqlmetrics.ident(label) }} = 1 THEN 1 ELSE 0 END
{%- endmacro %}

{#- Weight of a row as DOUBLE (1 when unweighted): sums of weights never overflow an integer type. -#}
{% macro row_weight(weight) -%}
CAST({% if weight %}{{ sqlmetrics.ident(weight) }}{% else %}1{% endif %} AS DOUBLE)
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
