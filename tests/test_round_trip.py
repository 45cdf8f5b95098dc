"""What is checked is what runs: hostile ``Query`` and ``--where`` texts through the whole path, on
DuckDB, SQLite, PostgreSQL (with ``standard_conforming_strings`` on and off) and ClickHouse (chDB).

Each generated text is read and checked as the user's (``sources``), put into a statement and written
for the engine (``sqltext.finish``), and passed through ``Engine.checked``, as every statement of a
call is. Where all of that accepts it, two things are asserted:

- the engine's own parser reads the statement as sqlglot did, by a reading independent of
  ``Engine.checked``: one SELECT, with the same string constants (DuckDB's ``json_serialize_sql``;
  PostgreSQL's parser as the libpg_query binding pglast; ClickHouse's ``EXPLAIN AST``; SQLite's
  bytecode, with an authorizer that sees every table and function the statement touches);
- the statement then runs inside a call and leaves no trace: no table created, no file written, no
  setting changed, no stall, the data as it was (the payloads hidden in the texts would do each).

The texts mix what made the injections of the break-it pass: placeholders sqlglot writes back in
another form (:x$ as $x$), dollar quotes, E-strings, backslashes, nested and unclosed comments,
unicode quotes and line separators, NUL, and payload statements inside string literals.
"""
from __future__ import annotations

import os
import random
import time
from collections import Counter
from contextlib import contextmanager

import pytest
import sqlglot
from sqlglot import exp

from engine_readers import ClickHouse, DuckDB, Postgres, SQLite
from sqlmetrics.engine import connect
from sqlmetrics.errors import EngineError, SourceError
from sqlmetrics.sources import Query, filtered
from sqlmetrics.sqltext import PLACEHOLDER, finish
from sqlmetrics.target import Target

#: generated texts per engine (in CHUNKS parts, which pytest-xdist runs side by side); CI's default keeps
#: it in its time budget, SM_ROUND_TRIP_TEXTS=100000 searches further
N_TEXTS = int(os.environ.get('SM_ROUND_TRIP_TEXTS', 4_000))
CHUNKS = 4
#: a statement that runs this long ran a stall (pg_sleep(2), sleep_ms(2000)...)
STALL_SECONDS = 1.5
CANARY = f"/tmp/sqlmetrics_canary_{os.getpid()}"

PLACEHOLDERS = [":x", ":x$", "$x$", "?", "$1", "@x", "@@x", "%s", "%(x)s", "{x:String}", "${x}", "$x", ":1",
                "$$", "$z$", "@", ":"]
QUOTES = ["'", "''", '"', '""', "`", "[", "]", "E'", "e'", "X'", "B'", "U&'", "N'", "$$", "$q$", "\\", "\\'",
          "\\\\", "/*", "*/", "/* /* */", "--", "#", "\n", "\r", "\t", "\u2019", "\u2018", "\u201c", "\u201d",
          "\uff07", "\u2028", "\x00", "\\n", "'\n'"]
PAYLOADS = [f"; COPY (SELECT 42 AS v) TO '{CANARY}.csv'; ", "; CREATE TABLE sm_pwned AS SELECT 1 AS owned; ",
            "; COMMIT; ", "; BEGIN; ", "; SELECT pg_sleep(2); ", "; INSERT INTO preds VALUES (9, 9.0); ",
            " UNION ALL SELECT 9, 9.0 ", "; SET standard_conforming_strings = on; ",
            f"; ATTACH '{CANARY}.db' AS sm_attached; ", f" INTO OUTFILE '{CANARY}.csv' ", "; DROP TABLE preds; ",
            "; SELECT * FROM preds --"]
FUNCTIONS = ["read_text('/etc/hostname')", "pg_sleep(2)", "sleep_ms(2000)", "write_log('x')", "setseed(0.5)",
             "sleep(2)", "pg_read_file('/etc/hostname')", "current_setting('standard_conforming_strings')",
             "file('/etc/hostname')", "getenv('HOME')", "lower('A')", "length('x')"]
CODE = ["label", "score", "1", "0.5", "NULL", "TRUE", "label = 1", "score > 0.5", "(", ")", ",", " || ", " = ",
        " IS NULL", " OR ", " AND ", " NOT ", " + ", "::INT", "CAST(label AS VARCHAR)", " IN (1, 2)"]


def content(rng: random.Random) -> str:
    """Text for inside a literal or a comment: the pieces that end quotes, start them, or run."""
    pools = (PLACEHOLDERS, QUOTES, PAYLOADS, CODE, FUNCTIONS)
    return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(1, 6)))


def literal(rng: random.Random, text: str) -> str:
    """`text` as a string literal in one of the forms some reader takes (or none does)."""
    form = rng.randrange(6)
    if form == 0:
        return "'" + text.replace("'", "''") + "'"
    if form == 1:
        return "E'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if form == 2:
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if form == 3 and "$q$" not in text:
        return "$q$" + text + "$q$"
    if form == 4:
        return '"' + text.replace('"', '""') + '"'
    return "'" + text + "'"


def condition(rng: random.Random, depth: int = 0) -> str:
    kind = rng.randrange(10 if depth < 3 else 6)
    if kind == 0:
        return f"{rng.choice(PLACEHOLDERS)} IS NULL"
    if kind == 1:
        return f"CAST(label AS VARCHAR) = {literal(rng, content(rng))}"
    if kind == 2:
        return f"{rng.choice(FUNCTIONS)} IS NULL"
    if kind == 3:
        return "".join(rng.choice(rng.choice((PLACEHOLDERS, QUOTES, CODE, FUNCTIONS, PAYLOADS)))
                       for _ in range(rng.randint(1, 8)))
    if kind == 4:
        return f"label = {rng.choice(PLACEHOLDERS)}"
    if kind == 5:
        return f"score > {rng.choice(['0.5', '-1', '1e-3', '.5'])}"
    if kind == 6:
        return f"{condition(rng, depth + 1)} {rng.choice(['OR', 'AND'])} {condition(rng, depth + 1)}"
    if kind == 7:
        return f"({condition(rng, depth + 1)})"
    if kind == 8:
        return f"{condition(rng, depth + 1)} --{content(rng)}"
    return f"{condition(rng, depth + 1)} /*{content(rng)}*/"


def query_text(rng: random.Random) -> str:
    head = rng.choice(["SELECT * FROM preds WHERE ", "SELECT label, score FROM preds WHERE ",
                       "SELECT label, score, {} AS note FROM preds WHERE "])
    if "{}" in head:
        head = head.format(literal(rng, content(rng)))
    tail = rng.choice(["", "", f" --{content(rng)}", rng.choice(PAYLOADS), f" /*{content(rng)}*/"])
    return head + condition(rng) + tail


ENGINES = {"duckdb": DuckDB, "sqlite": SQLite, "postgres": lambda: Postgres(True),
           "postgres-nonconforming": lambda: Postgres(False), "clickhouse": ClickHouse}


def sqlglot_strings(sql: str, dialect: str) -> list[str]:
    """The string literals sqlglot reads in `sql`: what was checked. (ClickHouse's own tree has the
    type of a CAST as a string literal too: 'String' in CAST(label AS String).)"""
    tree = sqlglot.parse_one(sql, read=dialect)
    return sorted([node.this for node in tree.walk() if isinstance(node, (exp.ByteString, exp.National, exp.RawString))
                   or isinstance(node, exp.Literal) and node.is_string]
                  + [cast.to.sql(dialect) for cast in tree.find_all(exp.Cast) if dialect == "clickhouse"])


@contextmanager
def no_canary():
    for suffix in (".csv", ".db"):
        if os.path.exists(CANARY + suffix):
            os.remove(CANARY + suffix)
    yield
    for suffix in (".csv", ".db"):
        assert not os.path.exists(CANARY + suffix), f"a statement wrote {CANARY + suffix}"


# -- the test ----------------------------------------------------------------------------------------

STATEMENT = f"SELECT COUNT(*) AS n, MIN(label) AS low FROM {PLACEHOLDER}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("engine_name", list(ENGINES))
def test_the_engine_runs_what_was_checked(engine_name, chunk):
    setup = ENGINES[engine_name]()
    engine = connect(setup.con)
    rng = random.Random(f"{engine_name}-{chunk}")
    outcomes = Counter()
    try:
        before = setup.traces()
        for i in range(N_TEXTS // CHUNKS):
            text = query_text(rng) if engine_name != "duckdb" or i % 2 else condition(rng)
            where = engine_name == "duckdb" and not i % 2  # the command line's --where, DuckDB's path
            try:
                data = filtered("preds", text, "--where") if where else Query(text)
                # as a call opens it: on PostgreSQL its tables named with the caller's schema
                with engine.call(), engine.source(data) as source:
                    sql = finish(STATEMENT, {PLACEHOLDER: source.relation}, Target(engine.dialect))
                    engine.checked(sql)
            except SourceError as e:
                outcomes["refused: " + _stage(str(e))] += 1
                continue
            what = f"text {text!r} became {sql!r}"
            read = setup.reads(sql)
            if read is not None:
                theirs, ours = Counter(read), Counter(sqlglot_strings(sql, engine.dialect))
                assert theirs <= ours if setup.folds else theirs == ours, what
            start = time.monotonic()
            with no_canary():
                try:
                    with engine.call():
                        engine.rows(sql)
                    assert read is not None, f"the engine's parser refused, but it ran: {what}"
                    outcomes["ran"] += 1
                except EngineError:  # it failed (a conversion, a name): still nothing else may have run
                    outcomes["failed at run time" if read is not None else "refused by the engine's parser"] += 1
            assert time.monotonic() - start < STALL_SECONDS, what
            assert setup.traces() == before, what
    finally:
        setup.close()
    print(engine_name, chunk, dict(outcomes))
    assert outcomes["ran"] > N_TEXTS // CHUNKS // 20  # the texts reach the engine, not only the early checks


def _stage(message: str) -> str:
    """Where a text was refused, for the counts: its own check, the written SQL's, or the engine's reader."""
    if "reads the SQL written for this call otherwise" in message:
        return "the engine's reader"
    if "written for this call" in message:
        return "the written SQL"
    return "the text's own check"
