"""Spark Connect: a `pyspark.sql.connect` session (SparkSession.builder.remote(...), Databricks
Connect) as `con=`, and its DataFrames as data, through a Spark Connect server in local mode.

1. A sample of tests/test_engines.py's cases gives DuckDB's result (or scikit-learn's).
2. A Connect DataFrame as data: its temporary view is dropped; the input checks refuse what they
   refuse on classic Spark.
3. Spark's task metrics, read from the server's Spark UI (the client has no SparkContext): with 8
   shuffle partitions no task of a parallel plan reads more than its share of the rows, and the
   single-window plan is caught reading them all, as on classic Spark (tests/test_parallel_plan.py).
"""
import socket

import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from conftest import spark_plans, unreachable
from engine_cases import BINARY, CALLS, QRELS, RUN, SPARK_CALLS, assert_same, load_spark, reference
from sqlmetrics.engine import connect
from sqlmetrics.registry import METRICS
from sqlmetrics.sqltext import finish
from sqlmetrics.target import Target
from sqlmetrics.templates import render_macro

AUDIT = spark_plans()
AUDIT_ROWS, PARTITIONS = 20_000, 8


def _free_ports(n: int) -> list[int]:
    """n distinct ports free now (their sockets held open together, so that none comes twice)."""
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("localhost", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@pytest.fixture(scope="module")
def spark_connect_server():
    """A Spark Connect server in this process's JVM (a classic session with Connect's plugin), on
    free ports: remote("local[2]") would serve on the fixed port 15002, where another server on the
    machine may already listen, and be reached instead. Yields its URL."""
    try:
        from pyspark.sql import SparkSession
        port, ui_port = _free_ports(2)
        server = (SparkSession.builder.master("local[2]").appName("sqlmetrics-connect-tests")
                  .config("spark.plugins", "org.apache.spark.sql.connect.SparkConnectPlugin")
                  .config("spark.connect.grpc.binding.port", str(port))
                  # the task-metrics audit reads the UI's REST API; explicitly on, as SparkSession.builder is
                  # one object per process, which keeps another module's spark.ui.enabled=false
                  .config("spark.ui.enabled", "true").config("spark.ui.port", str(ui_port))
                  .config("spark.driver.memory", "1g").getOrCreate())
    except Exception as e:  # no pyspark, or no Java
        unreachable("Spark Connect", e)
    if server.sparkContext.getConf().get("spark.connect.grpc.binding.port") != str(port):
        unreachable("Spark Connect", RuntimeError("this process already runs a Spark session, without the server"))
    server.sparkContext.setLogLevel("ERROR")
    yield f"sc://localhost:{port}"
    server.stop()


def _client(url: str, **conf):
    """A Spark Connect session of its own on the server (its own temporary views). The Connect
    class itself: SparkSession.builder.remote() refuses a URL while this process runs a classic
    session, the server's."""
    try:
        from pyspark.sql.connect.session import SparkSession
        session = SparkSession.builder.remote(url).create()
    except Exception as e:  # no grpcio (pyspark[connect]), or no server
        unreachable("Spark Connect", e)
    for key, value in conf.items():
        session.conf.set(key, value)
    return session


@pytest.fixture(scope="module")
def spark_connect(spark_connect_server):
    session = _client(spark_connect_server, **{"spark.sql.shuffle.partitions": "2"})
    load_spark(session)
    yield session
    session.stop()


# -- 1. a sample of the engine cases ------------------------------------------------------------------

#: the representative cases (the main binary, grouped and multi-class metrics, curves, intervals,
#: ranking with qrels and per query), and one in every 24 of the cases classic Spark runs (CI's time)
SAMPLE = [c for c in CALLS if c[0] in {"auc", "auc-by", "gauc-by", "log_loss-by", "f1-average-macro", "f1-classes-None",
                                        "multiclass_auc-by-labels", "average_precision-by", "roc_curve-by", "auc_ci-by",
                                        "ndcg", "ndcg-per-query"}] + SPARK_CALLS[::24]


@pytest.mark.parametrize("case, metric, table, params", SAMPLE, ids=[c[0] for c in SAMPLE])
def test_matches_duckdb(spark_connect, case, metric, table, params):
    got = getattr(sm, metric)(table, con=spark_connect, details=True, **params)
    assert_same(got, reference(metric, table, params), case)


def test_evaluate_matches_duckdb(spark_connect):
    measures = ["ndcg@5", "map", "mrr@3", "P@3", "recall@5", "hit_rate@2", "Rprec"]
    for params in ({"by": "c"}, {"per_query": True}):
        got = sm.evaluate("run", "qrels", con=spark_connect, measures=measures, **params)
        assert_same(got, sm.evaluate(RUN, QRELS, measures=measures, **params), f"evaluate {params}")


def test_the_session_is_spark_and_dialect_databricks_runs_on_it(spark_connect):
    """Databricks Connect's session is this class, which cannot tell it runs on Databricks: there,
    dialect='databricks' says so, and its SQL runs on Spark."""
    assert connect(spark_connect).dialect == "spark"
    assert sm.auc("preds", label="y", score="s", con=spark_connect, dialect="databricks") == pytest.approx(
        roc_auc_score(BINARY.y, BINARY.s), rel=1e-12)


# -- 2. a Connect DataFrame as data, and the input checks -----------------------------------------------

def _views(spark) -> list[str]:
    return [t.name for t in spark.catalog.listTables() if t.name.startswith("sm_frame_")]


def test_a_connect_dataframe_as_data(spark_connect):
    frame = spark_connect.table("preds").where("c = 'b'")
    assert type(frame).__module__ == "pyspark.sql.connect.dataframe"
    part = BINARY[BINARY.c == "b"]
    assert sm.auc(frame, label="y", score="s") == pytest.approx(roc_auc_score(part.y, part.s), rel=1e-12)  # its session
    assert sm.ndcg(spark_connect.table("run"), spark_connect.table("qrels"), k=5) == pytest.approx(
        sm.ndcg(RUN, QRELS, k=5), rel=1e-12)
    assert not _views(spark_connect)


def test_the_input_checks(spark_connect):
    """As on classic Spark (tests/test_engines.py, tests/test_input_values.py), and no view is left."""
    with pytest.raises(sm.ColumnError, match="1 NULL value"):
        sm.auc(spark_connect.table("bad"), label="y", score="s")
    with pytest.raises(sm.ColumnError, match="must be 0/1.*e.g. 2"):
        sm.auc(spark_connect.table("bad"), label="y", score="s", dropna=True)
    nan = spark_connect.createDataFrame([(1, 0.2), (0, float("nan")), (1, 0.7)], "y bigint, s double")
    with pytest.raises(sm.ColumnError, match="'s'.*NaN"):
        sm.auc(nan, label="y", score="s")
    with pytest.raises(sm.SourceError, match="does not exist on Spark"):
        sm.auc("nope", label="y", score="s", con=spark_connect)
    assert not _views(spark_connect)


# -- 3. the task-metrics audit ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def spark_connect_audit(spark_connect_server):
    session = _client(spark_connect_server, **{"spark.sql.shuffle.partitions": str(PARTITIONS),
                                               "spark.sql.adaptive.enabled": "false"})
    for name, frame in AUDIT.tables(AUDIT_ROWS).items():
        session.createDataFrame(frame).createOrReplaceTempView(name)
    yield session
    session.stop()


#: the metrics whose plan has a parallel form, on the whole data (their plans choose steps by the
#: data; sliced, a window partitioned by the slice is the same window: tests/test_parallel_plan.py),
#: and gauc, parallel by its groups, sliced
_PARALLEL = [(label, table, params, []) for label, table, params in AUDIT.calls()
             if (m := METRICS.get(label.split(" ")[0])) and m.plan and m.plan.parallel]
#: a sample for CI's time (every call is audited on classic Spark, tests/test_parallel_plan.py): the
#: first call of each family of metrics (binary, multi-class, regression, ...)
AUDITED = list({METRICS[c[0].split(" ")[0]].section: c for c in reversed(_PARALLEL)}.values())
AUDITED.append(("gauc", *AUDIT.call("gauc"), ["c"]))


@pytest.mark.parametrize("label, table, params, by", AUDITED, ids=[f"{a[0]}-{'by' if a[3] else 'all'}" for a in AUDITED])
def test_no_task_reads_more_than_its_share_of_the_rows(spark_connect_audit, label, table, params, by):
    sql = sm.render(label.split(" ")[0], table, dialect="spark", pretty=False, **params, **({"by": by} if by else {}))
    assert AUDIT.task_reads(spark_connect_audit, sql).busiest_share(AUDIT_ROWS) <= 0.3


@pytest.mark.parametrize("name", ["auc", "roc_curve"])
def test_the_single_window_plan_is_caught(spark_connect_audit, name):
    params = dict(AUDIT.call(name)[1])
    sql = finish(render_macro(name, Target("spark"), relation="preds", plan="aggregate", **params), {}, Target("spark"))
    assert AUDIT.largest_task_read(spark_connect_audit, sql) >= AUDIT_ROWS
