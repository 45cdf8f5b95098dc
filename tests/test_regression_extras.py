"""The regression extras on the cases that decide their definitions, against scikit-learn (never
sqlmetrics): the weighted median of median_absolute_error and d2_absolute_error (odd and even
counts, ties, zero weights, half of the weight ending exactly on a value) on both of their plans,
zero targets (mape), values at and near -1 and tiny values (msle), constant targets, shifted
predictions and single rows (force_finite). test_against_sklearn.py checks every metric on its
random data kinds and slices; test_parallel_plan.py the parallel plan against the aggregate one."""
from __future__ import annotations

import math
import warnings

import duckdb
import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import sqlmetrics as sm
from sqlmetrics import plans

REL = 1e-9
NAN = float("nan")


@pytest.fixture(params=["aggregate", "parallel"])
def plan(request, monkeypatch):
    """The median metrics run with this plan (DuckDB's own choice is 'aggregate')."""
    monkeypatch.setattr(plans.ParallelWhenDistributed, "default", lambda self, dialect: request.param)
    return request.param


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def frame(errors, weights=None, targets=None):
    """Rows whose absolute errors are `errors` (prediction = target + error)."""
    errors = np.asarray(errors, dtype=float)
    t = np.zeros(len(errors)) if targets is None else np.asarray(targets, dtype=float)
    d = pd.DataFrame({"t": t, "p": t + errors})
    if weights is not None:
        d["w"] = np.asarray(weights, dtype=float)
    return d


def assert_close(got, want, what=""):
    assert math.isclose(got, want, rel_tol=REL, abs_tol=1e-12), f"{what}: sqlmetrics {got!r}, sklearn {want!r}"


# -- the weighted median ----------------------------------------------------------------------------

@pytest.mark.parametrize("errors, weights", [
    ([7], None),  # one row
    ([1, 5, 2], None),  # odd: the middle value
    ([1, 2, 3, 10], None),  # even: the mean of the two middle values
    ([1, 2, 2, 3], None),  # even, the two middle values tied
    ([4, 2, 2, 2, 3, 1], None),
    ([1, 2, 3, 4], [1, 1, 1, 1]),  # unit weights: numpy.median
    ([1, 2, 3, 4], [1, 2, 0, 3]),  # half the weight ends on 2; the next value of positive weight is 4
    ([1, 2, 3, 4], [0, 2, 1, 1]),  # a zero weight before
    ([1, 2, 3, 4], [3, 0, 0, 3]),  # zero weights between the two halves
    ([1, 2, 3, 4], [1, 1, 2, 0]),  # half ends on the last value of positive weight: no next one
    ([5, 5, 5], [0.5, 0.25, 0.25]),  # one value
    ([0.5, 1.5, 2.5], [0.25, 0.5, 0.25]),  # half falls inside a value
    ([3, 1, 2, 2], [0.5, 0.5, 0.5, 0.5]),
    ([9, 1], [0, 1]),  # one row of positive weight
])
def test_median_absolute_error_hand_cases(errors, weights, plan):
    d = frame(errors, weights)
    w = None if weights is None else d["w"]
    got = sm.median_absolute_error(d, target="t", prediction="p", **({"weight": "w"} if weights else {}))
    assert_close(got, skm.median_absolute_error(d.t, d.p, sample_weight=w), f"{errors} {weights}")
    if weights is None:
        assert got == np.median(errors)


@pytest.mark.parametrize("seed", range(12))
def test_median_with_integer_weights_and_ties(seed, plan):
    """Integer weights and few distinct values: half of the weight often ends exactly on a value."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    d = frame(rng.integers(0, 6, n) * 0.5, rng.integers(0, 4, n), targets=rng.integers(-3, 3, n))
    d["c"] = rng.choice(["a", "b", None], n)
    for weighted in (False, True):
        kwargs = {"weight": "w"} if weighted else {}
        w = d["w"] if weighted else None
        if weighted and d.w.sum() == 0:
            with pytest.raises(sm.UndefinedMetricError):
                sm.median_absolute_error(d, target="t", prediction="p", **kwargs)
            continue
        assert_close(sm.median_absolute_error(d, target="t", prediction="p", **kwargs),
                     skm.median_absolute_error(d.t, d.p, sample_weight=w), f"seed {seed}")
        if len(d) >= 2:
            assert_close(sm.d2_absolute_error(d, target="t", prediction="p", **kwargs),
                         quiet(skm.d2_absolute_error_score, d.t, d.p, sample_weight=w), f"d2, seed {seed}")
        sliced = sm.median_absolute_error(d, target="t", prediction="p", by="c", **kwargs)
        for key, part in d.groupby("c", dropna=False):
            row = sliced[sliced.c.isna()] if pd.isna(key) else sliced[sliced.c == key]
            pw = part["w"] if weighted else None
            want = NAN if weighted and part.w.sum() == 0 else skm.median_absolute_error(part.t, part.p, sample_weight=pw)
            got = row["median_absolute_error"].iloc[0]
            assert (math.isnan(got) and math.isnan(want)) or math.isclose(got, want, rel_tol=REL), (key, got, want)
            assert row["n"].iloc[0] == len(part)


@pytest.mark.parametrize("n", [2, 3, 1000, 1001])
def test_median_of_continuous_data(n, plan):
    rng = np.random.default_rng(n)
    d = frame(np.abs(rng.standard_normal(n)) * 10.0 ** rng.integers(-5, 5, n), rng.exponential(size=n),
              targets=rng.standard_normal(n))
    assert_close(sm.median_absolute_error(d, target="t", prediction="p"), skm.median_absolute_error(d.t, d.p))
    assert_close(sm.median_absolute_error(d, target="t", prediction="p", weight="w"),
                 skm.median_absolute_error(d.t, d.p, sample_weight=d.w))
    assert_close(sm.d2_absolute_error(d, target="t", prediction="p", weight="w"),
                 skm.d2_absolute_error_score(d.t, d.p, sample_weight=d.w))


# -- force_finite and small tables --------------------------------------------------------------------

@pytest.mark.parametrize("t, p, w", [
    ([2.0], [3.0], None),  # one row: y - p is constant
    ([0.1, 0.1, 0.1], [0.2, 0.0, 0.5], None),  # constant target (whose float mean is not 0.1)
    ([1.0, 2.0, 4.0], [2.0, 3.0, 5.0], None),  # a shifted prediction explains all the variance
    ([1.0, 2.0, 4.0], [1.0, 2.0, 4.0], [1.0, 0.0, 2.0]),
    ([1.0, 2.0, 4.0, 8.0], [0.0, 2.0, 5.0, 8.0], [1.0, 0.0, 2.0, 0.5]),
    ([1.0, 2.0, 4.0], [1.0, 9.0, 4.0], [1.0, 0.0, 2.0]),  # wrong only on a row of weight 0
])
def test_explained_variance_force_finite(t, p, w):
    d = pd.DataFrame({"t": t, "p": p, "w": w if w else [1.0] * len(t)})
    got = sm.explained_variance(d, target="t", prediction="p", **({"weight": "w"} if w else {}))
    live = d.w > 0
    if np.ptp((d.t - d.p)[live]) == 0:
        want = 1.0  # sklearn's rule (numerator 0), applied exactly
    elif np.ptp(d.t[live]) == 0:
        want = 0.0  # sklearn's rule (denominator 0): it misses it when the float mean of the constant rounds
    else:
        want = skm.explained_variance_score(d.t, d.p, sample_weight=d.w if w else None)
    assert_close(got, want)


def test_explained_variance_of_one_row_is_one_as_sklearn():
    d = pd.DataFrame({"t": [2.0], "p": [7.0]})
    assert sm.explained_variance(d, target="t", prediction="p") == skm.explained_variance_score(d.t, d.p) == 1.0


@pytest.mark.parametrize("t, p, want", [
    ([2.0, 2.0, 2.0], [2.0, 2.0, 2.0], 1.0),  # constant target, predicted exactly
    ([2.0, 2.0, 2.0], [2.0, 1.0, 2.0], 0.0),  # constant target, not
    ([1.0, 2.0], [1.0, 2.0], 1.0),
    ([1.0, 3.0], [2.0, 2.0], 0.0),  # predicting the median removes nothing
])
def test_d2_absolute_error_force_finite(t, p, want, plan):
    assert skm.d2_absolute_error_score(t, p) == want
    assert sm.d2_absolute_error(pd.DataFrame({"t": t, "p": p}), target="t", prediction="p") == want


def test_d2_absolute_error_needs_two_rows(plan):
    d = pd.DataFrame({"t": [1.0, 2.0], "p": [1.5, 2.0], "c": ["a", "b"]})
    with pytest.raises(sm.UndefinedMetricError, match="two rows"):
        sm.d2_absolute_error(d.iloc[:1], target="t", prediction="p")
    assert math.isnan(quiet(skm.d2_absolute_error_score, d.t[:1], d.p[:1]))
    assert sm.d2_absolute_error(d, target="t", prediction="p", by="c")["d2_absolute_error"].isna().all()


# -- mape ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("t, p", [
    ([0.0, 0.0, 1.0], [0.0, 1e-3, 2.0]),  # a zero target: |y - p| / eps
    ([1e-20, -3.0, 2.0], [1.0, -2.0, 2.5]),  # below eps: eps
    ([-4.0, 5e-16, 100.0], [4.0, 0.0, 90.0]),  # just above eps: itself
])
def test_mape_small_and_zero_targets(t, p):
    d = pd.DataFrame({"t": t, "p": p, "w": [0.5, 2.0, 1.0]})
    assert_close(sm.mape(d, target="t", prediction="p"), skm.mean_absolute_percentage_error(d.t, d.p))
    assert_close(sm.mape(d, target="t", prediction="p", weight="w"),
                 skm.mean_absolute_percentage_error(d.t, d.p, sample_weight=d.w))


# -- msle ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["msle", "rmsle"])
def test_msle_tiny_and_near_minus_one_values(name):
    """ln(1 + x) to full precision: LN(1 + x) would keep only ~4 digits of the error at x ~ 1e-12."""
    reference = {"msle": skm.mean_squared_log_error, "rmsle": skm.root_mean_squared_log_error}[name]
    rng = np.random.default_rng(3)
    for t, p in [(rng.random(50) * 1e-12, rng.random(50) * 1e-12),
                 (-1 + rng.random(50) * 1e-6, -1 + rng.random(50) * 1e-3),
                 (np.expm1(rng.normal(0, 5, 50)), np.expm1(rng.normal(0, 5, 50)))]:
        d = pd.DataFrame({"t": t, "p": p, "w": rng.exponential(size=50)})
        assert_close(getattr(sm, name)(d, target="t", prediction="p"), reference(d.t, d.p), name)
        assert_close(getattr(sm, name)(d, target="t", prediction="p", weight="w"),
                     reference(d.t, d.p, sample_weight=d.w), name)


@pytest.mark.parametrize("name", ["msle", "rmsle"])
@pytest.mark.parametrize("column, value", [("t", -1.0), ("p", -1.0), ("p", -7.5)])
def test_msle_refuses_values_at_or_below_minus_one(name, column, value):
    d = pd.DataFrame({"t": [1.0, 2.0, 3.0], "p": [1.0, 2.5, 2.0]})
    d.loc[1, column] = value
    with pytest.raises(ValueError, match="less than or equal to -1"):  # as sklearn
        skm.mean_squared_log_error(d.t, d.p)
    param = {"t": "target", "p": "prediction"}[column]
    with pytest.raises(sm.ColumnError, match=rf"{param} must be above -1.*column '{column}' \({param}\) has 1 value "
                                             rf"<= -1, e.g. {value}"):
        getattr(sm, name)(d, target="t", prediction="p")


def test_msle_sql_fails_on_a_value_at_minus_one():
    """The rendered SQL (dbt, sm.render) stops on such a value too, instead of a NaN or -inf."""
    con = duckdb.connect()
    con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES (1.0, 2.0), (-1.0, 0.5)) AS v(t, p)")
    with pytest.raises(duckdb.Error, match="above -1"):
        con.execute(sm.render("msle", "preds", target="t", prediction="p")).fetchall()


# -- max_error ---------------------------------------------------------------------------------------

def test_max_error_takes_no_weight():
    d = pd.DataFrame({"t": [1.0, 2.0, 3.0], "p": [1.5, 0.0, 3.0], "w": [1.0, 0.0, 1.0]})
    assert sm.max_error(d, target="t", prediction="p") == skm.max_error(d.t, d.p) == 2.0
    with pytest.raises(sm.ParameterError, match="weight"):
        sm.max_error(d, target="t", prediction="p", weight="w")
