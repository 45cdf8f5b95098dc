"""Values a metric cannot use in a numeric column are a ColumnError naming the column, on every input
kind and engine: NaN (whatever statistics a Parquet file carries), a non-number kept by the engine
(SQLite text and blobs, PostgreSQL numeric 'NaN'), and an infinite weight, count, gain or regression
value. Infinite scores stay legal: they only order the rows.

Why Parquet needs its own matrix: writers leave NaN out of a column's min/max statistics (the format
asks so), and DuckDB takes those as bounds of every value, so it folds a per-row NaN test to false
before reading a row. The check must find the NaN anyway.

The expected values of the clean controls come from scikit-learn.
"""
import itertools
import json
import math
import os
import sqlite3

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sklearn.metrics import log_loss, mean_squared_error, ndcg_score, roc_auc_score, roc_curve

import sqlmetrics as sm
from conftest import SQLMETRICS_COMMAND, connect_postgres
from sqlmetrics.checks import as_the_engine_reads

NAN, INF = float("nan"), float("inf")
ROW_GROUP = 4


def frame() -> pd.DataFrame:
    """12 rows in 3 groups of both classes: a continuous score `s` (AUC's rank plan), a tied one
    `st` (4 distinct values: the aggregate plan), weights, probabilities, a float label, regression
    columns and a ranking (query = g)."""
    y = np.array([1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1])
    s = np.array([0.91, 0.12, 0.73, 0.35, 0.24, 0.68, 0.55, 0.47, 0.86, 0.03, 0.31, 0.77])
    return pd.DataFrame({
        "y": y, "yf": y.astype(float), "s": s, "st": np.round(s * 3) / 3,
        "w": np.linspace(0.5, 2.0, 12), "p": s, "g": np.repeat([0, 1, 2], 4),
        "item": [f"d{i}" for i in range(12)], "rel": np.array([3, 0, 2, 1, 0, 2, 1, 0, 3, 0, 1, 2], dtype=float),
        "t": np.linspace(-3.0, 4.0, 12), "q": np.linspace(-2.5, 4.5, 12) + s,
    })


RANKING = dict(query="g", item="item", score="s", relevance="rel", k=3)
# (id, metric, parameters, column that gets the bad value)
CASES = [
    ("auc-rank-score", "auc", dict(label="y", score="s"), "s"),
    ("auc-aggregate-score", "auc", dict(label="y", score="st"), "st"),
    ("auc-weight", "auc", dict(label="y", score="st", weight="w"), "w"),
    ("auc-float-label", "auc", dict(label="yf", score="s"), "yf"),
    ("gauc-score", "gauc", dict(label="y", score="s", group="g"), "s"),
    ("roc_curve-score", "roc_curve", dict(label="y", score="s"), "s"),
    ("log_loss-probability", "log_loss", dict(label="y", score="p"), "p"),
    ("brier-probability", "brier_score", dict(label="y", score="p"), "p"),
    ("ndcg-score", "ndcg", RANKING, "s"),
    ("ndcg-relevance", "ndcg", RANKING, "rel"),
    ("mse-target", "mse", dict(target="t", prediction="q"), "t"),
    ("mse-prediction", "mse", dict(target="t", prediction="q"), "q"),
]
IDS = [c[0] for c in CASES]


def with_value(column: str, value, position: str, dtype: str = "float64") -> pd.DataFrame:
    """frame() with `value` in `column` at the first row, in the middle row group, or as the only row."""
    df = frame()
    df[column] = df[column].astype(dtype)
    row = {"first": 0, "middle": ROW_GROUP + 2, "only": 0}[position]
    df.loc[row, column] = value
    return df.iloc[[0]].reset_index(drop=True) if position == "only" else df


def fails(metric, data, params, column, *words, **options):
    with pytest.raises(sm.ColumnError) as info:
        getattr(sm, metric)(data, **params, **options)
    message = str(info.value)
    for word in (repr(column),) + words:
        assert word in message, message
    return message


# -- NaN in Parquet files -------------------------------------------------------------------------

def write_parquet(df: pd.DataFrame, path, writer: str, statistics: bool) -> str:
    path = str(path)
    if writer == "pandas":  # pandas writes NaN as NULL (its missing value)
        df.to_parquet(path, engine="pyarrow", index=False, write_statistics=statistics, row_group_size=ROW_GROUP)
    elif writer == "polars":
        pl.DataFrame({c: df[c].to_numpy() for c in df.columns}).write_parquet(
            path, statistics=statistics, row_group_size=ROW_GROUP)
    else:
        table = pa.table({c: pa.array(df[c].to_numpy(), from_pandas=False) for c in df.columns})
        pq.write_table(table, path, write_statistics=statistics, row_group_size=ROW_GROUP)
    meta = pq.ParquetFile(path).metadata
    assert meta.num_row_groups == -(-len(df) // ROW_GROUP)
    stats = meta.row_group(0).column(list(df.columns).index("y")).statistics
    assert (stats is not None and stats.has_min_max) == statistics, (writer, statistics)
    return path


@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
@pytest.mark.parametrize("position", ["first", "middle", "only"])
@pytest.mark.parametrize("statistics", [True, False], ids=["stats", "nostats"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("writer", ["pandas", "polars", "pyarrow"])
def test_nan_in_parquet(tmp_path, writer, dtype, statistics, position, case, metric, params, column):
    path = write_parquet(with_value(column, NAN, position, dtype), tmp_path / "nan.parquet", writer, statistics)
    fails(metric, path, params, column, "NaN")


@pytest.mark.parametrize("statistics", [True, False], ids=["stats", "nostats"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("writer", ["pandas", "polars", "pyarrow"])
def test_clean_parquet_gives_sklearns_values(tmp_path, writer, dtype, statistics):
    """The NaN checks do not fire on clean files, whatever the writer (no false alarm from sums)."""
    df = frame().astype({c: dtype for c in ("s", "st", "w", "p", "t", "q")})
    path = write_parquet(df, tmp_path / "clean.parquet", writer, statistics)
    y, s, st, w = df["y"], df["s"].astype(float), df["st"].astype(float), df["w"].astype(float)
    assert sm.auc(path, label="y", score="s") == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    assert sm.auc(path, label="y", score="st", weight="w") == pytest.approx(
        roc_auc_score(y, st, sample_weight=w), rel=1e-9)
    assert sm.log_loss(path, label="y", score="p") == pytest.approx(log_loss(y, df["p"].astype(float)), rel=1e-6)
    assert sm.mse(path, target="t", prediction="q") == pytest.approx(
        mean_squared_error(df["t"].astype(float), df["q"].astype(float)), rel=1e-6)


@pytest.mark.parametrize("value", [NAN, -NAN])
def test_nan_in_parquet_when_every_other_value_is_equal(tmp_path, value):
    """min == max: DuckDB may take the column for a constant and fold any expression of it."""
    df = frame().assign(w=1.0)
    df.loc[5, "w"] = value
    path = write_parquet(df, tmp_path / "const.parquet", "polars", True)
    fails("auc", path, dict(label="y", score="s", weight="w"), "w", "NaN")


@pytest.mark.parametrize("values", [[-INF, INF, NAN], [-INF, NAN], [INF, NAN], [-2.0, NAN], [NAN]],
                         ids=["both-infinities", "-inf", "+inf", "negative", "nan-only"])
def test_nan_among_infinite_scores_in_parquet(tmp_path, values):
    """+inf and -inf scores sum to NaN: NaN must still be found next to them, and only then."""
    df = frame()
    df.loc[range(len(values)), "s"] = values
    path = write_parquet(df, tmp_path / "inf.parquet", "polars", True)
    fails("auc", path, dict(label="y", score="s"), "s", "NaN")
    finite = [v for v in values if not math.isnan(v)]
    df.loc[range(len(values)), "s"] = finite + [0.5] * (len(values) - len(finite))
    clean = write_parquet(df, tmp_path / "inf_clean.parquet", "polars", True)
    ranks = df["s"].rank()  # sklearn rejects infinite scores: the same order in finite numbers
    assert sm.auc(clean, label="y", score="s") == pytest.approx(roc_auc_score(df["y"], ranks), rel=1e-12)


def test_nan_in_a_duckdb_view_over_parquet(tmp_path):
    """A view keeps the file's statistics; a table made from it has statistics of its own."""
    path = write_parquet(with_value("s", NAN, "middle"), tmp_path / "v.parquet", "polars", True)
    con = duckdb.connect()
    con.execute(f"CREATE VIEW v AS SELECT * FROM read_parquet('{path}')")
    con.execute("CREATE TABLE t AS SELECT * FROM v")
    for name in ("v", "t"):
        fails("auc", name, dict(label="y", score="s"), "s", "NaN", con=con)
    fails("auc", sm.Query("SELECT * FROM v WHERE g >= 0"), dict(label="y", score="s"), "s", "NaN", con=con)


def test_huge_values_do_not_look_like_nan(tmp_path):
    """Sums of finite values overflow to inf, never to NaN: no false alarm."""
    df = frame()
    df["s"] = np.where(df["y"] == 1, 1e308, -1e308) * np.linspace(0.5, 1, 12)
    path = write_parquet(df, tmp_path / "huge.parquet", "polars", True)
    assert sm.auc(path, label="y", score="s") == roc_auc_score(df["y"], df["s"])


# -- NaN in the other input kinds ---------------------------------------------------------------------

@pytest.mark.parametrize("spelling", ["nan", "NaN"])
@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
def test_nan_in_csv(tmp_path, spelling, case, metric, params, column):
    path = tmp_path / "nan.csv"
    with_value(column, NAN, "middle").to_csv(path, index=False, na_rep=spelling)
    assert spelling in path.read_text()
    fails(metric, str(path), params, column, "NaN")


@pytest.mark.parametrize("layout", ["lines", "array"])
@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
def test_nan_in_json(tmp_path, layout, case, metric, params, column):
    rows = with_value(column, NAN, "middle").to_dict("records")
    path = tmp_path / ("nan.jsonl" if layout == "lines" else "nan.json")
    # Python's json writes the NaN literal (JavaScript's), which DuckDB reads as a NaN double
    path.write_text("\n".join(map(json.dumps, rows)) if layout == "lines" else json.dumps(rows))
    assert "NaN" in path.read_text()
    fails(metric, str(path), params, column, "NaN")


def frames(df: pd.DataFrame):
    """The frame as pandas (NaN is its missing value: read as NULL), pandas with Arrow dtypes, polars and
    pyarrow (NaN kept as NaN)."""
    table = pa.table({c: pa.array(df[c].to_numpy(), from_pandas=False) for c in df.columns})
    return {"pandas": df, "pandas-arrow": table.to_pandas(types_mapper=pd.ArrowDtype),
            "polars": pl.DataFrame({c: df[c].to_numpy() for c in df.columns}), "pyarrow": table}


@pytest.mark.parametrize("kind", ["pandas", "pandas-arrow", "polars", "pyarrow"])
@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
def test_nan_in_frames(kind, case, metric, params, column):
    data = frames(with_value(column, NAN, "middle"))[kind]
    if kind == "pandas-arrow":  # a NaN, not a missing value, in the Arrow column
        assert data[column].array.__arrow_array__().null_count == 0
    fails(metric, data, params, column, "NaN")


@pytest.mark.parametrize("dtype", ["DOUBLE", "FLOAT"])
@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
def test_nan_in_duckdb_table(dtype, case, metric, params, column):
    con = duckdb.connect()
    df = frame()
    con.execute(f"CREATE TABLE t AS SELECT * REPLACE (CAST({column} AS {dtype}) AS {column}) FROM df")
    con.execute(f"UPDATE t SET {column} = 'NaN' WHERE item = 'd6'")
    fails(metric, "t", params, column, "NaN", con=con)


# -- NaN and non-numbers on the other engines ------------------------------------------------------------

def sqlite_table(con, df: pd.DataFrame, types: dict[str, str], name="t"):
    columns = ", ".join(f'"{c}" {types.get(c, "")}' for c in df.columns)
    con.execute(f'CREATE TABLE "{name}" ({columns})')
    con.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(df.columns))})',
                    [tuple(v.item() if hasattr(v, "item") else v for v in row) for row in df.itertuples(index=False)])


SQLITE_TYPES = {"y": "INTEGER", "yf": "REAL", "s": "REAL", "st": "REAL", "w": "REAL", "p": "REAL", "g": "INTEGER",
                "item": "TEXT", "rel": "REAL", "t": "REAL", "q": "REAL"}


@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
def test_nan_on_sqlite_is_null(case, metric, params, column):
    """SQLite stores NaN as NULL: the NULL error, which names NaN as a cause."""
    con = sqlite3.connect(":memory:")
    sqlite_table(con, with_value(column, NAN, "middle"), SQLITE_TYPES)
    assert con.execute(f'SELECT COUNT(*) FROM t WHERE "{column}" IS NULL').fetchone()[0] == 1
    fails(metric, "t", params, column, "NULL", "NaN", con=con)


# every role that takes numbers, with the declared types SQLite lets hold text and blobs
SQLITE_ROLES = [
    ("label", "auc", dict(label="y", score="s"), "y"),
    ("score", "auc", dict(label="y", score="s"), "s"),
    ("weight", "auc", dict(label="y", score="s", weight="w"), "w"),
    ("probability", "log_loss", dict(label="y", score="p"), "p"),
    ("relevance", "ndcg", RANKING, "rel"),
    ("target", "mse", dict(target="t", prediction="q"), "t"),
    ("prediction", "mse", dict(target="t", prediction="q"), "q"),
    ("binary-prediction", "precision", dict(label="y", prediction="y2"), "y2"),
]


@pytest.mark.parametrize("value", ["", "abc", "NaN", b"\x00"], ids=["empty", "abc", "NaN-text", "blob"])
@pytest.mark.parametrize("role, metric, params, column, declared", [
    (*r, declared) for r in SQLITE_ROLES for declared in ("REAL", "INTEGER", "NUMERIC", "")
    + (("BOOLEAN",) if r[0] in ("label", "binary-prediction") else ())],  # elsewhere refused by its type
    ids=[f"{r[0]}-{declared or 'untyped'}" for r in SQLITE_ROLES for declared in ("REAL", "INTEGER", "NUMERIC", "")
         + (("BOOLEAN",) if r[0] in ("label", "binary-prediction") else ())])
def test_non_numbers_on_sqlite(value, role, metric, params, column, declared):
    con = sqlite3.connect(":memory:")
    df = frame().assign(y2=frame()["y"][::-1].to_numpy())
    df[column] = df[column].astype(object)
    df.loc[ROW_GROUP + 2, column] = value
    sqlite_table(con, df, {**SQLITE_TYPES, "y2": "INTEGER", column: declared})
    assert con.execute(f'SELECT typeof("{column}") FROM t WHERE item = ?', ["d6"]).fetchone()[0] in ("text", "blob")
    fails(metric, "t", params, column, "not a number", repr(value), con=con)
    # a query's columns have no declared type: the same
    fails(metric, sm.Query("SELECT * FROM t"), params, column, "not a number", con=con)


def test_non_number_counts_of_histogram_auc_on_sqlite():
    con = sqlite3.connect(":memory:")
    histogram = sm.score_histogram(frame(), label="y", score="s", bins=4, weight="w")
    for column in ("n", "n_pos", "w_pos", "w_neg"):
        bad = histogram.astype({column: object})
        bad.loc[1, column] = "abc"
        con.execute("DROP TABLE IF EXISTS h")
        sqlite_table(con, bad, {c: "INTEGER" if c in ("bucket", "n", "n_pos") else "REAL" for c in bad.columns}, "h")
        fails("histogram_auc", "h", {}, column, "not a number", "'abc'", con=con)


def test_sqlite_boolean_label_must_be_0_or_1():
    """A BOOLEAN column is a number on SQLite: 2 would be read as true."""
    con = sqlite3.connect(":memory:")
    df = frame()
    sqlite_table(con, df, dict(SQLITE_TYPES, y="BOOLEAN"))
    assert sm.auc("t", label="y", score="s", con=con) == pytest.approx(roc_auc_score(df["y"], df["s"]), rel=1e-12)
    con.execute("UPDATE t SET y = 2 WHERE item = 'd6'")
    fails("auc", "t", dict(label="y", score="s"), "y", "0/1", con=con)


@pytest.mark.parametrize("declared", ["REAL", "INTEGER", "NUMERIC", ""])
@pytest.mark.parametrize("role, metric, params, column", [
    ("weight", "auc", dict(label="y", score="s", weight="w"), "w"),
    ("relevance", "ndcg", RANKING, "rel"),
    ("target", "mse", dict(target="t", prediction="q"), "t")], ids=["weight", "relevance", "target"])
def test_infinity_on_sqlite_in_any_declared_type(declared, role, metric, params, column):
    con = sqlite3.connect(":memory:")
    sqlite_table(con, frame(), dict(SQLITE_TYPES, **{column: declared}))
    con.execute(f'UPDATE t SET "{column}" = 9e999 WHERE item = ?', ["d6"])
    assert con.execute(f'SELECT typeof("{column}") FROM t WHERE item = ?', ["d6"]).fetchone()[0] == "real"
    fails(metric, "t", params, column, "infinite", con=con)


@pytest.fixture(scope="module")
def pg():
    con = connect_postgres(autocommit=True)
    schema = f"sqlmetrics_values_{os.getpid()}"
    con.execute(f'CREATE SCHEMA "{schema}"')
    con.execute(f'SET search_path TO "{schema}"')
    yield con
    con.execute(f'DROP SCHEMA "{schema}" CASCADE')
    con.close()


def pg_table(con, df: pd.DataFrame, types: dict[str, str]) -> str:
    """`df` as a new PostgreSQL table (floats as float8 unless `types` says otherwise); its name. A new
    name each time: psycopg prepares a statement it has run 5 times, and a prepared SELECT * fails
    once its table has other column types."""
    default = {"f": "float8", "i": "int8", "O": "text"}
    name = f"t{next(_PG_TABLES)}"
    con.execute(f'CREATE TABLE "{name}" ({", ".join(f"{c} {types.get(c, default[df[c].dtype.kind])}" for c in df.columns)})')
    with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
        for row in df.itertuples(index=False):
            copy.write_row([str(v) if isinstance(v, float) else getattr(v, "item", lambda v=v: v)() for v in row])
    return name


_PG_TABLES = itertools.count()


@pytest.mark.parametrize("dtype", ["float8", "float4", "numeric"])
@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
def test_nan_on_postgres(pg, dtype, case, metric, params, column):
    table = pg_table(pg, with_value(column, NAN, "middle"), {column: dtype})
    fails(metric, table, params, column, "NaN", con=pg)


# (role, metric, parameters, column, the word of the error for +inf, for -inf)
PG_INFINITY_ROLES = [
    ("weight", "auc", dict(label="y", score="s", weight="w"), "w", "infinite", "negative"),
    ("relevance", "ndcg", RANKING, "rel", "infinite", "infinite"),  # a negative grade is unjudged: -inf is not
    ("target", "mse", dict(target="t", prediction="q"), "t", "infinite", "infinite"),
    ("probability", "log_loss", dict(label="y", score="p"), "p", "outside", "outside"),
    ("label", "auc", dict(label="yf", score="s"), "yf", "0/1", "0/1")]


@pytest.mark.parametrize("role, metric, params, column, positive, negative, dtype, value", [
    pytest.param(*r, dtype, value, id=f"{r[0]}-{dtype}-{value}")
    for r in PG_INFINITY_ROLES for dtype in ("float8", "numeric") for value in ("Infinity", "-Infinity")])
def test_infinity_on_postgres(pg, role, metric, params, column, positive, negative, dtype, value):
    df = frame().astype({column: object})
    df.loc[ROW_GROUP + 2, column] = value
    table = pg_table(pg, df, {column: dtype})
    fails(metric, table, params, column, positive if value == "Infinity" else negative, con=pg)


def test_numeric_infinite_scores_are_ordered_on_postgres(pg):
    df = frame().astype({"s": object})
    df.loc[[0, 1], "s"] = ["Infinity", "-Infinity"]
    table = pg_table(pg, df, {"s": "numeric"})
    ranks = frame()["s"].copy()
    ranks[[0, 1]] = [2.0, -1.0]  # the same order in numbers sklearn accepts
    assert sm.auc(table, label="y", score="s", con=pg) == pytest.approx(roc_auc_score(df["y"], ranks), rel=1e-12)


def test_numeric_nan_counts_of_histogram_auc_on_postgres(pg):
    histogram = sm.score_histogram(frame(), label="y", score="s", bins=4, weight="w")
    for column, value in [("n", "NaN"), ("w_pos", "NaN"), ("w_neg", "Infinity")]:
        bad = histogram.astype({column: object})
        bad.loc[1, column] = value
        table = pg_table(pg, bad, {column: "numeric"})
        fails("histogram_auc", table, {}, column, "NaN" if value == "NaN" else "infinite", con=pg)


@pytest.fixture(scope="module")
def ch():
    try:
        from chdb import session
        con = session.Session()
    except Exception as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"chDB not available here ({type(e).__name__}: {e})")
    yield con
    con.close()


def ch_table(con, df: pd.DataFrame, types: dict[str, str] = {}) -> None:
    """`df` as table t; through Arrow, as chDB reads a pandas NaN as NULL."""
    arrow = pa.table({c: pa.array(df[c].to_numpy(), from_pandas=False) for c in df.columns})  # noqa: F841 (chDB)
    replace = ", ".join(f"CAST({c} AS {t}) AS {c}" for c, t in types.items())
    con.query("DROP TABLE IF EXISTS t")
    con.query(f"CREATE TABLE t ENGINE = MergeTree ORDER BY tuple() AS SELECT * {f'REPLACE ({replace})' if replace else ''} "
              "FROM Python(arrow)")


@pytest.mark.parametrize("dtype", ["Float64", "Float32"])
@pytest.mark.parametrize("case, metric, params, column", CASES, ids=IDS)
def test_nan_on_clickhouse(ch, dtype, case, metric, params, column):
    ch_table(ch, with_value(column, NAN, "middle"), {column: dtype})
    assert ch.query(f"SELECT countIf(isNaN({column})) FROM t", "CSV").bytes().strip() == b"1"
    fails(metric, "t", params, column, "NaN", con=ch)


@pytest.mark.parametrize("value", [INF, -INF])
@pytest.mark.parametrize("role, metric, params, column", [
    ("weight", "auc", dict(label="y", score="s", weight="w"), "w"),
    ("relevance", "ndcg", RANKING, "rel"),
    ("target", "mse", dict(target="t", prediction="q"), "t")], ids=["weight", "relevance", "target"])
def test_infinity_on_clickhouse(ch, value, role, metric, params, column):
    df = frame()
    df.loc[ROW_GROUP + 2, column] = value
    ch_table(ch, df)
    with pytest.raises(sm.ColumnError) as info:
        getattr(sm, metric)("t", con=ch, **params)
    message = str(info.value)
    negative = value < 0 and role == "weight"  # -inf is first a negative weight (a negative grade is unjudged)
    assert repr(column) in message and ("negative" if negative else "infinite") in message, message


@pytest.fixture(scope="module")
def spark():
    try:
        from pyspark.sql import SparkSession
        session = (SparkSession.builder.master("local[1]").appName("sqlmetrics-values")
                   .config("spark.sql.shuffle.partitions", "1").config("spark.ui.enabled", "false")
                   .config("spark.driver.memory", "1g").getOrCreate())
    except Exception as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"Spark not available here ({type(e).__name__}: {e})")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_nan_and_infinity_on_spark(spark):
    """One small case per problem: Spark is slow to start. Spark treats NaN = NaN as true and sorts NaN
    above every number, which would rank a NaN score first."""
    for column, value, word in [("s", NAN, "NaN"), ("w", NAN, "NaN"), ("w", INF, "infinite")]:
        df = frame()[["y", "s", "w"]]
        df.loc[ROW_GROUP + 2, column] = value
        # from Python rows: from a pandas frame, Spark would turn NaN into NULL
        data = spark.createDataFrame([tuple(r) for r in df.astype(object).itertuples(index=False)],
                                     "y bigint, s double, w double")
        assert data.filter(f"isnan({column}) OR abs({column}) = double('inf')").count() == 1
        fails("auc", data, dict(label="y", score="s", weight="w"), column, word)


# -- infinities, and the types around them ------------------------------------------------------------

@pytest.mark.parametrize("value", [INF, -INF])
@pytest.mark.parametrize("role, metric, params, column", [
    ("weight", "auc", dict(label="y", score="s", weight="w"), "w"),
    ("relevance", "ndcg", RANKING, "rel"),
    ("target", "mse", dict(target="t", prediction="q"), "t"),
    ("prediction", "mae", dict(target="t", prediction="q"), "q"),
    ("probability", "brier_score", dict(label="y", score="p"), "p")],
    ids=["weight", "relevance", "target", "prediction", "probability"])
def test_infinite_values_where_only_finite_ones_make_sense(value, role, metric, params, column):
    """sklearn refuses them (its check_array): an infinite weight, gain or error makes the metric inf
    or NaN."""
    df = frame()
    df.loc[ROW_GROUP + 2, column] = value
    with pytest.raises(sm.ColumnError, match=repr(column)):
        getattr(sm, metric)(df, **params)


def test_infinite_scores_are_legal():
    """sklearn refuses infinite scores: the same order in finite numbers (ranks) is the reference."""
    df = frame()
    df.loc[[0, 1, 5], "s"] = [INF, -INF, INF]
    ranks = df["s"].rank()
    assert sm.auc(df, label="y", score="s") == pytest.approx(roc_auc_score(df["y"], ranks), rel=1e-12)
    curve = sm.roc_curve(df, label="y", score="s")
    fpr, tpr, thresholds = roc_curve(df["y"], ranks, drop_intermediate=False)
    np.testing.assert_allclose(curve["fpr"], fpr, rtol=1e-12)
    np.testing.assert_allclose(curve["tpr"], tpr, rtol=1e-12)
    by_rank = dict(zip(ranks, df["s"]))
    assert curve["threshold"].tolist() == [INF] + [by_rank[r] for r in thresholds[1:]]
    want = np.mean([ndcg_score([q["rel"]], [q["s"].rank()], k=3) for _, q in df.groupby("g")])
    assert sm.ndcg(df, **RANKING, gain="linear") == pytest.approx(want, rel=1e-12)


def test_decimal_and_float32_columns_give_sklearns_values():
    df = frame()
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT y, CAST(s AS DECIMAL(10, 4)) AS s, CAST(w AS FLOAT) AS w, "
                "CAST(t AS DECIMAL(10, 4)) AS t, CAST(q AS FLOAT) AS q FROM df")
    w = df["w"].astype(np.float32).astype(float)
    assert sm.auc("t", label="y", score="s", weight="w", con=con) == pytest.approx(
        roc_auc_score(df["y"], df["s"], sample_weight=w), rel=1e-12)
    assert sm.mse("t", target="t", prediction="q", con=con) == pytest.approx(
        mean_squared_error(df["t"].round(4), df["q"].astype(np.float32).astype(float)), rel=1e-9)


def test_boolean_score_is_refused():
    df = frame().assign(b=lambda d: d["s"] > 0.5)
    fails("auc", df, dict(label="y", score="b"), "b", "numeric", "BOOLEAN")


def test_pos_label_as_scikit_learn():
    """pos_label: a label equal to it is positive, any other negative, as scikit-learn's; on labels 1/2,
    -1/1, 'yes'/'no' and booleans, against scikit-learn given the same labels (or y == pos_label where
    its function takes no pos_label)."""
    from sklearn.metrics import (average_precision_score, brier_score_loss, f1_score, precision_score,
                                 recall_score)
    rng = np.random.default_rng(18)
    n = 300
    positive = rng.random(n) < 0.4
    s = np.round(np.clip(0.3 * positive + rng.random(n) * 0.7, 0.01, 0.99), 2)
    flip = rng.random(n) < 0.3
    for pos, neg in [(2, 1), (1, -1), (-1, 1), ("yes", "no"), (True, False), (False, True)]:
        y = np.where(positive, pos, neg)
        hat = np.where(positive ^ flip, pos, neg)
        df = pd.DataFrame({"y": y, "hat": hat, "s": s})
        what = f"pos_label={pos!r}"
        assert sm.auc(df, label="y", score="s", pos_label=pos) == pytest.approx(roc_auc_score(y == pos, s), abs=1e-12), what
        assert sm.average_precision(df, label="y", score="s", pos_label=pos) == pytest.approx(
            average_precision_score(y, s, pos_label=pos), abs=1e-12), what
        assert sm.brier_score(df, label="y", score="s", pos_label=pos) == pytest.approx(
            brier_score_loss(y, s, pos_label=pos), abs=1e-12), what
        assert sm.log_loss(df, label="y", score="s", pos_label=pos) == pytest.approx(log_loss(y == pos, s), abs=1e-12)
        for fn, ref in [(sm.precision, precision_score), (sm.recall, recall_score), (sm.f1, f1_score)]:
            assert fn(df, label="y", prediction="hat", pos_label=pos) == pytest.approx(
                ref(y, hat, pos_label=pos), abs=1e-12), (what, fn.__name__)
            assert fn(df, label="y", score="s", threshold=0.5, pos_label=pos) == pytest.approx(
                ref(y == pos, s >= 0.5), abs=1e-12), (what, fn.__name__)
        curve = sm.roc_curve(df, label="y", score="s", pos_label=pos)
        fpr, tpr, _ = roc_curve(y, s, pos_label=pos, drop_intermediate=False)
        assert np.allclose(curve["fpr"], fpr) and np.allclose(curve["tpr"], tpr), what
    yes = pd.DataFrame({"y": ["yes", "no", "yes", "no"], "s": [0.9, 0.2, 0.4, 0.5]})
    # a pos_label that no label equals (a case or a type off: 'Yes', '1' for 1) would make every label
    # negative: refused naming the values, as scikit-learn's precision_score refuses it
    with pytest.raises(sm.ParameterError, match=r"pos_label='Yes' is none of the labels: column 'y' \(label\) holds "
                                                r"'no', 'yes'; give one of them"):
        sm.auc(yes, label="y", score="s", pos_label="Yes")
    # the default renders as before: 0/1 labels; a third value, a type that is not the column's: errors
    with pytest.raises(sm.ColumnError, match="label must be 0/1"):
        sm.auc(yes.assign(y=[1, 2, 1, 2]), label="y", score="s")
    with pytest.raises(sm.ColumnError, match=r"column 'y' \(label\) has more than two values \(e.g. 'maybe', 'no', "
                                             r"'yes'\): pos_label makes one positive"):
        sm.auc(yes.assign(y=["yes", "no", "maybe", "no"]), label="y", score="s", pos_label="yes")
    with pytest.raises(sm.ParameterError, match=r"pos_label=1 is a number; column 'y' \(label\) holds text"):
        sm.auc(yes, label="y", score="s", pos_label=1)
    with pytest.raises(sm.ParameterError, match=r"pos_label='2' is text; column 'y' \(label\) holds numbers"):
        sm.auc(yes.assign(y=[2, 1, 2, 1]), label="y", score="s", pos_label="2")
    with pytest.raises(sm.ColumnError, match="the classes must have the same type"):
        sm.precision(yes.assign(hat=[1, 0, 1, 0]), label="y", prediction="hat", pos_label="yes")
    with pytest.raises(sm.ColumnError, match="1 NULL value"):
        sm.auc(yes.assign(y=["yes", None, "no", "no"]), label="y", score="s", pos_label="yes")
    with pytest.raises(sm.ParameterError, match="pos_label applies to average='binary'"):
        sm.precision(yes, label="y", prediction="y", average="macro", pos_label="yes")
    with pytest.raises(sm.ParameterError, match="pos_label must be a value of the label column"):
        sm.auc(yes, label="y", score="s", pos_label=float("nan"))
    assert sm.auc(yes.assign(y=[2, 1, 2, 1]), label="y", score="s", pos_label=2.0) == 0.75
    # render: the literal, quoted for the target
    assert "= 'it''s'" in sm.render("auc", "t", label="y", score="s", pos_label="it's")
    assert "`y` = 'it\\'s'" in sm.render("auc", "t", label="y", score="s", pos_label="it's", dialect="bigquery")


def test_two_labels_other_than_0_1_say_to_pass_pos_label():
    """Labels of two values that are not 0/1 ('yes'/'no', '0'/'1' as text, 1/2) name both as pos_label, for
    every metric of a 0/1 label; accuracy takes them as classes (sklearn's accuracy_score)."""
    for y, shown, type_name in [(["yes", "no", "yes", "no"], "'no', 'yes'", "VARCHAR"),
                                (["1", "0", "1", "0"], "'0', '1'", "VARCHAR"), ([2, 1, 2, 1], "1, 2", "BIGINT")]:
        df = pd.DataFrame({"y": y, "s": [0.9, 0.2, 0.4, 0.5]})
        positive = shown.split(", ")
        want = (f"label must be 0/1 (or boolean); column 'y' (label) holds {shown} ({type_name}): say which label is "
                f"positive: pos_label={positive[0]} or pos_label={positive[1]}")
        for name, params in [("auc", dict(score="s")), ("precision", dict(prediction="y")),
                             ("log_loss", dict(score="s")), ("accuracy", dict(score="s"))]:
            with pytest.raises(sm.ColumnError) as e:
                getattr(sm, name)(df, label="y", **params)
            assert str(e.value) == want, name
        assert sm.accuracy(df.assign(p=df["y"][::-1].to_numpy()), label="y", prediction="p") == 0.0


def test_pos_label_of_another_type_is_no_label_on_sqlite():
    """SQLite converts a text literal compared with a column of numeric affinity ('1' = 1): pos_label='1'
    must still not be the INTEGER label 1 (nor 1 the TEXT label '1'), as on the engines with types."""
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE n (y INTEGER, s REAL)")
    con.execute("CREATE TABLE t (y TEXT, s REAL)")
    rows = [(1, 0.9), (2, 0.1), (1, 0.4), (2, 0.5)]
    con.executemany("INSERT INTO n VALUES (?, ?)", rows)
    con.executemany("INSERT INTO t VALUES (?, ?)", [(str(y), s) for y, s in rows])
    assert sm.auc("n", label="y", score="s", pos_label=1, con=con) == 0.75
    assert sm.auc("t", label="y", score="s", pos_label="1", con=con) == 0.75
    for table, pos in (("n", "1"), ("t", 1)):
        with pytest.raises(sm.ParameterError, match=f"pos_label={pos!r} is none of the labels"):
            sm.auc(table, label="y", score="s", pos_label=pos, con=con)
    # and in the SQL itself (as dbt would run it): the text '1' is no INTEGER 1
    sql = sm.render("precision", "n", label="y", prediction="y", pos_label="1", dialect="sqlite")
    assert con.execute(sql).fetchone()[0] is None  # no positive predicted: 0/0


def test_pos_label_on_the_command_line(tmp_path):
    """--pos-label is text, read as the label column's type: 2 for numbers, yes for DuckDB's CSV reader's
    boolean yes/no column, text for text."""
    import subprocess
    exe = SQLMETRICS_COMMAND
    path = tmp_path / "labels.csv"
    pd.DataFrame({"n": [2, 1, 2, 1], "yn": ["yes", "no", "yes", "no"], "t": ["up", "down", "up", "down"],
                  "s": [0.9, 0.2, 0.4, 0.5]}).to_csv(path, index=False)
    for label, pos in [("n", "2"), ("yn", "yes"), ("t", "up")]:
        done = subprocess.run([exe, "compute", "auc", str(path), "--label", label, "--score", "s", "--pos-label", pos,
                               "--format", "json"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and json.loads(done.stdout)["value"] == 0.75, (label, done.stderr)
    done = subprocess.run([exe, "compute", "auc", str(path), "--label", "n", "--score", "s", "--pos-label", "up"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.strip() == (
        "sqlmetrics: error: --pos-label up is not a number; column 'n' (label) holds numbers (BIGINT): give one "
        "of its values, e.g. --pos-label 1"), done.stderr


# -- a treatment, an event: 0/1 columns pos_label does not apply to --------------------------------

#: (metric, parameters) reading column x as 0/1: an uplift treatment, a survival event
INDICATORS = [("qini_auc", dict(label="y", treatment="x", score="s"), "treatment"),
              ("concordance_index", dict(duration="t", event="x", score="s"), "event")]
#: (values of x, repeated over the rows, and the end of the message: the values and what to do)
MAP_FIRST = r"map its values to 0/1 first, in a sqlmetrics\.Query\('SELECT \.\.\.'\)$"
INDICATOR_VALUES = [
    ([1, 2], rf"holds 1, 2 \(\w+\): {MAP_FIRST}"),
    (["yes", "no"], rf"holds 'no', 'yes' \(\w+\): {MAP_FIRST}"),
    ([0, 1, 2], r"has 4 other values, e\.g\. 2$"),
    ([0, 0.5, 1], r"has 4 other values, e\.g\. 0\.5$"),
]


def indicator_frame(values) -> pd.DataFrame:
    return frame().assign(x=values * (12 // len(values)))


@pytest.mark.parametrize("values, end", INDICATOR_VALUES, ids=["1-2", "yes-no", "a-third-value", "a-fraction"])
@pytest.mark.parametrize("metric, params, param", INDICATORS, ids=["treatment", "event"])
def test_a_treatment_or_event_not_0_1_says_so_without_pos_label(pg, metric, params, param, values, end):
    """pos_label applies to the label only (it would leave a treatment or an event as it is, and the
    error repeat): a column of other values is to be mapped to 0/1, on every input path."""
    df = indicator_frame(values)
    con = sqlite3.connect(":memory:")
    declared = "TEXT" if isinstance(values[0], str) else "REAL" if 0.5 in values else "INTEGER"
    sqlite_table(con, df, dict(SQLITE_TYPES, x=declared))
    want = rf"^{param} must be 0/1 \(or boolean\); column 'x' \({param}\) {end}"
    for data, on in ((df, None), ("t", con), (pg_table(pg, df, {}), pg)):
        with pytest.raises(sm.ColumnError, match=want):
            getattr(sm, metric)(data, con=on, **params)


def test_survival_metrics_take_no_pos_label():
    """The event is 0/1 (or boolean), as scikit-survival's and lifelines': pos_label, which applied to the
    data's event but not to the training set's, is no parameter of theirs."""
    for metric in ("concordance_index", "concordance_index_ipcw", "cumulative_dynamic_auc"):
        assert "pos_label" not in {p.name for p in sm.METRICS[metric].params}
    with pytest.raises(sm.ParameterError, match="unexpected keyword argument 'pos_label'"):
        sm.concordance_index(indicator_frame([1, 2]), duration="t", event="x", score="s", pos_label=2)


def test_a_training_sets_values_are_reported_as_its_own(pg):
    """Uno's C reads a second relation, train=: a bad value there is named as train's, with train's
    values (the data's event is 0/1 here), on every input path; a NULL, a missing column too."""
    df = frame().assign(x=[1, 0] * 6)
    train = frame().assign(x=["event", "censored"] * 6)
    con = sqlite3.connect(":memory:")
    sqlite_table(con, df, SQLITE_TYPES, "d")
    sqlite_table(con, train, dict(SQLITE_TYPES, x="TEXT"), "train")
    params = dict(duration="p", event="x", score="s")
    values = r"holds 'censored', 'event' \(\w+\): map its values to 0/1 first"
    for data, given, name, on in ((df, train, "the pandas DataFrame", None), ("d", "train", "table 'train'", con),
                                  (pg_table(pg, df, {}), (t := pg_table(pg, train, {})), f"table {t!r}", pg)):
        with pytest.raises(sm.ColumnError, match=rf"^event must be 0/1 \(or boolean\); column 'x' \(event\) of "
                                                 rf"{name} given as train {values}"):
            sm.concordance_index_ipcw(data, train=given, con=on, **params)
    two = train.assign(x=[1, 0, 2] * 4)
    with pytest.raises(sm.ColumnError, match=r"^event must be 0/1 \(or boolean\); column 'x' \(event\) of the pandas "
                                             r"DataFrame given as train has 4 other values, e\.g\. 2$"):
        sm.cumulative_dynamic_auc(df, train=two, times=[0.5], **params)
    with pytest.raises(sm.ColumnError, match=r"^column 'x' \(event\) of the pandas DataFrame given as train has 1 "
                                             r"NULL value"):
        sm.concordance_index_ipcw(df, train=two.assign(x=[None] + [1.0] * 11), **params)
    with pytest.raises(sm.MissingColumnError, match=r"^column 'x' \(event\) not found in the pandas DataFrame given "
                                                    r"as train"):
        sm.concordance_index_ipcw(df, train=two.drop(columns="x"), **params)


@pytest.mark.parametrize("dialect, schema, col, read", [
    ("snowflake", ["LABEL", "SCORE"], "label", "LABEL"),  # folded to upper case, as Snowflake does
    ("snowflake", ["label", "LABEL"], "label", "label"),  # a column of that exact spelling: exact
    ("snowflake", ["Label"], "label", "label"),  # Snowflake reads label as LABEL: no such column
    ("postgres", ["label"], "Label", "label"),  # folded to lower case
    ("postgres", ["LABEL"], "Label", "Label"),
    ("duckdb", ["Label"], "LABEL", "Label"),  # any case
    ("duckdb", ["Label", "LABEL"], "label", "label"),  # two columns match: none chosen
    ("clickhouse", ["Label"], "label", "label"),  # case-sensitive
    ("snowflake", ["MY COL"], "my col", "my col"),  # a name that cannot be written unquoted is exact
])
def test_a_name_reads_as_the_warehouse_reads_it_unquoted(dialect, schema, col, read):
    assert as_the_engine_reads(col, dict.fromkeys(schema, "DOUBLE"), dialect) == read


def test_lower_case_names_find_their_columns_and_exact_names_win():
    d = pd.DataFrame({"Label": [0, 1, 0, 1], "SCORE": [0.1, 0.4, 0.35, 0.8], "Country": ["a", "a", "b", "b"]})
    assert sm.auc(d, label="label", score="score") == sm.auc(d, label="Label", score="SCORE") == 1.0
    sliced = sm.auc(d, label="label", score="score", by=["country"])
    assert list(sliced.columns[:2]) == ["Country", "auc"] and sliced["auc"].tolist() == [1.0, 1.0]
    with pytest.raises(sm.MissingColumnError, match="did you mean 'Label'"):
        sm.auc(d, label="lable", score="score")
