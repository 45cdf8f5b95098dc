"""What the Python layer must know of each engine, in one place: a class per dialect, whose
attributes and methods answer the questions the input checks, the plans, the reading of queries
and table names, the sources and the connections ask (``Target.capabilities``, ``of(dialect)``).
No other module compares a dialect's name (tests/test_dispatch.py).

The SQL the templates write differently per engine is not here but in the dispatched macros of
``sql/`` (``<adapter>__<name>``): dbt renders the templates too, and knows only macros. Those are
looked up in dbt's order (the adapter's own, those of the adapters it is built on, then
``default__``): ``Capabilities.prefixes``, from the classes a dialect's class is built on, as
dbt-redshift is built on dbt-postgres and dbt-databricks on dbt-spark. A subclass answers as its
base unless it says otherwise.

A new engine declares a class here (its answers where they differ from the base's, which are
those of a warehouse that reads standard SQL) and, where its SQL differs, its macro spellings.

Predicates are DuckDB-syntax SQL (the templates' syntax: ``sqltext.transpile`` writes them for the
engine), or None where the column cannot hold such a value.
"""
from __future__ import annotations

import re

#: a name SQL could hold unquoted (as the user would write it in a query)
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: an unquoted project or table name of a BigQuery table path, which may hold dashes (a dataset's may not):
#: https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical#table_names
_DASHED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*\Z")


class Capabilities:
    """A warehouse reading standard SQL: the answers every dialect has unless its class says otherwise."""

    #: the dialect's name: sqlglot's, and the type of dbt's adapter for it
    name = "default"
    #: the templates and the check queries are written in its syntax: its SQL is the text as
    #: rendered (no transpiling) and its own macro spellings go inline
    template_syntax = False
    #: it reads data files (Parquet, CSV, TREC runs and judgments) itself
    reads_files = False
    #: the input checks run as guards on each row of the metric's own query, failing it
    #: (helpers.sql invalid_value) on a value a check finds, so the input is read once: where a
    #: passing invalid_value is a typeless NULL that COALESCE with the column leaves the column as
    #: it was (Spark's raise_error()): a cluster then reads the input once instead of twice.
    #: Elsewhere the checks run as a query of their own before the metric, screened cheaply
    #: (checks.screen_query): on DuckDB that costs less than a guard on each value (13 ms against
    #: 30 ms on 10M rows in memory, 35 against 43 ms from Parquet), and where a passing
    #: invalid_value is a failing cast (which passes as a number) a guard cannot leave the column
    #: as it was
    guards_rows = False
    #: a column of any declared type keeps any value (text, bytes, infinities), and a boolean is a
    #: number like any other (2 or 0.5 would count as true)
    loose_types = False
    #: its exact numeric type has NaN and infinities
    special_numerics = False
    #: a seeded sample of whole blocks (TABLESAMPLE SYSTEM ... REPEATABLE) gives the same rows each run
    system_sample_repeats = True
    #: the plan of the AUC family is chosen from the data (plans.distinct_share, in its syntax):
    #: ranking the rows when the scores are mostly distinct
    plans_from_data = False
    #: the statement that opens a read-only transaction for a call, where the connection has none
    begin_read_only = "BEGIN READ ONLY"
    #: statements run at the start of that transaction, for the SQL to read as sqlglot wrote it
    call_settings: tuple[str, ...] = ()

    @classmethod
    def prefixes(cls) -> tuple[str, ...]:
        """Its macro spellings' prefixes, in dbt's adapter.dispatch order (before default__)."""
        return tuple(c.name for c in cls.__mro__ if issubclass(c, Capabilities) and c is not Capabilities)

    def is_nan(self, column_sql: str, decimal: bool = False) -> str | None:
        """A predicate true for NaN, or None where the column cannot hold NaN. `decimal`: the column
        is of an exact number type (only where special_numerics can it hold NaN)."""
        return None if decimal else f"isnan({column_sql})"

    def nan_by_sums(self, column_sql: str) -> str | None:
        """An aggregate predicate true when a float column holds NaN, where the engine's optimizer may
        fold the test of each value away; None where each value is tested as it is."""
        return None

    def is_infinite(self, column_sql: str, infinity: str, decimal: bool = False) -> str:
        """A predicate true for +inf and -inf; `infinity`: the engine's (the dispatched macro
        `infinity`), `decimal` as for is_nan."""
        return f"ABS({column_sql}) = {infinity}"

    def not_a_number(self, column_sql: str) -> str | None:
        """A predicate true for a value that is not a number in a numeric column, where one can be there."""
        return None

    def row_hash(self, columns_sql: list[str]) -> str | None:
        """A 64-bit hash of a combination of values, where the engine has one whose distinct count is
        cheaper than grouping by the columns (checks.duplicates_screen); None elsewhere."""
        return None

    def unquoted_table_part(self, part: str) -> re.Pattern:
        """What the `part` ("catalog", "db" or "this") of a table reference may be unquoted."""
        return PLAIN_NAME


class DuckDB(Capabilities):
    name = "duckdb"
    template_syntax = True
    reads_files = True
    # its SYSTEM sample (its default) differs between runs on several threads, seed or not
    system_sample_repeats = False
    plans_from_data = True

    def is_nan(self, column_sql, decimal=False):
        # DuckDB folds isnan(col) to false where a Parquet file's min/max statistics (which leave NaN
        # out) bound the column, and any expression whose statistics it derives from them (col + 0,
        # abs(col), COALESCE(col, ...)); NULLIF has none, and is col itself except at 0
        return None if decimal else f"isnan(NULLIF({column_sql}, 0))"

    def nan_by_sums(self, column_sql):
        # DuckDB takes a Parquet file's min/max statistics as bounds of every value, but Parquet
        # writers leave NaN out of them (as the format asks), and `isnan(col)` becomes false before a
        # row is read. A sum is computed from the rows, and a NaN makes it NaN; of absolute values,
        # so that +inf and -inf (which sum to NaN) cannot meet, and an overflow gives +inf, never NaN.
        return f"isnan(SUM(ABS({column_sql})))"

    def is_infinite(self, column_sql, infinity, decimal=False):
        return f"isinf({column_sql})"

    def row_hash(self, columns_sql):
        return f"hash({', '.join(columns_sql)})"


class SQLite(Capabilities):
    name = "sqlite"
    loose_types = True

    def is_nan(self, column_sql, decimal=False):
        return None  # SQLite stores NaN as NULL: the NULL check covers it

    def not_a_number(self, column_sql):
        # text ('', 'abc', 'NaN') and blobs, which SQLite compares above every number
        return f"typeof({column_sql}) NOT IN ('integer', 'real', 'null')"


class Postgres(Capabilities):
    name = "postgres"
    special_numerics = True  # numeric's NaN, and its infinities (PostgreSQL 14+)
    begin_read_only = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
    # a session may have the legacy standard_conforming_strings off, where a backslash in '...'
    # escapes the next character; sqlglot writes literals for PostgreSQL without that escape
    call_settings = ("SET LOCAL standard_conforming_strings = on",)

    def is_nan(self, column_sql, decimal=False):
        # NaN equals NaN there; a numeric compared as numeric: cast to a float, one beyond the float
        # range would fail the query
        return f"{column_sql} = CAST('NaN' AS {'DECIMAL' if decimal else 'DOUBLE'})"

    def is_infinite(self, column_sql, infinity, decimal=False):
        if decimal:
            # numeric's infinities and NaN are its only values without a scale; no 'Infinity'
            # literal, which older versions cannot read
            return f"({column_sql} <> CAST('NaN' AS DECIMAL) AND scale({column_sql}) IS NULL)"
        return super().is_infinite(column_sql, infinity)


class Redshift(Postgres):
    name = "redshift"
    special_numerics = False
    begin_read_only = "BEGIN READ ONLY"  # it takes no isolation level but its default
    call_settings = ()  # its literals take backslash escapes, and sqlglot writes them so for it


class Spark(Capabilities):
    name = "spark"
    guards_rows = True


class Databricks(Spark):
    name = "databricks"


class ClickHouse(Capabilities):
    name = "clickhouse"


class BigQuery(Capabilities):
    name = "bigquery"

    def unquoted_table_part(self, part):
        return _DASHED_NAME if part != "db" else PLAIN_NAME


class Snowflake(Capabilities):
    name = "snowflake"


class Trino(Capabilities):
    name = "trino"


class MySQL(Capabilities):
    name = "mysql"


#: every dialect, by name, in the order they are listed to users
_ALL = {c.name: c() for c in (DuckDB, SQLite, Postgres, Spark, Databricks, ClickHouse, BigQuery, Snowflake, Trino,
                              Redshift, MySQL)}
DIALECTS = tuple(_ALL)


def of(dialect: str) -> Capabilities:
    """The capabilities of `dialect` (one of DIALECTS)."""
    return _ALL[dialect]
