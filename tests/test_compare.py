"""sm.compare: paired tests of two systems, in SQL.

References: the per-query values of pytrec_eval (trec_eval) for each run and, for GAUC, the
per-group AUCs of scikit-learn, fed to scipy.stats.ttest_rel (t, p-value, interval) and
scipy.stats.wilcoxon (statistic, p-value: exact, permutation and normal regimes); a numpy sign-flip
randomization test (Monte-Carlo error); a weighted mean's standard error written from its
definition; rejection rates under the null.
"""
from __future__ import annotations

import doctest
import importlib
import math

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from scipy import stats
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from sqlmetrics.errors import ParameterError
from test_ranking_reference import make_frames, qrels_dict, run_dict

#: (pytrec_eval measure, sqlmetrics metric, its parameters)
MEASURES = [("P_5", "precision_at_k", {"k": 5}), ("recip_rank", "mrr", {}),
            ("ndcg_cut_10", "ndcg", {"k": 10, "gain": "linear"})]


def two_runs(seed: int, **frames):
    """A run and qrels with every TREC corner case (make_frames), and a second run of the same
    items with other (tied) scores, missing some queries of the first."""
    run, qrels = make_frames(seed, **frames)
    rng = np.random.default_rng(seed + 100)
    other = run.assign(score=rng.integers(0, 5, len(run)))
    dropped = set(rng.choice(run["query"].unique(), size=3, replace=False))
    return run, other[~other["query"].isin(dropped)].reset_index(drop=True), qrels


def trec_values(run, qrels, measure) -> dict:
    """query -> value for every judged query (a query absent from the run scores 0: missing='zero')."""
    res = pytrec_eval.RelevanceEvaluator(qrels_dict(qrels), {measure}).evaluate(run_dict(run))
    return {q: res.get(q, {}).get(measure, 0.0) for q in qrels_dict(qrels)}


def paired_values(run, other, qrels, measure):
    a, b = trec_values(run, qrels, measure), trec_values(other, qrels, measure)
    queries = sorted(a)
    return np.array([a[q] for q in queries]), np.array([b[q] for q in queries])


def close(got, want, rel=1e-9, abs_=1e-14):
    return got == pytest.approx(want, rel=rel, abs=abs_)


@pytest.mark.parametrize("measure,name,params", MEASURES, ids=[m[1] for m in MEASURES])
@pytest.mark.parametrize("seed", [1, 2])
def test_paired_t_matches_scipy(seed, measure, name, params):
    run, other, qrels = two_runs(seed)
    a, b = paired_values(run, other, qrels, measure)
    got = sm.compare(name, run, other, qrels, **params)
    want = stats.ttest_rel(a, b)
    interval = want.confidence_interval(0.95)
    assert got["n_units"] == len(a)
    assert close(got["estimate"], a.mean(), abs_=1e-12) and close(got["other_estimate"], b.mean(), abs_=1e-12)
    assert close(got["difference"], (a - b).mean(), abs_=1e-12)
    assert close(got["std_error"], stats.sem(a - b))
    assert close(got["statistic"], want.statistic) and close(got["p_value"], want.pvalue)
    assert close(got["ci_low"], interval.low) and close(got["ci_high"], interval.high)
    narrow = sm.compare(name, run, other, qrels, confidence=0.5, **params)
    assert close(narrow["ci_low"], want.confidence_interval(0.5).low)



@pytest.mark.parametrize("test", ["paired_t", "wilcoxon", "randomization"])
def test_wins_ties_losses_count_the_queries(test):
    """n_wins, n_ties, n_losses: the queries where the candidate's pytrec_eval value is above, equal
    to (up to rounding, 1e-12) and below the baseline's, as ranx counts win/tie/loss; every test."""
    run, other, qrels = two_runs(2)
    a, b = paired_values(run, other, qrels, "ndcg_cut_10")
    tied = np.isclose(a, b, rtol=0, atol=1e-12)
    got = sm.compare("ndcg@10", run, other, qrels, test=test, n_resamples=100)
    assert (got["n_wins"], got["n_ties"], got["n_losses"]) == (((a > b) & ~tied).sum(), tied.sum(), ((a < b) & ~tied).sum())
    assert 0 < got["n_ties"] < got["n_units"] and got["n_wins"] > 0 and got["n_losses"] > 0
    same = sm.compare("ndcg@10", run, run, qrels, test=test, n_resamples=100)
    assert (same["n_wins"], same["n_ties"], same["n_losses"]) == (0, same["n_units"], 0)

def test_student_distribution_over_degrees_of_freedom():
    """p-values and intervals across the exact (df < 300) and Hill (df >= 300) regimes: one-item
    runs carrying their own relevance, so that a query's DCG (linear gain) is that relevance."""
    rng = np.random.default_rng(12)
    rows = []
    for n in (2, 3, 4, 7, 30, 99, 100, 101, 299, 300, 301, 2000):
        for shift in (0.0, 0.05, 0.2, 0.6):
            d = rng.normal(shift, 1.0, n)
            rows += [(f"{n}/{shift}", f"q{i}", 5 + x / 2, 5 - x / 2) for i, x in enumerate(d)]
    frame = pd.DataFrame(rows, columns=["case", "query", "a", "b"]).assign(item="x", score=1.0)
    run = frame.rename(columns={"a": "relevance"}).drop(columns="b")
    other = frame.rename(columns={"b": "relevance"}).drop(columns="a")
    got = sm.compare("dcg", run, other, gain="linear", by="case")
    for case, part in frame.groupby("case"):
        want = stats.ttest_rel(part.a, part.b)
        row = got[got.case == case].iloc[0]
        assert close(row.statistic, want.statistic), case
        assert close(row.p_value, want.pvalue), case
        assert close(row.ci_low, want.confidence_interval(0.95).low), case


@pytest.mark.parametrize("regime", ["normal", "exact", "permutation"])
def test_wilcoxon_matches_scipy(regime):
    """scipy's default method: the normal approximation with the tie correction (ties, n > 13),
    the exact distribution (n <= 50, no ties or zero differences), every sign flip (n <= 13 with
    ties or zeros)."""
    if regime == "normal":
        run, other, qrels = two_runs(3)
        name, params, measure = "precision_at_k", {"k": 5}, "P_5"
    else:
        n = 30 if regime == "exact" else 11
        rng = np.random.default_rng(5)
        qrels = pd.DataFrame([(f"q{q}", f"d{i}", int(rng.integers(1, 30))) for q in range(n) for i in range(8)],
                             columns=["query", "item", "relevance"])
        run = qrels[["query", "item"]].assign(score=rng.random(len(qrels)))
        other = run.assign(score=rng.random(len(qrels)))
        if regime == "permutation":  # two queries ranked alike by both runs: zero differences
            other.loc[other["query"].isin(["q0", "q1"]), "score"] = run["score"]
        name, params, measure = "ndcg", {"gain": "linear"}, "ndcg"
    a, b = paired_values(run, other, qrels, measure)
    d = a - b
    ties = len(np.unique(np.abs(d[d != 0]))) < (d != 0).sum()
    assert {"normal": len(d) > 50, "exact": len(d) <= 50 and not ties and (d != 0).all(),
            "permutation": len(d) <= 13 and (ties or (d == 0).any())}[regime], "the data is not of this regime"
    got = sm.compare(name, run, other, qrels, test="wilcoxon", **params)
    # differences equal but for rounding (0.4 - 0.2 and 0.6 - 0.4) are ties, as sqlmetrics ranks them
    want = stats.wilcoxon(np.round(d, 12))
    assert close(got["statistic"], want.statistic) and close(got["p_value"], want.pvalue)
    assert close(got["difference"], d.mean(), abs_=1e-12)


def sign_flip_p(d, weights, n_resamples, seed):
    rng = np.random.default_rng(seed)
    observed = abs((weights * d).sum())
    signs = rng.choice([-1.0, 1.0], size=(n_resamples, len(d)))
    flipped = np.abs(signs @ (weights * d))
    return (1 + (flipped >= observed * (1 - 1e-12)).sum()) / (1 + n_resamples)


def test_randomization_within_monte_carlo_error():
    run, other, qrels = two_runs(4)
    a, b = paired_values(run, other, qrels, "ndcg")
    want = sign_flip_p(a - b, np.ones(len(a)), 200_000, 0)
    got = sm.compare("ndcg", run, other, qrels, gain="linear", test="randomization", n_resamples=20_000)
    assert abs(got["p_value"] - want) <= 4 * math.sqrt(want * (1 - want) / 20_000) + 2e-3
    assert close(got["statistic"], (a - b).mean(), abs_=1e-12)
    again = sm.compare("ndcg", run, other, qrels, gain="linear", test="randomization", n_resamples=20_000)
    # drawn from hashes, not a random state: the same p-value (the sums, to their rounding)
    assert again["p_value"] == got["p_value"] and again == pytest.approx(got, rel=1e-12)
    reseeded = sm.compare("ndcg", run, other, qrels, test="randomization", n_resamples=20_000, seed=7)
    assert reseeded["p_value"] != got["p_value"]


def groups_frame(seed, n_groups=60):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, n_groups, 3000)
    y = rng.integers(0, 2, len(g))
    s = np.round(rng.normal(y * 0.4, 1), 1)  # ties
    return pd.DataFrame({"g": g, "y": y, "s": s, "s2": np.round(s + rng.normal(0, 0.8, len(g)), 1),
                         "w": rng.integers(1, 4, len(g)).astype(float)})


def group_aucs(df, weight=None):
    rows = []
    for _, part in df.groupby("g"):
        if part.y.nunique() == 2:
            w = None if weight is None else part[weight]
            rows.append((roc_auc_score(part.y, part.s, sample_weight=w), roc_auc_score(part.y, part.s2, sample_weight=w),
                         len(part) if weight is None else part[weight].sum()))
    return np.array(rows).T


def test_gauc_uniform_is_scipy_on_the_groups():
    df = groups_frame(8)
    a, b, _ = group_aucs(df)
    got = sm.compare("gauc", df, "s2", label="y", score="s", group="g", weighting="uniform")
    want = stats.ttest_rel(a, b)
    assert got["n_units"] == len(a)
    assert close(got["estimate"], a.mean(), abs_=1e-12) and close(got["other_estimate"], b.mean(), abs_=1e-12)
    assert close(got["statistic"], want.statistic) and close(got["p_value"], want.pvalue)
    wilcoxon = sm.compare("gauc", df, "s2", label="y", score="s", group="g", weighting="uniform", test="wilcoxon")
    assert close(wilcoxon["p_value"], stats.wilcoxon(a, b).pvalue)


def test_gauc_weighted_groups():
    """Impressions weighting with row weights: the estimates are the two GAUCs; t is the weighted
    mean difference over its standard error, sqrt(n / (n - 1) * sum v^2 (d - D)^2) / sum v."""
    df = groups_frame(9)
    a, b, v = group_aucs(df, weight="w")
    got = sm.compare("gauc", df, "s2", label="y", score="s", group="g", weight="w")
    assert close(got["estimate"], sm.gauc(df, label="y", score="s", group="g", weight="w"), abs_=1e-12)
    assert close(got["other_estimate"], sm.gauc(df, label="y", score="s2", group="g", weight="w"), abs_=1e-12)
    d, n = a - b, len(a)
    mean = (v * d).sum() / v.sum()
    se = math.sqrt(n / (n - 1) * (v * v * (d - mean) ** 2).sum()) / v.sum()
    assert close(got["difference"], mean, abs_=1e-12) and close(got["std_error"], se)
    assert close(got["p_value"], 2 * stats.t.sf(abs(mean / se), n - 1))
    flips = sm.compare("gauc", df, "s2", label="y", score="s", group="g", weight="w", test="randomization",
                       n_resamples=20_000)
    want = sign_flip_p(d, v, 200_000, 1)
    assert abs(flips["p_value"] - want) <= 4 * math.sqrt(want * (1 - want) / 20_000) + 2e-3


def null_runs(n_slices=400, n_queries=60, seed=11):
    """Two exchangeable systems: each query's items get two independent score draws."""
    rng = np.random.default_rng(seed)
    rows, judged = [], []
    for c in range(n_slices):
        for q in range(n_queries):
            for i in range(5):
                rows.append((c, q, f"d{i}", rng.random(), rng.random()))
                judged.append((c, q, f"d{i}", int(rng.integers(0, 3))))
    run = pd.DataFrame(rows, columns=["c", "query", "item", "score", "score2"])
    qrels = pd.DataFrame(judged, columns=["c", "query", "item", "relevance"])
    return run[["c", "query", "item", "score"]], run[["c", "query", "item", "score2"]].rename(
        columns={"score2": "score"}), qrels


@pytest.mark.parametrize("test", ["paired_t", "wilcoxon", "randomization"])
def test_rejection_rate_under_the_null(test):
    """400 independent null comparisons (one per slice): the share with p < 0.05 is 0.05 within
    its binomial error (sd 0.011), and Holm's adjustment is the step-down of those p-values."""
    run, other, qrels = null_runs()
    got = sm.compare("ndcg", run, other, qrels, k=3, by="c", test=test, n_resamples=2000)
    assert len(got) == 400 and (got.n_units == 60).all()
    rate = (got.p_value < 0.05).mean()
    assert 0.025 <= rate <= 0.075, rate
    p = got.p_value.to_numpy()
    order = np.argsort(p, kind="stable")
    holm = np.minimum(1, np.maximum.accumulate((len(p) - np.arange(len(p))) * p[order]))
    assert np.allclose(got.p_value_holm.to_numpy()[order], holm, rtol=1e-12)


def test_slices_equal_separate_calls():
    run, other, qrels = null_runs(n_slices=3, n_queries=20)
    sliced = sm.compare("mrr", run, other, qrels, by="c")
    for c in range(3):
        alone = sm.compare("mrr", run[run.c == c], other[other.c == c], qrels[qrels.c == c])
        row = sliced[sliced.c == c].iloc[0]
        assert {k: row[k] for k in alone} == pytest.approx(alone, rel=1e-12)


def test_degenerate_cases():
    run, _, qrels = two_runs(1)
    same = sm.compare("ndcg", run, run, qrels)
    assert (same["difference"], same["std_error"], same["statistic"], same["p_value"]) == (0, 0, 0, 1)
    assert same["ci_low"] == same["ci_high"] == 0
    assert math.isnan(sm.compare("ndcg", run, run, qrels, test="wilcoxon")["p_value"])  # no nonzero difference
    assert sm.compare("ndcg", run, run, qrels, test="randomization")["p_value"] == 1
    one = run[run["query"] == run["query"].iloc[0]]
    single = sm.compare("mrr", one, one.assign(score=-one.score), qrels[qrels["query"] == one["query"].iloc[0]])
    assert single["n_units"] == 1 and math.isnan(single["std_error"]) and math.isnan(single["p_value"])
    shifted = sm.compare("precision_at_k", run, run, qrels, k=5, missing="skip")
    assert shifted["n_units"] == run["query"].isin(qrels["query"]).groupby(run["query"]).any().sum()


def test_errors_say_what_to_do():
    run, other, qrels = two_runs(1)
    df = groups_frame(1)
    with pytest.raises(ParameterError, match="or a metric of one value with a weight parameter"):
        sm.compare("ks_statistic", df, "s2", label="y", score="s")
    with pytest.raises(ParameterError, match="average='micro' is not a mean over queries"):
        sm.compare("recall_at_k", run, other, qrels, k=5, average="micro")
    with pytest.raises(ParameterError, match="weighting='uniform'"):
        sm.compare("gauc", df, "s2", label="y", score="s", group="g", test="wilcoxon")
    with pytest.raises(ParameterError, match="test must be one of"):
        sm.compare("ndcg", run, other, qrels, test="t")
    with pytest.raises(sm.MissingColumnError, match="score"):
        sm.compare("ndcg", run, other.drop(columns="score"), qrels)
    with pytest.raises(sm.ColumnError, match="duplicated"):
        sm.compare("ndcg", run, pd.concat([other, other.head(1)]), qrels)
    # no unit to pair: a run without rows says so
    for candidate, baseline in ((run.head(0), other), (run, other.head(0))):
        with pytest.raises(sm.UndefinedMetricError, match=r"under both runs .*\(is one of the runs empty\?\)"):
            sm.compare("ndcg", candidate, baseline, qrels)


def test_render_and_docstring():
    sql = sm.render("compare", "runs.candidate", metric="ndcg", other="runs.baseline", qrels="runs.qrels", k=10,
                    dialect="spark")
    assert "FROM runs.baseline" in sql and sql.lstrip().upper().startswith("WITH")
    with pytest.raises(ParameterError, match="needs metric="):
        sm.render("compare", "runs.candidate", other="runs.baseline")
    module = importlib.import_module("sqlmetrics.comparison")
    assert doctest.testmod(module).failed == 0
