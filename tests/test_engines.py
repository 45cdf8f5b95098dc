"""Conformance: every metric on every engine that can run here gives DuckDB's result on the same
data (DuckDB itself is checked against sklearn/pytrec_eval elsewhere), through `con=`.

PostgreSQL needs a server: SQLMETRICS_PG_DSN (default "dbname=sqlmetrics"); without one the tests
skip with the reason, except in CI (CI=true), where a missing engine is a failure.
"""
import math
import os
import sqlite3

import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import make_binary_frame, make_ranking_frames
from sqlmetrics.registry import METRICS
from test_common import ALL, args

BINARY = make_binary_frame(n=500, seed=21).assign(yb=lambda d: d["y"].astype(bool))
RUN, QRELS = make_ranking_frames(n_queries=25, seed=8)
# tie-break by byte order: 'a' (0x61) sorts after 'B' (0x42) in bytes, before it in most locales
TIES = pd.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["B", "a", "c-1", "Z", "z"],
                     "score": [1.0, 1.0, 0.5, 2.0, 2.0], "relevance": [1, 0, 1, 0, 1]})
TABLES = {"preds": BINARY, "run": RUN, "qrels": QRELS, "ties": TIES}


def calls():
    """(id, metric, table, params) for every registered metric; extra cases for dialect hazards."""
    out = []
    for name in sorted(METRICS):
        m = METRICS[name]
        names = {p.name for p in m.params}
        if name in ALL:
            params = args(name, weight="weight" in names)
            if "by" in names:
                out.append((f"{name}-by", name, "preds", dict(params, by="c")))
            out.append((name, name, "preds", params))
        elif name == "coverage":
            out.append((name, name, "run", {"k": 3, "n_items": 60}))
        elif name == "ils":
            continue  # needs a similarity table: below
        else:
            params = {"qrels": "qrels"} | ({"k": 3} if "k" in names and m.param("k").required else {})
            out.append((name, name, "run", params))
            out.append((f"{name}-ties", name, "ties", {k: v for k, v in params.items() if k != "qrels"}))
    out.append(("auc-boolean-label", "auc", "preds", {"label": "yb", "score": "s"}))
    out.append(("confusion-boolean-label", "confusion_matrix", "preds", {"label": "yb", "score": "s"}))
    out.append(("ndcg-average-ties", "ndcg", "run", {"qrels": "qrels", "k": 5, "ties": "average"}))
    out.append(("auc-bins", "auc", "preds", {"label": "y", "score": "s", "bins": 7}))
    return out


CALLS = calls()


def reference(metric, table, params):
    params = {k: (TABLES[v] if k == "qrels" else v) for k, v in params.items()}
    return getattr(sm, metric)(TABLES[table], details=True, **params)


def assert_same(got: pd.DataFrame, want: pd.DataFrame, what: str):
    assert list(got.columns) == list(want.columns), what
    assert len(got) == len(want), what
    for column in want.columns:
        a, b = got[column].tolist(), want[column].tolist()
        for x, y in zip(a, b):
            if isinstance(y, float) and math.isnan(y):
                assert x is None or (isinstance(x, float) and math.isnan(x)), (what, column, x, y)
            elif isinstance(y, (int, float, np.integer, np.floating)) and not isinstance(y, bool):
                assert x == pytest.approx(y, rel=1e-9, abs=1e-12), (what, column, x, y)
            else:
                assert str(x) == str(y), (what, column, x, y)


# -- SQLite (stdlib) --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sqlite_con():
    con = sqlite3.connect(":memory:")
    for name, frame in TABLES.items():
        frame.to_sql(name, con, index=False)
    yield con
    con.close()


@pytest.mark.parametrize("case, metric, table, params", CALLS, ids=[c[0] for c in CALLS])
def test_sqlite_matches_duckdb(sqlite_con, case, metric, table, params):
    got = getattr(sm, metric)(table, con=sqlite_con, details=True, **params)
    assert_same(got, reference(metric, table, params), f"sqlite {case}")


def test_sqlite_errors_name_the_problem(sqlite_con):
    with pytest.raises(sm.SourceError, match="does not exist on SQLite"):
        sm.auc("nope", label="y", score="s", con=sqlite_con)
    with pytest.raises(sm.MissingColumnError, match="did you mean 'y'"):
        sm.auc("preds", label="yy", score="s", con=sqlite_con)
    with pytest.raises(sm.SourceError, match="is not on SQLite"):
        sm.auc(BINARY, label="y", score="s", con=sqlite_con)
    sqlite_con.execute("CREATE TABLE bad AS SELECT 2 AS y, 0.5 AS s UNION ALL SELECT NULL, 0.1")
    with pytest.raises(sm.ColumnError, match="NULL"):
        sm.auc("bad", label="y", score="s", con=sqlite_con)
    assert sm.auc(sm.Query("SELECT * FROM preds WHERE c = 'a'"), label="y", score="s", con=sqlite_con) == \
        pytest.approx(sm.auc(BINARY[BINARY.c == "a"], label="y", score="s"), rel=1e-12)


# -- PostgreSQL (a real server) ---------------------------------------------------------------------

def _postgres():
    try:
        import psycopg
        return psycopg.connect(os.environ.get("SQLMETRICS_PG_DSN", "dbname=sqlmetrics"), connect_timeout=5)
    except Exception as e:  # no driver or no server
        if os.environ.get("CI"):
            raise AssertionError(f"CI must run the PostgreSQL tests, but: {e}") from e
        pytest.skip(f"PostgreSQL not reachable here ({type(e).__name__}: {str(e).strip()[:120]}); "
                    ".ci/run starts one")


@pytest.fixture(scope="module")
def pg_con():
    con = _postgres()
    schema = f"sqlmetrics_test_{os.getpid()}"
    # text in a linguistic collation (as most production databases), so that the byte-order
    # tie-break (COLLATE "C") is really exercised
    icu = con.execute("SELECT collname FROM pg_collation WHERE collname = 'en-x-icu'").fetchone()
    text = 'text COLLATE "en-x-icu"' if icu else "text"
    with con.transaction():
        con.execute(f'CREATE SCHEMA "{schema}"')
        con.execute(f'SET search_path TO "{schema}"')
        for name, frame in TABLES.items():
            types = {"f": "double precision", "i": "bigint", "u": "bigint", "b": "boolean"}
            columns = ", ".join(f'"{c}" {types.get(frame[c].dtype.kind, text)}' for c in frame.columns)
            con.execute(f'CREATE TABLE "{name}" ({columns})')
            with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
                for row in frame.itertuples(index=False):
                    copy.write_row([None if isinstance(v, float) and math.isnan(v) else
                                    getattr(v, "item", lambda v=v: v)() for v in row])
    con.commit()
    yield con
    con.rollback()
    con.execute(f'DROP SCHEMA "{schema}" CASCADE')
    con.commit()
    con.close()


@pytest.mark.parametrize("case, metric, table, params", CALLS, ids=[c[0] for c in CALLS])
def test_postgres_matches_duckdb(pg_con, case, metric, table, params):
    got = getattr(sm, metric)(table, con=pg_con, details=True, **params)
    assert_same(got, reference(metric, table, params), f"postgres {case}")


def test_postgres_tie_break_is_byte_order_whatever_the_collation(pg_con):
    # en-x-icu sorts 'a' before 'B'; trec_eval (bytes) puts 'a' (0x61) after 'B' (0x42)
    locale_order = pg_con.execute('SELECT item FROM ties WHERE query = 1 ORDER BY item').fetchall()
    pg_con.rollback()  # end the test's own read transaction
    assert sm.mrr("ties", con=pg_con, per_query=True)["mrr"].tolist() == \
        sm.mrr(TIES, per_query=True)["mrr"].tolist() == [0.5, 1.0]
    assert locale_order[0][0] in ("a", "B")


def test_postgres_leaves_the_connection_as_it_found_it(pg_con):
    from psycopg.pq import TransactionStatus
    sm.auc("preds", label="y", score="s", con=pg_con)
    assert pg_con.info.transaction_status == TransactionStatus.IDLE
    with pytest.raises(sm.SourceError, match="does not exist on PostgreSQL"):
        sm.auc("nope", label="y", score="s", con=pg_con)
    assert pg_con.info.transaction_status == TransactionStatus.IDLE  # no aborted transaction left behind
    assert sm.gini("preds", label="yb", score="s", con=pg_con) == pytest.approx(
        sm.gini(BINARY, label="y", score="s"), rel=1e-12)
