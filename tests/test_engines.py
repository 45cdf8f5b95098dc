"""Conformance: every metric on every engine that can run here gives DuckDB's result on the same
data (DuckDB itself is checked against sklearn/pytrec_eval elsewhere), through `con=`.

Engines: SQLite (stdlib), PostgreSQL (a server: SQLMETRICS_PG_DSN, default "dbname=sqlmetrics"),
Spark (PySpark in local mode, with ANSI SQL mode on, its default, and off for each metric's own call; needs Java) and
ClickHouse (chDB, in-process). An engine that cannot be reached skips with the reason, except in
CI (CI=true), where a missing engine is a failure.
"""
import math
import os
import re
import sqlite3

import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import (ALL, LONG_TABLE, PG_DSN, args, connect_mysql, connect_postgres, make_binary_frame, make_class_scores, make_ranking_frames,
                      unreachable, with_choice)
from sqlmetrics import plans
from sqlmetrics.engine import connect
from sqlmetrics.registry import METRICS

BINARY = make_binary_frame(n=500, seed=21).assign(yb=lambda d: d["y"].astype(bool))
RUN, QRELS = make_ranking_frames(n_queries=25, seed=8)
BASELINE = RUN.assign(score=(RUN["score"] * 7 + RUN["item"].str.len()) % 5)  # a second run of the same items
# tie-break by byte order: 'a' (0x61) sorts after 'B' (0x42) in bytes, before it in most locales
TIES = pd.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["B", "a", "c-1", "Z", "z"],
                     "score": [1.0, 1.0, 0.5, 2.0, 2.0], "relevance": [1, 0, 1, 0, 1]})
_ITEMS = sorted(set(RUN["item"]))
SIMILARITY = pd.DataFrame([(a, b, round((i * 7 + j * 3) % 10 / 10, 1)) for i, a in enumerate(_ITEMS)
                           for j, b in enumerate(_ITEMS) if i < j and (i + j) % 3],
                          columns=["item_a", "item_b", "similarity"])
# training interactions of the run's users (3 events each for 3 users in 4, none of them an item of the
# user's own list: serendipity) and one user who interacted with every item; their counts as a table
_RNG = np.random.default_rng(9)
INTERACTIONS = pd.DataFrame(
    [(q, str(i)) for q in sorted(set(RUN["query"])) if q % 4
     for i in _RNG.choice(sorted(set(_ITEMS) - set(RUN.loc[RUN["query"] == q, "item"])), 3)]
    + [(1000, i) for i in _ITEMS], columns=["query", "item"])
POPULARITY = pd.concat([INTERACTIONS.groupby("item", as_index=False).size().rename(columns={"size": "count"}),
                        pd.DataFrame({"item": ["never"], "count": [0]})], ignore_index=True)
# stored bucket counts, per slice c: histogram_auc merges the slices when not given by="c"
HISTOGRAM = sm.score_histogram(BINARY, label="y", score="s", bins=7, weight="w", by="c")
# a long table of class scores, and the true classes as a table of their own
SCORES = make_class_scores()
LABELS = SCORES.groupby("example", as_index=False)["label"].first()
# rows the input checks must reject: a NULL label and a label of 2
BAD = pd.DataFrame({"y": [2.0, None], "s": [0.5, 0.1]})
TABLES = {"preds": BINARY, "run": RUN, "baseline": BASELINE, "qrels": QRELS, "ties": TIES, "similarity": SIMILARITY, "bad": BAD,
          "histogram": HISTOGRAM, "scores": SCORES, "labels": LABELS, "interactions": INTERACTIONS,
          "popularity": POPULARITY}
RELATIONS = ("qrels", "similarity", "labels", "interactions", "popularity", "items")  # parameters naming a second table


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
        elif name in LONG_TABLE:
            out.append((name, name, "scores", {"label": "label", "weight": "w"}))
            out.append((f"{name}-by-labels", name, "scores", {"labels": "labels", "by": "c"}))
        elif name == "histogram_auc":
            out.append((name, name, "histogram", {}))
            out.append((f"{name}-by", name, "histogram", {"by": "c"}))
        elif name == "coverage":
            out.append((name, name, "run", {"k": 3, "n_items": 60}))
        elif name == "ils":
            out.append((name, name, "run", {"similarity": "similarity", "k": 4}))
            out.append((f"{name}-by", name, "run", {"similarity": "similarity", "k": 4, "by": "c"}))
        elif name in ("novelty", "average_popularity", "tail_share"):
            out.append((name, name, "run", {"interactions": "interactions", "k": 4}))
            out.append((f"{name}-popularity-by", name, "run", {"popularity": "popularity", "by": "c"}))
            if name == "tail_share":
                out.append((f"{name}-count", name, "run", {"interactions": "interactions", "tail": 2.0, "by": "c"}))
            if name == "average_popularity":
                out.append((f"{name}-per-query", name, "run", {"interactions": "interactions", "k": 2, "per_query": True}))
        elif name == "serendipity":
            out.append((name, name, "run", {"interactions": "interactions", "similarity": "similarity", "k": 4}))
            out.append((f"{name}-relevance-by", name, "run", {"interactions": "interactions", "similarity": "similarity",
                                                               "relevance": "score", "by": "c"}))
        elif name == "distributional_coverage":
            out.append((name, name, "run", {"k": 3}))
            out.append((f"{name}-by", name, "run", {"by": "c"}))
        elif name == "gini_index":
            out.append((name, name, "run", {"k": 3, "n_items": 70}))
            out.append((f"{name}-items-by", name, "run", {"items": "interactions", "by": "c"}))
        else:
            params = {"qrels": "qrels"} | ({"k": 3} if "k" in names and m.param("k").required else {})
            out.append((name, name, "run", params))
            if not m.param("qrels").required:  # judged_at_k: the judgments must be a table of their own
                out.append((f"{name}-ties", name, "ties", {k: v for k, v in params.items() if k != "qrels"}))
    out.append(("auc-boolean-label", "auc", "preds", {"label": "yb", "score": "s"}))
    out.append(("confusion-boolean-label", "confusion_matrix", "preds", {"label": "yb", "score": "s"}))
    out.append(("ndcg-per-query", "ndcg", "run", {"qrels": "qrels", "k": 5, "per_query": True}))
    # trec_eval's interpolated precision (a curve: one row per slice and recall level) and gm_map (a
    # geometric mean over queries): slices, per query, the query policies
    out.append(("interpolated_precision-levels-by", "interpolated_precision", "run",
                {"qrels": "qrels", "recall_levels": [0, 0.25, 0.5, 0.75, 1], "by": "c"}))
    out.append(("interpolated_precision-per-query", "interpolated_precision", "run",
                {"qrels": "qrels", "recall_levels": [0.1, 0.35], "per_query": True, "by": "c"}))
    out.append(("gm_map-by-skip", "gm_map", "run", {"qrels": "qrels", "by": "c", "missing": "skip"}))
    out.append(("gm_map-per-query", "gm_map", "run", {"qrels": "qrels", "per_query": True}))
    out.append(("precision_11pt-by-skip", "precision_11pt", "run", {"qrels": "qrels", "by": "c", "empty": "skip"}))
    out.append(("precision_at_k-whole-list", "precision_at_k", "run", {"qrels": "qrels", "k": None}))  # / list length
    out.append(("rbp-per-query", "rbp", "run", {"qrels": "qrels", "k": 4, "persistence": 0.5, "per_query": True}))
    out.append(("num_rel_ret-per-query", "num_rel_ret", "run", {"qrels": "qrels", "per_query": True}))
    out.append(("judged_at_k-by", "judged_at_k", "run", {"qrels": "qrels", "k": 3, "by": "c"}))
    out.append(("bpref-item-asc", "bpref", "run", {"qrels": "qrels", "ties": "item_asc", "relevance_threshold": 2.0}))
    out.append(("auc-bins", "auc", "preds", {"label": "y", "score": "s", "bins": 7}))
    for name in ("calibration_curve", "ece"):
        quantile = dict(args(name, weight=True), strategy="quantile", n_bins=7)
        out.append((f"{name}-quantile", name, "preds", quantile))
    for average in ("macro", "weighted"):
        out.append((f"multiclass_auc-ovo-{average}", "multiclass_auc", "scores",
                    {"label": "label", "multi_class": "ovo", "average": average, "by": "c"}))
    out.append(("multiclass_auc-weighted", "multiclass_auc", "scores",
                {"label": "label", "weight": "w", "average": "weighted", "by": "c"}))
    out.append(("top_k_accuracy-k1", "top_k_accuracy", "scores", {"label": "label", "k": 1, "by": "c"}))
    for name in ("roc_curve", "pr_curve"):
        out.append((f"{name}-max-points", name, "preds", dict(args(name), max_points=9, by="c")))
    for max_fpr in (0.3, 0.05):
        out.append((f"auc-max-fpr-{max_fpr}", "auc", "preds", dict(args("auc", weight=True), max_fpr=max_fpr, by="c")))
    out.append(("best_threshold-f2", "best_threshold", "preds", dict(args("best_threshold", weight=True), beta=2.0)))
    out.append(("gain_curve-7-bins", "gain_curve", "preds", dict(args("gain_curve"), n_bins=7, by="c")))
    # classes: text (cls, cls_hat: "dog" never true) and integers (g, d: most groups never predicted)
    classes = {"label": "cls", "prediction": "cls_hat"}
    for name, extra in [("precision", dict(average="macro", weight="w", zero_division=0)),
                        ("recall", dict(average="micro", by="c")), ("f1", dict(average=None, by="c")),
                        ("f_beta", dict(average="weighted", beta=0.5, zero_division="nan")),
                        ("accuracy", dict(average="macro", weight="w"))]:
        out.append((f"{name}-classes-{extra['average']}", name, "preds", dict(classes, **extra)))
    numbers = {"label": "g", "prediction": "d"}
    for name, extra in [("cohen_kappa", dict(weights="linear", by="c")), ("cohen_kappa", dict(weights="quadratic")),
                        ("mcc", dict(weight="w", by="c")), ("balanced_accuracy", dict(adjusted=True)),
                        ("classification_report", dict(zero_division=1, by="c")),
                        ("multiclass_confusion_matrix", dict(weight="w"))]:
        out.append((f"{name}-integer-classes-{'-'.join(map(str, extra.values()))}", name, "preds",
                    dict(numbers, **extra)))
    return out


def choice_variants(cases):
    """Every other value of each choice parameter of every metric, on the metric's own call (sliced
    where it has one), as the registry declares them: a new choice is run on every engine without
    another edit here. Not `missing` and `empty`: they pick a query policy, a literal of the same SQL.
    (case, metric, table, params, (parameter, value))."""
    own = {}
    for case, name, table, params in cases:
        if case in (name, f"{name}-by"):
            own[name] = (table, params)  # the sliced call, listed after the plain one, wins
    out = []
    for name, (table, params) in own.items():
        for p in METRICS[name].params:
            if p.kind == "choice" and p.name not in ("missing", "empty"):
                for choice in p.choices:
                    if choice != params.get(p.name, p.default):
                        out.append((f"{name}-{p.name}-{choice}", name, table,
                                    with_choice(name, params, p.name, choice), (p.name, choice)))
    return out


_OWN_CALLS = calls()
_VARIANTS = choice_variants(_OWN_CALLS)
CALLS = _OWN_CALLS + [v[:4] for v in _VARIANTS]
#: Spark, the slowest engine here, runs each value of a choice parameter once per family (binary,
#: multiclass, ranking, ...: on the first metric that has it), a sample for CI's time; SQLite,
#: PostgreSQL and ClickHouse run it on every metric
_SPARK_LEAVES_OUT = {case for i, (case, name, *_, choice) in enumerate(_VARIANTS)
                     if (choice, METRICS[name].section) in {(v[4], METRICS[v[1]].section) for v in _VARIANTS[:i]}}


def reference(metric, table, params):
    params = {k: (TABLES[v] if k in RELATIONS else v) for k, v in params.items()}
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
    con = connect_postgres()
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
    for name, frame in TABLES.items():
        # NaN means NULL here (pandas' missing value); Spark would keep it as a NaN double
        rows = [[None if isinstance(v, float) and math.isnan(v) else v for v in row]
                for row in frame.astype(object).itertuples(index=False)]
        types = {"f": "double", "i": "bigint", "b": "boolean"}
        schema = ", ".join(f"`{c}` {types.get(frame[c].dtype.kind, 'string')}" for c in frame.columns)
        spark.createDataFrame(rows, schema).createOrReplaceTempView(name)
    yield spark
    spark.stop()


@pytest.fixture(scope="module")
def clickhouse_con():
    try:
        from chdb import session
        con = session.Session()
    except Exception as e:  # no chdb
        unreachable("ClickHouse (chDB)", e)
    for name, frame in TABLES.items():
        con.query(f"CREATE TABLE {name} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM Python(frame)")
    yield con
    con.close()


@pytest.fixture(scope="module")
def mysql_con():
    """MariaDB through PyMySQL: a warehouse's own DB-API driver. Text in the server's default collation
    (utf8mb4, case-insensitive, as most MySQL tables are), so that what sorts or matches text by bytes
    is exercised."""
    con = connect_mysql()
    database = f"sqlmetrics_test_{os.getpid()}"
    with con.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE `{database}`")
        con.select_db(database)
        for name, frame in TABLES.items():
            types = {"f": "DOUBLE", "i": "BIGINT", "u": "BIGINT", "b": "BOOLEAN"}
            columns = ", ".join(f"`{c}` {types.get(frame[c].dtype.kind, 'VARCHAR(255)')}" for c in frame.columns)
            cursor.execute(f"CREATE TABLE `{name}` ({columns})")
            rows = [[None if isinstance(v, float) and math.isnan(v) else getattr(v, "item", lambda v=v: v)()
                     for v in row] for row in frame.itertuples(index=False)]
            cursor.executemany(f"INSERT INTO `{name}` VALUES ({', '.join(['%s'] * frame.shape[1])})", rows)
    con.commit()
    yield con
    with con.cursor() as cursor:
        cursor.execute(f"DROP DATABASE `{database}`")
    con.close()


@pytest.fixture(scope="module")
def psycopg2_con(postgres_con):
    """PostgreSQL through psycopg2 (a DB-API driver sqlmetrics has no engine of its own for), on the
    tables of postgres_con."""
    psycopg2 = pytest.importorskip("psycopg2") if not os.environ.get("CI") else __import__("psycopg2")
    con = psycopg2.connect(PG_DSN)
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


#: without ANSI SQL mode (Spark 3's default, and many clusters'), x/0 and invalid casts give NULL and
#: integer overflow wraps instead of failing: every metric's own call once (its slices, ties and
#: options run with ANSI on below; the SQL rules of tests/test_golden.py keep the templates free of
#: what ANSI mode changes)
ANSI_OFF = [c for c in CALLS if c[0] == c[1]]
#: Spark (the slowest engine here) runs a metric's own call without ANSI mode only, when the metric
#: also has a sliced call (`-by`), which runs the same template with ANSI on
_SLICED = {c[1] for c in CALLS if c[0] == f"{c[1]}-by"}
ENGINE_CALLS = [(engine, *c) for engine in ENGINES for c in CALLS
                if not (engine == "spark" and (c[0] == c[1] and c[1] in _SLICED or c[0] in _SPARK_LEAVES_OUT))
                and not (engine == "psycopg2" and c[0] != c[1])]  # a sample: its SQL is postgres's


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
#: on Spark, the sliced calls only where a metric has one (its plan's windows are the same, partitioned)
PLANNED_CALLS = [(engine, *c) for engine in ENGINES for c in PLANNED
                 if not (engine == "spark" and c[0] == c[1] and c[1] in _SLICED)]


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


def test_bootstrap_on_the_engine(con):
    """The engine's own hash draws the replicate weights, so its interval differs from DuckDB's by
    Monte-Carlo error only; the estimate is the metric's, and a second call gives the same numbers."""
    params = dict(label="y", score="s", weight="w", n_boot=300, seed=3)
    got = sm.bootstrap("auc", "preds", con=con, **params)
    want = sm.bootstrap("auc", BINARY, **params)
    assert got["estimate"] == pytest.approx(want["estimate"], rel=1e-12) and got["n_boot"] == 300
    assert got["std_error"] == pytest.approx(want["std_error"], rel=0.2)
    assert sm.bootstrap("auc", "preds", con=con, **params) == pytest.approx(got, rel=1e-12)
    sliced = sm.bootstrap("gauc", "preds", con=con, label="y", score="s", group="g", by="c", n_boot=100)
    assert list(sliced.columns) == ["c", "estimate", "std_error", "ci_low", "ci_high", "n_boot", "n_undefined"]
    queries = sm.bootstrap("ndcg", "run", qrels="qrels", k=3, n_boot=300, con=con)
    want = sm.bootstrap("ndcg", RUN, qrels=QRELS, k=3, n_boot=300)
    assert queries["estimate"] == pytest.approx(want["estimate"], rel=1e-12) and queries["n_boot"] == 300
    assert queries["std_error"] == pytest.approx(want["std_error"], rel=0.2)


def test_compare_on_the_engine(con):
    """Paired t and Wilcoxon are the same computation on every engine; the sign flips of the
    randomization test come from the engine's own hash, so its p-value differs from DuckDB's by
    Monte-Carlo error only (sd below 0.008 at 4000 flips)."""
    for test in ("paired_t", "wilcoxon"):
        got = sm.compare("ndcg", "run", "baseline", "qrels", k=5, test=test, by="c", con=con)
        want = sm.compare("ndcg", RUN, BASELINE, QRELS, k=5, test=test, by="c")
        assert_same(got, want, f"compare test={test}")
    flips = sm.compare("mrr", "run", "baseline", "qrels", test="randomization", n_resamples=4000, con=con)
    want = sm.compare("mrr", RUN, BASELINE, QRELS, test="randomization", n_resamples=4000)
    assert flips["difference"] == pytest.approx(want["difference"], rel=1e-12)
    assert abs(flips["p_value"] - want["p_value"]) < 0.04
    groups = sm.compare("gauc", "preds", "s2", label="y", score="s", group="g", weight="w", con=con)
    assert groups == pytest.approx(sm.compare("gauc", BINARY, "s2", label="y", score="s", group="g", weight="w"),
                                   rel=1e-9)


def test_evaluate_on_the_engine(con):
    """sm.evaluate's one-pass SQL (every measure it computes, both gains, ties averaged) gives DuckDB's
    values on every engine: sliced, per query, and under the skip policies."""
    measures = ["ndcg@5", "ndcg_cut_3", "dcg@3", "map", "map_cut_2", "mrr@3", "P@3", "set_P", "recall@5", "set_recall",
                "hit_rate@2", "Rprec"]
    for params in ({"by": "c"}, {"per_query": True}, {"missing": "skip", "empty": "skip"},
                   {"ties": "average", "measures": ["ndcg@3", "dcg_burges@2", "precision_at_k@2", "recall_at_k@2"]}):
        params = {"measures": measures, **params}
        got = sm.evaluate("run", "qrels", con=con, **params)
        assert_same(got, sm.evaluate(RUN, QRELS, **params), f"evaluate {params}")


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
