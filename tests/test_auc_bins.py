"""Approximate AUC (bins=N): the error bound it returns always holds (a property test)."""
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm


def random_case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    y = (rng.random(n) < rng.uniform(0.05, 0.95)).astype(int)
    y[:2] = [0, 1]  # both classes
    kind = seed % 4
    s = rng.normal(0, 1, n) + y * rng.uniform(-1, 2)
    if kind == 1:
        s = np.round(s, 1)  # ties
    elif kind == 2:
        s = rng.integers(0, 5, n).astype(float)  # few distinct scores
    elif kind == 3:
        s[rng.random(n) < 0.05] = np.inf
        s[rng.random(n) < 0.05] = -np.inf
    w = np.where(rng.random(n) < 0.1, 0.0, rng.random(n) * 3) if seed % 3 == 0 else None
    return pd.DataFrame({"y": y, "s": s, "w": w if w is not None else 1.0}), w is not None


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("bins", [1, 2, 7, 100])
def test_exact_auc_lies_within_the_bound(seed, bins):
    df, weighted = random_case(seed)
    w = df["w"] if weighted else None
    got = sm.auc(df, label="y", score="s", weight="w" if weighted else None, bins=bins, details=True).iloc[0]
    if w is not None and not ((df.y * w).sum() > 0 and ((1 - df.y) * w).sum() > 0):
        assert np.isnan(got["auc"]) and np.isnan(got["error_bound"])  # one class once weights apply
        return
    finite = np.where(np.isfinite(df.s), df.s, np.sign(df.s) * 1e300)  # sklearn rejects inf; order kept
    exact = roc_auc_score(df.y, finite, sample_weight=w)
    assert 0 <= got["error_bound"] <= 0.5
    assert abs(got["auc"] - exact) <= got["error_bound"] + 1e-12


def test_one_bin_knows_nothing_and_says_so():
    df = pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, 0.9, 0.2, 0.8]})
    got = sm.auc(df, label="y", score="s", bins=1, details=True).iloc[0]
    assert (got["auc"], got["error_bound"]) == (0.5, 0.5)


def test_enough_bins_separate_the_scores_and_the_bound_shrinks_to_exact():
    df = pd.DataFrame({"y": [0, 1, 0, 1, 1], "s": [0.0, 1.0, 2.0, 3.0, 4.0]})
    got = sm.auc(df, label="y", score="s", bins=4, details=True).iloc[0]  # each score its own bin
    assert got["auc"] == pytest.approx(roc_auc_score(df.y, df.s), rel=1e-15) and got["error_bound"] == 0


def test_bins_per_slice_use_each_slice_range():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"y": rng.integers(0, 2, 2000), "c": rng.choice(["a", "b"], 2000)})
    df["s"] = rng.normal(0, 1, 2000) + df.y + np.where(df.c == "a", 100, 0)  # far-apart slice ranges
    sliced = sm.auc(df, label="y", score="s", bins=50, by="c")
    for _, row in sliced.iterrows():
        part = df[df.c == row["c"]]
        alone = sm.auc(part, label="y", score="s", bins=50, details=True).iloc[0]
        assert row["auc"] == pytest.approx(alone["auc"], rel=1e-12)
        assert abs(row["auc"] - roc_auc_score(part.y, part.s)) <= row["error_bound"]


def test_exact_auc_reports_a_zero_bound_and_bad_bins_are_rejected():
    df = pd.DataFrame({"y": [0, 1], "s": [0.2, 0.4]})
    assert sm.auc(df, label="y", score="s", details=True)["error_bound"][0] == 0
    for bad in (0, -1, 2.5):
        with pytest.raises(sm.ParameterError, match="bins"):
            sm.auc(df, label="y", score="s", bins=bad)
