"""Binary extras against their references: partial AUC (sklearn roc_auc_score(max_fpr=)), det_curve
(sklearn det_curve), normalized_entropy and relative_information_gain (sklearn log_loss over the
base rate's entropy, computed here), copc (numpy), ks_statistic (scipy ks_2samp; sklearn roc_curve
weighted), best_threshold (argmax over sklearn's precision_recall_curve / roc_curve), gain_curve and
lift_curve (pandas from the documented definition; scikit-plot's and kds' conventions on distinct
scores).

Seeded data with ties, weights (some 0), slices, one-class and zero-weight slices; each plan the
metric has (aggregate, parallel, rank). Expected values never come from sqlmetrics.
"""
from __future__ import annotations

import math
import warnings

import kds
import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from scipy.stats import ks_2samp

import sqlmetrics as sm
from sqlmetrics import plans

REL, ABS = 1e-9, 1e-12


def frame(seed: int, n: int = 400, ties: bool = True, slices: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    p = np.clip(0.3 * y + rng.beta(2, 4, n), 0, 1)
    if ties:
        p = np.round(p, 1 if seed % 2 else 2)
    w = np.where(rng.random(n) < 0.1, 0.0, rng.random(n) * 3)
    c = rng.choice([f"s{i}" for i in range(slices)], n)
    return pd.DataFrame({"y": y, "p": p, "w": w, "c": c})


DATA = [frame(seed, ties=seed % 3 != 0) for seed in range(4)]  # two with ties, two with distinct scores
PLANS = ("aggregate", "parallel", "rank")


@pytest.fixture(params=PLANS)
def plan(request, monkeypatch):
    """Every plan of the metric: the default plan forced to 'aggregate' or 'parallel', or 'rank' (on
    DuckDB when the scores are distinct: forced by a zero threshold; unweighted calls only)."""
    if request.param == "rank":
        monkeypatch.setattr(plans, "RANK_PLAN_DISTINCT_SHARE", 0.0)
    else:
        monkeypatch.setattr(plans, "RANK_PLAN_DISTINCT_SHARE", 2.0)
        monkeypatch.setattr(plans.ParallelWhenDistributed, "default", lambda self, dialect: request.param)
    return request.param


def close(got, want) -> bool:
    got, want = float(got), float(want)
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return math.isclose(got, want, rel_tol=REL, abs_tol=ABS)


def assert_close(got, want, what=""):
    assert close(got, want), f"{what}: sqlmetrics {got!r}, reference {want!r}"


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def weights_of(df, weighted):
    return df["w"].to_numpy() if weighted else None


def slices(df):
    return [(c, part) for c, part in df.groupby("c", sort=True)]


# -- partial AUC ------------------------------------------------------------------------------------

@pytest.mark.parametrize("max_fpr", [0.05, 0.1, 0.3, 0.5, 0.77, 0.999, 1.0])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(len(DATA)))
def test_partial_auc_is_sklearns(plan, seed, weighted, max_fpr):
    df = DATA[seed]
    extra = {"weight": "w"} if weighted else {}
    got = sm.auc(df, label="y", score="p", max_fpr=max_fpr, **extra)
    want = skm.roc_auc_score(df.y, df.p, sample_weight=weights_of(df, weighted), max_fpr=max_fpr)
    assert_close(got, want, f"max_fpr={max_fpr}")
    sliced = sm.auc(df, label="y", score="p", max_fpr=max_fpr, by="c", **extra)
    for (c, part), row in zip(slices(df), sliced.itertuples()):
        assert row.c == c
        want = skm.roc_auc_score(part.y, part.p, sample_weight=weights_of(part, weighted), max_fpr=max_fpr)
        assert_close(row.auc, want, f"slice {c}")
        assert (row.n, row.n_pos) == (len(part), part.y.sum()) and "error_bound" not in sliced  # exact: no bins


def test_partial_auc_at_a_cut_on_a_point_and_of_perfect_and_inverted_scores():
    df = pd.DataFrame({"y": [0, 0, 0, 0, 1, 1, 1, 1], "p": [0.1, 0.2, 0.3, 0.9, 0.5, 0.6, 0.7, 0.8]})
    for m in (0.25, 0.5, 0.75):  # fpr steps of 1/4: the cut falls on a point
        assert_close(sm.auc(df, label="y", score="p", max_fpr=m), skm.roc_auc_score(df.y, df.p, max_fpr=m))
    perfect = df.assign(p=df.y + 0.1 * np.arange(8))
    assert sm.auc(perfect, label="y", score="p", max_fpr=0.2) == 1.0
    inverted = perfect.assign(p=-perfect.p)
    assert_close(sm.auc(inverted, label="y", score="p", max_fpr=0.2), skm.roc_auc_score(df.y, -perfect.p, max_fpr=0.2))


def test_partial_auc_is_undefined_on_one_class_and_rejects_bad_max_fpr():
    df = DATA[0]
    with pytest.raises(sm.UndefinedMetricError, match="both positive and negative"):
        sm.auc(df[df.y == 1], label="y", score="p", max_fpr=0.3)
    sliced = sm.auc(df.assign(c=np.where(df.y == 1, "pos", df.c)), label="y", score="p", max_fpr=0.3, by="c")
    assert sliced.set_index("c").loc["pos", "auc"] != sliced.set_index("c").loc["pos", "auc"]  # NaN
    for bad in (0, -0.1, 1.5, float("nan")):
        with pytest.raises(sm.ParameterError, match="max_fpr"):
            sm.auc(df, label="y", score="p", max_fpr=bad)
    with pytest.raises(sm.ParameterError, match="bins .* or max_fpr .*not both"):
        sm.auc(df, label="y", score="p", max_fpr=0.3, bins=10)


# -- DET curve ----------------------------------------------------------------------------------------

def det_reference(df, weighted):
    fpr, fnr, thresholds = skm.det_curve(df.y, df.p, sample_weight=weights_of(df, weighted))
    return {"threshold": thresholds, "fpr": fpr, "fnr": fnr}


def assert_curve(got: pd.DataFrame, want: dict, what=""):
    assert len(got) == len(want["threshold"]), f"{what}: {len(got)} points, reference {len(want['threshold'])}"
    for column, values in want.items():
        np.testing.assert_allclose(got[column].to_numpy(dtype=float), np.asarray(values, dtype=float),
                                   rtol=REL, atol=ABS, err_msg=f"{what}: {column}")


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(len(DATA)))
def test_det_curve_is_sklearns(plan, seed, weighted):
    df = DATA[seed]
    extra = {"weight": "w"} if weighted else {}
    assert_curve(sm.det_curve(df, label="y", score="p", **extra), det_reference(df, weighted))
    sliced = sm.det_curve(df, label="y", score="p", by="c", **extra)
    for c, part in slices(df):
        assert_curve(sliced[sliced.c == c], det_reference(part, weighted), f"slice {c}")


@pytest.mark.parametrize("y, p", [
    ([0, 1, 0, 1], [0.9, 0.8, 0.1, 0.2]),   # a negative on top: the curve starts at +inf
    ([1, 0, 1, 0], [0.9, 0.8, 0.1, 0.2]),   # a positive on top: at the last score with fp = 0
    ([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]),   # perfectly separated: one point
    ([0, 1, 1, 0], [0.5, 0.5, 0.5, 0.5]),   # one tie group
    ([1, 0, 0, 1, 1], [0.5, 0.5, 0.2, 0.9, 0.1]),
])
def test_det_curve_ends_as_sklearns(y, p):
    df = pd.DataFrame({"y": y, "p": p})
    assert_curve(sm.det_curve(df, label="y", score="p"), det_reference(df, False))


def test_det_curve_of_one_class_is_undefined():
    df = DATA[1]
    with pytest.raises(sm.UndefinedMetricError):
        sm.det_curve(df[df.y == 0], label="y", score="p")
    only_positives = sm.det_curve(df[df.y == 1], label="y", score="p", by="c")  # a slice: NaN, no error
    only_positives = only_positives[only_positives.c == only_positives.c.iloc[0]]
    assert only_positives.fpr.isna().all() and len(only_positives) == 1 and only_positives.fnr.tolist() == [0.0]


# -- normalized entropy, relative information gain, COPC -------------------------------------------

def entropy(rate: float) -> float:
    if rate <= 0 or rate >= 1:
        return float("nan")
    return -(rate * math.log(rate) + (1 - rate) * math.log(1 - rate))


def ne_reference(df, weighted):
    w = df["w"].to_numpy() if weighted else np.ones(len(df))
    if w.sum() == 0:
        return float("nan")
    rate = float(np.sum(w * df.y) / np.sum(w))
    if rate in (0.0, 1.0):
        return float("nan")
    return quiet(skm.log_loss, df.y, df.p, sample_weight=w, labels=[0, 1]) / entropy(rate)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(len(DATA)))
def test_normalized_entropy_and_rig_are_log_loss_over_the_base_rate_entropy(seed, weighted):
    df = DATA[seed]
    extra = {"weight": "w"} if weighted else {}
    want = ne_reference(df, weighted)
    assert_close(sm.normalized_entropy(df, label="y", score="p", **extra), want)
    assert_close(sm.relative_information_gain(df, label="y", score="p", **extra), 1 - want)
    ne = sm.normalized_entropy(df, label="y", score="p", by="c", **extra)
    rig = sm.relative_information_gain(df, label="y", score="p", by="c", **extra)
    for (c, part), a, b in zip(slices(df), ne.itertuples(), rig.itertuples()):
        want = ne_reference(part, weighted)
        assert_close(a.normalized_entropy, want, f"slice {c}")
        assert_close(b.relative_information_gain, 1 - want, f"slice {c}")
        w = part["w"] if weighted else 1.0
        assert_close(a.base_rate, np.sum(w * part.y) / np.sum(w * np.ones(len(part))))


def test_normalized_entropy_with_certain_probabilities_and_undefined_cases():
    df = pd.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.0, 1.0, 0.0, 1.0, 0.5], "w": [1.0, 2, 0, 0, 1], "c": list("aabbc")})
    for weighted in (False, True):
        extra = {"weight": "w"} if weighted else {}
        assert_close(sm.normalized_entropy(df, label="y", score="p", **extra), ne_reference(df, weighted))
    sliced = sm.normalized_entropy(df, label="y", score="p", weight="w", by="c")
    # a: both classes; b: every row weighs 0; c: one class
    assert not math.isnan(sliced.normalized_entropy[0]) and sliced.normalized_entropy[1:].isna().all()
    for one_class in (df[df.y == 1], df[df.y == 0]):
        with pytest.raises(sm.UndefinedMetricError, match="base rate"):
            sm.relative_information_gain(one_class, label="y", score="p")
    with pytest.raises(sm.ColumnError, match=r"probabilities in \[0, 1\]"):
        sm.normalized_entropy(df.assign(p=df.p * 2), label="y", score="p")


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(len(DATA)))
def test_copc_is_clicks_over_predicted_clicks(seed, weighted):
    df = DATA[seed]
    extra = {"weight": "w"} if weighted else {}
    w = df["w"] if weighted else 1.0
    assert_close(sm.copc(df, label="y", score="p", **extra), np.sum(w * df.y) / np.sum(w * df.p))
    for (c, part), row in zip(slices(df), sm.copc(df, label="y", score="p", by="c", **extra).itertuples()):
        w = part["w"] if weighted else 1.0
        assert_close(row.copc, np.sum(w * part.y) / np.sum(w * part.p), f"slice {c}")
    with pytest.raises(sm.UndefinedMetricError, match="sum to 0"):
        sm.copc(df.assign(p=0.0), label="y", score="p")


# -- KS statistic and best threshold -----------------------------------------------------------------

def argmax_highest(values: np.ndarray) -> int:
    """The first index (sklearn's curves run by threshold descending: the highest threshold) whose
    value is within 1e-12 relative of the largest: the documented tie rule."""
    top = np.nanmax(values)
    return int(np.flatnonzero(values >= top - 1e-12 * abs(top))[0])


def roc_reference(df, weighted):
    fpr, tpr, thresholds = quiet(skm.roc_curve, df.y, df.p, sample_weight=weights_of(df, weighted),
                                 drop_intermediate=False)
    i = argmax_highest(tpr - fpr)
    return {"value": tpr[i] - fpr[i], "threshold": thresholds[i], "tpr": tpr[i], "fpr": fpr[i]}


def f_beta_reference(df, weighted, beta):
    precision, recall, thresholds = quiet(skm.precision_recall_curve, df.y, df.p,
                                          sample_weight=weights_of(df, weighted), drop_intermediate=False)
    precision, recall = precision[:-1], recall[:-1]  # the last point (precision 1, recall 0) has no threshold
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(precision + recall > 0,
                     (1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall), 0.0)
    order = np.argsort(-thresholds, kind="stable")  # descending, as the tie rule reads them
    i = order[argmax_highest(f[order])]
    w = df["w"] if weighted else np.ones(len(df))
    predicted = df.p >= thresholds[i]
    fpr = np.sum(w * predicted * (1 - df.y)) / np.sum(w * (1 - df.y))
    return {"value": f[i], "threshold": thresholds[i], "precision": precision[i], "recall": recall[i], "fpr": fpr}


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(len(DATA)))
def test_ks_statistic_is_the_largest_gap_of_tpr_over_fpr(plan, seed, weighted):
    df = DATA[seed]
    extra = {"weight": "w"} if weighted else {}
    parts = [("all", df)] + slices(df)
    sliced = sm.ks_statistic(df, label="y", score="p", by="c", **extra)
    for (c, part) in parts:
        got = sm.ks_statistic(part, label="y", score="p", **extra)
        want = roc_reference(part, weighted)
        for key, value in (("ks_statistic", want["value"]), ("threshold", want["threshold"]),
                           ("tpr", want["tpr"]), ("fpr", want["fpr"])):
            assert_close(got[key], value, f"{c}: {key}")
        if c != "all":
            row = sliced[sliced.c == c].iloc[0]
            assert [row[k] for k in got] == pytest.approx(list(got.values()), rel=REL, abs=ABS)
        if not weighted:
            positives, negatives = part.p[part.y == 1], part.p[part.y == 0]
            assert_close(got["ks_statistic"], ks_2samp(negatives, positives, alternative="greater").statistic)
            assert_close(got["ks_statistic"], ks_2samp(negatives, positives).statistic)  # a useful score


def test_ks_statistic_of_a_score_ranking_negatives_higher_is_0_at_infinity():
    df = DATA[2]
    got = sm.ks_statistic(df.assign(p=-df.p), label="y", score="p")
    assert got["ks_statistic"] == 0.0 and got["threshold"] == float("inf") and got["tpr"] == got["fpr"] == 0.0
    assert ks_2samp(-df.p[df.y == 0], -df.p[df.y == 1], alternative="greater").statistic == 0.0
    with pytest.raises(sm.UndefinedMetricError):
        sm.ks_statistic(df[df.y == 0], label="y", score="p")


@pytest.mark.parametrize("criterion, beta", [("f_beta", 1.0), ("f_beta", 0.5), ("f_beta", 2.0), ("youden", 1.0)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(len(DATA)))
def test_best_threshold_is_the_argmax_over_sklearns_curve(plan, seed, weighted, criterion, beta):
    df = DATA[seed]
    extra = {"weight": "w"} if weighted else {}
    sliced = sm.best_threshold(df, label="y", score="p", criterion=criterion, beta=beta, by="c", **extra)
    for c, part in [("all", df)] + slices(df):
        got = sm.best_threshold(part, label="y", score="p", criterion=criterion, beta=beta, **extra)
        if criterion == "youden":
            want = roc_reference(part, weighted)
            want = dict(want, recall=want["tpr"])
        else:
            want = f_beta_reference(part, weighted, beta)
        assert_close(got["best_value"], want["value"], f"{c}: value")
        for key in ("threshold", "recall", "fpr") + (("precision",) if criterion == "f_beta" else ()):
            assert_close(got[key], want[key], f"{c}: {key}")
        if c != "all":
            row = sliced[sliced.c == c].iloc[0]
            assert [row[k] for k in got] == pytest.approx(list(got.values()), rel=REL, abs=ABS, nan_ok=True)


def test_best_threshold_ties_take_the_highest_threshold():
    # F1 at 0.9: 2/3 (tp 1, fn 1); at 0.5: tp 2, fp 2: 2/3 as well; at 0.1: tp 2, fp 3: 4/7
    df = pd.DataFrame({"y": [1, 0, 1, 0, 0], "p": [0.9, 0.5, 0.5, 0.5, 0.1]})
    got = sm.best_threshold(df, label="y", score="p")
    assert got["threshold"] == 0.9 and got["best_value"] == pytest.approx(2 / 3, rel=1e-15)
    with pytest.raises(sm.UndefinedMetricError, match="positive labels"):
        sm.best_threshold(df.assign(y=0), label="y", score="p")
    with pytest.raises(sm.ParameterError, match="criterion"):
        sm.best_threshold(df, label="y", score="p", criterion="accuracy")
    with pytest.raises(sm.ParameterError, match="criterion='youden' takes none: leave beta out"):
        sm.best_threshold(df, label="y", score="p", criterion="youden", beta=2.0)


# -- gain and lift curves ------------------------------------------------------------------------------

def gains_reference(df, weighted, n_bins):
    """The documented definition in pandas: the tie group of a score goes whole to bin
    floor(n_bins * W_above / W) + 1 (capped at n_bins), W_above the weight scoring strictly higher."""
    w = df["w"].to_numpy(dtype=float) if weighted else np.ones(len(df))
    y, p = df["y"].to_numpy(), df["p"].to_numpy()
    total, positives = w.sum(), np.sum(w * y)
    rows = []
    for score in np.unique(p):
        above = np.sum(w[p > score])
        rows.append((min(math.floor(n_bins * above / total) + 1, n_bins), score))
    bin_of = dict((score, b) for b, score in rows)
    bins = np.array([bin_of[v] for v in p])
    out = {k: [] for k in ("bin", "share", "gain", "lift", "bin_lift", "threshold", "n", "n_pos")}
    for b in sorted(set(bins)):
        lowest = p[bins == b].min()
        top = p >= lowest
        share, gain = np.sum(w[top]) / total, np.sum(w[top] * y[top]) / positives
        inside = bins == b
        out["bin"].append(b)
        out["share"].append(share)
        out["gain"].append(gain)
        out["lift"].append(gain / share)
        out["bin_lift"].append((np.sum(w[inside] * y[inside]) / np.sum(w[inside])) / (positives / total))
        out["threshold"].append(lowest)
        out["n"].append(inside.sum())
        out["n_pos"].append(y[inside].sum())
    return out


@pytest.mark.parametrize("n_bins", [1, 3, 10, 17])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(len(DATA)))
def test_gain_and_lift_curves_are_the_documented_bins(plan, seed, weighted, n_bins):
    df = DATA[seed]
    extra = {"weight": "w"} if weighted else {}
    for c, part in [("all", df)] + slices(df):
        want = gains_reference(part, weighted, n_bins)
        gains = sm.gain_curve(part, label="y", score="p", n_bins=n_bins, **extra)
        lifts = sm.lift_curve(part, label="y", score="p", n_bins=n_bins, **extra)
        assert_curve(gains, {k: want[k] for k in ("bin", "share", "gain", "lift", "threshold", "n", "n_pos")}, c)
        assert_curve(lifts, {k: want[k] for k in ("bin", "share", "lift", "bin_lift", "threshold", "n", "n_pos")}, c)
    sliced = sm.gain_curve(df, label="y", score="p", n_bins=n_bins, by="c", **extra)
    for c, part in slices(df):
        got = sliced[sliced.c == c].drop(columns="c").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, sm.gain_curve(part, label="y", score="p", n_bins=n_bins, **extra),
                                      check_dtype=False, rtol=REL, atol=ABS)


def test_gain_curve_keeps_a_tie_group_whole_in_the_bin_where_it_starts():
    df = pd.DataFrame({"y": [1, 1, 0, 1, 0, 0, 0, 1, 0, 0], "p": [0.9, 0.8, 0.8, 0.8, 0.8, 0.8, 0.3, 0.2, 0.1, 0.1]})
    got = sm.gain_curve(df, label="y", score="p", n_bins=5)
    # 0.9 starts at row 0 (bin 1); the five rows at 0.8 at row 1 (bin 1 too, though they reach row 5);
    # 0.3 and 0.2 at rows 6 and 7 (bin 4); 0.1 at row 8 (bin 5): bins 2 and 3 stay empty
    assert got.bin.tolist() == [1, 4, 5] and got.n.tolist() == [6, 2, 2]
    assert got.share.tolist() == [0.6, 0.8, 1.0] and got.gain.tolist() == [0.75, 1.0, 1.0]
    shuffled = df.sample(frac=1, random_state=1)
    pd.testing.assert_frame_equal(got, sm.gain_curve(shuffled, label="y", score="p", n_bins=5))


def test_on_distinct_scores_the_bins_are_kds_deciles_and_scikit_plots_gains():
    df = frame(11, n=1000, ties=False)
    got = sm.lift_curve(df, label="y", score="p").merge(sm.gain_curve(df, label="y", score="p"))
    # kds 0.1.3 decile_table: rows sorted by score descending, decile = int(linspace(1, 11, N, False))
    order = np.argsort(-df.p.to_numpy(), kind="stable")
    deciles = np.linspace(1, 11, len(df), False, dtype=int)
    y_sorted = df.y.to_numpy()[order]
    ends = np.array([np.flatnonzero(deciles == d).max() for d in range(1, 11)])
    gains = np.cumsum(y_sorted) / y_sorted.sum()  # scikit-plot's cumulative_gain_curve, row by row
    percentages = np.arange(1, len(df) + 1) / len(df)
    assert got.bin.tolist() == list(range(1, 11))
    np.testing.assert_allclose(got.share, percentages[ends], rtol=REL)
    np.testing.assert_allclose(got.gain, gains[ends], rtol=REL)
    np.testing.assert_allclose(got.lift, gains[ends] / percentages[ends], rtol=REL)
    table = kds.metrics.decile_table(df.y, df.p, labels=False, round_decimal=15)
    np.testing.assert_allclose(got.share * 100, table.cum_cust_pct, rtol=REL)
    np.testing.assert_allclose(got.gain * 100, table.cum_resp_pct, rtol=REL)
    np.testing.assert_allclose(got.lift, table.lift, rtol=REL)
    assert got.n.tolist() == table.cnt_cust.tolist() and got.n_pos.tolist() == table.cnt_resp.tolist()


def test_gain_curve_without_positives_is_undefined():
    with pytest.raises(sm.UndefinedMetricError, match="positive label"):
        sm.gain_curve(DATA[0].assign(y=0), label="y", score="p")
