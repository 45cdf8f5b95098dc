"""The fairness metrics against fairlearn.metrics (0.15): random data with several groups, weights,
scores tied at the threshold, several sensitive columns, both methods and slices; fairlearn's own
worked example; and the cases where fairlearn's number measures no disparity, which are undefined here."""
from __future__ import annotations

import fairlearn.metrics as fm
import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from sqlmetrics.errors import ParameterError, UndefinedMetricError, MetricError
from test_bootstrap import interval, poisson_draws, row_units

NAMES = ["demographic_parity_difference", "demographic_parity_ratio", "equal_opportunity_difference",
         "equal_opportunity_ratio", "equalized_odds_difference", "equalized_odds_ratio"]
METHODS = ["between_groups", "to_overall"]
#: the largest |sqlmetrics - fairlearn| seen, printed at the end of the module's run
WORST = [0.0]


def frame(seed, n=400):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "y": rng.integers(0, 2, n),
        # scores on a grid of 0.1, so that many equal the threshold 0.5 (a tie counts as positive)
        "s": rng.integers(0, 11, n) / 10,
        "p": rng.integers(0, 2, n),
        "w": rng.uniform(0.1, 3.0, n),
        "race": rng.choice(["a", "b", "c", "d"], n, p=[0.4, 0.3, 0.2, 0.1]),
        "sex": rng.choice(["f", "m"], n),
        "country": rng.choice(["fr", "de", "it"], n),
    })


def reference(name, df, pred, sensitive, weight=None, method="between_groups"):
    features = df[sensitive[0]] if len(sensitive) == 1 else df[sensitive]
    return getattr(fm, name)(df["y"], pred, sensitive_features=features, method=method,
                             sample_weight=None if weight is None else df[weight])


def close(ours, theirs):
    WORST[0] = max(WORST[0], abs(ours - theirs))
    assert ours == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_as_fairlearn_on_random_data(name, method, seed):
    df = frame(seed)
    fn = getattr(sm, name)
    for sensitive in (["race"], ["race", "sex"]):
        for weight in (None, "w"):
            close(fn(df, label="y", prediction="p", sensitive=sensitive, weight=weight, method=method),
                  reference(name, df, df["p"], sensitive, weight, method))
            close(fn(df, label="y", score="s", threshold=0.5, sensitive=sensitive, weight=weight, method=method),
                  reference(name, df, (df["s"] >= 0.5).astype(int), sensitive, weight, method))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("method", METHODS)
def test_slices_are_fairlearn_on_each_slice(name, method):
    df = frame(3)
    # a slice without group 'd': its groups are those it has
    df = df[~((df["country"] == "it") & (df["race"] == "d"))]
    got = getattr(sm, name)(df, label="y", prediction="p", sensitive=["race"], weight="w", method=method,
                            by=["country"], details=True).set_index("country")
    assert got.loc["it", "n_groups"] == 3 and got.loc["fr", "n_groups"] == 4
    for country, part in df.groupby("country"):
        close(got.loc[country, name], reference(name, part, part["p"], ["race"], "w", method))
        assert got.loc[country, "n"] == len(part)


@pytest.mark.parametrize("method", METHODS)
def test_details_are_metric_frames(method):
    df = frame(4)
    mf = fm.MetricFrame(metrics={"sel": fm.selection_rate, "tpr": fm.true_positive_rate,
                                 "fpr": fm.false_positive_rate},
                        y_true=df["y"], y_pred=df["p"], sensitive_features=df[["race", "sex"]])
    dp = sm.demographic_parity_difference(df, label="y", prediction="p", sensitive=["race", "sex"], method=method,
                                          details=True).iloc[0]
    close(dp["group_min"], mf.group_min()["sel"])
    close(dp["group_max"], mf.group_max()["sel"])
    close(dp["overall"], mf.overall["sel"])
    assert dp["n_groups"] == len(mf.by_group) == 8
    eo = sm.equalized_odds_ratio(df, label="y", prediction="p", sensitive=["race", "sex"], method=method,
                                 details=True).iloc[0]
    close(eo["tpr_ratio"], mf.ratio(method=method)["tpr"])
    close(eo["fpr_ratio"], mf.ratio(method=method)["fpr"])
    close(eo["equalized_odds_ratio"], min(eo["tpr_ratio"], eo["fpr_ratio"]))


def test_fairlearn_user_guide_example():
    # the arrays and the printed values of fairlearn's user guide, "Common fairness metrics"
    y_true = [0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    y_pred = [0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0]
    sf_data = ["b", "b", "a", "b", "b", "c", "c", "c", "a", "a", "c", "a", "b", "c", "c", "b", "c", "c"]
    df = pd.DataFrame({"y": y_true, "p": y_pred, "sf": sf_data})
    documented = {"demographic_parity_difference": 0.25, "demographic_parity_ratio": 2 / 3,
                  "equalized_odds_difference": 1.0, "equalized_odds_ratio": 0.0}
    for name, value in documented.items():
        close(getattr(sm, name)(df, label="y", prediction="p", sensitive=["sf"]), value)
    for name in NAMES:
        for method in METHODS:
            close(getattr(sm, name)(df, label="y", prediction="p", sensitive=["sf"], method=method),
                  getattr(fm, name)(y_true, y_pred, sensitive_features=sf_data, method=method))


def test_fewer_than_two_groups_is_undefined():
    df = pd.DataFrame({"y": [0, 1, 1], "p": [0, 1, 0], "g": ["a", "a", "a"]})
    assert fm.demographic_parity_difference(df["y"], df["p"], sensitive_features=df["g"]) == 0  # fairlearn's
    for name in NAMES:
        with pytest.raises(UndefinedMetricError, match="fewer than two groups"):
            getattr(sm, name)(df, label="y", prediction="p", sensitive=["g"])


def test_a_group_without_positives_has_no_true_positive_rate():
    df = pd.DataFrame({"y": [1, 1, 0, 0, 0, 0], "p": [1, 0, 1, 0, 1, 0], "g": ["a"] * 4 + ["b"] * 2})
    # fairlearn counts b's true positive rate as 0: a disparity of 0.5 that the data does not show
    assert fm.equal_opportunity_difference(df["y"], df["p"], sensitive_features=df["g"]) == 0.5
    for name in ["equal_opportunity_difference", "equal_opportunity_ratio", "equalized_odds_difference",
                 "equalized_odds_ratio"]:
        with pytest.raises(UndefinedMetricError, match="without positive labels"):
            getattr(sm, name)(df, label="y", prediction="p", sensitive=["g"])
    # the selection rate is defined for every group
    close(sm.demographic_parity_difference(df, label="y", prediction="p", sensitive=["g"]),
          fm.demographic_parity_difference(df["y"], df["p"], sensitive_features=df["g"]))
    # in a slice, the value is NULL there and the other slices are computed
    two = pd.concat([df.assign(c="x"), df.assign(c="z", y=1)])
    got = sm.equal_opportunity_difference(two, label="y", prediction="p", sensitive=["g"], by=["c"]).set_index("c")
    assert pd.isna(got.loc["x", "equal_opportunity_difference"])
    close(got.loc["z", "equal_opportunity_difference"],
          fm.equal_opportunity_difference([1] * 6, df["p"], sensitive_features=df["g"]))


def test_a_group_without_negatives_has_no_false_positive_rate():
    df = pd.DataFrame({"y": [1, 0, 1, 0, 1, 1], "p": [1, 0, 1, 1, 1, 0], "g": ["a"] * 4 + ["b"] * 2})
    for name in ["equalized_odds_difference", "equalized_odds_ratio"]:
        with pytest.raises(UndefinedMetricError, match="without negatives"):
            getattr(sm, name)(df, label="y", prediction="p", sensitive=["g"])
    close(sm.equal_opportunity_difference(df, label="y", prediction="p", sensitive=["g"]),
          fm.equal_opportunity_difference(df["y"], df["p"], sensitive_features=df["g"]))


def test_a_group_of_zero_weight_has_no_rate():
    df = pd.DataFrame({"y": [0, 1, 1, 0], "p": [0, 1, 1, 1], "w": [0.0, 0.0, 1.0, 2.0], "g": ["a", "a", "b", "b"]})
    # fairlearn's rate of the group is 0/0 (NaN), which its max and min leave out: one group left, no disparity
    with np.errstate(invalid="ignore"):
        assert fm.demographic_parity_difference(df["y"], df["p"], sensitive_features=df["g"], sample_weight=df["w"]) == 0
    with pytest.raises(UndefinedMetricError, match="weights are all 0"):
        sm.demographic_parity_difference(df, label="y", prediction="p", sensitive=["g"], weight="w")


@pytest.mark.parametrize("method", METHODS)
def test_a_ratio_of_rates_all_zero_is_undefined(method):
    df = pd.DataFrame({"y": [0, 1, 0, 1], "p": [0, 0, 0, 0], "g": ["a", "a", "b", "b"]})
    assert np.isnan(fm.demographic_parity_ratio(df["y"], df["p"], sensitive_features=df["g"], method=method))
    with pytest.raises(UndefinedMetricError, match="0/0"):
        sm.demographic_parity_ratio(df, label="y", prediction="p", sensitive=["g"], method=method)
    assert sm.demographic_parity_difference(df, label="y", prediction="p", sensitive=["g"], method=method) == 0


def test_a_null_sensitive_value_is_an_error():
    df = pd.DataFrame({"y": [0, 1, 1], "p": [0, 1, 1], "g": ["a", None, "b"]})
    with pytest.raises(ValueError, match="missing values"):
        fm.demographic_parity_difference(df["y"], df["p"], sensitive_features=df["g"])
    with pytest.raises(MetricError, match="NULL"):
        sm.demographic_parity_difference(df, label="y", prediction="p", sensitive=["g"])


def test_parameters_are_checked():
    df = frame(5, n=20)
    with pytest.raises(ParameterError, match="between_groups"):
        sm.demographic_parity_difference(df, label="y", prediction="p", sensitive=["race"], method="worst")
    with pytest.raises(ParameterError):
        sm.demographic_parity_difference(df, label="y", prediction="p", score="s", sensitive=["race"])
    with pytest.raises(ParameterError):
        sm.demographic_parity_difference(df, label="y", prediction="p")
    with pytest.raises(ParameterError, match="both sensitive and in by"):
        sm.demographic_parity_difference(df, label="y", prediction="p", sensitive=["race", "sex"], by=["sex"])


def test_labels_of_other_values_with_pos_label():
    df = frame(6)
    named = df.assign(y=df["y"].map({1: "yes", 0: "no"}), p=df["p"].map({1: "yes", 0: "no"}))
    for name in NAMES:
        close(getattr(sm, name)(named, label="y", prediction="p", pos_label="yes", sensitive=["race"], weight="w"),
              reference(name, df, df["p"], ["race"], "w"))


@pytest.mark.parametrize("name", ["equalized_odds_difference", "equalized_odds_ratio"])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("agg", ["worst_case", "mean"])
def test_equalized_odds_agg_as_fairlearn(name, method, agg):
    for seed in (7, 8):
        df = frame(seed)
        for sensitive, weight in ((["race"], None), (["race", "sex"], "w")):
            features = df[sensitive[0]] if len(sensitive) == 1 else df[sensitive]
            close(getattr(sm, name)(df, label="y", prediction="p", sensitive=sensitive, weight=weight, method=method,
                                    agg=agg),
                  getattr(fm, name)(df["y"], df["p"], sensitive_features=features, method=method, agg=agg,
                                    sample_weight=None if weight is None else df[weight]))
    # per slice, and the mean is NULL where either rate's disparity is (a group without negatives)
    df = frame(9)
    df.loc[(df["country"] == "it") & (df["race"] == "d"), "y"] = 1
    got = getattr(sm, name)(df, label="y", prediction="p", sensitive=["race"], method=method, agg=agg,
                            by=["country"]).set_index("country")
    assert pd.isna(got.loc["it", name])
    for country in ("fr", "de"):
        part = df[df["country"] == country]
        close(got.loc[country, name], getattr(fm, name)(part["y"], part["p"], sensitive_features=part["race"],
                                                          method=method, agg=agg))
    with pytest.raises(ParameterError, match="worst_case"):
        getattr(sm, name)(df, label="y", prediction="p", sensitive=["race"], agg="max")


@pytest.mark.filterwarnings("ignore:bootstrap of")
@pytest.mark.parametrize("name", NAMES)
def test_bootstrap_of_a_disparity_is_fairlearn_on_the_same_replicates(name):
    """sm.bootstrap of a fairness metric, on SQLite, whose draws numpy reproduces (test_bootstrap's
    poisson_draws): each replicate is fairlearn's metric with sample_weight = w * k (a replicate where a
    group weighs 0 in a rate's denominator is undefined, as the metric is), the interval numpy's
    percentiles and standard deviation."""
    import sqlite3
    df = frame(10, n=1500)
    n_boot, seed = 60, 3
    con = sqlite3.connect(":memory:")
    df.to_sql("preds", con, index=False)
    try:
        got = sm.bootstrap(name, "preds", con=con, label="y", prediction="p", sensitive=["sex", "race"], weight="w",
                           by="country", method="to_overall", n_boot=n_boot, seed=seed).set_index("country")
    finally:
        con.close()
    # sql/bootstrap.sql's unit of a row: by, weight, label, prediction, sensitive, then its place among equal rows
    k = poisson_draws(row_units(df, ["country", "w", "y", "p", "sex", "race"]), n_boot, seed)
    y = df["y"].to_numpy()
    needs = [np.ones(len(df), bool)] if name.startswith("demographic") else [y == 1] + (
        [y == 0] if name.startswith("equalized") else [])

    def statistic(at, kk):
        part, w = df.loc[at], df.loc[at, "w"].to_numpy() * kk
        groups = part.groupby(["sex", "race"]).ngroup().to_numpy()
        if any(w[(groups == g) & need[at]].sum() == 0 for g in np.unique(groups) for need in needs):
            return np.nan
        with np.errstate(invalid="ignore", divide="ignore"):
            return getattr(fm, name)(part["y"], part["p"], sensitive_features=part[["sex", "race"]], sample_weight=w,
                                     method="to_overall")
    for country, part in df.groupby("country"):
        at = part.index.to_numpy()
        want = interval(np.array([statistic(at, k[b, at]) for b in range(n_boot + 1)]), n_boot)
        assert got.loc[country, "n_boot"] == want["n_boot"] > 0.9 * n_boot
        for column in ("estimate", "std_error", "ci_low", "ci_high"):
            close(float(got.loc[country, column]), want[column])


def test_worst_difference_seen():
    print(f"largest |sqlmetrics - fairlearn|: {WORST[0]:.3g}")
