"""calibration_curve and ece against sklearn.calibration.calibration_curve and numpy oracles.

The oracles never call sqlmetrics. Bin assignment must be exactly sklearn's (same bin for every row,
including probabilities sitting on an edge); means agree to 1e-12 relative (sums may run in another
order).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sqlglot
from sklearn.calibration import calibration_curve as sk_calibration_curve
from sqlglot import exp

import sqlmetrics as sm

REL = 1e-12
N_BINS = [1, 2, 3, 5, 7, 10, 13, 100]
STRATEGIES = ["uniform", "quantile"]


# ---------------------------------------------------------------------------------------------
# oracles


def sk_binids(p, n_bins, strategy):
    """sklearn's bin of every probability (the code of sklearn.calibration.calibration_curve)."""
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    return np.searchsorted(edges[1:-1], p)


def oracle_curve(y, p, n_bins=5, strategy="uniform", w=None):
    """bin, mean_predicted, fraction_positive, n (weighted means and total weight when w is given)."""
    y, p = np.asarray(y, dtype=float), np.asarray(p, dtype=float)
    ids = sk_binids(p, n_bins, strategy)
    weights = np.ones_like(p) if w is None else np.asarray(w, dtype=float)
    total = np.bincount(ids, weights=weights, minlength=n_bins)
    sum_p = np.bincount(ids, weights=weights * p, minlength=n_bins)
    sum_y = np.bincount(ids, weights=weights * y, minlength=n_bins)
    keep = total > 0
    n = np.bincount(ids, minlength=n_bins) if w is None else total
    return pd.DataFrame({"bin": np.flatnonzero(keep), "mean_predicted": sum_p[keep] / total[keep],
                         "fraction_positive": sum_y[keep] / total[keep], "n": n[keep]})


def oracle_ece(y, p, n_bins=5, strategy="uniform", w=None):
    c = oracle_curve(y, p, n_bins, strategy, w)
    share = c["n"] / c["n"].sum()
    return float(np.sum(share * np.abs(c["fraction_positive"] - c["mean_predicted"]))), len(c)


def assert_curve(got: pd.DataFrame, want: pd.DataFrame, what=""):
    assert list(got.columns[-4:]) == ["bin", "mean_predicted", "fraction_positive", "n"], what
    assert got["bin"].tolist() == want["bin"].tolist(), f"{what}: bins differ\n{got}\n{want}"
    np.testing.assert_allclose(got["n"].to_numpy(float), want["n"].to_numpy(float), rtol=REL, err_msg=what)
    for col in ("mean_predicted", "fraction_positive"):
        np.testing.assert_allclose(got[col].to_numpy(float), want[col].to_numpy(float), rtol=REL, atol=1e-15,
                                   err_msg=f"{what}: {col}")


def check_against_sklearn(y, p, n_bins, strategy, what=""):
    """sqlmetrics vs sklearn itself (prob_true, prob_pred) and vs the bin oracle (bin ids, counts)."""
    df = pd.DataFrame({"y": y, "p": p})
    got = sm.calibration_curve(df, label="y", score="p", n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = sk_calibration_curve(np.asarray(y), np.asarray(p), n_bins=n_bins, strategy=strategy)
    want = oracle_curve(y, p, n_bins, strategy)
    np.testing.assert_allclose(want["fraction_positive"], prob_true, rtol=REL)  # the oracle is sklearn's
    np.testing.assert_allclose(want["mean_predicted"], prob_pred, rtol=REL)
    assert_curve(got, want, f"{what} n_bins={n_bins} {strategy}")
    np.testing.assert_allclose(got["fraction_positive"], prob_true, rtol=REL, atol=1e-15)
    np.testing.assert_allclose(got["mean_predicted"], prob_pred, rtol=REL, atol=1e-15)
    ece, used = oracle_ece(y, p, n_bins, strategy)
    details = sm.ece(df, label="y", score="p", n_bins=n_bins, strategy=strategy, details=True)
    assert details["ece"].iloc[0] == pytest.approx(ece, rel=1e-9, abs=1e-15), what
    assert details["n"].iloc[0] == len(df) and details["n_bins_used"].iloc[0] == used


# ---------------------------------------------------------------------------------------------
# data


def labels_for(p, rng):
    return (rng.random(len(p)) < p).astype(int)


def continuous(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, n)
    return labels_for(p, rng), p


def tied(n=3000, seed=1, decimals=1):
    rng = np.random.default_rng(seed)
    p = np.round(rng.beta(2, 2, n), decimals)
    return labels_for(p, rng), p


def on_edges(n_bins, seed=2):
    """Every uniform edge as numpy computes it (j * (1/n)), as decimal arithmetic gives it (j / n),
    their float neighbours, and 0 and 1 exactly."""
    rng = np.random.default_rng(seed)
    linspace = np.linspace(0, 1, n_bins + 1)
    exact = np.arange(n_bins + 1) / n_bins
    p = np.concatenate([linspace, exact, np.nextafter(linspace, 2), np.nextafter(linspace, -1),
                        np.nextafter(exact, 2), np.nextafter(exact, -1), [0.0, 0.0, 1.0, 1.0]])
    p = np.clip(p, 0, 1)
    p = np.concatenate([p, p])  # each value twice
    return labels_for(p, rng), p


# ---------------------------------------------------------------------------------------------
# against sklearn


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n_bins", N_BINS)
def test_continuous_matches_sklearn(n_bins, strategy):
    y, p = continuous()
    check_against_sklearn(y, p, n_bins, strategy, "continuous")


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n_bins", N_BINS)
@pytest.mark.parametrize("decimals", [1, 2])
def test_heavily_tied_matches_sklearn(n_bins, strategy, decimals):
    y, p = tied(decimals=decimals)
    check_against_sklearn(y, p, n_bins, strategy, f"tied({decimals})")


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n_bins", [1, 3, 5, 6, 7, 10, 11, 20, 25, 49, 100, 1000])
def test_probabilities_on_edges_match_sklearn(n_bins, strategy):
    y, p = on_edges(n_bins)
    check_against_sklearn(y, p, n_bins, strategy, "on edges")


def test_edge_values_are_numpys_floating_point_edges():
    # np.linspace(0, 1, 11)[3] is 0.30000000000000004: 0.3 is below it (bin 2), 0.30000000000000004 is on
    # it (bin 2, searchsorted side='left'), the next float is above it (bin 3)
    p = [0.3, 0.30000000000000004, float(np.nextafter(0.30000000000000004, 1)), 0.0, 1.0, 0.7]
    df = pd.DataFrame({"y": [0, 1, 1, 0, 1, 1], "p": p})
    got = sm.calibration_curve(df, label="y", score="p", n_bins=10)
    assert got["bin"].tolist() == [0, 2, 3, 6, 9]
    assert got["n"].tolist() == [1, 2, 1, 1, 1]
    assert got["bin"].tolist() == sorted(set(sk_binids(np.array(p), 10, "uniform")))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n_bins", [1, 2, 5, 10])
@pytest.mark.parametrize("values", [[0.0], [1.0], [0.5], [0.0, 1.0], [0.2, 0.2, 0.2], [0.0, 0.0, 1.0, 1.0],
                                    [0.1, 0.4], [0.3, 0.30000000000000004, 0.6, 0.9, 0.9]])
def test_tiny_and_constant_data_match_sklearn(values, n_bins, strategy):
    y = [i % 2 for i in range(len(values))]
    check_against_sklearn(y, values, n_bins, strategy, f"{values}")


@pytest.mark.parametrize("n_bins", [3, 5, 10, 20])
@pytest.mark.parametrize("seed", range(6))
def test_quantile_edges_on_data_points_match_sklearn(n_bins, seed):
    """Sizes where (N-1)*q is (nearly) an integer put quantile edges on data values: the tie cases."""
    rng = np.random.default_rng(seed)
    for size in (n_bins + 1, 2 * n_bins + 1, 10 * n_bins + 1, 7 * n_bins, 101):
        p = np.round(rng.random(size), int(rng.integers(1, 4)))
        y = labels_for(p, rng)
        check_against_sklearn(y, p, n_bins, "quantile", f"size={size}")


@pytest.mark.parametrize("n_bins, p", [
    (9, [0.01, 0.02, 0.31, 0.35]),
    (9, [0.07, 0.32, 0.35, 0.44, 0.54, 0.62, 0.83]),
    (3, [0.01, 0.12, 0.12, 0.18, 0.38, 0.42, 0.43, 0.59, 0.67, 0.69]),
    (6, [0.09, 0.14, 0.17, 0.28, 0.38, 0.43, 0.49, 0.54, 0.57, 0.62, 0.63, 0.71, 0.84]),
])
def test_quantile_edges_follow_numpys_interpolation(n_bins, p):
    """Data where DuckDB's QUANTILE_CONT edges (lo + (hi-lo)*gamma) put a probability in another bin
    than np.percentile's (hi - (hi-lo)*(1-gamma) for gamma >= 0.5): the template must follow numpy."""
    p = np.array(p)
    check_against_sklearn(np.arange(len(p)) % 2, p, n_bins, "quantile", f"{p}")
    check_against_sklearn(np.arange(len(p)) % 2, p[::-1], n_bins, "quantile", f"{p} reversed")


# ---------------------------------------------------------------------------------------------
# weights and slices


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n_bins", [1, 3, 10])
def test_weighted_matches_numpy_oracle(n_bins, strategy):
    rng = np.random.default_rng(4)
    y, p = tied(n=1500, seed=4, decimals=2)
    w = np.where(rng.random(len(p)) < 0.1, 0.0, rng.random(len(p)) * 3)
    df = pd.DataFrame({"y": y, "p": p, "w": w})
    got = sm.calibration_curve(df, label="y", score="p", weight="w", n_bins=n_bins, strategy=strategy)
    assert_curve(got, oracle_curve(y, p, n_bins, strategy, w), f"weighted {n_bins} {strategy}")
    ece, used = oracle_ece(y, p, n_bins, strategy, w)
    details = sm.ece(df, label="y", score="p", weight="w", n_bins=n_bins, strategy=strategy, details=True)
    assert details["ece"].iloc[0] == pytest.approx(ece, rel=1e-9)
    assert details["n"].iloc[0] == len(df) and details["n_bins_used"].iloc[0] == used


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_unit_weights_equal_no_weights(strategy):
    y, p = tied(n=500, seed=5)
    df = pd.DataFrame({"y": y, "p": p, "w": 1.0})
    for name in ("calibration_curve", "ece"):
        fn = getattr(sm, name)
        a = fn(df, label="y", score="p", n_bins=7, strategy=strategy, details=True)
        b = fn(df, label="y", score="p", weight="w", n_bins=7, strategy=strategy, details=True)
        pd.testing.assert_frame_equal(a, b, check_dtype=False, rtol=1e-12)


def test_zero_weight_bins_are_empty_and_zero_total_weight_is_undefined():
    df = pd.DataFrame({"y": [0, 1, 1, 0], "p": [0.05, 0.5, 0.55, 0.95], "w": [1.0, 2.0, 1.0, 0.0]})
    got = sm.calibration_curve(df, label="y", score="p", weight="w", n_bins=4)
    assert got["bin"].tolist() == [0, 1, 2] and got["n"].tolist() == [1.0, 2.0, 1.0]
    assert sm.ece(df, label="y", score="p", weight="w", n_bins=4, details=True)["n_bins_used"].iloc[0] == 3
    zero = df.assign(w=0.0)
    with pytest.raises(sm.UndefinedMetricError):
        sm.calibration_curve(zero, label="y", score="p", weight="w")
    with pytest.raises(sm.UndefinedMetricError):
        sm.ece(zero, label="y", score="p", weight="w")
    with pytest.raises(sm.UndefinedMetricError):
        sm.ece(df.iloc[:0], label="y", score="p")


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_by_slices_equal_per_slice_results(strategy, weighted):
    rng = np.random.default_rng(6)
    y, p = tied(n=1200, seed=6, decimals=2)
    df = pd.DataFrame({"y": y, "p": p, "w": rng.random(len(p)),
                       "c": rng.choice(["a", "b", None], len(p)), "d": rng.integers(0, 3, len(p))})
    weight = "w" if weighted else None
    curve = sm.calibration_curve(df, label="y", score="p", weight=weight, n_bins=6, strategy=strategy,
                                 by=["c", "d"])
    ece = sm.ece(df, label="y", score="p", weight=weight, n_bins=6, strategy=strategy, by=["c", "d"])
    assert list(curve.columns) == ["c", "d", "bin", "mean_predicted", "fraction_positive", "n"]
    assert list(ece.columns) == ["c", "d", "ece", "n", "n_bins_used"]
    parts = list(df.groupby(["c", "d"], dropna=False, sort=True))
    assert len(ece) == len(parts) == 9  # the NULL slice included
    for (c, d), part in parts:
        mine = curve[(curve.c.isna() if c is None or c != c else curve.c == c) & (curve.d == d)]
        w = part["w"].to_numpy() if weighted else None
        want = oracle_curve(part["y"].to_numpy(), part["p"].to_numpy(), 6, strategy, w)
        assert_curve(mine.reset_index(drop=True), want, f"slice {c}, {d}")
        alone = sm.calibration_curve(part, label="y", score="p", weight=weight, n_bins=6, strategy=strategy)
        pd.testing.assert_frame_equal(mine.drop(columns=["c", "d"]).reset_index(drop=True), alone,
                                      check_dtype=False, rtol=1e-12)
        row = ece[(ece.c.isna() if c is None or c != c else ece.c == c) & (ece.d == d)]
        value, used = oracle_ece(part["y"].to_numpy(), part["p"].to_numpy(), 6, strategy, w)
        assert row["ece"].iloc[0] == pytest.approx(value, rel=1e-9)
        assert row["n"].iloc[0] == len(part) and row["n_bins_used"].iloc[0] == used


def test_output_is_ordered_by_bin_and_defaults_are_sklearns():
    y, p = continuous(n=300, seed=8)
    df = pd.DataFrame({"y": y, "p": p}).sample(frac=1, random_state=1)
    got = sm.calibration_curve(df, label="y", score="p")
    assert got["bin"].is_monotonic_increasing and len(got) <= 5
    prob_true, prob_pred = sk_calibration_curve(y, p)  # sklearn defaults: n_bins=5, 'uniform'
    np.testing.assert_allclose(got["fraction_positive"], prob_true, rtol=REL)
    np.testing.assert_allclose(got["mean_predicted"], prob_pred, rtol=REL)


def test_boolean_labels_and_integer_probabilities():
    df = pd.DataFrame({"y": [True, False, True, False], "p": [1, 0, 1, 1]})
    got = sm.calibration_curve(df, label="y", score="p", n_bins=3)
    prob_true, prob_pred = sk_calibration_curve(df["y"], df["p"], n_bins=3)
    assert got["bin"].tolist() == [0, 2]
    np.testing.assert_allclose(got["fraction_positive"], prob_true)
    np.testing.assert_allclose(got["mean_predicted"], prob_pred)


# ---------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize("name", ["calibration_curve", "ece"])
def test_parameter_errors(name):
    df = pd.DataFrame({"y": [0, 1], "p": [0.2, 0.8]})
    fn = getattr(sm, name)
    for bad in (0, -3, 2.5, True, "5", None):
        with pytest.raises(sm.ParameterError, match="n_bins"):
            fn(df, label="y", score="p", n_bins=bad)
    for bad in ("bogus", "Uniform", None, 1):
        with pytest.raises(sm.ParameterError, match="strategy"):
            fn(df, label="y", score="p", strategy=bad)
    with pytest.raises(sm.ParameterError):
        fn(df, label="y", score="p", bins=3)
    with pytest.raises(sm.ParameterError):
        fn(df, label="y", score="p", by="bin" if name == "calibration_curve" else "ece")


@pytest.mark.parametrize("name", ["calibration_curve", "ece"])
def test_column_errors(name):
    fn = getattr(sm, name)
    for p in ([0.2, 1.5], [-0.1, 0.5], [0.2, float("nan")], [0.2, None]):
        with pytest.raises(sm.ColumnError):
            fn(pd.DataFrame({"y": [0, 1], "p": p}), label="y", score="p")
    with pytest.raises(sm.ColumnError, match="0/1"):
        fn(pd.DataFrame({"y": [0, 2], "p": [0.2, 0.8]}), label="y", score="p")
    with pytest.raises(sm.ColumnError, match="not found"):
        fn(pd.DataFrame({"y": [0, 1], "p": [0.2, 0.8]}), label="y", score="q")
    with pytest.raises(sm.ColumnError, match="non-negative"):
        fn(pd.DataFrame({"y": [0, 1], "p": [0.2, 0.8], "w": [1, -1]}), label="y", score="p", weight="w")


# ---------------------------------------------------------------------------------------------
# SQL


@pytest.mark.parametrize("dialect", sm.DIALECTS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", ["calibration_curve", "ece"])
def test_renders_one_select_in_every_dialect_with_quoted_names(name, strategy, dialect):
    params = dict(label="order", score='a"b', weight="it's", by=["user id", "用户"], n_bins=12,
                  strategy=strategy)
    sql = sm.render(name, "analytics.preds", dialect=dialect, **params)
    statements = sqlglot.parse(sql, read=dialect)
    assert len(statements) == 1 and isinstance(statements[0], exp.Query)
    tree = statements[0]
    ctes = {c.alias for c in tree.find_all(exp.CTE)}
    assert {t.name for t in tree.find_all(exp.Table)} - ctes == {"preds"}
    seen = {}
    for ident in tree.find_all(exp.Identifier):
        seen.setdefault(ident.name, set()).add(bool(ident.quoted))
    for column in ("order", 'a"b', "it's", "user id", "用户"):
        if dialect == "snowflake" and column == "order":
            column = "ORDER"  # the column Snowflake finds for the plain name order
        assert seen.get(column) == {True}, column
    outputs = set(sm.METRICS[name].outputs)
    strays = {n for n, q in seen.items() if False in q and not n.startswith("sm_") and n not in outputs
              and n not in ("analytics", "preds")}
    assert not strays


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_render_is_what_runs(strategy):
    import duckdb
    y, p = tied(n=400, seed=9, decimals=2)
    frame = pd.DataFrame({"y": y, "p": p})
    con = duckdb.connect()
    con.register("preds", frame)
    sql = sm.render("calibration_curve", "preds", label="y", score="p", n_bins=10, strategy=strategy)
    ran = con.execute(sql).df()
    pd.testing.assert_frame_equal(ran, sm.calibration_curve(frame, label="y", score="p", n_bins=10,
                                                            strategy=strategy), check_dtype=False)
    sql = sm.render("ece", "preds", label="y", score="p", n_bins=10, strategy=strategy)
    assert con.execute(sql).fetchall()[0][0] == pytest.approx(
        sm.ece(frame, label="y", score="p", n_bins=10, strategy=strategy), rel=1e-12)
