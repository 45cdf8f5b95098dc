{#- Building blocks shared by every metric template: the only place vendor syntax may appear.
    Written to run unchanged as dbt macros: no leading underscores, no top-level set, and calls
    across files go through the package prefix `sqlmetrics.`. Intermediate columns are named sm_*
    (reserved: the Python layer rejects user columns with that prefix).

    Every engine difference is a helper that goes through adapter.dispatch (dbt-utils style):
    <adapter>__<name> where an engine needs its own spelling, default__<name> (portable SQL, in
    DuckDB's syntax) otherwise. dbt picks the spelling of its adapter; the Python layer picks the
    same for its target dialect (sqlmetrics/templates.py), reads a default__ spelling as DuckDB SQL
    and lets sqlglot write it for the target, and reads an <adapter>__ spelling in the target's own
    syntax. So a dispatched spelling is written for its engine, and its arguments are SQL, column
    names or message text. A project can add its own through dbt's `dispatch` config. -#}

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

{#- Float division that yields NULL instead of failing (or truncating) when the denominator is 0;
    parenthesized, so that `x * fdiv(a, b)` divides before it multiplies (x * a could overflow). -#}
{% macro fdiv(num, den) -%}
({{ sqlmetrics.as_double(num) }} / NULLIF({{ sqlmetrics.as_double(den) }}, 0))
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

{#- 'inf': DuckDB, PostgreSQL (which reads 'inf' as 'Infinity':
    https://www.postgresql.org/docs/current/datatype-numeric.html#DATATYPE-FLOAT), Spark,
    Snowflake, BigQuery, ClickHouse. -#}
{% macro default__infinity() -%}
{{ sqlmetrics.as_double("'inf'") }}
{%- endmacro %}

{#- Redshift reads only 'Infinity': https://docs.aws.amazon.com/redshift/latest/dg/r_Numeric_types201.html -#}
{% macro redshift__infinity() -%}
CAST('Infinity' AS DOUBLE PRECISION)
{%- endmacro %}

{#- SQLite casts 'inf' to 0.0; a literal beyond the double range reads as +inf. -#}
{% macro sqlite__infinity() -%}
9e999
{%- endmacro %}

{#- Trino rejects the text 'inf'; it has a function: https://trino.io/docs/current/functions/math.html#infinity -#}
{% macro trino__infinity() -%}
INFINITY()
{%- endmacro %}

{#- MySQL has no infinite DOUBLE (nor can it store one as a score): the largest DOUBLE stands in. -#}
{% macro mysql__infinity() -%}
1.7976931348623157e308
{%- endmacro %}

{#- 1 for a positive row, 0 for a negative one; any other value (NULL, 2, 0.5) fails the query
    (invalid_value) instead of counting as a negative. The Python layer checks the column before
    rendering; in dbt, still test it with accepted_values to learn of such rows before a run.
    Where the column's type is known (column_type: the Python layer asks the engine), a boolean
    column is its own predicate (`col = 1` is a type error on PostgreSQL, Trino, BigQuery, ...) and
    a number is compared with 1 and 0; where it is not (dbt), each engine's spelling that takes
    both (is_positive_of_any_type). With pos_label (positive_value), a label equal to it is 1 and
    any other 0, as scikit-learn's pos_label (the Python layer checks there are two values). -#}
{% macro is_positive(label) -%}
{%- set y = sqlmetrics.ident(label) -%}
{%- set type = sqlmetrics.column_type(label) -%}
{%- set positive = sqlmetrics.positive_value(label) -%}
{%- if positive is not none -%}
{%- set missing %}{{ y }} IS NULL{% endset -%}
CASE WHEN {{ sqlmetrics.same_value(y, positive) }} THEN 1 WHEN {{ y }} IS NOT NULL THEN 0
     ELSE {{ sqlmetrics.invalid_value('a label or prediction must not be NULL', y, missing) }} END
{%- elif type == 'boolean' -%}
{%- set neither %}NOT ({{ y }} OR NOT {{ y }}){% endset -%}
CASE WHEN {{ y }} THEN 1 WHEN NOT {{ y }} THEN 0
     ELSE {{ sqlmetrics.invalid_value('a label or prediction must be 0 or 1 (or a boolean)', y, neither) }} END
{%- elif type == 'number' -%}
{{ sqlmetrics.default__is_positive_of_any_type(label) }}
{%- else -%}
{{ sqlmetrics.is_positive_of_any_type(label) }}
{%- endif -%}
{%- endmacro %}

{#- A value equal to a literal, as a value of its own type: pos_label='1' is not the label 1. -#}
{% macro same_value(x, literal) -%}
{{ return(adapter.dispatch('same_value', 'sqlmetrics')(x, literal)) }}
{%- endmacro %}

{% macro default__same_value(x, literal) -%}
{{ x }} = {{ literal }}
{%- endmacro %}

{#- SQLite converts a text literal compared with a column of numeric affinity to a number ('1' = 1):
    the two must also both be text or both not. https://www.sqlite.org/datatype3.html#type_conversions_prior_to_comparison -#}
{% macro sqlite__same_value(x, literal) -%}
({{ x }} = {{ literal }} AND (typeof({{ x }}) = 'text') = (typeof({{ literal }}) = 'text'))
{%- endmacro %}

{#- pos_label (scikit-learn's) as a SQL literal where the caller gave one: a label equal to it is
    positive, any other negative. dbt: none (labels are 0/1 or boolean; map other labels in a model). -#}
{% macro positive_value(name) -%}
{{ return(none) }}
{%- endmacro %}

{#- The type of a column where the caller knows it ('boolean', 'text' or 'number'), else none. dbt
    does not: the Python layer, which has asked the engine, answers in this macro's place. -#}
{% macro column_type(name) -%}
{{ return(none) }}
{%- endmacro %}

{#- The column names of `relation` in lower case, where the caller knows them, else none. dbt knows
    those of a relation (ref, source) once it executes, not of a CTE's name or at parse time; the
    Python layer, which has checked the columns of what it was given, answers in this macro's
    place. An empty list (a relation that does not exist yet) is none: the query then says what fails. -#}
{% macro relation_columns(relation) -%}
{%- if execute and relation is not string %}
{{- return(adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list or none) }}
{%- endif %}
{{- return(none) }}
{%- endmacro %}

{#- is_positive of a column of unknown type, a boolean or a number. -#}
{% macro is_positive_of_any_type(label) -%}
{{ return(adapter.dispatch('is_positive_of_any_type', 'sqlmetrics')(label)) }}
{%- endmacro %}

{#- DuckDB, SQLite, MySQL, ClickHouse, Spark (ANSI off) compare a boolean with 1 and 0 -#}
{% macro default__is_positive_of_any_type(label) -%}
{%- set y = sqlmetrics.ident(label) -%}
{%- set neither %}NOT ({{ y }} = 1 OR {{ y }} = 0){% endset -%}
CASE WHEN {{ y }} = 1 THEN 1 WHEN {{ y }} = 0 THEN 0
     ELSE {{ sqlmetrics.invalid_value('a label or prediction must be 0 or 1 (or a boolean)', y, neither) }} END
{%- endmacro %}

{#- PostgreSQL has no operator boolean = integer, and casting to integer would round 0.4 to 0: the
    value as jsonb compares numbers by value (1.0 = 1) and booleans as themselves:
    https://www.postgresql.org/docs/current/datatype-json.html#JSON-INDEXING -#}
{% macro postgres__is_positive_of_any_type(label) -%}
{%- set y %}to_jsonb({{ sqlmetrics.ident(label) }}){% endset -%}
{%- set neither %}{{ y }} NOT IN (jsonb '1', jsonb 'true', jsonb '0', jsonb 'false'){% endset -%}
CASE WHEN {{ y }} IN (jsonb '1', jsonb 'true') THEN 1 WHEN {{ y }} IN (jsonb '0', jsonb 'false') THEN 0
     ELSE {{ sqlmetrics.invalid_value('a label or prediction must be 0 or 1 (or a boolean)', sqlmetrics.ident(label), neither) }} END
{%- endmacro %}

{#- Redshift falls back to postgres__ macros but has no to_jsonb: a boolean goes through its cast to
    integer (true -> 1). A fractional label is rounded by that cast: test the column with
    accepted_values. https://docs.aws.amazon.com/redshift/latest/dg/r_Boolean_type.html -#}
{% macro redshift__is_positive_of_any_type(label) -%}
{%- set y %}CAST({{ sqlmetrics.ident(label) }} AS INTEGER){% endset -%}
{%- set neither %}NOT ({{ y }} = 1 OR {{ y }} = 0){% endset -%}
CASE WHEN {{ y }} = 1 THEN 1 WHEN {{ y }} = 0 THEN 0
     ELSE {{ sqlmetrics.invalid_value('a label or prediction must be 0 or 1 (or a boolean)', sqlmetrics.ident(label), neither) }} END
{%- endmacro %}

{#- An expression that fails the query, with an error reading "sqlmetrics: <message>; found <value>",
    for a value no metric may count (a NULL label, a catalogue missing a listed item, ...): put it
    in the CASE branch only such rows reach. `condition` is true for exactly those rows (NULL
    counts as true), `value` is the offending SQL expression and `message` fixed text without
    quotes. Each engine's way to fail: DuckDB error(), Spark raise_error(), BigQuery ERROR(), SQLite
    and MySQL a JSON path that is not one, elsewhere (PostgreSQL, Redshift, Snowflake, Trino,
    ClickHouse, ...) the cast of the text to an integer. The text holds the value, so that no
    engine can compute it while planning (PostgreSQL folds constant expressions, even in a CASE
    branch no row takes), and it is text only under `condition`, for engines that evaluate a
    branch on rows that do not take it (ClickHouse, in a CASE within a CASE): elsewhere it is '0'.
    ClickHouse: Int64, whose cast fails on text that is not a number (a Nullable one gives NULL). -#}
{% macro invalid_value(message, value, condition) -%}
{{ return(adapter.dispatch('invalid_value', 'sqlmetrics')(message, value, condition)) }}
{%- endmacro %}

{% macro default__invalid_value(message, value, condition) -%}
CAST(CASE WHEN COALESCE({{ condition }}, TRUE)
          THEN 'sqlmetrics: {{ message }}; found ' || COALESCE(CAST({{ value }} AS VARCHAR), 'NULL') ELSE '0' END AS BIGINT)
{%- endmacro %}

{% macro duckdb__invalid_value(message, value, condition) -%}
CASE WHEN COALESCE({{ condition }}, TRUE)
     THEN error('sqlmetrics: {{ message }}; found ' || COALESCE(CAST({{ value }} AS VARCHAR), 'NULL')) END
{%- endmacro %}

{% macro spark__invalid_value(message, value, condition) -%}
CASE WHEN COALESCE({{ condition }}, TRUE)
     THEN raise_error('sqlmetrics: {{ message }}; found ' || COALESCE(CAST({{ value }} AS STRING), 'NULL')) END
{%- endmacro %}

{% macro bigquery__invalid_value(message, value, condition) -%}
CASE WHEN COALESCE({{ condition }}, TRUE)
     THEN ERROR('sqlmetrics: {{ message }}; found ' || COALESCE(CAST({{ value }} AS STRING), 'NULL')) END
{%- endmacro %}

{% macro clickhouse__invalid_value(message, value, condition) -%}
CAST(CASE WHEN COALESCE({{ condition }}, TRUE)
          THEN 'sqlmetrics: {{ message }}; found ' || COALESCE(CAST({{ value }} AS Nullable(String)), 'NULL') ELSE '0' END AS Int64)
{%- endmacro %}

{% macro sqlite__invalid_value(message, value, condition) -%}
CASE WHEN COALESCE({{ condition }}, TRUE)
     THEN json_extract('{}', 'sqlmetrics: {{ message }}; found ' || COALESCE(CAST({{ value }} AS TEXT), 'NULL')) END
{%- endmacro %}

{% macro mysql__invalid_value(message, value, condition) -%}
CASE WHEN COALESCE({{ condition }}, TRUE)
     THEN JSON_EXTRACT('{}', CONCAT('sqlmetrics: {{ message }}; found ', COALESCE(CAST({{ value }} AS CHAR), 'NULL'))) END
{%- endmacro %}

{#- A predicted probability as DOUBLE; NULL fails the query instead of dropping out of the sums. -#}
{% macro probability(score) -%}
{{ sqlmetrics.required_number(sqlmetrics.ident(score), 'a probability must be a number') }}
{%- endmacro %}

{#- A relevance grade as DOUBLE; NULL fails the query instead of counting as not relevant.
    `relevance`: a column name, or (quoted=true) an expression such as alias."column". -#}
{% macro relevance(relevance, quoted=false) -%}
{{ sqlmetrics.required_number(relevance if quoted else sqlmetrics.ident(relevance), 'a relevance must be a number') }}
{%- endmacro %}

{#- `x` as DOUBLE, where a NULL fails the query with `message` (invalid_value). -#}
{% macro required_number(x, message) -%}
{%- set missing %}{{ x }} IS NULL{% endset -%}
CASE WHEN {{ x }} IS NOT NULL THEN {{ sqlmetrics.as_double(x) }}
     ELSE {{ sqlmetrics.as_double(sqlmetrics.invalid_value(message, x, missing)) }} END
{%- endmacro %}

{#- 2^x as a DOUBLE, taken as 0 below 2^-1022 (the smallest normal double): PostgreSQL fails on a
    result that underflows, and a subnormal has too few digits to divide. -#}
{% macro pow2(x) -%}
CASE WHEN ({{ x }}) > -1022 THEN POWER(2, {{ x }}) ELSE 0 END
{%- endmacro %}

{#- a = b, where NULL equals NULL (a slice may be NULL): a join's equality that engines can hash. -#}
{% macro null_safe_equal(a, b) -%}
{{ return(adapter.dispatch('null_safe_equal', 'sqlmetrics')(a, b)) }}
{%- endmacro %}

{% macro default__null_safe_equal(a, b) -%}
({{ a }} IS NOT DISTINCT FROM {{ b }})
{%- endmacro %}

{#- Redshift has no IS NOT DISTINCT FROM: https://docs.aws.amazon.com/redshift/latest/dg/r_comparison_condition.html -#}
{% macro redshift__null_safe_equal(a, b) -%}
({{ a }} = {{ b }} OR ({{ a }} IS NULL AND {{ b }} IS NULL))
{%- endmacro %}

{#- `l."a" <=> r."a" AND ...` over `names` (null_safe_equal): join slices, where NULL is a slice. -#}
{% macro null_safe_join_on(names, left, right) -%}
{% for c in names %}{{ sqlmetrics.null_safe_equal(left ~ '.' ~ sqlmetrics.ident(c), right ~ '.' ~ sqlmetrics.ident(c)) }}{{ " AND " if not loop.last }}{% endfor %}
{%- endmacro %}

{#- x as text that sorts byte by byte, as trec_eval's strcmp breaks score ties between item ids. -#}
{% macro bytewise(x) -%}
{{ return(adapter.dispatch('bytewise', 'sqlmetrics')(x)) }}
{%- endmacro %}

{% macro default__bytewise(x) -%}
CAST({{ x }} AS VARCHAR)
{%- endmacro %}

{#- DuckDB compares text in the session's default_collation (SET default_collation = 'nocase'
    makes 'a' equal to 'A'): https://duckdb.org/docs/stable/sql/expressions/collations -#}
{% macro duckdb__bytewise(x) -%}
CAST({{ x }} AS VARCHAR) COLLATE "binary"
{%- endmacro %}

{#- PostgreSQL compares text in the column's or database's collation, often a linguistic one
    ('a' < 'B'); the "C" collation compares bytes: https://www.postgresql.org/docs/current/collation.html -#}
{% macro postgres__bytewise(x) -%}
CAST({{ x }} AS TEXT) COLLATE "C"
{%- endmacro %}

{#- Redshift falls back to postgres__ macros but has no COLLATE clause, only a COLLATE(string,
    'case_sensitive') function: the default collation, and VARCHAR(MAX), as a VARCHAR without a
    length holds 256 bytes: https://docs.aws.amazon.com/redshift/latest/dg/r_COLLATE.html,
    https://docs.aws.amazon.com/redshift/latest/dg/r_Character_types.html -#}
{% macro redshift__bytewise(x) -%}
CAST({{ x }} AS VARCHAR(MAX))
{%- endmacro %}

{#- Spark (Databricks too) has no VARCHAR without a length. Its STRING compares UTF-8 bytes, and a
    cast to STRING drops a column's collation (Spark 4's UTF8_LCASE, ...) for that default,
    UTF8_BINARY; Spark 3 has no collations. https://spark.apache.org/docs/latest/sql-ref-collation.html -#}
{% macro spark__bytewise(x) -%}
CAST({{ x }} AS STRING)
{%- endmacro %}

{#- MySQL compares text case-insensitively by default, and its _bin collations pad with spaces
    ('u' = 'u '); binary strings compare bytes, on MySQL and MariaDB alike, converted to utf8mb4
    first whatever the column's or the connection's character set:
    https://dev.mysql.com/doc/refman/8.0/en/charset-binary-collations.html -#}
{% macro mysql__bytewise(x) -%}
CAST(CONVERT({{ x }} USING utf8mb4) AS BINARY)
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

{#- ln(1 + x) for a DOUBLE x > -1, to full precision also where x is tiny (LN(1 + x) loses the
    digits of x that 1 + x rounds away): with u = 1 + x rounded, ln(u) * x / (u - 1) cancels that
    rounding, and x itself where u rounds to 1 (Goldberg 1991, "What every computer scientist should
    know about floating-point arithmetic", theorem 4). Not every engine has LOG1P. -#}
{% macro log1p(x) -%}
CASE WHEN 1 + {{ x }} = 1 THEN {{ x }} ELSE LN(1 + {{ x }}) * {{ sqlmetrics.fdiv(x, '(1 + ' ~ x ~ ') - 1') }} END
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

{#- The mean of `x` over the rows sharing `column`'s value within the partition `keys` (a window
    function): the peers of an ORDER BY with a RANGE frame, so one sort per partition (a PARTITION
    BY the value too would make DuckDB build a partition per distinct value: 1.3x slower for NDCG
    with ties='average'). -#}
{% macro peer_mean(x, keys, column) -%}
{{ return(adapter.dispatch('peer_mean', 'sqlmetrics')(x, keys, column)) }}
{%- endmacro %}

{% macro default__peer_mean(x, keys, column) -%}
AVG({{ x }}) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY {{ column }} RANGE BETWEEN CURRENT ROW AND CURRENT ROW)
{%- endmacro %}

{#- Redshift's window frames are ROWS only (no RANGE): partition by the value instead.
    https://docs.aws.amazon.com/redshift/latest/dg/r_Window_function_synopsis.html -#}
{% macro redshift__peer_mean(x, keys, column) -%}
AVG({{ x }}) OVER (PARTITION BY {% for c in keys %}{{ sqlmetrics.ident(c) }}, {% endfor %}{{ column }})
{%- endmacro %}

{#- The equal-width bucket (0 .. bins-1) of `x` between `lo` and `hi` (hi > lo): below lo counts in
    the first, hi and above (and whatever float rounding pushes to bins) in the last. -#}
{% macro equal_width_bucket(x, lo, hi, bins) -%}
{%- set cell %}FLOOR(({{ x }} - {{ lo }}) / ({{ hi }} - {{ lo }}) * {{ bins }}){% endset -%}
CASE WHEN {{ x }} < {{ lo }} THEN 0
     WHEN {{ x }} >= {{ hi }} OR {{ cell }} >= {{ bins }} THEN {{ bins - 1 }}
     ELSE {{ cell }} END
{%- endmacro %}

{#- `JOIN right ON` the slice columns `by` of both, NULL-safe; CROSS JOIN without slices. With
    `key` (spread_key's), `right`_spread (spread_cte's) under the name `right`, on the key too. -#}
{% macro join_slices(left, right, by, key=none) -%}
{%- if by and key %}JOIN {{ right }}_spread AS {{ right }}
    ON {{ sqlmetrics.join_on([key], left, right) }} AND {{ sqlmetrics.null_safe_join_on(by, left, right) }}
{%- elif by %}JOIN {{ right }} ON {{ sqlmetrics.null_safe_join_on(by, left, right) }}
{%- else %}CROSS JOIN {{ right }}{% endif %}
{%- endmacro %}
