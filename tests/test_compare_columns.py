"""sm.compare of a metric of one value over rows: two columns of the same rows. auc by DeLong's paired
test, which must be sm.auc_compare's and MLstatkit's Delong_test; every other metric (and auc with
test='bootstrap') by the paired Poisson bootstrap, reproduced by numpy from the draws of
sql/bootstrap.sql (on SQLite, whose unit hash is the rank of the unit's values), run in batches as in
one statement, and calibrated: on two equally good scores it rejects about alpha of the time, and a
column compared with itself differs by 0 with p-value 1."""
from __future__ import annotations

import math

import duckdb
import numpy as np
import pandas as pd
import pytest
from MLstatkit import Delong_test
from sklearn.metrics import log_loss, precision_score

import sqlmetrics as sm
from sqlmetrics.errors import ParameterError
from test_bootstrap import poisson_draws, row_units, sliced_sample, sqlite_units

OUTPUTS = ["estimate", "other_estimate", "difference", "std_error", "statistic", "p_value", "ci_low", "ci_high"]


def two_scores(seed=3, n=800):
    """A label, a better score `s` and a worse one `s2` (probabilities `p`, `p2`), users, regions and
    weights."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(y * 1.0, 1.0), 2)
    s2 = np.round(rng.normal(y * 0.6, 1.0), 2)
    return pd.DataFrame({"y": y, "s": s, "s2": s2, "p": 1 / (1 + np.exp(-s)), "p2": 1 / (1 + np.exp(-s2)),
                         "w": rng.integers(1, 4, n).astype(float), "user": rng.integers(0, n // 5, n),
                         "region": rng.integers(0, 3, n)})


def test_auc_is_delongs_paired_test_as_auc_compare_and_mlstatkit():
    df = two_scores()
    got = sm.compare("auc", df, "s2", label="y", score="s")
    delong = sm.auc_compare(df, label="y", score="s", other_score="s2")
    renamed = {"estimate": "auc", "other_estimate": "other_auc", "statistic": "z"}
    assert got == {c: delong[renamed.get(c, c)] for c in OUTPUTS + ["n_pos", "n_neg"]}
    z, p, _, _, auc_a, auc_b, _ = Delong_test(df.y.values, df.s2.values, df.s.values, alpha=0.95)
    assert (got["estimate"], got["other_estimate"]) == (pytest.approx(auc_b, abs=1e-12), pytest.approx(auc_a, abs=1e-12))
    assert got["statistic"] == pytest.approx(z, rel=1e-9) and got["p_value"] == pytest.approx(p, rel=1e-8)
    weighted = sm.compare("auc", df, "s2", label="y", score="s", weight="w", by="user", test="delong")
    want = sm.auc_compare(df, label="y", score="s", other_score="s2", weight="w", by="user")
    np.testing.assert_allclose(weighted.p_value_holm, want.p_value_holm, rtol=1e-12)


def paired_reference(frame, by, statistic, columns, units, n_boot, seed, confidence=0.95) -> pd.DataFrame:
    """The paired bootstrap's outputs per slice from numpy: statistic(part, column, k), the metric of the
    slice's rows under `column` with the draws k of their units, for both `columns`; d the replicates'
    differences, p = min(1, 2 min(1 + #{d <= 0}, 1 + #{d >= 0}) / (1 + B))."""
    k = poisson_draws(units, n_boot, seed)
    rows = []
    for value, part in frame.groupby(by):
        at = part.index.to_numpy()
        a, b = (np.array([statistic(part, column, k[r, at]) for r in range(n_boot + 1)]) for column in columns)
        d = (a - b)[1:]
        d = d[~np.isnan(d)]
        se = np.std(d, ddof=1)
        tail = (1 - confidence) / 2
        rows.append({by: value, "estimate": a[0], "other_estimate": b[0], "difference": a[0] - b[0], "std_error": se,
                     "statistic": (a[0] - b[0]) / se,
                     "p_value": min(1.0, 2 * (1 + min((d <= 0).sum(), (d >= 0).sum())) / (1 + len(d))),
                     "ci_low": np.quantile(d, tail), "ci_high": np.quantile(d, 1 - tail), "n_boot": len(d),
                     "n_undefined": n_boot - len(d)})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def sqlite_preds():
    import sqlite3
    df = sliced_sample(31, 1200)[lambda f: f.c != "c"].reset_index(drop=True)
    rng = np.random.default_rng(32)
    df["s2"] = np.round(df.s + rng.normal(0, 0.8, len(df)), 1)
    df["p2"] = 1 / (1 + np.exp(-df.s2))
    con = sqlite3.connect(":memory:")
    df.to_sql("preds", con, index=False)
    yield con, df
    con.close()


def test_the_paired_bootstrap_as_numpy_reproduces_it(sqlite_preds):
    """Each replicate draws its weights once (per row, or per cluster) for both columns: numpy's metric
    of the rows under each column with the draws of sql/bootstrap.sql gives every output."""
    con, df = sqlite_preds
    n_boot = 120
    got = sm.compare("log_loss", "preds", "p2", con=con, label="y", score="p", weight="w", by="c", n_resamples=n_boot,
                     seed=4)
    want = paired_reference(df, "c", lambda f, col, k: log_loss(f.y, f[col], sample_weight=f.w * k), ["p", "p2"],
                            row_units(df, ["c", "w", "p2", "y", "p"]), n_boot, 4)
    pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-9)
    clustered = sm.compare("precision", "preds", "s2", con=con, label="y", score="s", threshold=0.5, by="c",
                           cluster="user", n_resamples=n_boot, confidence=0.9)
    want = paired_reference(df, "c", lambda f, col, k: precision_score(f.y, f[col] >= 0.5, sample_weight=k,
                                                                        zero_division=np.nan),
                            ["s", "s2"], sqlite_units(df, ["user"]), n_boot, 0, confidence=0.9)
    pd.testing.assert_frame_equal(clustered, want, check_dtype=False, rtol=1e-9)
    assert (got.difference < 0).all() and (got.p_value < 0.05).all()  # p2 is s blurred by noise: worse


def test_batches_give_the_one_statement_result_and_a_column_against_itself_gives_0():
    """On DuckDB the replicates run in batches, their interval in-process; sm.render's one statement
    (dbt's) gives the same numbers."""
    df = two_scores(5, 1500)
    con = duckdb.connect()
    con.register("preds", df)
    for metric, other, params in (("brier_score", "p2", dict(label="y", score="p")),
                                  ("auc", "s2", dict(label="y", score="s", test="bootstrap")),
                                  ("mae", "p2", dict(target="y", prediction="p", weight="w", by=["region"]))):
        got = sm.compare(metric, df, other, n_resamples=70, **params)
        want = con.sql(sm.render("compare", "preds", metric=metric, other=other, n_resamples=70, **params)).df()
        if "by" in params:
            pd.testing.assert_frame_equal(got, want.sort_values("region", ignore_index=True), check_dtype=False,
                                          rtol=1e-12)
        else:
            assert got == pytest.approx(want.iloc[0].to_dict(), rel=1e-12)
    same = sm.compare("log_loss", df, "p", label="y", score="p", n_resamples=50)
    assert same["difference"] == pytest.approx(0, abs=1e-15) and same["p_value"] == 1
    assert same["std_error"] == pytest.approx(0, abs=1e-15) and same["ci_low"] == pytest.approx(0, abs=1e-15)


def test_equal_scores_are_rejected_about_alpha_of_the_time():
    """400 samples (slices) of two scores equally good by construction (the same signal, independent
    noise of the same size): the paired bootstrap's p-value falls below alpha in about alpha of them."""
    rng = np.random.default_rng(11)
    n_sims, n = 400, 300
    sim = np.repeat(np.arange(n_sims), n)
    y = (rng.random(n_sims * n) < 0.3).astype(int)
    signal = y * 0.8
    df = pd.DataFrame({"sim": sim, "y": y, "p": 1 / (1 + np.exp(-(signal + rng.normal(0, 1, len(y))))),
                       "p2": 1 / (1 + np.exp(-(signal + rng.normal(0, 1, len(y)))))})
    p = sm.compare("log_loss", df, "p2", label="y", score="p", by="sim", n_resamples=200).p_value
    for alpha in (0.05, 0.2):
        share = (p < alpha).mean()
        assert abs(share - alpha) < 3.5 * math.sqrt(alpha * (1 - alpha) / n_sims) + 2 / 201, (alpha, share)


def test_what_each_test_takes():
    df = two_scores()
    with pytest.raises(ParameterError, match="test='delong' takes no seed"):
        sm.compare("auc", df, "s2", label="y", score="s", seed=1)
    with pytest.raises(ParameterError, match="without bins or max_fpr; pass test='bootstrap'"):
        sm.compare("auc", df, "s2", label="y", score="s", max_fpr=0.5, test="delong")
    with pytest.raises(ParameterError, match="log_loss is compared by test='bootstrap'"):
        sm.compare("log_loss", df, "p2", label="y", score="p", test="delong")
    with pytest.raises(ParameterError, match="tests paired units"):
        sm.compare("log_loss", df, "p2", label="y", score="p", test="paired_t")
    with pytest.raises(sm.ColumnError):  # the other column is checked as the score is: probabilities
        sm.compare("log_loss", df, "s2", label="y", score="p")
    partial = sm.compare("auc", df, "s2", label="y", score="s", max_fpr=0.5, n_resamples=40)
    assert partial["n_boot"] == 40 and partial["estimate"] == pytest.approx(sm.auc(df, label="y", score="s", max_fpr=0.5))
