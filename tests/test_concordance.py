"""concordance_index (Harrell's C) against scikit-survival's concordance_index_censored and lifelines'
concordance_index, concordance_index_ipcw (Uno's C) against scikit-survival's: ties in time and in
score, censoring (also at an event's time), tau, a training set, slices."""
import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from sqlmetrics.errors import UndefinedMetricError

sksurv_metrics = pytest.importorskip("sksurv.metrics")
lifelines_utils = pytest.importorskip("lifelines.utils")
sksurv_util = pytest.importorskip("sksurv.util")


def _data(seed, n=400, times=30, scores=25, censored=0.4):
    """Few distinct times and scores, so that ties in both abound."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"t": rng.integers(1, times, n).astype(float), "e": (rng.random(n) >= censored).astype(int),
                         "s": rng.integers(0, scores, n) / scores, "g": rng.integers(0, 3, n)})


def _sksurv(df):
    c, con, dis, tied, _ = sksurv_metrics.concordance_index_censored(df.e.astype(bool).to_numpy(), df.t.to_numpy(),
                                                                     df.s.to_numpy())
    return c, con, dis, tied


@pytest.mark.parametrize("seed", range(6))
def test_matches_scikit_survival(seed):
    df = _data(seed)
    row = sm.concordance_index(df, duration="t", event="e", score="s", details=True).iloc[0]
    c, con, dis, tied = _sksurv(df)
    assert row.concordance_index == pytest.approx(c, abs=1e-12)
    assert (row.concordant, row.discordant, row.tied_risk) == (con, dis, tied)
    assert row.comparable == con + dis + tied


@pytest.mark.parametrize("seed", range(6))
def test_matches_lifelines_with_higher_survival(seed):
    df = _data(seed, censored=0.2 + 0.1 * seed)
    got = sm.concordance_index(df, duration="t", event="e", score="s", higher="survival")
    assert got == pytest.approx(lifelines_utils.concordance_index(df.t, df.s, df.e), abs=1e-12)
    # the same score read as a risk is the complement here (every comparable pair ordered one way or tied)
    assert sm.concordance_index(df, duration="t", event="e", score="s") == pytest.approx(1 - got, abs=1e-12)


def test_continuous_scores_and_times():
    rng = np.random.default_rng(7)
    df = pd.DataFrame({"t": rng.exponential(size=3000), "e": rng.integers(0, 2, 3000), "s": rng.normal(size=3000)})
    assert sm.concordance_index(df, duration="t", event="e", score="s") == pytest.approx(_sksurv(df)[0], abs=1e-12)


def test_ties_at_one_time():
    # an event is compared with a row censored at its time, never with another event of that time
    df = pd.DataFrame({"t": [2.0, 2.0, 2.0, 2.0, 3.0], "e": [1, 1, 0, 0, 0], "s": [0.9, 0.1, 0.5, 0.5, 0.0]})
    row = sm.concordance_index(df, duration="t", event="e", score="s", details=True).iloc[0]
    c, con, dis, tied = _sksurv(df)
    assert (row.concordant, row.discordant, row.tied_risk, row.comparable) == (con, dis, tied, 6)
    assert row.concordance_index == pytest.approx(c)
    assert sm.concordance_index(df, duration="t", event="e", score="s", higher="survival") == pytest.approx(
        lifelines_utils.concordance_index(df.t, df.s, df.e))


def test_by_slices():
    df = _data(11, n=900)
    got = sm.concordance_index(df, duration="t", event="e", score="s", by=["g"]).set_index("g")
    for g, part in df.groupby("g"):
        assert got.loc[g, "concordance_index"] == pytest.approx(_sksurv(part)[0], abs=1e-12)


def test_documented_examples():
    # lifelines' docstring example: a perfect ordering by predicted survival
    assert sm.concordance_index(pd.DataFrame({"t": [1.0, 2, 3, 4], "e": [1, 1, 1, 1], "s": [1.0, 2, 3, 4]}),
                                duration="t", event="e", score="s", higher="survival") == 1.0
    # scikit-survival's: an estimate that ranks risks inversely is 0
    df = pd.DataFrame({"t": [1.0, 2, 3, 4], "e": [1, 0, 1, 0], "s": [0.1, 0.2, 0.3, 0.4]})
    assert sm.concordance_index(df, duration="t", event="e", score="s") == _sksurv(df)[0] == 0.0


def test_no_comparable_pair_is_undefined():
    all_censored = pd.DataFrame({"t": [1.0, 2, 3], "e": [0, 0, 0], "s": [0.1, 0.2, 0.3]})
    with pytest.raises(UndefinedMetricError, match="comparable pair"):
        sm.concordance_index(all_censored, duration="t", event="e", score="s")
    with pytest.raises(ValueError, match="censored"):
        _sksurv(all_censored)
    with pytest.raises(ZeroDivisionError, match="admissable pairs"):
        lifelines_utils.concordance_index(all_censored.t, all_censored.s, all_censored.e)
    # events only at the last time: nothing after them (scikit-survival divides 0 by 0 into NaN)
    last = pd.DataFrame({"t": [1.0, 2, 2], "e": [0, 1, 1], "s": [0.1, 0.2, 0.3]})
    with pytest.raises(UndefinedMetricError, match="comparable pair"):
        sm.concordance_index(last, duration="t", event="e", score="s")
    with pytest.raises(ZeroDivisionError, match="admissable pairs"):
        lifelines_utils.concordance_index(last.t, last.s, last.e)
    # a slice without a pair stays in the result, undefined
    df = pd.concat([all_censored.assign(g="a"), pd.DataFrame({"t": [1.0, 2], "e": [1, 0], "s": [0.5, 0.1], "g": "b"})])
    got = sm.concordance_index(df, duration="t", event="e", score="s", by=["g"]).set_index("g")
    assert np.isnan(got.loc["a", "concordance_index"]) and got.loc["b", "concordance_index"] == 1.0


# -- Uno's C: concordance_index_ipcw -----------------------------------------------------------------


def _surv(df):
    return sksurv_util.Surv.from_arrays(df.e.astype(bool).to_numpy(), df.t.to_numpy())


def _uncensored_last(df):
    """`df` and one more row, an event after every other time: scikit-survival's censoring estimate is 0
    at the last time when a row is censored there, and it refuses any event at such a time."""
    return pd.concat([df, pd.DataFrame({"t": [df.t.max() + 1], "e": [1], "s": [0.5], "g": [0]})], ignore_index=True)





@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("tau", [None, 20.0])
def test_ipcw_matches_scikit_survival(seed, tau):
    df = _uncensored_last(_data(seed, censored=0.2 + 0.1 * seed))
    row = sm.concordance_index_ipcw(df, duration="t", event="e", score="s", tau=tau, details=True).iloc[0]
    c, con, dis, tied, _ = sksurv_metrics.concordance_index_ipcw(_surv(df), _surv(df), df.s.to_numpy(), tau=tau)
    assert row.concordance_index_ipcw == pytest.approx(c, rel=1e-12)
    assert (row.concordant, row.discordant, row.tied_risk) == (con, dis, tied)


@pytest.mark.parametrize("tau", [None, 25.0])
def test_ipcw_with_a_training_set_and_slices(tau):
    train = _uncensored_last(_data(20, n=600))
    test = _data(21, n=500)
    test = test[test.t < train.t.max()]
    got = sm.concordance_index_ipcw(test, duration="t", event="e", score="s", tau=tau, train=train,
                                    by=["g"]).set_index("g")
    for g, part in test.groupby("g"):
        want = sksurv_metrics.concordance_index_ipcw(_surv(train), _surv(part), part.s.to_numpy(), tau=tau)[0]
        assert got.loc[g, "concordance_index_ipcw"] == pytest.approx(want, rel=1e-12)


def test_ipcw_without_censoring_is_harrells():
    df = _data(3, censored=0.0)
    assert sm.concordance_index_ipcw(df, duration="t", event="e", score="s") == pytest.approx(
        sm.concordance_index(df, duration="t", event="e", score="s"), rel=1e-12)


def test_ipcw_the_catalogue_example():
    # the example the documentation runs (0.939), from scikit-survival
    df = pd.DataFrame({"t": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "e": [1, 0, 1, 1, 0, 1],
                       "s": [0.9, 0.5, 0.7, 0.2, 0.2, 0.1]})
    want = sksurv_metrics.concordance_index_ipcw(_surv(df), _surv(df), df.s.to_numpy())[0]
    assert round(want, 4) == 0.939
    assert sm.concordance_index_ipcw(df, duration="t", event="e", score="s") == pytest.approx(want, rel=1e-12)


def test_ipcw_undefined_where_scikit_survival_refuses():
    # censored at the last time, beside an event: the censoring survival there is 0
    df = pd.DataFrame({"t": [1.0, 2.0, 3.0, 3.0], "e": [1, 0, 1, 0], "s": [0.9, 0.5, 0.7, 0.2]})
    with pytest.raises(ValueError, match="censoring survival function is zero"):
        sksurv_metrics.concordance_index_ipcw(_surv(df), _surv(df), df.s.to_numpy())
    with pytest.raises(UndefinedMetricError, match="censoring survival above 0"):
        sm.concordance_index_ipcw(df, duration="t", event="e", score="s")
    # an event later than every training time (a survival still above 0 there)
    train = pd.DataFrame({"t": [1.0, 2.0, 3.0], "e": [1, 0, 1]})
    test = pd.DataFrame({"t": [1.0, 4.0, 5.0], "e": [1, 1, 0], "s": [0.9, 0.5, 0.7]})
    with pytest.raises(ValueError, match="smaller than largest observed time"):
        sksurv_metrics.concordance_index_ipcw(_surv(train), _surv(test), test.s.to_numpy())
    with pytest.raises(UndefinedMetricError, match="later than every training time"):
        sm.concordance_index_ipcw(test, duration="t", event="e", score="s", train=train)
    # ...unless tau leaves it out
    assert sm.concordance_index_ipcw(test, duration="t", event="e", score="s", train=train, tau=3.0) == pytest.approx(
        sksurv_metrics.concordance_index_ipcw(_surv(train), _surv(test), test.s.to_numpy(), tau=3.0)[0], rel=1e-12)


# -- the time-dependent AUC: cumulative_dynamic_auc ----------------------------------------------------


def _dynamic(train, test, times):
    aucs, mean = sksurv_metrics.cumulative_dynamic_auc(_surv(train), _surv(test), test.s.to_numpy(), times)
    return aucs, mean


@pytest.mark.parametrize("seed", range(4))
def test_dynamic_auc_matches_scikit_survival(seed):
    df = _uncensored_last(_data(seed, censored=0.2 + 0.1 * seed))
    times = [2.0, 7.5, 15.0, 28.0]
    got = sm.cumulative_dynamic_auc(df, duration="t", event="e", score="s", times=times)
    aucs, mean = _dynamic(df, df, times)
    assert got.time.tolist() == times
    assert got.cumulative_dynamic_auc.to_numpy() == pytest.approx(aucs, rel=1e-12)
    assert got.mean_auc.to_numpy() == pytest.approx(np.full(len(times), mean), rel=1e-12)


def test_dynamic_auc_one_time_and_unsorted_times():
    df = _uncensored_last(_data(5))
    one = sm.cumulative_dynamic_auc(df, duration="t", event="e", score="s", times=12.0)
    aucs, mean = _dynamic(df, df, [12.0])
    assert one.cumulative_dynamic_auc.iloc[0] == pytest.approx(aucs[0], rel=1e-12) == pytest.approx(mean, rel=1e-12)
    got = sm.cumulative_dynamic_auc(df, duration="t", event="e", score="s", times=[20.0, 4.0])
    assert got.time.tolist() == [4.0, 20.0]
    assert got.cumulative_dynamic_auc.to_numpy() == pytest.approx(_dynamic(df, df, [4.0, 20.0])[0], rel=1e-12)


def test_dynamic_auc_with_a_training_set_slices_and_higher_survival():
    train = _uncensored_last(_data(30, n=600))
    test = _data(31, n=500)
    test = test[test.t < train.t.max()]
    times = [5.0, 12.0, 20.0]
    got = sm.cumulative_dynamic_auc(test, duration="t", event="e", score="s", times=times, train=train, by=["g"])
    for g, part in test.groupby("g"):
        aucs, mean = _dynamic(train, part, times)
        mine = got[got.g == g]
        assert mine.cumulative_dynamic_auc.to_numpy() == pytest.approx(aucs, rel=1e-12)
        assert mine.mean_auc.iloc[0] == pytest.approx(mean, rel=1e-12)
    # a survival score: the risk is its negation
    flipped = sm.cumulative_dynamic_auc(test.assign(s=-test.s), duration="t", event="e", score="s", times=times,
                                        train=train, higher="survival")
    assert flipped.cumulative_dynamic_auc.to_numpy() == pytest.approx(_dynamic(train, test, times)[0], rel=1e-12)


def test_dynamic_auc_outside_the_follow_up_is_undefined():
    df = _uncensored_last(_data(6))
    with pytest.raises(ValueError, match="within follow-up time"):
        _dynamic(df, df, [df.t.max() + 1])
    with pytest.raises(UndefinedMetricError, match="a control"):
        sm.cumulative_dynamic_auc(df, duration="t", event="e", score="s", times=[df.t.max() + 1])
    # in a slice: that time's AUC and the slice's mean are NULL, the other slices' values stand (only
    # slice 0 has a row after 29.5: the row _uncensored_last adds, at 30)
    got = sm.cumulative_dynamic_auc(df, duration="t", event="e", score="s", times=[5.0, 29.5], by=["g"])
    assert df[df.t > 29.5].g.tolist() == [0]
    late, early = got[got.time == 29.5].set_index("g"), got[got.time == 5.0].set_index("g")
    assert late.loc[[1, 2]].cumulative_dynamic_auc.isna().all() and late.loc[[1, 2]].mean_auc.isna().all()
    assert early.loc[[1, 2]].cumulative_dynamic_auc.notna().all()
    part = df[df.g == 0]
    assert late.loc[0].cumulative_dynamic_auc == pytest.approx(_dynamic(part, part, [5.0, 29.5])[0][1], rel=1e-12)


# -- negative durations ---------------------------------------------------------------------------------


def test_harrells_c_takes_negative_times_as_the_references():
    """Harrell's C compares times only: lifelines and scikit-survival take negative ones, and so does it
    (the same value as the times shifted above 0)."""
    df = _data(4).assign(t=lambda d: d.t - 15.0)
    assert (df.t < 0).any()
    assert sm.concordance_index(df, duration="t", event="e", score="s") == pytest.approx(_sksurv(df)[0], abs=1e-12)
    assert sm.concordance_index(df, duration="t", event="e", score="s", higher="survival") == pytest.approx(
        lifelines_utils.concordance_index(df.t, df.s, df.e), abs=1e-12)


@pytest.mark.parametrize("metric, extra", [("concordance_index_ipcw", {}),
                                           ("cumulative_dynamic_auc", {"times": [5.0, 10.0]})])
def test_negative_durations_are_refused_as_scikit_survival(metric, extra):
    """Uno's C and the dynamic AUC weigh by the censoring's Kaplan-Meier estimate from time 0:
    scikit-survival refuses a negative time, of the data or of the training set; so does sqlmetrics,
    naming the column (and the training set's as train's). 0 is a time like any other."""
    df = _uncensored_last(_data(5))
    negative = df.assign(t=df.t.where(df.index % 50 != 7, -1.5))
    reference = getattr(sksurv_metrics, metric)
    refs = (negative.s.to_numpy(),) + tuple(extra.values())
    for train, test in ((df, negative), (negative, df)):
        with pytest.raises(ValueError, match="observed time contains values smaller zero"):
            reference(_surv(train), _surv(test), *refs)
    n = int((negative.t < 0).sum())
    call = getattr(sm, metric)
    with pytest.raises(sm.ColumnError, match=rf"^duration must be >= 0 \(a time since the start of follow-up\); "
                                             rf"column 't' \(duration\) has {n} negative values, e\.g\. -1\.5$"):
        call(negative, duration="t", event="e", score="s", **extra)
    with pytest.raises(sm.ColumnError, match=rf"^duration must be >= 0 .*; column 't' \(duration\) of the pandas "
                                             rf"DataFrame given as train has {n} negative values, e\.g\. -1\.5$"):
        call(df, duration="t", event="e", score="s", train=negative, **extra)
    zero = df.assign(t=df.t.where(df.index != 3, 0.0))
    want = reference(_surv(zero), _surv(zero), zero.s.to_numpy(), *extra.values())
    got = call(zero, duration="t", event="e", score="s", **extra)
    if metric == "concordance_index_ipcw":
        assert got == pytest.approx(want[0], rel=1e-12)
    else:
        assert got.cumulative_dynamic_auc.to_numpy() == pytest.approx(want[0], rel=1e-12)
