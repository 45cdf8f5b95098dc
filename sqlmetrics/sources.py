"""What ``data`` can be, and how each kind becomes a relation in SQL.

- a table reference string: ``"preds"``, ``"db.schema.preds"`` (parts may be quoted);
- a path or glob to Parquet/CSV/TSV/JSON files (read by DuckDB);
- ``TrecRun(path)`` / ``TrecQrels(path)``: trec_eval's run and qrels files (read by DuckDB);
- ``Query("SELECT ...")``: the user's own SELECT, checked to be exactly one read-only query;
- a pandas or polars DataFrame, a pyarrow Table, or a DuckDB relation (registered on DuckDB for the call).
A bare string is never SQL.
"""
from __future__ import annotations

import difflib
import glob
import os
import re
import tempfile
import uuid
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb
import sqlglot
from sqlglot import exp

from . import dialects
from .allowed_functions import FILE as _FILE
from .allowed_functions import READ_EXTENSIONS, URL
from .errors import EngineError, ParameterError, SourceError
from .sqltext import function_names, parse_condition, parse_query, parse_table_name

# One name per process: unlikely to meet a user's own view, and stable from call to call so the
# generated SQL (and sqltext's memo of it) repeats. Calls on one connection are sequential.
_FRAME_VIEW = f"sm_frame_{uuid.uuid4().hex[:12]}"
_READERS = {"parquet": "read_parquet", "csv": "read_csv", "tsv": "read_csv",
            "json": "read_json", "jsonl": "read_json", "ndjson": "read_json"}
_DATABASE = re.compile(r"\.(duckdb|ddb|db)\Z", re.I)


@dataclass(frozen=True)
class Query:
    """Your own SELECT as the data: ``sm.auc(sm.Query("SELECT * FROM preds WHERE day = 3"), ...)``.

    It must parse as exactly one read-only SELECT in the engine's dialect, calling only functions
    known to be pure and deterministic (docs/safety.md). `name`: how messages name it. `functions`:
    names of further functions you trust it to call, such as your own (``functions=("my_udf",)``,
    any case): sqlmetrics calls them as they are.
    """
    sql: str
    name: str = "the query"
    functions: tuple[str, ...] = ()

    def __post_init__(self):
        if not isinstance(self.functions, (tuple, list, set, frozenset)) or not all(
                isinstance(f, str) and f.strip() for f in self.functions):
            raise ParameterError(f"functions must be a tuple of function names, such as functions=('my_udf',); "
                                 f"got {self.functions!r}")
        object.__setattr__(self, "functions", tuple(self.functions))


@dataclass(frozen=True)
class TrecRun:
    """A trec_eval run file, ``qid Q0 docno rank score tag`` per line (whitespace separated), as the
    columns query, item (text, as written: '00123' stays '00123') and score (a number): the defaults of
    the ranking metrics. As trec_eval: blank lines and lines starting with '#' are skipped, fields after
    the sixth ignored, the rank column ignored (equal scores are ordered by docno descending:
    ties='item_desc'), a carriage return is whitespace (CRLF line ends read as LF ones). Read by DuckDB."""
    path: str | os.PathLike


@dataclass(frozen=True)
class TrecQrels:
    """A trec_eval qrels file, ``qid iter docno rel`` per line, as the columns query, item (text) and
    relevance (a whole number: 0.5 or 1e2, which trec_eval would read as 0 and 1, is an error naming the
    line; a negative grade is trec_eval's "in the pool, unjudged"). Lines are read as TrecRun's. Read by DuckDB."""
    path: str | os.PathLike


#: per TREC file type: its columns (position, name, type), the fields a line needs, and how it is named
_TREC = {TrecRun: (((1, "query", "VARCHAR"), (3, "item", "VARCHAR"), (5, "score", "DOUBLE")), 6, "TREC run"),
         TrecQrels: (((1, "query", "VARCHAR"), (3, "item", "VARCHAR"), (4, "relevance", "BIGINT")), 4, "TREC qrels")}


def is_trec(data) -> bool:
    return isinstance(data, (TrecRun, TrecQrels))


@dataclass(frozen=True)
class Source:
    relation: exp.Expression  # exp.Table or exp.Query, in place of the template placeholder
    description: str  # how error messages name it
    #: a table name given as data, which may be a mistyped file name (see missing_table)
    name: str | None = None
    #: a file, which costs more to read twice than to copy once: the metric's statement and the screens
    #: of its checks read it once (api: the input written as a CTE, as Capabilities.input_once does)
    read_once: bool = False


def missing_table(source: Source, otherwise: str) -> SourceError:
    """The error for a table `source` names that does not exist (`otherwise`: the sentence for a
    table). A name such as 'preds.parqet' is a file mistyped more likely than a table of a schema:
    where it is close to a file sqlmetrics reads in the directory it names, or its extension to one it
    reads, the error says there is no such file (with the closest one)."""
    near = _closest_file(source.name or "")
    extension = os.path.splitext(source.name or "")[1][1:].lower()
    if near or (extension and difflib.get_close_matches(extension, _READERS, n=1)):
        advice = f"; did you mean {near!r}?" if near else f": it reads {READ_EXTENSIONS}"
        return SourceError(f"no such file {source.name!r}, nor a table of that name{advice}")
    return SourceError(otherwise)


def _closest_file(path: str) -> str | None:
    """The file sqlmetrics reads, in the directory `path` names, whose name is closest to `path`'s."""
    folder, base = os.path.split(os.path.expanduser(path))
    try:
        files = sorted(f for f in os.listdir(folder or ".") if _FILE.search(f)) if base else []
    except OSError:  # no such directory, or not one
        return None
    near = difflib.get_close_matches(base, files, n=1)
    return os.path.join(folder, near[0]) if near else None


def is_frame(data) -> bool:
    """A frame registered on DuckDB for the call: pandas, polars, pyarrow, or a DuckDB relation."""
    return type(data).__module__.split(".")[0] in ("pandas", "polars", "pyarrow") or is_relation(data)


def is_relation(data) -> bool:
    return isinstance(data, duckdb.DuckDBPyRelation)


def is_duckdb_file(path) -> bool:
    """A DuckDB database file: by its name (.duckdb, .ddb, .db) or its header (b'DUCK' at byte 8)."""
    path = os.path.expanduser(os.fspath(path))
    if not os.path.isfile(path):
        return False
    if _DATABASE.search(path):
        return True
    try:
        with open(path, "rb") as f:
            return f.read(12)[8:12] == b"DUCK"
    except OSError:
        return False


def is_file_path(data) -> bool:
    return isinstance(data, (str, os.PathLike)) and bool(_FILE.search(os.fspath(data)))


def describe(data) -> str:
    if isinstance(data, Query):
        return data.name
    if is_relation(data):
        return "the DuckDB relation"
    if is_frame(data):
        return f"the {type(data).__module__.split('.')[0]} {type(data).__name__}"
    if is_trec(data):
        return f"the {_TREC[type(data)][2]} file {os.fspath(data.path)!r}"
    return repr(os.fspath(data)) if isinstance(data, (str, os.PathLike)) else repr(data)


def file_source(path) -> Source:
    """DuckDB's reader over the files a path or glob matches; raises if it matches nothing."""
    path = os.fspath(path)
    fmt = _FILE.search(path).group("fmt").lower()
    if "://" not in path:  # remote URLs are left to DuckDB
        path = os.path.expanduser(path)
        # a file whose own name has glob characters ('data[1].csv') is found as it is
        if not (os.path.isfile(path) or glob.glob(path)):
            near = _closest_file(path) if glob.escape(path) == path else None  # not for a glob
            raise SourceError(f"no file matches {path!r}" + (f"; did you mean {near!r}?" if near else ""))
    reader = exp.Anonymous(this=_READERS[fmt], expressions=[exp.Literal.string(path)])
    select = exp.select("*").from_(exp.Table(this=reader))
    return Source(select, repr(path), read_once=True)


def csv_with_nulls(path, nulls: list[str]) -> Query:
    """A CSV file read with `nulls` as missing values (DuckDB's nullstr), e.g. 'NA', besides the empty
    field (DuckDB's own missing value, which a nullstr list would otherwise replace)."""
    values = dict.fromkeys(["", *nulls])
    reader = exp.func("read_csv", exp.Literal.string(os.path.expanduser(os.fspath(path))), exp.EQ(
        this=exp.column("nullstr"), expression=exp.Array(expressions=[exp.Literal.string(v) for v in values])))
    return Query(exp.select("*").from_(exp.Table(this=reader)).sql("duckdb"), functions=("read_csv",))


def text_values_hint(data, column: str, rows) -> str:
    """For a numeric column a CSV reader took as text (numbers and some text): the first values that are
    not numbers, and how to read them as NULL (or '' where none is found, or no value is a number: text
    classes, such as 'cat' and 'dog', are no numbers read as text)."""
    q = exp.column(column, quoted=True)
    source = file_source(data).relation if is_file_path(data) else None
    if source is None or not re.search(r"\.(csv|tsv)", os.fspath(data), re.I):
        return ""
    number = exp.TryCast(this=q.copy(), to=exp.DataType.build("DOUBLE"))
    if not rows(exp.select(exp.func("COUNT", number)).from_(source.subquery("sm_file")).sql("duckdb"))[0][0]:
        return ""
    sql = (exp.select(exp.cast(q, "VARCHAR").as_("sm_value")).distinct().from_(source.subquery("sm_file"))
           .where(exp.and_(q.is_(exp.null()).not_(), number.copy().is_(exp.null()))).order_by("sm_value").limit(5)
           .sql("duckdb"))
    values = [v for (v,) in rows(sql)]
    if not values:
        return ""
    trusted = ", functions=('read_csv',)" if URL.match(os.fspath(data)) else ""  # a URL only where trusted
    return (f": text such as {', '.join(map(repr, values))} made it text; if these mean missing, read the file with "
            f"them as NULL: sqlmetrics.Query({csv_with_nulls(data, values).sql!r}{trusted})")


def trec_source(data, read: str | None = None) -> Source:
    """A TREC file as a SELECT of its named, typed columns: each line split at runs of whitespace
    (trec_eval's rule; DuckDB's CSV reader takes one delimiter), read whole as one text column. `read`:
    the file DuckDB reads in its place (trec_text's copy), if not the file itself."""
    columns, _, _ = _TREC[type(data)]
    path = _trec_path(data)
    select = exp.select(*(exp.cast(exp.Bracket(this=exp.column("sm_fields"), expressions=[exp.Literal.number(i - 1)]), kind)
                          .as_(name, quoted=True) for i, name, kind in columns)).from_(
        _trec_lines(read or path).subquery("sm_lines"))
    return Source(select, describe(data))


def _trec_path(data) -> str:
    path = os.path.expanduser(os.fspath(data.path))
    if not os.path.isfile(path):
        raise SourceError(f"no file {path!r} ({describe(data)})")
    return path


@contextmanager
def trec_text(data):
    """The path DuckDB is to read a TREC file from: the file, or where it holds a carriage return (CRLF
    line ends, or a stray one) a copy with each CR a space, kept for the duration of the call. trec_eval
    ends a line at LF only and reads a CR as whitespace (C's isspace); DuckDB's CSV reader cannot read
    a CR as part of a line."""
    path = _trec_path(data)
    with open(path, "rb") as f:
        carriage_return = any(b"\r" in block for block in iter(lambda: f.read(1 << 20), b""))
    if not carriage_return:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="sqlmetrics-") as folder:
        copy = os.path.join(folder, os.path.basename(path))
        with open(path, "rb") as f, open(copy, "wb") as out:
            for block in iter(lambda: f.read(1 << 20), b""):
                out.write(block.replace(b"\r", b" "))
        yield copy


#: what separates the fields of a TREC line: C's isspace, as trec_eval splits them (RE2's \s lacks \v)
_SPACE = r"[ \t\n\v\f\r]"
#: the numbers a TREC field may hold, one pattern for DuckDB's regexp_full_match (RE2) and Python's re:
#: a grade is a whole number (trec_eval reads 0.5 and 1e2 with atol as 0 and 1: a file that means
#: something else by them is refused, never silently rounded), a score any decimal number
_NUMBERS = {"BIGINT": r"[+-]?[0-9]+",
            "DOUBLE": r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?i:inf|infinity|nan)"}
#: the TREC field types, as messages name them
_NUMBER_WORDS = {"BIGINT": "a whole number", "DOUBLE": "a number"}

# sm_fields: the whitespace-separated fields of each line trec_eval reads (not blank, not a comment);
# the file is read as one text column (DuckDB's CSV reader splits at one delimiter only, never NUL)
_TREC_LINES = sqlglot.parse_one(rf"""
SELECT regexp_split_to_array(sm_line, '{_SPACE}+') AS sm_fields
FROM (SELECT regexp_replace(line, '^{_SPACE}+|{_SPACE}+$', '', 'g') AS sm_line
      FROM read_csv('sm_path', columns = {{'line': 'VARCHAR'}}, header = false, delim = chr(0), quote = '',
                    escape = '', new_line = '\n', auto_detect = false)) AS sm_trimmed
WHERE sm_line <> '' AND NOT starts_with(sm_line, '#')""", read="duckdb")


def _trec_lines(path: str) -> exp.Select:
    return _TREC_LINES.transform(lambda node: exp.Literal.string(path) if isinstance(node, exp.Literal)
                                 and node.is_string and node.this == "sm_path" else node)


def check_trec_file(data, rows, read: str) -> None:
    """Every line read must have the fields the file type needs, with a number of its kind where one is
    read (_NUMBERS): else an error naming the file, the line and its text (trec_eval: "Malformed line").
    DuckDB finds whether a line is malformed (in `read`, trec_text's path); Python, reading the file by
    the same rules, which one."""
    columns, needed, _ = _TREC[type(data)]
    path = os.path.expanduser(os.fspath(data.path))
    fields = exp.column("sm_fields")
    numbers = {i: kind for i, _, kind in columns if kind != "VARCHAR"}

    def field(i):
        return exp.Bracket(this=fields.copy(), expressions=[exp.Literal.number(i - 1)])
    malformed = exp.or_(exp.func("len", fields) < needed, *(
        exp.or_(exp.func("regexp_full_match", field(i), exp.Literal.string(_NUMBERS[kind])).not_(),
                exp.TryCast(this=field(i), to=exp.DataType.build(kind)).is_(exp.null()))
        for i, kind in numbers.items()))
    sql = exp.select(exp.func("COUNT", exp.Star())).from_(_trec_lines(read).subquery("sm_lines")).where(
        malformed).sql("duckdb")
    if not rows(sql)[0][0]:
        return
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        for number, line in enumerate(f.read().split("\n"), 1):
            parts = [p for p in re.split(f"{_SPACE}+", line) if p]
            if not parts or parts[0].startswith("#"):
                continue
            if len(parts) < needed or any(not _parses(parts[i - 1], kind) for i, kind in numbers.items()):
                raise SourceError(f"{describe(data)}, line {number}: {line.strip()[:200]!r} is not a {_TREC[type(data)][2]} "
                                  f"line: it needs {needed} fields separated by whitespace, field "
                                  f"{' and '.join(map(str, numbers))} "
                                  f"{' and '.join(_NUMBER_WORDS[kind] for kind in numbers.values())}"
                                  + (" (not 0.5 or 1e2, which trec_eval reads as 0 and 1: write the grade meant)"
                                     if "BIGINT" in numbers.values() else ""))
    raise SourceError(f"{describe(data)} has lines DuckDB cannot read as {_TREC[type(data)][2]} lines")


def _parses(text: str, kind: str) -> bool:
    """`text` is a number of `kind` as check_trec_file's SQL reads one: the pattern, within range."""
    return bool(re.fullmatch(_NUMBERS[kind], text)) and (kind != "BIGINT" or -2 ** 63 <= int(text) < 2 ** 63)


def table_source(name: str, dialect: str) -> Source:
    return Source(parse_table_name(name, dialect), f"table {name!r}", name)


def query_source(query: Query, dialect: str, reading: str | None = None) -> Source:
    """A Query's source, its text read in `reading` (the session's reading of `dialect`, sqlmetrics.readings)."""
    return Source(parse_query(query.sql, dialect, f"{query.name} passed as data", query.functions, reading),
                  query.name)


def filtered(data, condition: str, what: str, dialect: str = "duckdb", functions: tuple[str, ...] = (),
             reading: str | None = None) -> Query:
    """The rows of `data` (a table name, or files read by DuckDB) where `condition` holds: one
    condition on its columns in `dialect` (`what` names it in messages) calling functions allowed or
    named in `functions`, as the command line's --where; read, and the query written, in `reading`
    (the session's reading of `dialect`, sqlmetrics.readings), which reads it back alike."""
    relation, tree, description, trusted = _conditioned(data, condition, what, dialect, functions, reading)
    return Query(exp.select("*").from_(relation).where(tree).sql(reading or dialect),
                 f"{description} where {' '.join(condition.split())}", trusted)


def condition_value(data, condition: str, what: str, dialect: str = "duckdb", functions: tuple[str, ...] = (),
                    reading: str | None = None) -> Query:
    """`condition`'s value on each row of `data`, as the column sm_condition: its type tells whether it
    is a condition (true or false) or a value that is not one."""
    relation, tree, description, trusted = _conditioned(data, condition, what, dialect, functions, reading)
    return Query(exp.select(tree.as_("sm_condition")).from_(relation).sql(reading or dialect),
                 f"{what} on {description}", trusted)


def _conditioned(data, condition: str, what: str, dialect: str, functions: tuple[str, ...], reading: str | None):
    """The relation of `data`, the condition's tree, how `data` is named, and the functions the query of
    both may call: the condition's own and those of the relation, which sqlmetrics wrote (a file's
    reader) or checked already (a Query's)."""
    tree = parse_condition(condition, dialect, what, functions, reading)
    source = static_source(data, dialect, reading)
    relation = source.relation.subquery("sm_where") if isinstance(source.relation, exp.Query) else source.relation
    return relation, tree, source.description, (*functions, *function_names(source.relation, dialect))


def static_source(data, dialect: str, reading: str | None = None) -> Source:
    """A source that needs no engine: a table name, a Query (read in `reading`, as query_source), or
    (DuckDB only) files."""
    if isinstance(data, Query):
        return query_source(data, dialect, reading)
    if is_file_path(data):
        if not dialects.of(dialect).reads_files:
            raise SourceError(f"files can only be read by DuckDB, not {dialect}; load {describe(data)} "
                              "into a table on that engine first")
        return file_source(data)
    if is_trec(data):
        if not dialects.of(dialect).reads_files:
            raise SourceError(f"TREC files can only be read by DuckDB, not {dialect}; load {describe(data)} "
                              "into a table on that engine first")
        return trec_source(data)
    if isinstance(data, (str, os.PathLike)):
        _require_not_a_file(data)
    if isinstance(data, str):
        return table_source(data, dialect)
    if isinstance(data, os.PathLike):
        raise SourceError(f"{describe(data)} is not a file sqlmetrics reads: it reads {READ_EXTENSIONS}")
    if is_frame(data):
        raise SourceError(f"{describe(data)} has no name in SQL: pass a table name or sqlmetrics.Query")
    raise SourceError(f"data must be a table name, a file path, a sqlmetrics.Query, sqlmetrics.TrecRun or "
                      f"TrecQrels, a pandas/polars DataFrame, a pyarrow Table or a DuckDB relation; "
                      f"got {type(data).__name__}")


def _require_not_a_file(data) -> None:
    """A path given as data that is none of the files read: a DuckDB database, or another extension
    (a name such as 'bc.parq' would otherwise be read as the table parq of schema bc)."""
    path = os.path.expanduser(os.fspath(data))
    if is_duckdb_file(path):
        raise SourceError(f"{describe(data)} is a DuckDB database file, not a table: open it with "
                          f"con=duckdb.connect({os.fspath(data)!r}) and pass a table name as data")
    quoted = any(q in path for q in "\"`[")  # a quoted table name may hold a slash
    a_path = not quoted and ("/" in path or os.sep in path)
    near = _closest_file(path) if a_path and not os.path.exists(path) else None
    if near:  # a mistyped file name
        raise SourceError(f"no such file {os.fspath(data)!r}; did you mean {near!r}?")
    if a_path or (os.path.isfile(path) and os.path.splitext(path)[1]):
        raise SourceError(f"{describe(data)} is not a file sqlmetrics reads: it reads {READ_EXTENSIONS} "
                          "(by their extension), and TREC run and qrels files as sqlmetrics.TrecRun(path) and "
                          "sqlmetrics.TrecQrels(path)")


def frame_view(slot: str) -> str:
    """The name a frame is registered under for the duration of a call (one per `slot`: a run and
    its qrels may both be frames)."""
    return f"{_FRAME_VIEW}_{slot}"


@contextmanager
def duckdb_source(data, con, slot: str, rows):
    """The source on a DuckDB connection; a frame is registered for the duration of the call. `rows`
    runs a query on `con` (the engine's, which checks what it runs)."""
    if is_trec(data):
        with trec_text(data) as read:
            source = trec_source(data, read)
            try:
                check_trec_file(data, rows, read)
            except EngineError as e:  # unreadable, not text...
                raise SourceError(f"cannot read {describe(data)}: {str(e.__cause__ or e).strip().splitlines()[0]}") from None
            yield source
        return
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
        if is_relation(data) and "another database" in str(e):
            raise SourceError("the DuckDB relation was made on another connection than con=: pass con= the "
                              "connection it was made on (duckdb.sql() makes it on duckdb.default_connection())"
                              ) from None
        raise SourceError(f"DuckDB cannot read {describe(data)}: {str(e).strip().splitlines()[0]}") from None
    try:
        yield Source(exp.Table(this=exp.to_identifier(name, quoted=True)), describe(data))
    finally:
        con.unregister(name)


__all__ = ["Query", "TrecRun", "TrecQrels", "Source", "static_source", "duckdb_source"]
