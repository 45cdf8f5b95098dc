"""Approximate AUC (bins=N), and from stored bucket counts (score_histogram -> histogram_auc): the
error bound returned always holds (a property test), and stacked histograms merge exactly."""
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


def test_exact_auc_has_no_bound_and_bad_bins_are_rejected():
    df = pd.DataFrame({"y": [0, 1], "s": [0.2, 0.4]})
    assert "error_bound" not in sm.auc(df, label="y", score="s", details=True)  # only bins have an error
    for bad in (0, -1, 2.5):
        with pytest.raises(sm.ParameterError, match="bins"):
            sm.auc(df, label="y", score="s", bins=bad)


# -- score_histogram and histogram_auc: fixed buckets, mergeable ------------------------------------

def histogram_oracle(df, bins, lower, upper, weighted):
    """numpy, from the definition: bucket = clamp(floor((s - lower) / (upper - lower) * bins), 0, bins - 1)."""
    with np.errstate(invalid="ignore"):
        raw = np.floor((df.s.to_numpy() - lower) / (upper - lower) * bins)
    bucket = np.where(df.s < lower, 0, np.where((df.s >= upper) | (raw >= bins), bins - 1, raw)).astype(int)
    w = df.w.to_numpy() if weighted else np.ones(len(df))
    y = df.y.to_numpy()
    counts = {"n": np.bincount(bucket, minlength=bins), "n_pos": np.bincount(bucket, y, bins),
              "w_pos": np.bincount(bucket, y * w, bins), "w_neg": np.bincount(bucket, (1 - y) * w, bins)}
    keep = counts["n"] > 0
    out = pd.DataFrame({"bucket": np.arange(bins)[keep], **{k: v[keep] for k, v in counts.items()}})
    return out, bucket


@pytest.mark.parametrize("seed", range(40))
def test_histogram_counts_match_numpy_and_histogram_auc_is_the_auc_of_the_bucket(seed):
    df, weighted = random_case(seed)
    bins = [1, 3, 10, 64][seed % 4]
    lower, upper = [(-1.0, 1.0), (0.0, 0.5), (-3.0, 3.0), (-0.2, 2.0)][seed % 4]
    got = sm.score_histogram(df, label="y", score="s", bins=bins, lower=lower, upper=upper,
                             weight="w" if weighted else None)
    want, bucket = histogram_oracle(df, bins, lower, upper, weighted)
    pd.testing.assert_frame_equal(got[list(want.columns)], want, check_dtype=False, rtol=1e-12)
    assert got["low"].tolist() == pytest.approx([lower + b * (upper - lower) / bins for b in want.bucket], rel=1e-12)
    assert got["high"].tolist() == pytest.approx([lower + (b + 1) * (upper - lower) / bins for b in want.bucket],
                                                 rel=1e-12)
    w = df.w if weighted else None
    if not (((df.y == 1) * (1 if w is None else w)).sum() > 0 and ((df.y == 0) * (1 if w is None else w)).sum() > 0):
        return  # one class once weights apply: undefined
    auc = sm.histogram_auc(got, details=True).iloc[0]
    assert auc["histogram_auc"] == pytest.approx(roc_auc_score(df.y, bucket, sample_weight=w), rel=1e-12, abs=1e-12)
    finite = np.where(np.isfinite(df.s), df.s, np.sign(df.s) * 1e300)
    assert abs(auc["histogram_auc"] - roc_auc_score(df.y, finite, sample_weight=w)) <= auc["error_bound"] + 1e-12
    assert (auc["n"], auc["n_pos"]) == (len(df), df.y.sum())


@pytest.mark.parametrize("seed", range(10))
def test_stacked_daily_histograms_merge_into_the_histogram_of_all_days(seed):
    df, weighted = random_case(seed)
    df = df.assign(day=np.random.default_rng(seed).integers(0, 3, len(df)), c=np.where(df.index % 2, "a", "b"))
    options = dict(label="y", score="s", bins=16, lower=-2.0, upper=2.0, weight="w" if weighted else None)
    daily = pd.concat([sm.score_histogram(part, **options, by="c") for _, part in df.groupby("day")])
    whole = sm.score_histogram(df, **options, by="c")
    merged, direct = sm.histogram_auc(daily, by="c"), sm.histogram_auc(whole, by="c")
    pd.testing.assert_frame_equal(merged, direct, rtol=1e-12, atol=1e-15)
    for _, row in merged.dropna().iterrows():
        part = df[df.c == row["c"]]
        _, bucket = histogram_oracle(part, 16, -2.0, 2.0, weighted)
        assert row["histogram_auc"] == pytest.approx(
            roc_auc_score(part.y, bucket, sample_weight=part.w if weighted else None), rel=1e-12, abs=1e-12)


def test_histogram_needs_a_range_and_sane_counts():
    df = pd.DataFrame({"y": [0, 1], "s": [0.2, 0.4]})
    with pytest.raises(sm.ParameterError, match="lower < upper"):
        sm.score_histogram(df, label="y", score="s", lower=1.0, upper=1.0)
    hist = sm.score_histogram(df, label="y", score="s", bins=4)
    with pytest.raises(sm.ColumnError, match="counts must be non-negative"):
        sm.histogram_auc(hist.assign(w_neg=-1.0))
    with pytest.raises(sm.ColumnError, match="NULL"):
        sm.histogram_auc(hist.assign(bucket=None))
    with pytest.raises(sm.MissingColumnError, match="'w_pos'"):
        sm.histogram_auc(hist.drop(columns="w_pos"))
    with pytest.raises(sm.UndefinedMetricError):
        sm.histogram_auc(hist[hist.n_pos == 0])
