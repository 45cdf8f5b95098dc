"""The parallel plan of the AUC family (auc, gini, rela_impr): exact, and with no window over all
the distinct scores on a distributed engine.

1. monotone_bucket never puts a larger score in a lower bucket (powers of two and their neighbours,
   subnormals, +-0, the largest doubles, infinities, random magnitudes over 600 decades), and keeps
   the largest bucket small on the score distributions of real models.
2. The parallel plan gives the aggregate plan's value (itself checked against scikit-learn
   elsewhere) on ties, weights, slices, infinities and weights near the double's limits.
3. Spark's physical plan: every window over an Exchange SinglePartition reads the table of one row
   per bucket, never the rows or the distinct scores.
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from conftest import make_binary_frame, unreachable
from sqlmetrics.sqltext import finish
from sqlmetrics.target import Target
from sqlmetrics.templates import render_macro

PARALLEL = ["auc", "gini", "rela_impr"]


def buckets(con, table: str = "t") -> str:
    e = render_macro("binary_exponent", x="x")
    return f"SELECT x, {render_macro('monotone_bucket', x='x', e='e')} AS b FROM (SELECT x, {e} AS e FROM {table})"


def test_a_larger_score_never_has_a_lower_bucket():
    rng = np.random.default_rng(0)
    powers = [2.0 ** k for k in range(-1022, 1024)]
    x = np.concatenate([
        powers, [np.nextafter(v, -np.inf) for v in powers], [np.nextafter(v, np.inf) for v in powers],
        [0.0, -0.0, 5e-324, 1e-310, 1.7976931348623157e308, np.inf, -np.inf],
        rng.standard_normal(20000) * 10.0 ** rng.integers(-300, 300, 20000), rng.random(20000)])
    x = np.concatenate([x, -x])
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT unnest(?::DOUBLE[]) AS x", [list(map(float, x))])
    rows = con.execute(buckets(con) + " ORDER BY x").fetchall()
    assert len(rows) == len(x)
    for (x1, b1), (x2, b2) in zip(rows, rows[1:]):
        assert b1 <= b2 and (x1 != x2 or b1 == b2), (x1, b1, x2, b2)


N = 1_000_000
_RNG = np.random.default_rng(3)
DISTRIBUTIONS = {
    "uniform": _RNG.random(N),
    "log-normal CTR (mean 0.02)": np.exp(_RNG.normal(np.log(0.02) - 0.5, 1.0, N)),
    "bimodal": np.concatenate([_RNG.normal(0.1, 0.02, N // 2), _RNG.normal(0.9, 0.02, N - N // 2)]),
    "0.1% outliers at +-1e9": np.concatenate([_RNG.random(N - 1000), _RNG.choice([-1e9, 1e9], 1000)]),
    "rounded to 3 decimals": np.round(_RNG.random(N), 3),
    "30% at one value": np.concatenate([np.full(3 * N // 10, 0.5), _RNG.random(N - 3 * N // 10)]),
}


@pytest.mark.parametrize("name", list(DISTRIBUTIONS))
def test_no_bucket_holds_more_than_2_percent_of_the_distinct_scores(name):
    """The windows of the parallel plan run over the distinct scores of a bucket (a tie group, however
    large, is one row there); the rows of a bucket that are not one tie group stay under 2% too."""
    con = duckdb.connect()
    scores = pd.DataFrame({"x": DISTRIBUTIONS[name]})
    con.register("scores", scores)
    con.execute("CREATE TABLE t AS SELECT x, COUNT(*) AS n FROM scores GROUP BY x")
    share = con.execute(f"""
        SELECT MAX(distinct_scores) / SUM(distinct_scores), MAX(rows_beyond_largest_tie) / {N}
        FROM (SELECT b, COUNT(*) AS distinct_scores, SUM(n) - MAX(n) AS rows_beyond_largest_tie
              FROM ({buckets(con)}) AS bx JOIN t USING (x) GROUP BY b)""").fetchone()
    assert share[0] <= 0.02 and share[1] <= 0.02, share


def run_plan(con, name: str, plan: str, **params) -> list:
    sql = finish(render_macro(name, Target(), relation="df", plan=plan, **params), {}, Target())
    return con.execute(sql).fetchall()


@pytest.mark.parametrize("name", PARALLEL)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("by", [[], ["c"]])
@pytest.mark.parametrize("ties", [True, False])
def test_the_parallel_plan_equals_the_aggregate_plan(name, weighted, by, ties):
    df = make_binary_frame(n=3000, seed=21, ties=ties)
    df["s"] = df["s"] * 10.0 ** np.random.default_rng(2).integers(-3, 3, len(df))
    df.loc[:20, "s"] = np.inf
    df.loc[20:40, "s"] = -np.inf
    df.loc[40:60, "s"] = 0.0
    params = dict(label="y", score="s", weight="w" if weighted else None, by=by)
    if name == "rela_impr":
        params["base_score"] = "s2"
    con = duckdb.connect()
    con.register("df", df)
    got, want = run_plan(con, name, "parallel", **params), run_plan(con, name, "aggregate", **params)
    assert len(got) == len(want)
    for g, w in zip(sorted(got, key=str), sorted(want, key=str)):
        numbers = [i for i, v in enumerate(w) if not isinstance(v, str)]
        assert [g[i] for i in range(len(g)) if i not in numbers] == [w[i] for i in range(len(w)) if i not in numbers]
        assert [g[i] for i in numbers] == pytest.approx([w[i] for i in numbers], rel=1e-12, abs=1e-15)


def test_the_parallel_plan_keeps_huge_and_tiny_weights_in_range():
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"y": rng.integers(0, 2, 500), "s": rng.random(500)})
    con = duckdb.connect()
    for scale in (1e300, 1e-300):
        df["w"] = rng.random(500) * scale
        con.register("df", df)
        got = run_plan(con, "auc", "parallel", label="y", score="s", weight="w")[0][0]
        assert got == pytest.approx(roc_auc_score(df.y, df.s, sample_weight=df.w / scale), rel=1e-12)


@pytest.fixture(scope="module")
def spark():
    try:
        from pyspark.sql import SparkSession
        session = (SparkSession.builder.master("local[2]").appName("sqlmetrics-parallel-plan")
                   .config("spark.sql.shuffle.partitions", "4").config("spark.ui.enabled", "false").getOrCreate())
    except Exception as e:  # no PySpark or no Java
        unreachable("Spark", e)
    session.createDataFrame(make_binary_frame(n=2000, seed=4)).createOrReplaceTempView("preds")
    yield session


def single_task_windows(plan: str) -> list[str]:
    """The operators that windows running in one task read (benchmarks/spark_plans.py's reader)."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "spark_plans.py"
    spec = importlib.util.spec_from_file_location("spark_plans", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.funnels(plan)


@pytest.mark.parametrize("name", PARALLEL)
def test_on_spark_no_window_spans_the_distinct_scores(spark, name):
    params = dict(label="y", score="s") | ({"base_score": "s2"} if name == "rela_impr" else {})
    sql = sm.render(name, "preds", dialect="spark", pretty=False, **params)
    plan = spark.sql(sql)._jdf.queryExecution().executedPlan().toString()
    gathered = single_task_windows(plan)
    assert gathered, "expected the window over the per-bucket table"
    for operator in gathered:
        assert re.match(r"(Hash|Sort|ObjectHash)Aggregate\(keys?=\[sm_bucket", operator), (operator, plan)
    assert sm.auc(spark.table("preds"), label="y", score="s") == pytest.approx(
        roc_auc_score(*make_binary_frame(n=2000, seed=4)[["y", "s"]].T.values), rel=1e-12)
