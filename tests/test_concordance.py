"""concordance_index (Harrell's C) against scikit-survival's concordance_index_censored and lifelines'
concordance_index: ties in time and in score, censoring (also at an event's time), slices."""
import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from sqlmetrics.errors import UndefinedMetricError

sksurv_metrics = pytest.importorskip("sksurv.metrics")
lifelines_utils = pytest.importorskip("lifelines.utils")


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
