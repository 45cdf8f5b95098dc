"""Running SQL: DuckDB, in-process (other engines arrive with the engines issue).

Only SELECT statements produced by ``sqltext.finish`` or ``checks`` are executed here.
"""
from __future__ import annotations

import re
import threading
from contextlib import contextmanager

import duckdb
import pandas as pd
from sqlglot import exp

from .errors import EngineError, SourceError
from .sources import Source, duckdb_source

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


class DuckDBEngine:
    dialect = "duckdb"

    def __init__(self, con=None):
        if con is not None and not isinstance(con, duckdb.DuckDBPyConnection):
            raise SourceError(f"con must be a DuckDB connection; got {type(con).__name__}")
        self.con = con if con is not None else default_connection()

    @contextmanager
    def source(self, data, slot: str = "data"):
        with duckdb_source(data, self.con, slot) as source:
            yield source

    def schema(self, source: Source) -> dict[str, str]:
        """Column name -> DuckDB type name, without reading any rows."""
        sql = exp.select("*").from_(_as_from(source.relation)).limit(0).sql("duckdb")
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
        """All rows as Python values (for small check queries)."""
        try:
            return self.con.execute(sql).fetchall()
        except duckdb.Error as e:
            raise EngineError(f"DuckDB rejected the query: {_first_line(e)}") from e

    def first_row(self, sql: str) -> tuple:
        return self.rows(sql)[0]


def _as_from(relation: exp.Expression) -> exp.Expression:
    return relation.subquery("sm_source") if isinstance(relation, exp.Query) else relation


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0]
