"""The caller's session cannot change a number. A connection comes with what its owner has set:
settings that change how SQL text parses or what a statement returns (MariaDB's sql_mode and
sql_select_limit, PostgreSQL's search_path and extra_float_digits, DuckDB's default_order,
ClickHouse's limit and overflow modes, SQLite's column-name pragmas), collations that make two
ids one, functions of its own named like a builtin, transactions and table locks. Each engine's
sweep sets every setting the break-it pass tried and more, one at a time, and compares a sample of
metrics (each family's, their slices, curves and text keys) with DuckDB's on a private connection;
the connection must hold the setting unchanged afterwards. Then each reported case, on its engine.
"""
import os
import sqlite3

import duckdb
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from conftest import (PG_DSN, chdb_session, connect_mysql, connect_postgres, load_tables, mariadb_database,
                      plain_rows, unreachable)
from engine_cases import CALLS, TABLES, assert_same, reference

#: the calls each setting is tried on: a metric of each family, the slices, curves and per-class rows
#: that a setting cutting results short would cut, the text ids and classes a collation would merge
SAMPLE = [c for c in CALLS if c[0] in (
    "auc-by", "gauc", "log_loss", "roc_curve-by", "calibration_curve-by", "classification_report-by",
    "top_k_accuracy", "cohen_kappa-by", "ndcg", "mrr", "bpref", "interpolated_precision", "average_popularity",
    "concordance_index_ipcw-by", "uplift_auc-by", "auc_compare")]
REFERENCE = {}


def assert_the_sample(con):
    for case, metric, table, params in SAMPLE:
        if case not in REFERENCE:
            REFERENCE[case] = reference(metric, table, params)
        assert_same(getattr(sm, metric)(table, con=con, details=True, **params), REFERENCE[case], case)


# -- the engines, each loaded with engine_cases.TABLES -----------------------------------------------

@pytest.fixture(scope="module")
def mariadb():
    with mariadb_database(TABLES, "session") as (con, _):
        yield con


def _mysql(con, statement: str):
    with con.cursor() as cursor:
        cursor.execute(statement)
        return cursor.fetchall()


@pytest.fixture(scope="module")
def pg_schema():
    con = connect_postgres(autocommit=True)
    schema = f"sqlmetrics_session_{os.getpid()}"
    con.execute(f'CREATE SCHEMA "{schema}"')
    with con.cursor() as cursor:
        load_tables(cursor, TABLES, {"f": "double precision", "i": "bigint", "u": "bigint", "b": "boolean",
                                     "text": "text"}, prefix=f'"{schema}".')
    yield schema
    con.execute(f'DROP SCHEMA "{schema}" CASCADE')
    con.close()


@pytest.fixture(params=["psycopg", "psycopg2"])
def postgres(request, pg_schema):
    """A connection of each PostgreSQL driver, its search path the tables' schema, autocommit on."""
    if request.param == "psycopg":
        con = connect_postgres(autocommit=True)
        run = con.execute
    else:
        try:
            import psycopg2
            con = psycopg2.connect(PG_DSN)
        except Exception as e:
            unreachable("PostgreSQL (psycopg2)", e)
        con.autocommit = True
        run = con.cursor().execute
    run(f'SET search_path TO "{pg_schema}", public')
    yield con, run
    con.close()


def _show(con, run, setting: str) -> str:
    cursor = con.cursor()
    cursor.execute(f"SELECT pg_catalog.current_setting('{setting}')")
    return cursor.fetchone()[0]


@pytest.fixture(scope="module")
def duckdb_con():
    con = duckdb.connect()
    for name, frame in TABLES.items():
        con.register(f"sm_{name}", frame)
        con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM "sm_{name}"')
    yield con
    con.close()


@pytest.fixture(scope="module")
def sqlite_con():
    con = sqlite3.connect(":memory:")
    for name, frame in TABLES.items():
        frame.to_sql(name, con, index=False)
    yield con
    con.close()


@pytest.fixture(scope="module")
def clickhouse_con():
    with chdb_session(TABLES) as con:
        yield con


# -- the sweeps: a setting at a time, the sample equal to DuckDB's, the setting as it was -----------

MARIADB_SETTINGS = [
    "sql_mode = 'HIGH_NOT_PRECEDENCE'",  # NOT x IS NULL read as (NOT x) IS NULL
    "sql_mode = 'ANSI,HIGH_NOT_PRECEDENCE,NO_BACKSLASH_ESCAPES,PAD_CHAR_TO_FULL_LENGTH,EMPTY_STRING_IS_NULL'",
    "sql_mode = 'ORACLE'", "sql_mode = 'TRADITIONAL'",
    "sql_select_limit = 3", "sql_select_limit = 0",  # every result cut short, or empty
    "NAMES latin1", "NAMES utf8mb3", "collation_connection = 'latin1_swedish_ci'",  # CAST(x AS CHAR)'s charset
    "completion_type = 1", "completion_type = 2",  # a ROLLBACK that chains a new transaction, or disconnects
    "tx_isolation = 'READ-UNCOMMITTED'", "div_precision_increment = 0", "max_sort_length = 4",
    "group_concat_max_len = 4", "big_tables = 1", "optimizer_switch = 'derived_merge=off,in_to_exists=off'",
    "time_zone = '+05:00'", "autocommit = 0"]


def assert_swept(con, set_it, read_it, reset_it):
    """With the setting set (`set_it`), the sample equals DuckDB's, and the setting reads back as set."""
    set_it()
    try:
        held = read_it()
        assert_the_sample(con)
        assert read_it() == held
    finally:
        reset_it()


@pytest.mark.parametrize("setting", MARIADB_SETTINGS)
def test_mariadb_session_cannot_change_a_number(mariadb, setting):
    names = setting.startswith("NAMES")
    name = "character_set_connection" if names else setting.split(" = ")[0]
    assert_swept(mariadb, lambda: _mysql(mariadb, f"SET {setting}" if names else f"SET SESSION {setting}"),
                 lambda: _mysql(mariadb, f"SELECT @@SESSION.{name}"),
                 lambda: _mysql(mariadb, "SET NAMES utf8mb4" if names else f"SET SESSION {name} = DEFAULT"))
    mariadb.ping(reconnect=False)  # completion_type = 2 (RELEASE) would have closed it
    assert not mariadb.server_status & 1 or setting == "autocommit = 0"  # no transaction left open
    mariadb.rollback()


POSTGRES_SETTINGS = ["extra_float_digits = -15", "extra_float_digits = 0", "standard_conforming_strings = off",
                     "transform_null_equals = on", "DateStyle = 'SQL, DMY'", "lc_numeric = 'C'",
                     "default_transaction_isolation = 'serializable'", "enable_hashagg = off", "jit_above_cost = 0",
                     "client_encoding = 'LATIN1'", "TimeZone = 'Asia/Kolkata'", "work_mem = '64kB'"]


@pytest.mark.parametrize("setting", POSTGRES_SETTINGS)
def test_postgres_session_cannot_change_a_number(postgres, setting):
    con, run = postgres
    name = setting.split(" = ")[0]
    assert_swept(con, lambda: run(f"SET {setting}"), lambda: _show(con, run, name), lambda: run(f"RESET {name}"))


DUCKDB_SETTINGS = ["default_order = 'DESC'", "default_null_order = 'NULLS_FIRST'", "default_collation = 'nocase'",
                   "integer_division = true", "ieee_floating_point_ops = false", "preserve_insertion_order = false",
                   "threads = 1", "order_by_non_integer_literal = true", "errors_as_json = true"]


@pytest.mark.parametrize("setting", DUCKDB_SETTINGS)
def test_duckdb_connection_cannot_change_a_number(duckdb_con, setting):
    name = setting.split(" = ")[0]
    assert_swept(duckdb_con, lambda: duckdb_con.execute(f"SET {setting}"),
                 lambda: duckdb_con.execute(f"SELECT current_setting('{name}')").fetchone(),
                 lambda: duckdb_con.execute(f"RESET {name}"))


SQLITE_PRAGMAS = ["full_column_names = 1", "short_column_names = 0", "case_sensitive_like = 1",
                  "reverse_unordered_selects = 1"]


@pytest.mark.parametrize("pragma", SQLITE_PRAGMAS)
def test_sqlite_connection_cannot_change_a_number(sqlite_con, pragma):
    name, value = pragma.split(" = ")
    assert_swept(sqlite_con, lambda: sqlite_con.execute(f"PRAGMA {pragma}"),
                 lambda: sqlite_con.execute(f"PRAGMA {name}").fetchall(),
                 lambda: sqlite_con.execute(f"PRAGMA {name} = {1 - int(value)}"))


CLICKHOUSE_SETTINGS = ["limit = 3", "offset = 2", "join_default_strictness = 'ANY'", "use_query_cache = 1",
                       "count_distinct_implementation = 'uniq'", "join_use_nulls = 1", "transform_null_in = 1",
                       "aggregate_functions_null_for_empty = 1", "prefer_column_name_to_alias = 1",
                       "group_by_use_nulls = 1", "union_default_mode = 'DISTINCT'", "max_threads = 1"]


@pytest.mark.parametrize("setting", CLICKHOUSE_SETTINGS)
def test_clickhouse_session_cannot_change_a_number(clickhouse_con, setting):
    name = setting.split(" = ")[0]
    assert_swept(clickhouse_con, lambda: clickhouse_con.query(f"SET {setting}"),
                 # read past the query cache (use_query_cache = 1 refuses a query of getSetting)
                 lambda: clickhouse_con.query(f"SELECT getSetting('{name}') SETTINGS use_query_cache = 0",
                                              "CSV").bytes(),
                 lambda: clickhouse_con.query(f"SET {name} = DEFAULT"))


@pytest.mark.parametrize("setting", ["max_result_rows = 3, result_overflow_mode = 'break'",
                                     "max_rows_to_group_by = 2, group_by_overflow_mode = 'any'",
                                     "max_rows_in_join = 2, join_overflow_mode = 'break'",
                                     "max_rows_in_distinct = 2, distinct_overflow_mode = 'break'"])
def test_clickhouse_limits_fail_instead_of_cutting_short(clickhouse_con, setting):
    """A limit the session sets stays the session's; only its 'break' (return what fits) is refused:
    over the limit, a call fails, where it would have returned a number of part of the data."""
    clickhouse_con.query(f"SET {setting}")
    try:
        for case, metric, table, params in SAMPLE:
            try:
                got = getattr(sm, metric)(table, con=clickhouse_con, details=True, **params)
            except (sm.EngineError, sm.SourceError) as e:
                assert "Limit for" in str(e), (case, str(e))
                continue
            assert_same(got, REFERENCE.get(case) if case in REFERENCE else reference(metric, table, params), case)
    finally:
        for part in setting.split(", "):
            clickhouse_con.query(f"SET {part.split(' = ')[0]} = DEFAULT")


def test_clickhouse_read_only_session_computes(clickhouse_con):
    """A read-only session (readonly = 1) refuses a SETTINGS clause even at a setting's value: none is
    sent for a setting the session has not changed."""
    from chdb import session
    con = session.Session()  # its settings its own; its tables those of every session of the process
    frame = TABLES["preds"]
    con.query("SET readonly = 1")
    try:
        assert sm.auc("preds", label="y", score="s", con=con) == pytest.approx(
            roc_auc_score(frame["y"], frame["s"]), rel=1e-12)
    finally:
        con.close()


# -- each reported case, on its engine ----------------------------------------------------------------

def test_psycopg2_reads_floats_whole_whatever_extra_float_digits(pg_schema):
    """psycopg2 reads results as text, which a negative extra_float_digits rounds: 0.4375 came back 0.4."""
    import psycopg2
    from sqlalchemy import create_engine
    frame = pd.DataFrame({"y": [1, 1, 1, 1, 0, 0, 0, 0], "s": [0.1, 0.4, 0.6, 0.45, 0.2, 0.3, 0.5, 0.9]})
    want = roc_auc_score(frame["y"], frame["s"])
    assert want == 0.4375
    con = psycopg2.connect(PG_DSN)
    with con.cursor() as cursor:
        cursor.execute(f'CREATE TABLE "{pg_schema}".digits (y int, s float8)')
        cursor.executemany(f'INSERT INTO "{pg_schema}".digits VALUES (%s, %s)', plain_rows(frame))
        cursor.execute("SET extra_float_digits = -15")
    con.commit()
    try:
        assert sm.auc(f"{pg_schema}.digits", label="y", score="s", con=con) == want
        engine = create_engine("postgresql+psycopg2://", creator=lambda: con)
        with engine.connect() as lent:
            assert sm.auc(f"{pg_schema}.digits", label="y", score="s", con=lent) == want
        with con.cursor() as cursor:
            cursor.execute("SHOW extra_float_digits")
            assert cursor.fetchone()[0] == "-15"
    finally:
        con.close()


def test_mariadb_ids_that_differ_by_trailing_spaces_are_two(mariadb):
    """utf8mb4_bin pads with spaces (PAD SPACE): 'u' and 'u ' were one id, one slice, one query."""
    frame = pd.DataFrame({"u": ["u", "u", "u ", "u ", "u", "u "], "y": [1, 0, 1, 0, 1, 0],
                          "s": [0.9, 0.2, 0.1, 0.8, 0.6, 0.3]})
    run = pd.DataFrame({"query": ["q", "q "], "item": ["a", "a"], "score": [1.0, 2.0]})
    qrels = pd.DataFrame({"query": ["q"], "item": ["a "], "relevance": [1]})
    with mariadb.cursor() as cursor:
        for name, table in (("padded", frame), ("padded_run", run), ("padded_qrels", qrels)):
            load_tables(cursor, {name: table}, {"f": "DOUBLE", "i": "BIGINT", "text": "VARCHAR(8)"}, quote="`")
    mariadb.commit()
    by = sm.auc("padded", label="y", score="s", by="u", con=mariadb)
    want = sm.auc(frame, label="y", score="s", by="u")
    assert by["u"].tolist() == ["u", "u "] and by["auc"].tolist() == want["auc"].tolist()
    assert sm.gauc("padded", label="y", score="s", group="u", con=mariadb) == sm.gauc(frame, label="y", score="s",
                                                                                     group="u")
    assert sm.mrr("padded_run", "padded_qrels", con=mariadb) == sm.mrr(run, qrels) == 0.0


@pytest.mark.parametrize("mode, condition, meaning", [
    ("ANSI_QUOTES", "\"c\" <> 'a'", "c <> 'a'"),  # a name, not a string
    ("", "\"c\" <> 'a'", "'c' <> 'a'"),  # a string
    ("PIPES_AS_CONCAT", "c || 'z' = 'az'", "c = 'a'"),  # concatenation, not OR
    ("", "d || hat", "d <> 0 OR hat <> 0"),
    ("HIGH_NOT_PRECEDENCE", "NOT d = hat", "(d = 0) = hat"),
    ("", "NOT d = hat", "NOT (d = hat)"),
    ("EMPTY_STRING_IS_NULL", "c <> '' OR c = 'a'", "c = 'a'"),
    ("ANSI,HIGH_NOT_PRECEDENCE", "NOT \"d\" = 0 AND c || 'z' = 'bz'", "d <> 0 AND c = 'b'")])
def test_mariadb_reads_a_query_as_the_session_reads_it(mariadb, mode, condition, meaning):
    frame = TABLES["preds"]
    _mysql(mariadb, f"SET SESSION sql_mode = '{mode}'")
    try:
        held = _mysql(mariadb, "SELECT @@SESSION.sql_mode")
        got = sm.auc(sm.Query(f"SELECT * FROM preds WHERE {condition}"), label="y", score="s", con=mariadb)
        assert _mysql(mariadb, "SELECT @@SESSION.sql_mode") == held
    finally:
        _mysql(mariadb, "SET SESSION sql_mode = DEFAULT")
    rows = duckdb.query_df(frame, "frame", f"SELECT * FROM frame WHERE {meaning}").df()
    assert got == pytest.approx(roc_auc_score(rows["y"], rows["s"]), rel=1e-12)


def test_mariadb_refuses_a_query_under_a_grammar_it_cannot_read(mariadb):
    _mysql(mariadb, "SET SESSION sql_mode = 'ORACLE'")
    try:
        with pytest.raises(sm.SourceError, match="sql_mode ORACLE reads SQL text with another grammar"):
            sm.auc(sm.Query("SELECT * FROM preds"), label="y", score="s", con=mariadb)
        assert sm.auc("preds", label="y", score="s", con=mariadb) == pytest.approx(  # a table is no text of the user's
            roc_auc_score(TABLES["preds"]["y"], TABLES["preds"]["s"]), rel=1e-12)
    finally:
        _mysql(mariadb, "SET SESSION sql_mode = DEFAULT")


def test_the_sql_of_a_call_is_remembered_by_what_runs(postgres, pg_schema):
    """The memo of generated SQL was keyed by each source's DuckDB text, in which ::bpchar and ::text
    are both VARCHAR: the second query ran the first one's SQL on PostgreSQL."""
    con, run = postgres
    run(f'CREATE TEMP TABLE padded AS SELECT y, s, CAST(c || \' \' AS text) AS c FROM "{pg_schema}".preds')
    frame = TABLES["preds"]
    kept = frame[frame["c"] == "a"]
    for cast, rows in (("bpchar", kept), ("text", frame.iloc[:0]), ("bpchar", kept)):
        query = sm.Query(f"SELECT y, s FROM padded WHERE c::{cast} = 'a'")
        if len(rows):
            assert sm.auc(query, label="y", score="s", con=con) == pytest.approx(
                roc_auc_score(rows["y"], rows["s"]), rel=1e-12)
        else:
            with pytest.raises(sm.UndefinedMetricError, match="n=0"):
                sm.auc(query, label="y", score="s", con=con)


def test_postgres_builtins_cannot_be_stood_in_for(postgres, pg_schema):
    """A function of another schema whose arguments match a call better than the builtin's (LN(2) on
    an integer, CVE-2018-1058's pattern) was called instead: ERR@10 0.0 instead of 0.0448."""
    con, run = postgres
    setup = connect_postgres(autocommit=True)
    schema = f"{pg_schema}_standins"
    setup.execute(f'CREATE SCHEMA "{schema}"')
    try:
        for signature, body in (("power(integer, double precision)", "0.0::float8"),
                                ("ln(integer)", "1.0::float8"), ("lower(varchar)", "'x'"),
                                ("round(double precision)", "0.0::float8")):
            returns = "text" if "lower" in signature else "double precision"
            setup.execute(f'CREATE FUNCTION "{schema}".{signature} RETURNS {returns} '
                          f'AS $$ SELECT {body} $$ LANGUAGE sql')
        run(f'SET search_path TO "{schema}", "{pg_schema}", public')
        held = _show(con, run, "search_path")
        assert sm.err("run", "qrels", k=10, con=con) == pytest.approx(sm.err(TABLES["run"], TABLES["qrels"], k=10),
                                                                      rel=1e-12)
        assert_the_sample(con)
        assert _show(con, run, "search_path") == held
    finally:
        setup.execute(f'DROP SCHEMA "{schema}" CASCADE')
        setup.close()


def test_postgres_finds_the_callers_tables_as_the_caller_would(postgres, pg_schema):
    """The call's own search path holds the builtins only; the tables of a table name or a query are
    those the caller's path finds: a temporary table first, then the path's schemas in order."""
    con, run = postgres
    run("CREATE TEMP TABLE preds AS SELECT 1 AS y, 0.5 AS s UNION ALL SELECT 0, 0.25")
    assert sm.auc("preds", label="y", score="s", con=con) == 1.0  # the temporary one, as PostgreSQL finds it
    frame = TABLES["preds"]
    want = roc_auc_score(frame["y"], frame["s"])
    assert sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con) == pytest.approx(want, rel=1e-12)
    assert sm.auc(sm.Query(f'WITH preds AS (SELECT * FROM "{pg_schema}".preds) SELECT * FROM preds'), label="y",
                  score="s", con=con) == pytest.approx(want, rel=1e-12)
    run("DROP TABLE preds")
    assert sm.auc(sm.Query("SELECT * FROM PREDS"), label="y", score="s", con=con) == pytest.approx(want, rel=1e-12)
    with pytest.raises(sm.SourceError, match="does not exist"):
        sm.auc("no_such_table", label="y", score="s", con=con)


def test_postgres_ids_compare_byte_by_byte_whatever_their_collation(pg_schema):
    """A nondeterministic (ICU, case-insensitive) collation makes 'U' equal to 'u' in GROUP BY and joins."""
    con = connect_postgres(autocommit=True)
    try:
        if not con.execute("SELECT 1 FROM pg_collation WHERE collprovider = 'i' LIMIT 1").fetchone():
            unreachable("PostgreSQL with ICU collations", RuntimeError("this server has no ICU"))
        con.execute(f'CREATE COLLATION IF NOT EXISTS "{pg_schema}".caseless '
                    "(provider = icu, locale = 'und-u-ks-level2', deterministic = false)")
        con.execute(f'CREATE TABLE "{pg_schema}".cased (u text COLLATE "{pg_schema}".caseless, y int, s float8)')
        frame = pd.DataFrame({"u": ["u", "U", "u", "U"], "y": [1, 0, 0, 1], "s": [0.9, 0.1, 0.8, 0.2]})
        with con.cursor() as cursor:
            cursor.executemany(f'INSERT INTO "{pg_schema}".cased VALUES (%s, %s, %s)', plain_rows(frame))
        got, want = sm.auc(f"{pg_schema}.cased", label="y", score="s", by="u", con=con), sm.auc(frame, label="y",
                                                                                            score="s", by="u")
        assert got["u"].tolist() == want["u"].tolist() == ["U", "u"] and got["n"].tolist() == want["n"].tolist()
    finally:
        con.close()


def test_duckdb_and_sqlite_ids_compare_byte_by_byte_whatever_their_collation():
    frame = pd.DataFrame({"u": ["u", "U", "u ", "u", "U", "u "], "y": [1, 0, 1, 0, 1, 0],
                          "s": [0.9, 0.1, 0.2, 0.8, 0.6, 0.5]})
    want = sm.auc(frame, label="y", score="s", by="u")
    duck = duckdb.connect()
    duck.execute("CREATE TABLE t (u VARCHAR COLLATE NOCASE, y INT, s DOUBLE)")
    duck.executemany("INSERT INTO t VALUES (?, ?, ?)", plain_rows(frame))
    lite = sqlite3.connect(":memory:")
    for collation in ("NOCASE", "RTRIM"):
        lite.execute(f"CREATE TABLE t_{collation} (u TEXT COLLATE {collation}, y INT, s REAL)")
        lite.executemany(f"INSERT INTO t_{collation} VALUES (?, ?, ?)", plain_rows(frame))
    for con, table in ((duck, "t"), (lite, "t_NOCASE"), (lite, "t_RTRIM")):
        got = sm.auc(table, label="y", score="s", by="u", con=con)
        assert got["u"].tolist() == want["u"].tolist() and got["auc"].tolist() == want["auc"].tolist(), (con, table)


def test_a_function_of_the_connections_own_named_like_a_builtin_is_refused():
    """DuckDB calls a macro in place of the builtin of its name, SQLite an application function: the
    SQL would not compute what sqlmetrics wrote."""
    frame = TABLES["preds"]
    duck = duckdb.connect()
    duck.register("preds", frame)
    duck.execute("CREATE MACRO ln(x) AS 42")
    with pytest.raises(sm.SourceError, match=r"defines a function of its own named ln\(\)"):
        sm.log_loss("preds", label="y", score="s", con=duck)
    assert sm.auc("preds", label="y", score="s", con=duck) == pytest.approx(  # AUC calls no ln
        roc_auc_score(frame["y"], frame["s"]), rel=1e-12)
    lite = sqlite3.connect(":memory:")
    frame.to_sql("preds", lite, index=False)
    lite.create_function("ln", 1, lambda x: 42.0)
    with pytest.raises(sm.SourceError, match=r"defines a function of its own named ln\(\)"):
        sm.log_loss("preds", label="y", score="s", con=lite)


@pytest.mark.parametrize("autocommit", [True, False])
def test_mariadb_keeps_the_callers_table_locks(mariadb, autocommit):
    """START TRANSACTION releases the tables a session holds by LOCK TABLES: a call begins its
    transaction without it."""
    mariadb.autocommit(autocommit)
    _mysql(mariadb, "LOCK TABLES preds READ")
    try:
        frame = TABLES["preds"]
        assert sm.auc("preds", label="y", score="s", con=mariadb) == pytest.approx(
            roc_auc_score(frame["y"], frame["s"]), rel=1e-12)
        with pytest.raises(Exception, match="was not locked with LOCK TABLES"):
            _mysql(mariadb, "SELECT 1 FROM run LIMIT 1")  # still locked: only preds may be read
    finally:
        _mysql(mariadb, "UNLOCK TABLES")
        mariadb.autocommit(False)


@pytest.fixture
def adbc_postgres(pg_schema):
    try:
        import adbc_driver_postgresql.dbapi as adbc
        con = adbc.connect(f"postgresql:///{PG_DSN.split('dbname=')[-1].split()[0]}?host=/var/run/postgresql")
    except Exception as e:
        unreachable("PostgreSQL (ADBC)", e)
    with con.cursor() as cursor:
        cursor.execute(f'CREATE TABLE "{pg_schema}".adbc_kept (x int)')
    con.commit()
    yield con
    con.rollback()
    with con.cursor() as cursor:
        cursor.execute(f'DROP TABLE "{pg_schema}".adbc_kept')
    con.commit()
    con.close()


def test_adbc_postgres_leaves_the_connection_as_found(adbc_postgres, pg_schema):
    """ADBC's PostgreSQL driver answers every statement after a failed one with "first rollback", so a
    savepoint cannot undo a failure: a call inside a transaction holding uncommitted changes is refused
    before anything runs, and the changes are kept; without any, a call (failing or not) leaves the
    connection idle, as ADBC leaves it after a rollback."""
    con = adbc_postgres
    frame = TABLES["preds"]
    want = roc_auc_score(frame["y"], frame["s"])
    assert sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con) == pytest.approx(want, rel=1e-12)
    with con.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    other = connect_postgres(autocommit=True)
    try:
        def state():
            return other.execute("SELECT state FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()[0]
        con.rollback()
        sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con)
        assert state() == "idle"  # not "idle in transaction"
        with pytest.raises(sm.EngineError, match="invalid input syntax"):  # fails on the server
            sm.auc(sm.Query(f'SELECT y, CAST(c AS double precision) AS s FROM "{pg_schema}".preds'), label="y",
                   score="s", con=con)
        assert state() == "idle"
        assert sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con) == pytest.approx(want, rel=1e-12)
        with con.cursor() as cursor:
            cursor.execute(f'INSERT INTO "{pg_schema}".adbc_kept VALUES (1)')
        with pytest.raises(sm.SourceError, match="uncommitted changes.*commit or roll back first"):
            sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con)
        with con.cursor() as cursor:
            cursor.execute(f'SELECT COUNT(*) FROM "{pg_schema}".adbc_kept')
            assert cursor.fetchone()[0] == 1  # the caller's row, uncommitted, is still there
    finally:
        other.close()


@pytest.mark.parametrize("charset", ["utf8mb4", "utf8", "latin1"])
def test_mariadb_ids_of_any_character_set(mariadb, charset):
    """Ids were compared in utf8mb4_bin, which a latin1 or VARBINARY column, or a connection in utf8 or
    latin1, refused with error 1253; they are compared as utf8mb4 bytes whatever their character set:
    a run in latin1 is judged by qrels in utf8mb4, 'é' by 'é'."""
    run = pd.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["é", "e", "b", "é", "Z"],
                        "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query": [1, 2, 2], "item": ["é", "z", "Z"], "relevance": [1, 1, 0]})
    with mariadb.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE latin_run "
                       "(`query` INT, item VARCHAR(8) CHARACTER SET latin1, score DOUBLE)")
        cursor.execute("CREATE TEMPORARY TABLE binary_run (`query` INT, item VARBINARY(8), score DOUBLE)")
        cursor.execute("CREATE TEMPORARY TABLE utf_qrels (`query` INT, item VARCHAR(8), relevance INT)")
        for table, frame in (("latin_run", run), ("binary_run", run), ("utf_qrels", qrels)):
            cursor.executemany(f"INSERT INTO {table} VALUES (%s, %s, %s)", plain_rows(frame))
        cursor.execute(f"SET NAMES {charset}")
    try:
        want = sm.ndcg(run, qrels, k=3)
        for table in ("latin_run", "binary_run"):
            assert sm.ndcg(table, "utf_qrels", k=3, con=mariadb) == pytest.approx(want, rel=1e-12), table
    finally:
        _mysql(mariadb, "SET NAMES utf8mb4")
        _mysql(mariadb, "DROP TEMPORARY TABLE latin_run, binary_run, utf_qrels")


def test_mariadb_keeps_the_callers_snapshot(mariadb):
    """Out of autocommit, a SELECT begins a transaction that PyMySQL hears of only with the server's
    next OK packet: a call took the connection for idle and its START TRANSACTION committed the
    caller's, whose next read saw another snapshot. The call now runs inside it."""
    other = connect_mysql()
    try:
        other.select_db(_mysql(mariadb, "SELECT DATABASE()")[0][0])
        _mysql(mariadb, "CREATE TABLE snapshot_rows (x INT)")
        mariadb.commit()
        seen = _mysql(mariadb, "SELECT COUNT(*) FROM snapshot_rows")  # the caller's transaction, and snapshot
        _mysql(other, "INSERT INTO snapshot_rows VALUES (1)")
        other.commit()
        sm.auc("preds", label="y", score="s", con=mariadb)
        assert _mysql(mariadb, "SELECT COUNT(*) FROM snapshot_rows") == seen
    finally:
        mariadb.rollback()
        _mysql(mariadb, "DROP TABLE snapshot_rows")
        other.close()


@pytest.mark.parametrize("setting", ["sql_select_limit = 3",
                                     "sql_mode = 'HIGH_NOT_PRECEDENCE,PAD_CHAR_TO_FULL_LENGTH'"])
def test_mysql_settings_saved_and_restored_where_no_statement_scopes_them(mariadb, monkeypatch, setting):
    """MySQL (not MariaDB) has no SET STATEMENT: a call sets its settings as it starts, keeping the
    session's in user variables, and restores them as it ends. Run here on MariaDB taken for MySQL
    (with MariaDB's name of the binary collation without padding)."""
    from sqlmetrics import dialects

    class MySQLServer(dialects.MySQL):
        binary_collation = "utf8mb4_nopad_bin"

    monkeypatch.setattr(dialects.MySQL, "for_server", lambda self, version: MySQLServer())
    name = setting.split(" = ")[0]
    _mysql(mariadb, f"SET SESSION {setting}")
    held = _mysql(mariadb, f"SELECT @@SESSION.{name}")
    try:
        assert_the_sample(mariadb)
        assert _mysql(mariadb, f"SELECT @@SESSION.{name}, @sm_saved_{name}") == ((held[0][0], None),)
    finally:
        _mysql(mariadb, f"SET SESSION {name} = DEFAULT")
        mariadb.rollback()
