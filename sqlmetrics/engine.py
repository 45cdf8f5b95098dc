"""Running SQL on an engine: DuckDB (in-process, the default), SQLite, PostgreSQL (psycopg 3),
Spark (a SparkSession) and ClickHouse (a chDB session), each by its own API; and any warehouse
through a DB-API 2.0 connection of its own driver, or the one a SQLAlchemy Engine or Connection
holds (``DBAPIEngine``, with what each driver does its own way in ``drivers.py``).

Only SELECT statements produced by ``sqltext`` are executed here, inside ``Engine.call()``: one call
has the connection to itself (a lock per connection) and, where the engine has transactions, reads
one read-only snapshot, so its input checks and its metric see the same rows; the connection is
left as it was found. Every statement is checked as the text that runs (``Engine.checked``): sqlglot
reads it as one read-only SELECT, and the engine's own reader, where one can be asked, reads it as
sqlglot does. The drivers of the optional engines are imported by their engine class only,
so none of them is a dependency.
"""
from __future__ import annotations

import bisect
import functools
import itertools
import math
import sqlite3
import sys
import threading
import uuid
import weakref
from collections.abc import Mapping
from contextlib import ExitStack, contextmanager, nullcontext
from decimal import Decimal
from typing import TYPE_CHECKING

import duckdb
import sqlglot
from sqlglot import exp
from sqlglot.tokens import TokenType

from . import dialects, drivers, interrupts
from .errors import EngineError, SourceError
from .sources import (Query, Source, describe, duckdb_source, is_file_path, is_frame, is_relation, is_trec,
                      missing_table, static_source)
from .sqltext import QUOTED_TOKENS, STRING_TOKENS, check_final, functions_called, tokens

if TYPE_CHECKING:
    import pandas as pd

_PARAMETER_TOKENS = frozenset({TokenType.PARAMETER, TokenType.PLACEHOLDER, TokenType.SEMICOLON})
_local = threading.local()
# One lock per connection object: calls from threads sharing a connection take turns. Weak keys
# where the driver allows (a lock dies with its connection); sqlite3 connections only by id.
_LOCKS_GUARD = threading.Lock()
_LOCKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LOCKS_BY_ID: dict[int, threading.RLock] = {}



def own_connection(database: str = ":memory:", read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection sqlmetrics opens itself, without DuckDB's progress bar (it would draw on
    stdout, among the results); a connection the caller passes is never changed."""
    con = duckdb.connect(database, read_only=read_only)
    con.execute("SET enable_progress_bar = false")
    return con


def default_connection() -> duckdb.DuckDBPyConnection:
    """The private in-memory DuckDB used when no `con` is given (one per thread)."""
    if getattr(_local, "con", None) is None:
        _local.con = own_connection()
    return _local.con


class Engine:
    """What the metrics need from a database: sources, column types, and running a SELECT."""

    dialect = "duckdb"
    name = "DuckDB"
    case_insensitive = True  # identifiers match whatever their case (quoted or not)
    typed_values = True  # a column's values have its type

    #: the server's version string, where servers of one dialect differ (Capabilities.for_server)
    server: str | None = None
    #: the schemas of the caller's search path, read as the call began (Capabilities.builtin_path)
    caller_path: list[str] | None = None
    #: the names of the connection's own functions that its engine calls in place of a builtin of
    #: that name (Capabilities.own_functions), read as the call began
    shadowing: frozenset[str] = frozenset()

    def __init__(self, con, dialect: str | None = None):
        self.con = con
        self.dialect = dialect or self.dialect
        self._columns: dict[str, Schema] = {}  # a table's columns by its qualified name, as _catalogued read them
        self._asked: dict[str, list[tuple]] = {}  # the queries rows_once asked in the call's span, and their rows

    @property
    def capabilities(self) -> dialects.Capabilities:
        return dialects.of(self.dialect).for_server(self.server)

    @functools.cached_property
    def reading(self) -> str:
        """The sqlglot dialect a user's SQL text (a Query, a --where) is read in: as the caller's session
        reads it (Capabilities.reading; asked of the session where the call did not learn it as it began)."""
        caps = self.capabilities
        query = caps.reading_query(self.pins)
        return caps.reading(None if query is None else self._fetch(query)[1][0][0])

    #: what lent the connection for one call (a SQLAlchemy engine's pool), given back when the call ends
    lease = None

    @contextmanager
    def call(self):
        """The span of one metric call: the connection to itself, one read-only snapshot where the
        engine has transactions, and the connection as it was found afterwards."""
        try:
            with connection_lock(self.con):
                self.pins = self._pins()
                self._asked = {}
                self._span = ExitStack()  # renew() may replace it
                try:
                    self._span.enter_context(self._snapshot())
                    yield
                finally:
                    self._span.close()
        finally:
            if self.lease is not None:
                self.lease.close()

    #: a failed statement leaves the call's span usable, or renew() can begin it anew: False on a caller's
    #: DuckDB connection, which has no savepoints (a failure aborts the transaction the call's frames
    #: are registered in)
    renewable = True

    def renew(self) -> None:
        """After a failed statement, the call's span ended and begun again where the failure aborted its
        transaction (Capabilities.failure_aborts): a diagnostic query can then run (in a newer snapshot)."""
        if self.capabilities.failure_aborts:
            self._asked = {}
            self._span.close()
            self._span = ExitStack()
            self._span.enter_context(self._snapshot())

    #: the statement settings each statement of the call fixes (Capabilities.pinned)
    pins: tuple[tuple[str, str], ...] = ()

    def _pins(self) -> tuple[tuple[str, str], ...]:
        """The statement_settings to fix: those the session has changed, where that can be asked
        (Capabilities.changed_settings), else every one."""
        caps = self.capabilities
        query = caps.changed_settings()
        if query is None:
            return caps.statement_settings
        try:
            rows = self._fetch(query)[1]
        except self.errors:  # a session that cannot read its settings (use_query_cache on a system table)
            rows = []
        changed = set(rows[0][0]) if rows else None  # no row: the session skips rows (offset), or could not say
        return tuple((name, value) for name, value in caps.statement_settings if changed is None or name in changed)

    def _snapshot(self):
        """No transactions (Spark, ClickHouse): each statement reads the table as it is then."""
        return nullcontext()

    @contextmanager
    def source(self, data, slot: str = "data"):
        if is_frame(data) or is_file_path(data) or is_trec(data):
            raise SourceError(f"{describe(data)} is not on {self.name}: with con= a {self.name} connection, "
                              "data is a table name or a sqlmetrics.Query on that database (sqlmetrics never "
                              "uploads data into it)")
        yield self._found(static_source(data, self.dialect, self.reading if isinstance(data, Query) else None))

    def _found(self, source: Source) -> Source:
        """`source` with each table it reads by an unqualified name named with the schema the caller's
        search path finds it in, where the call's own path holds the builtins only
        (Capabilities.builtin_path): the data is the caller's, the functions and operators ours. A
        name found nowhere stays as it is, for the engine to say it does not exist."""
        if self.caller_path is None:
            return source
        if isinstance(source.relation, exp.Table) and not source.relation.args.get("catalog"):
            return self._catalogued(source)
        relation = source.relation.copy()
        ctes = {_folded(cte.args["alias"].this) for cte in relation.find_all(exp.CTE) if cte.args.get("alias")}
        tables = [t for t in relation.find_all(exp.Table) if isinstance(t.this, exp.Identifier)
                  and not t.args.get("db") and _folded(t.this) not in ctes]
        names = sorted({_folded(t.this) for t in tables})
        if not names:
            return source
        listed = ", ".join(exp.Literal.string(n).sql("postgres") for n in names)
        path = ", ".join(exp.Literal.string(n).sql("postgres") for n in self.caller_path)
        found: dict[str, str] = {}
        for name, schema in sorted(self.rows(
                "SELECT c.relname, n.nspname FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n "
                f"ON n.oid = c.relnamespace WHERE c.relname IN ({listed}) AND n.nspname IN ({path})"),
                key=lambda row: self.caller_path.index(row[1])):
            found.setdefault(name, schema)  # the first schema of the path that has it, as the engine looks
        for table in tables:
            if _folded(table.this) in found:
                table.set("db", exp.to_identifier(found[_folded(table.this)], quoted=True))
        return Source(relation, source.description, source.name)

    def _catalogued(self, source: Source) -> Source:
        """A table given by name, as _found names it, and its columns (taken by schema() instead of a
        probe of its own: one round trip fewer), from one query of the catalogue. A domain's column is
        of its base type, as a result's description has it. Where the caller may not read the table,
        or it is found nowhere, its probe says so."""
        table = source.relation.copy()
        schemas = [_folded(table.args["db"])] if table.args.get("db") else self.caller_path
        listed = ", ".join(exp.Literal.string(n).sql("postgres") for n in schemas)
        columns = ("FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid "
                   "JOIN pg_catalog.pg_type AS b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END "
                   "WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")
        found = sorted(self.rows(
            # named: a dictionary cursor's rows hold one value per name
            "SELECT n.nspname AS sm_schema, pg_catalog.has_table_privilege(c.oid, 'SELECT') AS sm_readable, "
            f"ARRAY(SELECT CAST(a.attname AS TEXT) {columns}) AS sm_names, "
            f"ARRAY(SELECT CAST(b.typname AS TEXT) {columns}) AS sm_types "
            "FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace "
            f"WHERE c.relname = {exp.Literal.string(_folded(table.this)).sql('postgres')} AND n.nspname IN ({listed})"),
            key=lambda row: schemas.index(row[0]))  # the first schema of the path that has it, as the engine looks
        if not found:
            return source
        schema, readable, names, types = found[0]
        table.set("db", exp.to_identifier(schema, quoted=True))
        if readable and names:
            self._columns[table.sql(self.dialect)] = Schema(names, types, self.case_insensitive)
        return Source(table, source.description, source.name)

    def type_class(self, type_name: str) -> str:
        return self.capabilities.type_class(type_name)

    def checked(self, sql: str) -> str:
        """`sql`, once it is known to run as it was checked: sqlglot reads it in the engine's dialect
        as exactly one read-only SELECT (sqltext.check_final), and the engine's own reader, where
        one can be asked, agrees (_disagreement). Every statement of a call is sent through here."""
        check_final(sql, self.dialect)
        shadowed = sorted(self.shadowing & functions_called(sql, self.dialect))
        if shadowed:
            raise SourceError(f"the {self.name} connection defines a function of its own named {shadowed[0]}(), which "
                              f"{self.name} would call in place of its builtin {shadowed[0]}() in sqlmetrics' SQL: drop "
                              "or rename it, or pass another connection")
        sent = self.capabilities.pinned(sql, self.pins)
        reason = self._disagreement(sent)
        if reason:
            raise SourceError(f"{self.name} reads the SQL written for this call otherwise than sqlmetrics checked it "
                              f"({reason}): a query or condition given has a form the two read differently "
                              "(a placeholder, a dollar-quoted or escape string?); sqlmetrics runs only what it has "
                              "checked")
        return sent

    def _disagreement(self, sql: str) -> str | None:
        """Where the engine's own reader reads `sql` otherwise than sqlglot, or None. The base: an
        engine whose reader cannot be asked (the statement still runs alone, as check_final read it)."""
        return None

    def schema(self, source: Source) -> Schema:
        """Column name -> type name, without reading any rows."""
        if isinstance(source.relation, exp.Table) and source.relation.sql(self.dialect) in self._columns:
            return self._columns[source.relation.sql(self.dialect)]
        sql = self.checked(_schema_query(source).sql(self.dialect))
        try:
            return self._schema(sql, source)
        except self.errors as e:
            if isinstance(source.relation, exp.Table) and self._missing(e):
                raise missing_table(
                    source, f"{source.description} does not exist on {self.name} ({_first_line(e)})") from None
            raise SourceError(f"cannot use {source.description} on {self.name}: {_first_line(e)}") from None

    def rows(self, sql: str) -> list[tuple]:
        """All rows as Python values (for small check queries)."""
        sql = self.checked(sql)
        try:
            return [tuple(_plain(v) for v in row) for row in self._fetch(sql)[1]]
        except self.errors as e:
            raise EngineError(f"{self.name} rejected the query: {_first_line(e)}") from e

    def rows_once(self, sql: str) -> list[tuple]:
        """rows(sql), asked once in the call's span (one snapshot, read-only: the same rows): the metrics
        of one statement (api.compute_many) share their checks' diagnosis and their plans' measures."""
        if sql not in self._asked:
            self._asked[sql] = self.rows(sql)
        return self._asked[sql]

    def first_row(self, sql: str) -> tuple:
        return self.rows(sql)[0]

    def execute(self, sql: str) -> pd.DataFrame:
        import pandas as pd  # only where a frame is the result: a single value needs none (one_row)
        columns, rows = self._result(sql)
        return pd.DataFrame(rows, columns=columns).infer_objects()

    def one_row(self, sql: str) -> dict:
        """The first row of the result as {column: Python value} ({} when there is none)."""
        columns, rows = self._result(sql)
        return dict(zip(columns, rows[0])) if rows else {}

    def _result(self, sql: str) -> tuple[list[str], list[tuple]]:
        """The result's column names as the query writes them, and its rows as Python values."""
        sql = self.checked(sql)
        try:
            columns, rows = self._fetch(sql)
        except self.errors as e:
            raise EngineError(f"{self.name} rejected the query: {_first_line(e)}") from e
        if self.capabilities.folds_result_names:
            columns = _select_names(sql, self.dialect, columns)
        largest = self.capabilities.infinity_stand_in
        plain = _plain if largest is None else functools.partial(_infinite, largest=largest)
        return columns, [tuple(plain(v) for v in row) for row in rows]


class DuckDBEngine(Engine):
    errors = duckdb.Error

    def __init__(self, con=None, dialect: str | None = None):
        super().__init__(con if con is not None else default_connection(), dialect)
        # the private connection holds no tables, only the call's frames and files (which no
        # transaction holds still): nothing to snapshot
        self.private = con is None

    @contextmanager
    def _snapshot(self):
        """A transaction of our own (DuckDB's are snapshots), rolled back; inside the caller's
        transaction, that one already is a snapshot. DuckDB has no savepoints: an error at run time
        inside the caller's transaction aborts it (a missing table or column, found while binding
        the schema query, does not)."""
        if self.private:
            yield
            return
        in_transaction = self._in_transaction()
        self.shadowing = _macros_named_like_builtins(self.con, self.capabilities.own_functions)
        # a failed statement aborts the transaction, and rolling ours back would drop the call's frames
        # registered in it; the private connection has no transaction
        self.renewable = False
        if in_transaction:
            yield
            return
        self.con.begin()
        try:
            yield
        finally:
            self.con.rollback()

    def _in_transaction(self) -> bool:
        # A BEGIN inside a transaction fails *and aborts it*; a transaction's id is stable, while each
        # autocommitted statement gets a new one.
        try:
            first, second = (self.con.execute("SELECT txid_current()").fetchone()[0] for _ in range(2))
        except duckdb.TransactionException as e:  # the caller's transaction failed earlier
            raise SourceError(f"the DuckDB connection's transaction has failed ({_first_line(e)}): "
                              "roll it back before computing a metric") from None
        except duckdb.Error as e:  # closed, or the database invalidated
            raise SourceError(f"the DuckDB connection cannot be used: {_first_line(e)}") from None
        return first == second

    @contextmanager
    def source(self, data, slot: str = "data"):
        with duckdb_source(data, self.con, slot, self.rows) as source:
            yield source

    def _disagreement(self, sql: str) -> str | None:
        try:
            statements = self.con.extract_statements(sql)
        except duckdb.Error as e:
            return f"DuckDB cannot read it: {_first_line(e)}"
        if len(statements) != 1 or statements[0].type != duckdb.StatementType.SELECT:
            return f"DuckDB reads {len(statements)} statement(s): {', '.join(s.type.name for s in statements)}"
        return _duckdb_disagreement(sql)

    def schema(self, source: Source) -> Schema:
        sql = self.checked(_schema_query(source).sql("duckdb"))
        try:
            with _interruptible():
                rel = self.con.sql(sql)
            return Schema(rel.columns, rel.types, self.case_insensitive)
        except duckdb.CatalogException as e:
            if isinstance(source.relation, exp.Table):
                raise missing_table(source, f"{source.description} does not exist ({_first_line(e)})") from None
            raise SourceError(f"{source.description} cannot run: {_first_line(e)}") from None
        except duckdb.IOException as e:
            raise SourceError(f"cannot read {source.description}: {_first_line(e)}") from None
        except duckdb.Error as e:
            raise SourceError(f"cannot use {source.description}: {_first_line(e)}") from None

    def execute(self, sql: str) -> pd.DataFrame:
        sql = self.checked(sql)
        with self._errors():
            return self.con.execute(sql).df()

    def one_row(self, sql: str) -> dict:
        sql = self.checked(sql)
        with self._errors():
            result = self.con.execute(sql)
            rows = result.fetchall()  # all: a result left unfinished would hold the connection
        return {d[0]: _plain(v) for d, v in zip(result.description, rows[0])} if rows else {}

    def rows(self, sql: str) -> list[tuple]:
        sql = self.checked(sql)
        with self._errors():
            return self.con.execute(sql).fetchall()

    @contextmanager
    def _errors(self):
        try:
            with _interruptible():
                yield
        except duckdb.Error as e:
            raise EngineError(f"DuckDB rejected the query: {_first_line(e)}") from e


#: per DuckDB connection, the names of its macros that shadow a builtin of the same name (CREATE MACRO
#: ln(x) AS 42), found on its first call: duckdb_functions() costs ~10 ms, as much as a call itself
_SHADOWING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _macros_named_like_builtins(con: duckdb.DuckDBPyConnection, query: str) -> frozenset[str]:
    with _LOCKS_GUARD:
        if con not in _SHADOWING:
            _SHADOWING[con] = frozenset(name.lower() for (name,) in con.execute(query).fetchall())
        return _SHADOWING[con]


@functools.lru_cache(maxsize=512)
def _duckdb_disagreement(sql: str) -> str | None:
    """Where DuckDB's own tokenizer (its parser's) reads a string or a quoted name of `sql` otherwise
    than sqlglot, or finds a comment (none is written), or None."""
    theirs = duckdb.tokenize(sql)
    if not sql.isascii():  # DuckDB counts bytes of UTF-8, sqlglot characters
        character = {byte: i for i, byte in enumerate(itertools.accumulate((len(c.encode()) for c in sql), initial=0))}
        theirs = [(character[start], kind) for start, kind in theirs]
    comment = next((start for start, kind in theirs if kind == duckdb.token_type.comment), None)
    if comment is not None:
        return f"a comment at {_at(sql, comment)}"
    return _spans_disagreement(sql, "duckdb", [start for start, _ in theirs],
                               {start for start, kind in theirs if kind == duckdb.token_type.string_const})


def _spans_disagreement(sql: str, dialect: str, starts: list[int], string_starts: set[int]) -> str | None:
    """Where a reader whose tokens start at `starts` (strings at `string_starts`) reads a string or a
    quoted name of `sql` otherwise than sqlglot in `dialect`, or None. Outside strings, quoted names
    and comments, two readers may split text into tokens differently (GROUP BY is one token or two)
    without reading different code; where one sees a quote and the other does not, they read
    different statements."""
    ours = tokens(sql, dialect)
    our_strings = {t.start for t in ours if t.token_type in STRING_TOKENS}
    differ = sorted(our_strings ^ string_starts)
    if differ:
        return f"a string at {_at(sql, differ[0])} for one reader only"
    for token in ours:
        if token.token_type in QUOTED_TOKENS:
            i = bisect.bisect_left(starts, token.start)
            if i == len(starts) or starts[i] != token.start or (i + 1 < len(starts) and starts[i + 1] <= token.end):
                return f"the quoted text at {_at(sql, token.start)} ends elsewhere"
    return None


@functools.lru_cache(maxsize=512)
def _sqlite_disagreement(sql: str) -> str | None:
    """Where SQLite's own tokenizer reads a string or a quoted name of `sql` otherwise than sqlglot, or
    None. sqlite3.complete_statement(text + ';') tells whether text ends outside any string, quoted
    name and comment, as SQLite reads it: at the start of each of sqlglot's tokens it must, inside
    each of its strings and quoted names it must not, and after them it must again. Each question
    is asked of the text from the last place known to be outside (where SQLite reads on as from the
    start), so the whole costs one reading of the text."""
    known = 0  # a position SQLite reads as outside any quote

    def outside(position: int) -> bool:
        return sqlite3.complete_statement(sql[known:position] + ";")

    for token in tokens(sql, "sqlite"):
        if not outside(token.start):
            return f"the text at {_at(sql, token.start)} is quoted for SQLite only"
        known = token.start
        if token.token_type in QUOTED_TOKENS:
            if outside(token.start + 1) or not outside(token.end + 1):
                return f"the quoted text at {_at(sql, token.start)} ends elsewhere for SQLite"
            known = token.end + 1
        elif sql[token.start] in "?:@$":  # SQLite's parameters: ?, ?1, :name, @name, $name
            return f"SQLite reads a parameter at {_at(sql, token.start)}"
    return None if outside(len(sql)) else f"the text from {_at(sql, known)} is quoted for SQLite only"


def _at(sql: str, position: int) -> str:
    return f"character {position + 1}, {sql[position:position + 30]!r}"


@contextmanager
def _interruptible():
    """An interrupted DuckDB query as KeyboardInterrupt: Ctrl-C surfaces as RuntimeError('Query
    interrupted'), `connection.interrupt()` from another thread as duckdb.InterruptException."""
    try:
        yield
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None
    except RuntimeError as e:
        if str(e) == "Query interrupted":
            raise KeyboardInterrupt from None
        raise


class SQLiteEngine(Engine):
    dialect = "sqlite"
    name = "SQLite"
    errors = sqlite3.Error
    driver = drivers.SQLite3("sqlite", "sqlite3")
    typed_values = False  # a column holds values of any type, and a query's columns have no declared one

    #: the connection's settings for a call: read-only, and each result column named as the SQL names
    #: it (full_column_names = 1 names a column "t.x"; short_column_names = 0 too, and they are kept
    #: where the caller set them)
    _PRAGMAS = {"query_only": 1, "full_column_names": 0, "short_column_names": 1}

    @contextmanager
    def _snapshot(self):
        """A read transaction (SQLite's reads in one transaction see one state of the database), with
        the connection's _PRAGMAS set for the call, as they were afterwards."""
        found = dict(zip(self._PRAGMAS, self._settings()))
        changed = {name: value for name, value in self._PRAGMAS.items() if found[name] != value}
        for name, value in changed.items():
            self.con.execute(f"PRAGMA {name} = {value}")
        try:
            if self.con.in_transaction:  # the caller's
                yield
                return
            self.con.execute("BEGIN")
            try:
                yield
            finally:
                if self.con.in_transaction:
                    self.con.execute("ROLLBACK")
        finally:
            for name in changed:
                self.con.execute(f"PRAGMA {name} = {int(found[name])}")

    def _settings(self) -> tuple:
        """The values of _PRAGMAS, in one statement, and the application functions that shadow a builtin
        (self.shadowing), where this SQLite lists functions (pragma_function_list)."""
        pragmas = ", ".join(f"(SELECT {name} FROM pragma_{name})" for name in self._PRAGMAS)
        try:
            *values, own = self._fetch(f"SELECT {pragmas}, (SELECT group_concat(name, char(31)) FROM "
                                       f"({self.capabilities.own_functions}))")[1][0]
        except sqlite3.OperationalError:  # built without introspection pragmas: no list of functions
            return self._fetch(f"SELECT {pragmas}")[1][0]
        self.shadowing = frozenset(name.lower() for name in (own or "").split("\x1f") if name)
        return values

    def _disagreement(self, sql: str) -> str | None:
        return _sqlite_disagreement(sql)

    @interrupts.cancellable
    def _fetch(self, sql):
        cursor = self.con.cursor()
        cursor.row_factory = None  # plain tuples, whatever the connection's row factory
        cursor.execute(sql)
        return [d[0] for d in cursor.description], cursor.fetchall()

    def _missing(self, error):
        return "no such table" in str(error)

    def _schema(self, sql, source):
        names = self._fetch(sql)[0]
        declared = {}
        if isinstance(source.relation, exp.Table):  # declared types; a query's columns have none
            args = [exp.Literal.string(p) for p in (source.relation.name, source.relation.db) if p]
            pragma = exp.select("name", "type").from_(exp.Anonymous(this="pragma_table_info", expressions=args))
            declared = dict(self._fetch(self.checked(pragma.sql("sqlite")))[1])
        return Schema(names, [declared.get(n) or "NUMERIC" for n in names], self.case_insensitive)



class PostgresEngine(Engine):
    """A psycopg 3 connection. A call runs in a READ ONLY transaction of its own at REPEATABLE READ
    (one snapshot), rolled back, when the connection is idle; inside the caller's open transaction,
    in a read-only savepoint rolled back to, so an error of ours leaves that transaction usable.
    Either way the call reads string literals as sqlglot writes them (standard_conforming_strings
    on: a backslash is a character, not an escape), and every statement goes by the extended
    protocol, where the server parses one statement and refuses a second."""

    dialect = "postgres"
    name = "PostgreSQL"
    case_insensitive = False
    driver = drivers.Psycopg("postgres", "psycopg")

    def __init__(self, con, dialect: str | None = None):
        import psycopg
        super().__init__(con, dialect)
        self.errors = psycopg.Error

    @contextmanager
    def _snapshot(self):
        from psycopg.pq import TransactionStatus
        status = self.con.info.transaction_status
        if status == TransactionStatus.INERROR:
            raise SourceError("the PostgreSQL connection's transaction has failed: roll it back before "
                              "computing a metric")
        if self.con.closed:
            raise SourceError("the PostgreSQL connection is closed")
        caps = self.capabilities
        if status == TransactionStatus.INTRANS:
            begin, end = caps.within_transaction
            self._begin(*begin)
            try:
                yield
            finally:
                self._run(*end)
            return
        autocommit = self.con.autocommit
        self.con.autocommit = True  # so psycopg sends no BEGIN of its own before ours
        try:
            # Redshift and other PostgreSQL-protocol engines take no isolation level but their default
            self._begin(caps.begin_read_only)
            try:
                yield
            finally:
                self._run(caps.rollback)
        finally:
            self.con.autocommit = autocommit

    def _begin(self, *statements: str) -> None:
        """The statements opening the call's span, then its settings and its call_start, in one round trip."""
        _begun(self, statements)

    def _run(self, *statements: str) -> tuple | None:
        """`statements` in one round trip (without parameters, psycopg sends them by the simple query
        protocol, which takes several); the last one's first row, where it returns rows."""
        with self._cursor() as cursor:
            cursor.execute("; ".join(statements), prepare=False)
            while cursor.nextset():
                pass
            return cursor.fetchone() if cursor.description else None

    @contextmanager
    def _cursor(self):
        from psycopg.rows import tuple_row
        with self.con.cursor(row_factory=tuple_row) as cursor:  # whatever the connection's row factory
            yield cursor

    @interrupts.cancellable
    def _fetch(self, sql):
        with self._cursor() as cursor:
            # binary results: psycopg then sends by the extended protocol (one statement), as it
            # does not for text results without parameters
            cursor.execute(sql, prepare=False, binary=True)
            return [d.name for d in cursor.description], cursor.fetchall()

    def _missing(self, error):
        return getattr(error, "sqlstate", None) == "42P01"  # undefined_table

    @interrupts.cancellable
    def _schema(self, sql, source):
        with self._cursor() as cursor:
            # never prepared: psycopg prepares a statement run 5 times, and its plan fails once a
            # table of that name is recreated with other column types; binary: as _fetch
            cursor.execute(sql, prepare=False, binary=True)
            types = self.con.adapters.types
            return Schema([d.name for d in cursor.description],
                          [getattr(types.get(d.type_code), "name", "unknown") for d in cursor.description],
                          self.case_insensitive)


class SparkEngine(Engine):
    """A SparkSession (classic or Spark Connect). `data` may also be a Spark DataFrame: it is
    registered as a temporary view for the call."""

    dialect = "spark"
    name = "Spark"

    def __init__(self, con, dialect: str | None = None):
        from pyspark.errors import PySparkException
        super().__init__(con, dialect)
        self.errors = (PySparkException,)
        try:  # a classic session raises Py4J's error when several tasks fail at once
            from py4j.protocol import Py4JJavaError
            self.errors += (Py4JJavaError,)
        except ImportError:  # Spark Connect: no Py4J
            pass

    @contextmanager
    def source(self, data, slot: str = "data"):
        if not is_spark_frame(data):
            with super().source(data, slot) as source:
                yield source
            return
        # A session is shared by threads (the usual way to use Spark), and its temporary views with
        # it: a name of the call's own.
        name = f"sm_frame_{uuid.uuid4().hex}_{slot}"
        data.createOrReplaceTempView(name)
        try:
            yield Source(exp.Table(this=exp.to_identifier(name)), "the Spark DataFrame")
        finally:
            self.con.catalog.dropTempView(name)

    def _disagreement(self, sql: str) -> str | None:
        # Spark puts the values of ${name}, ${env:NAME}, ${system:name} in place in the text before
        # reading it (spark.sql.variable.substitute, on by default)
        start = sql.find("${")
        return f"Spark puts a variable's value in place of ${{...}} at {_at(sql, start)}" if start >= 0 else None

    def _fetch(self, sql):
        frame = self.con.sql(sql)
        return frame.columns, [tuple(row) for row in frame.collect()]

    def _missing(self, error):
        return "TABLE_OR_VIEW_NOT_FOUND" in str(error)

    def _schema(self, sql, source):
        dtypes = self.con.sql(sql).dtypes  # analysed only: no job runs
        return Schema([n for n, _ in dtypes], [t for _, t in dtypes], self.case_insensitive)

    def call(self):
        """Spark runs concurrent queries of one session: no lock, and nothing to snapshot."""
        return nullcontext()


class ClickHouseEngine(Engine):
    """chDB, ClickHouse in-process: a `chdb.session.Session` or a `chdb.connect()` connection."""

    dialect = "clickhouse"
    name = "ClickHouse"
    case_insensitive = False

    # chDB raises ChdbError (chdb._exceptions, not the chdb.ChdbError it exports) or a bare
    # RuntimeError, depending on the call: both are RuntimeErrors
    errors = RuntimeError

    def _fetch(self, sql):
        try:
            table = self.con.query(sql, "ArrowTable")
        except RuntimeError:
            # chDB 4.4 hands a failed query's leftover output to the session's next query: drain it
            self.con.query("SELECT 1", "CSV")
            raise
        # by column: unaliased expressions may share a name; to_pylist gives None for NULL
        return table.column_names, list(zip(*(column.to_pylist() for column in table.columns)))

    def _disagreement(self, sql: str) -> str | None:
        """ClickHouse's own reading of `sql`, written back by its formatter, must be one statement that
        sqlglot reads as a read-only SELECT too (ClickHouse's client runs several statements in one
        text, and its strings take backslash escapes). The text goes to the formatter as a bound
        parameter, never inside a query of ours, and comes back with it to show it arrived whole."""
        try:
            arrived, read = self.con.query(
                self.capabilities.pinned("SELECT {sm_sql:String}, formatQuerySingleLine({sm_sql:String})", self.pins),
                "ArrowTable", params={"sm_sql": _escaped(sql)}).to_pylist()[0].values()
        except RuntimeError as e:
            self.con.query("SELECT 1", "CSV")  # as in _fetch: drain what a failed query leaves
            return f"ClickHouse does not read it as one statement: {str(e).strip().splitlines()[0][:300]}"
        if arrived != sql:
            return "the text did not reach ClickHouse's reader as written"
        try:
            check_final(read, "clickhouse")
        except SourceError as e:
            return f"as ClickHouse reads it, {e}"
        return None

    def _missing(self, error):
        return "UNKNOWN_TABLE" in str(error)

    def _schema(self, sql, source):
        try:
            described = self.con.query(self.capabilities.pinned(f"DESCRIBE ({sql})", self.pins), "ArrowTable").to_pydict()
        except RuntimeError:
            self.con.query("SELECT 1", "CSV")  # as in _fetch: drain what a failed query leaves
            raise
        return Schema(described["name"], described["type"], self.case_insensitive)


class DBAPIEngine(Engine):
    """A DB-API 2.0 connection of a warehouse's own driver (PyMySQL, psycopg2, snowflake.connector, an
    ADBC driver, ...), or the one a SQLAlchemy Engine or Connection holds. What
    the driver does its own way (type codes, transaction state) is asked of ``drivers``; what the
    dialect does (its read-only transaction) of ``dialects``. Its reader cannot be asked how it
    reads a text, so only text every SQL reader reads alike is sent (_uniform_disagreement)."""

    case_insensitive = False

    def __init__(self, con, dialect: str, driver: drivers.Driver):
        super().__init__(con, dialect)
        self.driver = driver
        self.server = driver.server_version(con)
        self.name = f"{self.capabilities.title} ({driver.name})"
        self.errors = _dbapi_errors(con)

    @contextmanager
    def _snapshot(self):
        caps = self.capabilities
        state = self.driver.transaction(self.con)
        if state == "failed":
            raise SourceError(f"the {self.name} connection's transaction has failed: roll it back before computing "
                              "a metric")
        if state == "pending":
            state = self._pending()
        pin, unpin = caps.session_pins()
        if state == "open":  # the caller's: the call's statements run inside it, which they leave as it was
            with self._inside(pin, unpin):
                yield
            return
        if state is None or caps.begin_read_only is None:  # no transaction to open: SELECTs as they come
            self._run(*pin)
            try:
                yield
            finally:
                self._run(*unpin)
            return
        if self.driver.begins_implicitly(self.con):  # the driver's BEGIN opens it, before our first statement
            self._begin(*caps.set_read_only, *pin)
            try:
                yield
            finally:
                self._run(*unpin)
                self.con.rollback()  # the driver's own end of its transaction: idle again, as found
            return
        # with autocommit on, where a transaction must begin without BEGIN (MySQL), off for the call
        off, on = ((caps.autocommit_off[0],), (caps.autocommit_off[1],)) if (
            caps.autocommit_off and self.driver.autocommit(self.con)) else ((), ())
        try:
            self._begin(caps.begin_read_only, *off, *pin)
        except self.errors as e:
            # a transaction the driver did not know of (PyMySQL hears of the one a SELECT begins only at
            # the next OK packet): the caller's, which the call's statements run inside as they are
            if not caps.began_already(str(e)):
                raise
            with self._inside(pin, unpin):
                yield
            return
        try:
            yield
        finally:
            self._run(*unpin, caps.rollback, *on)

    @contextmanager
    def _inside(self, pin, unpin):
        """The call's span inside the caller's open transaction."""
        begin, end = self.capabilities.within_transaction or ((), ())
        self._begin(*begin, *pin)
        try:
            yield
        finally:
            self._run(*unpin, *end)

    def _pending(self) -> str:
        """The state of a connection whose driver begins a transaction on its own ('pending', ADBC): 'idle'
        where its transaction holds no uncommitted change (it is rolled back, losing nothing), 'open'
        where it does and the driver can undo a failed statement of the call (a savepoint)."""
        query = self.capabilities.uncommitted_work
        if query is None:
            return "open"
        if self._run(query)[0]:
            if self.driver.savepoint_after_error:
                return "open"
            raise SourceError(f"the {self.name} connection has uncommitted changes, and its driver cannot undo a "
                              "failed statement without rolling them back: commit or roll back first (or compute "
                              "in autocommit mode)")
        self.con.rollback()
        return "idle"

    def _begin(self, *statements: str) -> None:
        """The statements opening the call's span, then its settings and its call_start, in as few
        round trips as the driver allows."""
        _begun(self, statements)

    def _run(self, *statements: str) -> tuple | None:
        """`statements`, in one round trip where the driver takes several at once; the first row of the
        last one, where it returns rows."""
        if not statements:
            return None
        cursor = self.con.cursor()
        try:
            for batch in (["; ".join(statements)] if self.driver.multiple_statements else statements):
                cursor.execute(batch)
            row = cursor.fetchone() if cursor.description else None
            return tuple(row.values()) if isinstance(row, Mapping) else row  # a dictionary cursor's
        finally:
            cursor.close()

    def _disagreement(self, sql: str) -> str | None:
        return _uniform_disagreement(sql, self.dialect)

    @interrupts.cancellable
    def _fetch(self, sql):
        cursor = self.con.cursor()
        try:
            cursor.execute(sql)
            description = cursor.description
            # a dictionary cursor's rows (PyMySQL's DictCursor, psycopg2's RealDictCursor): in column order
            return [d[0] for d in description], [tuple(row.values() if isinstance(row, Mapping) else row)
                                                 for row in cursor.fetchall()]
        finally:
            cursor.close()

    def _missing(self, error):
        text = str(error).lower()
        return any(k in text for k in ("doesn't exist", "does not exist", "not found", "no such table", "unknown table"))

    @interrupts.cancellable
    def _schema(self, sql, source):
        cursor = self.con.cursor()
        try:
            cursor.execute(sql)
            description = cursor.description
            cursor.fetchall()
        finally:
            cursor.close()
        names = [d[0] for d in description]
        if self.driver.type_oids:  # PostgreSQL's protocol: the catalogue names the types
            oids = sorted({int(d[1]) for d in description})
            named = dict(self.rows(f"SELECT oid, typname FROM pg_catalog.pg_type WHERE oid IN ({', '.join(map(str, oids))})"))
            return Schema(names, [named.get(int(d[1]), "unknown") for d in description], self.case_insensitive)
        return Schema(names, [self.driver.type_name(d[1]) for d in description], self.case_insensitive)


def _begun(engine: Engine, statements: tuple[str, ...]) -> None:
    """Run the statements that open a call's span, then its call_start query (Capabilities), on
    `engine` (which runs them by its _run, in one round trip where it can): what call_start tells of
    the caller's session is kept on the engine (caller_path, and what its reading is read from)."""
    caps = engine.capabilities
    start = caps.call_start()
    last = engine._run(*statements, *([start] if start else []))
    if start:
        engine.caller_path = [str(schema) for schema in _plain(last[0])]
        engine.reading = caps.reading(last[1])


def _dbapi_errors(con) -> tuple[type[BaseException], ...]:
    """The errors a DB-API connection raises: its module's Error (PEP 249), else any."""
    module = sys.modules.get(type(con).__module__)
    error = getattr(con, "Error", None) or getattr(module, "Error", None)
    if error is None:
        package = sys.modules.get(type(con).__module__.partition(".")[0])
        error = getattr(package, "Error", None)
    return (error,) if isinstance(error, type) and issubclass(error, BaseException) else (Exception,)


@functools.lru_cache(maxsize=512)
def _uniform_disagreement(sql: str, dialect: str) -> str | None:
    """Where `sql` holds a form SQL readers may read differently, or None: a comment, a backslash,
    a parameter or a dollar sign, a string other than '...' or a quoted name holding a backslash,
    text between sqlglot's tokens that is not white space, or a second statement. On a text
    without them every reader (MySQL's with or without backslash escapes, PostgreSQL's with or
    without standard strings) ends each string and quoted name where sqlglot does."""
    known = 0
    for token in tokens(sql, dialect):
        between = sql[known:token.start]
        if between.strip():
            return f"text outside sqlglot's tokens at {_at(sql, known)}"
        text = sql[token.start:token.end + 1]
        if token.token_type in STRING_TOKENS and not (text[0] == text[-1] == "'"):
            return f"a string written otherwise than '...' at {_at(sql, token.start)}"
        if token.token_type in QUOTED_TOKENS:
            if "\\" in text:
                return f"a backslash at {_at(sql, token.start)}"
        elif any(c in text for c in "\\$?;#{}") or token.token_type in _PARAMETER_TOKENS:
            return f"{text!r} at {_at(sql, token.start)}"
        known = token.end + 1
    return None if not sql[known:].strip() else f"text outside sqlglot's tokens at {_at(sql, known)}"


def _escaped(text: str) -> str:
    """`text` as a ClickHouse query parameter's value, which is read in its escaped (TSV) format."""
    return text.translate({ord("\\"): "\\\\", ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r", 0: "\\0"})


#: the dialects of the engines sqlmetrics runs on (the others it only renders for)
ENGINE_DIALECTS = frozenset(e.dialect for e in (DuckDBEngine, SQLiteEngine, PostgresEngine, SparkEngine,
                                                ClickHouseEngine))


def is_spark_frame(data) -> bool:
    return type(data).__module__.startswith("pyspark.") and type(data).__name__ == "DataFrame"


def connect(con, dialect: str | None = None, data=None) -> Engine:
    """The engine for a connection object; `dialect` overrides its SQL. Without `con`: the Spark
    session of a Spark DataFrame given as `data`, DuckDB's default connection for a DuckDB relation
    (where duckdb.sql() makes them), else the private DuckDB."""
    if con is None and is_spark_frame(data):
        con = data.sparkSession
    if con is None and is_relation(data):  # duckdb.sql(...)'s; another connection's is refused by its source
        con = duckdb.default_connection()
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
    if module == "sqlalchemy":
        return _lent(con, dialect)
    if drivers.is_dbapi(con):
        driver = drivers.of(con)
        dialect = dialect or (driver and driver.dialect)
        if dialect is None:
            raise SourceError(f"sqlmetrics does not know the driver of this {type(con).__module__}.{kind} connection: "
                              "pass dialect= (e.g. dialect='mysql'), the SQL dialect its server speaks")
        return DBAPIEngine(con, dialect, driver or drivers.Driver())
    raise SourceError("con must be a connection: DuckDB, sqlite3, psycopg, a SparkSession, a chDB session, any "
                      f"DB-API 2.0 connection of a warehouse's driver, or a SQLAlchemy Engine or Connection; got {kind}")


#: SQLAlchemy's dialect names -> sqlmetrics's
_SQLALCHEMY_DIALECTS = {"postgresql": "postgres", "mysql": "mysql", "mariadb": "mysql", "sqlite": "sqlite",
                        "duckdb": "duckdb", "snowflake": "snowflake", "bigquery": "bigquery", "trino": "trino",
                        "redshift": "redshift", "databricks": "databricks", "clickhouse": "clickhouse",
                        "clickhousedb": "clickhouse"}


def _lent(con, dialect: str | None) -> Engine:
    """The engine for a SQLAlchemy Engine (a connection of its pool, lent for the call) or Connection
    (its DB-API connection, in whatever state the Connection left it)."""
    from sqlalchemy.engine import Connection, Engine as SAEngine
    if isinstance(con, SAEngine):
        sa_dialect, lease = con.dialect.name, con.raw_connection()
    elif isinstance(con, Connection):
        sa_dialect, lease = con.dialect.name, None
    else:
        raise SourceError(f"con must be a SQLAlchemy Engine or Connection; got {type(con).__name__}")
    if not dialect and sa_dialect not in _SQLALCHEMY_DIALECTS:
        if lease is not None:
            lease.close()
        raise SourceError(f"sqlmetrics has no SQL for SQLAlchemy's {sa_dialect!r} dialect: pass dialect= one of "
                          f"{', '.join(dialects.DIALECTS)} if its server reads one of them")
    dialect = dialect or _SQLALCHEMY_DIALECTS[sa_dialect]
    raw = (lease if lease is not None else con.connection).driver_connection
    if type(raw).__module__ == "duckdb_engine":  # duckdb_engine wraps DuckDB's own connection
        raw = raw._ConnectionWrapper__c
    try:
        # DuckDB, sqlite3 and psycopg have engines of their own; a driver sqlmetrics does not know, the dialect named
        engine = connect(raw, dialect) if drivers.of(raw) is None else DBAPIEngine(raw, dialect, drivers.of(raw))
    except BaseException:
        if lease is not None:
            lease.close()
        raise
    engine.lease = lease
    return engine


def connection_lock(con) -> threading.RLock:
    """The lock of a connection object (re-entrant: a call may make calls)."""
    with _LOCKS_GUARD:
        try:
            return _LOCKS.setdefault(con, threading.RLock())
        except TypeError:  # no weak references to it
            return _LOCKS_BY_ID.setdefault(id(con), threading.RLock())


class Schema(dict):
    """Column name -> type name, and the names that more than one column has (`duplicated`): a
    query may return two columns of one name, and engines then pick one, each its own."""

    def __init__(self, names, types, case_insensitive: bool):
        super().__init__(zip(names, (str(t) for t in types)))
        key = str.lower if case_insensitive else str
        counts: dict[str, int] = {}
        for name in names:
            counts[key(name)] = counts.get(key(name), 0) + 1
        self.duplicated = {name for name in names if counts[key(name)] > 1}


def _plain(value):
    """Engine values as Python numbers: Decimal (PostgreSQL's and MySQL's sums of integers, numeric
    columns, which can hold NaN and infinities), and a driver's numpy or Arrow scalars."""
    if isinstance(value, Decimal):
        return int(value) if value.is_finite() and value == value.to_integral_value() else float(value)
    if hasattr(value, "as_py"):  # pyarrow.Scalar
        return _plain(value.as_py())
    if hasattr(value, "item") and type(value).__module__ == "numpy":
        return value.item()
    return value


def _infinite(value, largest: float):
    """A value of an engine without infinities (whose stand-in is ±`largest`) as Python's."""
    value = _plain(value)
    if isinstance(value, float) and abs(value) == largest:
        return math.copysign(math.inf, value)
    return value


def _select_names(sql: str, dialect: str, returned: list[str]) -> list[str]:
    """The output names of `sql`'s SELECT list as written (the engine returned `returned`, folded)."""
    selects = sqlglot.parse_one(sql, read=dialect).selects
    if len(selects) != len(returned) or any(isinstance(s, exp.Star) for s in selects):
        return returned
    return [s.alias_or_name for s in selects]


def _schema_query(source: Source) -> exp.Query:
    """The source's columns without its rows. A query is asked as it is: wrapped in a SELECT *, some
    engines would rename its duplicate column names and hide them."""
    if isinstance(source.relation, exp.Query):
        return exp.select("*").from_(as_from(source.relation)).limit(0) if isinstance(
            source.relation, exp.SetOperation) else source.relation.copy().limit(0)
    return exp.select("*").from_(source.relation).limit(0)


def as_from(relation: exp.Expression) -> exp.Expression:
    return relation.subquery("sm_source") if isinstance(relation, exp.Query) else relation


def _folded(identifier: exp.Identifier) -> str:
    """A name as PostgreSQL's catalogue holds it: an unquoted one in lower case."""
    return identifier.name if identifier.quoted else identifier.name.lower()


def _first_line(error: Exception) -> str:
    """The line of an engine's error that says what happened: our own message where the SQL raised
    it (helpers.sql invalid_value), else the first line, past Py4J's "An error occurred while calling"."""
    lines = [line.strip().lstrip(": ") for line in str(error).strip().splitlines() if line.strip()] or [""]
    ours = next((line[line.index("sqlmetrics:"):] for line in lines if "sqlmetrics:" in line), None)
    if ours:
        return ours
    if lines[0].startswith("An error occurred while calling") and len(lines) > 1:
        return lines[1]
    return lines[0]
