"""How engines differ in the input checks (sqlmetrics/checks.py): the SQL predicates that find NaN,
infinities and values that are not numbers in a column, per dialect. Each returns a DuckDB-syntax
predicate (sqltext.transpile writes it for the engine), or None where the column cannot hold such a
value. And what a table name may be unquoted, per dialect (sqltext.parse_table_name).

Every other engine difference is a dispatched macro of sql/helpers.sql, rendered for the target
by the Python layer as by dbt (templates.py).
"""
from __future__ import annotations

import re

from .target import PLAIN_NAME, Target
from .templates import render_macro


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
    if dialect == "duckdb":
        # DuckDB folds isnan(col) to false where a Parquet file's min/max statistics (which leave NaN
        # out) bound the column, and any expression whose statistics it derives from them (col + 0,
        # abs(col), COALESCE(col, ...)); NULLIF has none, and is col itself except at 0
        return f"isnan(NULLIF({column_sql}, 0))"
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


def guards_rows(dialect: str) -> bool:
    """Whether the input checks can run as guards on each row of the metric's own query, failing
    it (helpers.sql invalid_value) on a value a check finds, so the input is read once: where a
    passing invalid_value is a typeless NULL that COALESCE with the column leaves the column as it
    was (Spark's raise_error()): a cluster then reads the input once instead of twice. Elsewhere the
    checks run as a query of their own before the metric, screened cheaply (checks.screen_query):
    on DuckDB that costs less than a guard on each value (13 ms against 30 ms on 10M rows in
    memory, 35 against 43 ms from Parquet), and where a passing invalid_value is a failing cast
    (which passes as a number) a guard cannot leave the column as it was."""
    return dialect in ("spark", "databricks")


def row_hash(columns_sql: list[str], dialect: str) -> str | None:
    """A 64-bit hash of a combination of values, where the engine has one whose distinct count is
    cheaper than grouping by the columns (checks.duplicates_screen); None elsewhere."""
    return f"hash({', '.join(columns_sql)})" if dialect == "duckdb" else None


def is_infinite(column_sql: str, dialect: str, decimal: bool = False) -> str:
    """A DuckDB-syntax predicate true for +inf and -inf; `decimal` as for is_nan."""
    if decimal and dialect == "postgres":
        # numeric's infinities (PostgreSQL 14+) and NaN are its only values without a scale; no
        # 'Infinity' literal, which older versions cannot read
        return f"({column_sql} <> CAST('NaN' AS DECIMAL) AND scale({column_sql}) IS NULL)"
    if dialect == "duckdb":
        return f"isinf({column_sql})"
    return f"ABS({column_sql}) = {render_macro('infinity', Target(dialect))}"


def not_a_number(column_sql: str, dialect: str) -> str | None:
    """A DuckDB-syntax predicate true for a value that is not a number, where a numeric column can
    hold one: SQLite keeps text ('', 'abc', 'NaN') and blobs in a column of any declared type, and
    compares them above every number. Elsewhere the column type rules them out."""
    if dialect == "sqlite":
        return f"typeof({column_sql}) NOT IN ('integer', 'real', 'null')"
    return None


#: an unquoted project or table name of a BigQuery table path, which may hold dashes (a dataset's may not):
#: https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical#table_names
_DASHED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*\Z")


def unquoted_table_part(part: str, dialect: str) -> re.Pattern:
    """What the `part` ("catalog", "db" or "this") of a table reference may be unquoted in `dialect`."""
    return _DASHED_NAME if dialect == "bigquery" and part != "db" else PLAIN_NAME
