"""Intervals and paired tests: auc_ci and auc_compare (DeLong), and the normal distribution they use.

References: DeLong's variance from placements found by enumerating every (positive, negative) pair,
written here from the definition (DeLong, DeLong & Clarke-Pearson 1988), with weights as repeated
rows; MLstatkit's Delong_test (fast DeLong with midranks); scipy's normal distribution; Holm's
adjustment from its definition. Coverage of the intervals on simulated binormal data. The checks
against these run under each plan (`plan`: the rank plan of unweighted calls, the aggregate one),
and the two plans agree on random data with ties and slices.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from MLstatkit import Delong_test
from scipy import stats
from scipy.stats import norm

import sqlmetrics as sm
from sqlmetrics import api, plans
from sqlmetrics.errors import ParameterError, UndefinedMetricError
from sqlmetrics.templates import Target, render_macro


# -- the oracle: placements by pair enumeration ------------------------------------------------------

def placements(y, s, w):
    """(V10 of each positive, V01 of each negative, W_pos, W_neg, AUC) by enumerating the pairs."""
    pos, neg = y == 1, y == 0
    psi = (s[pos][:, None] > s[neg][None, :]) + 0.5 * (s[pos][:, None] == s[neg][None, :])
    w_pos, w_neg = w[pos].sum(), w[neg].sum()
    v10 = (psi * w[neg][None, :]).sum(axis=1) / w_neg
    v01 = (psi * w[pos][:, None]).sum(axis=0) / w_pos
    return v10, v01, w_pos, w_neg, (w[pos] * v10).sum() / w_pos


def delong_oracle(y, s, w=None):
    """(auc, std_error) of DeLong et al. 1988, frequency weights counting as repeated rows."""
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    v10, v01, w_pos, w_neg, auc = placements(y, s, w)
    s10 = (w[y == 1] * (v10 - auc) ** 2).sum() / (w_pos - 1)
    s01 = (w[y == 0] * (v01 - auc) ** 2).sum() / (w_neg - 1)
    return auc, math.sqrt(s10 / w_pos + s01 / w_neg)


def paired_oracle(y, a, b, w=None):
    """(auc_a, auc_b, std_error of auc_a - auc_b): DeLong's S_AA + S_BB - 2 S_AB over both classes."""
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    v10a, v01a, w_pos, w_neg, auc_a = placements(y, a, w)
    v10b, v01b, _, _, auc_b = placements(y, b, w)

    def cov(u, v, weights, total):
        return (weights * (u - u @ weights / total) * (v - v @ weights / total)).sum() / (total - 1)

    wp, wn = w[y == 1], w[y == 0]
    var = ((cov(v10a, v10a, wp, w_pos) + cov(v10b, v10b, wp, w_pos) - 2 * cov(v10a, v10b, wp, w_pos)) / w_pos
           + (cov(v01a, v01a, wn, w_neg) + cov(v01b, v01b, wn, w_neg) - 2 * cov(v01a, v01b, wn, w_neg)) / w_neg)
    return auc_a, auc_b, math.sqrt(var)


def holm_oracle(p):
    """Holm's step-down adjusted p-values, in the order given."""
    order = np.argsort(p, kind="stable")
    m, running, out = len(p), 0.0, np.empty(len(p))
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        out[j] = running
    return out


def frame(rng, n, ties=False, weights=False, slices=0):
    y = rng.integers(0, 2, n)
    s = rng.normal(y * 0.8, 1.0)
    other = 0.6 * s + rng.normal(0, 0.8, n)  # correlated with s: the paired case
    if ties:
        s, other = np.round(s, 1), np.round(other, 1)
    df = pd.DataFrame({"y": y, "s": s, "s2": other})
    if weights:
        df["w"] = rng.integers(1, 4, n).astype(float)
    if slices:
        df["c"] = rng.integers(0, slices, n)
    return df


@pytest.fixture(params=["rank", "aggregate"])
def plan(request, monkeypatch):
    """The plan auc_ci and auc_compare are made to take: 'rank' wherever it applies (unweighted),
    whatever the share of distinct scores, or never; checked against the plans they took."""
    monkeypatch.setattr(plans, "RANK_PLAN_DISTINCT_SHARE", 0.0 if request.param == "rank" else 2.0)
    taken, original = [], api._sql

    def spy(m, values, sources, target, chosen, *args, **kwargs):
        taken.append((values.get("weight"), chosen))
        return original(m, values, sources, target, chosen, *args, **kwargs)
    monkeypatch.setattr(api, "_sql", spy)
    yield request.param
    assert taken and all(chosen == ("aggregate" if weight else request.param) for weight, chosen in taken), taken


CASES = [pytest.param(ties, weights, id=f"{'ties' if ties else 'continuous'}-{'weighted' if weights else 'unweighted'}")
         for ties in (False, True) for weights in (False, True)]


@pytest.mark.parametrize("ties, weights", CASES)
def test_auc_ci_equals_delong_from_pair_enumeration(ties, weights, plan):
    rng = np.random.default_rng(7 + 2 * ties + weights)
    df = frame(rng, 600, ties=ties, weights=weights)
    got = sm.auc_ci(df, label="y", score="s", weight="w" if weights else None, confidence=0.9)
    auc, se = delong_oracle(df.y.values, df.s.values, df.w.values if weights else None)
    z = norm.ppf(0.95)
    assert got["auc"] == pytest.approx(auc, abs=1e-12)
    assert got["std_error"] == pytest.approx(se, rel=1e-9)
    assert got["ci_low"] == pytest.approx(max(0.0, auc - z * se), rel=1e-9)
    assert got["ci_high"] == pytest.approx(min(1.0, auc + z * se), rel=1e-9)
    assert (got["n_pos"], got["n_neg"]) == (int(df.y.sum()), int(len(df) - df.y.sum()))
    assert got["auc"] == pytest.approx(sm.auc(df, label="y", score="s", weight="w" if weights else None), abs=1e-12)


@pytest.mark.parametrize("ties, weights", CASES)
def test_auc_compare_equals_paired_delong_from_pair_enumeration(ties, weights, plan):
    rng = np.random.default_rng(11 + 2 * ties + weights)
    df = frame(rng, 500, ties=ties, weights=weights)
    got = sm.auc_compare(df, label="y", score="s", other_score="s2", weight="w" if weights else None)
    auc_a, auc_b, se = paired_oracle(df.y.values, df.s.values, df.s2.values, df.w.values if weights else None)
    z = (auc_a - auc_b) / se
    assert got["auc"] == pytest.approx(auc_a, abs=1e-12)
    assert got["other_auc"] == pytest.approx(auc_b, abs=1e-12)
    assert got["difference"] == pytest.approx(auc_a - auc_b, abs=1e-12)
    assert got["std_error"] == pytest.approx(se, rel=1e-9)
    assert got["z"] == pytest.approx(z, rel=1e-9)
    assert got["p_value"] == pytest.approx(2 * norm.sf(abs(z)), rel=1e-9)
    assert got["ci_low"] == pytest.approx(auc_a - auc_b - norm.ppf(0.975) * se, rel=1e-9)
    assert got["ci_high"] == pytest.approx(auc_a - auc_b + norm.ppf(0.975) * se, rel=1e-9)


def test_frequency_weights_are_repeated_rows(plan):
    rng = np.random.default_rng(3)
    df = frame(rng, 300, ties=True, weights=True)
    repeated = df.loc[df.index.repeat(df.w.astype(int))].drop(columns="w")
    for f in (lambda d, **w: sm.auc_ci(d, label="y", score="s", **w),
              lambda d, **w: sm.auc_compare(d, label="y", score="s", other_score="s2", **w)):
        weighted, plain = f(df, weight="w"), f(repeated)
        for column in ("auc", "std_error", "ci_low", "ci_high"):
            assert weighted[column] == pytest.approx(plain[column], rel=1e-12), column


@pytest.mark.parametrize("ties", [False, True], ids=["continuous", "ties"])
def test_against_mlstatkit(ties, plan):
    rng = np.random.default_rng(5 + ties)
    df = frame(rng, 2000, ties=ties)
    z, p, ci_a, ci_b, auc_a, auc_b, info = Delong_test(df.y.values, df.s2.values, df.s.values, alpha=0.95)
    assert info["method"] == "delong"
    got = sm.auc_compare(df, label="y", score="s", other_score="s2")
    assert (got["auc"], got["other_auc"]) == (pytest.approx(auc_b, abs=1e-12), pytest.approx(auc_a, abs=1e-12))
    assert got["z"] == pytest.approx(z, rel=1e-9)  # MLstatkit's z is (AUC_B - AUC_A) / SE
    assert got["p_value"] == pytest.approx(p, rel=1e-8)
    for score, ci in (("s", ci_b), ("s2", ci_a)):
        single = sm.auc_ci(df, label="y", score=score)
        assert (single["ci_low"], single["ci_high"]) == (pytest.approx(ci[0], rel=1e-9), pytest.approx(ci[1], rel=1e-9))


def test_a_small_difference_keeps_its_digits(plan):
    """A score against itself rounded to 3 decimals: AUCs equal to ~1e-5. The difference is summed
    from the placements' differences, not as AUC - other AUC, so its z does not depend on the order
    the engine sums the rows in (here: the rows shuffled)."""
    rng = np.random.default_rng(21)
    y = rng.integers(0, 2, 400_000)
    df = pd.DataFrame({"y": y, "s": rng.normal(y * 0.7, 1.0)}).assign(s2=lambda f: f.s.round(3))
    got = sm.auc_compare(df, label="y", score="s", other_score="s2")
    shuffled = sm.auc_compare(df.sample(frac=1, random_state=3), label="y", score="s", other_score="s2")
    assert abs(got["difference"]) < 1e-4
    assert shuffled["z"] == pytest.approx(got["z"], rel=1e-9)
    small = df.iloc[:3000]
    auc_a, auc_b, se = paired_oracle(small.y.values, small.s.values, small.s2.values)
    assert sm.auc_compare(small, label="y", score="s", other_score="s2")["z"] == pytest.approx((auc_a - auc_b) / se,
                                                                                               rel=1e-9)


def test_slices_and_holm(plan):
    rng = np.random.default_rng(9)
    df = frame(rng, 3000, ties=True, slices=6)
    df.loc[df.c == 5, "c"] = None  # NULL is a slice
    got = sm.auc_compare(df, label="y", score="s", other_score="s2", by="c")
    assert len(got) == 6
    for _, row in got.iterrows():
        part = df[df.c.isna()] if pd.isna(row.c) else df[df.c == row.c]
        auc_a, auc_b, se = paired_oracle(part.y.values, part.s.values, part.s2.values)
        assert row.std_error == pytest.approx(se, rel=1e-9)
        assert row.p_value == pytest.approx(2 * norm.sf(abs((auc_a - auc_b) / se)), rel=1e-9)
    np.testing.assert_allclose(got.p_value_holm, holm_oracle(got.p_value.values), rtol=1e-12)
    intervals = sm.auc_ci(df, label="y", score="s", by="c")
    for _, row in intervals.iterrows():
        part = df[df.c.isna()] if pd.isna(row.c) else df[df.c == row.c]
        assert row.std_error == pytest.approx(delong_oracle(part.y.values, part.s.values)[1], rel=1e-9)


def test_rank_plan_equals_aggregate_plan(monkeypatch):
    """auc_compare's two plans on ties in either score or both (a tie group across the classes, a
    score tied across slices only), slices with one class, one positive or a NULL key: every column."""
    rng = np.random.default_rng(17)
    df = frame(rng, 4000, slices=7).assign(st=lambda f: f.s.round(1), s2t=lambda f: f.s2.round(2))
    df.loc[df.c == 6, "c"] = None
    df.loc[df.c == 5, "y"] = 0  # no positive
    df.loc[df.c == 4, "y"] = (df.loc[df.c == 4, "s"].rank(method="first") == 1).astype(int)  # one positive
    for score, other in (("s", "s2"), ("s", "s2t"), ("st", "s2"), ("st", "s2t"), ("st", "st")):
        got = {}
        for share, name in ((0.0, "rank"), (2.0, "aggregate")):
            monkeypatch.setattr(plans, "RANK_PLAN_DISTINCT_SHARE", share)
            got[name] = (sm.auc_compare(df, label="y", score=score, other_score=other, by="c", confidence=0.9)
                         .sort_values("c", na_position="last").reset_index(drop=True))
        pd.testing.assert_frame_equal(got["rank"], got["aggregate"], check_exact=False, rtol=1e-12, atol=1e-15)
        assert got["rank"].difference.isna().sum() == 1  # the slice without positives: undefined


def test_holm_skips_slices_without_a_p_value_and_caps_at_one(plan):
    df = pd.DataFrame({"c": [1] * 4 + [2] * 4 + [3] * 3, "y": [0, 0, 1, 1] * 2 + [0, 1, 1],
                       "s": [0.1, 0.5, 0.4, 0.9, 0.1, 0.2, 0.3, 0.4, 0.2, 0.1, 0.3],
                       "s2": [0.2, 0.1, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1, 0.1, 0.2, 0.3]})
    got = sm.auc_compare(df, label="y", score="s", other_score="s2", by="c").set_index("c")
    assert math.isnan(got.loc[3, "p_value"]) and math.isnan(got.loc[3, "p_value_holm"])  # one negative
    defined = got.p_value.dropna()
    np.testing.assert_allclose(got.p_value_holm.dropna(), holm_oracle(defined.values), rtol=1e-12)
    assert (got.p_value_holm.dropna() <= 1).all()


def test_undefined_and_degenerate_cases(plan):
    one_class = pd.DataFrame({"y": [1, 1, 1], "s": [0.1, 0.2, 0.3], "s2": [0.3, 0.2, 0.1]})
    with pytest.raises(UndefinedMetricError, match="both positive and negative"):
        sm.auc_ci(one_class, label="y", score="s")
    with pytest.raises(UndefinedMetricError, match="both positive and negative"):
        sm.auc_compare(one_class, label="y", score="s", other_score="s2")
    single_positive = pd.DataFrame({"y": [1, 0, 0, 0], "s": [0.5, 0.1, 0.6, 0.3]})
    r = sm.auc_ci(single_positive, label="y", score="s")
    assert r["auc"] == pytest.approx(2 / 3) and math.isnan(r["std_error"]) and math.isnan(r["ci_low"])
    df = frame(np.random.default_rng(1), 200)
    same = sm.auc_compare(df, label="y", score="s", other_score="s")
    assert (same["difference"], same["std_error"], same["z"], same["p_value"]) == (0, 0, 0, 1)
    separated = pd.DataFrame({"y": [0, 0, 1, 1], "s": [1, 2, 3, 4], "s2": [4, 3, 2, 1]})
    r = sm.auc_compare(separated, label="y", score="s", other_score="s2")
    assert (r["auc"], r["other_auc"], r["std_error"]) == (1, 0, 0)
    assert math.isnan(r["z"]) and math.isnan(r["p_value"])  # every placement moves alike: nothing to test


def test_confidence_is_checked():
    """From 0.5 to 0.999999: there the quantiles are within 1e-8 (test_student_t_quantile_...)."""
    df = frame(np.random.default_rng(0), 20)
    for bad in (0, 1, 1.5, -0.1, 0.4999, 0.9999991, 1e-6, float("nan")):
        with pytest.raises(ParameterError, match="confidence must be"):
            sm.auc_ci(df, label="y", score="s", confidence=bad)
    wide = sm.auc_ci(df, label="y", score="s", confidence=0.99)
    narrow = sm.auc_ci(df, label="y", score="s", confidence=0.5)
    assert wide["ci_low"] < narrow["ci_low"] < narrow["ci_high"] < wide["ci_high"]


def test_intervals_cover_the_true_auc():
    """Binormal scores (positives N(1, 1), negatives N(0, 1)): the true AUC is Phi(1/sqrt(2)). 400
    simulated samples of 300 rows, as 400 slices of one call; the 95% intervals must cover it in 93-97%."""
    rng = np.random.default_rng(2026)
    sims, n = 400, 300
    y = rng.integers(0, 2, sims * n)
    df = pd.DataFrame({"sim": np.repeat(np.arange(sims), n), "y": y, "s": rng.normal(y * 1.0, 1.0)})
    got = sm.auc_ci(df, label="y", score="s", by="sim")
    truth = norm.cdf(1 / math.sqrt(2))
    coverage = ((got.ci_low <= truth) & (truth <= got.ci_high)).mean()
    assert 0.93 <= coverage <= 0.97, coverage
    # the paired test at alpha = 0.05 under the null (two scores of equal AUC): rejects at ~5%
    df["s2"] = rng.normal(y * 1.0, 1.0) + 0.5 * df.s
    df["s3"] = rng.normal(y * 1.0, 1.0) + 0.5 * df.s
    tests = sm.auc_compare(df, label="y", score="s2", other_score="s3", by="sim")
    assert 0.025 <= (tests.p_value < 0.05).mean() <= 0.075


def test_standard_error_is_finite_and_positive_on_ten_million_rows():
    """pROC's DeLong broke down numerically near 145k rows; here sums of shares, not of counts."""
    rng = np.random.default_rng(10)
    n = 10_000_000
    y = (rng.random(n) < 0.03).astype(np.int8)
    df = pd.DataFrame({"y": y, "s": rng.normal(y * 0.5, 1.0).astype(np.float32)})
    r = sm.auc_ci(df, label="y", score="s")
    assert 0 < r["std_error"] < 0.01 and math.isfinite(r["std_error"])
    assert r["ci_low"] < r["auc"] < r["ci_high"]


# -- the normal distribution in SQL and at render time ------------------------------------------------

def test_normal_tail_in_sql_against_the_exact_tail():
    import duckdb
    xs = np.concatenate([np.linspace(0, 40, 8001), [1e-300, 7.07106781186547, 7.0710678118655, 37.0, 1e6]])
    expr = render_macro("normal_tail", Target("duckdb"), x="x")
    con = duckdb.connect()
    got = np.array([v for (v,) in con.execute(f"SELECT {expr} FROM unnest(?::DOUBLE[]) AS t(x)", [xs.tolist()]).fetchall()])
    exact = norm.sf(xs)
    assert np.all(np.abs(got - exact) <= 1e-15)
    near, far = xs <= 3, (xs > 3) & (xs <= 37)  # beyond 37 (a tail below 6e-300): 0
    assert np.all(np.abs(got - exact)[near] <= 1e-13 * exact[near])
    assert np.all(np.abs(got - exact)[far] <= 1e-8 * exact[far])


@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999, 0.99999, 0.999999])
def test_student_t_quantile_over_the_accepted_confidences(confidence):
    """compare's interval quantile for every df below 200 and far beyond, against scipy's t.isf, over
    the confidences accepted (0.5 to 0.999999): within 1e-8 relative, the Cornish-Fisher expansion
    from df = 100 its largest error (1.7e-9 at df = 100, 0.999999)."""
    import duckdb
    tail = (1 - confidence) / 2
    dfs = list(range(1, 200)) + [300, 1000, 10**4, 10**6, 10**9]
    sql = render_macro("student_t_quantile", Target("duckdb"), tail=tail, df="df")
    got = dict(duckdb.connect().execute(f"SELECT df, {sql} FROM unnest(?::BIGINT[]) AS t(df)", [dfs]).fetchall())
    for df in dfs:
        assert got[df] == pytest.approx(stats.t.isf(tail, df), rel=1e-8), df


@pytest.mark.parametrize("tail", [0.25, 0.05, 0.025, 0.005, 0.0005, 1e-6])
def test_normal_quantile_at_render_time(tail):
    import duckdb
    z = duckdb.connect().execute("SELECT " + render_macro("normal_quantile", Target("duckdb"), tail=tail)).fetchall()[0][0]
    # as exact as the tail it inverts (normal_tail): to 1e-13 up to z = 3, beyond to ~1e-11
    assert z == pytest.approx(norm.isf(tail), rel=1e-13 if tail > 0.0014 else 1e-11)
