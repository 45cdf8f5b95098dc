"""The uplift metrics against scikit-uplift 0.5 (sklift.metrics) and causalml 0.18's definitions:
random data with tied scores, slices, both negative_effect values, both uplift_at_k strategies,
scikit-uplift's own test cases; with weights (which neither library takes) against numpy
oracles written from scikit-uplift's definitions with weight sums for counts, whose unweighted
results equal scikit-uplift's. causalml's metrics module imports lightgbm and seaborn (and its
package shap and xgboost), which the test extra does not install: its auuc_score and
qini_score are transcribed below from causalml/metrics/visualize.py (get_cumlift, get_cumgain,
get_qini: a row-level curve in pandas, interpolated where a group is empty)."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from sqlmetrics import plans as sm_plans
from sqlmetrics.errors import MetricError, ParameterError, UndefinedMetricError

skm = pytest.importorskip("sklift.metrics")  # CI=true: conftest turns a missing reference into a failure
#: the largest |sqlmetrics - reference| seen, per reference, printed at the end of the module's run
WORST: dict[str, float] = {}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():  # sklift calls sklearn's deprecated stable_cumsum
        warnings.simplefilter("ignore", FutureWarning)
        yield


def teardown_module():
    print("\nlargest differences:", {k: f"{v:.2e}" for k, v in WORST.items()})


def close(ours, theirs, what, tol=1e-9):
    ours, theirs = np.asarray(ours, float), np.asarray(theirs, float)
    assert ours.shape == theirs.shape, what
    WORST[what] = max(WORST.get(what, 0.0), float(np.max(np.abs(ours - theirs), initial=0.0)))
    np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol, err_msg=what)


def frame(seed, n=500, ties=True):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 2, n)
    u = rng.normal(0, 1, n)
    # the response: more likely treated where the predicted uplift is high
    y = (rng.random(n) < 0.3 + 0.15 * t * (u > 0) - 0.05 * t * (u < -1)).astype(int)
    s = np.round(u + rng.normal(0, 0.7, n), 1) if ties else u + rng.normal(0, 0.7, n)
    return pd.DataFrame({"y": y, "t": t, "s": s, "w": np.where(rng.random(n) < 0.05, 0.0, rng.uniform(0.1, 3, n)),
                         "c": rng.choice(["a", "b", "c"], n)})


# -- numpy oracles from the definitions ----------------------------------------------------------

def points(df, w=None):
    """Per distinct score (descending): cumulative treated, control weight and their responders."""
    w = np.ones(len(df)) if w is None else np.asarray(w, float)
    y, t, s = df["y"].to_numpy(), df["t"].to_numpy(), df["s"].to_numpy()
    order = np.argsort(-s, kind="mergesort")
    cells = pd.DataFrame({"s": s[order], "wt": (w * t)[order], "wc": (w * (1 - t))[order],
                          "yt": (w * y * t)[order], "yc": (w * y * (1 - t))[order]})
    per = cells.groupby("s", sort=False).sum()
    return per.cumsum(), per


def value(curve, wt, wc, yt, yc):
    wt, wc, yt, yc = (np.asarray(a, float) for a in (wt, wc, yt, yc))
    with np.errstate(divide="ignore", invalid="ignore"):
        if curve == "uplift":
            return (np.where(wt > 0, yt / wt, 0) - np.where(wc > 0, yc / wc, 0)) * (wt + wc)
        return yt - yc * np.where(wc > 0, wt / wc, 0)


def curve_oracle(curve, df, w=None):
    """sklift's uplift_curve / qini_curve with weight sums for counts: x, value (from (0, 0))."""
    run, own = points(df, w)
    keep = (own.wt + own.wc > 0).to_numpy()  # a score of zero-weight rows only is no point
    x = (run.wt + run.wc).to_numpy()[keep]
    v = value(curve, run.wt, run.wc, run.yt, run.yc)[keep]
    return np.r_[0, x], np.r_[0, v]


def area_oracle(curve, df, w=None, negative_effect=True):
    """sklift's uplift_auc_score / qini_auc_score with weight sums: the perfect curve is the curve of
    the perfect score (perfect_uplift_curve, perfect_qini_curve), on the same weights."""
    y, t = df["y"].to_numpy(), df["t"].to_numpy()
    ww = np.ones(len(df)) if w is None else np.asarray(w, float)
    x, v = curve_oracle(curve, df, w)
    if curve == "uplift":
        summand = y if ww[(y == 1) & (t == 0)].sum() > ww[(y == 0) & (t == 1)].sum() else t
        perfect = 2 * (y == t) + summand
    else:
        perfect = y * t - y * (1 - t)
    if curve == "qini" and not negative_effect:
        r = v[-1]
        xp, vp = np.array([0, r, x[-1]]), np.array([0, r, r])
    else:
        xp, vp = curve_oracle(curve, df.assign(s=perfect), w)
    base = x[-1] * v[-1] / 2
    return (np.trapezoid(v, x) - base) / (np.trapezoid(vp, xp) - base)


def causalml_oracle(curve, df):
    """causalml.metrics.auuc_score ('uplift') / qini_score ('qini'), normalize=True, transcribed from
    causalml 0.18's get_cumlift/get_cumgain/get_qini: a curve point per row sorted by score, NaN
    where a ratio has an empty group, a 0 at row 0, pandas' linear interpolate. A tie group's rows
    are NaN but its last (the documented rule: linear across a tie group, causalml's own on
    distinct scores, where every group has one row)."""
    d = df.sort_values("s", ascending=False, kind="mergesort").reset_index(drop=True)
    d.index = d.index + 1
    nt = d["t"].cumsum()
    nc = d.index.to_numpy() - nt
    yt, yc = (d["y"] * d["t"]).cumsum(), (d["y"] * (1 - d["t"])).cumsum()
    with np.errstate(divide="ignore", invalid="ignore"):
        q = (yt / nt - yc / nc) if curve == "uplift" else (yt - yc * nt / nc)
    last = d["s"].ne(d["s"].shift(-1)).to_numpy()  # the last row of each tie group
    q = q.where(last & np.isfinite(q))
    q.loc[0] = 0.0
    q = q.sort_index().interpolate()
    if curve == "uplift":
        q = q * q.index.to_numpy()  # get_cumgain: cumulative lift x rows
    q = q / abs(q.iloc[-1])
    if curve == "uplift":
        return q.sum() / q.shape[0]
    return (q.sum() - np.linspace(q.iloc[0], q.iloc[-1], q.shape[0]).sum()) / q.shape[0]


def at_k_oracle(df, k, strategy):
    """uplift_at_k from its definition, a tie group at a cut-off in by its share of the cut-off's rows."""
    def top(part, cut):
        run, own = points(part)
        n_run = (run.wt + run.wc).to_numpy()
        n_own = (own.wt + own.wc).to_numpy()
        share = np.clip((cut - (n_run - n_own)) / n_own, 0, 1)
        return {c: float((share * own[c]).sum()) for c in ("wt", "wc", "yt", "yc")}
    if strategy == "overall":
        got = top(df, int(len(df) * k))
    else:
        parts = [top(df[df.t == g], int((df.t == g).sum() * k)) for g in (0, 1)]
        got = {c: parts[0][c] + parts[1][c] for c in parts[0]}
    return got["yt"] / got["wt"] - got["yc"] / got["wc"]


# -- the curves ----------------------------------------------------------------------------------

@pytest.mark.parametrize("curve", ["uplift", "qini"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_curves_as_sklift(curve, seed):
    df = frame(seed)
    got = getattr(sm, f"{curve}_curve")(df, label="y", treatment="t", score="s")
    x, v = getattr(skm, f"{curve}_curve")(df.y, df.s, df.t)
    close(got["n"], x, f"sklift.{curve}_curve x")
    close(got[curve], v, f"sklift.{curve}_curve")
    assert np.isinf(got["threshold"].iloc[0]) and (np.diff(got["threshold"].iloc[1:]) < 0).all()
    # the oracle is sklift's, unweighted; weighted, the oracle
    close(curve_oracle(curve, df)[1], v, f"oracle = sklift.{curve}_curve")
    weighted = getattr(sm, f"{curve}_curve")(df, label="y", treatment="t", score="s", weight="w")
    x, v = curve_oracle(curve, df, df.w)
    close(weighted["n"], x, f"weighted {curve}_curve x (oracle)")
    close(weighted[curve], v, f"weighted {curve}_curve (oracle)")


@pytest.mark.parametrize("curve", ["uplift", "qini"])
def test_curves_by_slice(curve):
    df = frame(3)
    got = getattr(sm, f"{curve}_curve")(df, label="y", treatment="t", score="s", by="c")
    for c, part in df.groupby("c"):
        _, v = getattr(skm, f"{curve}_curve")(part.y, part.s, part.t)
        close(got[got.c == c][curve], v, f"sklift.{curve}_curve per slice")


# -- the areas -----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_areas_as_sklift(seed):
    df = frame(seed, ties=seed % 2 == 0)
    kw = dict(label="y", treatment="t", score="s")
    close(sm.uplift_auc(df, **kw), skm.uplift_auc_score(df.y, df.s, df.t), "sklift.uplift_auc_score")
    for negative_effect in (True, False):
        close(sm.qini_auc(df, **kw, negative_effect=negative_effect),
              skm.qini_auc_score(df.y, df.s, df.t, negative_effect=negative_effect), "sklift.qini_auc_score")
    assert sm.qini_coefficient(df, **kw) == sm.qini_auc(df, **kw)
    assert sm.auuc(df, **kw) == sm.uplift_auc(df, **kw)


@pytest.mark.parametrize("seed", [0, 1])
def test_weighted_areas_as_the_oracle(seed):
    df = frame(seed)
    kw = dict(label="y", treatment="t", score="s")
    close(area_oracle("uplift", df), skm.uplift_auc_score(df.y, df.s, df.t), "oracle = sklift.uplift_auc_score")
    close(area_oracle("qini", df), skm.qini_auc_score(df.y, df.s, df.t), "oracle = sklift.qini_auc_score")
    close(sm.uplift_auc(df, **kw, weight="w"), area_oracle("uplift", df, df.w), "weighted uplift_auc (oracle)")
    for negative_effect in (True, False):
        close(sm.qini_auc(df, **kw, weight="w", negative_effect=negative_effect),
              area_oracle("qini", df, df.w, negative_effect), "weighted qini_auc (oracle)")
    # unit weights change nothing
    close(sm.qini_auc(df.assign(w=1.0), **kw, weight="w"), sm.qini_auc(df, **kw), "unit weights")


def test_areas_by_slice():
    df = frame(4)
    got = sm.qini_auc(df, label="y", treatment="t", score="s", by="c").set_index("c")
    auuc = sm.uplift_auc(df, label="y", treatment="t", score="s", by="c").set_index("c")
    for c, part in df.groupby("c"):
        close(got.loc[c, "qini_auc"], skm.qini_auc_score(part.y, part.s, part.t), "sklift.qini_auc_score per slice")
        close(auuc.loc[c, "uplift_auc"], skm.uplift_auc_score(part.y, part.s, part.t),
              "sklift.uplift_auc_score per slice")
        assert got.loc[c, "n_treatment"] == part.t.sum() and got.loc[c, "responders_control"] == (part.y * (1 - part.t)).sum()


def test_sklift_own_cases():
    """scikit-uplift's tests (sklift/tests/test_metrics.py): test_uplift_auc_score, test_qini_auc_score,
    and make_predictions' curve on one tie group (x [0, 3], uplift [0, 1.5])."""
    for y, u, t, auuc, qini in (([0, 1], [0.1, 0.3], [1, 0], 0.0, 1.0), ([1, 0], [0.1, 0.3], [0, 1], 1.0, 1.0)):
        df = pd.DataFrame({"y": y, "u": u, "t": t})
        assert sm.uplift_auc(df, label="y", treatment="t", score="u") == pytest.approx(auuc, abs=1e-12)
        assert sm.qini_auc(df, label="y", treatment="t", score="u") == pytest.approx(qini, abs=1e-12)
    tied = pd.DataFrame({"y": [0, 1, 0], "t": [0, 1, 1], "u": [0.5, 0.5, 0.5]})
    got = sm.uplift_curve(tied, label="y", treatment="t", score="u")
    assert got["n"].tolist() == [0, 3] and got["uplift"].tolist() == pytest.approx([0.0, 1.5])


# -- causalml ------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_causalml_convention(seed):
    df = frame(seed, n=300, ties=seed % 2 == 0)
    if seed == 3:  # the top rows all treated: causalml interpolates from the origin
        df.loc[df.s.nlargest(5).index, "t"] = 1
    kw = dict(label="y", treatment="t", score="s", convention="causalml")
    close(sm.uplift_auc(df, **kw), causalml_oracle("uplift", df), "causalml auuc_score (transcribed)")
    close(sm.qini_auc(df, **kw), causalml_oracle("qini", df), "causalml qini_score (transcribed)")
    got = sm.qini_auc(df, **kw, by="c").set_index("c")
    for c, part in df.groupby("c"):
        close(got.loc[c, "qini_auc"], causalml_oracle("qini", part), "causalml qini_score per slice")


def test_causalml_takes_no_weight():
    with pytest.raises(MetricError, match="convention='causalml' takes no weight"):
        sm.uplift_auc(frame(0), label="y", treatment="t", score="s", weight="w", convention="causalml")


# -- uplift at k ---------------------------------------------------------------------------------

@pytest.mark.parametrize("strategy", ["overall", "by_group"])
@pytest.mark.parametrize("k", [0.1, 0.3, 0.5, 0.77])
def test_uplift_at_k(strategy, k):
    distinct = frame(5, ties=False)
    kw = dict(label="y", treatment="t", score="s", k=k, strategy=strategy)
    close(sm.uplift_at_k(distinct, **kw), skm.uplift_at_k(distinct.y, distinct.s, distinct.t, strategy, k=k),
          "sklift.uplift_at_k")
    close(at_k_oracle(distinct, k, strategy), skm.uplift_at_k(distinct.y, distinct.s, distinct.t, strategy, k=k),
          "oracle = sklift.uplift_at_k")
    tied = frame(6)
    close(sm.uplift_at_k(tied, **kw), at_k_oracle(tied, k, strategy), "uplift_at_k on ties (oracle)")
    got = sm.uplift_at_k(tied, **kw, by="c").set_index("c")
    for c, part in tied.groupby("c"):
        close(got.loc[c, "uplift_at_k"], at_k_oracle(part, k, strategy), "uplift_at_k per slice (oracle)")


def test_uplift_at_k_tie_at_the_cut_off():
    """Four rows of one score, k=0.5: half of the tie group is in, in expectation one treated row
    (half a responder) and one control row (no responder): 0.5 - 0."""
    df = pd.DataFrame({"y": [1, 0, 0, 0], "t": [1, 1, 0, 0], "s": [1.0, 1.0, 1.0, 1.0]})
    got = sm.uplift_at_k(df, label="y", treatment="t", score="s", k=0.5)
    assert got == pytest.approx(0.5)


# -- the plans -----------------------------------------------------------------------------------

@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("metric, extra", [("uplift_curve", {}), ("qini_curve", {}), ("uplift_auc", {}),
                                           ("qini_auc", {"negative_effect": False}),
                                           ("uplift_auc", {"convention": "causalml"}), ("qini_auc", {"convention": "causalml"}),
                                           ("uplift_at_k", {"k": 0.3}), ("uplift_at_k", {"k": 0.45, "strategy": "by_group"})])
def test_the_plans_give_one_value(metric, extra, ties, monkeypatch):
    """Each plan of the four running sums (the rank plan: one sort of the rows, a score's point at its
    last row; the aggregate and parallel plans: the distinct scores first) gives the same values,
    with tie groups and slices, whichever a call's sample would choose."""
    df = frame(8, n=700, ties=ties)
    got = {}
    for plan in ("rank", "aggregate", "parallel"):
        monkeypatch.setattr(sm_plans.RankWhenScoresDistinct, "choose", lambda self, share, dialect, plan=plan: plan)
        got[plan] = getattr(sm, metric)(df, label="y", treatment="t", score="s", by="c", **extra)
    for plan in ("aggregate", "parallel"):
        pd.testing.assert_frame_equal(got["rank"], got[plan], rtol=1e-12, obj=f"{metric} {extra}: rank vs {plan}")


# -- undefined and refused -----------------------------------------------------------------------

def test_undefined_without_a_control_group():
    df = frame(0).assign(t=1)
    for fn in (sm.uplift_auc, sm.qini_auc):
        with pytest.raises(UndefinedMetricError, match="no treated or no control rows"):
            fn(df, label="y", treatment="t", score="s")
    with pytest.raises(UndefinedMetricError, match="no treated or no control row"):
        sm.uplift_at_k(df, label="y", treatment="t", score="s")


def test_treatment_must_be_0_1():
    with pytest.raises(MetricError, match="treatment must be 0/1"):
        sm.qini_auc(frame(0).assign(t=2), label="y", treatment="t", score="s")


def test_pos_label_applies_to_the_label_only():
    df = frame(1)
    kw = dict(treatment="t", score="s")
    assert sm.qini_auc(df.assign(y=df.y.map({1: "yes", 0: "no"})), label="y", pos_label="yes", **kw) == \
        pytest.approx(sm.qini_auc(df, label="y", **kw), abs=1e-12)


@pytest.mark.parametrize("k", [0, 1, 1.5, -0.1])
def test_k_is_a_share(k):
    with pytest.raises(ParameterError, match="k must be"):
        sm.uplift_at_k(frame(0), label="y", treatment="t", score="s", k=k)


# -- treatment_balance_curve ----------------------------------------------------------------------------


def balance_oracle(score, treatment, winsize):
    """scikit-uplift's moving average with each row of a tie group counting the group's treated share
    (the expected value over the group's orders), written from its definition."""
    order = np.argsort(-np.asarray(score, float), kind="stable")
    s, t = np.asarray(score, float)[order], np.asarray(treatment, float)[order]
    share = pd.Series(t).groupby(s).transform("mean").to_numpy()
    balance = np.convolve(share, np.ones(winsize), "valid") / winsize
    return np.linspace(1, 100, len(balance)), balance


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("winsize", [1, 7, 250])
def test_treatment_balance_curve_matches_sklift_on_distinct_scores(seed, winsize):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"t": rng.integers(0, 2, 800), "u": rng.permutation(800) / 800.0})
    got = sm.treatment_balance_curve(df, treatment="t", score="u", winsize=winsize)
    idx, balance = skm.treatment_balance_curve(df.u, df.t, winsize)
    close(got.idx, idx, "sklift treatment_balance_curve", tol=1e-12)
    close(got.balance, balance, "sklift treatment_balance_curve", tol=1e-12)


def test_treatment_balance_curve_on_ties_and_slices():
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"t": rng.integers(0, 2, 900), "u": rng.integers(0, 30, 900) / 30, "c": rng.choice(["a", "b"], 900)})
    got = sm.treatment_balance_curve(df, treatment="t", score="u", winsize=40, by=["c"])
    for c, part in df.groupby("c"):
        idx, balance = balance_oracle(part.u, part.t, 40)
        mine = got[got.c == c]
        close(mine.idx, idx, "oracle treatment_balance_curve (ties)", tol=1e-12)
        close(mine.balance, balance, "oracle treatment_balance_curve (ties)", tol=1e-12)
    # one window over all the rows: one point, at 1 (numpy's linspace of one point)
    whole = sm.treatment_balance_curve(df, treatment="t", score="u", winsize=len(df))
    assert whole.idx.tolist() == [1.0] and whole.balance.iloc[0] == pytest.approx(df.t.mean(), rel=1e-12)


def test_treatment_balance_curve_needs_winsize_rows():
    df = pd.DataFrame({"t": [1, 0, 1], "u": [0.3, 0.2, 0.1]})
    with pytest.raises(UndefinedMetricError, match="fewer rows than winsize"):
        sm.treatment_balance_curve(df, treatment="t", score="u", winsize=4)
    with pytest.raises(ParameterError, match="winsize"):
        sm.treatment_balance_curve(df, treatment="t", score="u", winsize=0)
