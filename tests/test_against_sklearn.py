"""Every metric against an independent reference (scikit-learn, or numpy from the definition).

Seeded random data of several kinds (continuous, heavily tied, integer, +-inf scores, exact 0/1
probabilities), with and without non-negative weights (some zero), boolean labels, tiny and large
tables. Scalars must agree to 1e-9 relative; undefined values raise unsliced and are NaN in a
``by`` slice. The references never call sqlmetrics.
"""
from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import sqlmetrics as sm
import sqlmetrics.api as sm_api
import sqlmetrics.plans as sm_plans

REL, ABS = 1e-9, 1e-12
NAN = float("nan")


# ---------------------------------------------------------------------------------------------
# comparison helpers


def close(got, want, rel=REL, abs_=ABS) -> bool:
    got, want = float(got), float(want)
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return math.isclose(got, want, rel_tol=rel, abs_tol=abs_)


def assert_close(got, want, what=""):
    assert close(got, want), f"{what}: sqlmetrics gave {got!r}, reference {want!r}"


def assert_columns_close(got: pd.DataFrame, want: dict, what=""):
    """Column-wise agreement; the absolute tolerance scales with the column (weight totals such as
    tn = W_neg - fp may differ from sklearn's by rounding noise of the size of W_neg * 1e-16)."""
    assert len(got) == len(next(iter(want.values()))), (
        f"{what}: {len(got)} rows, reference has {len(next(iter(want.values())))}\n{got}")
    for col, values in want.items():
        values = np.asarray(values, dtype=float)
        finite = np.abs(values[np.isfinite(values)])
        scale = max(1.0, finite.max()) if len(finite) else 1.0
        np.testing.assert_allclose(got[col].to_numpy(dtype=float), values,
                                   rtol=REL, atol=ABS * scale, equal_nan=True, err_msg=f"{what}: column {col}")


def quiet(fn, *args, **kwargs):
    """Call a reference function without its UndefinedMetricWarning/UserWarning noise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# ---------------------------------------------------------------------------------------------
# seeded data


def make_frame(seed: int, n: int, kind: str, *, zero_weights: bool = True, groups: int | None = None,
               ) -> pd.DataFrame:
    """A table with every column the metrics need.

    y/yb: label (int / bool); s, s2: scores (model / weaker base model); p: probability in [0, 1];
    w: non-negative weights (10% exact zeros unless zero_weights=False); g: group; a, b: slices;
    t, q: regression target and prediction; t1, q1: the same above -1 (for the logarithmic errors);
    hat: 0/1 prediction column.
    kind: continuous | round1 | round2 | int | inf | extreme.
    """
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int64)
    if n >= 2:
        y[0], y[1] = 1, 0
    latent = rng.normal(size=n) + 1.2 * y
    latent2 = 0.4 * latent + rng.normal(size=n)
    p = 1 / (1 + np.exp(-latent))
    p2 = 1 / (1 + np.exp(-latent2))
    t = 3 * rng.normal(size=n) + 1
    q = t + rng.normal(size=n)
    if kind == "continuous":
        s, s2 = latent, latent2
    elif kind in ("round1", "round2"):
        digits = 1 if kind == "round1" else 2
        p, p2 = np.round(p, digits), np.round(p2, digits)
        s, s2 = p, p2
        t, q = np.round(t), np.round(q, 1)
    elif kind == "int":
        s = np.minimum((p * 6).astype(np.int64), 5)
        s2 = np.minimum((p2 * 6).astype(np.int64), 5)
        p = s / 5
        t = rng.integers(0, 6, n)
        q = rng.integers(0, 6, n)
    elif kind == "inf":
        s, s2 = latent.copy(), latent2.copy()
        u = rng.random(n)
        s[u < 0.04] = np.inf
        s[(u >= 0.04) & (u < 0.08)] = -np.inf
        s2[rng.random(n) < 0.05] = -np.inf
    elif kind == "extreme":  # exact 0 and 1 probabilities and ones below machine epsilon
        u = rng.random(n)
        p = np.where(u < 0.06, 0.0, np.where(u < 0.12, 1.0, np.where(u < 0.16, 1e-20, p)))
        s, s2 = p, p2
    else:
        raise ValueError(kind)
    w = rng.exponential(size=n)
    if zero_weights:
        w[rng.random(n) < 0.1] = 0.0
    else:
        w += 0.05
    if n >= 2:
        w[:2] = [1.5, 0.5]
    groups = groups or max(1, n // 8)
    return pd.DataFrame({
        "y": y, "yb": y.astype(bool), "s": s, "s2": s2, "p": p, "w": w,
        "g": rng.integers(0, groups, n), "a": rng.choice(["x", "y", "z"], n), "b": rng.integers(0, 3, n),
        "t": t, "q": q, "hat": (rng.random(n) < 0.45).astype(np.int64),
        "t1": np.abs(t) - 0.5, "q1": np.abs(q) - 0.5,
    })


# (id, seed, n, kind, boolean label)
CASES = [
    ("tiny3", 101, 3, "continuous", False),
    ("small7", 102, 7, "continuous", True),
    ("small10_round1", 103, 10, "round1", False),
    ("cont500", 104, 500, "continuous", False),
    ("cont20k", 105, 20_000, "continuous", True),
    ("round1_800", 106, 800, "round1", True),
    ("round2_20k", 107, 20_000, "round2", False),
    ("int1000", 108, 1000, "int", False),
    ("inf400", 109, 400, "inf", False),
    ("extreme600", 110, 600, "extreme", False),
]


@functools.lru_cache(maxsize=None)
def case_frame(case_id: str) -> pd.DataFrame:
    _, seed, n, kind, _ = next(c for c in CASES if c[0] == case_id)
    return make_frame(seed, n, kind)


def case_label(case_id: str) -> str:
    return "yb" if next(c for c in CASES if c[0] == case_id)[4] else "y"


# ---------------------------------------------------------------------------------------------
# references (never sqlmetrics)


def arrays(d: pd.DataFrame, weighted: bool):
    y = d["y"].to_numpy(dtype=np.int64)
    w = d["w"].to_numpy(dtype=float) if weighted else None
    ones = w if w is not None else np.ones(len(y))
    return y, w, ones


def finite_scores(s):
    """Scores sklearn accepts (it rejects +-inf): dense ranks when needed, plus the map back."""
    s = np.asarray(s, dtype=float)
    if np.isfinite(s).all():
        return s, None
    uniq = np.unique(s)
    return np.searchsorted(uniq, s).astype(float), uniq


def unmap_thresholds(thr, uniq):
    thr = np.asarray(thr, dtype=float).copy()
    if uniq is not None:
        fin = np.isfinite(thr)
        thr[fin] = uniq[thr[fin].astype(np.int64)]
    return thr


def ref_auc(d, weighted, score="s"):
    y, w, ones = arrays(d, weighted)
    if not ((ones * y).sum() > 0 and (ones * (1 - y)).sum() > 0):
        return NAN
    return quiet(skm.roc_auc_score, y, finite_scores(d[score])[0], sample_weight=w)


def ref_gini(d, weighted):
    return 2 * ref_auc(d, weighted) - 1


def ref_rela_impr(d, weighted):
    auc, base = ref_auc(d, weighted, "s"), ref_auc(d, weighted, "s2")
    if math.isnan(auc) or math.isnan(base) or base == 0.5:
        return NAN
    return (auc - 0.5) / (base - 0.5) - 1


def ref_average_precision(d, weighted):
    y, w, ones = arrays(d, weighted)
    if not (ones * y).sum() > 0:
        return NAN
    return quiet(skm.average_precision_score, y, finite_scores(d["s"])[0], sample_weight=w)


def ref_log_loss(d, weighted):
    y, w, ones = arrays(d, weighted)
    if not ones.sum() > 0:
        return NAN
    return quiet(skm.log_loss, y, d["p"].to_numpy(dtype=float), sample_weight=w, labels=[0, 1])


def ref_brier(d, weighted):
    y, w, ones = arrays(d, weighted)
    if not ones.sum() > 0:
        return NAN
    return quiet(skm.brier_score_loss, y, d["p"].to_numpy(dtype=float), sample_weight=w)


def ref_calibration(d, weighted):
    y, w, ones = arrays(d, weighted)
    den = (ones * y).sum()
    return (ones * d["p"].to_numpy(dtype=float)).sum() / den if den > 0 else NAN


def predicted(d, threshold=0.5, score="p", prediction=None):
    if prediction is not None:
        return d[prediction].to_numpy().astype(np.int64)
    return (d[score].to_numpy(dtype=float) >= threshold).astype(np.int64)


def ref_confusion(d, weighted, **how):
    y, w, _ = arrays(d, weighted)
    tn, fp, fn, tp = skm.confusion_matrix(y, predicted(d, **how), labels=[0, 1], sample_weight=w).ravel()
    return {"tp": tp, "fp": fp, "tn": tn, "fn": fn, "n": len(d)}


def _classification_ref(fn, **fixed):
    def ref(d, weighted, beta=None, **how):
        y, w, _ = arrays(d, weighted)
        kwargs = dict(fixed)
        if beta is not None:
            kwargs["beta"] = beta
        return float(quiet(fn, y, predicted(d, **how), sample_weight=w, zero_division=np.nan, **kwargs))
    return ref


def ref_accuracy(d, weighted, **how):
    y, w, ones = arrays(d, weighted)
    if not ones.sum() > 0:
        return NAN
    return float(skm.accuracy_score(y, predicted(d, **how), sample_weight=w))


def ref_error_rate(d, weighted, **how):
    y, w, ones = arrays(d, weighted)
    total = ones.sum()
    return float((ones * (y != predicted(d, **how))).sum() / total) if total > 0 else NAN


def _regression_ref(fn, target="t", prediction="q"):
    def ref(d, weighted):
        _, w, ones = arrays(d, weighted)
        if not ones.sum() > 0:
            return NAN
        return float(quiet(fn, d[target].to_numpy(dtype=float), d[prediction].to_numpy(dtype=float), sample_weight=w))
    return ref


def ref_max_error(d, weighted):  # no weight, as sklearn's (WEIGHTED_OR_NOT leaves the weighted cases out)
    return float(skm.max_error(d["t"], d["q"])) if len(d) else NAN


def ref_explained_variance(d, weighted):
    """sklearn's explained_variance_score, with its force_finite rule applied exactly, as ref_r2 does:
    1.0 when y - p is constant on the rows of positive weight, else 0.0 when y is."""
    _, w, ones = arrays(d, weighted)
    t, q = d["t"].to_numpy(dtype=float), d["q"].to_numpy(dtype=float)
    live = ones > 0
    if live.any() and np.ptp((t - q)[live]) == 0:
        return 1.0
    if live.any() and np.ptp(t[live]) == 0:
        return 0.0
    return _regression_ref(skm.explained_variance_score)(d, weighted)


def ref_r2(d, weighted):
    """sklearn's r2_score, with its documented rule for a constant target (1.0 if predicted exactly,
    else 0.0) applied exactly: sklearn itself misses it when the float mean of the constant is not
    exact (0.1 * 3 / 3) and returns a huge negative number instead."""
    _, w, ones = arrays(d, weighted)
    t, q = d["t"].to_numpy(dtype=float), d["q"].to_numpy(dtype=float)
    live = t[(w if w is not None else ones) > 0]
    if len(t) >= 2 and len(live) and live.min() == live.max():
        return 1.0 if np.all((t == q) | ((w if w is not None else ones) == 0)) else 0.0
    return _regression_ref(skm.r2_score)(d, weighted)


@dataclass(frozen=True)
class Spec:
    name: str
    columns: Callable[[str], dict]  # label column -> the column parameters of the call
    ref: Callable
    confusion: bool = False  # counts are tp, fp, tn, fn, n (else n, n_pos, n_neg; regression: n)
    weighted: bool = True  # takes a weight (max_error does not, as sklearn's)


def _auc_cols(label):
    return {"label": label, "score": "s"}


def _prob_cols(label):
    return {"label": label, "score": "p"}


def _conf_cols(label):
    return {"label": label, "score": "p"}


SPECS = {s.name: s for s in [
    Spec("auc", _auc_cols, ref_auc),
    Spec("gini", _auc_cols, ref_gini),
    Spec("rela_impr", lambda lab: {"label": lab, "score": "s", "base_score": "s2"}, ref_rela_impr),
    Spec("average_precision", _auc_cols, ref_average_precision),
    Spec("log_loss", _prob_cols, ref_log_loss),
    Spec("brier_score", _prob_cols, ref_brier),
    Spec("calibration", _prob_cols, ref_calibration),
    Spec("precision", _conf_cols, _classification_ref(skm.precision_score), confusion=True),
    Spec("recall", _conf_cols, _classification_ref(skm.recall_score), confusion=True),
    Spec("specificity", _conf_cols, _classification_ref(skm.recall_score, pos_label=0), confusion=True),
    Spec("accuracy", _conf_cols, ref_accuracy, confusion=True),
    Spec("error_rate", _conf_cols, ref_error_rate, confusion=True),
    Spec("f_beta", lambda lab: {"label": lab, "score": "p", "beta": 2.0},
         lambda d, weighted, **how: _classification_ref(skm.fbeta_score)(d, weighted, beta=2.0, **how),
         confusion=True),
    Spec("f1", _conf_cols, _classification_ref(skm.f1_score), confusion=True),
    Spec("mae", lambda lab: {"target": "t", "prediction": "q"}, _regression_ref(skm.mean_absolute_error)),
    Spec("mse", lambda lab: {"target": "t", "prediction": "q"}, _regression_ref(skm.mean_squared_error)),
    Spec("rmse", lambda lab: {"target": "t", "prediction": "q"}, _regression_ref(skm.root_mean_squared_error)),
    Spec("r2", lambda lab: {"target": "t", "prediction": "q"}, ref_r2),
    Spec("mape", lambda lab: {"target": "t", "prediction": "q"}, _regression_ref(skm.mean_absolute_percentage_error)),
    Spec("msle", lambda lab: {"target": "t1", "prediction": "q1"},
         _regression_ref(skm.mean_squared_log_error, "t1", "q1")),
    Spec("rmsle", lambda lab: {"target": "t1", "prediction": "q1"},
         _regression_ref(skm.root_mean_squared_log_error, "t1", "q1")),
    Spec("median_absolute_error", lambda lab: {"target": "t", "prediction": "q"},
         _regression_ref(skm.median_absolute_error)),
    Spec("explained_variance", lambda lab: {"target": "t", "prediction": "q"}, ref_explained_variance),
    Spec("max_error", lambda lab: {"target": "t", "prediction": "q"}, ref_max_error, weighted=False),
    Spec("d2_absolute_error", lambda lab: {"target": "t", "prediction": "q"},
         _regression_ref(skm.d2_absolute_error_score)),
]}


def expected_counts(spec: Spec, d: pd.DataFrame, weighted: bool) -> dict:
    if spec.confusion:
        return ref_confusion(d, weighted)
    if sm.METRICS[spec.name].section == "regression":
        return {"n": len(d)}
    n_pos = int(d["y"].sum())
    return {"n": len(d), "n_pos": n_pos, "n_neg": len(d) - n_pos}


def call(name, data, label="y", weighted=False, **extra):
    spec = SPECS[name]
    kwargs = {**spec.columns(label), **extra}
    if weighted:
        kwargs["weight"] = "w"
    return getattr(sm, name)(data, **kwargs)


def check_scalar(name, d, want, label="y", weighted=False, **extra):
    if math.isnan(want):
        with pytest.raises(sm.UndefinedMetricError):
            call(name, d, label, weighted, **extra)
    else:
        got = call(name, d, label, weighted, **extra)
        assert isinstance(got, float)
        assert_close(got, want, name)


@pytest.fixture
def plans(monkeypatch):
    """The AUC plans ('rank' / 'aggregate') sqlmetrics chose during the test."""
    seen = []
    original = sm_api._sql

    def spy(m, values, sources, target, plan, *args, **kwargs):
        if m.plan:
            seen.append(plan)
        return original(m, values, sources, target, plan, *args, **kwargs)

    monkeypatch.setattr(sm_api, "_sql", spy)
    return seen


# ---------------------------------------------------------------------------------------------
# 1. every scalar metric, every kind of data, weighted and not


#: (metric, weighted) for every metric, weighted only where it takes a weight (max_error does not, as sklearn)
WEIGHTED_OR_NOT = [(name, weighted) for name in SPECS for weighted in (False, True) if SPECS[name].weighted or not weighted]


@pytest.mark.parametrize("case", [c[0] for c in CASES])
@pytest.mark.parametrize("name, weighted", WEIGHTED_OR_NOT, ids=[f"{n}-{'weighted' if w else 'unweighted'}" for n, w in WEIGHTED_OR_NOT])
def test_scalar_metric_matches_reference(name, case, weighted):
    d = case_frame(case)
    want = SPECS[name].ref(d, weighted)
    check_scalar(name, d, want, label=case_label(case), weighted=weighted)


@pytest.mark.parametrize("name, weighted", WEIGHTED_OR_NOT, ids=[f"{n}-{'weighted' if w else 'unweighted'}" for n, w in WEIGHTED_OR_NOT])
def test_details_counts(name, weighted):
    d = case_frame("round1_800")
    spec = SPECS[name]
    got = call(name, d, "y", weighted, details=True)
    assert isinstance(got, pd.DataFrame) and len(got) == 1
    assert list(got.columns) == list(sm.METRICS[name].outputs_for({}))
    assert_close(got[name].iloc[0], spec.ref(d, weighted), name)
    for col, value in expected_counts(spec, d, weighted).items():
        assert_close(got[col].iloc[0], value, f"{name}.{col}")


# ---------------------------------------------------------------------------------------------
# 2. AUC: both plans, ties, infinities, small cases


@pytest.mark.parametrize("n", [60, 2_000, 20_000])
@pytest.mark.parametrize("seed", [1, 2])
def test_auc_rank_plan_distinct_scores(n, seed, plans):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(size=n) + y
    k = n // 10
    s[:k] = s[k:2 * k]  # some tied pairs; still far more than half the scores are distinct
    d = pd.DataFrame({"y": y, "s": s})
    assert_close(sm.auc(d, label="y", score="s"), skm.roc_auc_score(y, s), "auc")
    assert_close(sm.gini(d, label="y", score="s"), 2 * skm.roc_auc_score(y, s) - 1, "gini")
    assert plans == ["rank", "rank"]


@pytest.mark.parametrize("levels", [1, 3, 10])
@pytest.mark.parametrize("n", [50, 20_000])
def test_auc_aggregate_plan_tied_scores(levels, n, plans):
    rng = np.random.default_rng(10 + levels)
    y = (rng.random(n) < 0.5).astype(int)
    s = np.round((rng.random(n) + 0.3 * y) * levels) / levels  # at most 14 distinct scores
    d = pd.DataFrame({"y": y, "s": s})
    assert_close(sm.auc(d, label="y", score="s"), skm.roc_auc_score(y, s), "auc")
    assert plans == ["aggregate"]


@pytest.mark.parametrize("rows_in_memory", [20_000, 19_999])
@pytest.mark.parametrize("by", [False, True])
def test_auc_ranks_within_buckets_past_the_memory_limit(rows_in_memory, by, plans, monkeypatch):
    """More rows than one sort holds in DuckDB's memory limit (here: pretended) are ranked within buckets
    of their score: exact, with tie groups, infinities, scores of every sign and size, and slices."""
    monkeypatch.setattr(sm_plans, "memory_limit", lambda rows: rows_in_memory * sm_plans.BYTES_PER_RANKED_ROW)
    rng = np.random.default_rng(rows_in_memory)
    n = 20_000
    y = (rng.random(n) < 0.3).astype(int)
    s = (rng.normal(size=n) + y) * 10.0 ** rng.integers(-5, 5, n)  # many powers of two: many buckets
    s[: n // 10] = np.round(s[: n // 10], 1)  # tie groups, 0 among them
    s[:30], s[30:60], s[60:70] = np.inf, -np.inf, 5e-324
    d = pd.DataFrame({"y": y, "s": s, "g": rng.integers(0, 3, n)})
    finite, _ = finite_scores(s)
    if by:
        got = sm.auc(d, label="y", score="s", by=["g"]).set_index("g")["auc"]
        for g, rows in d.groupby("g"):
            assert_close(got[g], skm.roc_auc_score(rows.y, finite[rows.index]), f"auc g={g}")
    else:
        assert_close(sm.auc(d, label="y", score="s"), skm.roc_auc_score(y, finite), "auc")
        assert_close(sm.gini(d, label="y", score="s"), 2 * skm.roc_auc_score(y, finite) - 1, "gini")
    assert set(plans) == {"rank" if rows_in_memory >= n else "rank_buckets"}


@pytest.mark.parametrize("plan_kind", ["distinct", "tied"])
def test_auc_with_infinite_scores(plan_kind, plans):
    rng = np.random.default_rng(21)
    n = 3000
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.normal(size=n) + y
    if plan_kind == "tied":
        s = np.round(s)
    s[:40] = np.inf
    s[40:80] = -np.inf
    d = pd.DataFrame({"y": y, "s": s, "w": rng.random(n)})
    finite, _ = finite_scores(s)
    assert_close(sm.auc(d, label="y", score="s"), skm.roc_auc_score(y, finite), "auc")
    assert_close(sm.auc(d, label="y", score="s", weight="w"),
                 skm.roc_auc_score(y, finite, sample_weight=d["w"]), "weighted auc")
    assert plans == ["rank" if plan_kind == "distinct" else "aggregate", "aggregate"]


def test_auc_all_scores_infinite_ties():
    d = pd.DataFrame({"y": [1, 0, 1, 0, 1], "s": [np.inf, np.inf, -np.inf, -np.inf, np.inf]})
    assert_close(sm.auc(d, label="y", score="s"), skm.roc_auc_score(d.y, [1, 1, 0, 0, 1]), "auc")


@pytest.mark.parametrize("rows", [
    ([1, 0], [0.5, 0.5]),
    ([1, 0], [0.9, 0.1]),
    ([0, 1], [0.9, 0.1]),
    ([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .4, .4]),
    ([1, 0, 1, 0, 1, 0], [-0.0, 0.0, 0.0, -0.0, 0.5, 0.1]),  # -0.0 ties with 0.0
    ([1, 1, 0], [3, 3, 3]),
])
@pytest.mark.parametrize("bool_label", [False, True])
def test_auc_small_hand_cases(rows, bool_label):
    y, s = rows
    d = pd.DataFrame({"y": np.array(y, dtype=bool) if bool_label else y, "s": s})
    assert_close(sm.auc(d, label="y", score="s"), skm.roc_auc_score(y, s), "auc")
    assert_close(sm.average_precision(d, label="y", score="s"), skm.average_precision_score(y, s), "ap")


def test_auc_weighted_hand_case():
    # research note: weights [1,2,1,1,1,3] give 0.625
    d = pd.DataFrame({"y": [0, 0, 1, 1, 0, 1], "s": [.1, .4, .35, .8, .4, .4], "w": [1, 2, 1, 1, 1, 3]})
    assert_close(sm.auc(d, label="y", score="s", weight="w"), 0.625, "auc")
    assert_close(sm.auc(d, label="y", score="s", weight="w"),
                 skm.roc_auc_score(d.y, d.s, sample_weight=d.w), "auc")


def test_auc_integer_weights_equal_row_repetition():
    rng = np.random.default_rng(31)
    n = 400
    d = pd.DataFrame({"y": (rng.random(n) < 0.3).astype(int), "s": np.round(rng.random(n), 1),
                      "w": rng.integers(0, 4, n)})
    repeated = d.loc[d.index.repeat(d.w)]
    assert_close(sm.auc(d, label="y", score="s", weight="w"), sm.auc(repeated, label="y", score="s"), "auc")
    assert_close(sm.auc(d, label="y", score="s", weight="w"),
                 skm.roc_auc_score(repeated.y, repeated.s), "auc")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "float64", "float32", "bool", "Int64", "boolean"])
def test_label_and_score_dtypes(dtype):
    rng = np.random.default_rng(81)
    n = 300
    y = (rng.random(n) < 0.4).astype(int)
    s32 = (rng.normal(size=n) + y).astype(np.float32)  # float32 scores and probabilities
    p32 = (1 / (1 + np.exp(-s32.astype(float)))).astype(np.float32)
    w = rng.integers(0, 4, n)  # integer weights
    d = pd.DataFrame({"y": pd.Series(y).astype(dtype), "s": s32, "p": p32, "w": w})
    s, p = s32.astype(float), p32.astype(float)
    assert_close(sm.auc(d, label="y", score="s"), skm.roc_auc_score(y, s), "auc")
    assert_close(sm.auc(d, label="y", score="s", weight="w"), skm.roc_auc_score(y, s, sample_weight=w), "wauc")
    assert_close(sm.log_loss(d, label="y", score="p", weight="w"),
                 skm.log_loss(y, p, sample_weight=w, labels=[0, 1]), "log_loss")
    assert_close(sm.precision(d, label="y", score="p", threshold=0.6, weight="w"),
                 skm.precision_score(y, p >= 0.6, sample_weight=w), "precision")
    assert_columns_close(sm.roc_curve(d, label="y", score="s"), ref_roc(pd.DataFrame({"y": y, "s": s}), False),
                         "roc float32")


@pytest.mark.parametrize("name", list(SPECS) + ["gauc", "roc_curve", "pr_curve"])
def test_empty_or_zero_weight_data_is_undefined(name):
    d = case_frame("cont500")
    kwargs = SPECS[name].columns("y") if name in SPECS else {"label": "y", "score": "s"}
    if name == "gauc":
        kwargs["group"] = "g"
    with pytest.raises(sm.UndefinedMetricError):
        getattr(sm, name)(d.iloc[:0], **kwargs)
    if name not in SPECS or SPECS[name].weighted:
        with pytest.raises(sm.UndefinedMetricError):
            getattr(sm, name)(d.assign(w=0.0), weight="w", **kwargs)
    assert sm.confusion_matrix(d.iloc[:0], label="y", score="p") == {"tp": 0, "fp": 0, "tn": 0, "fn": 0, "n": 0}


@pytest.mark.parametrize("name", ["auc", "gini"])
@pytest.mark.parametrize("labels", [[1, 1, 1], [0, 0, 0, 0]])
def test_auc_one_class_raises(name, labels):
    d = pd.DataFrame({"y": labels, "s": np.linspace(0, 1, len(labels))})
    with pytest.raises(sm.UndefinedMetricError):
        getattr(sm, name)(d, label="y", score="s")
    assert isinstance(sm.UndefinedMetricError("x"), ValueError)


def test_auc_weighted_one_class_by_zero_weights_raises():
    d = pd.DataFrame({"y": [1, 0, 1, 0], "s": [0.1, 0.2, 0.3, 0.4], "w": [1.0, 0.0, 2.0, 0.0]})
    with pytest.raises(sm.UndefinedMetricError):
        sm.auc(d, label="y", score="s", weight="w")


def test_rela_impr_hand_and_undefined_base():
    d = pd.DataFrame({"y": [0, 0, 1, 1], "new": [0.1, 0.2, 0.35, 0.8], "old": [0.1, 0.4, 0.35, 0.8]})
    assert_close(sm.rela_impr(d, label="y", score="new", base_score="old"), 1.0, "rela_impr")
    d["const"] = 0.3
    with pytest.raises(sm.UndefinedMetricError):
        sm.rela_impr(d, label="y", score="new", base_score="const")  # base AUC = 0.5
    got = sm.rela_impr(d, label="y", score="new", base_score="old", details=True)
    assert_close(got["auc"].iloc[0], skm.roc_auc_score(d.y, d.new), "auc")
    assert_close(got["base_auc"].iloc[0], skm.roc_auc_score(d.y, d.old), "base_auc")


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("case", ["cont500", "round2_20k", "inf400"])
def test_rela_impr_details(case, weighted):
    d = case_frame(case)
    got = call("rela_impr", d, "y", weighted, details=True)
    assert_close(got["auc"].iloc[0], ref_auc(d, weighted, "s"), "auc")
    assert_close(got["base_auc"].iloc[0], ref_auc(d, weighted, "s2"), "base_auc")
    assert_close(got["rela_impr"].iloc[0], ref_rela_impr(d, weighted), "rela_impr")


# ---------------------------------------------------------------------------------------------
# 3. GAUC


WEIGHTINGS = ["impressions", "clicks", "uniform", "pairs"]


def make_gauc_frame(seed, n, kind):
    d = make_frame(seed, n, kind, groups=n // 6)
    extra = pd.DataFrame({
        "g": [-1] * 6 + [-2] * 5 + [-3, -4, -5],  # all-positive, all-negative, three singletons
        "y": [1] * 6 + [0] * 5 + [1, 0, 1],
    })
    extra["yb"] = extra["y"].astype(bool)
    extra["s"] = np.linspace(-1, 1, len(extra))
    if kind != "continuous":
        extra["s"] = np.round(extra["s"], 1)
    extra["w"] = np.linspace(0.5, 2, len(extra))
    for c in ("s2", "p", "t", "q", "t1", "q1", "hat"):
        extra[c] = 0.5 if c != "hat" else 0
    extra["a"], extra["b"] = "x", 0
    return pd.concat([d, extra[d.columns]], ignore_index=True)


@functools.lru_cache(maxsize=None)
def gauc_frame(kind):
    return make_gauc_frame(41 if kind == "continuous" else 42, 4000, kind)


@functools.lru_cache(maxsize=None)
def group_table(kind, weighted, keys):
    """Per (keys..., g): weighted pos/neg totals and sklearn AUC (NaN when one class)."""
    d = gauc_frame(kind)
    rows = []
    for key, sub in d.groupby(list(keys) + ["g"], sort=False):
        y, w, ones = arrays(sub, weighted)
        wp, wn = float((ones * y).sum()), float((ones * (1 - y)).sum())
        auc = quiet(skm.roc_auc_score, y, sub["s"], sample_weight=w) if wp > 0 and wn > 0 else NAN
        rows.append((*key, wp, wn, len(sub), int(y.sum()), auc))
    return pd.DataFrame(rows, columns=list(keys) + ["g", "wp", "wn", "n", "n_pos", "auc"])


def combine_gauc(table: pd.DataFrame, weighting: str) -> dict:
    used = table[table["auc"].notna()]
    v = {"impressions": used.wp + used.wn, "clicks": used.wp, "uniform": pd.Series(1.0, index=used.index),
         "pairs": used.wp * used.wn}[weighting]
    return {"gauc": (v * used.auc).sum() / v.sum() if v.sum() > 0 else NAN,
            "n_groups_used": len(used), "n_groups_excluded": len(table) - len(used),
            "n": int(table.n.sum()), "n_pos": int(table.n_pos.sum()),
            "n_neg": int(table.n.sum() - table.n_pos.sum())}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("kind", ["continuous", "round1"])
@pytest.mark.parametrize("weighting", WEIGHTINGS)
def test_gauc_matches_groupby_sklearn(weighting, kind, weighted, plans):
    d = gauc_frame(kind)
    want = combine_gauc(group_table(kind, weighted, ()), weighting)
    kwargs = {"label": "y", "score": "s", "group": "g", "weighting": weighting}
    if weighted:
        kwargs["weight"] = "w"
    assert_close(sm.gauc(d, **kwargs), want["gauc"], "gauc")
    got = sm.gauc(d, **kwargs, details=True)
    assert list(got.columns) == ["gauc", "n_groups_used", "n_groups_excluded", "n", "n_pos", "n_neg"]
    for col, value in want.items():
        assert_close(got[col].iloc[0], value, col)
    assert want["n_groups_excluded"] > 50  # the fixture has many one-class groups and singletons
    # ranked when most (group, score) pairs are distinct (GAUC ranks the scores within each group),
    # or pair by pair when the groups are small: this frame's groups of about 6 rows are
    distinct_pairs = len(d[["g", "s"]].drop_duplicates()) / len(d)
    pairs_per_row = (d.groupby("g").size() ** 2).sum() / 4 / len(d)
    ranked = "pairs" if pairs_per_row <= sm_plans.PAIRS_PER_ROW else "rank"
    assert set(plans) == {ranked if distinct_pairs >= 0.5 and not weighted else "aggregate"}


@pytest.mark.parametrize("by", [(), ("a", "b")], ids=["all", "by"])
@pytest.mark.parametrize("kind", ["continuous", "round1"])
@pytest.mark.parametrize("plan", ["aggregate", "rank", "pairs"])
def test_gauc_every_plan_matches_groupby_sklearn(plan, kind, by, monkeypatch):
    """Each of GAUC's plans, whichever the data would get: ties within groups, one-class groups and
    singletons, slices."""
    monkeypatch.setattr(sm_plans.PairsWhenGroupsSmall, "choose_from", lambda self, *args: plan)
    got = sm.gauc(gauc_frame(kind), label="y", score="s", group="g", details=True, **({"by": list(by)} if by else {}))
    table = group_table(kind, False, by)
    slices = list(table.groupby(list(by))) if by else [((), table)]
    assert len(got) == len(slices)
    for row, (key, sub) in zip(got.itertuples(index=False), slices):
        for col, value in combine_gauc(sub, "impressions").items():
            assert_close(getattr(row, col), value, f"{plan} {key} {col}")


def test_gauc_ranks_large_groups(plans):
    """Groups of 400 rows: 'rank' (the pairs plan would compare 40,000 pairs per group)."""
    rng = np.random.default_rng(5)
    d = pd.DataFrame({"g": np.repeat(np.arange(10), 400), "y": (rng.random(4000) < 0.5).astype(int),
                      "s": rng.random(4000)})
    want = np.average([skm.roc_auc_score(sub.y, sub.s) for _, sub in d.groupby("g")])
    assert_close(sm.gauc(d, label="y", score="s", group="g"), want, "gauc")
    assert plans == ["rank"]


def test_gauc_pairs_equals_pooled_numerators():
    d = gauc_frame("round1")
    table = group_table("round1", False, ())
    used = table[table.auc.notna()]
    pooled = (used.auc * used.wp * used.wn).sum() / (used.wp * used.wn).sum()
    assert_close(sm.gauc(d, label="y", score="s", group="g", weighting="pairs"), pooled, "pairs")


def test_gauc_hand_case_and_no_usable_group():
    d = pd.DataFrame({"u": [1, 1, 1, 2, 2], "y": [0, 1, 1, 0, 1], "s": [0.1, 0.2, 0.4, 0.3, 0.5]})
    assert_close(sm.gauc(d, label="y", score="s", group="u"), 1.0, "gauc")
    one_class = pd.DataFrame({"u": [1, 1, 2, 3], "y": [1, 1, 0, 1], "s": [0.1, 0.2, 0.3, 0.4]})
    with pytest.raises(sm.UndefinedMetricError):
        sm.gauc(one_class, label="y", score="s", group="u")
    got = sm.gauc(one_class, label="y", score="s", group="u", details=True)
    assert got["n_groups_used"].iloc[0] == 0 and got["n_groups_excluded"].iloc[0] == 3
    assert math.isnan(got["gauc"].iloc[0])


def test_gauc_zero_weight_class_excludes_group():
    # group 1's only negative has weight 0: sklearn (which drops zero weights) finds one class
    d = pd.DataFrame({"u": [1, 1, 1, 2, 2, 2], "y": [1, 1, 0, 1, 0, 0],
                      "s": [0.9, 0.2, 0.5, 0.8, 0.1, 0.9], "w": [1.0, 1.0, 0.0, 2.0, 1.0, 3.0]})
    got = sm.gauc(d, label="y", score="s", group="u", weight="w", details=True)
    g2 = d[d.u == 2]
    assert_close(got["gauc"].iloc[0], skm.roc_auc_score(g2.y, g2.s, sample_weight=g2.w), "gauc")
    assert got["n_groups_used"].iloc[0] == 1 and got["n_groups_excluded"].iloc[0] == 1


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("by", [("a",), ("a", "b")])
@pytest.mark.parametrize("weighting", WEIGHTINGS)
def test_gauc_by_slices(weighting, by, weighted):
    kind = "continuous"
    d = gauc_frame(kind)
    kwargs = {"label": "y", "score": "s", "group": "g", "weighting": weighting, "by": list(by)}
    if weighted:
        kwargs["weight"] = "w"
    got = sm.gauc(d, **kwargs)
    assert list(got.columns) == list(by) + ["gauc", "n_groups_used", "n_groups_excluded", "n", "n_pos", "n_neg"]
    table = group_table(kind, weighted, by)
    slices = list(table.groupby(list(by)))
    assert [tuple(r) for r in got[list(by)].itertuples(index=False)] == [tuple(k) for k, _ in slices]
    for row, (key, sub) in zip(got.itertuples(index=False), slices):
        want = combine_gauc(sub, weighting)
        for col, value in want.items():
            assert_close(getattr(row, col), value, f"{key} {col}")


# ---------------------------------------------------------------------------------------------
# 4. by= slices for every metric


@functools.lru_cache(maxsize=None)
def by_frame(kind):
    d = make_frame(51 if kind == "continuous" else 52, 3000, kind)
    d.loc[(d.a == "z") & (d.b == 2), ["y", "yb"]] = [0, False]  # one-class (negative) 2-column slice
    d.loc[d.index[2:17], ["a", "y", "yb"]] = ["w", 1, True]  # one-class (positive) slice
    d.loc[d.index[2:17], ["t", "q"]] = 2.0  # with a constant target, predicted exactly: r2 = 1
    d.loc[d.index[17:24], ["a", "t"]] = ["u", 3.0]  # constant target, imperfect predictions: r2 = 0
    d.loc[d.index[24], ["a", "w"]] = ["v", 1.0]  # a singleton slice: r2 undefined
    d.loc[d.index[25:37], ["a", "y", "yb"]] = ["n", 0, False]  # one-class (negative) slice
    return d


def slices_of(d, by):
    return list(d.groupby(by, sort=True))


@pytest.mark.parametrize("kind", ["continuous", "round2"])
@pytest.mark.parametrize("by", ["a", ["a", "b"]], ids=["by1", "by2"])
@pytest.mark.parametrize("name, weighted", WEIGHTED_OR_NOT, ids=[f"{n}-{'weighted' if w else 'unweighted'}" for n, w in WEIGHTED_OR_NOT])
def test_by_slices_match_per_slice_reference(name, by, kind, weighted):
    d = by_frame(kind)
    spec = SPECS[name]
    got = call(name, d, "yb" if kind == "round2" else "y", weighted, by=by)
    keys = [by] if isinstance(by, str) else by
    assert isinstance(got, pd.DataFrame)
    assert list(got.columns) == keys + list(sm.METRICS[name].outputs_for({}))
    assert list(sm.METRICS[name].outputs)[0] == name
    slices = slices_of(d, keys)
    assert len(got) == len(slices)
    nan_slices = 0
    for row, (key, sub) in zip(got.itertuples(index=False), slices):
        key = key if isinstance(key, tuple) else (key,)
        assert tuple(getattr(row, k) for k in keys) == key, "rows are sorted by the by columns"
        want = spec.ref(sub, weighted)
        nan_slices += math.isnan(want)
        assert_close(getattr(row, name), want, f"{name} on slice {key}")
        for col, value in expected_counts(spec, sub, weighted).items():
            assert_close(getattr(row, col), value, f"{name}.{col} on slice {key}")
    if name in ("auc", "gini", "rela_impr", "average_precision", "calibration", "recall", "specificity", "r2"):
        assert nan_slices >= 1, "the fixture has a slice where this metric is undefined"


def test_by_one_class_slice_is_nan_not_error():
    d = pd.DataFrame({"k": ["a", "a", "b", "b"], "y": [0, 1, 1, 1], "s": [0.2, 0.8, 0.3, 0.4]})
    got = sm.auc(d, label="y", score="s", by="k")
    assert got["auc"].tolist()[0] == 1.0 and math.isnan(got["auc"].tolist()[1])
    assert got[["n", "n_pos", "n_neg"]].values.tolist() == [[2, 1, 1], [2, 2, 0]]


def test_by_with_null_key_is_its_own_slice():
    rng = np.random.default_rng(61)
    n = 200
    d = pd.DataFrame({"k": rng.choice(["a", "b", None], n), "y": (rng.random(n) < 0.4).astype(int),
                      "s": np.round(rng.random(n), 1)})
    got = sm.auc(d, label="y", score="s", by="k")
    assert got["k"].tolist()[:2] == ["a", "b"] and pd.isna(got["k"].iloc[2]) and len(got) == 3
    for i, mask in enumerate([d.k == "a", d.k == "b", d.k.isna()]):
        assert_close(got["auc"].iloc[i], skm.roc_auc_score(d.y[mask], d.s[mask]), f"slice {i}")


# ---------------------------------------------------------------------------------------------
# curves


def confusion_at_thresholds(y, s, sample_weight=None):
    """sklearn's per-threshold counts: public since 1.8, the private helper before (Python 3.10's
    newest sklearn is 1.7)."""
    if hasattr(skm, "confusion_matrix_at_thresholds"):
        return skm.confusion_matrix_at_thresholds(y, s, sample_weight=sample_weight)
    from sklearn.metrics._ranking import _binary_clf_curve
    fps, tps, thresholds = _binary_clf_curve(y, s, sample_weight=sample_weight)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds


def ref_roc(d, weighted, score="s"):
    y, w, _ = arrays(d, weighted)
    finite, uniq = finite_scores(d[score])
    fpr, tpr, thr = quiet(skm.roc_curve, y, finite, sample_weight=w, drop_intermediate=False)
    tns, fps, fns, tps, _ = confusion_at_thresholds(y, finite, sample_weight=w)
    return {"threshold": unmap_thresholds(thr, uniq), "fpr": fpr, "tpr": tpr,
            "tp": np.r_[0, tps], "fp": np.r_[0, fps], "tn": np.r_[fps[-1], tns], "fn": np.r_[tps[-1], fns]}


def ref_pr(d, weighted, score="s"):
    y, w, ones = arrays(d, weighted)
    finite, uniq = finite_scores(d[score])
    precision, recall, thr = quiet(skm.precision_recall_curve, y, finite, sample_weight=w)
    _, fps, _, tps, _ = confusion_at_thresholds(y, finite, sample_weight=w)
    recall = recall[::-1]
    if not (ones * y).sum() > 0:  # sklearn sets recall to 1 then; sqlmetrics documents NULL (0/0)
        recall = np.full(len(recall), NAN)
    return {"threshold": np.r_[np.inf, unmap_thresholds(thr[::-1], uniq)], "precision": precision[::-1],
            "recall": recall, "tp": np.r_[0, tps], "fp": np.r_[0, fps]}


CURVES = {"roc_curve": (ref_roc, ["threshold", "fpr", "tpr", "tp", "fp", "tn", "fn"]),
          "pr_curve": (ref_pr, ["threshold", "precision", "recall", "tp", "fp"])}


@functools.lru_cache(maxsize=None)
def positive_weight_frame(case):
    _, seed, n, kind, _ = next(c for c in CASES if c[0] == case)
    return make_frame(seed, n, kind, zero_weights=False)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "positive-weights"])
@pytest.mark.parametrize("case", ["small7", "small10_round1", "cont500", "round1_800", "int1000", "inf400",
                                  "round2_20k"])
@pytest.mark.parametrize("name", list(CURVES))
def test_curve_matches_sklearn(name, case, weighted):
    d = positive_weight_frame(case)
    ref, columns = CURVES[name]
    got = call_curve(name, d, case_label(case), weighted)
    assert list(got.columns) == columns
    assert_columns_close(got, ref(d, weighted), f"{name} {case}")


def call_curve(name, d, label="y", weighted=False, **extra):
    kwargs = {"label": label, "score": "s", **extra}
    if weighted:
        kwargs["weight"] = "w"
    return getattr(sm, name)(d, **kwargs)


@pytest.mark.parametrize("name", list(CURVES))
def test_curve_with_zero_weights_matches_sklearn(name):
    # sklearn drops zero-weight rows before building the curve, so a score carried only by
    # zero-weight rows is not a threshold of the reference curve. Continuous scores: each of the
    # 52 zero-weight rows has a score of its own.
    d = case_frame("cont500")
    ref, columns = CURVES[name]
    got, want = call_curve(name, d, "y", True), ref(d, True)
    extra = got[~got.threshold.isin(want["threshold"])]
    zero_weight_only = d[d.w == 0].s.isin(extra.threshold).sum()
    assert extra.empty, (f"{name}: {len(extra)} thresholds that sklearn's curve does not have "
                         f"({zero_weight_only} of them scores of zero-weight rows), e.g.\n{extra.head(3)}")
    assert_columns_close(got, want, f"{name} zero weights")


@pytest.mark.parametrize("name", list(CURVES))
def test_curve_zero_weights_same_points_as_sklearn(name):
    # Whatever the row set, the (x, y) points of the curve at thresholds sklearn keeps must agree.
    d = case_frame("cont500")
    ref, columns = CURVES[name]
    want = ref(d, True)
    got = call_curve(name, d, "y", True)
    kept = got[got.threshold.isin(want["threshold"])].drop_duplicates("threshold")
    assert_columns_close(kept.reset_index(drop=True), want, f"{name} on sklearn's thresholds")


def test_curve_hand_case():
    d = pd.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    assert sm.roc_curve(d, label="y", score="s")["tpr"].tolist() == [0.0, 0.5, 0.5, 1.0, 1.0]
    assert sm.pr_curve(d, label="y", score="s")["precision"].tolist() == [1.0, 1.0, 0.5, 2 / 3, 0.5]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("by", ["a", ["a", "b"]], ids=["by1", "by2"])
@pytest.mark.parametrize("name", list(CURVES))
def test_curve_by_slices(name, by, weighted):
    d = by_frame("round2").copy()
    d["w"] = d["w"] + 0.05  # positive weights: see test_curve_with_zero_weights_matches_sklearn
    ref, columns = CURVES[name]
    keys = [by] if isinstance(by, str) else by
    got = call_curve(name, d, "y", weighted, by=by)
    assert list(got.columns) == keys + columns
    slices = slices_of(d, keys)
    seen = got[keys].drop_duplicates()
    assert [tuple(r) for r in seen.itertuples(index=False)] == [
        k if isinstance(k, tuple) else (k,) for k, _ in slices], "slices sorted by the by columns"
    for key, sub in slices:
        key = key if isinstance(key, tuple) else (key,)
        mask = np.logical_and.reduce([got[k] == v for k, v in zip(keys, key)])
        assert_columns_close(got[mask].reset_index(drop=True), ref(sub, weighted), f"{name} slice {key}")


def evenly_spaced(reference: dict, scores: np.ndarray, max_points: int) -> dict:
    """The points of a full reference curve that max_points keeps, from its definition: the point
    at +inf, then each point where the rows scored at or above its threshold first reach a multiple
    of N/(max_points - 1) (N: the rows of all the curve's scores), in exact integer arithmetic."""
    thresholds = reference["threshold"]
    at_or_above = [int((scores >= t).sum()) for t in thresholds[1:]]
    n, keep = at_or_above[-1], [0]
    for i, (before, here) in enumerate(zip([0] + at_or_above, at_or_above), start=1):
        if here * (max_points - 1) // n > before * (max_points - 1) // n:
            keep.append(i)
    return {column: np.asarray(values)[keep] for column, values in reference.items()}


@pytest.mark.parametrize("max_points", [2, 3, 11, 100, 10**6])
@pytest.mark.parametrize("case", ["cont500", "round1_800", "inf400", "round2_20k"])
@pytest.mark.parametrize("name", list(CURVES))
def test_curve_max_points_keeps_evenly_spaced_exact_points(name, case, max_points):
    d = positive_weight_frame(case)
    ref, columns = CURVES[name]
    got = call_curve(name, d, case_label(case), True, max_points=max_points)
    want = evenly_spaced(ref(d, True), d["s"].to_numpy(), max_points)
    assert len(got) <= max_points
    assert got["threshold"].iloc[0] == np.inf and got["threshold"].iloc[-1] == d["s"].min()
    assert_columns_close(got, want, f"{name} {case} max_points={max_points}")


def test_curve_max_points_by_slice_and_zero_weight_scores():
    """Per slice; a score carried only by zero-weight rows is no point and adds no rows."""
    d = pd.DataFrame({"y": [0, 1, 0, 1, 0, 1, 0, 1], "s": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
                      "w": [1, 1, 1, 1, 1, 1, 1, 0.0], "c": ["a"] * 8})
    got = sm.roc_curve(d, label="y", score="s", weight="w", max_points=3, by="c")
    assert got["threshold"].tolist() == [np.inf, 0.6, 0.3]
    assert got["tpr"].tolist() == [0.0, 2 / 3, 1.0]


def test_curve_max_points_below_two_is_an_error():
    with pytest.raises(ValueError, match="max_points"):
        sm.roc_curve(pd.DataFrame({"y": [0, 1], "s": [0.1, 0.2]}), label="y", score="s", max_points=1)


@pytest.mark.parametrize("labels, name", [([1, 1, 1], "roc_curve"), ([0, 0, 0], "roc_curve"),
                                          ([0, 0, 0], "pr_curve")])
def test_curve_undefined_raises(labels, name):
    d = pd.DataFrame({"y": labels, "s": [0.1, 0.5, 0.9]})
    with pytest.raises(sm.UndefinedMetricError):
        getattr(sm, name)(d, label="y", score="s")


def test_pr_curve_all_positive_is_defined():
    d = pd.DataFrame({"y": [1, 1, 1], "s": [0.1, 0.5, 0.5]})
    assert_columns_close(sm.pr_curve(d, label="y", score="s"), ref_pr(d, False), "pr all positive")


# ---------------------------------------------------------------------------------------------
# 5. threshold metrics: thresholds, prediction column, nothing predicted positive


CONFUSION_NAMES = [name for name, spec in SPECS.items() if spec.confusion]  # the metrics of a confusion matrix


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("threshold", [0.0, 0.2, 0.3, 0.5, 0.7, 0.95, 1.0])
@pytest.mark.parametrize("name", ["confusion_matrix"] + CONFUSION_NAMES)
def test_threshold_metrics(name, threshold, weighted):
    d = case_frame("round1_800")  # probabilities rounded to 0.1: many rows sit exactly on the threshold
    how = {"threshold": threshold}
    if name == "confusion_matrix":
        extra = {"weight": "w"} if weighted else {}
        got = sm.confusion_matrix(d, label="y", score="p", threshold=threshold, **extra)
        want = ref_confusion(d, weighted, **how)
        assert set(got) == set(want)
        for k in want:
            assert_close(got[k], want[k], k)
        if not weighted:
            assert all(isinstance(got[k], int) for k in got)
        return
    want = SPECS[name].ref(d, weighted, **how)
    check_scalar(name, d, want, "y", weighted, threshold=threshold)


@pytest.mark.parametrize("threshold", [-2.0, -0.25, 0.0, 0.5, 1.75])
@pytest.mark.parametrize("case", ["cont500", "int1000", "inf400"])
def test_threshold_on_unbounded_scores(case, threshold):
    d = case_frame(case)
    how = {"threshold": threshold, "score": "s"}
    got = sm.confusion_matrix(d, label="y", score="s", threshold=threshold, weight="w")
    want = ref_confusion(d, True, **how)
    for k in want:
        assert_close(got[k], want[k], k)
    for name in ("precision", "recall", "f1"):
        want = SPECS[name].ref(d, False, **how)
        check_scalar(name, d.assign(p=d.s), want, "y", False, threshold=threshold)


def test_threshold_exact_boundary():
    x = 0.1 + 0.2  # 0.30000000000000004
    d = pd.DataFrame({"y": [1, 1, 1], "s": [x, 0.3, np.nextafter(x, 1)]})
    got = sm.confusion_matrix(d, label="y", score="s", threshold=x)
    assert got == {"tp": 2, "fp": 0, "tn": 0, "fn": 1, "n": 3}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("pred_col", ["hat", "hat_bool"])
@pytest.mark.parametrize("name", ["confusion_matrix"] + CONFUSION_NAMES)
def test_prediction_column(name, pred_col, weighted):
    d = case_frame("int1000").assign(hat_bool=lambda f: f["hat"].astype(bool))
    extra = {"weight": "w"} if weighted else {}
    how = {"prediction": "hat"}
    if name == "confusion_matrix":
        got = sm.confusion_matrix(d, label="yb", prediction=pred_col, **extra)
        want = ref_confusion(d, weighted, **how)
        for k in want:
            assert_close(got[k], want[k], k)
        return
    kwargs = {"label": "yb", "prediction": pred_col, **extra}
    if name == "f_beta":
        kwargs["beta"] = 0.5
        want = _classification_ref(skm.fbeta_score)(d, weighted, beta=0.5, **how)
    else:
        want = SPECS[name].ref(d, weighted, **how)
    assert_close(getattr(sm, name)(d, **kwargs), want, name)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("how", [{"threshold": 0.3}, {"prediction": "hat"}], ids=["threshold", "prediction"])
@pytest.mark.parametrize("by", ["a", ["a", "b"]], ids=["by1", "by2"])
def test_confusion_matrix_and_precision_by(by, how, weighted):
    d = by_frame("round2")
    keys = [by] if isinstance(by, str) else by
    extra = {"weight": "w"} if weighted else {}
    source = {"prediction": how["prediction"]} if "prediction" in how else {"score": "p", **how}
    got = sm.confusion_matrix(d, label="y", by=by, **source, **extra)
    prec = sm.precision(d, label="y", by=by, **source, **extra)
    assert list(got.columns) == keys + ["tp", "fp", "tn", "fn", "n"]
    slices = slices_of(d, keys)
    assert len(got) == len(prec) == len(slices)
    for i, (key, sub) in enumerate(slices):
        key = key if isinstance(key, tuple) else (key,)
        assert tuple(got.loc[i, keys]) == key == tuple(prec.loc[i, keys])
        for col, value in ref_confusion(sub, weighted, **how).items():
            assert_close(got.loc[i, col], value, f"{key} {col}")
        assert_close(prec.loc[i, "precision"], SPECS["precision"].ref(sub, weighted, **how), f"{key} precision")


@pytest.mark.parametrize("beta", [0.25, 0.5, 1.0, 3.0])
def test_f_beta_betas(beta):
    d = case_frame("cont500")
    want = _classification_ref(skm.fbeta_score)(d, True, beta=beta, threshold=0.4)
    assert_close(sm.f_beta(d, label="y", score="p", weight="w", threshold=0.4, beta=beta), want, "f_beta")
    if beta == 1.0:
        assert_close(sm.f1(d, label="y", score="p", weight="w", threshold=0.4), want, "f1")


def test_nothing_predicted_positive():
    d = pd.DataFrame({"k": ["a", "a", "b", "b"], "y": [0, 1, 1, 0], "s": [0.2, 0.3, 0.6, 0.9]})
    with pytest.raises(sm.UndefinedMetricError):
        sm.precision(d, label="y", score="s", threshold=0.95)
    got = sm.precision(d, label="y", score="s", threshold=0.5, by="k")
    want_a = skm.precision_score([0, 1], [0, 0], zero_division=np.nan)
    assert math.isnan(want_a) and math.isnan(got["precision"].iloc[0])
    assert_close(got["precision"].iloc[1], skm.precision_score([1, 0], [1, 1], zero_division=np.nan), "b")
    # f1 is still defined (= 0) when there are positives but nothing predicted positive
    assert_close(sm.f1(d, label="y", score="s", threshold=0.95), skm.f1_score(d.y, [0, 0, 0, 0]), "f1")


@pytest.mark.parametrize("name, labels, scores", [
    ("recall", [0, 0], [0.9, 0.1]),
    ("specificity", [1, 1], [0.9, 0.1]),
    ("f1", [0, 0], [0.1, 0.2]),
    ("f_beta", [0, 0], [0.1, 0.2]),
    ("average_precision", [0, 0], [0.1, 0.2]),
    ("calibration", [0, 0], [0.1, 0.2]),
    ("r2", None, None),
])
def test_undefined_scalars_raise(name, labels, scores):
    if name == "r2":
        d = pd.DataFrame({"t": [1.0], "q": [2.0]})
        with pytest.raises(sm.UndefinedMetricError):
            sm.r2(d, target="t", prediction="q")
        return
    d = pd.DataFrame({"y": labels, "s": scores, "p": scores})
    kwargs = {**SPECS[name].columns("y")}
    with pytest.raises(sm.UndefinedMetricError):
        getattr(sm, name)(d, **kwargs)


# ---------------------------------------------------------------------------------------------
# regression specifics


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("t, q", [
    ([2.0, 2.0, 2.0], [2.0, 2.0, 2.0]),  # constant target, perfect: 1.0
    ([2.0, 2.0, 2.0], [2.0, 1.0, 2.5]),  # constant target, imperfect: 0.0
    ([5, 5, 5, 5], [5, 5, 5, 5]),  # integers
    ([1.0, 2.0], [2.0, 1.0]),
    ([0.5, -1.25, 3.0, 3.0, 7.5], [0.0, -1.0, 2.5, 3.5, 8.0]),
])
def test_r2_constant_and_small_targets(t, q, weighted):
    d = pd.DataFrame({"t": t, "q": q, "w": np.linspace(0.5, 1.5, len(t))})
    w = d.w if weighted else None
    extra = {"weight": "w"} if weighted else {}
    for name, fn in [("r2", skm.r2_score), ("mae", skm.mean_absolute_error), ("mse", skm.mean_squared_error),
                     ("rmse", skm.root_mean_squared_error)]:
        assert_close(getattr(sm, name)(d, target="t", prediction="q", **extra),
                     fn(d.t, d.q, sample_weight=w), name)


@pytest.mark.parametrize("value", [0.1, 0.7])
def test_r2_constant_target_not_exactly_representable(value):
    # A constant target such as 0.1 (ten rows): sklearn's mean is exactly 0.1, the denominator is 0 and
    # r2_score returns 0.0 (force_finite) for an imperfect prediction, as sqlmetrics documents
    # ("a constant target gives ... 0.0 otherwise").
    d = pd.DataFrame({"t": [value] * 10, "q": [value] * 9 + [value + 0.01]})
    want = skm.r2_score(d.t, d.q)
    assert want == 0.0
    assert_close(sm.r2(d, target="t", prediction="q"), want, "r2")


def test_r2_one_nonzero_weight_is_constant_target():
    d = pd.DataFrame({"t": [1.0, 4.0, 9.0], "q": [1.5, 4.0, 9.0], "w": [0.0, 2.0, 0.0]})
    assert_close(sm.r2(d, target="t", prediction="q", weight="w"),
                 skm.r2_score(d.t, d.q, sample_weight=d.w), "r2")


# ---------------------------------------------------------------------------------------------
# 6. input formats


FORMAT_CALLS = {
    "auc": dict(label="yb", score="s"),
    "auc_weighted": dict(label="y", score="s", weight="w"),
    "gauc": dict(label="y", score="s", group="g", weighting="clicks"),
    "log_loss": dict(label="y", score="p", weight="w"),
    "precision": dict(label="yb", score="p", threshold=0.4),
    "confusion_matrix": dict(label="y", prediction="hat", weight="w"),
    "average_precision": dict(label="y", score="s"),
    "r2": dict(target="t", prediction="q", weight="w"),
    "roc_curve": dict(label="y", score="s", weight="w"),
    "pr_curve": dict(label="yb", score="s"),
    "auc_by": dict(label="y", score="s", by=["a", "b"]),
    "f1_by": dict(label="yb", score="p", by="a"),
}


def _formats(d: pd.DataFrame, tmp_path):
    import duckdb
    import polars as pl
    import pyarrow as pa
    parquet = tmp_path / "data.parquet"
    d.to_parquet(parquet, index=False)
    csv = tmp_path / "data.csv"
    d.to_csv(csv, index=False)
    con = duckdb.connect()
    con.register("src_frame", d)
    con.execute("CREATE TABLE preds AS SELECT * FROM src_frame")
    con.unregister("src_frame")
    return {
        "polars": (pl.from_pandas(d), None),
        "pyarrow": (pa.Table.from_pandas(d, preserve_index=False), None),
        "parquet": (str(parquet), None),
        "parquet_pathlike": (parquet, None),
        "csv": (str(csv), None),
        "table": ("preds", con),
        "query": (sm.Query("SELECT * FROM preds WHERE TRUE"), con),
    }


def assert_same_result(got, want, what):
    if isinstance(want, pd.DataFrame):
        assert list(got.columns) == list(want.columns), what
        assert len(got) == len(want), what
        for col in want.columns:
            if want[col].dtype.kind in "if":
                np.testing.assert_allclose(got[col].to_numpy(float), want[col].to_numpy(float),
                                           rtol=1e-12, atol=0, equal_nan=True, err_msg=f"{what} {col}")
            else:
                assert got[col].tolist() == want[col].tolist(), f"{what} {col}"
    elif isinstance(want, dict):
        assert got.keys() == want.keys(), what
        for k in want:
            assert_close(got[k], want[k], f"{what} {k}")
    else:
        assert type(got) is type(want) and math.isclose(got, want, rel_tol=1e-12), f"{what}: {got} vs {want}"


def test_input_formats_identical(tmp_path):
    d = make_frame(71, 1500, "round2")
    formats = _formats(d, tmp_path)
    for key, kwargs in FORMAT_CALLS.items():
        name = key.split("_weighted")[0].split("_by")[0]
        want = getattr(sm, name)(d, **kwargs)
        if name in ("auc",) and "by" not in kwargs:
            assert_close(want, ref_auc(d, "weight" in kwargs), key)
        for fmt, (data, con) in formats.items():
            got = getattr(sm, name)(data, con=con, **kwargs)
            assert_same_result(got, want, f"{key} from {fmt}")


def test_input_formats_large_continuous(tmp_path):
    d = case_frame("cont20k")
    formats = _formats(d, tmp_path)
    want = ref_auc(d, False)
    for fmt, (data, con) in formats.items():
        assert_close(sm.auc(data, label="yb", score="s", con=con), want, fmt)
        assert_close(sm.auc(data, label="y", score="s", weight="w", con=con), ref_auc(d, True), fmt)
