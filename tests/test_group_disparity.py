"""sm.group_disparity against fairlearn's MetricFrame (0.15): by_group, overall, group_min, group_max,
difference and ratio (both methods) of scikit-learn's metrics on random data with weights
(sample_params), one and two sensitive columns, by slices (control_features), the groups whose
value is undefined, fairlearn's own documented example; and where it coincides with the fairness
metrics (the selection rate is the mean of the prediction: mae against a zero target)."""
from __future__ import annotations

import functools
import warnings

import fairlearn.metrics as fm
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import (accuracy_score, fbeta_score, log_loss, mean_absolute_error, precision_score, r2_score,
                             recall_score, roc_auc_score)

import sqlmetrics as sm
from sqlmetrics.errors import ParameterError, UndefinedMetricError

METHODS = ["between_groups", "to_overall"]
#: the largest |sqlmetrics - fairlearn| seen, printed at the end of the module's run
WORST = [0.0]


def frame(seed, n=600):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(y * 0.8, 1.0), 1)  # ties
    t = rng.normal(10, 3, n)
    return pd.DataFrame({
        "y": y, "s": s, "prob": 1 / (1 + np.exp(-s)), "p": (s >= 0.5).astype(int),
        "t": t, "t_hat": t + rng.normal(0, 1 + y, n),
        "w": rng.uniform(0.1, 3.0, n),
        "race": rng.choice(["a", "b", "c", "d"], n, p=[0.4, 0.3, 0.2, 0.1]),
        "sex": rng.choice(["f", "m"], n),
        "country": rng.choice(["fr", "de", "it"], n),
    })


#: sqlmetrics' call -> scikit-learn's function of (y_true, y_pred[, sample_weight]) and the columns it reads
CASES = {
    "recall": (dict(label="y", prediction="p"), recall_score, "y", "p"),
    "precision": (dict(label="y", score="s", threshold=0.5), precision_score, "y", "p"),
    "accuracy": (dict(label="y", prediction="p"), accuracy_score, "y", "p"),
    "auc": (dict(label="y", score="s"), roc_auc_score, "y", "s"),
    "log_loss": (dict(label="y", score="prob"), log_loss, "y", "prob"),
    "mae": (dict(target="t", prediction="t_hat"), mean_absolute_error, "t", "t_hat"),
    "r2": (dict(target="t", prediction="t_hat"), r2_score, "t", "t_hat"),
}


def close(ours, theirs):
    if pd.isna(theirs):
        assert pd.isna(ours)
        return
    WORST[0] = max(WORST[0], abs(ours - theirs))
    assert ours == pytest.approx(theirs, abs=1e-12)


def metric_frame(df, name, sensitive, weight=None, control=None):
    _, fn, y, pred = CASES[name]
    return fm.MetricFrame(metrics=fn, y_true=df[y], y_pred=df[pred],
                          sensitive_features=df[sensitive[0]] if len(sensitive) == 1 else df[sensitive],
                          control_features=None if control is None else df[control],
                          sample_params=None if weight is None else {"sample_weight": df[weight]})


def same_as_metric_frame(got: dict, mf, method):
    close(got["difference"], mf.difference(method=method))
    close(got["ratio"], mf.ratio(method=method))
    close(got["group_min"], mf.group_min())
    close(got["group_max"], mf.group_max())
    close(got["overall"], mf.overall)
    assert got["n_groups"] == len(mf.by_group)


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("method", METHODS)
def test_as_metric_frame_on_random_data(name, method):
    df = frame(1)
    params = CASES[name][0]
    for sensitive in (["race"], ["race", "sex"]):
        for weight in (None, "w"):
            got = sm.group_disparity(df, name, sensitive=sensitive, method=method, weight=weight, **params)
            mf = metric_frame(df, name, sensitive, weight)
            same_as_metric_frame(got, mf, method)
            groups = sm.group_disparity(df, name, sensitive=sensitive, method=method, weight=weight, per_group=True,
                                        **params)
            assert list(groups.columns) == sensitive + [name, "difference", "ratio", "group_min", "group_max",
                                                        "overall", "n_groups"]
            want = mf.by_group.sort_index()
            assert [tuple(k) for k in groups[sensitive].itertuples(index=False)] == [
                k if isinstance(k, tuple) else (k,) for k in want.index]
            for ours, theirs in zip(groups[name], want):
                close(ours, theirs)
            close(groups["difference"].iloc[-1], got["difference"])


@pytest.mark.parametrize("name", ["recall", "auc", "mae"])
@pytest.mark.parametrize("method", METHODS)
def test_slices_are_metric_frames_control_features(name, method):
    df = frame(2)
    df = df[~((df["country"] == "it") & (df["race"] == "d"))]  # a slice without group d: its groups are its own
    got = sm.group_disparity(df, name, sensitive=["race"], method=method, weight="w", by=["country"],
                             **CASES[name][0]).set_index("country")
    mf = metric_frame(df, name, ["race"], "w", control=["country"])
    assert got.loc["it", "n_groups"] == 3 and got.loc["fr", "n_groups"] == 4
    for country in ("de", "fr", "it"):
        close(got.loc[country, "difference"], mf.difference(method=method).loc[country])
        close(got.loc[country, "ratio"], mf.ratio(method=method).loc[country])
        close(got.loc[country, "group_min"], mf.group_min().loc[country])
        close(got.loc[country, "group_max"], mf.group_max().loc[country])
        close(got.loc[country, "overall"], mf.overall.loc[country])
    groups = sm.group_disparity(df, name, sensitive=["race"], method=method, weight="w", by=["country"],
                                per_group=True, **CASES[name][0])
    assert len(groups) == 11 and list(groups.columns[:3]) == ["country", "race", name]
    for row in groups.itertuples(index=False):
        close(getattr(row, name), mf.by_group.loc[(row.country, row.race)])


@pytest.mark.filterwarnings("ignore:Supplied .func. had no __name__")
def test_fairlearn_user_guide_example():
    # fairlearn's user guide, "Advanced usage of MetricFrame", scalar arguments: fbeta_score with beta=0.6
    y_true = [0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    y_pred = [0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0]
    sf_data = ["b", "b", "a", "b", "b", "c", "c", "c", "a", "a", "c", "a", "b", "c", "c", "b", "c", "c"]
    df = pd.DataFrame({"y": y_true, "p": y_pred, "sf": sf_data})
    groups = sm.group_disparity(df, "f_beta", sensitive=["sf"], label="y", prediction="p", beta=0.6, per_group=True)
    assert groups["f_beta"].round(6).tolist() == [0.365591, 0.850000, 0.468966]  # as printed there
    assert groups["overall"].iloc[0] == pytest.approx(0.56983, abs=1e-5)
    mf = fm.MetricFrame(metrics=functools.partial(fbeta_score, beta=0.6), y_true=y_true, y_pred=y_pred,
                        sensitive_features=sf_data)
    for method in METHODS:
        same_as_metric_frame(sm.group_disparity(df, "f_beta", sensitive=["sf"], label="y", prediction="p", beta=0.6,
                                                method=method), mf, method)


@pytest.mark.parametrize("method", METHODS)
def test_the_selection_rate_is_demographic_parity(method):
    """The selection rate of a group is the mean of its 0/1 predictions: mae against a target of 0,
    whose disparity is demographic_parity_difference's and _ratio's."""
    df = frame(3).assign(zero=0.0)
    for weight in (None, "w"):
        got = sm.group_disparity(df, "mae", sensitive=["race", "sex"], target="zero", prediction="p", weight=weight,
                                 method=method)
        for name, column in (("demographic_parity_difference", "difference"), ("demographic_parity_ratio", "ratio")):
            close(got[column], getattr(sm, name)(df, label="y", prediction="p", sensitive=["race", "sex"],
                                                 weight=weight, method=method))


def test_a_group_whose_value_is_undefined():
    df = frame(4, n=200)
    df.loc[df["race"] == "d", "y"] = 0  # group d has no positive label
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's zero_division warning
        mf = metric_frame(df, "recall", ["race"])
        assert mf.by_group["d"] == 0  # scikit-learn's zero_division: 0, a disparity the data does not show
    with pytest.raises(UndefinedMetricError, match="a group's recall is undefined"):
        sm.group_disparity(df, "recall", sensitive=["race"], label="y", prediction="p")
    groups = sm.group_disparity(df, "recall", sensitive=["race"], label="y", prediction="p", per_group=True)
    assert groups["recall"].isna().tolist() == [False, False, False, True]
    assert groups[["difference", "ratio", "group_min", "group_max"]].isna().all().all()
    close(groups["overall"].iloc[0], recall_score(df["y"], df["p"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mf = metric_frame(df, "auc", ["race"])
    # scikit-learn's AUC of one class is NaN (with a warning), which fairlearn's min and max leave out
    assert np.isnan(mf.by_group["d"]) and mf.group_min() == mf.by_group.drop("d").min()
    with pytest.raises(UndefinedMetricError, match="auc"):
        sm.group_disparity(df, "auc", sensitive=["race"], label="y", score="s")
    # in a slice only: the other slices are computed
    got = sm.group_disparity(df, "recall", sensitive=["sex"], label="y", prediction="p", by=["race"]).set_index("race")
    assert pd.isna(got.loc["d", "difference"]) and not got.drop(index="d")["difference"].isna().any()


def test_fewer_than_two_groups_and_a_zero_ratio():
    df = pd.DataFrame({"y": [0, 1, 1, 0], "p": [0, 1, 0, 1], "g": ["a", "a", "a", "a"]})
    mf = fm.MetricFrame(metrics=recall_score, y_true=df["y"], y_pred=df["p"], sensitive_features=df["g"])
    assert mf.difference() == 0  # fairlearn's: no disparity measured
    with pytest.raises(UndefinedMetricError, match="fewer than two groups"):
        sm.group_disparity(df, "recall", sensitive=["g"], label="y", prediction="p")
    # every group's value 0: the difference is 0, the ratio 0/0 (fairlearn's NaN)
    zero = pd.DataFrame({"y": [1, 1, 1, 1], "p": [0, 0, 0, 0], "g": ["a", "a", "b", "b"]})
    for method in METHODS:
        got = sm.group_disparity(zero, "recall", sensitive=["g"], label="y", prediction="p", method=method)
        mf = fm.MetricFrame(metrics=recall_score, y_true=zero["y"], y_pred=zero["p"], sensitive_features=zero["g"])
        with np.errstate(invalid="ignore", divide="ignore"):
            assert got["difference"] == mf.difference(method=method) == 0
            assert np.isnan(got["ratio"]) and np.isnan(mf.ratio(method=method))


def test_what_it_takes():
    df = frame(5, n=50)
    for name, what in (("roc_curve", "a curve"), ("ndcg", "ranked run"), ("novelty", "ranked run"), ("demographic_parity_difference", "already"),
                       ("confusion_matrix", "several values")):
        with pytest.raises(ParameterError, match=f"one value per slice .*{what}"):
            sm.group_disparity(df, name, sensitive=["race"], label="y", score="s")
    with pytest.raises(ParameterError, match="average=None"):
        sm.group_disparity(df, "precision", sensitive=["race"], label="race", prediction="race", average=None)
    with pytest.raises(ParameterError, match="both sensitive and in by|between_groups|output"):
        sm.group_disparity(df, "recall", sensitive=["race"], label="y", prediction="p", method="worst")
    with pytest.raises(ParameterError, match="sensitive"):
        sm.group_disparity(df, "recall", sensitive=[], label="y", prediction="p")
    with pytest.raises(ParameterError, match="output column"):
        sm.group_disparity(df.rename(columns={"race": "ratio"}), "recall", sensitive=["ratio"], label="y",
                           prediction="p")


def test_one_statement_that_render_gives():
    import duckdb
    df = frame(6)
    params = dict(metric="auc", sensitive=["race"], label="y", score="s", weight="w", by=["country"],
                  method="to_overall")
    con = duckdb.connect()
    con.register("preds", df)
    sql = sm.render("group_disparity", "preds", **params)
    want = sm.group_disparity(df, **params)
    got = con.sql(sql).df().sort_values("country").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-12)


def test_the_docstring_example():
    import doctest
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(sm.group_disparity, "group_disparity"):
        runner.run(test)
    assert runner.failures == 0 and runner.tries == 5


def test_worst_difference_seen():
    print(f"largest |sqlmetrics - fairlearn MetricFrame|: {WORST[0]:.3g}")
