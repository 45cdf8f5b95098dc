{#- Generic test: the model holds the same rows as the seed `expected`, matched on `keys` (NULL
    matches NULL), every other column of the seed within `tolerance` (absolute, or relative to the
    expected value when that is above 1; NULL only where NULL is expected). Expected values are
    read as the model's column types (so a threshold seeded as the text 'inf' is +infinity). One
    failing row per row of the model without an expected row or with a value out of tolerance, and
    per expected row the model lacks (not a FULL JOIN: PostgreSQL cannot FULL JOIN on
    IS NOT DISTINCT FROM). -#}
{% test matches_expected(model, expected, keys=[], tolerance=1e-9) %}
{%- set columns, types = [], {} %}
{%- if execute %}
  {%- for column in adapter.get_columns_in_relation(model) %}
    {%- do types.update({column.name: column.data_type}) %}
  {%- endfor %}
  {%- for column in adapter.get_columns_in_relation(expected) %}
    {%- if column.name not in types %}
      {{- exceptions.raise_compiler_error(model ~ ' has no column ' ~ column.name ~ ' (expected in ' ~ expected ~ ')') }}
    {%- endif %}
    {%- do columns.append(column.name) if column.name not in keys %}
  {%- endfor %}
{%- endif %}
{%- set e = {} %}
{%- for name, type in types.items() %}
  {%- do e.update({name: 'CAST(e.' ~ adapter.quote(name) ~ ' AS ' ~ type ~ ')'}) %}
{%- endfor %}
{%- set on -%}
{% for k in keys %}a.{{ adapter.quote(k) }} IS NOT DISTINCT FROM {{ e[k] }} AND {% endfor %}1 = 1
{%- endset %}
SELECT {% for k in keys %}a.{{ adapter.quote(k) }}, {% endfor %}'value differs or not expected' AS problem
FROM {{ model }} AS a
LEFT JOIN (SELECT *, 1 AS sm_present FROM {{ expected }}) AS e ON {{ on }}
WHERE e.sm_present IS NULL
{%- for c in columns %}
   OR NOT CASE WHEN a.{{ adapter.quote(c) }} IS NULL OR {{ e[c] }} IS NULL
               THEN a.{{ adapter.quote(c) }} IS NULL AND {{ e[c] }} IS NULL
               WHEN a.{{ adapter.quote(c) }} = {{ e[c] }} THEN TRUE
               ELSE ABS(a.{{ adapter.quote(c) }} - {{ e[c] }}) <= {{ tolerance }} * GREATEST(1, ABS({{ e[c] }})) END
{%- endfor %}
UNION ALL
SELECT {% for k in keys %}{{ e[k] }} AS {{ adapter.quote(k) }}, {% endfor %}'missing from the model' AS problem
FROM {{ expected }} AS e
WHERE NOT EXISTS (SELECT 1 FROM {{ model }} AS a WHERE {{ on }})
{% endtest %}
