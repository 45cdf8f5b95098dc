"""The few places where engines differ, as rewrites of the syntax tree after sqlglot has read the
templates (templates stay in one portable form; vendor syntax lives only here).

- Infinity: SQLite casts 'inf' to 0.0 (9e999 overflows to +inf instead); Trino rejects 'inf'
  (INFINITY()); Redshift spells it 'Infinity'; MySQL has none (its largest DOUBLE stands in: MySQL
  cannot store an infinite score either).
- PostgreSQL and MySQL sort text by a locale or case-insensitive collation; trec_eval breaks ties
  by bytes: COLLATE "C" / utf8mb4_bin.
- Boolean label/prediction columns: `col = 1` is a type error on PostgreSQL (and Redshift, Spark
  with ANSI on, ...); a boolean column is its own predicate.
- Checks for NaN/infinity: each engine has its own way (or cannot store NaN at all).
- Redshift has ROWS window frames only: the peers of a value (RANGE BETWEEN CURRENT ROW AND
  CURRENT ROW, helpers.sql `peers`) become a partition by that value.
- Failing the query on a value no metric may count (helpers.sql `invalid_value`, DuckDB's
  CASE WHEN condition THEN error(text) END): Spark raise_error, BigQuery ERROR, SQLite and MySQL a
  JSON path that is not one, the others a cast to an integer of the text (of '0' where the
  condition is false: ClickHouse may evaluate a branch on rows that do not take it).
"""
from __future__ import annotations

from sqlglot import exp

_TEXT_TYPES = {exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT}
_INFINITY = {
    "sqlite": lambda: exp.Literal.number("9e999"),
    "mysql": lambda: exp.Literal.number("1.7976931348623157e308"),
    "trino": lambda: exp.Anonymous(this="INFINITY"),
    "redshift": lambda: exp.cast(exp.Literal.string("Infinity"), "DOUBLE"),
}
_ROWS_FRAMES_ONLY = {"redshift"}
#: error(text) as the engines with a function for it fail a query with `text`; the others fail on
#: the cast of the text to an integer (the text holds the offending value, so that no engine can
#: compute it while planning)
_RAISE = {
    "spark": lambda text: exp.Anonymous(this="raise_error", expressions=[text]),
    "databricks": lambda text: exp.Anonymous(this="raise_error", expressions=[text]),
    "bigquery": lambda text: exp.Anonymous(this="ERROR", expressions=[text]),
    "sqlite": lambda text: exp.Anonymous(this="json_extract", expressions=[exp.Literal.string("{}"), text]),
    "mysql": lambda text: exp.Anonymous(this="JSON_EXTRACT", expressions=[exp.Literal.string("{}"), text]),
}
#: the integer type of that cast: on ClickHouse Int64, not sqlglot's Nullable(Int64), whose cast
#: of text that is not a number is NULL instead of an error
_CAST_INTEGER = {"clickhouse": lambda: exp.DataType(this=exp.DataType.Type.BIGINT, nullable=False)}
_BYTE_COLLATION = {
    "postgres": lambda: exp.to_identifier("C", quoted=True),
    "mysql": lambda: exp.to_identifier("utf8mb4_bin"),
}


def adapt(tree: exp.Expression, dialect: str, booleans: frozenset = frozenset()) -> exp.Expression:
    """Rewrite a parsed template (DuckDB semantics) so it means the same on `dialect`."""
    if dialect in _INFINITY:
        for cast in list(tree.find_all(exp.Cast)):
            if isinstance(cast.this, exp.Literal) and cast.this.is_string and cast.this.name.lower() == "inf":
                cast.replace(_INFINITY[dialect]())
    if dialect in _BYTE_COLLATION:
        for ordered in list(tree.find_all(exp.Ordered)):
            key = ordered.this
            if isinstance(key, exp.Cast) and key.to.this in _TEXT_TYPES:
                key.replace(exp.Collate(this=key.copy(), expression=_BYTE_COLLATION[dialect]()))
    if dialect in _ROWS_FRAMES_ONLY:
        for window in list(tree.find_all(exp.Window)):
            spec, order = window.args.get("spec"), window.args.get("order")
            if (spec and spec.args.get("kind") == "RANGE" and spec.args.get("start") == "CURRENT ROW"
                    and spec.args.get("end") == "CURRENT ROW" and order and len(order.expressions) == 1):
                window.set("partition_by", [*window.args.get("partition_by", []), order.expressions[0].this.copy()])
                window.set("order", None)
                window.set("spec", None)
    if booleans and dialect != "duckdb":
        for eq in list(tree.find_all(exp.EQ)):
            column, value = eq.this, eq.expression
            if (isinstance(column, exp.Column) and column.name in booleans and not column.table
                    and isinstance(value, exp.Literal) and value.name in ("0", "1")):
                eq.replace(column.copy() if value.name == "1" else exp.Not(this=column.copy()))
    if dialect != "duckdb":
        for call in list(tree.find_all(exp.Anonymous)):
            if call.name.lower() == "error" and len(call.expressions) == 1:
                _fail(call, dialect)
    return tree


def _fail(call: exp.Anonymous, dialect: str) -> None:
    """Replace error(text), the THEN of `CASE WHEN condition THEN error(text) END`
    (helpers.sql `invalid_value`), by `dialect`'s way to fail with `text`."""
    text = call.expressions[0].copy()
    if dialect in _RAISE:
        call.replace(_RAISE[dialect](text))
        return
    integer = _CAST_INTEGER.get(dialect, lambda: exp.DataType.build("BIGINT"))()
    case = call.parent.parent if isinstance(call.parent, exp.If) else None
    if isinstance(case, exp.Case) and len(case.args["ifs"]) == 1 and not case.args.get("default"):
        call.replace(text)
        case.set("default", exp.Literal.string("0"))
        case.replace(exp.Cast(this=case.copy(), to=integer))
    else:
        call.replace(exp.Cast(this=text, to=integer))


def is_nan(column_sql: str, dialect: str, decimal: bool = False) -> str | None:
    """A DuckDB-syntax predicate true for NaN on `dialect`, or None where the column cannot hold NaN.
    `decimal`: the column is an exact number type (only PostgreSQL's numeric has a NaN)."""
    if dialect == "sqlite":
        return None  # SQLite stores NaN as NULL: the NULL check covers it
    if decimal:
        # compared as numeric: cast to a float, a numeric beyond the float range would fail the query
        return f"{column_sql} = CAST('NaN' AS DECIMAL)" if dialect == "postgres" else None
    if dialect in ("postgres", "redshift"):
        return f"{column_sql} = CAST('NaN' AS DOUBLE)"  # NaN equals NaN there
    return f"isnan({column_sql})"


def nan_by_sums(column_sql: str, dialect: str) -> str | None:
    """An aggregate predicate true when a float column holds NaN, for an engine whose optimizer may
    fold the test of each value away: DuckDB takes a Parquet file's min/max statistics as bounds of
    every value, but Parquet writers leave NaN out of them (as the format asks), and `isnan(col)`
    becomes false before a row is read. A sum is computed from the rows, and a NaN makes it NaN;
    of absolute values, so that +inf and -inf (which sum to NaN) cannot meet, and an overflow
    gives +inf, never NaN."""
    if dialect != "duckdb":
        return None  # the others test each value as it is
    return f"isnan(SUM(ABS({column_sql})))"


def is_infinite(column_sql: str, dialect: str, decimal: bool = False) -> str:
    """A DuckDB-syntax predicate true for +inf and -inf; `decimal` as for is_nan."""
    if decimal and dialect == "postgres":
        # numeric's infinities (PostgreSQL 14+) and NaN are its only values without a scale; no
        # 'Infinity' literal, which older versions cannot read
        return f"({column_sql} <> CAST('NaN' AS DECIMAL) AND scale({column_sql}) IS NULL)"
    if dialect == "duckdb":
        return f"isinf({column_sql})"
    return f"ABS({column_sql}) = CAST('inf' AS DOUBLE)"  # spelled per engine by adapt()


def not_a_number(column_sql: str, dialect: str) -> str | None:
    """A DuckDB-syntax predicate true for a value that is not a number, where a numeric column can
    hold one: SQLite keeps text ('', 'abc', 'NaN') and blobs in a column of any declared type, and
    compares them above every number. Elsewhere the column type rules them out."""
    if dialect == "sqlite":
        return f"typeof({column_sql}) NOT IN ('integer', 'real', 'null')"
    return None
