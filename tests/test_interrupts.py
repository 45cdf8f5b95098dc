"""Ctrl-C during a statement on a driver's connection (sqlmetrics/interrupts.py): on each driver that runs
here (PyMySQL on MariaDB, psycopg 3, psycopg2 and ADBC on PostgreSQL, sqlite3), and through the command
line's --url (MariaDB, PostgreSQL), a metric call on a view that takes the server seconds is sent SIGINT
while the server shows its statement running: KeyboardInterrupt comes out within 2 seconds, the server
shows the statement gone, and the same connection runs the next query in the state it was in before the
call (idle, or inside the caller's transaction with its uncommitted row and settings).

Each view takes its server 10 seconds or more uninterrupted: a Ctrl-C left to wait for the statement,
as it was before sqlmetrics cancelled it, fails the 2 seconds."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from conftest import MYSQL_URL, PG_DSN, connect_mysql, connect_postgres, unreachable
from sqlmetrics import drivers, interrupts

#: seconds from SIGINT to KeyboardInterrupt (or to the command's exit)
PROMPT = 2.0


@pytest.fixture(autouse=True)
def python_handles_ctrl_c():
    """Python's own SIGINT handler, which sqlmetrics' stands in for during a statement: a test process
    that started a classic Spark session earlier has PySpark's, and a program's own handler is left
    alone (tested below)."""
    found = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, found)
#: PG_DSN's database, for the URLs of ADBC and SQLAlchemy
PG_DATABASE = dict(part.split("=", 1) for part in PG_DSN.split() if "=" in part).get("dbname", "postgres")


def interrupted(call, running, settle: float = 0.3) -> float:
    """Run `call()` in this, the main thread, and SIGINT the process once `running()` (the server shows
    the call's statement running) and `settle` seconds more: the seconds from the signal to the
    KeyboardInterrupt out of the call."""
    sent = []

    def send():
        deadline = time.monotonic() + 30
        while not running():
            if time.monotonic() > deadline:
                return
            time.sleep(0.02)
        time.sleep(settle)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    sender = threading.Thread(target=send)
    sender.start()
    ended = None
    try:
        try:
            call()
            ended = "the call returned"
        except KeyboardInterrupt:
            ended = time.monotonic()
        finally:
            sender.join()
    except KeyboardInterrupt:  # the signal came once the call had ended
        pass
    assert sent, "the server never showed the call's statement running"
    assert isinstance(ended, float), f"not interrupted: {ended or 'the signal came after the call'}"
    return ended - sent[0]


# -- MariaDB through PyMySQL -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mariadb():
    """A database of its own, with `slow`: 4,000² rows, AUC in 10-15 s on MariaDB; and an observer
    connection."""
    observer = connect_mysql()
    observer.autocommit(True)
    database = f"sqlmetrics_interrupts_{os.getpid()}"
    with observer.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE `{database}`")
        cursor.execute(f"CREATE TABLE `{database}`.t AS SELECT seq % 3 = 0 AS y, seq * 7919 % 1000 / 1000.0 AS s "
                       "FROM seq_1_to_4000")
        cursor.execute(f"CREATE VIEW `{database}`.slow AS SELECT a.y, (a.s + b.s) / 2 AS s FROM `{database}`.t AS a "
                       f"CROSS JOIN `{database}`.t AS b")
    yield observer, database
    with observer.cursor() as cursor:
        cursor.execute(f"DROP DATABASE `{database}`")
    observer.close()


def mysql_running(observer, thread_id: int) -> bool:
    """Whether the server shows the session `thread_id` running a statement on the slow view."""
    with observer.cursor() as cursor:
        cursor.execute("SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = %s AND COMMAND = 'Query'",
                       (thread_id,))
        row = cursor.fetchone()
    return bool(row) and "slow" in row[0]


def soon(condition, within: float = 1.0) -> bool:
    """Whether `condition()` holds within `within` seconds: a server may show a statement a moment
    after the client has its end (MariaDB, after sending a killed statement's error)."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def pymysql_con(mariadb):
    con = connect_mysql()
    con.select_db(mariadb[1])
    yield con
    con.close()  # whatever the test did: an open transaction would hold the database the fixture drops


@pytest.mark.parametrize("found", ["autocommit", "idle", "transaction"])
def test_pymysql(mariadb, pymysql_con, found):
    """PyMySQL: KILL QUERY from a second connection; before, KeyboardInterrupt inside PyMySQL left the
    connection dead (InterfaceError(0, '') on its next use)."""
    observer, _ = mariadb
    con = pymysql_con
    with con.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE pending (x INT)")
    con.autocommit(found == "autocommit")
    if found == "transaction":
        with con.cursor() as cursor:
            cursor.execute("INSERT INTO pending VALUES (1)")
    state = (con.get_autocommit(), bool(con.server_status & 1))
    took = interrupted(lambda: sm.auc("slow", label="y", score="s", con=con),
                       lambda: mysql_running(observer, con.thread_id()))
    assert took < PROMPT
    assert soon(lambda: not mysql_running(observer, con.thread_id()))
    assert (con.get_autocommit(), bool(con.server_status & 1)) == state
    with con.cursor() as cursor:
        cursor.execute("INSERT INTO pending VALUES (2)")  # a write: the call's READ ONLY transaction is over
        cursor.execute("SELECT COUNT(*), @@session.tx_read_only FROM pending")
        assert cursor.fetchone() == (2 if found == "transaction" else 1, 0)


# -- PostgreSQL through psycopg 3, psycopg2 and ADBC -------------------------------------------------

@pytest.fixture(scope="module")
def postgres():
    """A schema of its own, with `slow`: 8,000² rows, AUC in 10-15 s on PostgreSQL; and an observer
    connection."""
    observer = connect_postgres(autocommit=True)
    schema = f"sqlmetrics_interrupts_{os.getpid()}"
    observer.execute(f'CREATE SCHEMA "{schema}"')
    observer.execute(f'CREATE TABLE "{schema}".t AS SELECT (i % 3 = 0)::int AS y, '
                     "i * 7919 % 1000 / 1000.0::float8 AS s FROM generate_series(1, 8000) AS i")
    observer.execute(f'CREATE VIEW "{schema}".slow AS SELECT a.y, (a.s + b.s) / 2 AS s FROM "{schema}".t AS a '
                     f'CROSS JOIN "{schema}".t AS b')
    yield observer, schema
    observer.execute(f'DROP SCHEMA "{schema}" CASCADE')
    observer.close()


def pg_state(observer, pid: int) -> tuple[str, str]:
    """The server's state of the session `pid` (active, idle, idle in transaction), and its statement."""
    return observer.execute("SELECT state, query FROM pg_catalog.pg_stat_activity WHERE pid = %s", (pid,)).fetchone()


def pg_running(observer, pid: int) -> bool:
    """Whether the session `pid` runs a statement on the slow view."""
    state, query = pg_state(observer, pid)
    return state == "active" and "slow" in query


def pg_interrupted(observer, schema: str, con, pid: int) -> None:
    """A call on `con` (of the session `pid`) interrupted at once, the server's session as it was."""
    state = pg_state(observer, pid)[0]
    took = interrupted(lambda: sm.auc(f"{schema}.slow", label="y", score="s", con=con),
                       lambda: pg_running(observer, pid))
    assert took < PROMPT
    assert soon(lambda: pg_state(observer, pid)[0] == state)  # the statement gone, no transaction of the call's left


@pytest.fixture
def psycopg_con(postgres):
    con = connect_postgres()
    yield con
    con.close()  # whatever the test did: an open transaction would hold the schema the fixture drops


@pytest.mark.parametrize("found", ["idle", "transaction"])
def test_psycopg(postgres, psycopg_con, found):
    """psycopg 3: its cancel(), from our thread. psycopg cancels on a KeyboardInterrupt itself, where it
    lands inside its wait: this passed before sqlmetrics cancelled (its command line did not, below)."""
    observer, schema = postgres
    con = psycopg_con
    if found == "transaction":
        con.execute("CREATE TEMPORARY TABLE pending (x int)")
        con.execute("INSERT INTO pending VALUES (1)")
        con.execute("SET LOCAL work_mem = '7MB'")
    status = con.info.transaction_status
    pg_interrupted(observer, schema, con, con.info.backend_pid)
    assert con.info.transaction_status == status and con.autocommit is False
    if found == "transaction":
        assert con.execute("SELECT (SELECT COUNT(*) FROM pending), current_setting('work_mem'), "
                           "current_setting('transaction_read_only')").fetchone() == (1, "7MB", "off")
    assert con.execute("SELECT 41 + 1").fetchone() == (42,)


@pytest.mark.parametrize("found", ["idle", "transaction"])
def test_psycopg2(postgres, psycopg2_con, found):
    """psycopg2: its cancel(); before, libpq held the main thread until the statement ended."""
    observer, schema = postgres
    con = psycopg2_con
    with con.cursor() as cursor:
        if found == "transaction":
            cursor.execute("CREATE TEMPORARY TABLE pending (x int)")
            cursor.execute("INSERT INTO pending VALUES (1)")
            cursor.execute("SET LOCAL work_mem = '7MB'")
    status = con.info.transaction_status
    pg_interrupted(observer, schema, con, con.get_backend_pid())
    assert con.info.transaction_status == status and con.autocommit is False
    with con.cursor() as cursor:
        if found == "transaction":
            cursor.execute("SELECT (SELECT COUNT(*) FROM pending), current_setting('work_mem'), "
                           "current_setting('transaction_read_only')")
            assert cursor.fetchone() == (1, "7MB", "off")
        cursor.execute("SELECT 41 + 1")
        assert cursor.fetchone() == (42,)


@pytest.mark.parametrize("autocommit", [False, True])
def test_adbc(postgres, autocommit):
    """ADBC: AdbcConnectionCancel. Its driver manager cancels on SIGINT in the main thread itself, but
    then raises the driver's error, as for a statement timeout: before, the call ended in an EngineError."""
    observer, schema = postgres
    try:
        import adbc_driver_postgresql.dbapi as adbc
        con = adbc.connect(f"postgresql:///{PG_DATABASE}?host=/var/run/postgresql", autocommit=autocommit)
    except Exception as e:
        unreachable("PostgreSQL (ADBC)", e)
    try:
        with con.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        con.rollback()
        pg_interrupted(observer, schema, con, pid)
        assert drivers.ADBC("postgres").autocommit(con) is autocommit
        with con.cursor() as cursor:
            cursor.execute("SELECT 41 + 1")
            assert cursor.fetchone() == (42,)
    finally:
        con.close()


# -- SQLite ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sqlite_file(tmp_path_factory):
    """A database file with `slow`: 6,000² rows, whose input checks alone take SQLite over 10 s."""
    import sqlite3
    path = tmp_path_factory.mktemp("interrupts") / "slow.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE t AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 6000) "
                    "SELECT i % 3 = 0 AS y, i * 7919 % 1000 / 1000.0 AS s FROM r")
        con.execute("CREATE VIEW slow AS SELECT a.y, (a.s + b.s) / 2 AS s FROM t AS a CROSS JOIN t AS b")
    return path


@pytest.mark.parametrize("found", ["idle", "transaction"])
def test_sqlite3(sqlite_file, found):
    """sqlite3: interrupt(), from our thread (the connection is bound to this one); before, the
    statement ran to its end."""
    import sqlite3
    con = sqlite3.connect(sqlite_file)
    con.execute("CREATE TEMPORARY TABLE pending (x)")
    if found == "transaction":
        con.execute("INSERT INTO pending VALUES (1)")  # the module opens the caller's transaction
    state = con.in_transaction
    begun = []
    con.set_trace_callback(begun.append)  # each statement as it begins to run
    took = interrupted(lambda: sm.auc("slow", label="y", score="s", con=con),
                       lambda: any("slow" in statement for statement in begun))
    assert took < PROMPT
    assert con.in_transaction == state
    assert con.execute("SELECT (SELECT COUNT(*) FROM pending), (SELECT query_only FROM pragma_query_only)").fetchone() \
        == (1 if found == "transaction" else 0, 0)
    con.close()


# -- threads -----------------------------------------------------------------------------------------

def test_ctrl_c_stops_the_main_threads_statement_only(postgres, psycopg_con, psycopg2_con):
    """Another thread's calls on their own connection go on, each with its value: only the main
    thread's statement is cancelled."""
    observer, schema = postgres
    con = psycopg2_con
    other = psycopg_con
    values, errors, interrupted_yet = [], [], threading.Event()

    def calls():
        try:
            while not interrupted_yet.is_set() or len(values) < 3:
                values.append(sm.auc(f"{schema}.t", label="y", score="s", con=other))
        except BaseException as e:
            errors.append(e)

    thread = threading.Thread(target=calls)

    def call():
        thread.start()
        sm.auc(f"{schema}.slow", label="y", score="s", con=con)

    took = interrupted(call, lambda: bool(values) and pg_running(observer, con.get_backend_pid()))
    interrupted_yet.set()
    thread.join()
    assert took < PROMPT and not errors
    labels, scores = zip(*other.execute(f"SELECT y, s FROM {schema}.t").fetchall())
    assert len(values) >= 3 and values == [pytest.approx(roc_auc_score(labels, scores), rel=1e-12)] * len(values)


class _Sleeper(drivers.Driver):
    """A driver whose cancel is recorded, and does nothing."""

    def __init__(self):
        super().__init__("duckdb", "sleeper")
        self.cancels = 0

    def canceller(self, con):
        return lambda: setattr(self, "cancels", self.cancels + 1)


def test_a_second_ctrl_c_stops_waiting():
    """A cancel that never takes (a server out of reach): the second Ctrl-C raises at once."""
    driver = _Sleeper()
    first = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    again = threading.Timer(0.6, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    first.start()
    again.start()
    with pytest.raises(KeyboardInterrupt):
        interrupts.run(lambda: time.sleep(5), driver, None)
    assert 0.5 < time.monotonic() - start < 1.5 and driver.cancels == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler and signal.set_wakeup_fd(-1) == -1


def test_a_programs_own_sigint_handler_is_left_alone():
    driver = _Sleeper()
    seen = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        interrupts.run(lambda: time.sleep(0.5), driver, None)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == [signal.SIGINT] and driver.cancels == 0


# -- the command line's --url ------------------------------------------------------------------------

def command_interrupted(url: str, table: str, running) -> None:
    """`sqlmetrics compute auc --url URL TABLE` sent SIGINT once `running()`: exit 130 within PROMPT
    seconds, with one line on stderr and nothing on stdout."""
    proc = subprocess.Popen([sys.executable, "-m", "sqlmetrics", "compute", "auc", "--url", url, table, "--label", "y",
                             "--score", "s"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not running():
            assert proc.poll() is None and time.monotonic() < deadline, "the statement never ran"
            time.sleep(0.05)
        time.sleep(0.3)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (130, "", "sqlmetrics: error: interrupted\n")
    assert took < PROMPT, f"{took:.1f} s from Ctrl-C to the end"


def test_command_line_url_on_mariadb(mariadb):
    """The statement on the connection SQLAlchemy's pool lent for the call; before, the command waited
    for it to end."""
    observer, database = mariadb

    def running():
        with observer.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND DB = %s "
                           "AND INFO LIKE %s AND ID <> CONNECTION_ID()", (database, "%slow%"))
            return cursor.fetchone()[0] > 0
    command_interrupted(MYSQL_URL.replace("/sqlmetrics?", f"/{database}?"), "slow", running)
    assert not running()


@pytest.mark.parametrize("driver", ["psycopg2", "psycopg"])
def test_command_line_url_on_postgres(postgres, driver):
    observer, schema = postgres

    def running():
        return observer.execute("SELECT COUNT(*) FROM pg_catalog.pg_stat_activity WHERE state = 'active' AND "
                                "query LIKE %s AND pid <> pg_backend_pid()", (f"%{schema}%slow%",)).fetchone()[0] > 0
    command_interrupted(f"postgresql+{driver}:///{PG_DATABASE}", f"{schema}.slow", running)
    assert not running()
