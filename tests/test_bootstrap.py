"""sm.bootstrap: the Poisson bootstrap in SQL.

References: a numpy Poisson bootstrap of the same data (scikit-learn's metric with Poisson(1)
sample weights), whose standard error the SQL one must match within 10%; coverage of the intervals
on simulated binormal data; determinism; the units (rows, clusters, GAUC's groups).
"""
from __future__ import annotations

import doctest
import math

import numpy as np
import pandas as pd
import pytest
import sqlglot
from scipy.stats import norm
from sklearn.metrics import log_loss, roc_auc_score

import sqlmetrics as sm
import importlib
from sqlmetrics.errors import ParameterError
from sqlmetrics.registry import METRICS
from sqlmetrics.dialects import DIALECTS
from sqlmetrics.templates import SQL_DIR, namespace


def frame(rng, n, ties=False):
    y = rng.integers(0, 2, n)
    s = rng.normal(y * 0.7, 1.0)
    return pd.DataFrame({"y": y, "s": np.round(s, 1) if ties else s, "p": 1 / (1 + np.exp(-s)),
                         "w": rng.integers(1, 3, n).astype(float), "user": rng.integers(0, n // 8, n)})


def numpy_bootstrap(statistic, n_units, n_boot, seed, unit_of_row=None):
    """Standard error of `statistic(weights)` over Poisson(1) weights per unit."""
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(n_boot):
        k = rng.poisson(1.0, n_units)
        weights = k if unit_of_row is None else k[unit_of_row]
        try:
            values.append(statistic(weights))
        except ValueError:  # a replicate with one class
            pass
    return np.std(values, ddof=1)


@pytest.mark.parametrize("ties", [False, True], ids=["continuous", "ties"])
def test_standard_error_matches_a_numpy_poisson_bootstrap(ties):
    df = frame(np.random.default_rng(4 + ties), 3000, ties=ties)
    got = sm.bootstrap("auc", df, label="y", score="s", weight="w", n_boot=1000)
    assert got["estimate"] == pytest.approx(roc_auc_score(df.y, df.s, sample_weight=df.w), abs=1e-12)
    want = numpy_bootstrap(lambda k: roc_auc_score(df.y, df.s, sample_weight=df.w * k), len(df), 1000, 1)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    assert got["n_boot"] == 1000
    assert got["ci_low"] < got["estimate"] < got["ci_high"]


def test_a_metric_other_than_auc_and_its_cluster():
    df = frame(np.random.default_rng(8), 4000)
    got = sm.bootstrap("log_loss", df, label="y", score="p", cluster="user", n_boot=800)
    users, row_user = np.unique(df.user, return_inverse=True)
    want = numpy_bootstrap(lambda k: log_loss(df.y, df.p, sample_weight=k), len(users), 800, 2, row_user)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    by_row = sm.bootstrap("log_loss", df, label="y", score="p", n_boot=800)
    assert by_row["estimate"] == pytest.approx(log_loss(df.y, df.p), rel=1e-12)
    assert got["estimate"] == pytest.approx(log_loss(df.y, df.p), rel=1e-12)


def test_gauc_resamples_groups():
    df = frame(np.random.default_rng(9), 6000)
    got = sm.bootstrap("gauc", df, label="y", score="s", group="user", n_boot=600)
    groups = [(g.y.to_numpy(), g.s.to_numpy()) for _, g in df.groupby("user") if g.y.nunique() == 2]
    aucs = np.array([roc_auc_score(y, s) for y, s in groups])
    sizes = np.array([len(y) for y, _ in groups])
    assert got["estimate"] == pytest.approx((aucs * sizes).sum() / sizes.sum(), rel=1e-12)
    want = numpy_bootstrap(lambda k: (k * sizes * aucs).sum() / (k * sizes).sum(), len(groups), 2000, 3)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    with pytest.raises(ParameterError, match="weighting 'impressions' or 'clicks'"):
        sm.bootstrap("gauc", df, label="y", score="s", group="user", weighting="uniform")


def test_same_seed_same_interval_other_seed_other_interval():
    df = frame(np.random.default_rng(1), 500)
    a = sm.bootstrap("auc", df, label="y", score="s", n_boot=200, seed=7)
    # the same draws; the engine's parallel sums may differ in the last bit
    assert sm.bootstrap("auc", df, label="y", score="s", n_boot=200, seed=7) == pytest.approx(a, rel=1e-12)
    b = sm.bootstrap("auc", df, label="y", score="s", n_boot=200, seed=8)
    assert b["estimate"] == a["estimate"] and b["std_error"] != a["std_error"]
    # the order of the rows does not matter (identical rows are exchangeable)
    assert sm.bootstrap("auc", df.iloc[::-1], label="y", score="s", n_boot=200, seed=7) == pytest.approx(a)


def test_identical_rows_resample_on_their_own():
    """Ten copies of each row: resampled as ten rows each, so the standard error is that of the
    tenfold data (1/sqrt(10) of the original's), not the original's."""
    df = frame(np.random.default_rng(2), 400, ties=True)[["y", "s"]]
    once = sm.bootstrap("auc", df, label="y", score="s", n_boot=1000)
    tenfold = sm.bootstrap("auc", pd.concat([df] * 10), label="y", score="s", n_boot=1000)
    assert tenfold["std_error"] == pytest.approx(once["std_error"] / math.sqrt(10), rel=0.15)


def test_slices_and_replicates_without_a_value():
    """A replicate that loses a class has no AUC: left out and counted (n_undefined), said in a warning,
    and where more than 10% are left out the slice has no interval (what remains is not the sample)."""
    df = frame(np.random.default_rng(3), 2000)
    df["c"] = np.where(df.index < 1990, "big", "tiny")
    df.loc[df.c == "tiny", "y"] = [1] + [0] * 9  # one positive: a third of the replicates lose it
    with pytest.warns(UserWarning, match=r"bootstrap of auc: replicates without a value left out \(c='tiny': \d+ "
                                         r"of 300\).*no interval where more than 10%"):
        got = sm.bootstrap("auc", df, label="y", score="s", by="c", n_boot=300).set_index("c")
    big = df[df.c == "big"]
    want = numpy_bootstrap(lambda k: roc_auc_score(big.y, big.s, sample_weight=k), len(big), 1000, 5)
    assert got.loc["big", "std_error"] == pytest.approx(want, rel=0.10)
    assert got.loc["big", ["n_boot", "n_undefined"]].tolist() == [300, 0]
    tiny = got.loc["tiny"]
    assert 0 < tiny.n_boot < 270 and tiny.n_boot + tiny.n_undefined == 300  # 10 rows: replicates lose a class
    assert tiny[["std_error", "ci_low", "ci_high"]].isna().all() and tiny.estimate == pytest.approx(roc_auc_score(
        df[df.c == "tiny"].y, df[df.c == "tiny"].s))


def test_an_interval_of_the_replicates_that_kept_a_rare_class_is_refused():
    """One positive in ten rows: 37% of the replicates lose it, and those that keep it rank it first
    (AUC 1): their interval would be [1, 1]. Refused, saying why; a few lost replicates are said."""
    df = pd.DataFrame({"y": [1] + [0] * 9, "s": [0.9] + [i / 10 for i in range(9)]})
    with pytest.raises(sm.UndefinedMetricError, match=r"bootstrap of auc: \d+ of 200 replicates gave no value, as a "
                                                      r"resample can lose what auc needs \(it needs both positive"):
        sm.bootstrap("auc", df, label="y", score="s", n_boot=200)
    # 4 positives among 40 rows: 2% of the replicates lose them all, said; the interval is the others'
    many = pd.DataFrame({"y": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] * 4, "s": [(7 * i) % 40 / 40 for i in range(40)]})
    with pytest.warns(UserWarning, match=r"replicates without a value left out \(\d+ of 1000\)"):
        got = sm.bootstrap("auc", many, label="y", score="s", n_boot=1000)
    assert 0 < got["n_undefined"] <= 100 and got["n_boot"] + got["n_undefined"] == 1000
    assert got["ci_low"] < got["estimate"] < got["ci_high"]


def test_intervals_cover_the_true_auc():
    """400 binormal samples of 300 rows (400 slices of one call), 95% percentile intervals of 300
    replicates: they must cover the true AUC, Phi(1/sqrt(2)), in 93-97% of the samples."""
    rng = np.random.default_rng(77)
    sims, n = 400, 300
    y = rng.integers(0, 2, sims * n)
    df = pd.DataFrame({"sim": np.repeat(np.arange(sims), n), "y": y, "s": rng.normal(y * 1.0, 1.0)})
    got = sm.bootstrap("auc", df, label="y", score="s", by="sim", n_boot=300)
    truth = norm.cdf(1 / math.sqrt(2))
    coverage = ((got.ci_low <= truth) & (truth <= got.ci_high)).mean()
    assert 0.93 <= coverage <= 0.97, coverage


def test_gauc_intervals_cover_the_true_value():
    """400 samples of 80 users with 4 binormal impressions each: every user's AUC estimates
    Phi(1/sqrt(2)) without bias, so GAUC does too; the 95% intervals from resampling users must cover
    it in 93-97% of the samples."""
    rng = np.random.default_rng(78)
    sims, users, per = 400, 80, 4
    y = rng.integers(0, 2, sims * users * per)
    df = pd.DataFrame({"sim": np.repeat(np.arange(sims), users * per), "u": np.repeat(np.arange(sims * users), per),
                       "y": y, "s": rng.normal(y * 1.0, 1.0)})
    got = sm.bootstrap("gauc", df, label="y", score="s", group="u", by="sim", n_boot=200)
    truth = norm.cdf(1 / math.sqrt(2))
    coverage = ((got.ci_low <= truth) & (truth <= got.ci_high)).mean()
    assert 0.93 <= coverage <= 0.97, coverage


def ranking_run(rng, queries):
    """Ten items per query, graded 0-2, scores that follow the grades with noise."""
    relevance = rng.integers(0, 3, queries * 10)
    return pd.DataFrame({"query": np.repeat(np.arange(queries), 10), "item": np.tile(np.arange(10), queries),
                         "score": relevance + rng.normal(0, 1.5, queries * 10), "relevance": relevance})


def test_ranking_metrics_resample_queries():
    run = ranking_run(np.random.default_rng(12), 800)
    per_query = sm.ndcg(run, k=5, per_query=True)["ndcg"].to_numpy()
    got = sm.bootstrap("ndcg", run, k=5, n_boot=1000)
    assert got["estimate"] == pytest.approx(sm.ndcg(run, k=5), rel=1e-12)
    want = numpy_bootstrap(lambda k: (k * per_query).sum() / k.sum(), len(per_query), 2000, 6)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    # recall, micro-averaged: the queries' hits over their R, both reweighed
    recall = sm.recall_at_k(run, k=3, per_query=True)
    hits, r = (recall["recall_at_k"] * recall["n_relevant"]).to_numpy(), recall["n_relevant"].to_numpy()
    got = sm.bootstrap("recall_at_k", run, k=3, average="micro", n_boot=1000)
    assert got["estimate"] == pytest.approx(sm.recall_at_k(run, k=3, average="micro"), rel=1e-12)
    want = numpy_bootstrap(lambda k: (k * hits).sum() / (k * r).sum(), len(r), 2000, 7)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    with pytest.raises(ParameterError, match="takes no cluster"):
        sm.bootstrap("ndcg", run, k=5, cluster="item")


def test_ndcg_intervals_cover_the_true_value():
    """1,000 samples of 100 queries; the true NDCG@10 is the mean over 400,000 queries of the same law
    (its own standard error, ~3e-4, is a fiftieth of the intervals' width). The 95% intervals must
    cover it in 93-97% of the samples, and the standard errors must be those of the estimates."""
    truth = sm.ndcg(ranking_run(np.random.default_rng(1), 400_000), k=10)
    sims, queries = 1000, 100
    run = ranking_run(np.random.default_rng(79), sims * queries).assign(sim=lambda f: f["query"] // queries)
    got = sm.bootstrap("ndcg", run, k=10, by="sim", n_boot=200)
    coverage = ((got.ci_low <= truth) & (truth <= got.ci_high)).mean()
    assert 0.93 <= coverage <= 0.97, coverage
    assert got.std_error.mean() == pytest.approx(got.estimate.std(), rel=0.05)


def test_the_macro_knows_the_ranking_metrics():
    """sql/bootstrap.sql resamples queries for the registry's ranking metrics, and only for them (the
    catalogue macro it asks is written from the registry, as dbt runs it)."""
    assert "sqlmetrics.per_query_metric(metric)" in (SQL_DIR / "bootstrap.sql").read_text()
    for name, m in METRICS.items():
        assert namespace().per_query_metric(name) is m.per_query, name


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_renders_one_select_in_every_dialect(dialect):
    """sm.render("bootstrap", ...) in each dialect: one SELECT that parses there (the engines that run
    here also run it: tests/test_engines.py), with the dialect's own hash of the units."""
    spelled = {"duckdb": "HASH(", "spark": "XXHASH64(", "databricks": "XXHASH64(", "clickhouse": "CITYHASH64(",
               "postgres": "HASHTEXTEXTENDED(", "sqlite": "DENSE_RANK()", "bigquery": "FARM_FINGERPRINT(",
               "snowflake": "HASH(", "trino": "XXHASH64(", "redshift": "FNV_HASH(", "mysql": "CRC32("}
    for metric, data, params in (("auc", "analytics.preds", dict(label="clicked", score="pctr", weight="w")),
                                 ("ndcg", "analytics.run", dict(qrels="analytics.qrels", k=10, by=["market"]))):
        sql = sm.render("bootstrap", data, metric=metric, dialect=dialect, n_boot=200, **params)
        assert len(sqlglot.parse(sql, read=dialect)) == 1 and isinstance(sqlglot.parse_one(sql, read=dialect),
                                                                           sqlglot.exp.Select)
        assert spelled[dialect] in sql.upper(), dialect
    with pytest.raises(ParameterError, match="needs metric="):
        sm.render("bootstrap", "t", label="y", score="s")


def test_the_docstring_example():
    assert doctest.testmod(importlib.import_module("sqlmetrics.resampling")).failed == 0


def test_what_it_does_not_take():
    df = frame(np.random.default_rng(0), 50)
    with pytest.raises(ParameterError, match="ranking metric or a metric of one value"):
        sm.bootstrap("roc_curve", df, label="y", score="s")
    with pytest.raises(ParameterError, match="n_boot must be >= 2"):
        sm.bootstrap("auc", df, label="y", score="s", n_boot=1)
    # bounds checked before rendering (10**9 overflowed a 32-bit integer inside DuckDB)
    with pytest.raises(ParameterError, match="n_boot must be <= 100,000; got 1,000,000,000"):
        sm.bootstrap("auc", df, label="y", score="s", n_boot=10 ** 9)
    with pytest.raises(ParameterError, match="n_resamples must be <= 1,000,000"):
        sm.compare("gauc", df.assign(s2=df.s), "s2", label="y", score="s", group="user", test="randomization",
                   n_resamples=10 ** 7)
    with pytest.raises(ParameterError, match="unknown metric|Unknown metric|no metric"):
        sm.bootstrap("no_such_metric", df)
