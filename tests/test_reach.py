"""The user's own warehouse, through its own connector (con=): any DB-API 2.0 connection, the dialect
from its driver; SQLAlchemy Engines and Connections; ADBC. Real servers where one runs here (MariaDB
through PyMySQL, PostgreSQL through psycopg2, SQLAlchemy and ADBC, SQLite and DuckDB through SQLAlchemy
and ADBC): the values against DuckDB's (and scikit-learn's), and the connection left as it was found.
The registry-wide conformance on MariaDB and psycopg2 is in tests/test_engines.py.
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import duckdb
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from conftest import (MYSQL_URL, PG_DSN, connect_mysql, connect_postgres, load_tables, make_binary_frame,
                      make_ranking_frames, mariadb_database, unreachable)
from sqlmetrics.engine import connect

BINARY = make_binary_frame(n=400, seed=5)
RUN, QRELS = make_ranking_frames(n_queries=12, seed=3)
TABLES = {"preds": BINARY, "run": RUN, "qrels": QRELS}
AUC = roc_auc_score(BINARY["y"], BINARY["s"])


def expected() -> dict:
    """AUC, GAUC, macro-F1 and NDCG@5 as DuckDB computes them (itself checked against the references)."""
    return {"auc": sm.auc(BINARY, label="y", score="s"),
            "gauc": sm.gauc(BINARY, label="y", score="s", group="g"),
            "f1": sm.f1(BINARY, label="cls", prediction="cls_hat", average="macro"),
            "ndcg": sm.ndcg(RUN, QRELS, k=5)}


def computed(con, prefix: str = "") -> dict:
    return {"auc": sm.auc(f"{prefix}preds", label="y", score="s", con=con),
            "gauc": sm.gauc(f"{prefix}preds", label="y", score="s", group="g", con=con),
            "f1": sm.f1(f"{prefix}preds", label="cls", prediction="cls_hat", average="macro", con=con),
            "ndcg": sm.ndcg(f"{prefix}run", f"{prefix}qrels", k=5, con=con)}


def assert_the_four(con, prefix: str = ""):
    got, want = computed(con, prefix), expected()
    assert got == pytest.approx(want, rel=1e-12), (got, want)
    assert all(type(v) is float for v in got.values())


# -- the dialect of a connection ---------------------------------------------------------------------

def _connection_of(module: str):
    """A connection object of a driver's module, as the driver's own class would be: what sqlmetrics
    reads of it to find the dialect (its class's module) and that it is a DB-API connection."""
    cls = type("Connection", (), {"cursor": lambda self: None, "commit": lambda self: None,
                                  "rollback": lambda self: None, "__module__": module})
    return cls()


@pytest.mark.parametrize("module, dialect", [
    ("psycopg2.extensions", "postgres"), ("pymysql.connections", "mysql"), ("MySQLdb.connections", "mysql"),
    ("mysql.connector.connection_cext", "mysql"), ("mariadb.connections", "mysql"),
    ("snowflake.connector.connection", "snowflake"), ("google.cloud.bigquery.dbapi.connection", "bigquery"),
    ("trino.dbapi", "trino"), ("databricks.sql.client", "databricks"), ("redshift_connector.core", "redshift"),
    ("clickhouse_connect.dbapi.connection", "clickhouse"), ("pyhive.hive", "spark"),
    ("adbc_driver_postgresql.dbapi", "postgres"), ("adbc_driver_sqlite.dbapi", "sqlite"),
    ("adbc_driver_snowflake.dbapi", "snowflake"), ("adbc_driver_bigquery.dbapi", "bigquery")])
def test_the_dialect_comes_from_the_driver(module, dialect):
    assert connect(_connection_of(module)).dialect == dialect


def test_an_unknown_driver_needs_the_dialect_named():
    con = _connection_of("acme_warehouse.dbapi")
    with pytest.raises(ValueError, match=r"pass dialect= \(e.g. dialect='mysql'\)"):
        sm.auc("t", label="y", score="s", con=con)
    assert connect(con, "trino").dialect == "trino"  # an emulator, or a wrapper of a known driver
    assert connect(_connection_of("pymysql.connections"), "postgres").dialect == "postgres"  # named wins


def test_what_is_no_connection_is_refused_saying_what_is():
    with pytest.raises(ValueError, match="DB-API 2.0 connection of a warehouse's driver, or a SQLAlchemy"):
        sm.auc("t", label="y", score="s", con=object())


# -- MariaDB through PyMySQL -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mariadb():
    with mariadb_database(TABLES, "reach") as found:
        yield found


def _mysql_tables(con) -> set:
    with con.cursor() as cursor:
        cursor.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()")
        return {row[0] for row in cursor.fetchall()}


def test_mariadb_through_pymysql(mariadb):
    con, _ = mariadb
    before = _mysql_tables(con)
    assert_the_four(con)
    assert _mysql_tables(con) == before  # no object left behind


def test_mariadb_state_is_left_as_found(mariadb):
    """Autocommit on and off; an open transaction with uncommitted work stays open, with its work;
    the call's own transaction (read-only) is ended."""
    con, _ = mariadb
    with con.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE pending (x INT)")
    for autocommit in (True, False):
        con.autocommit(autocommit)
        assert sm.auc("preds", label="y", score="s", con=con) == pytest.approx(AUC, rel=1e-12)
        assert con.get_autocommit() == autocommit and not con.server_status & 1  # no transaction left open
    with con.cursor() as cursor:
        cursor.execute("INSERT INTO pending VALUES (1)")  # autocommit off: the caller's transaction opens
    assert con.server_status & 1
    assert sm.auc("preds", label="y", score="s", con=con) == pytest.approx(AUC, rel=1e-12)
    assert con.server_status & 1  # still the caller's, with its row
    with con.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM pending")
        assert cursor.fetchone()[0] == 1
    con.rollback()
    con.autocommit(False)


@pytest.mark.parametrize("autocommit", [True, False])
def test_mariadb_call_runs_read_only(mariadb, monkeypatch, autocommit):
    """Each statement of a call runs in a READ ONLY transaction at REPEATABLE READ (the server refuses
    a write there), begun without START TRANSACTION (which would release the caller's LOCK TABLES)
    and rolled back after, whatever completion_type says."""
    con, _ = mariadb
    con.autocommit(autocommit)
    seen = []
    from sqlmetrics import engine as sm_engine
    run = sm_engine.DBAPIEngine._run
    monkeypatch.setattr(sm_engine.DBAPIEngine, "_run", lambda self, *s: (seen.extend(s), run(self, *s))[1])
    sm.auc("preds", label="y", score="s", con=con)
    framing = ["SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", "SET autocommit = 0",
               "ROLLBACK AND NO CHAIN NO RELEASE", "SET autocommit = 1"]
    assert seen == (framing if autocommit else [framing[0], framing[2]])
    with con.cursor() as cursor:  # what that transaction does to a write
        for statement in seen[:len(seen) // 2]:
            cursor.execute(statement)
        with pytest.raises(Exception, match="READ ONLY transaction"):
            cursor.execute("INSERT INTO preds (y) VALUES (1)")
        for statement in seen[len(seen) // 2:]:
            cursor.execute(statement)
    assert con.get_autocommit() == autocommit
    con.autocommit(False)


def test_mariadb_shared_by_threads(mariadb):
    """PyMySQL's connections are not thread-safe: calls from 4 threads on one take turns, and each
    gets its own slice's value."""
    con, _ = mariadb
    slices = sorted(BINARY["c"].unique())
    want = {c: roc_auc_score(BINARY[BINARY.c == c]["y"], BINARY[BINARY.c == c]["s"]) for c in slices}

    def one(i):
        c = slices[i % len(slices)]
        return c, sm.auc(sm.Query(f"SELECT * FROM preds WHERE c = '{c}'"), label="y", score="s", con=con)

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(one, range(24)))
    assert all(v == pytest.approx(want[c], rel=1e-12) for c, v in results), results


def test_mariadb_text_ids_match_exactly(mariadb):
    """MariaDB's default collation makes 'Z' equal to 'z': ids are matched byte by byte, as on
    every engine (a run's 'Z' is not judged by the qrels' 'z')."""
    con, _ = mariadb
    with con.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE cased_run (`query` INT, item VARCHAR(8), score DOUBLE)")
        cursor.execute("CREATE TEMPORARY TABLE cased_qrels (`query` INT, item VARCHAR(8), relevance INT)")
        cursor.execute("INSERT INTO cased_run VALUES (1, 'Z', 2.0), (1, 'z', 1.0), (1, 'a', 0.5)")
        cursor.execute("INSERT INTO cased_qrels VALUES (1, 'z', 1)")
    run = pd.DataFrame({"query": [1, 1, 1], "item": ["Z", "z", "a"], "score": [2.0, 1.0, 0.5]})
    qrels = pd.DataFrame({"query": [1], "item": ["z"], "relevance": [1]})
    assert sm.mrr("cased_run", "cased_qrels", con=con) == sm.mrr(run, qrels) == 0.5


@pytest.fixture
def no_backslash_escapes(mariadb):
    """The session reads a backslash in a string as itself (NO_BACKSLASH_ESCAPES), as sqlglot's
    MySQL does not; sqlmetrics leaves the setting as found."""
    con, _ = mariadb
    with con.cursor() as cursor:
        cursor.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')")
        cursor.execute("SELECT @@sql_mode")
        mode = cursor.fetchone()[0]
    yield con
    with con.cursor() as cursor:
        cursor.execute("SELECT @@sql_mode")
        assert cursor.fetchone()[0] == mode
        cursor.execute("SET SESSION sql_mode = DEFAULT")


def test_a_query_runs_as_it_was_read_whatever_the_session_reads(no_backslash_escapes):
    """The session ends the condition's first string at the backslash (it takes no escape) and reads
    the rest as a comment: so is it read; its string holds a backslash, which the server cannot be
    asked how it reads, so it is refused, never sent (sqlglot's default MySQL would have read one
    string, and a reader of the other kind two)."""
    hostile = sm.Query("SELECT * FROM preds WHERE c = 'a\\' OR c <> '' -- '")
    with pytest.raises(sm.SourceError, match=r"otherwise than sqlmetrics checked it \(a backslash"):
        sm.auc(hostile, label="y", score="s", con=no_backslash_escapes)


def test_a_backslash_readers_read_otherwise_is_refused(no_backslash_escapes):
    """A text with a backslash in a string reads as two values, by whether backslashes escape: the
    driver's server cannot be asked which, so it is never sent."""
    with pytest.raises(sm.SourceError, match=r"otherwise than sqlmetrics checked it \(a backslash"):
        sm.auc(sm.Query("SELECT * FROM preds WHERE c <> 'a\\\\b'"), label="y", score="s", con=no_backslash_escapes)
    plain = sm.auc(sm.Query("SELECT * FROM preds WHERE c = 'a'"), label="y", score="s", con=no_backslash_escapes)
    assert plain == pytest.approx(roc_auc_score(BINARY[BINARY.c == "a"]["y"], BINARY[BINARY.c == "a"]["s"]), rel=1e-12)


def test_a_frame_is_never_uploaded(mariadb):
    con, _ = mariadb
    with pytest.raises(sm.SourceError, match="never uploads data"):
        sm.auc(BINARY, label="y", score="s", con=con)


# -- PostgreSQL through psycopg2, SQLAlchemy and ADBC ------------------------------------------------

@pytest.fixture(scope="module")
def pg_schema():
    con = connect_postgres(autocommit=True)
    schema = f"sqlmetrics_reach_{os.getpid()}"
    con.execute(f'CREATE SCHEMA "{schema}"')
    with con.cursor() as cursor:
        load_tables(cursor, TABLES, {"f": "double precision", "i": "bigint", "text": "text"}, prefix=f'"{schema}".')
    yield schema
    con.execute(f'DROP SCHEMA "{schema}" CASCADE')
    con.close()


def test_postgres_through_psycopg2(pg_schema, psycopg2_con):
    assert_the_four(psycopg2_con, f"{pg_schema}.")
    assert psycopg2_con.info.transaction_status == 0 and psycopg2_con.autocommit is False


def test_psycopg2_state_is_left_as_found(pg_schema, psycopg2_con):
    con = psycopg2_con
    with con.cursor() as cursor:  # the caller's open transaction, with uncommitted work and a setting
        cursor.execute("CREATE TEMPORARY TABLE pending (x int)")
        cursor.execute("INSERT INTO pending VALUES (1)")
        cursor.execute("SET LOCAL work_mem = '7MB'")
    assert sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con) == pytest.approx(AUC, rel=1e-12)
    assert con.info.transaction_status == 2  # still open (INTRANS)
    with con.cursor() as cursor:
        cursor.execute("SELECT (SELECT COUNT(*) FROM pending), current_setting('work_mem'), "
                       "current_setting('transaction_read_only')")
        assert cursor.fetchone() == (1, "7MB", "off")
    con.rollback()
    con.autocommit = True
    assert sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con) == pytest.approx(AUC, rel=1e-12)
    assert con.autocommit is True and con.info.transaction_status == 0


def test_psycopg2_call_runs_read_only(pg_schema, psycopg2_con, monkeypatch):
    """Out of autocommit psycopg2 opens the transaction itself: the call's first statement makes it a
    read-only snapshot, and the driver's rollback ends it; in autocommit the call opens its own."""
    from sqlmetrics import engine as sm_engine
    seen = []
    run = sm_engine.DBAPIEngine._run
    monkeypatch.setattr(sm_engine.DBAPIEngine, "_run", lambda self, *s: (seen.append(s), run(self, *s))[1])
    sm.auc(f"{pg_schema}.preds", label="y", score="s", con=psycopg2_con)
    assert seen[0][0] == "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"
    assert psycopg2_con.info.transaction_status == 0 and psycopg2_con.autocommit is False
    with psycopg2_con.cursor() as cursor:  # what that statement makes of psycopg2's transaction
        cursor.execute(seen[0][0])
        cursor.execute("SELECT current_setting('transaction_read_only'), current_setting('transaction_isolation')")
        assert cursor.fetchone() == ("on", "repeatable read")
    psycopg2_con.rollback()
    psycopg2_con.autocommit = True
    seen.clear()
    sm.auc(f"{pg_schema}.preds", label="y", score="s", con=psycopg2_con)
    assert seen[0][0] == "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" and seen[-1] == ("ROLLBACK",)


def test_dictionary_cursors_work(mariadb, pg_schema):
    """A connection whose cursors give dictionaries (PyMySQL's DictCursor, psycopg2's RealDictCursor)."""
    import psycopg2
    import psycopg2.extras
    import pymysql
    _, database = mariadb
    mysql = connect_mysql()
    try:
        mysql.select_db(database)
        mysql.cursorclass = pymysql.cursors.DictCursor
        assert_the_four(mysql)
    finally:
        mysql.close()
    with psycopg2.connect(PG_DSN, cursor_factory=psycopg2.extras.RealDictCursor) as con:
        assert_the_four(con, f"{pg_schema}.")


def test_psycopg2_failed_transaction_is_said(pg_schema, psycopg2_con):
    with psycopg2_con.cursor() as cursor:
        with pytest.raises(Exception):
            cursor.execute("SELECT 1 / 0")
    with pytest.raises(sm.SourceError, match="transaction has failed: roll it back"):
        sm.auc(f"{pg_schema}.preds", label="y", score="s", con=psycopg2_con)
    psycopg2_con.rollback()


def _sqlalchemy():
    try:
        import sqlalchemy
        return sqlalchemy
    except ImportError as e:
        unreachable("SQLAlchemy", e)


def test_postgres_through_a_sqlalchemy_engine(pg_schema):
    sqlalchemy = _sqlalchemy()
    engine = sqlalchemy.create_engine(f"postgresql+psycopg2:///{_pg_database()}", poolclass=sqlalchemy.pool.QueuePool)
    assert_the_four(engine, f"{pg_schema}.")
    assert engine.pool.checkedout() == 0  # each call's connection back in the pool
    with engine.connect() as connection:  # a Connection, inside its own transaction
        connection.execute(sqlalchemy.text("CREATE TEMPORARY TABLE pending (x int)"))
        connection.execute(sqlalchemy.text("INSERT INTO pending VALUES (1)"))
        assert sm.auc(f"{pg_schema}.preds", label="y", score="s", con=connection) == pytest.approx(AUC, rel=1e-12)
        assert connection.in_transaction()
        assert connection.execute(sqlalchemy.text("SELECT COUNT(*) FROM pending")).scalar() == 1
        connection.rollback()
    engine.dispose()


def _pg_database() -> str:
    return dict(part.split("=", 1) for part in PG_DSN.split() if "=" in part).get("dbname", "postgres")


def test_postgres_through_adbc(pg_schema):
    try:
        import adbc_driver_postgresql.dbapi as adbc
        con = adbc.connect(f"postgresql:///{_pg_database()}?host=/var/run/postgresql")
    except Exception as e:
        unreachable("PostgreSQL (ADBC)", e)
    try:
        assert_the_four(con, f"{pg_schema}.")
        con.adbc_connection.set_autocommit(True)
        assert sm.auc(f"{pg_schema}.preds", label="y", score="s", con=con) == pytest.approx(AUC, rel=1e-12)
        assert con.adbc_connection.get_option("adbc.connection.autocommit") == "true"
    finally:
        con.close()


def test_mysql_through_a_sqlalchemy_engine(mariadb):
    sqlalchemy = _sqlalchemy()
    _, database = mariadb
    engine = sqlalchemy.create_engine(MYSQL_URL.replace("/sqlmetrics?", f"/{database}?"))
    assert_the_four(engine)
    assert engine.pool.checkedout() == 0
    engine.dispose()


# -- SQLite and DuckDB through SQLAlchemy and ADBC ---------------------------------------------------

def test_sqlite_through_sqlalchemy_and_adbc(tmp_path):
    sqlalchemy = _sqlalchemy()
    path = tmp_path / "preds.sqlite"
    engine = sqlalchemy.create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        for name, frame in TABLES.items():
            frame.to_sql(name, connection, index=False)
    assert_the_four(engine)
    engine.dispose()
    try:
        import adbc_driver_sqlite.dbapi as adbc
    except ImportError as e:
        unreachable("SQLite (ADBC)", e)
    with adbc.connect(str(path)) as con:
        assert_the_four(con)


def test_duckdb_through_sqlalchemy(tmp_path):
    sqlalchemy = _sqlalchemy()
    path = tmp_path / "preds.duckdb"
    with duckdb.connect(str(path)) as con:
        for name, frame in TABLES.items():
            con.register("frame", frame)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
    engine = sqlalchemy.create_engine(f"duckdb:///{path}")
    assert_the_four(engine)
    engine.dispose()


# -- the command line's --url ------------------------------------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sqlmetrics", *args], capture_output=True, text=True, timeout=300)


#: the four a newcomer asks for, as command lines on a table of the --url (the prefix: the schema's)
FOUR_FLAGS = {"auc": ["preds", "--label", "y", "--score", "s"],
              "gauc": ["preds", "--label", "y", "--score", "s", "--group", "g"],
              "f1": ["preds", "--label", "cls", "--prediction", "cls_hat", "--average", "macro"],
              "ndcg": ["run", "--qrels", "qrels", "--k", "5"]}


@pytest.mark.parametrize("server", ["mariadb", "postgres"])
@pytest.mark.parametrize("metric", sorted(FOUR_FLAGS))
def test_the_four_through_url_on_the_command_line(request, server, metric):
    """A MariaDB (PyMySQL) or PostgreSQL (psycopg2) URL, and nothing of the user's own code."""
    if server == "mariadb":
        url, prefix = MYSQL_URL.replace("/sqlmetrics?", f"/{request.getfixturevalue('mariadb')[1]}?"), ""
    else:
        url, prefix = f"postgresql+psycopg2:///{_pg_database()}", f"{request.getfixturevalue('pg_schema')}."
    flags = [f"{prefix}{flag}" if flag in TABLES else flag for flag in FOUR_FLAGS[metric]]
    done = _cli("compute", metric, "--url", url, *flags, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == pytest.approx(expected()[metric], rel=1e-12)


def test_where_on_the_command_line_is_the_warehouses_sql(pg_schema):
    done = _cli("compute", "ndcg", "--url", f"postgresql+psycopg2:///{_pg_database()}", f"{pg_schema}.run",
                "--qrels", f"{pg_schema}.qrels", "--k", "5", "--where", "query <> 1", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == pytest.approx(sm.ndcg(RUN[RUN["query"] != 1], QRELS, k=5), rel=1e-12)


@pytest.mark.parametrize("url", ["mysql+pymysql://sqlmetrics:s3cr3t-pw@localhost/sqlmetrics"
                                 "?unix_socket=/run/mysqld/mysqld.sock",  # a refused login
                                 "mysql+pymysql://sqlmetrics:s3cr3t-pw@no-such-host.invalid/sqlmetrics"])
def test_url_that_cannot_connect_is_one_line_without_the_password(url, mariadb):
    done = _cli("compute", "auc", "--url", url, "preds", "--label", "y", "--score", "s")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("sqlmetrics: error: cannot connect to --url")
    assert "s3cr3t-pw" not in done.stderr and ":***@" in done.stderr


def test_no_password_in_a_usage_error():
    done = _cli("compute", "auc", "x.parquet", "--label", "y", "--score", "s", "--urll", "mysql://me:s3cr3t-pw@h/db")
    assert done.returncode == 2 and "s3cr3t-pw" not in done.stderr and "me:***@h" in done.stderr
