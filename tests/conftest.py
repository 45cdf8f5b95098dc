import functools
import importlib.util
import os
import shutil
import sysconfig
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sqlmetrics import templates
from sqlmetrics.registry import CATALOGUE, METRICS
from sqlmetrics.target import Target

#: the `sqlmetrics` command installed with the interpreter running the tests (its scripts directory,
#: on PATH or not), or None when the package is installed without its entry point
SQLMETRICS_COMMAND = shutil.which("sqlmetrics", path=sysconfig.get_path("scripts"))


def make_binary_frame(n=600, seed=7, groups=12, ties=True):
    """Labels, tied or continuous scores, weights (some 0), groups incl. one-class ones, slices."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    y = (rng.random(n) < 0.3 + 0.04 * (g % 5)).astype(int)
    y[g == 0] = 1  # an all-positive group
    y[g == 1] = 0  # an all-negative group
    s = np.clip(0.35 * y + rng.normal(0.4, 0.2, n), 0, 1)
    if ties:
        s = np.round(s, 1)
    return pd.DataFrame({
        "y": y, "s": s, "s2": np.clip(s + rng.normal(0, 0.3, n), 0, 1),
        "w": np.where(rng.random(n) < 0.05, 0.0, rng.random(n) * 2),
        "g": g, "c": rng.choice(["a", "b", "c"], n), "d": rng.integers(0, 2, n),
        "hat": (rng.random(n) < 0.4).astype(int),
        "t": rng.normal(0, 1, n), "p": rng.normal(0, 1, n),
        # classes as text: the prediction right 60% of the time, and a class ("dog") never true
        "cls": (cls := rng.choice(["ant", "bee", "cat"], n)),
        "cls_hat": np.where(rng.random(n) < 0.6, cls, rng.choice(["ant", "bee", "cat", "dog"], n))}).assign(
        # values above -1, for the logarithmic errors (msle, rmsle); durations >= 0, for survival
        t1=lambda d: np.expm1(d["t"]), p1=lambda d: np.expm1(d["p"]), dur=lambda d: np.exp(d["t"]))


#: the fixtures that start a Spark session (a JVM), directly or as one of their parameters
_SPARK_FIXTURES = {"spark", "spark_con", "spark_ansi_off", "spark_connect_server", "spark_build"}
#: how many Spark tests `-k` left out, for the summary
_LEFT_OUT = pytest.StashKey[int]()


def _starts_spark(item) -> bool:
    if _SPARK_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    # an engine fixture parametrized over engines (test_engines' con, test_template_safety's bad_engine)
    return callspec is not None and any(value == "spark" and definitions.get(name) and definitions[name][-1].params
                                        for name, value in callspec.params.items())


@pytest.hookimpl(hookwrapper=True)  # mark before -k and -m choose; leave out after
def pytest_collection_modifyitems(config, items):
    """Every test that starts Spark is marked `spark`. `-k` without `-m` (the loop on one metric:
    `pytest -k auc`) leaves them out, as the JVM takes longer to start than the rest takes to run;
    `-m spark` runs them, and a run without `-k` runs everything."""
    for item in items:
        if _starts_spark(item):
            item.add_marker(pytest.mark.spark)
    yield
    spark = [item for item in items if item.get_closest_marker("spark")]
    if config.option.keyword and not config.option.markexpr and spark:
        items[:] = [item for item in items if not item.get_closest_marker("spark")]
        config.hook.pytest_deselected(items=spark)
        config.stash[_LEFT_OUT] = len(spark)


def pytest_terminal_summary(terminalreporter, config):
    if config.stash.get(_LEFT_OUT, 0):
        terminalreporter.write_line(f"{config.stash[_LEFT_OUT]} Spark tests left out (-k without -m): "
                                    "add -m spark to run them")


@pytest.fixture
def binary_frame():
    return make_binary_frame()


def make_ranking_frames(n_queries=30, seed=5):
    """A run and qrels with what trips ranking code: tied scores, unjudged retrieved items, judged
    items never retrieved, queries without relevant items, qrels queries absent from the run and
    run queries absent from the qrels, item ids whose text and numeric orders differ."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(n_queries):
        country = "de" if q % 3 else "jp"
        items = rng.choice(60, size=rng.integers(1, 15), replace=False)
        if q % 7 != 6:  # some judged queries are missing from the run
            for i in items:
                run.append((q, f"d{i}", int(rng.integers(0, 4)), country))
        judged = set(rng.choice(items, size=min(len(items), rng.integers(0, 8)), replace=False))
        judged |= set(rng.choice(60, size=rng.integers(0, 4)))  # judged, maybe never retrieved
        for i in judged:
            grade = 0 if q % 5 == 4 else int(rng.choice([0, 0, 1, 2, 3]))  # q % 5 == 4: nothing relevant
            qrels.append((q, f"d{i}", grade, country))
    run += [(n_queries + 1, "d1", 1, "de")]  # a run query nobody judged
    run = pd.DataFrame(run, columns=["query", "item", "score", "c"])
    qrels = pd.DataFrame(qrels, columns=["query", "item", "relevance", "c"])
    return run, qrels


@pytest.fixture
def ranking_frames():
    return make_ranking_frames()


# -- cases shared by several test modules (test modules do not import each other) -----------------

# Metrics of one table of labelled rows (classification, regression); ranking metrics have their own
# registry-wide tests in test_ranking.py and test_ranking_reference.py.
# histogram_auc reads stored bucket counts, not rows: tests/test_auc_bins.py; the multi-class metrics from
# scores read a long table of class scores: tests/test_multiclass_scores.py (LONG_TABLE below).
LONG_TABLE = sorted(m for m in METRICS if "example" in {p.name for p in METRICS[m].params})
# the drift metrics compare two windows of rows (the data and `current`): tests/test_drift.py
TWO_WINDOWS = sorted(m for m in METRICS if METRICS[m].section == "drift")
ALL = sorted(m for m in METRICS if not METRICS[m].per_query and "query" not in {p.name for p in METRICS[m].params}
             and m != "histogram_auc" and m not in LONG_TABLE and m not in TWO_WINDOWS)

def make_class_scores(n_examples=60, seed=4):
    """A long table of class scores: n_examples x 4 text classes (byte order 'B' < 'a'), tied
    probabilities, the true class on every row, example weights (some 0), a slice."""
    rng = np.random.default_rng(seed)
    classes = np.array(["B", "a", "c", "é"])
    counts = rng.integers(0, 3, (n_examples, 4)) + np.eye(4, dtype=int)[np.arange(n_examples) % 4]
    return pd.DataFrame({
        "example": np.repeat(np.arange(n_examples), 4), "class": list(classes) * n_examples,
        "score": (counts / counts.sum(axis=1, keepdims=True)).ravel(),
        "label": np.repeat(classes[rng.integers(0, 4, n_examples)], 4),
        "w": np.repeat(np.where(rng.random(n_examples) < 0.1, 0.0, rng.random(n_examples) * 2), 4),
        "c": np.repeat(rng.choice(["de", "jp"], n_examples), 4)})


def args(name, weight=False):
    """The columns of conftest.make_binary_frame for the metric's required parameters."""
    m = METRICS[name]
    out = {}
    for p in m.params:
        if p.role == "class":  # a multi-class metric: the class columns
            out[p.name] = {"label": "cls", "prediction": "cls_hat"}[p.name]
        elif p.role == "log1p":
            out[p.name] = {"target": "t1", "prediction": "p1"}[p.name]
        elif p.name == "prediction":
            if p.role == "numeric":
                out["prediction"] = "p"
        elif p.required or p.name == "score" and not m.one_of:
            out[p.name] = {"label": "y", "score": "s", "base_score": "s2", "other_score": "s2", "group": "g", "sensitive": ["g"],
                          "target": "t", "duration": "dur", "event": "y", "times": [0.5, 1.0, 1.5], "winsize": 50,
                          "treatment": "d"}[p.name]
    if m.one_of:
        out["score"] = "s"
    if weight:
        out["weight"] = "w"
    return out


def with_choice(name, params, param, choice):
    """`params` with the choice parameter `param` set to `choice`; an average over classes compares the
    class columns (a score makes two classes only)."""
    if METRICS[name].averaged and param == "average" and choice != "binary":
        params = {k: v for k, v in params.items() if k != "score"} | {"label": "cls", "prediction": "cls_hat"}
    if choice in ("ovo", "causalml"):  # multiclass_auc(multi_class='ovo') takes no weight, as sklearn; nor causalml
        params = {k: v for k, v in params.items() if k != "weight"}
    return dict(params, **{param: choice})


def ranking_args(name, variant):
    """Every column named (odd names, to see them quoted), the options that change the SQL shape."""
    names = {p.name for p in METRICS[name].params}
    params = {k: v for k, v in {"query": "qid", "item": "doc no", "score": "Score", "relevance": "rel"}.items()
              if k in names}
    if "qrels" in names and (variant != "plain" or METRICS[name].param("qrels").required):
        params["qrels"] = "analytics.qrels"
    if "k" in names:
        params["k"] = 10
    if "ties" in names and variant != "plain" and "average" in METRICS[name].param("ties").choices:
        params["ties"] = "average"
    if "similarity" in names:
        params["similarity"] = "analytics.similar_items"
    if "n_items" in names:
        params["n_items"] = 1000
    if "interactions" in names:  # the training interactions (novelty, serendipity, average_popularity, ...)
        params["interactions"] = "analytics.interactions"
    return params


#: the metrics sm.evaluate computes in its one pass
ONE_PASS = tuple(name for name, m in METRICS.items() if m.one_pass)


def one_pass_measures(k: int) -> list[str]:
    """Measure strings spanning sm.evaluate's one pass, read from the registry: each one_pass metric by
    its own name at cut-off `k` (where it takes one) and over the whole list (its whole-list name, as
    set_precision, or its own name without @k), and a gain-based one also by the name that fixes the
    exponential gain (ranx's ndcg_burges): a metric marked one_pass is in every case built from this."""
    out = []
    for name, m in METRICS.items():
        if not m.one_pass:
            continue
        readings = [(text, r) for text, rs in CATALOGUE.spellings.items() for r in rs if r.metric == name]
        own = CATALOGUE.own_names.get(name)
        cutoff = next((r.cutoff for text, r in readings if text == own and r.tool == "sqlmetrics"), None)
        if cutoff in ("optional", "required"):
            out.append(f"{own}@{k}")
        whole = [text for text, r in readings if r.tool == "sqlmetrics" and r.cutoff == "whole"]
        out += whole or ([own] if cutoff == "optional" else [])
        out += [f"{text}@{k}" for text, r in readings if r.gain == "exponential" and r.cutoff != "whole"][:1]
    return out


#: the PostgreSQL server of the engine tests, as a libpq connection string (.ci/run creates this database)
PG_DSN = os.environ.get("SQLMETRICS_PG_DSN", "dbname=sqlmetrics")
#: a MySQL or MariaDB server, as a SQLAlchemy URL (.ci/run creates this user and database on a local MariaDB)
MYSQL_URL = os.environ.get("SQLMETRICS_MYSQL_URL", "mysql+pymysql://sqlmetrics:sqlmetrics@localhost/sqlmetrics"
                                                   "?unix_socket=/run/mysqld/mysqld.sock")
#: how to give the tests an engine they could not reach
_HOW = {"PostgreSQL": (f"the tests connect with SQLMETRICS_PG_DSN={PG_DSN!r}, a libpq connection string: set it to a "
                       "server, database and role that may create schemas (e.g. 'host=localhost dbname=test "
                       "user=me'), or run .ci/run, which installs and starts one"),
        "MariaDB": ("the tests connect with SQLMETRICS_MYSQL_URL (a SQLAlchemy URL, PyMySQL's) to a server, database "
                    "and user that may create tables; .ci/run installs and starts MariaDB with one")}


def unreachable(engine: str, error: Exception):
    """Skip (saying what is missing and how to provide it) where an engine cannot run; in CI that is a failure."""
    reason = f"{engine} cannot be reached: {type(error).__name__}: {' '.join(str(error).split())[:200]}"
    if os.environ.get("CI"):
        raise AssertionError(f"CI must run the {engine} tests, but {reason}") from error
    pytest.skip(f"{reason}; {_HOW.get(engine, '.ci/run installs it')}")


def as_dbt_renders(name: str, adapter: str, *args, **kwargs):
    """Macro `name` called as dbt calls it on `adapter`'s adapter: the adapter's spellings inline,
    names quoted for the engine, no transpiling; a fact (a boolean) as it is, else the SQL text."""
    target, native = templates._TARGET.set(Target(adapter)), templates._NATIVE_DIALECT.set(adapter)
    try:
        value = getattr(templates.namespace(), name)(*args, **kwargs)
        return value if isinstance(value, bool) else str(value)
    finally:
        templates._NATIVE_DIALECT.reset(native)
        templates._TARGET.reset(target)


def plain_rows(frame: pd.DataFrame) -> list[tuple]:
    """A frame's rows as Python values for a driver: NaN (pandas' missing value) as NULL."""
    return [tuple(None if isinstance(v, float) and np.isnan(v) else getattr(v, "item", lambda v=v: v)() for v in row)
            for row in frame.itertuples(index=False)]


def load_tables(cursor, tables: dict[str, pd.DataFrame], types: dict[str, str], prefix: str = "", quote: str = '"'):
    """Tables through a DB-API cursor of a driver whose placeholder is %s; `types`: SQL type per numpy
    dtype kind, "text" for the rest."""
    for name, frame in tables.items():
        columns = ", ".join(f"{quote}{c}{quote} {types.get(frame[c].dtype.kind, types['text'])}" for c in frame.columns)
        cursor.execute(f"CREATE TABLE {prefix}{quote}{name}{quote} ({columns})")
        cursor.executemany(f"INSERT INTO {prefix}{quote}{name}{quote} VALUES ({', '.join(['%s'] * frame.shape[1])})",
                           plain_rows(frame))


#: MariaDB's column types for the tables' dtypes: text in the server's default collation (utf8mb4,
#: case-insensitive, as most MySQL tables are), so that what sorts or matches text by bytes is exercised
MYSQL_TYPES = {"f": "DOUBLE", "i": "BIGINT", "u": "BIGINT", "b": "BOOLEAN", "text": "VARCHAR(255)"}


@contextmanager
def mariadb_database(tables: dict[str, pd.DataFrame], purpose: str):
    """A PyMySQL connection to a database of its own (named for `purpose` and the process) holding
    `tables`, dropped afterwards: (connection, database name)."""
    con = connect_mysql()
    database = f"sqlmetrics_{purpose}_{os.getpid()}"
    with con.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE `{database}`")
        con.select_db(database)
        load_tables(cursor, tables, MYSQL_TYPES, quote="`")
    con.commit()
    try:
        yield con, database
    finally:
        with con.cursor() as cursor:
            cursor.execute(f"DROP DATABASE `{database}`")
        con.close()


@contextmanager
def chdb_session(tables: dict[str, pd.DataFrame]):
    """A chDB (ClickHouse) session holding `tables`."""
    try:
        from chdb import session
        con = session.Session()
    except Exception as e:  # no chdb
        unreachable("ClickHouse (chDB)", e)
    for name, frame in tables.items():
        con.query(f"CREATE TABLE {name} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM Python(frame)")
    try:
        yield con
    finally:
        con.close()


def connect_mysql():
    """A PyMySQL connection to MYSQL_URL, or unreachable's skip (a failure in CI)."""
    try:
        import pymysql
        from sqlalchemy.engine import make_url
        url = make_url(MYSQL_URL)
        return pymysql.connect(host=url.host, port=url.port or 3306, user=url.username, password=url.password or "",
                               database=url.database, connect_timeout=5, **url.query)
    except Exception as e:  # no driver, no server, no such database or user
        unreachable("MariaDB", e)


def spark_share(items: list, metric_of, every: int = 3) -> list:
    """What Spark, the slowest engine here, runs of `items` (calls or cases of metrics), a sample for CI's
    time: within each family (the section of metric_of(item): binary, ranking, ...; a call of no metric,
    such as evaluate, a family of its own), one item in `every` in their order, its first always. The engines of one machine run every item; on Spark every metric's own
    call runs all the same (tests/test_engines.py), and benchmarks/spark_plans.py audits every plan."""
    seen = {}
    out = []
    for item in items:
        name = metric_of(item)
        family = METRICS[name].section if name in METRICS else name
        if seen.get(family, 0) % every == 0:
            out.append(item)
        seen[family] = seen.get(family, 0) + 1
    return out


@functools.cache
def spark_plans():
    """benchmarks/spark_plans.py: its tables, calls and reader of Spark's task metrics."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "spark_plans.py"
    spec = importlib.util.spec_from_file_location("spark_plans", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def connect_postgres(**options):
    """A psycopg connection to PG_DSN, or unreachable's skip (a failure in CI)."""
    try:
        import psycopg
        return psycopg.connect(PG_DSN, connect_timeout=5, **options)
    except Exception as e:  # no driver, no server, no such database or role
        unreachable("PostgreSQL", e)


@pytest.fixture
def psycopg2_con():
    """A psycopg2 connection to PG_DSN (test_reach.py, test_interrupts.py), closed after the test."""
    try:
        import psycopg2
        con = psycopg2.connect(PG_DSN)
    except Exception as e:  # no driver, no server, no such database or role
        unreachable("PostgreSQL", e)
    yield con
    con.close()
