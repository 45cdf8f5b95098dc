"""Allow, don't deny: a user's SQL text (a ``Query``, a ``--where``) calls only the functions known to be
pure and deterministic (sqlmetrics/allowed_functions.py), or those the caller trusts by name.

- every function class of the installed sqlglot is reviewed (allowed, or refused with a reason);
- the functions a break-it pass found a deny-list missed are refused, each with its reason, in the
  dialect that has it; what users write to select rows is accepted, and runs, on every engine;
- the opt-in (``Query(functions=...)``, ``--allow-function``) and sqlmetrics' own queries (a file's
  reader, a --where on a file) work;
- a fuzz on DuckDB, SQLite, PostgreSQL, MariaDB and ClickHouse (chDB) calls functions drawn from the
  allow-list and from the engine's own catalogue, through a metric, with oracles that are not
  sqlmetrics': every function the engine reads in a text accepted is one its own catalogue calls
  deterministic (MariaDB, which has none: a list reviewed by hand), no URL is read, and the engine is
  as it was (settings, locks, counters, tables, the data, no stall).
"""
from __future__ import annotations

import ast
import os
import random
import re
import time

import duckdb
import pytest
import sqlglot
from sqlglot import exp

import sqlmetrics as sm
from conftest import connect_mysql, connect_postgres, unreachable
from engine_readers import STALLS, STATEMENT_TIME, ClickHouse, DuckDB, MariaDB, Postgres, SQLite
from sqlmetrics import allowed_functions
from sqlmetrics.cli import main
from sqlmetrics.dialects import of
from sqlmetrics.sources import Query, filtered, static_source


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


# -- the classification -------------------------------------------------------------------------------

def test_every_function_class_of_sqlglot_is_reviewed():
    classes = set(_subclasses(exp.Func))
    allowed, refused, by_name = (allowed_functions.ALLOWED_CLASSES, set(allowed_functions.REFUSED_CLASSES),
                                 allowed_functions.BY_NAME)
    unreviewed = sorted(c.__name__ for c in classes - allowed - refused - by_name)
    assert not unreviewed, (
        f"sqlglot {sqlglot.__version__} has function classes sqlmetrics has not reviewed: {unreviewed}. Classify each "
        "in sqlmetrics/allowed_functions.py: ALLOWED_CLASSES if it is pure and deterministic in every dialect that "
        "spells it, else REFUSED_CLASSES with its reason")
    assert not (allowed & refused or allowed & by_name or refused & by_name)
    assert len(classes) == len(allowed) + len(refused) + len(by_name)


def test_each_name_allowed_is_one_sqlglot_does_not_know():
    """A name sqlglot reads as a class is reviewed as that class, for every dialect: a dialect's list
    holds only names it reads as a function it does not know (exp.Anonymous and its kin), with one,
    two or three arguments (DuckDB's list_sort(x) is exp.ArraySort, list_sort(x, 'DESC') not)."""
    for dialect, names in allowed_functions.ALLOWED_NAMES.items():
        for name in names:
            calls = [sqlglot.parse_one(f"SELECT {name}({arguments})", read=dialect).expressions[0]
                     for arguments in ("x", "x, y")]
            assert any(type(call) in allowed_functions.BY_NAME for call in calls), (dialect, name)
            assert name not in allowed_functions.REFUSED_NAMES, (dialect, name)


# -- refused: the break-it pass's findings, each in a dialect that has it ------------------------------

WORDS = {"text": "runs SQL given as text", "effect": "effect outlives the query", "stall": "holds the connection",
         "reads": "reads a file or a URL", "varies": "different value on each call", "url": "a URL"}
#: (dialect, the call, its name in the message, why, whether it is a table function)
BREAK_IT = [
    ("postgres", "query_to_xml('SELECT 1', true, false, '')", "query_to_xml", "text", False),
    ("postgres", "query_to_xml_and_xmlschema('SELECT 1', true, false, '')", "query_to_xml_and_xmlschema", "text", False),
    ("duckdb", "json_execute_serialized_sql(json_serialize_sql('SELECT 1'))", "json_execute_serialized_sql", "text",
     True),
    ("mysql", "GET_LOCK('sm', 0)", "GET_LOCK", "effect", False),
    ("mysql", "RELEASE_ALL_LOCKS()", "RELEASE_ALL_LOCKS", "effect", False),
    ("mysql", "RELEASE_LOCK('sm')", "RELEASE_LOCK", "effect", False),
    ("mysql", "LAST_INSERT_ID(5)", "LAST_INSERT_ID", "effect", False),
    ("mysql", "BENCHMARK(100000000, MD5('a'))", "BENCHMARK", "stall", False),
    ("mysql", "MASTER_POS_WAIT('log.000001', 4)", "MASTER_POS_WAIT", "stall", False),
    ("duckdb", "enable_profiling()", "enable_profiling", "effect", True),
    ("duckdb", "disable_profiling()", "disable_profiling", "effect", True),
    ("postgres", "pg_replication_origin_session_setup('origin')", "pg_replication_origin_session_setup", "effect",
     False),
    ("postgres", "pg_backup_start('label')", "pg_backup_start", "effect", False),
    ("postgres", "pg_stat_reset_shared('bgwriter')", "pg_stat_reset_shared", "effect", False),
    ("postgres", "pg_stat_reset_single_table_counters(1)", "pg_stat_reset_single_table_counters", "effect", False),
    ("postgres", "pg_log_backend_memory_contexts(pg_backend_pid())", "pg_log_backend_memory_contexts", "effect", False),
    ("clickhouse", "url('http://127.0.0.1:9/x.csv', CSV)", "url", "reads", True),
    ("clickhouse", "remote('127.0.0.1:9', db.t)", "remote", "reads", True),
    ("clickhouse", "s3('http://127.0.0.1:9/b/x.csv')", "s3", "reads", True),
    ("duckdb", "read_parquet('https://127.0.0.1:9/x.parquet')", "read_parquet", "url", True),
    ("duckdb", "read_csv('s3://bucket/x.csv')", "read_csv", "url", True),
    ("postgres", "uuidv4()", "uuidv4", "varies", False),
    ("postgres", "uuidv7()", "uuidv7", "varies", False),
    ("duckdb", "uuidv4()", "uuidv4", "varies", False),
    ("duckdb", "uuidv7()", "uuidv7", "varies", False),
    ("sqlite", "randomblob(8)", "randomblob", "varies", False),
    ("mysql", "UUID_SHORT()", "UUID_SHORT", "varies", False),
    ("mysql", "SYSDATE()", "SYSDATE", "varies", False),
    ("postgres", "clock_timestamp()", "clock_timestamp", "varies", False),
    ("postgres", "timeofday()", "timeofday", "varies", False),
    # and the unseeded randoms, and ClickHouse's rand(x), whose argument is no seed
    ("duckdb", "random()", "random", "varies", False),
    ("postgres", "random(1, 10)", "random", "varies", False),
    ("sqlite", "random()", "random", "varies", False),
    ("mysql", "RAND()", "rand", "varies", False),
    ("clickhouse", "rand(42)", "rand", "varies", False),
]


@pytest.mark.parametrize("dialect, call, name, why, table", BREAK_IT, ids=[f"{d}-{n}" for d, _, n, _, _ in BREAK_IT])
def test_the_functions_a_deny_list_missed_are_refused_with_their_reason(dialect, call, name, why, table):
    texts = [f"SELECT label, score FROM preds, {call} AS t"] if table else [
        f"SELECT label, score FROM preds WHERE {call} IS NOT NULL", f"SELECT label, {call} AS score FROM preds"]
    for text in texts:
        with pytest.raises(sm.SourceError) as refused:
            sm.render("auc", sm.Query(text), label="label", score="score", dialect=dialect)
        message = str(refused.value)
        assert f"calls {name.lower()}()" in message.lower() and WORDS[why] in message, message
    if not table:  # the command line's --where
        with pytest.raises(sm.SourceError, match=re.escape(WORDS[why])):
            filtered("preds", f"{call} IS NULL OR label = 1", "--where", dialect)


@pytest.mark.parametrize("dialect, call", [("mysql", "RAND(42)"), ("spark", "rand(42)"), ("spark", "randn(7)")])
def test_a_seeded_random_that_repeats_is_allowed(dialect, call):
    sm.render("auc", sm.Query(f"SELECT label, score FROM preds WHERE {call} < 0.5"), label="label", score="score",
              dialect=dialect)


@pytest.mark.parametrize("text, words", [
    ("SELECT * FROM 'https://127.0.0.1:9/x.parquet'", "a URL as a table"),
    ('SELECT * FROM "s3://bucket/x.parquet"', "a URL as a table"),
    ("SELECT * FROM 'x.xlsx'", "which DuckDB reads as a file"),
    ('SELECT * FROM "data.shp"', "which DuckDB reads as a file"),
    ("SELECT * FROM read_csv('notes.txt')", "not a file sqlmetrics reads"),
    ("SELECT * FROM read_parquet('x' || '.parquet')", "not written as a string"),
    ("SELECT * FROM read_json_auto(['a.json', 'https://127.0.0.1:9/b.json'])", "a URL"),
    ("SELECT * FROM read_csv('x.csv', filename = 'http://127.0.0.1:9/')", "a URL"),
    ("SELECT * FROM read_text('x.csv')", "reads a file or a URL"),
    ("SELECT * FROM glob('*')", "reads a file or a URL"),
    ("SELECT * FROM pg_catalog.generate_series(1, 3)", "pg_catalog.generate_series()"),
])
def test_duckdb_reads_no_url_and_only_the_files_sqlmetrics_reads(text, words):
    with pytest.raises(sm.SourceError, match=re.escape(words)):
        static_source(Query(text), "duckdb")


def test_a_url_as_a_table_is_refused_everywhere():
    for dialect in ("postgres", "spark", "clickhouse", "mysql"):
        with pytest.raises(sm.SourceError, match="a URL as a table"):
            static_source(Query("SELECT * FROM parquet.`s3://bucket/x`" if dialect == "spark" else
                                'SELECT * FROM "https://127.0.0.1:9/x"' if dialect != "mysql" else
                                "SELECT * FROM `https://127.0.0.1:9/x`"), dialect)


# -- accepted: what users write to select rows, on every engine --------------------------------------

#: per dialect: a table of rows, and the texts that must be accepted and run on it
_ROWS = [(1, 0.9, "DE", "2024-01-05"), (0, 0.2, "DE", "2024-01-06"), (1, 0.6, "FR", "2024-02-01"),
         (0, 0.4, "FR", "2024-02-03"), (1, 0.3, "DE", "2024-03-01"), (0, 0.7, "FR", "2024-03-04")]
_COMMON = [
    "SELECT label, score FROM visits WHERE lower(country) = 'de' OR label IN (0, 1)",
    "SELECT label, COALESCE(score, 0) AS score FROM visits",
    "SELECT CASE WHEN label = 1 THEN 1 ELSE 0 END AS label, abs(round(score * 100) / 100) AS score FROM visits",
    "SELECT label, score FROM visits WHERE substr(country, 1, 1) IN ('D', 'F') AND score BETWEEN 0 AND 1",
    "SELECT label, score FROM (SELECT label, score, ROW_NUMBER() OVER (PARTITION BY country ORDER BY score) AS n "
    "FROM visits) AS ranked WHERE n <= 3",
    "SELECT label, score FROM visits WHERE country IN (SELECT country FROM visits GROUP BY country "
    "HAVING COUNT(*) > 1)",
]
ACCEPTED = {
    "duckdb": _COMMON + ["SELECT label, score FROM visits WHERE day >= CURRENT_DATE - 7 OR label >= 0",
                         "SELECT CAST(label AS DOUBLE) AS label, score FROM visits",
                         "SELECT label, score FROM visits WHERE date_trunc('month', day) >= DATE '2024-01-01' "
                         "AND EXTRACT(YEAR FROM day) = 2024 AND hash(country) IS NOT NULL"],
    "postgres": _COMMON + ["SELECT label, score FROM visits WHERE day >= CURRENT_DATE - 7 OR label >= 0",
                           "SELECT CAST(label AS DOUBLE PRECISION) AS label, score FROM visits",
                           "SELECT label, score FROM visits WHERE date_trunc('month', day) >= DATE '2024-01-01' "
                           "AND EXTRACT(YEAR FROM day) = 2024 AND now() IS NOT NULL"],
    "sqlite": _COMMON + ["SELECT label, score FROM visits WHERE day >= date('now', '-7 days') OR label >= 0",
                         "SELECT CAST(label AS REAL) AS label, score FROM visits",
                         "SELECT label, score FROM visits WHERE strftime('%Y', day) = '2024'"],
    "mysql": _COMMON + ["SELECT label, score FROM visits WHERE day >= CURRENT_DATE - INTERVAL 7 DAY OR label >= 0",
                        "SELECT CAST(label AS DOUBLE) AS label, score FROM visits",
                        "SELECT label, score FROM visits WHERE DATE_FORMAT(day, '%Y-%m') >= '2024-01' "
                        "AND EXTRACT(YEAR FROM day) = 2024 AND RAND(42) >= 0 AND NOW() IS NOT NULL"],
    # (ClickHouse's own camel-case names, such as toYear, are allowed, but reach it upper-cased through the
    # input checks, which it refuses: names it reads in any case here)
    "clickhouse": _COMMON + ["SELECT label, score FROM visits WHERE day >= today() - 7 OR label >= 0",
                             "SELECT CAST(label AS Float64) AS label, score FROM visits",
                             "SELECT label, score FROM visits WHERE date_trunc('month', day) >= DATE '2024-01-01' "
                             "AND EXTRACT(YEAR FROM day) = 2024"],
    "spark": _COMMON + ["SELECT label, score FROM visits WHERE day >= date_sub(current_date(), 7) OR label >= 0",
                        "SELECT CAST(label AS DOUBLE) AS label, score FROM visits",
                        "SELECT label, score FROM visits WHERE date_trunc('month', day) >= DATE '2024-01-01' "
                        "AND EXTRACT(YEAR FROM day) = 2024 AND rand(42) >= 0"],
}
_TABLE = {"duckdb": "label INTEGER, score DOUBLE, country VARCHAR, day DATE",
          "postgres": "label integer, score double precision, country text, day date",
          "sqlite": "label INTEGER, score REAL, country TEXT, day TEXT",
          "mysql": "label INT, score DOUBLE, country VARCHAR(8), day DATE",
          "clickhouse": "label Int64, score Float64, country String, day Date"}
_CONDITIONS = ["lower(country) = 'de' OR label = 0", "abs(round(score)) BETWEEN 0 AND 1",
               "COALESCE(substr(country, 1, 1), 'x') IN ('D', 'F')"]


def _visits(dialect):
    """A connection of `dialect`'s engine with the table visits (_ROWS), and what ends it."""
    values = ", ".join(f"({y}, {s}, '{c}', '{d}')" for y, s, c, d in _ROWS)
    if dialect == "duckdb":
        con = duckdb.connect()
        con.execute(f"CREATE TABLE visits ({_TABLE['duckdb']}); INSERT INTO visits VALUES {values}")
        return con, con.close
    if dialect == "sqlite":
        import sqlite3
        con = sqlite3.connect(":memory:")
        con.executescript(f"CREATE TABLE visits ({_TABLE['sqlite']}); INSERT INTO visits VALUES {values};")
        return con, con.close
    if dialect == "postgres":
        con = connect_postgres()
        con.execute(f"CREATE TEMP TABLE visits ({_TABLE['postgres']})")
        con.execute(f"INSERT INTO visits VALUES {values}")
        con.commit()
        return con, con.close
    if dialect == "mysql":
        con = connect_mysql()
        database = f"sqlmetrics_visits_{os.getpid()}"
        with con.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE `{database}`")
            con.select_db(database)
            cursor.execute(f"CREATE TABLE visits ({_TABLE['mysql']})")
            cursor.execute(f"INSERT INTO visits VALUES {values}")
        con.commit()

        def close():
            with con.cursor() as cursor:
                cursor.execute(f"DROP DATABASE `{database}`")
            con.close()
        return con, close
    try:
        from chdb import session
    except ImportError as e:
        unreachable("ClickHouse (chDB)", e)
    con = session.Session()
    con.query(f"CREATE TABLE visits ({_TABLE['clickhouse']}) ENGINE = Memory")
    con.query(f"INSERT INTO visits VALUES {values}")
    return con, con.close


@pytest.mark.parametrize("dialect", sorted(_TABLE))
def test_what_users_write_is_accepted_and_runs(dialect):
    con, close = _visits(dialect)
    try:
        for text in ACCEPTED[dialect]:
            value = sm.auc(sm.Query(text), label="label", score="score", con=con)
            assert 0 <= value <= 1, text
        for condition in _CONDITIONS:
            value = sm.auc(filtered("visits", condition, "--where", dialect), label="label", score="score", con=con)
            assert 0 <= value <= 1, condition
    finally:
        close()


def test_what_users_write_is_accepted_for_spark():
    """Spark's spellings are accepted (read and written, as on every engine; no Spark session is
    started for them)."""
    for text in ACCEPTED["spark"]:
        sm.render("auc", sm.Query(text), label="label", score="score", dialect="spark")


# -- the opt-in, and sqlmetrics' own queries -----------------------------------------------------------

def test_a_function_the_caller_trusts_is_called(tmp_path):
    con = duckdb.connect()
    con.execute("CREATE TABLE visits AS SELECT * FROM (VALUES (1, 0.9), (0, 0.2), (1, 0.6), (0, 0.7)) t(label, score)")
    con.execute("CREATE MACRO shifted(x) AS x + 1")
    text = "SELECT label, shifted(score) AS score FROM visits"
    with pytest.raises(sm.SourceError, match=r"shifted\(\), which is not among .* pass functions=\('shifted',\) to "
                                             r"sqlmetrics\.Query"):
        sm.auc(sm.Query(text), label="label", score="score", con=con)
    assert sm.auc(sm.Query(text, functions=("SHIFTED",)), label="label", score="score", con=con) == 0.75
    assert sm.auc(sm.Query(text, functions=["shifted"]), label="label", score="score", con=con) == 0.75
    # a function refused with a reason too: the caller's word is the decision
    assert sm.auc(sm.Query("SELECT label, score FROM visits WHERE current_setting('threads') IS NOT NULL OR "
                           "random() >= 0", functions=("current_setting", "random")), label="label", score="score",
                  con=con) == 0.75
    for wrong in ("shifted", None, ("shifted", 1), ("",)):
        with pytest.raises(sm.ParameterError, match=r"functions must be a tuple of function names, such as "
                                                    r"functions=\('my_udf',\)"):
            sm.Query(text, functions=wrong)


def _cli(*argv, capsys):
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def test_the_command_line_trusts_a_function_by_allow_function(tmp_path, capsys):
    path = tmp_path / "p.parquet"
    duckdb.sql(f"COPY (SELECT range % 2 AS y, (range % 7) / 7 AS s, 'DE' AS country FROM range(40)) TO '{path}'")
    code, err = _cli("compute", "auc", path, "--label", "y", "--score", "s", "--where",
                     "current_setting('threads') IS NOT NULL", capsys=capsys)
    assert code == 2 and err.strip().endswith("or if you trust it, pass --allow-function current_setting"), err
    assert "functions=" not in err and "sqlmetrics.Query" not in err
    code, err = _cli("compute", "auc", path, "--label", "y", "--score", "s", "--where",
                     "current_setting('threads') IS NOT NULL", "--allow-function", "CURRENT_SETTING", capsys=capsys)
    assert code == 0, err
    code, err = _cli("compute", "auc", path, "--label", "y", "--score", "s", "--where", "sleep_ms(5000) IS NULL",
                     capsys=capsys)
    assert code == 2 and "holds the connection" in err and "--allow-function" not in err, err
    code, err = _cli("compute", "auc", path, "--label", "y", "--score", "s", "--allow-function", "x", capsys=capsys)
    assert code == 2 and "--allow-function names a function --where may call: give --where too" in err, err


def test_allow_function_is_in_the_help(capsys):
    assert main(["compute", "auc", "--help"]) == 0
    assert "--allow-function NAME" in capsys.readouterr().out


def test_sqlmetrics_own_queries_read_files_and_urls_given_as_data(tmp_path):
    """A file given as data is read by sqlmetrics' own reader, which a --where keeps: a URL too, and a
    TREC file (read as text with read_csv)."""
    for data in ("https://127.0.0.1:9/x.parquet", sm.TrecRun(tmp_path / "run.txt")):
        if isinstance(data, sm.TrecRun):
            data.path.write_text("1 Q0 a 1 0.9 r\n")
        where = filtered(data, "score > 0", "--where")
        assert "read_" in where.sql.lower()
        static_source(where, "duckdb")  # checked again as a Query: sqlmetrics' reader is trusted


def test_the_suggested_query_for_text_in_a_csv_runs(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("y,s\n1,0.9\n0,NA\n1,0.4\n0,0.2\n")
    with pytest.raises(sm.ColumnError) as refused:
        sm.auc(str(path), label="y", score="s")
    suggested = re.search(r"sqlmetrics\.Query\((.*)\)$", str(refused.value)).group(1)
    with pytest.warns(UserWarning, match="dropped 1 of 4 rows"):
        assert sm.auc(sm.Query(ast.literal_eval(suggested)), label="y", score="s", dropna=True) == 1.0


# -- the fuzz --------------------------------------------------------------------------------------

#: texts per engine; the seed is the engine's name, so a failure repeats
N_TEXTS = int(os.environ.get("SM_ALLOWLIST_TEXTS", 160))
#: a call that runs this long ran a stall (sleep(3) and the like: a metric's few statements take far less)
STALL_SECONDS = 2.5
#: arguments of the calls: columns, values, lock names, a file and a URL
ARGUMENTS = ["label", "score", "1", "3", "0.5", "-2", "'a'", "'2024-01-02'", "NULL", "'sm_lock'", "'x.parquet'",
             "'https://127.0.0.1:9/x.parquet'"]
LOCKS = ("a", "sm_lock")
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
FUZZED = {"duckdb": DuckDB, "sqlite": SQLite, "postgres": Postgres, "mysql": lambda: MariaDB(LOCKS),
          "clickhouse": ClickHouse}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def allow_list_names(dialect: str) -> list[str]:
    """The names the allow-list holds for `dialect`: its own, and sqlglot's names of the classes allowed."""
    own = set().union(*(allowed_functions.ALLOWED_NAMES.get(p, ()) for p in of(dialect).prefixes()))
    return sorted(own | {n.lower() for c in allowed_functions.ALLOWED_CLASSES for n in c.sql_names()
                         if _NAME.match(n)})


def generate(rng, pools, depth=0):
    """A call of a function drawn from one of `pools`, with arguments (some calls themselves): the text,
    and the (name, number of arguments) of each call in it."""
    name = rng.choice(rng.choice(pools))
    arguments, calls = [], []
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
        if depth < 1 and rng.random() < 0.15:
            text, inner = generate(rng, pools, depth + 1)
            arguments.append(text)
            calls += inner
        else:
            arguments.append(rng.choice(ARGUMENTS))
    return f"{name}({', '.join(arguments)})", [(name.lower(), len(arguments))] + calls


def fuzz_text(rng, pools, dialect):
    """(data as the call takes it, the text the user wrote, the calls in it)."""
    call, calls = generate(rng, pools)
    kind = rng.randrange(3)
    if kind == 0:
        text = f"SELECT label, score FROM preds WHERE {call} IS NULL OR label >= 0"
    elif kind == 1:
        text = f"SELECT label, score FROM preds, {call} AS sm_t"
    else:  # the command line's --where
        condition = f"{call} IS NULL OR label >= 0"
        return (lambda: filtered("preds", condition, "--where", dialect)), f"SELECT * FROM preds WHERE {condition}", calls
    return (lambda: Query(text)), text, calls


@pytest.mark.parametrize("engine_name", sorted(FUZZED))
def test_the_fuzz_accepts_only_what_the_engines_call_pure(engine_name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a file written would be here
    setup = FUZZED[engine_name]()
    dialect = setup.name
    rng = random.Random(engine_name)
    catalogue = [n for n in setup.catalogue() if _NAME.match(n)]
    # the allow-list's names the engine has, and any of the engine's
    pools = [sorted(set(allow_list_names(dialect)) & set(catalogue)), catalogue]
    outcomes = {"refused": 0, "ran": 0, "failed at run time": 0, "not written": 0}
    try:
        sm.auc(Query("SELECT label, score FROM preds"), label="label", score="score", con=setup.con)  # warm: not a stall
        before = setup.traces()
        for _ in range(N_TEXTS):
            data, text, calls = fuzz_text(rng, pools, dialect)
            try:
                accepted = static_source(data(), dialect)
            except sm.SourceError:
                outcomes["refused"] += 1
                continue
            # what runs: the text as sqlmetrics writes it for the engine, read by the engine's own parser (sqlglot
            # may drop an argument it has no place for: quantile(x, 0.5, f(y)) is written quantile(x, 0.5))
            written = accepted.relation.sql(dialect)
            names = setup.functions(written)
            if names is None:  # no parser to ask (MariaDB): the calls generated that are in the text written
                names = {name for name, _ in calls if re.search(rf"\b{name}\(", written, re.I)}
            for name in names:
                seeded = dialect == "mysql" and name == "rand" and all(n for f, n in calls if f == "rand")
                assert name in STATEMENT_TIME or seeded or setup.pure(name) in (True, None), (
                    f"{name}() is not deterministic by {engine_name}'s own word, but {text!r} was accepted "
                    f"(written {written!r})")
                assert name not in STALLS, text
            if engine_name == "duckdb":
                assert not [p for p in setup.paths(written) if URL.match(p)], text
            start = time.monotonic()
            try:
                sm.auc(data(), label="label", score="score", con=setup.con)
                outcomes["ran"] += 1
            except sm.MetricError:  # a wrong type, a missing function: nothing else may have run either
                outcomes["failed at run time"] += 1
            except sqlglot.errors.SqlglotError:  # sqlglot cannot write it for the input checks (SQLite's date())
                outcomes["not written"] += 1
            assert time.monotonic() - start < STALL_SECONDS, text
            assert setup.traces() == before, text
        assert os.listdir(tmp_path) == []
    finally:
        setup.close()
    print(engine_name, outcomes)
    # both kinds are drawn, and the accepted reach the engine (most fail there: arguments drawn at random)
    assert outcomes["refused"] > N_TEXTS // 10 and outcomes["ran"] + outcomes["failed at run time"] > N_TEXTS // 10
    assert outcomes["ran"], outcomes
