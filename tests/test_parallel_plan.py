"""The parallel plans (every metric whose plan has a parallel form): exact, and with no step that
reads all the rows in one task on a distributed engine.

1. monotone_bucket never puts a larger score in a lower bucket (powers of two and their neighbours,
   subnormals, +-0, the largest doubles, infinities, random magnitudes over 600 decades), gives the
   same bucket on Spark as on DuckDB, and keeps the largest bucket small on the score distributions
   of real models.
2. The parallel plan gives the aggregate plan's value (itself checked against scikit-learn
   elsewhere) on ties, weights, slices, infinities and weights near the double's limits.
3. Spark's task metrics: with 8 shuffle partitions no task reads more than its share of the rows,
   and the single-window plan the parallel one replaces is caught reading them all. The metrics
   with a `by` that join per-slice values back to a slice's rows (auc_ci, auc_compare, compare,
   det_curve, best_threshold, ks_statistic, auc with bins, d2_absolute_error, explained_variance)
   also on Parquet tables the optimizer takes for 4M rows, where it broadcasts none of the tables a
   slice's rows meet in a join; there too the bootstrap of AUC, sliced and on the whole data.
"""
from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from conftest import LONG_TABLE, TWO_WINDOWS, args, make_binary_frame, spark_plans, spark_share, unreachable
from sqlmetrics.registry import METRICS
from sqlmetrics.sqltext import finish
from sqlmetrics.target import Target
from sqlmetrics.templates import render_macro



def binned(name: str) -> bool:
    """A metric of probability bins (calibration): strategy='quantile' is its other plan."""
    return METRICS[name].takes("strategy") and "quantile" in METRICS[name].param("strategy").choices


#: every metric of the binary frame with a parallel plan, and the parameters that reach it
#: (multiclass_auc's plans: tests/test_multiclass_scores.py)
PARALLEL = [(name, extra) for name in sorted(METRICS)
            if METRICS[name].plan and METRICS[name].plan.parallel and name not in LONG_TABLE
            for extra in ([{}, {"strategy": "quantile", "n_bins": 7}] if binned(name)
                          else [{}, {"strategy": "by_group"}] if name == "uplift_at_k"
                          else [{}, {"bins": 9}, {"max_fpr": 0.3}] if name == "auc"
                          else [{}, {"criterion": "youden"}] if name == "best_threshold" else [{}])]


def buckets(target: Target = Target(), table: str = "t") -> str:
    e = render_macro("binary_exponent", target, x="x")
    return f"SELECT x, {render_macro('monotone_bucket', target, x='x', e='e')} AS b FROM (SELECT x, {e} AS e FROM {table}) AS xe"


def awkward_scores() -> np.ndarray:
    """Powers of two and their neighbours, subnormals, +-0, the largest doubles, infinities, random
    magnitudes over 600 decades, and their negatives."""
    rng = np.random.default_rng(0)
    powers = [2.0 ** k for k in range(-1022, 1024)]
    x = np.concatenate([
        powers, [np.nextafter(v, -np.inf) for v in powers], [np.nextafter(v, np.inf) for v in powers],
        [0.0, -0.0, 5e-324, 1e-310, 1.7976931348623157e308, np.inf, -np.inf],
        rng.standard_normal(20000) * 10.0 ** rng.integers(-300, 300, 20000), rng.random(20000)])
    return np.concatenate([x, -x])


def duckdb_buckets(x: np.ndarray) -> list[tuple[float, int]]:
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT unnest(?::DOUBLE[]) AS x", [list(map(float, x))])
    return con.execute(buckets() + " ORDER BY x, b").fetchall()


def test_a_larger_score_never_has_a_lower_bucket():
    x = awkward_scores()
    rows = duckdb_buckets(x)
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
              FROM ({buckets()}) AS bx JOIN t USING (x) GROUP BY b)""").fetchone()
    assert share[0] <= 0.02 and share[1] <= 0.02, share


def run_plan(con, name: str, plan: str, **params) -> list:
    sql = finish(render_macro(name, Target(), relation="df", plan=plan, **params), {}, Target())
    return con.execute(sql).fetchall()


@pytest.mark.parametrize("name, extra", PARALLEL, ids=[f"{n}-{'-'.join(map(str, e.values())) or 'exact'}" for n, e in PARALLEL])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("by", [[], ["c"]])
@pytest.mark.parametrize("ties", [True, False])
def test_the_parallel_plan_equals_the_aggregate_plan(name, extra, weighted, by, ties):
    df = make_binary_frame(n=3000, seed=21, ties=ties)
    df.loc[::7, "c"] = None  # a NULL slice
    magnitude = 10.0 ** np.random.default_rng(2).integers(-3, 3, len(df))
    df["t"] = df["t"] * magnitude
    if not binned(name):  # else probabilities, in [0, 1]
        df["s"] = df["s"] * magnitude
        df.loc[:20, "s"] = np.inf
        df.loc[20:40, "s"] = -np.inf
    df.loc[40:60, "s"] = 0.0
    df.loc[60:900, "t"] = 2.5  # a spike of equal targets
    con = duckdb.connect()
    con.register("df", df)
    if name in TWO_WINDOWS:  # drift: the current window, other rows moved; a column of infinities and spikes
        con.register("df_current", df.iloc[::2].assign(s=lambda d: d["s"] * 0.9, t=lambda d: d["t"] + 1))
        params = {"current": "df_current", "columns": ["s", "t"], "categorical": ["cls"], "by": by} | (
            {"weight": "w", "binning": "uniform"} if weighted else {})
    else:
        weighted = weighted and "weight" in {p.name for p in METRICS[name].params}
        params = dict(args(name, weight=weighted), by=by, **extra)
    got, want = run_plan(con, name, "parallel", **params), run_plan(con, name, "aggregate", **params)
    assert len(got) == len(want)
    for g, w in zip(sorted(got, key=str), sorted(want, key=str)):
        numbers = [i for i, v in enumerate(w) if isinstance(v, float)]
        assert [g[i] for i in range(len(g)) if i not in numbers] == [w[i] for i in range(len(w)) if i not in numbers]
        # abs: a difference of two weight sums of ~3000 (tn = neg - fp) is a rounding residue of ~1e-12
        assert [g[i] for i in numbers] == pytest.approx([w[i] for i in numbers], rel=1e-12, abs=1e-9, nan_ok=True)


def test_the_parallel_plan_keeps_huge_and_tiny_weights_in_range():
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"y": rng.integers(0, 2, 500), "s": rng.random(500)})
    con = duckdb.connect()
    for scale in (1e300, 1e-300):
        df["w"] = rng.random(500) * scale
        con.register("df", df)
        got = run_plan(con, "auc", "parallel", label="y", score="s", weight="w")[0][0]
        assert got == pytest.approx(roc_auc_score(df.y, df.s, sample_weight=df.w / scale), rel=1e-12)


AUDIT = spark_plans()
AUDIT_ROWS, PARTITIONS = 20_000, 8


@pytest.fixture(scope="module")
def spark():
    try:
        session = AUDIT.session("local[2]", PARTITIONS)
    except Exception as e:  # no PySpark or no Java
        unreachable("Spark", e)
    AUDIT.register(_planned(session), AUDIT.tables(AUDIT_ROWS))
    yield session
    # stopped, as every module's session is: under xdist's work stealing the next test on this worker
    # may be Spark Connect's, whose server must start a JVM session of its own
    session.stop()


def _planned(session):
    """`session` with the audit's settings, whichever module's session Spark gave back."""
    session.conf.set("spark.sql.shuffle.partitions", str(PARTITIONS))
    session.conf.set("spark.sql.adaptive.enabled", "false")
    return session


#: the Parquet audit's files weigh, to the optimizer, what those of 4M rows would
SCALE = 200
#: the sliced statistics, which join per-slice results back to the rows or units; benchmarks/spark_plans.py
#: --statistics also measures compare's Wilcoxon test (the same rows' plan as its t test) and the bootstrap of
#: ndcg (its queries' values, spread as compare ndcg's)
STATISTICS = [(label, table, params) for label, table, params in AUDIT.statistics()
              if label in ("auc_ci", "auc_compare", "compare gauc", "compare ndcg", "bootstrap auc")]
#: the metrics that join a per-slice value (a curve's ends, the best value, the score range of bins=,
#: the median, the means) back to a slice's points or rows, and the sliced statistics
SLICE_JOINS = STATISTICS + [(label, table, params) for label, table, params in AUDIT.calls()
                            if label in ("det_curve", "best_threshold", "ks_statistic", "auc bins=1000",
                                         "d2_absolute_error", "explained_variance")]


@pytest.fixture(scope="module")
def spark_parquet(spark, tmp_path_factory):
    """A session of the same Spark whose tables are Parquet files (written by Spark, read back) that the
    optimizer takes for SCALE times their size: it plans the joins it plans for millions of rows. Spark
    DataFrames of pandas frames have exact small sizes, so it broadcasts any side of a join there,
    which hides a join that sends all the rows of a slice to one task."""
    session = _planned(spark.newSession())
    AUDIT.register(session, AUDIT.read_by(SLICE_JOINS, AUDIT.tables(AUDIT_ROWS)), str(tmp_path_factory.mktemp("parquet")),
                   SCALE)
    yield session


def _metric(label: str) -> str:
    return label.split(" ")[0]


#: the first call with a parallel plan of each family (binary, regression, survival, uplift, ...),
#: whose whole-data call is audited too
_WHOLE_DATA = {METRICS[_metric(label)].section: label for label, *_ in reversed(AUDIT.calls())
               if (m := METRICS.get(_metric(label))) and m.plan and m.plan.parallel}
#: the calls audited, a sample for CI's time (the slowest tests here): one call in four of each family
#: (conftest.spark_share), its first always, sliced by c (two values), and that first's whole-data call
#: too (their plans choose steps by the data, and the same templates' steps). A step that gathers every
#: row of the whole-data call (a window without PARTITION BY) is one partitioned by the slice in the sliced
#: call: half the rows in one task, caught there too (test_on_spark_the_single_window_plan_is_caught
#: shows it both ways); `benchmarks/spark_plans.py` audits every whole-data call.
_CALLS = [c for c in AUDIT.calls() if c[1] != "histogram"]  # histogram_auc reads 50 stored buckets, not rows
_SAMPLED = spark_share(_CALLS, lambda c: _metric(c[0]), every=4)
AUDITED = [(label, table, params, by) for label, table, params in _CALLS
           for by in ([[], ["c"]] if label in _WHOLE_DATA.values() else [["c"]] if (label, table, params) in _SAMPLED
                      else [])]


@pytest.mark.parametrize("label, table, params, by", AUDITED, ids=[f"{a[0]}-{'by' if a[3] else 'all'}" for a in AUDITED])
def test_on_spark_no_task_reads_more_than_its_share_of_the_rows(spark, label, table, params, by):
    """Spark's task metrics: with 8 shuffle partitions, a spread step's tasks read about 1/8 of the
    rows their stage reads each (the values are distinct, in one power-of-two range: at most 1024
    buckets, so that the tables of one row per bucket, which one task may read, stay far below 30%
    of 20,000 rows). A step that gathers all the rows, or a slice of two (by), reads 100% (50%) in
    one task. A share of the stage's rows, not of the table's: concordance_index's steps read each
    row once per bit of its time position (16 copies of 20,000 rows), about 1/8 of them per task."""
    sql = sm.render(_metric(label), table, dialect="spark", pretty=False, **params, **({"by": by} if by else {}))
    assert AUDIT.task_reads(spark, sql).busiest_share(AUDIT_ROWS) <= 0.3


#: the largest table a join may broadcast: one row per (slice, score bucket), 2 slices of at most 1024
#: buckets (the scores lie in one power-of-two range), or per (slice, sm_part: a row's hash in 0 .. 1023);
#: the per-slice tables and the generated ones (Student's t terms: 1200 rows) are smaller
SMALL_TABLE = 2 * 1024


@pytest.mark.parametrize("label, table, params", SLICE_JOINS, ids=[s[0] for s in SLICE_JOINS])
def test_on_parquet_tables_no_sliced_join_funnels_the_rows(spark_parquet, label, table, params):
    """Spark's task metrics on Parquet tables planned as 4M rows: no task reads more than 2/8 of the
    rows its stage reads (hash partitioning spreads about 1/8 to each; a join's task reads 1/8 of
    each side), and no join broadcasts more than a small table. Joined back to a slice's rows on the
    slice alone, a per-slice table sent all of the slice's rows to one task: 50% with two slices."""
    sql = sm.render(_metric(label), table, dialect="spark", pretty=False, by=["c"], **params)
    reads = AUDIT.task_reads(spark_parquet, sql)
    assert reads.busiest_share(AUDIT_ROWS) <= 2 / PARTITIONS
    assert max(reads.broadcasts, default=0) <= SMALL_TABLE


def test_on_parquet_tables_the_bootstrap_of_the_whole_data_spreads_its_rows(spark_parquet):
    """The bootstrap of AUC orders the rows once for all its replicates: one window over that order
    read every row in one task; its parallel plan orders them within score buckets."""
    label, table, params = next(s for s in STATISTICS if s[0] == "bootstrap auc")
    sql = sm.render("bootstrap", table, dialect="spark", pretty=False, **params)
    assert AUDIT.task_reads(spark_parquet, sql).busiest_share(AUDIT_ROWS) <= 2 / PARTITIONS


def test_on_spark_every_score_gets_the_bucket_it_gets_on_duckdb(spark):
    """So the balance measured above on DuckDB holds on Spark: the same bucket for every value."""
    x = awkward_scores()
    spark.createDataFrame(pd.DataFrame({"x": x})).createOrReplaceTempView("awkward")
    got = [tuple(r) for r in spark.sql(buckets(Target("spark"), "awkward") + " ORDER BY x, b").collect()]
    assert got == duckdb_buckets(x)


@pytest.mark.parametrize("name", ["auc", "roc_curve", "r2", "median_absolute_error", "concordance_index"])
def test_on_spark_the_single_window_plan_is_caught(spark, name):
    """The measure above sees the funnel of the plan the parallel one replaces: all the rows in one
    task on the whole data, half of them (a slice) when sliced by c."""
    params = dict(AUDIT.call(name)[1])
    for by, share in (([], 1.0), (["c"], 0.45)):
        sql = finish(render_macro(name, Target("spark"), relation="preds", plan="aggregate", by=by, **params), {},
                     Target("spark"))
        assert AUDIT.largest_task_read(spark, sql) >= share * AUDIT_ROWS, by
    assert sm.auc(spark.table("preds"), label="y", score="s") == pytest.approx(
        roc_auc_score(*AUDIT.tables(AUDIT_ROWS)["preds"][["y", "s"]].T.values), rel=1e-12)
