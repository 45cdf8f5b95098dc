"""Running SQL on an engine: DuckDB (in-process, the default), SQLite, PostgreSQL (psycopg 3),
Spark (a SparkSession) and ClickHouse (a chDB session).

Only SELECT statements produced by ``sqltext`` are executed here. The drivers of the optional
engines are imported by their engine class only, so none of them is a dependency.
"""
from __future__ import annotations

import re
import sqlite3
import threading
from contextlib import contextmanager
from decimal import Decimal

import duckdb
import pandas as pd
from sqlglot import exp

from .errors import EngineError, SourceError
from .sources import Source, describe, duckdb_source, frame_view, is_file_path, is_frame, static_source

_local = threading.local()

_NUMERIC = re.compile(r"(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|FLOAT|DOUBLE|REAL|DECIMAL.*|NUMERIC.*)\Z")
_FLOATING = re.compile(r"(FLOAT|DOUBLE|REAL)\Z")


def default_connection() -> duckdb.DuckDBPyConnection:
    """The private in-memory DuckDB used when no `con` is given (one per thread)."""
    if getattr(_local, "con", None) is None:
        _local.con = duckdb.connect()
    return _local.con


def type_class(type_name: str) -> str:
    """'float', 'numeric' (exact numbers), 'boolean' or 'other' for a DuckDB type name."""
    t = type_name.upper()
    if _FLOATING.match(t):
        return "float"
    if _NUMERIC.match(t):
        return "numeric"
    return "boolean" if t == "BOOLEAN" else "other"


class Engine:
    """What the metrics need from a database: sources, column types, and running a SELECT."""

    dialect = "duckdb"
    name = "DuckDB"

    def __init__(self, con, dialect: str | None = None):
        self.con = con
        self.dialect = dialect or self.dialect

    @contextmanager
    def source(self, data, slot: str = "data"):
        if is_frame(data) or is_file_path(data):
            raise SourceError(f"{describe(data)} is not on {self.name}: with con= a {self.name} connection, "
                              "data is a table name or a sqlmetrics.Query on that database")
        yield static_source(data, self.dialect)

    def type_class(self, type_name: str) -> str:
        return type_class(type_name)

    def schema(self, source: Source) -> dict[str, str]:
        """Column name -> type name, without reading any rows."""
        sql = exp.select("*").from_(as_from(source.relation)).limit(0).sql(self.dialect)
        try:
            return self._schema(sql, source)
        except self.errors as e:
            if isinstance(source.relation, exp.Table) and self._missing(e):
                raise SourceError(f"{source.description} does not exist on {self.name} ({_first_line(e)})") from None
            raise SourceError(f"cannot use {source.description} on {self.name}: {_first_line(e)}") from None

    def rows(self, sql: str) -> list[tuple]:
        """All rows as Python values (for small check queries)."""
        try:
            return [tuple(_plain(v) for v in row) for row in self._fetch(sql)[1]]
        except self.errors as e:
            raise EngineError(f"{self.name} rejected the query: {_first_line(e)}") from e

    def first_row(self, sql: str) -> tuple:
        return self.rows(sql)[0]

    def execute(self, sql: str) -> pd.DataFrame:
        try:
            columns, rows = self._fetch(sql)
        except self.errors as e:
            raise EngineError(f"{self.name} rejected the query: {_first_line(e)}") from e
        frame = pd.DataFrame([[_plain(v) for v in row] for row in rows], columns=columns)
        return frame.infer_objects()


class DuckDBEngine(Engine):
    errors = duckdb.Error

    def __init__(self, con=None, dialect: str | None = None):
        super().__init__(con if con is not None else default_connection(), dialect)

    @contextmanager
    def source(self, data, slot: str = "data"):
        with duckdb_source(data, self.con, slot) as source:
            yield source

    def schema(self, source: Source) -> dict[str, str]:
        sql = exp.select("*").from_(as_from(source.relation)).limit(0).sql("duckdb")
        try:
            rel = self.con.sql(sql)
            return {name: str(t) for name, t in zip(rel.columns, rel.types)}
        except duckdb.CatalogException as e:
            if isinstance(source.relation, exp.Table):
                raise SourceError(f"{source.description} does not exist ({_first_line(e)})") from None
            raise SourceError(f"{source.description} cannot run: {_first_line(e)}") from None
        except duckdb.IOException as e:
            raise SourceError(f"cannot read {source.description}: {_first_line(e)}") from None
        except duckdb.Error as e:
            raise SourceError(f"cannot use {source.description}: {_first_line(e)}") from None

    def execute(self, sql: str) -> pd.DataFrame:
        try:
            return self.con.execute(sql).df()
        except duckdb.Error as e:
            raise EngineError(f"DuckDB rejected the query: {_first_line(e)}") from e

    def rows(self, sql: str) -> list[tuple]:
        try:
            return self.con.execute(sql).fetchall()
        except duckdb.Error as e:
            raise EngineError(f"DuckDB rejected the query: {_first_line(e)}") from e


class SQLiteEngine(Engine):
    dialect = "sqlite"
    name = "SQLite"
    errors = sqlite3.Error

    def _fetch(self, sql):
        cursor = self.con.execute(sql)
        return [d[0] for d in cursor.description], cursor.fetchall()

    def _missing(self, error):
        return "no such table" in str(error)

    def _schema(self, sql, source):
        names = self._fetch(sql)[0]
        declared = {}
        if isinstance(source.relation, exp.Table):  # declared types; a query's columns have none
            pragma = exp.select("name", "type").from_(exp.Anonymous(
                this="pragma_table_info", expressions=[exp.Literal.string(source.relation.name)]))
            if source.relation.db:
                pragma.args["from"].this.append("expressions", exp.Literal.string(source.relation.db))
            declared = dict(self._fetch(pragma.sql("sqlite"))[1])
        return {n: declared.get(n) or "NUMERIC" for n in names}

    def type_class(self, type_name: str) -> str:
        # SQLite's type affinity rules (https://www.sqlite.org/datatype3.html#determination_of_column_affinity)
        t = type_name.upper()
        if "INT" in t:
            return "numeric"
        if any(k in t for k in ("CHAR", "CLOB", "TEXT")):
            return "other"
        if any(k in t for k in ("REAL", "FLOA", "DOUB")):
            return "float"
        return "boolean" if "BOOL" in t else "numeric"


class PostgresEngine(Engine):
    """A psycopg 3 connection. Our SELECTs run in their own transaction when the connection is idle
    (ended afterwards); inside the caller's open transaction they leave it as it was."""

    dialect = "postgres"
    name = "PostgreSQL"

    def __init__(self, con, dialect: str | None = None):
        import psycopg
        super().__init__(con, dialect)
        self.errors = psycopg.Error

    @contextmanager
    def _cursor(self):
        """A cursor for one of our SELECTs; a transaction it opened on an idle connection is ended."""
        from psycopg.pq import TransactionStatus
        idle = self.con.info.transaction_status == TransactionStatus.IDLE
        try:
            with self.con.cursor() as cursor:
                yield cursor
        finally:
            if idle and not self.con.autocommit:
                self.con.rollback()  # only our read-only statement ran in this transaction

    def _fetch(self, sql):
        with self._cursor() as cursor:
            cursor.execute(sql)
            return [d.name for d in cursor.description], cursor.fetchall()

    def _missing(self, error):
        return getattr(error, "sqlstate", None) == "42P01"  # undefined_table

    def _schema(self, sql, source):
        with self._cursor() as cursor:
            cursor.execute(sql)
            types = self.con.adapters.types
            return {d.name: getattr(types.get(d.type_code), "name", "unknown") for d in cursor.description}

    def type_class(self, type_name: str) -> str:
        return {"float4": "float", "float8": "float", "int2": "numeric", "int4": "numeric", "int8": "numeric",
                "numeric": "numeric", "bool": "boolean"}.get(type_name, "other")


class SparkEngine(Engine):
    """A SparkSession (classic or Spark Connect). `data` may also be a Spark DataFrame: it is
    registered as a temporary view for the call."""

    dialect = "spark"
    name = "Spark"

    def __init__(self, con, dialect: str | None = None):
        from pyspark.errors import PySparkException
        super().__init__(con, dialect)
        self.errors = PySparkException

    @contextmanager
    def source(self, data, slot: str = "data"):
        if not is_spark_frame(data):
            with super().source(data, slot) as source:
                yield source
            return
        name = frame_view(slot)
        data.createOrReplaceTempView(name)
        try:
            yield Source(exp.Table(this=exp.to_identifier(name)), "the Spark DataFrame")
        finally:
            self.con.catalog.dropTempView(name)

    def _fetch(self, sql):
        frame = self.con.sql(sql)
        return frame.columns, [tuple(row) for row in frame.collect()]

    def _missing(self, error):
        return "TABLE_OR_VIEW_NOT_FOUND" in str(error)

    def _schema(self, sql, source):
        return dict(self.con.sql(sql).dtypes)  # analysed only: no job runs

    def type_class(self, type_name: str) -> str:
        t = type_name.lower()
        if t in ("double", "float"):
            return "float"
        if t in ("tinyint", "smallint", "int", "bigint") or t.startswith("decimal"):
            return "numeric"
        return "boolean" if t == "boolean" else "other"


class ClickHouseEngine(Engine):
    """chDB, ClickHouse in-process: a `chdb.session.Session` or a `chdb.connect()` connection."""

    dialect = "clickhouse"
    name = "ClickHouse"

    # chDB raises ChdbError (chdb._exceptions, not the chdb.ChdbError it exports) or a bare
    # RuntimeError, depending on the call: both are RuntimeErrors
    errors = RuntimeError

    def _fetch(self, sql):
        table = self.con.query(sql, "ArrowTable")
        # by column: unaliased expressions may share a name; to_pylist gives None for NULL
        return table.column_names, list(zip(*(column.to_pylist() for column in table.columns)))

    def _missing(self, error):
        return "UNKNOWN_TABLE" in str(error)

    def _schema(self, sql, source):
        described = self.con.query(f"DESCRIBE ({sql})", "ArrowTable").to_pydict()
        return dict(zip(described["name"], described["type"]))

    def type_class(self, type_name: str) -> str:
        t = type_name
        while inner := re.fullmatch(r"(?:Nullable|LowCardinality)\((.*)\)", t):
            t = inner.group(1)
        if re.fullmatch(r"B?Float\d+", t):
            return "float"
        if re.fullmatch(r"U?Int\d+|Decimal(\d+)?\(.*\)", t):
            return "numeric"
        return "boolean" if t == "Bool" else "other"


def is_spark_frame(data) -> bool:
    return type(data).__module__.startswith("pyspark.") and type(data).__name__ == "DataFrame"


def connect(con, dialect: str | None = None, data=None) -> Engine:
    """The engine for a connection object; `dialect` overrides its SQL. Without `con`: the Spark
    session of a Spark DataFrame given as `data`, else the private DuckDB."""
    if con is None and is_spark_frame(data):
        con = data.sparkSession
    if con is None or isinstance(con, duckdb.DuckDBPyConnection):
        return DuckDBEngine(con, dialect)
    if isinstance(con, sqlite3.Connection):
        return SQLiteEngine(con, dialect)
    module, kind = type(con).__module__.split(".")[0], type(con).__name__
    if module == "psycopg":
        return PostgresEngine(con, dialect)
    if module == "pyspark" and kind == "SparkSession":
        return SparkEngine(con, dialect)
    if module == "chdb" and kind in ("Session", "Connection"):
        return ClickHouseEngine(con, dialect)
    raise SourceError("con must be a DuckDB, sqlite3 or psycopg (3) connection, a SparkSession or a chDB "
                      f"session; got {type(con).__name__}")


def _plain(value):
    """Engine values as Python numbers (PostgreSQL returns Decimal for sums of integers)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def as_from(relation: exp.Expression) -> exp.Expression:
    return relation.subquery("sm_source") if isinstance(relation, exp.Query) else relation


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0]
