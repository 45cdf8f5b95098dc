"""What a call costs a warehouse: scans of its tables and statements sent. Every registered metric's own
call (engine_cases' calls) reads each relation it is given once, in the metric's own statement, whose
columns carry the input checks' screens (a diagnostic query follows only where one fires): counted by
PostgreSQL's own statistics (seq_scan + idx_scan, parallel workers off, so that a scan is one scan) and
by the statements the driver sends; on SQLite by its statement trace. The calls that read more say why
(CROSS_CHECKS)."""
import re
import sqlite3
import warnings
from contextlib import contextmanager

import psycopg
import pytest

import sqlmetrics as sm
from engine_cases import _OWN_CALLS, RELATIONS, TABLES, postgres_tables
from sqlmetrics.registry import METRICS

#: the calls that read a relation more than once, and why: a check across rows or relations
#: (Metric.checks, sqlmetrics.consistency) is a query of its own before the metric
CROSS_CHECKS = {name: ", ".join(check.__name__ for check in m.checks) for name, m in METRICS.items() if m.checks}
#: a label that is not 0/1 is found by its failed screen, and the call computed again over classes
#: (accuracy of integer classes): the failure's diagnosis and the second call read the table again
REPEATED = dict.fromkeys(("accuracy-classes", "accuracy-integer-classes"),
                         "classes found by the first call's screen, computed by a second call")
#: statements of a call on PostgreSQL beyond one per relation: its span's framing (BEGIN with the
#: session's pins, ROLLBACK) and the metric's statement
FRAMING = 3
#: per relation given by name: where the caller's search path finds it and its columns, from the catalogue
#: (Engine._catalogued)
PER_RELATION = 1


def _relations(params: dict) -> int:
    """The relations a call reads: its data, and each relation parameter naming a table."""
    return 1 + sum(1 for k, v in params.items() if k in RELATIONS and isinstance(v, str))


def _economical(case: str, metric: str) -> bool:
    return metric not in CROSS_CHECKS and case not in REPEATED


@pytest.fixture(scope="module")
def counted_postgres():
    with postgres_tables("sqlmetrics_economy") as con:
        con.execute("SET max_parallel_workers_per_gather = 0")  # a parallel scan counts once per worker
        con.commit()
        yield con


@contextmanager
def _sent(monkeypatch):
    """The statements psycopg sends meanwhile."""
    sent, execute = [], psycopg.Cursor.execute
    with monkeypatch.context() as patched:
        patched.setattr(psycopg.Cursor, "execute", lambda self, query, *a, **k: sent.append(query) or execute(
            self, query, *a, **k))
        yield sent


def _scans(con) -> dict[str, int]:
    """Each table's scans so far, as the server's statistics have them (flushed and read anew)."""
    con.execute("SELECT pg_stat_force_next_flush()")
    con.commit()
    con.execute("SELECT pg_stat_clear_snapshot()")
    rows = con.execute("SELECT relname, seq_scan + COALESCE(idx_scan, 0) FROM pg_stat_user_tables "
                       "WHERE schemaname = current_schema()").fetchall()
    con.commit()
    return dict(rows)


@pytest.mark.parametrize("case, metric, table, params", _OWN_CALLS, ids=[c[0] for c in _OWN_CALLS])
def test_each_metric_reads_each_relation_once_on_postgres(counted_postgres, monkeypatch, case, metric, table, params):
    con = counted_postgres
    before = _scans(con)
    with _sent(monkeypatch) as sent:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                getattr(sm, metric)(table, con=con, **params)
            except sm.UndefinedMetricError:  # a value the data does not define: read all the same
                pass
    after = _scans(con)
    read = {name: after[name] - before.get(name, 0) for name in after if after[name] != before.get(name, 0)}
    relations = _relations(params)
    if _economical(case, metric):
        assert sum(read.values()) == relations and all(n == 1 for n in read.values()), read
        assert len(sent) == FRAMING + PER_RELATION * relations, sent
    else:  # more, for the reason its exception gives: each check's query reads a relation up to 3 times
        most = 3 if case in REPEATED else 1 + 3 * len(METRICS[metric].checks)
        assert len(read) == relations and all(1 <= n <= most for n in read.values()), read


@pytest.mark.parametrize("case, metric, table, params", _OWN_CALLS, ids=[c[0] for c in _OWN_CALLS])
def test_each_metric_reads_each_relation_in_one_statement_on_sqlite(case, metric, table, params):
    con = sqlite3.connect(":memory:")
    for name, frame in TABLES.items():
        frame.to_sql(name, con, index=False)
    statements = []
    con.set_trace_callback(statements.append)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            getattr(sm, metric)(table, con=con, **params)
        except sm.UndefinedMetricError:
            pass
    names = [table] + [v for k, v in params.items() if k in RELATIONS and isinstance(v, str)]
    # a statement reads a table where it names it after FROM or JOIN; the schema probe reads no row (LIMIT 0)
    reading = [s for s in statements if not s.rstrip().endswith("LIMIT 0")
               and any(re.search(_reads(name), s) for name in names)]
    if _economical(case, metric):
        assert len(reading) == 1, reading
        assert all(len(re.findall(_reads(name), reading[0])) == 1 for name in names), reading[0]


def _reads(table: str) -> str:
    """A pattern of SQL reading `table` (by its name after FROM or JOIN, quoted or not)."""
    return rf'\b(FROM|JOIN)\s+"?{table}"?(\s|\)|$)'


def test_a_screen_that_fires_is_diagnosed_with_the_checks_message(counted_postgres):
    """The failed value is named as before the screens moved into the metric's statement, and the
    connection is left usable (its aborted statement rolled back)."""
    con = counted_postgres
    with pytest.raises(sm.ColumnError, match="NULL"):
        sm.auc("bad", label="y", score="s", con=con)
    assert con.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert sm.auc("preds", label="y", score="s", con=con) == pytest.approx(
        sm.auc(TABLES["preds"], label="y", score="s"), rel=1e-12)


#: the report's classification metrics (sqlmetrics report with a group column)
REPORT = ["auc", "gini", "average_precision", "gauc", "log_loss", "brier_score", "calibration", "ece", "precision",
          "recall", "f1", "accuracy"]


def _each_alone(data, con, names, **params) -> list[float]:
    from sqlmetrics.registry import METRICS
    return [getattr(sm, name)(data, con=con, **{k: v for k, v in params.items() if METRICS[name].takes(k)})
            for name in names]


def test_many_metrics_read_the_table_once_in_one_statement_on_postgres(counted_postgres, monkeypatch):
    con = counted_postgres
    before = _scans(con)
    with _sent(monkeypatch) as sent:
        got = sm.compute(REPORT, "preds", label="y", score="s", group="g", threshold=0.4, con=con)
    read = _scans(con)["preds"] - before.get("preds", 0)
    assert read == 1 and len(sent) == FRAMING + PER_RELATION, (read, sent)
    assert got["error"].isna().all()
    want = _each_alone("preds", con, REPORT, label="y", score="s", group="g", threshold=0.4)
    assert got["value"].tolist() == pytest.approx(want, rel=1e-12)


def test_many_metrics_say_which_rejects_the_data(counted_postgres):
    """Raw scores (not probabilities): the metrics of probabilities give their checks' message, the
    others their values, from the one statement and one diagnostic query of the rows."""
    con = counted_postgres
    before = _scans(con)
    got = sm.compute(["auc", "log_loss", "brier_score", "precision"], "preds", label="y", score="p", threshold=0.4,
                     con=con).set_index("metric")
    assert _scans(con)["preds"] - before["preds"] == 2
    for name in ("log_loss", "brier_score"):
        assert "must hold probabilities" in got.loc[name, "error"], got
    assert got.loc[["auc", "precision"], "value"].tolist() == pytest.approx(
        _each_alone("preds", con, ["auc", "precision"], label="y", score="p", threshold=0.4), rel=1e-12)


def test_many_metrics_in_one_statement_on_sqlite():
    con = sqlite3.connect(":memory:")
    TABLES["preds"].to_sql("preds", con, index=False)
    statements = []
    con.set_trace_callback(statements.append)
    got = sm.compute(REPORT, "preds", label="y", score="s", group="g", threshold=0.4, con=con)
    con.set_trace_callback(None)
    assert len([s for s in statements if re.search(_reads("preds"), s) and not s.rstrip().endswith("LIMIT 0")]) == 1
    assert got["value"].tolist() == pytest.approx(
        _each_alone("preds", con, REPORT, label="y", score="s", group="g", threshold=0.4), rel=1e-12)


def test_several_runs_compared_read_each_run_once_on_postgres(counted_postgres, monkeypatch):
    """sm.compare(measures, runs=...): every pair and measure of sm.evaluate's one pass in one statement."""
    con = counted_postgres
    before = _scans(con)
    with _sent(monkeypatch) as sent:
        got = sm.compare(["ndcg@5", "map", "P@3", "recip_rank"], runs={"run": "run", "baseline": "baseline"},
                         qrels="qrels", con=con)
    after = _scans(con)
    assert {name: after[name] - before.get(name, 0) for name in ("run", "baseline", "qrels")} == dict.fromkeys(
        ("run", "baseline", "qrels"), 1)
    assert len(sent) == FRAMING + PER_RELATION * 3, sent
    assert len(got) == 4 and got["p_value"].notna().all()


def test_evaluate_reads_the_run_and_qrels_once_on_postgres(counted_postgres, monkeypatch):
    """sm.evaluate: the measures of its one pass in one statement."""
    con = counted_postgres
    before = _scans(con)
    with _sent(monkeypatch) as sent:
        got = sm.evaluate("run", "qrels", ["ndcg@5", "map", "P@3", "recall@5", "recip_rank"], con=con)
    after = _scans(con)
    assert {name: after[name] - before.get(name, 0) for name in ("run", "qrels")} == {"run": 1, "qrels": 1}
    assert len(sent) == FRAMING + PER_RELATION * 2, sent
    assert got[["ndcg@5", "map"]].notna().all(axis=None)
