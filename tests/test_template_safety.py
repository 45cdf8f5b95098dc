"""The templates themselves, run directly (``sm.render``'s SQL, as dbt runs the macros): no column of
the data beyond the metric's own, and no invalid value that slipped past the Python layer's
checks, can make a metric return a wrong number.

1. Every registered metric (and the variants that take another SQL path) gives the same result on
   its tables with and without extra columns named like every ``sm_*`` identifier of the templates
   and every output column, holding garbage.
2. A NULL or non-0/1 label or prediction, a NULL score at a threshold, a NULL probability and a
   NULL relevance make the rendered query fail (or give NULL) on DuckDB, SQLite, PostgreSQL,
   ClickHouse (chDB) and Spark: never a number. The rows are in the table the SQL reads, as if
   inserted between the input checks and the metric.
3. Data that the parameters cannot describe: a catalogue (coverage) that lacks items of the run or
   is smaller than the run's items, and similarities that give a pair two values (ils), are refused
   by ``sqlmetrics.consistency`` (Python) and by the SQL itself.
4. The engine spellings of a failing value (helpers.sql ``invalid_value``, rendered for each dialect).
"""
from __future__ import annotations

import math
import os
import re
import sqlite3

import duckdb
import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import (ALL, LONG_TABLE, TWO_WINDOWS, args, connect_postgres, make_binary_frame, make_ranking_frames,
                      spark_share, unreachable, with_choice)
from sqlmetrics import consistency
from sqlmetrics.engine import connect
from sqlmetrics.errors import ColumnError, EngineError, ParameterError
from sqlmetrics.registry import METRICS, lookup
from sqlmetrics.sqltext import finish
from sqlmetrics.target import Target
from sqlmetrics.templates import SQL_DIR, render_macro

# -- the data ------------------------------------------------------------------------------------

BINARY = make_binary_frame(n=400, seed=31)
RUN, QRELS = make_ranking_frames(n_queries=20, seed=12)
RUN_REL = RUN.merge(QRELS[["query", "item", "relevance"]], on=["query", "item"], how="left").fillna({"relevance": 0})
_ITEMS = sorted(set(RUN["item"]))
SIMILARITY = pd.DataFrame([(a, b, round((i * 7 + j * 3) % 10 / 10, 1)) for i, a in enumerate(_ITEMS)
                           for j, b in enumerate(_ITEMS) if i < j and (i + j) % 3],
                          columns=["item_a", "item_b", "similarity"])
ITEMS = pd.DataFrame({"item": _ITEMS + ["x1", "x2"]})
# training interactions: two items outside its own list for every other user, and every item once more
INTERACTIONS = pd.DataFrame([(q, i) for q in sorted(set(RUN["query"])) if q % 2
                             for i in sorted(set(_ITEMS) - set(RUN.loc[RUN["query"] == q, "item"]))[:2]]
                            + [(-1, i) for i in _ITEMS], columns=["query", "item"])
POPULARITY = INTERACTIONS.groupby("item", as_index=False).size().rename(columns={"size": "count"})
HISTOGRAM = sm.score_histogram(BINARY, label="y", score="s", bins=7, weight="w", by="c")
# a long table of class scores (examples x integer classes, probabilities) and its true classes as a table
_COUNTS = np.random.default_rng(2).integers(1, 4, (40, 3))
SCORES = pd.DataFrame({"example": np.repeat(np.arange(40), 3), "class": [0, 1, 2] * 40,
                       "score": (_COUNTS / _COUNTS.sum(axis=1, keepdims=True)).ravel(),
                       "label": np.repeat(np.arange(40) % 3, 3), "w": np.repeat(np.arange(40) % 4 * 0.5, 3),
                       "c": np.repeat(np.arange(40) % 2, 3)})
LABELS = SCORES.groupby("example", as_index=False)["label"].first()
TABLES = {"preds": BINARY, "current": BINARY.assign(s=lambda d: d["s"] * 0.9), "run": RUN, "run_rel": RUN_REL, "qrels": QRELS, "similarity": SIMILARITY,
          "items": ITEMS, "histogram": HISTOGRAM, "scores": SCORES, "labels": LABELS, "interactions": INTERACTIONS,
          "popularity": POPULARITY}
RELATIONS = ("qrels", "similarity", "items", "labels", "interactions", "popularity", "current")


def identifiers() -> list[str]:
    """Every sm_* identifier of the templates, and every output column of a metric."""
    names = set()
    for path in SQL_DIR.rglob("*.sql"):
        names |= {n.lower() for n in re.findall(r"\bsm_[A-Za-z0-9_]+\b", path.read_text())}
    names |= {c for m in METRICS.values() for c in m.outputs} | {"n_relevant"}  # n_relevant: per_query=True
    return sorted(names)


IDENTIFIERS = identifiers()


def with_garbage(frame: pd.DataFrame, seed: int) -> pd.DataFrame:
    """`frame` plus a column of random numbers (some NULL) for every identifier it does not have."""
    rng = np.random.default_rng(seed)
    own = {c.lower() for c in frame.columns}
    extra = {name: np.where(rng.random(len(frame)) < 0.1, np.nan, rng.integers(-3, 4, len(frame)) * 0.7)
             for name in IDENTIFIERS if name not in own}
    return pd.concat([frame.reset_index(drop=True), pd.DataFrame(extra)], axis=1)


def calls():
    """(id, metric, table, params): every metric, and each option that switches to another SQL path."""
    out = []
    for name in sorted(METRICS):
        m = METRICS[name]
        names = {p.name for p in m.params}
        if name in ALL:
            base = args(name, weight="weight" in names)
            variants = {"": base, "-by": dict(base, by=["c"])}
            if "prediction" in names and m.param("prediction").role == "binary":
                variants["-prediction"] = {**{k: v for k, v in base.items() if k != "score"}, "prediction": "hat"}
            if name == "auc":
                variants["-bins"] = dict(base, bins=7)
                variants["-bins-by"] = dict(base, bins=7, by=["c"])
            for p in m.params:
                if p.kind == "choice":
                    for choice in p.choices:
                        if choice != p.default:
                            variants[f"-{p.name}={choice}"] = with_choice(name, base, p.name, choice)
            out += [(name + suffix, name, "preds", params) for suffix, params in variants.items()]
        elif name in LONG_TABLE:
            base = {"label": "label", "weight": "w"}
            out += [(name, name, "scores", base), (f"{name}-labels-by", name, "scores", {"labels": "labels", "by": ["c"]})]
            for p in m.params:
                if p.kind == "choice":
                    for choice in p.choices:
                        if choice != p.default:
                            params = dict(base, **{p.name: choice})
                            if choice == "ovo":
                                params.pop("weight")
                            out.append((f"{name}-{p.name}={choice}", name, "scores", params))
        elif name in TWO_WINDOWS:
            base = {"current": "current", "columns": ["s", "s2", "t"], "categorical": ["cls"]}
            out += [(name, name, "preds", base), (f"{name}-weight-by", name, "preds", dict(base, weight="w", by=["c"]))]
        elif name == "histogram_auc":
            out += [(name, name, "histogram", {}), (f"{name}-by", name, "histogram", {"by": ["c"]})]
        elif name == "coverage":
            out += [(name, name, "run", {"k": 3, "n_items": 100}),
                    (f"{name}-items-by", name, "run", {"k": 3, "items": "items", "by": ["c"]})]
        elif name == "ils":
            out += [(name, name, "run", {"similarity": "similarity", "k": 4}),
                    (f"{name}-by-per-query", name, "run", {"similarity": "similarity", "k": 4, "by": ["c"],
                                                           "per_query": True})]
        elif name in ("novelty", "average_popularity", "tail_share"):
            out += [(name, name, "run", {"interactions": "interactions", "k": 4}),
                    (f"{name}-popularity-by", name, "run", {"popularity": "popularity", "by": ["c"]})]
            if name == "tail_share":
                out.append((f"{name}-count", name, "run", {"interactions": "interactions", "tail": 2.0}))
            if name != "novelty":
                out.append((f"{name}-per-query", name, "run", {"interactions": "interactions", "per_query": True}))
        elif name == "serendipity":
            both = {"interactions": "interactions", "similarity": "similarity"}
            out += [(name, name, "run", dict(both, k=4)),
                    (f"{name}-relevance-by-per-query", name, "run_rel", dict(both, relevance="relevance", by=["c"],
                                                                             per_query=True))]
        elif name == "distributional_coverage":
            out += [(name, name, "run", {"k": 3}), (f"{name}-by", name, "run", {"by": ["c"]})]
        elif name == "gini_index":
            out += [(name, name, "run", {"k": 3, "n_items": 100}),
                    (f"{name}-items-by", name, "run", {"k": 3, "items": "items", "by": ["c"]})]
        else:
            k = {"k": 5} if "k" in names else {}
            out.append((name, name, "run", {"qrels": "qrels", **k}))
            if not m.param("qrels").required:  # judged_at_k needs judgments of their own
                out.append((f"{name}-no-qrels-by", name, "run_rel", {**k, "by": ["c"]}))
            else:
                out.append((f"{name}-by", name, "run", {"qrels": "qrels", **k, "by": ["c"]}))
            out.append((f"{name}-per-query", name, "run", {"qrels": "qrels", "per_query": True, **k}))
            for p in m.params:
                if p.kind == "choice" and p.name not in ("missing", "empty"):
                    for choice in p.choices:
                        if choice != p.default:
                            out.append((f"{name}-{p.name}={choice}", name, "run", {"qrels": "qrels", **k,
                                                                                    p.name: choice}))
            if name == "err":
                out.append(("err-max_grade", name, "run", {"qrels": "qrels", "max_grade": 3, **k}))
    return out


CALLS = calls()


def _duckdb(tables: dict[str, pd.DataFrame]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for name, frame in tables.items():
        con.register(f"{name}_frame", frame)
        con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM "{name}_frame"')
        con.unregister(f"{name}_frame")
    return con


@pytest.fixture(scope="module")
def clean():
    return _duckdb(TABLES)


@pytest.fixture(scope="module")
def dirty():
    return _duckdb({name: with_garbage(frame, seed) for seed, (name, frame) in enumerate(TABLES.items())})


def test_the_garbage_covers_the_templates_identifiers():
    for must in ("sm_bucket", "sm_lo", "sm_hi", "sm_pos", "sm_w", "sm_rel", "sm_item", "threshold", "n"):
        assert must in IDENTIFIERS
    assert len(IDENTIFIERS) > 80


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(list(frame.columns), na_position="last", kind="stable").reset_index(drop=True)


@pytest.mark.parametrize("case, metric, table, params", CALLS, ids=[c[0] for c in CALLS])
def test_extra_columns_named_like_ours_change_nothing(clean, dirty, case, metric, table, params):
    sql = sm.render(metric, table, dialect="duckdb", **params)
    # rows in one order: the slices of a scalar metric come in no defined order
    want = clean.execute(sql).df().pipe(_sorted)
    got = dirty.execute(sql).df().pipe(_sorted)
    assert len(want) > 0, case
    pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-12, atol=1e-15, obj=case)


# -- 2. invalid values reaching the metric's SQL ---------------------------------------------------

SMALL = make_binary_frame(n=60, seed=5)[["y", "s", "s2", "w", "g", "c", "hat", "d"]]
SMALL_RUN, SMALL_QRELS = make_ranking_frames(n_queries=6, seed=3)


def _spoil(frame: pd.DataFrame, column: str, value) -> pd.DataFrame:
    """`frame` with `value` in `column` of its fourth row, in a nullable dtype (NULL, not NaN)."""
    out = frame.copy()
    kind = "Int64" if out[column].dtype.kind in "iub" and (value is None or float(value).is_integer()) else "Float64"
    out[column] = out[column].astype(kind)
    out.loc[3, column] = pd.NA if value is None else value
    return out


BAD_TABLES = {
    "null_label": _spoil(SMALL, "y", None),
    "label_two": _spoil(SMALL, "y", 2),
    "label_half": _spoil(SMALL, "y", 0.5),
    "null_prediction": _spoil(SMALL, "hat", None),
    "null_score": _spoil(SMALL, "s", None),
    "treatment_two": _spoil(SMALL, "d", 2),
    "run": SMALL_RUN,
    "null_relevance": _spoil(SMALL_QRELS, "relevance", None),
    "null_run_relevance": _spoil(SMALL_RUN.assign(relevance=1.0), "relevance", None),
    "history": pd.DataFrame({"query": sorted(set(SMALL_RUN["query"])), "item": "never recommended"}),
    "pairs": pd.DataFrame({"item_a": ["a"], "item_b": ["b"], "similarity": [0.5]}),
}

#: metrics of classes of any type: only a NULL class is invalid (2 and 0.5 are classes)
_CLASSES = [m for m in ALL if any(p.role == "class" for p in METRICS[m].params)]
_LABELLED = [m for m in ALL if any(p.name == "label" for p in METRICS[m].params) and m not in _CLASSES]
_PROBABILITY = [m for m in ALL if any(p.role == "probability" for p in METRICS[m].params)]
_CONFUSION = [m for m in ALL if any(p.name == "prediction" and p.role == "binary" for p in METRICS[m].params)]
_RELEVANCE = [m for m in sorted(METRICS) if any(p.name == "relevance" for p in METRICS[m].params)
              and any(p.name == "qrels" for p in METRICS[m].params)]


def bad_calls():
    """(id, metric, table, params, plan): each invalid value for every metric that reads it."""
    out = []
    for name in _LABELLED:
        base = args(name)
        for table in ("null_label", "label_two", "label_half"):
            out.append((f"{name}-{table}", name, table, base, "aggregate"))
        if METRICS[name].plan:
            out.append((f"{name}-null_label-rank", name, "null_label", base, "rank"))
        if METRICS[name].plan and METRICS[name].plan.parallel:
            out.append((f"{name}-null_label-parallel", name, "null_label", base, "parallel"))
    out.append(("auc-bins-null_label", "auc", "null_label", dict(args("auc"), bins=5), "aggregate"))
    for name in _CLASSES:
        out.append((f"{name}-null_label", name, "null_label", {"label": "y", "prediction": "hat"}, "aggregate"))
    out.append(("f1-macro-null_label", "f1", "null_label", {"label": "y", "prediction": "hat", "average": "macro"},
                "aggregate"))
    for name in _CONFUSION:
        prediction = {k: v for k, v in args(name).items() if k != "score"}
        out.append((f"{name}-null_prediction", name, "null_prediction", dict(prediction, prediction="hat"),
                    "aggregate"))
        out.append((f"{name}-null_score", name, "null_score", args(name), "aggregate"))
    for name in (m for m in ALL if any(p.name == "treatment" for p in METRICS[m].params)):
        out.append((f"{name}-treatment_two", name, "treatment_two", args(name), "aggregate"))
    for name in _PROBABILITY:
        out.append((f"{name}-null_probability", name, "null_score", args(name), "aggregate"))
    for name in _RELEVANCE:
        k = {"k": 3} if "k" in {p.name for p in METRICS[name].params} else {}
        out.append((f"{name}-null_relevance", name, "run", {"qrels": "null_relevance", **k}, "aggregate"))
    # serendipity's relevance, a column of the run (its users have interactions, or no value would be read)
    out.append(("serendipity-null_relevance", "serendipity", "null_run_relevance",
                {"interactions": "history", "similarity": "pairs", "relevance": "relevance"}, "aggregate"))
    return out


BAD_CALLS = bad_calls()


def _sql(metric, table, params, dialect, plan):
    if plan == "aggregate":
        return sm.render(metric, table, dialect=dialect, **params)
    # rank and parallel plans: the Python layer's choice by engine; rendered here for every engine
    from sqlmetrics import api
    from sqlmetrics.sources import static_source
    m = lookup(metric)
    return api._sql(m, api.validate(m, params), {"data": static_source(table, dialect)}, Target(dialect), plan)



def _load_duckdb():
    con = _duckdb(BAD_TABLES)
    return con, con.close, ""


def _load_sqlite():
    con = sqlite3.connect(":memory:")
    for name, frame in BAD_TABLES.items():
        frame.astype(object).where(frame.notna(), None).to_sql(name, con, index=False)
    return con, con.close, ""


def _load_postgres():
    con = connect_postgres(autocommit=True)
    schema = f"sqlmetrics_safety_{os.getpid()}"
    con.execute(f'CREATE SCHEMA "{schema}"')
    con.execute(f'SET search_path TO "{schema}"')
    for name, frame in BAD_TABLES.items():
        types = {"f": "double precision", "i": "bigint", "u": "bigint", "b": "boolean"}
        columns = ", ".join(f'"{c}" {types.get(frame[c].dtype.kind, "text")}' for c in frame.columns)
        con.execute(f'CREATE TABLE "{name}" ({columns})')
        with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
            for row in frame.astype(object).itertuples(index=False):
                copy.write_row([None if v is pd.NA or (isinstance(v, float) and math.isnan(v)) else v for v in row])
    # a call's own search path holds PostgreSQL's builtins only (it names the caller's tables with their
    # schema as it opens them); SQL run as it is here names the schema itself
    return con, lambda: (con.execute(f'DROP SCHEMA "{schema}" CASCADE'), con.close()), f'"{schema}".'


def _load_clickhouse():
    try:
        from chdb import session
        con = session.Session()
    except Exception as e:  # no chdb
        unreachable("ClickHouse (chDB)", e)
    for name, frame in BAD_TABLES.items():
        frame = frame.copy()
        for column in frame.columns:
            if frame[column].dtype.kind in "iu":
                frame[column] = frame[column].astype("Int64")
            elif frame[column].dtype.kind == "f":
                frame[column] = frame[column].astype("Float64")
        con.query(f"CREATE TABLE {name} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM Python(frame)")
    return con, con.close, ""


def _load_spark():
    try:
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[2]").appName("sqlmetrics-tests")
                 .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
                 .config("spark.driver.memory", "1g").getOrCreate())
    except Exception as e:  # no pyspark, or no Java
        unreachable("Spark", e)
    spark.sparkContext.setLogLevel("ERROR")
    for name, frame in BAD_TABLES.items():
        rows = [[None if v is pd.NA or (isinstance(v, float) and math.isnan(v)) else v for v in row]
                for row in frame.astype(object).itertuples(index=False)]
        types = {"f": "double", "i": "bigint", "b": "boolean"}
        schema = ", ".join(f"`{c}` {types.get(frame[c].dtype.kind, 'string')}" for c in frame.columns)
        spark.createDataFrame(rows, schema).createOrReplaceTempView(name)
    return spark, spark.stop, ""


ENGINES = {"duckdb": _load_duckdb, "sqlite": _load_sqlite, "postgres": _load_postgres,
           "clickhouse": _load_clickhouse, "spark": _load_spark}


@pytest.fixture(scope="module", params=list(ENGINES))
def bad_engine(request):
    """The engine, and the prefix of its tables' names."""
    con, close, prefix = ENGINES[request.param]()
    yield connect(con), prefix
    close()


#: the first engines' failures: what each gets to say (Spark and PostgreSQL keep only the first line)
WHAT_FAILED = re.compile(r"sqlmetrics: a (label or prediction|treatment|score|probability|relevance|true or predicted class) "
                         r"must|"
                         r"invalid input syntax for type|Cannot parse string|JSON path error")


#: every call on every engine; on Spark, the slowest, a sample (conftest.spark_share): its failures take the
#: path of the others (helpers.sql invalid_value, dispatched per engine once)
ENGINE_BAD_CALLS = [(engine, *c) for engine in ENGINES
                    for c in (spark_share(BAD_CALLS, lambda c: c[1]) if engine == "spark" else BAD_CALLS)]


@pytest.mark.parametrize("bad_engine, case, metric, table, params, plan", ENGINE_BAD_CALLS, indirect=["bad_engine"],
                         ids=[f"{c[0]}-{c[1]}" for c in ENGINE_BAD_CALLS])
def test_an_invalid_value_never_gives_a_number(bad_engine, case, metric, table, params, plan):
    bad_engine, prefix = bad_engine
    sql = _sql(metric, prefix + table, {k: prefix + v if k in RELATIONS else v for k, v in params.items()},
               bad_engine.dialect, plan)
    try:
        with bad_engine.call():
            result = bad_engine.execute(sql)
    except Exception as e:  # EngineError; on Spark, a failure in two tasks at once still escapes as Py4JJavaError
        assert isinstance(e, EngineError) or bad_engine.dialect == "spark", (case, repr(e))
        assert WHAT_FAILED.search(str(e)), (case, str(e))
        if bad_engine.dialect == "clickhouse":
            # chDB 4.4 hands the output a query left when it failed to the next query: drain it
            bad_engine.con.query("SELECT 1", "CSV")
        return
    values = result[list(METRICS[metric].value_columns)]
    assert values.isna().all().all(), (case, result)  # an engine without a way to fail: NULL at least


def test_the_clean_tables_give_numbers(bad_engine):
    bad_engine, prefix = bad_engine
    """The failures above come from the one spoiled row: the same calls run on the clean tables."""
    for metric, table, params in [("auc", "null_score", {"label": "y", "score": "w"}),
                                  ("log_loss", "null_prediction", {"label": "y", "score": "s"}),
                                  ("precision", "null_score", {"label": "y", "prediction": "hat"}),
                                  ("ndcg", "run", {"qrels": "run", "relevance": "score", "k": 3})]:
        params = {k: prefix + v if k in RELATIONS else v for k, v in params.items()}
        with bad_engine.call():
            result = bad_engine.execute(sm.render(metric, prefix + table, dialect=bad_engine.dialect, **params))
        assert not result[metric].isna().any(), (metric, result)


# -- 3. coverage and ils: inputs the parameters cannot describe ----------------------------------

def _rows(con):
    return lambda sql: con.execute(sql).fetchall()


@pytest.fixture
def ranking_con():
    con = duckdb.connect()
    run = pd.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"], "score": [3, 2, 1, 2, 1]})
    con.execute("CREATE TABLE run AS SELECT * FROM run")
    con.execute("CREATE TABLE catalogue AS SELECT * FROM (VALUES ('a'), ('b'), ('c'), ('z')) AS t(item)")
    con.execute("CREATE TABLE full_catalogue AS SELECT * FROM (VALUES ('a'), ('b'), ('c'), ('d'), ('z')) AS t(item)")
    con.execute("CREATE TABLE sim_conflict AS SELECT * FROM (VALUES ('a', 'b', 0.5), ('b', 'a', 0.7), "
                "('a', 'c', 0.1), ('c', 'd', 0.2), ('d', 'c', 0.3)) AS t(item_a, item_b, similarity)")
    con.execute("CREATE TABLE sim_repeats AS SELECT * FROM (VALUES ('a', 'b', 0.5), ('b', 'a', 0.5), "
                "('a', 'b', 0.5), ('a', 'c', 0.1)) AS t(item_a, item_b, similarity)")
    return con


def _check(con, metric, **values):
    relations = {"data": '"run"'} | {k: f'"{values[k]}"' for k in RELATIONS if values.get(k)}
    consistency.run(METRICS[metric].checks, {"item": "item", **values}, relations, _rows(con))


def test_coverage_with_n_items_below_the_runs_items_is_refused(ranking_con):
    with pytest.raises(ParameterError, match=r"n_items=3 is below the 4 distinct items of the run"):
        _check(ranking_con, "coverage", n_items=3)
    _check(ranking_con, "coverage", n_items=4)
    # the SQL refuses it too (dbt, render): the share would be 4/3 with k=3
    with pytest.raises(duckdb.Error, match="n_items is below the number of distinct items in the run; found 4"):
        ranking_con.execute(sm.render("coverage", "run", k=3, n_items=3)).fetchall()
    assert ranking_con.execute(sm.render("coverage", "run", k=3, n_items=4)).fetchall()[0][0] == 1.0


def test_coverage_with_a_catalogue_lacking_run_items_is_refused(ranking_con):
    with pytest.raises(ColumnError, match=r"1 item of the run is not in the catalogue \(items\), e.g. 'd'"):
        _check(ranking_con, "coverage", items="catalogue")
    _check(ranking_con, "coverage", items="full_catalogue")
    with pytest.raises(duckdb.Error, match="items of the run are missing from the catalogue .*; found 1"):
        ranking_con.execute(sm.render("coverage", "run", k=3, items="catalogue")).fetchall()
    assert ranking_con.execute(sm.render("coverage", "run", k=3, items="full_catalogue")).fetchall()[0][0] == 0.8


def test_ils_with_conflicting_similarities_is_refused_naming_the_pair(ranking_con):
    with pytest.raises(ColumnError, match=r"similarity gives the pair \('a', 'b'\) two different similarities, "
                                          r"0.5 and 0.7 .*\(2 pairs have conflicting rows\)"):
        _check(ranking_con, "ils", similarity="sim_conflict")
    with pytest.raises(duckdb.Error, match="two different similarities"):
        ranking_con.execute(sm.render("ils", "run", similarity="sim_conflict")).fetchall()


def test_ils_with_exact_repeats_is_the_plain_definition(ranking_con):
    _check(ranking_con, "ils", similarity="sim_repeats")
    # query 1: pairs (a,b)=0.5, (a,c)=0.1, (b,c)=0 -> 0.2; query 2: (a,d)=0 -> 0; mean 0.1
    value = ranking_con.execute(sm.render("ils", "run", similarity="sim_repeats")).fetchall()[0][0]
    assert value == pytest.approx(0.1, abs=1e-15)


def test_only_coverage_ils_and_err_declare_checks_across_relations():
    # and the multi-class metrics from scores, whose checks tests/test_multiclass_scores.py runs (in SQL too)
    assert {name for name, m in METRICS.items() if m.checks} == {"coverage", "ils", "err"} | set(LONG_TABLE) | {
        "novelty", "serendipity", "gini_index", "average_popularity", "tail_share"}


def test_popularity_and_history_that_cannot_give_a_number_are_refused_in_sql(ranking_con):
    """As dbt runs the macros (no Python checks): an item recommended without a count (novelty), a
    popularity table giving an item two counts or a negative one, a recommended item the user
    interacted with (serendipity), a catalogue smaller than the run (gini_index)."""
    con = ranking_con
    con.execute("CREATE TABLE train AS SELECT * FROM (VALUES (9, 'a'), (9, 'b'), (9, 'c')) AS t(query, item)")
    con.execute("CREATE TABLE twice AS SELECT * FROM (VALUES ('a', 1), ('a', 2), ('d', 1)) AS t(item, count)")
    con.execute("CREATE TABLE negative AS SELECT * FROM (VALUES ('a', -1), ('d', 1)) AS t(item, count)")
    con.execute("CREATE TABLE own AS SELECT * FROM (VALUES (1, 'c'), (2, 'b')) AS t(query, item)")
    for sql, message in [
        (sm.render("novelty", "run", interactions="train"), "items recommended have no popularity .*; found 1"),
        (sm.render("average_popularity", "run", popularity="twice"), "more than one row for this item; found a"),
        (sm.render("tail_share", "run", popularity="negative"), "a count of the popularity table is negative"),
        (sm.render("serendipity", "run", interactions="own", similarity="sim_repeats"),
         "among the interactions of their user .*; found 1"),
        (sm.render("gini_index", "run", n_items=3), "n_items is below the number of distinct items in the run"),
    ]:
        with pytest.raises(duckdb.Error, match=message):
            con.execute(sql).fetchall()
    # within the top k they are fine: d beyond the top 1 (novelty), c beyond user 1's top 2 (serendipity:
    # user 1 (1 - 0.1 + 1) / 2 against c, user 2 (1 - 0.5 + 1) / 2 against b)
    assert con.execute(sm.render("novelty", "run", interactions="train", k=1)).fetchall()[0][0] == pytest.approx(
        np.log2(3))
    sql = sm.render("serendipity", "run", interactions="own", similarity="sim_repeats", k=2)
    assert con.execute(sql).fetchall()[0][0] == pytest.approx((0.95 + 0.75) / 2)


# -- 4. the spellings of a failing value -----------------------------------------------------------

def is_positive(dialect: str, booleans=frozenset()) -> str:
    """The SQL of helpers.sql `is_positive` on column y, as the Python layer generates it for `dialect`."""
    target = Target(dialect, booleans=frozenset(booleans))
    return finish(f"SELECT {render_macro('is_positive', target, label='y')} FROM t", {}, target)


_TEXT = "'sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); found ' || COALESCE(CAST({} AS {}), 'NULL')"
Y, Y_BACKTICKS = '"y"', "`y`"


@pytest.mark.parametrize("dialect, spelling", [
    ("duckdb", f"THEN ERROR({_TEXT.format(Y, 'TEXT')}) END"),
    ("spark", f"THEN RAISE_ERROR({_TEXT.format(Y_BACKTICKS, 'STRING')}) END"),
    ("databricks", f"THEN RAISE_ERROR({_TEXT.format(Y_BACKTICKS, 'STRING')}) END"),
    ("bigquery", f"THEN ERROR({_TEXT.format(Y_BACKTICKS, 'STRING')}) END"),
    ("sqlite", f"THEN JSON_EXTRACT('{{}}', {_TEXT.format(Y, 'TEXT')}) END"),
    ("mysql", "THEN JSON_EXTRACT('{}', CONCAT('sqlmetrics: a label or prediction must be 0 or 1 (or a boolean); "
              "found ', COALESCE(CAST(`y` AS CHAR), 'NULL'))) END"),
    # a cast of the text to an integer, of '0' on the rows that do not fail
    ("postgres", f"THEN {_TEXT.format(Y, 'TEXT')} ELSE '0' END AS BIGINT)"),
    ("redshift", f"THEN {_TEXT.format(Y, 'VARCHAR(MAX)')} ELSE '0' END AS BIGINT)"),
    ("snowflake", f"THEN {_TEXT.format(Y, 'VARCHAR')} ELSE '0' END AS BIGINT)"),
    ("trino", "ELSE '0' END AS BIGINT)"),
    ("clickhouse", f"THEN {_TEXT.format(Y, 'Nullable(String)')} ELSE '0' END AS Int64)")])
def test_a_failing_value_is_spelled_for_each_engine(dialect, spelling):
    sql = is_positive(dialect)
    assert spelling in sql, sql


def test_a_boolean_label_is_its_own_test_for_both_values():
    sql = is_positive("postgres", {"y"})
    assert 'WHEN "y" THEN 1 WHEN NOT "y" THEN 0' in sql and 'NOT ("y" OR NOT "y")' in sql, sql
