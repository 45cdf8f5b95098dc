"""Conformance: every metric on every engine that can run here gives DuckDB's result on the same
data (DuckDB itself is checked against sklearn/pytrec_eval elsewhere), through `con=`.

Engines: SQLite (stdlib), PostgreSQL (a server: SQLMETRICS_PG_DSN, default "dbname=sqlmetrics"),
Spark (PySpark in local mode, with ANSI SQL mode on, its default, and off for each metric's own call; needs Java) and
ClickHouse (chDB, in-process). An engine that cannot be reached skips with the reason, except in
CI (CI=true), where a missing engine is a failure.
"""
import re
import sqlite3

import duckdb

import pytest

import sqlmetrics as sm
from conftest import (PG_DSN, as_dbt_renders, chdb_session, mariadb_database, one_pass_measures, spark_share,
                      unreachable)
from engine_cases import (BASELINE, BINARY, CALLS, JUDGED_RUN, QRELS, RUN, SCORES, SLICED, SPARK_CALLS, TABLES, TIES,
                          assert_same, load_spark, postgres_tables, reference)
from sqlmetrics import plans
from sqlmetrics.engine import connect
from sqlmetrics.registry import METRICS, read_measures
from sqlmetrics.templates import namespace

# -- the engines, each loaded with TABLES ------------------------------------------------------------

@pytest.fixture(scope="module")
def sqlite_con():
    con = sqlite3.connect(":memory:")
    for name, frame in TABLES.items():
        frame.to_sql(name, con, index=False)
    yield con
    con.close()


@pytest.fixture(scope="module")
def postgres_con():
    with postgres_tables() as con:
        yield con


@pytest.fixture(scope="module")
def spark_con():
    try:
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[2]").appName("sqlmetrics-tests")
                 .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
                 .config("spark.driver.memory", "1g").getOrCreate())
    except Exception as e:  # no pyspark, or no Java
        unreachable("Spark", e)
    spark.sparkContext.setLogLevel("ERROR")
    load_spark(spark)
    yield spark
    spark.stop()


@pytest.fixture(scope="module")
def clickhouse_con():
    with chdb_session(TABLES) as con:
        yield con


@pytest.fixture(scope="module")
def mysql_con():
    """MariaDB through PyMySQL: a warehouse's own DB-API driver."""
    with mariadb_database(TABLES, "test") as (con, _):
        yield con


@pytest.fixture(scope="module")
def psycopg2_con(postgres_con):
    """PostgreSQL through psycopg2 (a DB-API driver sqlmetrics has no engine of its own for), on the
    tables of postgres_con."""
    try:
        import psycopg2
        con = psycopg2.connect(PG_DSN)
    except Exception as e:  # no driver, or no server
        unreachable("PostgreSQL (psycopg2)", e)
    schema = postgres_con.execute("SELECT current_schema()").fetchone()[0]
    postgres_con.rollback()
    with con.cursor() as cursor:
        cursor.execute(f'SET search_path TO "{schema}"')
    con.commit()
    yield con
    con.close()


ENGINES = ("sqlite", "postgres", "spark", "clickhouse", "mysql", "psycopg2")


@pytest.fixture(scope="module", params=ENGINES)
def con(request):
    yield request.getfixturevalue(f"{request.param}_con")


#: the statistics (bootstrap, compare) run PostgreSQL's SQL once, through psycopg: psycopg2 sends the
#: same statements (its values' conversion is checked by each metric's own call), and they took
#: 100 s of the suite through it
@pytest.fixture(scope="module", params=[e for e in ENGINES if e != "psycopg2"])
def statistics_con(request):
    yield request.getfixturevalue(f"{request.param}_con")


#: without ANSI SQL mode (Spark 3's default, and many clusters'), x/0 and invalid casts give NULL and
#: integer overflow wraps instead of failing: a sample of the metrics' own calls (conftest.spark_share:
#: one in three of each family; every call runs with ANSI on below, and the SQL rules of
#: tests/test_golden.py keep the templates free of what ANSI mode changes)
ANSI_OFF = spark_share([c for c in CALLS if c[0] == c[1]], lambda c: c[1])
#: Spark (the slowest engine here) runs SPARK_CALLS: not a metric's own call where its sliced call
#: (`-by`) runs the same template; psycopg2 each metric's own call (a sample: its SQL is PostgreSQL's)
ENGINE_CALLS = [(engine, *c) for engine in ENGINES for c in (SPARK_CALLS if engine == "spark" else CALLS)
                if not (engine == "psycopg2" and c[0] != c[1])]


@pytest.mark.parametrize("con, case, metric, table, params", ENGINE_CALLS, indirect=["con"],
                         ids=[f"{c[0]}-{c[1]}" for c in ENGINE_CALLS])
def test_matches_duckdb(con, case, metric, table, params):
    got = getattr(sm, metric)(table, con=con, details=True, **params)
    assert_same(got, reference(metric, table, params), case)


@pytest.fixture
def spark_ansi_off(spark_con):
    before = spark_con.conf.get("spark.sql.ansi.enabled")
    spark_con.conf.set("spark.sql.ansi.enabled", "false")
    yield spark_con
    spark_con.conf.set("spark.sql.ansi.enabled", before)


@pytest.mark.parametrize("case, metric, table, params", ANSI_OFF, ids=[c[0] for c in ANSI_OFF])
def test_matches_duckdb_on_spark_without_ansi(spark_ansi_off, case, metric, table, params):
    got = getattr(sm, metric)(table, con=spark_ansi_off, details=True, **params)
    assert_same(got, reference(metric, table, params), case)


PLANNED = [c for c in CALLS if METRICS[c[1]].plan and METRICS[c[1]].plan.parallel]
#: on Spark (the slowest engine here), whose other plan is the single-window one the engines of one
#: machine run by default, a sample for CI's time: the calls of the first metric of each family
#: (its sliced call where it has one: its plan's windows are the same, partitioned)
_SPARK_PLANNED = {METRICS[c[1]].section: c[1] for c in reversed(PLANNED)}
PLANNED_CALLS = [(engine, *c) for engine in ENGINES for c in PLANNED
                 if not (engine == "spark" and (c[1] not in _SPARK_PLANNED.values()
                                                or c[0] == c[1] and c[1] in SLICED))]


@pytest.mark.parametrize("con, case, metric, table, params", PLANNED_CALLS, indirect=["con"],
                         ids=[f"{c[0]}-{c[1]}" for c in PLANNED_CALLS])
def test_the_other_plan_matches_duckdb(con, monkeypatch, case, metric, table, params):
    """Each engine also runs the plan it does not run by default (the parallel plan on SQLite and
    PostgreSQL, the single-window one on Spark and ClickHouse), against DuckDB's default."""
    want = reference(metric, table, params)
    default = plans.ParallelWhenDistributed.default
    monkeypatch.setattr(plans.ParallelWhenDistributed, "default",
                        lambda self, dialect: {"parallel": "aggregate", "aggregate": "parallel"}[default(self, dialect)])
    got = getattr(sm, metric)(table, con=con, details=True, **params)
    assert_same(got, want, case)


def test_scalars_come_back_as_python_types(con):
    value = sm.auc("preds", label="y", score="s", con=con)
    assert type(value) is float and value == pytest.approx(sm.auc(BINARY, label="y", score="s"), rel=1e-12)
    counts = sm.confusion_matrix("preds", label="y", score="s", con=con)
    assert counts == sm.confusion_matrix(BINARY, label="y", score="s")
    assert {type(v) for v in counts.values()} == {int}


def test_bootstrap_on_the_engine(statistics_con):
    """The engine's own hash draws the replicate weights, so its interval differs from DuckDB's by
    Monte-Carlo error only; the estimate is the metric's, and a second call gives the same numbers."""
    params = dict(label="y", score="s", weight="w", n_boot=300, seed=3)
    got = sm.bootstrap("auc", "preds", con=statistics_con, **params)
    want = sm.bootstrap("auc", BINARY, **params)
    assert got["estimate"] == pytest.approx(want["estimate"], rel=1e-12) and got["n_boot"] == 300
    assert got["std_error"] == pytest.approx(want["std_error"], rel=0.2)
    assert sm.bootstrap("auc", "preds", con=statistics_con, **params) == pytest.approx(got, rel=1e-12)
    sliced = sm.bootstrap("gauc", "preds", con=statistics_con, label="y", score="s", group="g", by="c", n_boot=100)
    assert list(sliced.columns) == ["c", "estimate", "std_error", "ci_low", "ci_high", "n_boot", "n_undefined"]
    # a metric over each replicate's rows, whose SQL has a WITH of its own (MariaDB: hoisted)
    curve = sm.bootstrap("average_precision", "preds", con=statistics_con, label="y", score="s", n_boot=40)
    assert curve["estimate"] == pytest.approx(sm.average_precision(BINARY, label="y", score="s"), rel=1e-12)
    queries = sm.bootstrap("ndcg", "run", qrels="qrels", k=3, n_boot=300, con=statistics_con)
    want = sm.bootstrap("ndcg", RUN, qrels=QRELS, k=3, n_boot=300)
    assert queries["estimate"] == pytest.approx(want["estimate"], rel=1e-12) and queries["n_boot"] == 300
    assert queries["std_error"] == pytest.approx(want["std_error"], rel=0.2)
    # a long table of class scores resamples its examples (ovo: as counts); a cluster of whole examples,
    # each its own here, is the same unit (and the SQL's check that it splits none runs)
    params = dict(label="label", multi_class="ovo", n_boot=60)
    examples = sm.bootstrap("multiclass_auc", "scores", con=statistics_con, **params)
    assert examples["estimate"] == pytest.approx(sm.multiclass_auc(SCORES, label="label", multi_class="ovo"), rel=1e-12)
    clustered = sm.bootstrap("multiclass_auc", "scores", con=statistics_con, cluster="example", **params)
    assert clustered == pytest.approx(examples, rel=1e-12)


def test_group_disparity_on_the_engine(statistics_con):
    """sm.group_disparity's one statement (the metric per group and per slice, joined, then its
    summaries) on each engine equals DuckDB's: per slice and per group, both methods, a group whose
    value is undefined (g 0 is all positive: no auc) making its slice's summaries NULL."""
    for metric, params in (("auc", dict(label="y", score="s", weight="w")), ("mae", dict(target="t", prediction="p"))):
        for method in ("between_groups", "to_overall"):
            for sensitive, by in ((["d"], "c"), (["c", "d"], None)):
                call = dict(params, method=method, by=by, per_group=True)
                got = sm.group_disparity("preds", metric, sensitive, con=statistics_con, **call)
                assert_same(got, sm.group_disparity(BINARY, metric, sensitive, **call),
                            f"group_disparity {metric} {method} {sensitive}")
    undefined = sm.group_disparity("preds", "auc", ["g"], label="y", score="s", by="c", con=statistics_con)
    assert undefined["difference"].isna().all() and undefined["overall"].notna().all()


def test_compare_on_the_engine(statistics_con):
    """Paired t and Wilcoxon are the same computation on every engine; the sign flips of the
    randomization test come from the engine's own hash, so its p-value differs from DuckDB's by
    Monte-Carlo error only (sd below 0.008 at 4000 flips)."""
    for test in ("paired_t", "wilcoxon"):
        got = sm.compare("ndcg", "run", "baseline", "qrels", k=5, test=test, by="c", con=statistics_con)
        want = sm.compare("ndcg", RUN, BASELINE, QRELS, k=5, test=test, by="c")
        assert_same(got, want, f"compare test={test}")
    flips = sm.compare("mrr", "run", "baseline", "qrels", test="randomization", n_resamples=4000, con=statistics_con)
    want = sm.compare("mrr", RUN, BASELINE, QRELS, test="randomization", n_resamples=4000)
    assert flips["difference"] == pytest.approx(want["difference"], rel=1e-12)
    assert abs(flips["p_value"] - want["p_value"]) < 0.04
    # several runs on several measures, in one statement (sql/compare.sql compare_runs: its tests' SQL is
    # the pair's, above)
    measures = ["ndcg@5", "map", "P@3", "recip_rank"]
    got = sm.compare(measures, runs={"run": "run", "baseline": "baseline", "again": "run"}, qrels="qrels",
                     con=statistics_con)
    assert_same(got, sm.compare(measures, runs={"run": RUN, "baseline": BASELINE, "again": RUN}, qrels=QRELS),
                 "compare runs=")
    groups = sm.compare("gauc", "preds", "s2", label="y", score="s", group="g", weight="w", con=statistics_con)
    assert groups == pytest.approx(sm.compare("gauc", BINARY, "s2", label="y", score="s", group="g", weight="w"),
                                   rel=1e-9)


@pytest.mark.parametrize("judgments", ["qrels", "own relevance"])
def test_evaluate_on_the_engine(con, judgments):
    """sm.evaluate's one-pass SQL (every measure it computes, both gains, ties averaged) gives DuckDB's
    values on every engine: sliced, per query, and under the skip policies; with judgments, and over a
    run that carries its own relevance (the pass then sums the judgments itself)."""
    measures = one_pass_measures(3)
    averaged = [m.name for m in read_measures(measures) if "average" in METRICS[m.metric].param("ties").choices]
    tables, frames = (("run", "qrels"), (RUN, QRELS)) if judgments == "qrels" else (("judged_run",), (JUDGED_RUN,))
    options = ({"by": "c"}, {"per_query": True}, {"missing": "skip", "empty": "skip"}, {"ties": "average", "measures": averaged})
    if judgments != "qrels" and connect(con).dialect == "spark":
        options = options[:1]  # Spark (the slowest engine here) samples the own-relevance pass: the others run every option
    for params in options:
        params = {"measures": measures, **params}
        got = sm.evaluate(*tables, con=con, **params)
        assert_same(got, sm.evaluate(*frames, **params), f"evaluate {params}")


def test_errors_name_the_problem(con):
    name = re.escape(connect(con).name)
    with pytest.raises(sm.SourceError, match=f"does not exist on {name}"):
        sm.auc("nope", label="y", score="s", con=con)
    with pytest.raises(sm.MissingColumnError, match="did you mean 'y'"):
        sm.auc("preds", label="yy", score="s", con=con)
    with pytest.raises(sm.SourceError, match=f"is not on {name}"):
        sm.auc(BINARY, label="y", score="s", con=con)
    with pytest.raises(sm.ColumnError, match="1 NULL value"):
        sm.auc("bad", label="y", score="s", con=con)
    with pytest.raises(sm.ColumnError, match="must be 0/1.*e.g. 2"):
        sm.auc("bad", label="y", score="s", con=con, dropna=True)
    with pytest.raises(sm.ColumnError, match="must be numeric"):
        sm.auc("preds", label="y", score="c", con=con)
    # labels that are not 0/1, by their first values: classes (average=), two labels (pos_label=), fractions
    with pytest.raises(sm.ColumnError, match=r"column 'g' \(label\) holds more than two values, e\.g\. 0, 1, 2 "
                                             r"\(.+\): for classes pass average='macro', average='micro'"):
        sm.precision("preds", label="g", prediction="d", con=con)
    with pytest.raises(sm.ColumnError, match=r"column 'c' \(label\) holds more than two values, e\.g\. 'a', 'b', "
                                             r"'c' \(.+\): for classes pass average='macro'"):
        sm.f1("preds", label="c", prediction="c", con=con)
    with pytest.raises(sm.ColumnError, match=r"column 'g' \(label\) holds 3, 4 \(.+\): say which label is positive: "
                                             r"pos_label=3 or pos_label=4$"):
        sm.recall(sm.Query("SELECT * FROM preds WHERE g IN (3, 4)"), label="g", prediction="g", con=con)
    with pytest.raises(sm.ColumnError, match=r"column 's' \(prediction\) holds fractions, e\.g\. 0\.1: a score"):
        sm.accuracy("preds", label="g", prediction="s", con=con)
    subset = sm.auc(sm.Query("SELECT * FROM preds WHERE c = 'a'"), label="y", score="s", con=con)
    assert subset == pytest.approx(sm.auc(BINARY[BINARY.c == "a"], label="y", score="s"), rel=1e-12)


def test_spark_dataframe_as_data(spark_con):
    frame, qrels = spark_con.table("preds").where("c = 'b'"), spark_con.table("qrels")
    assert sm.auc(frame, label="y", score="s") == pytest.approx(  # the frame's session: no con= needed
        sm.auc(BINARY[BINARY.c == "b"], label="y", score="s"), rel=1e-12)
    assert sm.ndcg(spark_con.table("run"), qrels, k=5, con=spark_con) == pytest.approx(
        sm.ndcg(RUN, QRELS, k=5), rel=1e-12)
    assert not [t for t in spark_con.catalog.listTables() if t.name.startswith("sm_frame_")]


def test_postgres_tie_break_is_byte_order_whatever_the_collation(postgres_con):
    # en-x-icu sorts 'a' before 'B'; trec_eval (bytes) puts 'a' (0x61) after 'B' (0x42)
    locale_order = postgres_con.execute('SELECT item FROM ties WHERE query = 1 ORDER BY item').fetchall()
    postgres_con.rollback()  # end the test's own read transaction
    assert sm.mrr("ties", con=postgres_con, per_query=True)["mrr"].tolist() == \
        sm.mrr(TIES, per_query=True)["mrr"].tolist() == [0.5, 1.0]
    assert locale_order[0][0] in ("a", "B")


def test_postgres_leaves_the_connection_as_it_found_it(postgres_con):
    from psycopg.pq import TransactionStatus
    sm.auc("preds", label="y", score="s", con=postgres_con)
    assert postgres_con.info.transaction_status == TransactionStatus.IDLE
    with pytest.raises(sm.SourceError, match="does not exist on PostgreSQL"):
        sm.auc("nope", label="y", score="s", con=postgres_con)
    assert postgres_con.info.transaction_status == TransactionStatus.IDLE  # no aborted transaction left behind
    assert sm.gini("preds", label="yb", score="s", con=postgres_con) == pytest.approx(
        sm.gini(BINARY, label="y", score="s"), rel=1e-12)


def test_spark_session_shared_by_threads(spark_con):
    """The usual way to use Spark: one session, many threads. Each call registers its frame under a
    name of its own, so none reads another's (before: half of the calls did, or failed)."""
    from concurrent.futures import ThreadPoolExecutor
    slices = [int(g) for g in sorted(BINARY["g"].unique())[2:6]]  # groups 0 and 1 have one class
    frames = {g: spark_con.table("preds").where(f"g = {g}") for g in slices}
    want = {g: sm.auc(BINARY[BINARY.g == g], label="y", score="s") for g in slices}
    assert len(set(want.values())) == len(want)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda g: (g, sm.auc(frames[g], label="y", score="s")), slices * 3))
    assert all(value == pytest.approx(want[g], rel=1e-12) for g, value in got), got
    assert not [t for t in spark_con.catalog.listTables() if t.name.startswith("sm_frame_")]


def test_survival_and_uplift_inputs_name_the_problem(con):
    """A negative duration is refused by Uno's C and the dynamic AUC (as scikit-survival), a check like
    the others: by the screen and its count, or on Spark as a guard in the metric's own query; Harrell's
    C, which compares times only, takes it (lifelines and scikit-survival do). A treatment or an event
    of two values other than 0/1 is to be mapped to 0/1 (pos_label applies to the label only); one of
    train= is named as train's."""
    negative = int((BINARY["t"] < 0).sum())
    for metric, extra in (("concordance_index_ipcw", {}), ("cumulative_dynamic_auc", {"times": [0.5]})):
        with pytest.raises(sm.ColumnError, match=rf"^duration must be >= 0 \(a time since the start of follow-up\); "
                                                 rf"column 't' \(duration\) has {negative} negative values, e\.g\. -"):
            getattr(sm, metric)("preds", duration="t", event="y", score="s", con=con, **extra)
    assert sm.concordance_index("preds", duration="t", event="y", score="s", con=con) == pytest.approx(
        sm.concordance_index(BINARY, duration="t", event="y", score="s"), rel=1e-12)
    two = sm.Query("SELECT * FROM preds WHERE g IN (3, 4)")
    for metric, params in (("uplift_auc", dict(label="y", treatment="g", score="s")),
                           ("concordance_index", dict(duration="dur", event="g", score="s"))):
        param = next(k for k, v in params.items() if v == "g")
        with pytest.raises(sm.ColumnError, match=rf"^{param} must be 0/1 \(or boolean\); column 'g' \({param}\) holds "
                                                 r"3, 4 \(.+\): map its values to 0/1 first, in a sqlmetrics\.Query"):
            getattr(sm, metric)(two, con=con, **params)
    # a training set's event, named as train's with its own values (the data's are 0/1)
    with pytest.raises(sm.ColumnError, match=r"^event must be 0/1 \(or boolean\); column 'y' \(event\) of the query "
                                             r"given as train holds 3, 4 \(.+\): map its values to 0/1 first"):
        sm.concordance_index_ipcw("preds", duration="dur", event="y", score="s", con=con,
                                  train=sm.Query("SELECT dur, g AS y FROM preds WHERE g IN (3, 4)"))


def test_pos_label_on_the_engine(con):
    """pos_label on a text, a boolean and a number column, against scikit-learn."""
    from sklearn.metrics import average_precision_score, precision_score, roc_auc_score
    two = BINARY[BINARY.c != "c"]
    got = sm.precision(sm.Query("SELECT * FROM preds WHERE c <> 'c'"), label="c", score="s", pos_label="a", con=con)
    assert got == pytest.approx(precision_score(two.c == "a", two.s >= 0.5), abs=1e-12)
    false = 0 if connect(con).dialect == "mysql" else False  # MySQL's BOOLEAN is a TINYINT: its false is 0
    assert sm.auc("preds", label="yb", score="s", pos_label=false, con=con) == pytest.approx(
        roc_auc_score(~BINARY.yb, BINARY.s), abs=1e-12)
    assert sm.average_precision("preds", label="y", score="s", pos_label=0, con=con) == pytest.approx(
        average_precision_score(BINARY.y, BINARY.s, pos_label=0), abs=1e-12)
    with pytest.raises(sm.ColumnError, match="has more than two values"):
        sm.auc("preds", label="c", score="s", pos_label="a", con=con)


# -- the dbt package: every metric macro as each adapter built in CI renders it ----------------------

def as_dbt_called(metric: str, table: str, params: dict, adapter: str) -> str:
    """The metric's macro as a dbt user calls it: relations as ref() gives them (names), and the
    macro's own arguments (`by` a list)."""
    kwargs = {k: ([v] if k == "by" and isinstance(v, str) else v) for k, v in params.items()
              if k in getattr(namespace(), metric).arguments}
    return as_dbt_renders(metric, adapter, table, **kwargs)


def _accepts(adapter: str, con, sql: str) -> None:
    """The engine reads and plans `sql` (nothing is computed)."""
    if adapter == "spark":
        con.sql(sql).schema  # analysed: every name and type resolved
    elif adapter == "postgres":
        try:
            con.execute(f"EXPLAIN {sql}")
        finally:
            con.rollback()
    else:
        con.execute(f"EXPLAIN {sql}")


@pytest.fixture(scope="module")
def duckdb_con():
    con = duckdb.connect()
    for name, frame in TABLES.items():
        con.register("frame", frame)
        con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM frame')
        con.unregister("frame")
    yield con
    con.close()


#: the adapters tests/test_dbt.py builds the package on, and each metric's own call
DBT_CALLS = [pytest.param(adapter, *c, id=f"{adapter}-{c[0]}", marks=[pytest.mark.spark] if adapter == "spark" else [])
             for adapter in ("duckdb", "postgres", "spark") for c in CALLS if c[0] == c[1]]


@pytest.mark.parametrize("adapter, case, metric, table, params", DBT_CALLS)
def test_every_metric_macro_as_dbt_renders_it_is_accepted_by_the_adapters_engine(request, adapter, case, metric,
                                                                                 table, params):
    """tests/test_dbt.py builds the integration models (part of the catalogue) with dbt itself; here
    every metric's macro, rendered as dbt renders it for the adapter, is read and planned by that
    adapter's engine on the engine tables."""
    con = request.getfixturevalue(f"{adapter}_con")
    _accepts(adapter, con, as_dbt_called(metric, table, params, adapter))
