"""The caller's connection: threads sharing it, one snapshot per call, transactions and session state
left as found, read-only execution, row factories, and interruption.

Expected values come from scikit-learn on the same rows (or from the engine's own state); every
test here failed before calls took a per-connection lock and a snapshot of their own.
"""
import os
import signal
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from sqlmetrics import engine as sm_engine
from conftest import PG_DSN, connect_postgres, unreachable


def frames(n_frames=8, n=300):
    """Frames whose AUCs all differ, so a call that read another call's frame shows."""
    rng = np.random.default_rng(11)
    out = []
    for i in range(n_frames):
        y = rng.integers(0, 2, n)
        out.append(pd.DataFrame({"y": y, "s": y * (0.1 + 0.1 * i) + rng.random(n)}))
    return out


FRAMES = frames()
EXPECTED = [roc_auc_score(f["y"], f["s"]) for f in FRAMES]
assert len(set(np.round(EXPECTED, 9))) == len(EXPECTED)


def run_threads(call, n_threads, rounds=6):
    """call(i) on n_threads threads, `rounds` times each frame index; returns [(i, result or error)]."""
    jobs = [i % len(FRAMES) for i in range(n_threads * rounds)]
    with ThreadPoolExecutor(n_threads) as pool:
        def one(i):
            try:
                return i, call(i)
            except Exception as e:  # reported, so every failure of every thread is seen
                return i, e
        return list(pool.map(one, jobs))


def assert_each_saw_its_own(results):
    errors = [(i, r) for i, r in results if isinstance(r, Exception)]
    assert not errors, errors[:3]
    wrong = [(i, r, EXPECTED[i]) for i, r in results if r != pytest.approx(EXPECTED[i], rel=1e-12)]
    assert not wrong, wrong[:3]


# -- threads -------------------------------------------------------------------------------------

def test_duckdb_connection_shared_by_threads_frames():
    con = duckdb.connect()
    assert_each_saw_its_own(run_threads(lambda i: sm.auc(FRAMES[i], label="y", score="s", con=con), 8))


def test_duckdb_connection_shared_by_threads_tables_and_frames():
    con = duckdb.connect()
    for i, f in enumerate(FRAMES):
        con.execute(f"CREATE TABLE t{i} AS SELECT * FROM f")

    def call(i):  # tables and frames interleaved on one connection
        return sm.auc(f"t{i}" if i % 2 else FRAMES[i], label="y", score="s", con=con)
    assert_each_saw_its_own(run_threads(call, 8))


def test_default_connection_from_threads():
    assert_each_saw_its_own(run_threads(lambda i: sm.auc(FRAMES[i], label="y", score="s"), 8))


def test_sqlite_connection_shared_by_threads():
    con = sqlite3.connect(":memory:", check_same_thread=False)
    for i, f in enumerate(FRAMES):
        f.to_sql(f"t{i}", con, index=False)
    assert_each_saw_its_own(run_threads(lambda i: sm.auc(f"t{i}", label="y", score="s", con=con), 4))
    assert not con.in_transaction


def test_clickhouse_session_shared_by_threads():
    try:
        from chdb import session
        con = session.Session()
    except Exception as e:
        unreachable("ClickHouse (chDB)", e)
    try:
        for i, f in enumerate(FRAMES):
            con.query(f"CREATE TABLE t{i} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM Python(f)")
        assert_each_saw_its_own(run_threads(lambda i: sm.auc(f"t{i}", label="y", score="s", con=con), 4, 2))
    finally:
        con.close()


# -- PostgreSQL: transactions, read-only, state --------------------------------------------------

@pytest.fixture(scope="module")
def pg_dsn():
    connect_postgres().close()
    return PG_DSN


@pytest.fixture
def pg(pg_dsn):
    """A connection (autocommit off, psycopg's default) whose search_path is a schema of its own
    holding t0..t7 (FRAMES) and a table `log` that a volatile function writes to."""
    import psycopg
    schema = f"sm_conn_{os.getpid()}_{threading.get_ident() % 10000}"
    setup = psycopg.connect(pg_dsn, autocommit=True)
    setup.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    setup.execute(f'CREATE SCHEMA "{schema}"')
    for i, f in enumerate(FRAMES):
        setup.execute(f'CREATE TABLE "{schema}".t{i} (y bigint, s double precision)')
        with setup.cursor().copy(f'COPY "{schema}".t{i} FROM STDIN') as copy:
            for y, s in f.itertuples(index=False):
                copy.write_row([int(y), float(s)])
    setup.execute(f'CREATE TABLE "{schema}".log (x int)')
    setup.execute(f'CREATE FUNCTION "{schema}".logged() RETURNS int VOLATILE LANGUAGE sql '
                  f'AS $$ INSERT INTO "{schema}".log VALUES (1) RETURNING 1 $$')
    con = psycopg.connect(pg_dsn, options=f"-c search_path={schema}")
    yield con
    con.close()
    setup.execute(f'DROP SCHEMA "{schema}" CASCADE')
    setup.close()


def test_postgres_connection_shared_by_threads_then_idle(pg, pg_dsn):
    import psycopg
    from psycopg.pq import TransactionStatus
    assert_each_saw_its_own(run_threads(lambda i: sm.auc(f"t{i}", label="y", score="s", con=pg), 4))
    # nothing left open that holds locks: another session can alter the tables at once
    assert pg.info.transaction_status == TransactionStatus.IDLE
    schema = pg.execute("SELECT current_schema()").fetchone()[0]
    pg.rollback()
    with psycopg.connect(pg_dsn, autocommit=True) as other:
        other.execute("SET lock_timeout = '2s'")
        other.execute(f'ALTER TABLE "{schema}".t0 ADD COLUMN z int')


def test_postgres_error_inside_callers_transaction_keeps_it_usable(pg):
    from psycopg.pq import TransactionStatus
    pg.execute("INSERT INTO t0 VALUES (1, 0.5)")  # the caller's uncommitted work
    with pytest.raises(sm.SourceError, match="does not exist"):
        sm.auc("nope", label="y", score="s", con=pg)
    with pytest.raises(sm.EngineError, match="division by zero"):
        sm.auc(sm.Query("SELECT y, s / 0 AS s FROM t0"), label="y", score="s", con=pg)
    assert pg.info.transaction_status == TransactionStatus.INTRANS
    assert pg.execute("SELECT COUNT(*) FROM t0").fetchone()[0] == len(FRAMES[0]) + 1
    # and our call saw the caller's uncommitted row
    both = pd.concat([FRAMES[0], pd.DataFrame({"y": [1], "s": [0.5]})])
    assert sm.auc("t0", label="y", score="s", con=pg) == pytest.approx(roc_auc_score(both.y, both.s), rel=1e-12)
    assert pg.execute("SHOW transaction_read_only").fetchone()[0] == "off"  # our read-only mode ended
    pg.commit()
    assert pg.execute("SELECT COUNT(*) FROM t0").fetchone()[0] == len(FRAMES[0]) + 1


@pytest.mark.parametrize("in_transaction", [False, True])
def test_postgres_runs_read_only(pg, in_transaction):
    """A function of the user's own is refused unless trusted; trusted (and named with its schema: a
    call resolves unqualified functions among the builtins only), it still cannot write."""
    schema = pg.execute("SELECT current_schema()").fetchone()[0]
    pg.rollback()
    if in_transaction:
        pg.execute("SELECT 1")
    with pytest.raises(sm.SourceError, match=r"logged\(\), which is not among"):
        sm.auc(sm.Query("SELECT y, s + logged() AS s FROM t0"), label="y", score="s", con=pg)
    with pytest.raises(sm.EngineError, match="read-only transaction"):
        sm.auc(sm.Query(f'SELECT y, s + "{schema}".logged() AS s FROM t0', functions=("LOGGED",)), label="y",
               score="s", con=pg)
    pg.rollback()
    assert pg.execute("SELECT COUNT(*) FROM log").fetchone()[0] == 0


def test_postgres_refuses_functions_with_lasting_effects(pg):
    for query in ("SELECT y, s FROM t0 WHERE pg_advisory_lock(42) IS NOT NULL",
                  "SELECT y, s FROM t0 WHERE set_config('search_path', 'public', false) <> ''",
                  "SELECT y, s + nextval('x') AS s FROM t0"):
        with pytest.raises(sm.SourceError, match="effect outlives the query"):
            sm.auc(sm.Query(query), label="y", score="s", con=pg)
    pg.rollback()
    assert not pg.execute("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'").fetchone()[0]


@pytest.mark.parametrize("in_transaction", [False, True])
def test_postgres_reads_literals_as_checked_whatever_the_sessions_strings(pg, in_transaction):
    """A session with the legacy standard_conforming_strings = off reads a backslash in '...' as an
    escape, which moved the end of a literal sqlmetrics wrote (pos_label): each call sets it on for
    itself, and the session's setting is as it was afterwards. A Query's text is the user's, read as
    their session reads it: 'a\\' is a\ there, and a text that session cannot read is refused."""
    pg.autocommit = True
    pg.execute("CREATE TEMP TABLE labels AS SELECT (CASE WHEN y = 1 THEN 'a\\' ELSE 'b' END)::text AS y, s FROM t0")
    pg.execute("SET standard_conforming_strings = off")
    pg.execute("SET escape_string_warning = off")
    if in_transaction:
        pg.autocommit = False
        pg.execute("SELECT 1")
    want = roc_auc_score(FRAMES[0].y, FRAMES[0].s)
    assert sm.auc("labels", label="y", score="s", pos_label="a\\", con=pg) == pytest.approx(want, rel=1e-12)
    query = sm.Query("SELECT y, s FROM labels WHERE y = 'a\\\\' OR y = 'b' OR y = '\\\\' OR y LIKE '%'")
    assert sm.auc(query, label="y", score="s", pos_label="a\\", con=pg) == pytest.approx(want, rel=1e-12)
    with pytest.raises(sm.SourceError, match="does not parse"):  # as a session without standard strings reads it
        sm.auc(sm.Query("SELECT y, s FROM labels WHERE y = 'a\\' OR y = 'b'"), label="y", score="s", con=pg)
    assert pg.execute("SHOW standard_conforming_strings").fetchone()[0] == "off"
    pg.rollback()
    pg.autocommit = True


def test_postgres_receives_one_statement_by_the_extended_protocol(pg):
    """Besides the checks, the server itself refuses a second statement: psycopg sends a text without
    parameters by the simple protocol, where several run, unless told otherwise (binary results)."""
    import psycopg
    engine = sm_engine.connect(pg)
    with pytest.raises(psycopg.errors.SyntaxError, match="cannot insert multiple commands"):
        engine._fetch("SELECT 1; SELECT 2")
    pg.rollback()


def test_postgres_state_left_as_found(pg):
    from psycopg.pq import TransactionStatus
    for autocommit in (False, True):
        pg.autocommit = autocommit
        sm.auc("t1", label="y", score="s", con=pg)
        assert pg.autocommit is autocommit
        assert pg.info.transaction_status == TransactionStatus.IDLE
    pg.autocommit = False
    try:
        pg.execute("SELECT 1/0")
    except Exception:
        pass
    with pytest.raises(sm.SourceError, match="roll it back"):  # the caller's failed transaction
        sm.auc("t1", label="y", score="s", con=pg)
    pg.rollback()


def test_postgres_any_row_factory(pg):
    from psycopg.rows import dict_row, namedtuple_row
    for factory in (dict_row, namedtuple_row):
        pg.row_factory = factory
        assert sm.auc("t2", label="y", score="s", con=pg) == pytest.approx(EXPECTED[2], rel=1e-12)
        assert sm.auc("t2", label="y", score="s", con=pg, details=True)["n"].iloc[0] == len(FRAMES[2])


# -- one snapshot: the checks and the metric read the same rows --------------------------------

def insert_after_the_checks(monkeypatch, insert):
    """Run `insert` (from another connection, committed) once the call's first statement of its own has
    run (the probe of the columns; every statement goes through Engine.checked), before the next: the
    checks (a statement of their own, or screens in the metric's) and the metric."""
    original, seen = sm_engine.Engine.checked, []

    def checked(self, sql):
        seen.append(sql)
        if len(seen) == 2:
            insert()
        return original(self, sql)
    monkeypatch.setattr(sm_engine.Engine, "checked", checked)


def test_duckdb_rows_inserted_between_checks_and_metric_are_not_seen(monkeypatch, tmp_path):
    path = str(tmp_path / "db.duckdb")
    con = duckdb.connect(path)
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 0.9), (0, 0.8), (1, 0.7), (0, 0.1)) v(y, s)")
    other = con.cursor()  # a second connection to the same database
    insert_after_the_checks(monkeypatch, lambda: other.execute("INSERT INTO t VALUES (NULL, 0.95), (0, 0.99)"))
    assert sm.auc("t", label="y", score="s", con=con) == roc_auc_score([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    assert con.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 6  # the insert did land


def test_postgres_rows_inserted_between_checks_and_metric_are_not_seen(monkeypatch, pg, pg_dsn):
    import psycopg
    schema = pg.execute("SELECT current_schema()").fetchone()[0]
    pg.rollback()
    other = psycopg.connect(pg_dsn, autocommit=True, options=f"-c search_path={schema}")
    insert_after_the_checks(monkeypatch, lambda: other.execute("INSERT INTO t3 VALUES (NULL, 9), (0, 10)"))
    assert sm.auc("t3", label="y", score="s", con=pg) == pytest.approx(EXPECTED[3], rel=1e-12)
    assert pg.execute("SELECT COUNT(*) FROM t3").fetchone()[0] == len(FRAMES[3]) + 2
    other.close()


@pytest.mark.parametrize("query", ["SELECT * FROM t USING SAMPLE 50%",
                                   "SELECT * FROM t USING SAMPLE 50% (system, 7)",
                                   "SELECT * FROM t TABLESAMPLE BERNOULLI (50)",
                                   "SELECT * FROM t WHERE random() < 0.5",
                                   "SELECT y, s + uuid()::VARCHAR::BIGINT AS s FROM t"])
def test_queries_that_differ_from_run_to_run_are_refused(query):
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT i % 2 AS y, i / 100 AS s FROM range(100) r(i)")
    with pytest.raises(sm.SourceError, match="differ"):
        sm.auc(sm.Query(query), label="y", score="s", con=con)
    # a seeded row sample repeats, so it is accepted
    assert 0 <= sm.auc(sm.Query("SELECT * FROM t USING SAMPLE 50% (bernoulli, 7)"), label="y", score="s",
                       con=con) <= 1


@pytest.mark.parametrize("query, why", [
    ("SELECT * FROM t WHERE nextval('q') > 0", "effect outlives the query"),
    ("SELECT * FROM t, checkpoint()", "effect outlives the query"),
    ("SELECT * FROM t WHERE write_log('x') IS NULL", "effect outlives the query"),
    ("SELECT * FROM query('SELECT * FROM t')", "runs SQL given as text"),
    ("SELECT * FROM t WHERE sleep_ms(10000) IS NULL", "holds the connection"),
])
def test_duckdb_functions_with_lasting_effects_are_refused(query, why):
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT i % 2 AS y, i / 100 AS s FROM range(100) r(i)")
    con.execute("CREATE SEQUENCE q")
    with pytest.raises(sm.SourceError, match=why):
        sm.auc(sm.Query(query), label="y", score="s", con=con)
    assert con.execute("SELECT nextval('q')").fetchone()[0] == 1  # never advanced


# -- DuckDB and SQLite transactions ----------------------------------------------------------------

def test_duckdb_inside_callers_transaction():
    con = duckdb.connect()
    f = FRAMES[0]
    con.execute("CREATE TABLE t AS SELECT * FROM f")
    con.begin()
    con.execute("INSERT INTO t VALUES (1, 0.5)")
    with pytest.raises(sm.SourceError, match="does not exist"):  # found without a failing statement
        sm.auc("nope", label="y", score="s", con=con)
    both = pd.concat([f, pd.DataFrame({"y": [1], "s": [0.5]})])
    assert sm.auc("t", label="y", score="s", con=con) == pytest.approx(roc_auc_score(both.y, both.s), rel=1e-12)
    con.commit()  # the caller's transaction is intact and still theirs to end
    assert con.execute("SELECT COUNT(*) FROM t").fetchone()[0] == len(f) + 1


def test_sqlite_transactions_row_factories_and_schema_names(tmp_path):
    con = sqlite3.connect(tmp_path / "db.sqlite")
    FRAMES[4].to_sql("t", con, index=False)
    con.execute(f"ATTACH DATABASE '{tmp_path / 'other.sqlite'}' AS other")
    con.execute("CREATE TABLE other.t (y INTEGER, s REAL)")
    con.executemany("INSERT INTO other.t VALUES (?, ?)", FRAMES[5].astype(object).values.tolist())
    con.commit()
    con.row_factory = sqlite3.Row
    assert sm.auc("main.t", label="y", score="s", con=con) == pytest.approx(EXPECTED[4], rel=1e-12)
    assert sm.auc("other.t", label="y", score="s", con=con) == pytest.approx(EXPECTED[5], rel=1e-12)
    con.row_factory = lambda cursor, row: {d[0]: v for d, v in zip(cursor.description, row)}
    assert sm.auc("t", label="y", score="s", con=con, details=True)["n"].iloc[0] == len(FRAMES[4])
    assert not con.in_transaction
    con.execute("INSERT INTO t VALUES (1, 0.5)")  # the caller's open transaction
    assert con.in_transaction
    sm.auc("t", label="y", score="s", con=con)
    assert con.in_transaction and con.execute("SELECT COUNT(*) FROM t").fetchone()["COUNT(*)"] == len(FRAMES[4]) + 1


# -- Ctrl-C ---------------------------------------------------------------------------------------

def test_interrupt_is_a_keyboard_interrupt_and_leaves_the_connection_usable():
    con = duckdb.connect()
    long_query = sm.Query("SELECT i % 2 AS y, hash(i) AS s FROM range(400000000) r(i)")
    stopped, pressing = threading.Event(), threading.Lock()

    def press():
        """Ctrl-C every half second until the call stops, as a user would: on a loaded machine (CI) one
        Ctrl-C that landed as the checks' statement ended was lost, and the 2.5-minute statement ran on.
        Under the lock: none is sent once the call has stopped."""
        while not stopped.wait(0.5):
            with pressing:
                if not stopped.is_set():
                    os.kill(os.getpid(), signal.SIGINT)

    def stop():
        with pressing:
            stopped.set()
    presser = threading.Thread(target=press)
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                sm.auc(long_query, label="y", score="s", con=con)
            finally:
                stop()  # a Ctrl-C sent before it surfaces here, still inside pytest.raises
    finally:
        stop()
        presser.join()
    assert sm.auc(FRAMES[6], label="y", score="s", con=con) == pytest.approx(EXPECTED[6], rel=1e-12)


def test_duckdb_failed_transaction_of_the_caller_is_named():
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT 1 AS y, 0.5 AS s")
    con.begin()
    with pytest.raises(duckdb.Error):
        con.execute("SELECT error('the caller failed')")
    with pytest.raises(sm.SourceError, match="transaction has failed.*roll it back"):
        sm.auc("t", label="y", score="s", con=con)
    con.rollback()


def test_interrupt_from_another_thread_is_a_keyboard_interrupt():
    con = duckdb.connect()
    timer = threading.Timer(0.5, con.interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sm.auc(sm.Query("SELECT i % 2 AS y, hash(i) AS s FROM range(400000000) r(i)"), label="y", score="s",
               con=con)
    timer.cancel()


def test_an_unreachable_postgres_says_what_is_missing_and_how_to_point_the_tests(monkeypatch):
    """The skip reason names the server's own complaint (a missing role is not a missing server) and
    SQLMETRICS_PG_DSN; under CI=true it is a failure instead."""
    error = Exception('connection failed: FATAL:  role "me" does not exist')
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        unreachable("PostgreSQL", error)
    assert 'role "me" does not exist' in str(skipped.value) and "SQLMETRICS_PG_DSN" in str(skipped.value)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(AssertionError, match="CI must run the PostgreSQL tests"):
        unreachable("PostgreSQL", error)


def test_duckdb_progress_bar_off_on_our_own_connections_only():
    """DuckDB's progress bar draws on stdout (python -c, a notebook): off on the connections
    sqlmetrics opens (the default one, the command line's), left as found on the caller's."""
    setting = "SELECT current_setting('enable_progress_bar')"
    sm.auc(FRAMES[0], label="y", score="s")
    # fetchall: DuckDB 2 keeps a result fetched by fetchone() unfinished, which blocks the next call
    assert sm_engine.default_connection().execute(setting).fetchall() == [(False,)]
    with sm_engine.own_connection() as con:
        assert con.execute(setting).fetchall() == [(False,)]
    for value in (True, False):
        with duckdb.connect() as con:
            con.execute(f"SET enable_progress_bar = {value}")
            assert sm.auc(FRAMES[0], label="y", score="s", con=con) == pytest.approx(EXPECTED[0], rel=1e-12)
            assert con.execute(setting).fetchone()[0] is value
