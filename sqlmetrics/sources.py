"""What ``data`` can be, and how each kind becomes a relation in SQL.

- a table reference string: ``"preds"``, ``"db.schema.preds"`` (parts may be quoted);
- a path or glob to Parquet/CSV/TSV/JSON files (read by DuckDB);
- ``Query("SELECT ...")``: the user's own SELECT, checked to be exactly one read-only query;
- a pandas or polars DataFrame, or a pyarrow Table (registered on DuckDB for the call).
A bare string is never SQL.
"""
from __future__ import annotations

import glob
import os
import re
import uuid
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb
from sqlglot import exp

from .errors import SourceError
from .sqltext import parse_condition, parse_select, parse_table_name

_FILE = re.compile(r"\.(?P<fmt>parquet|csv|tsv|json|jsonl|ndjson)(?:\.(?:gz|gzip|zst|zstd))?\Z", re.I)
# One name per process: unlikely to meet a user's own view, and stable from call to call so the
# generated SQL (and sqltext's memo of it) repeats. Calls on one connection are sequential.
_FRAME_VIEW = f"sm_frame_{uuid.uuid4().hex[:12]}"
_READERS = {"parquet": "read_parquet", "csv": "read_csv", "tsv": "read_csv",
            "json": "read_json", "jsonl": "read_json", "ndjson": "read_json"}


@dataclass(frozen=True)
class Query:
    """Your own SELECT as the data: ``sm.auc(sm.Query("SELECT * FROM preds WHERE day = 3"), ...)``.

    It must parse as exactly one read-only SELECT in the engine's dialect. `name`: how messages
    name it.
    """
    sql: str
    name: str = "the query"


@dataclass(frozen=True)
class Source:
    relation: exp.Expression  # exp.Table or exp.Query, in place of the template placeholder
    description: str  # how error messages name it


def is_frame(data) -> bool:
    return type(data).__module__.split(".")[0] in ("pandas", "polars", "pyarrow")


def is_file_path(data) -> bool:
    return isinstance(data, (str, os.PathLike)) and bool(_FILE.search(os.fspath(data)))


def describe(data) -> str:
    if isinstance(data, Query):
        return data.name
    if is_frame(data):
        return f"the {type(data).__module__.split('.')[0]} {type(data).__name__}"
    return repr(os.fspath(data)) if isinstance(data, (str, os.PathLike)) else repr(data)


def file_source(path) -> Source:
    """DuckDB's reader over the files a path or glob matches; raises if it matches nothing."""
    path = os.fspath(path)
    fmt = _FILE.search(path).group("fmt").lower()
    if "://" not in path:  # remote URLs are left to DuckDB
        path = os.path.expanduser(path)
        # a file whose own name has glob characters ('data[1].csv') is found as it is
        if not (os.path.isfile(path) or glob.glob(path)):
            raise SourceError(f"no file matches {path!r}")
    reader = exp.Anonymous(this=_READERS[fmt], expressions=[exp.Literal.string(path)])
    select = exp.select("*").from_(exp.Table(this=reader))
    return Source(select, repr(path))


def table_source(name: str, dialect: str) -> Source:
    return Source(parse_table_name(name, dialect), f"table {name!r}")


def query_source(query: Query, dialect: str) -> Source:
    return Source(parse_select(query.sql, dialect, f"{query.name} passed as data"), query.name)


def filtered(data, condition: str, what: str) -> Query:
    """The rows of `data` (a table name or files, read by DuckDB) where `condition` holds: one
    condition on its columns (`what` names it in messages), as the command line's --where."""
    tree = parse_condition(condition, "duckdb", what)
    source = static_source(data, "duckdb")
    relation = source.relation.subquery("sm_where") if isinstance(source.relation, exp.Query) else source.relation
    return Query(exp.select("*").from_(relation).where(tree).sql("duckdb"),
                 f"{source.description} where {' '.join(condition.split())}")


def static_source(data, dialect: str) -> Source:
    """A source that needs no engine: a table name, a Query, or (DuckDB only) files."""
    if isinstance(data, Query):
        return query_source(data, dialect)
    if is_file_path(data):
        if dialect != "duckdb":
            raise SourceError(f"files can only be read by DuckDB, not {dialect}; load {describe(data)} "
                              "into a table on that engine first")
        return file_source(data)
    if isinstance(data, str):
        return table_source(data, dialect)
    if isinstance(data, os.PathLike):
        raise SourceError(f"{describe(data)} is not a Parquet, CSV or JSON file path")
    if is_frame(data):
        raise SourceError(f"{describe(data)} has no name in SQL: pass a table name or sqlmetrics.Query")
    raise SourceError(f"data must be a table name, a file path, a sqlmetrics.Query, or a pandas/polars "
                      f"DataFrame or pyarrow Table; got {type(data).__name__}")


def frame_view(slot: str) -> str:
    """The name a frame is registered under for the duration of a call (one per `slot`: a run and
    its qrels may both be frames)."""
    return f"{_FRAME_VIEW}_{slot}"


@contextmanager
def duckdb_source(data, con, slot: str = "data"):
    """The source on a DuckDB connection; a frame is registered for the duration of the call."""
    if not is_frame(data):
        yield static_source(data, "duckdb")
        return
    names = [str(c) for c in (data.column_names if type(data).__name__ == "Table" else data.columns)]
    twice = sorted({n for n in names if sum(m.lower() == n.lower() for m in names) > 1})
    if twice:  # DuckDB would rename all but one of them, and a metric read the first
        raise SourceError(f"{describe(data)} has more than one column named {twice[0]!r} (names that differ only "
                          "in case count as one in SQL); rename the others")
    name = frame_view(slot)
    try:
        con.register(name, data)
    except duckdb.Error as e:  # a column type DuckDB cannot read, a closed connection...
        raise SourceError(f"DuckDB cannot read {describe(data)}: {str(e).strip().splitlines()[0]}") from None
    try:
        yield Source(exp.Table(this=exp.to_identifier(name, quoted=True)), describe(data))
    finally:
        con.unregister(name)


__all__ = ["Query", "Source", "static_source", "duckdb_source"]
