"""Extreme magnitudes: no overflow or underflow of an intermediate value may turn into a wrong
number or a wrong "undefined". Wherever the reference (scikit-learn, or an exact oracle written
with fractions.Fraction from the definition) has a finite value, the metric has it too; where the
true value itself is beyond the double range, the metric fails saying what overflowed.

- weights of 1e±200 and 1e±300: W_pos * W_neg (AUC, GAUC's pairs weighting), AUC's pair sums,
  average precision's tp_at * tp, and every other weighted metric;
- exponential gain 2^rel - 1 with relevance grades of 1024 and more (NDCG, ERR; DCG fails);
- f_beta with beta = 1e±200 (beta^2 is not a double);
- novelty of popularity counts whose sum is beyond the largest double.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve

import sqlmetrics as sm
from sqlmetrics.errors import EngineError

SCALES = [1e200, 1e-200, 1e300, 1e-300]
REL = 1e-9


def frame(seed: int, scale: float, n: int = 400) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "y": rng.integers(0, 2, n), "s": rng.random(n).round(2), "g": rng.integers(0, 6, n),
        "c": rng.choice(["a", "b"], n), "t": rng.normal(size=n), "p": rng.normal(size=n),
        # weights spanning a factor of 1e4 around `scale`, some exactly 0
        "w": np.where(rng.random(n) < 0.05, 0.0, scale * 10 ** rng.uniform(-2, 2, n))})


# -- weights -------------------------------------------------------------------------------------

def _sklearn_weighted(df: pd.DataFrame) -> dict:
    y, s, w, hat = df.y.to_numpy(), df.s.to_numpy(), df.w.to_numpy(), (df.s >= 0.5).to_numpy()
    return {
        "auc": skm.roc_auc_score(y, s, sample_weight=w),
        "average_precision": skm.average_precision_score(y, s, sample_weight=w),
        "log_loss": skm.log_loss(y, s, sample_weight=w),
        "brier_score": skm.brier_score_loss(y, s, sample_weight=w),
        "precision": skm.precision_score(y, hat, sample_weight=w),
        "recall": skm.recall_score(y, hat, sample_weight=w),
        "f1": skm.f1_score(y, hat, sample_weight=w),
        "accuracy": skm.accuracy_score(y, hat, sample_weight=w),
        "mse": skm.mean_squared_error(df.t, df.p, sample_weight=w),
        "mae": skm.mean_absolute_error(df.t, df.p, sample_weight=w),
        "r2": skm.r2_score(df.t, df.p, sample_weight=w),
    }


@pytest.mark.parametrize("scale", SCALES)
def test_weighted_metrics_equal_sklearn_at_extreme_weights(scale):
    df = frame(1, scale)
    for name, want in _sklearn_weighted(df).items():
        columns = {"target": "t", "prediction": "p"} if name in ("mse", "mae", "r2") else {"label": "y", "score": "s"}
        got = getattr(sm, name)(df, weight="w", **columns)
        assert got == pytest.approx(want, rel=REL), (name, scale, got, want)


@pytest.mark.parametrize("scale", SCALES)
def test_auc_details_at_extreme_weights(scale):
    df = frame(2, scale)
    got = sm.auc(df, label="y", score="s", weight="w", details=True).iloc[0]
    assert got["auc"] == pytest.approx(skm.roc_auc_score(df.y, df.s, sample_weight=df.w), rel=REL)
    assert "error_bound" not in got and got["n"] == len(df)  # exact: no bins
    by = sm.auc(df, label="y", score="s", weight="w", by="c")
    for _, row in by.iterrows():
        part = df[df.c == row["c"]]
        assert row["auc"] == pytest.approx(skm.roc_auc_score(part.y, part.s, sample_weight=part.w), rel=REL)


@pytest.mark.parametrize("scale", SCALES)
def test_approximate_auc_at_extreme_weights_is_the_auc_of_the_buckets(scale):
    df = frame(3, scale)
    bins = 7
    lo, hi = df.s.min(), df.s.max()
    bucket = np.minimum(np.floor((df.s - lo) / (hi - lo) * bins), bins - 1)
    got = sm.auc(df, label="y", score="s", weight="w", bins=bins, details=True).iloc[0]
    assert got["auc"] == pytest.approx(skm.roc_auc_score(df.y, bucket, sample_weight=df.w), rel=REL)
    assert 0 < got["error_bound"] < 0.5
    stored = sm.score_histogram(df, label="y", score="s", weight="w", bins=bins, lower=lo, upper=hi)
    assert sm.histogram_auc(stored) == pytest.approx(got["auc"], rel=REL)


def _gauc_oracle(df: pd.DataFrame, weighting: str) -> float:
    """Weighted mean over groups with both classes of sklearn's AUC; 'pairs' pools U_g / sum W+W-."""
    num = den = Fraction(0)
    for _, part in df.groupby("g"):
        w_pos, w_neg = part.w[part.y == 1].sum(), part.w[part.y == 0].sum()
        if w_pos == 0 or w_neg == 0:
            continue
        auc = Fraction(skm.roc_auc_score(part.y, part.s, sample_weight=part.w))
        v = {"impressions": Fraction(w_pos) + Fraction(w_neg), "clicks": Fraction(w_pos), "uniform": Fraction(1),
             "pairs": Fraction(w_pos) * Fraction(w_neg)}[weighting]
        num, den = num + v * auc, den + v
    return float(num / den)


@pytest.mark.parametrize("weighting", ["impressions", "clicks", "uniform", "pairs"])
@pytest.mark.parametrize("scale", SCALES)
def test_gauc_at_extreme_weights(scale, weighting):
    df = frame(4, scale)
    got = sm.gauc(df, label="y", score="s", group="g", weight="w", weighting=weighting)
    assert got == pytest.approx(_gauc_oracle(df, weighting), rel=REL)


@pytest.mark.parametrize("scale", SCALES)
def test_curves_at_extreme_weights(scale):
    df = frame(5, scale)
    roc = sm.roc_curve(df, label="y", score="s", weight="w")
    fpr, tpr, _ = skm.roc_curve(df.y, df.s, sample_weight=df.w, drop_intermediate=False)
    np.testing.assert_allclose(roc["fpr"], fpr, rtol=REL)
    np.testing.assert_allclose(roc["tpr"], tpr, rtol=REL)
    pr = sm.pr_curve(df, label="y", score="s", weight="w")
    precision, recall, _ = skm.precision_recall_curve(df.y, df.s, sample_weight=df.w, drop_intermediate=False)
    np.testing.assert_allclose(pr["precision"], precision[::-1], rtol=REL)
    np.testing.assert_allclose(pr["recall"], recall[::-1], rtol=REL)


@pytest.mark.parametrize("scale", SCALES)
def test_calibration_curve_and_ece_at_extreme_weights(scale):
    df = frame(6, scale)
    got = sm.calibration_curve(df, label="y", score="s", weight="w", n_bins=5)
    # sklearn's calibration_curve takes no weights: weighted means per sklearn bin, in exact arithmetic
    bins = np.searchsorted(np.linspace(0, 1, 6)[1:-1], df.s.to_numpy(), side="left")
    rows = []
    for b in sorted(set(bins)):
        part = df[bins == b]
        weight = sum(map(Fraction, part.w))
        if weight:
            rows.append((b, float(sum(map(Fraction, part.w * part.s)) / weight),
                         float(sum(Fraction(w) for w, y in zip(part.w, part.y) if y) / weight), weight))
    assert got["bin"].tolist() == [r[0] for r in rows]
    np.testing.assert_allclose(got["mean_predicted"], [r[1] for r in rows], rtol=REL)
    np.testing.assert_allclose(got["fraction_positive"], [r[2] for r in rows], rtol=REL)
    total = sum(r[3] for r in rows)
    ece = float(sum(r[3] * abs(Fraction(r[2]) - Fraction(r[1])) for r in rows) / total)
    assert sm.ece(df, label="y", score="s", weight="w", n_bins=5) == pytest.approx(ece, rel=REL)


def test_unweighted_calibration_curve_is_sklearns():  # the oracle above, checked where sklearn applies
    df = frame(6, 1.0)
    got = sm.calibration_curve(df, label="y", score="s", n_bins=5)
    fraction, mean = calibration_curve(df.y, df.s, n_bins=5)
    np.testing.assert_allclose(got["fraction_positive"], fraction, rtol=REL)
    np.testing.assert_allclose(got["mean_predicted"], mean, rtol=REL)


# -- f_beta ----------------------------------------------------------------------------------------

def _f_beta_oracle(tp, fp, fn, beta) -> float:
    b2 = Fraction(beta) ** 2
    return float((1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp))


@pytest.mark.parametrize("beta", [1e200, 1e-200, 1e155, 1e-155, 1e150, 1e-150, 3.0, 0.3, 1.0])
@pytest.mark.parametrize("weighted", [False, True])
def test_f_beta_at_extreme_beta_equals_the_exact_value(beta, weighted):
    df = frame(7, 1.0)
    hat = df.s >= 0.5
    w = df.w if weighted else pd.Series(1.0, index=df.index)
    tp, fp, fn = (Fraction(w[m].sum()) for m in (hat & (df.y == 1), hat & (df.y == 0), ~hat & (df.y == 1)))
    got = sm.f_beta(df, label="y", score="s", weight="w" if weighted else None, beta=beta)
    assert got == pytest.approx(_f_beta_oracle(tp, fp, fn, beta), rel=1e-12)


@pytest.mark.parametrize("beta", [1e200, 1e-200])
def test_f_beta_without_true_positives_is_zero_not_undefined(beta):
    df = pd.DataFrame({"y": [1, 1, 0, 0], "s": [0.1, 0.2, 0.3, 0.9]})  # tp = 0, fn = 2, fp = 1
    assert sm.f_beta(df, label="y", score="s", beta=beta) == 0.0
    with pytest.raises(sm.UndefinedMetricError):  # tp = fp = fn = 0: undefined, whatever beta
        sm.f_beta(df.assign(y=0), label="y", score="s", threshold=2.0, beta=beta)


# -- exponential gain -----------------------------------------------------------------------------

def ranking_case(grades: dict[str, list[int]]):
    """One run per query: items ranked by descending score in the listed order, every item judged
    with its grade, plus an unretrieved judged item of grade 1 in each query."""
    run, qrels = [], []
    for q, gs in grades.items():
        for i, g in enumerate(gs):
            run.append((q, f"{q}-d{i}", float(len(gs) - i)))
            qrels.append((q, f"{q}-d{i}", g))
        qrels.append((q, f"{q}-unretrieved", 1))
    return (pd.DataFrame(run, columns=["query", "item", "score"]),
            pd.DataFrame(qrels, columns=["query", "item", "relevance"]))


def _discount(rank: int) -> Fraction:
    return Fraction(1 / math.log2(rank + 1))  # the float discount, exactly: the error left is the log's


def ndcg_oracle(ranked: list[int], judged: list[int], k: int | None) -> float:
    gain = lambda g: Fraction(2 ** g - 1)  # noqa: E731 - exact integers, however large
    dcg = sum(gain(g) * _discount(r) for r, g in enumerate(ranked[:k], start=1))
    ideal = sorted(judged, reverse=True)[:k]
    return float(dcg / sum(gain(g) * _discount(r) for r, g in enumerate(ideal, start=1)))


def err_oracle(ranked: list[int], top: int, k: int | None) -> float:
    total, reach = Fraction(0), Fraction(1)
    for r, g in enumerate(ranked[:k], start=1):
        stop = Fraction(2 ** g - 1, 2 ** top)
        total += reach * stop / r
        reach *= 1 - stop
    return float(total)


GRADES = {
    "huge": {"a": [1100, 3, 1050, 0, 1100], "b": [2, 1200, 0, 5], "c": [7, 1, 0]},
    "large": {"a": [1000, 999, 0, 1000], "b": [3, 2, 1]},
    "small": {"a": [3, 0, 2, 1], "b": [0, 1, 4]},
}


@pytest.mark.parametrize("k", [None, 3])
@pytest.mark.parametrize("case", sorted(GRADES))
def test_ndcg_with_exponential_gain_of_any_grade_equals_the_exact_value(case, k):
    run, qrels = ranking_case(GRADES[case])
    got = sm.ndcg(run, qrels, k=k, per_query=True).set_index("query")["ndcg"].to_dict()
    want = {q: ndcg_oracle(gs, gs + [1], k) for q, gs in GRADES[case].items()}
    assert got.keys() == want.keys()
    for q in want:
        assert got[q] == pytest.approx(want[q], rel=1e-12, abs=1e-300), (q, got[q], want[q])
    assert sm.ndcg(run, qrels, k=k) == pytest.approx(sum(want.values()) / len(want), rel=1e-12)


@pytest.mark.parametrize("k", [None, 2])
@pytest.mark.parametrize("case", sorted(GRADES))
def test_err_of_any_grade_equals_the_exact_value(case, k):
    run, qrels = ranking_case(GRADES[case])
    top = max(max(gs) for gs in GRADES[case].values())
    for max_grade in (None, top + 10):
        got = sm.err(run, qrels, k=k, max_grade=max_grade, per_query=True).set_index("query")["err"].to_dict()
        for q, gs in GRADES[case].items():
            want = err_oracle(gs, max_grade or top, k)
            assert got[q] == pytest.approx(want, rel=1e-12, abs=1e-300), (q, max_grade, got[q], want)


def test_dcg_beyond_the_double_range_fails_saying_so():
    run, qrels = ranking_case(GRADES["huge"])
    with pytest.raises(EngineError, match="the DCG of a query overflows a double"):
        sm.dcg(run, qrels)
    run, qrels = ranking_case(GRADES["large"])  # 2^1000: large, and a double
    got = sm.dcg(run, qrels, per_query=True).set_index("query")["dcg"].to_dict()
    for q, gs in GRADES["large"].items():
        want = float(sum(Fraction(2 ** g - 1) * _discount(r) for r, g in enumerate(gs, start=1)))
        assert got[q] == pytest.approx(want, rel=1e-12)


def test_ndcg_with_grades_too_far_apart_for_doubles_fails_saying_so():
    # next to a grade of 2100, the gains of a query graded 0-3 are below 2^-1000 of it
    run, qrels = ranking_case({"a": [2100, 0], "b": [3, 0, 1]})
    with pytest.raises(EngineError, match="too small next to the largest grade .* use gain=linear"):
        sm.ndcg(run, qrels)
    assert sm.ndcg(run, qrels, gain="linear", per_query=True)["ndcg"].notna().all()


@pytest.mark.parametrize("scale", [1e308, 1e-300, 1.0])
def test_novelty_of_popularity_counts_near_the_double_range(scale):
    """Counts whose sum is beyond the largest double (the first two sum past 1.8e308): the
    self-information -log2 p is finite and exact; the reference sums them as Fractions."""
    run = pd.DataFrame({"query": [1, 1, 2, 2, 3], "item": ["a", "b", "a", "c", "c"], "score": [2, 1, 2, 1, 1]})
    counts = {"a": 1.5 * scale, "b": 0.5 * scale, "c": 0.25 * scale}
    popularity = pd.DataFrame({"item": list(counts), "count": list(counts.values())})
    total = sum(Fraction(c) for c in counts.values())
    information = {i: -math.log2(Fraction(c) / total) for i, c in counts.items()}
    want = sum(information[i] for i in run["item"]) / len(run)
    assert sm.novelty(run, popularity=popularity, k=2) == pytest.approx(want, rel=1e-12)
