"""Binned and categorical drift (sm.drift's psi, kl_divergence, jensenshannon, hellinger,
total_variation, chisquare, g_test, two_proportion_z; drift_statistics' bins): against an oracle that
bins with numpy (numpy.quantile's inverted_cdf edges, numpy.histogram's uniform edges, given cuts) and
computes each statistic as scipy (entropy, jensenshannon, chisquare, power_divergence) and Evidently
0.4.40's stat tests do, their conventions transcribed here (Evidently is not a dependency): the
empty-bin rule of evidently/calculations/stattests/utils.py get_binned_data, psi.py, kl_div.py,
hellinger_distance.py's categorical branch, z_stattest.py. On data with ties, empty bins, categories
new in the current window or gone from it, NULLs, weights and slices, on DuckDB, SQLite and
PostgreSQL."""
from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest
import scipy.stats as st
from scipy.spatial import distance

import sqlmetrics as sm
from conftest import connect_postgres
from sqlmetrics.errors import ColumnError, ParameterError, UndefinedMetricError

NUMERIC = ["rounded", "skewed"]
CATEGORICAL = ["country", "flag"]
BINNED = ["psi", "kl_divergence", "jensenshannon", "hellinger", "total_variation"]
TESTS = ["chisquare", "g_test"]
TV = {"total_variation": 0.2}  # the one distance without a default threshold


def windows(seed: int, n_ref: int, n_cur: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two windows: a numeric column with heavy ties (one decimal), a skewed one that moves, a
    categorical one whose current window has a new category ('NZ') and lacks a rare one ('IS'), a
    binary one; NULLs in each, weights, and a slice column with a NULL slice."""
    rng = np.random.default_rng(seed)

    def window(n, shift, countries, p):
        frame = pd.DataFrame({"rounded": rng.normal(shift, 1, n).round(1), "skewed": rng.exponential(1 + shift, n),
                              "country": rng.choice(countries, n, p=p), "flag": rng.random(n) < 0.3 + shift,
                              "w": rng.integers(1, 4, n).astype(float), "s": rng.choice(["x", "y", None], n)})
        frame.loc[rng.random(n) < 0.05, "rounded"] = None
        frame.loc[rng.random(n) < 0.05, "country"] = None
        return frame
    return (window(n_ref, 0.0, ["DE", "FR", "JP", "IS"], [0.5, 0.3, 0.19, 0.01]),
            window(n_cur, 0.2, ["DE", "FR", "JP", "NZ"], [0.4, 0.3, 0.2, 0.1]))


def bins(x: pd.Series, y: pd.Series, binning: str, n_bins: int, edges, wx=None):
    """Each value's bin (a numeric column) or category, as numpy bins: the cuts at the reference's
    quantiles (the smallest value whose share at or below it reaches j / n_bins: numpy.quantile's
    inverted_cdf, exact; weighted, numpy's), numpy.histogram's uniform edges over the
    reference's range, or the given cuts; a bin holds a value from its lower cut on, the outer bins
    reach -inf and +inf."""
    if x.dtype == object or x.dtype == bool:
        return x.astype(str).to_numpy(), y.astype(str).to_numpy()
    if edges is not None:
        cuts = np.sort(edges)
    elif binning == "quantile" and wx is None:
        # the exact order statistic: numpy's inverted_cdf computes n q in floating point, and can step past
        # an exact boundary (3000 * 0.55 = 1650.0000000000002 takes the 1651st value, not the 1650th)
        ordered, n = np.sort(x.to_numpy()), len(x)
        cuts = np.unique([ordered[-(-j * n // n_bins) - 1] for j in range(1, n_bins)])
    elif binning == "quantile":
        cuts = np.unique(np.quantile(x.to_numpy(), np.arange(1, n_bins) / n_bins, method="inverted_cdf",
                                     weights=wx.to_numpy()))
    else:
        cuts = np.linspace(x.min(), x.max(), n_bins + 1)[1:-1]
    return np.searchsorted(cuts, x.to_numpy(), "right"), np.searchsorted(cuts, y.to_numpy(), "right")


def evidently_fill(shares: np.ndarray) -> np.ndarray:
    """Evidently 0.4.40's get_binned_data (feel_zeroes): a window's empty bins take its smallest share
    / 10^6 if that is at most 10^-4, else 10^-4."""
    smallest = shares[shares > 0].min()
    return np.where(shares > 0, shares, smallest / 1e6 if smallest <= 1e-4 else 1e-4)


def shares(ref: pd.DataFrame, cur: pd.DataFrame, column: str, binning="quantile", n_bins=10, edges=None,
           weighted=False) -> pd.DataFrame:
    """A row per bin either window has, in order: its key (bin or category), each window's count, weight
    and share."""
    x, y = ref[column].dropna(), cur[column].dropna()
    wx, wy = (ref["w"][x.index], cur["w"][y.index]) if weighted else (pd.Series(1.0, x.index), pd.Series(1.0, y.index))
    bx, by = bins(x, y, binning, n_bins, edges, wx if weighted else None)
    keys = sorted(set(bx) | set(by))
    out = pd.DataFrame({"key": keys, "n_x": [np.sum(bx == k) for k in keys], "n_y": [np.sum(by == k) for k in keys],
                        "mass_x": [wx.to_numpy()[bx == k].sum() for k in keys],
                        "mass_y": [wy.to_numpy()[by == k].sum() for k in keys]})
    return out.assign(p=out["mass_x"] / out["mass_x"].sum(), q=out["mass_y"] / out["mass_y"].sum())


def oracle(ref: pd.DataFrame, cur: pd.DataFrame, column: str, binning="quantile", n_bins=10, edges=None,
           weighted=False) -> dict[str, tuple[float, float]]:
    """method -> (statistic, p-value) from numpy's bins and scipy's and Evidently's formulas."""
    table = shares(ref, cur, column, binning, n_bins, edges, weighted)
    keys, mass_x, mass_y = table["key"].tolist(), table["mass_x"].to_numpy(), table["mass_y"].to_numpy()
    p, q = table["p"].to_numpy(), table["q"].to_numpy()
    pf, qf = evidently_fill(p), evidently_fill(q)
    out = {"psi": (np.sum((pf - qf) * np.log(pf / qf)), np.nan),  # Evidently's psi.py
           "kl_divergence": (st.entropy(pf, qf), np.nan),  # Evidently's kl_div.py
           "jensenshannon": (distance.jensenshannon(p, q), np.nan),  # Evidently's: no fill
           # Evidently's categorical Hellinger: sqrt(1 - sum sqrt(p q)), the sum clipped to [0, 1]
           "hellinger": (np.sqrt(1 - np.clip(np.sum(np.sqrt(p * q)), 0, 1)), np.nan),
           "total_variation": (0.5 * np.abs(p - q).sum(), np.nan)}
    if not weighted:
        n_x, n_y = mass_x.sum(), mass_y.sum()
        expected = mass_x * n_y / n_x  # Evidently's chisquare_stattest: the reference's counts scaled
        with np.errstate(divide="ignore", invalid="ignore"):
            chi = st.chisquare(mass_y, expected) if len(keys) > 1 else (0.0, 1.0)
            g = st.power_divergence(mass_y, expected, lambda_="log-likelihood") if len(keys) > 1 else (0.0, 1.0)
        out |= {"chisquare": tuple(chi), "g_test": tuple(g)}
        if len(keys) <= 2:  # Evidently's z_stattest: proportions of the non-first value, pooled variance
            p1, p2 = 1 - p[0], 1 - q[0]
            pooled = (p1 * n_x + p2 * n_y) / (n_x + n_y)
            z = 0.0 if len(keys) == 1 else (p1 - p2) / np.sqrt(pooled * (1 - pooled) * (1 / n_x + 1 / n_y))
            out["two_proportion_z"] = (abs(z), 2 * (1 - st.norm.cdf(abs(z))))
    return out


def check(result: pd.DataFrame, ref, cur, **binning):
    assert len(result)
    for _, row in result.iterrows():
        want = oracle(ref, cur, row["column"], **binning)[row["method"]]
        got = [row["statistic"], np.nan if row["p_value"] is None else row["p_value"]]  # JSON's null
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12, nan_ok=True), (row["column"], row["method"])
        assert (row["n_reference"], row["n_current"]) == (ref[row["column"]].notna().sum(),
                                                          cur[row["column"]].notna().sum())


def on_sqlite(ref: pd.DataFrame, cur: pd.DataFrame) -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    for name, frame in (("ref", ref), ("cur", cur)):
        frame.assign(flag=frame["flag"].astype(int)).to_sql(name, con, index=False)
    return con


@pytest.mark.parametrize("seed, n_ref, n_cur, n_bins", [(1, 700, 500, 10), (2, 60, 90, 7), (3, 3000, 2000, 20)])
def test_quantile_bins_and_categories_are_the_oracles(seed, n_ref, n_cur, n_bins):
    ref, cur = windows(seed, n_ref, n_cur)
    result = sm.drift(ref, cur, NUMERIC, categorical=["country"], method=BINNED + TESTS, n_bins=n_bins, threshold=TV)
    assert len(result) == 3 * 7
    check(result, ref, cur, n_bins=n_bins)
    new = result[(result["column"] == "country") & (result["method"] == "chisquare")].iloc[0]
    assert new["statistic"] == np.inf and new["p_value"] == 0 and new["drift"]  # NZ is new: e = 0 < o
    # SQLite keeps a boolean as 0/1 and so does its oracle
    lite = sm.drift("ref", "cur", NUMERIC, categorical=["country"], method=BINNED + TESTS, n_bins=n_bins,
                    threshold=TV, con=on_sqlite(ref, cur))
    check(lite, ref, cur, n_bins=n_bins)


@pytest.mark.parametrize("binning, edges", [("uniform", None), ("quantile", [-1.0, 0.0, 0.5, 1.5, 3.0])])
def test_uniform_bins_and_given_cuts(binning, edges):
    """Uniform bins over the reference's range (current values beyond it fall in the outer bins); given
    cuts (in any order), where some bins are empty in one window."""
    ref, cur = windows(4, 800, 600)
    cur.loc[:40, "skewed"] += 10  # beyond the reference's range
    result = sm.drift(ref, cur, NUMERIC, method=BINNED + TESTS, binning=binning, n_bins=6, threshold=TV,
                      edges=edges and edges[::-1])
    check(result, ref, cur, binning=binning, n_bins=6, edges=edges)


def test_weights_weigh_the_shares_and_the_quantiles():
    ref, cur = windows(5, 600, 400)
    result = sm.drift(ref, cur, NUMERIC, categorical=["country"], method=BINNED, weight="w", threshold=TV)
    check(result, ref, cur, weighted=True)


def test_the_binary_columns_z_test():
    """two_proportion_z on a boolean column and on a categorical column of two values (the statistic is
    |z|: no value is the first); a column of one value in both windows has z = 0, p = 1."""
    ref, cur = windows(6, 900, 700)
    ref["one"], cur["one"] = "a", "a"
    result = sm.drift(ref, cur, categorical=["flag", "one"], method=["two_proportion_z", "chisquare"])
    check(result, ref, cur)
    one = result[result["column"] == "one"]
    assert one["statistic"].tolist() == [0.0, 0.0] and one["p_value"].tolist() == [1.0, 1.0]
    with pytest.raises(ParameterError, match="'two_proportion_z' compares a column of two values; column "
                                             "'country' has 5: use chisquare"):
        sm.drift(ref.assign(country=ref["country"].fillna("DE")), cur, categorical=["country"],
                 method="two_proportion_z")


def test_each_slice_is_its_own_two_samples():
    ref, cur = windows(7, 1500, 1200)
    result = sm.drift(ref, cur, ["rounded"], categorical=["country"], method=BINNED + TESTS, by="s", threshold=TV)
    assert len(result) == 3 * 2 * 7
    for s in ("x", "y", None):
        pick = (lambda f: f[f["s"].isna()]) if s is None else (lambda f: f[f["s"] == s])
        check(pick(result), pick(ref), pick(cur))


def test_the_flags_are_evidentlys():
    """Drift at psi >= 0.1 (the distances' default, psi's as Evidently's), at p < alpha for chisquare
    and g_test (whose default alpha is Evidently's 0.1), the threshold column the bound used."""
    ref, cur = windows(8, 2000, 2000)
    result = sm.drift(ref, cur, NUMERIC, categorical=["country"], method=["psi", "chisquare", "g_test"])
    psi, tests = result[result["method"] == "psi"], result[result["method"] != "psi"]
    assert (psi["drift"] == (psi["statistic"] >= 0.1)).all() and (psi["threshold"] == 0.1).all()
    assert (tests["drift"] == (tests["p_value"] < tests["threshold"])).all()
    assert result.set_index("method")["threshold"].to_dict() == {"psi": 0.1, "chisquare": 0.05, "g_test": 0.1}
    assert psi["drift"].any() and not psi["drift"].all()
    per_method = sm.drift(ref, cur, NUMERIC, method=["psi", "total_variation"],
                          threshold={"psi": 1.0, "total_variation": 0.01})
    assert per_method.set_index(["column", "method"])["threshold"].tolist() == [1.0, 0.01] * 2
    assert not per_method[per_method["method"] == "psi"]["drift"].any()


def test_on_postgres():
    ref, cur = windows(9, 500, 400)
    con = connect_postgres(autocommit=True)
    try:
        for name, frame in (("sm_drift_bins_ref", ref), ("sm_drift_bins_cur", cur)):
            con.execute(f'DROP TABLE IF EXISTS "{name}"')
            con.execute(f'CREATE TABLE "{name}" (rounded float8, skewed float8, country text, flag boolean, '
                        'w float8, s text)')
            with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
                for row in frame.astype(object).where(frame.notna(), None).itertuples(index=False):
                    copy.write_row(row)
        result = sm.drift("sm_drift_bins_ref", "sm_drift_bins_cur", NUMERIC, categorical=CATEGORICAL,
                          method=BINNED + TESTS, threshold=TV, con=con)
        uniform = sm.drift("sm_drift_bins_ref", "sm_drift_bins_cur", NUMERIC, method=BINNED, binning="uniform",
                           threshold=TV, con=con)
    finally:
        for name in ("sm_drift_bins_ref", "sm_drift_bins_cur"):
            con.execute(f'DROP TABLE IF EXISTS "{name}"')
        con.close()
    check(result, ref, cur)
    check(uniform, ref, cur, binning="uniform")


def test_what_cannot_be_compared_is_an_error():
    ref, cur = windows(10, 100, 100)
    with pytest.raises(ParameterError, match="method 'ks' compares numbers, and column 'country' is categorical"):
        sm.drift(ref, cur, categorical=["country"], method=["psi", "ks"])
    with pytest.raises(ParameterError, match="no column to compare"):
        sm.drift(ref, cur, method="psi")
    with pytest.raises(ParameterError, match="'total_variation' has no default threshold"):
        sm.drift(ref, cur, NUMERIC, method="total_variation")
    with pytest.raises(ParameterError, match="threshold names 'chisquare'"):
        sm.drift(ref, cur, NUMERIC, method=["psi", "chisquare"], threshold={"chisquare": 0.1})
    with pytest.raises(ParameterError, match="n_bins must be >= 2"):
        sm.drift(ref, cur, NUMERIC, method="psi", n_bins=1)
    with pytest.raises(ColumnError, match="categories of 'country'"):  # text in one window, numbers in the other
        sm.drift(ref, cur.assign(country=1), categorical=["country"], method="psi")
    with pytest.raises(ParameterError, match="column 'country' has no value in the current window"):
        sm.drift(ref, cur.assign(country=None), NUMERIC, categorical=["country"], method="psi")
    with pytest.raises(UndefinedMetricError, match="a column has no value in one of the windows"):
        sm.drift(ref, cur.assign(country=None), categorical=["country"], method="psi")


def test_the_command_line_gate(tmp_path, capsys):
    """sqlmetrics drift --max-psi: psi's rows, exit 1 naming what drifted and 0 without; --threshold by
    method; --edges; a categorical column; the errors in the command line's words."""
    from sqlmetrics.cli import main
    ref, cur = windows(11, 1500, 1000)
    path = str(tmp_path / "both.parquet")
    pd.concat([ref.assign(day=1), cur.assign(day=2)]).to_parquet(path)
    windows_of = [path, path, "--reference-where", "day = 1", "--current-where", "day = 2", "--format", "json"]
    code = main(["drift", *windows_of, "--columns", "rounded,skewed", "--categorical", "country", "--max-psi", "0.2"])
    out = capsys.readouterr()
    rows = pd.DataFrame(__import__("json").loads(out.out)["rows"])
    check(rows, ref.reset_index(drop=True), cur.reset_index(drop=True))
    assert rows["method"].tolist() == ["psi"] * 3 and (rows["threshold"] == 0.2).all()
    assert rows["drift"].tolist() == [False, False, True]  # the new category NZ
    assert code == 1 and out.err.strip() == "sqlmetrics: drift in country (psi)"
    assert main(["drift", *windows_of, "--columns", "rounded", "--method", "ks", "--max-psi", "0.2",
                 "--threshold", "0.01", "--alpha", "1e-12"]) == 0  # ks's alpha; --threshold is nobody's else
    capsys.readouterr()
    assert main(["drift", *windows_of, "--columns", "rounded", "--method", "psi,total_variation", "--threshold",
                 "psi=1", "--threshold", "total_variation=0.001", "--edges", "0.5,-0.5"]) == 1
    rows = pd.DataFrame(__import__("json").loads(capsys.readouterr().out)["rows"])
    check(rows, ref.reset_index(drop=True), cur.reset_index(drop=True), edges=[-0.5, 0.5])
    assert rows["threshold"].tolist() == [1.0, 0.001] and rows["drift"].tolist() == [False, True]
    for flags, error in ((["--categorical", "country", "--method", "ks"], "method 'ks' compares numbers"),
                         (["--columns", "rounded", "--method", "total_variation"], "pass --threshold"),
                         (["--columns", "rounded", "--max-psi", "0.1", "--n-bins", "1"], "--n-bins must be >= 2"),
                         (["--columns", "rounded", "--edges", "a,1"], "--edges takes numbers"),
                         (["--method", "psi"], "--columns (numeric) or --categorical")):
        assert main(["drift", *windows_of, *flags]) == 2
        assert error in capsys.readouterr().err, flags


@pytest.mark.parametrize("binning, weighted", [("quantile", False), ("uniform", True)])
def test_drift_bins_are_the_oracles_bins(binning, weighted):
    """drift_bins: each bin's counts and shares, a numeric bin's range (its smallest and largest value of
    either window), a category by its text; per slice."""
    ref, cur = windows(12, 900, 700)
    result = sm.drift_bins(ref, current=cur, columns=NUMERIC, categorical=["country"], binning=binning, n_bins=5,
                           by="s", weight="w" if weighted else None)
    for s in ("x", "y", None):
        pick = (lambda f: f[f["s"].isna()]) if s is None else (lambda f: f[f["s"] == s])
        for index, column in enumerate(NUMERIC + ["country"], start=1):
            got = pick(result)[pick(result)["column_index"] == index]
            want = shares(pick(ref), pick(cur), column, binning, 5, None, weighted)
            keys = got["category"] if column == "country" else got["bin"]
            if column != "country":  # bins are numbered from 0 by the cuts below them, as numpy's searchsorted
                values = pd.concat([pick(ref)[column], pick(cur)[column]]).dropna()
                x = pick(ref)[column].dropna()
                _, key_of = bins(x, values, binning, 5, None, pick(ref)["w"][x.index] if weighted else None)
                values = values.to_numpy()
                assert got["low"].tolist() == [values[key_of == k].min() for k in want["key"]]
                assert got["high"].tolist() == [values[key_of == k].max() for k in want["key"]]
            assert keys.tolist() == want["key"].tolist(), column
            assert got["n_reference"].tolist() == want["n_x"].tolist()
            assert got["n_current"].tolist() == want["n_y"].tolist()
            assert got["share_reference"].to_numpy() == pytest.approx(want["p"].to_numpy(), rel=1e-12, abs=1e-15)
            assert got["share_current"].to_numpy() == pytest.approx(want["q"].to_numpy(), rel=1e-12, abs=1e-15)


def test_the_command_line_plots_the_two_distributions(tmp_path, capsys):
    """--plot FILE: a panel per column, the two windows' shares of each bin or category (the figure's bars
    are drift_bins' shares); a file of another format is refused before anything is computed."""
    pytest.importorskip("matplotlib")
    from sqlmetrics import plots
    from sqlmetrics.cli import main
    ref, cur = windows(13, 600, 500)
    path = str(tmp_path / "both.parquet")
    pd.concat([ref.assign(day=1), cur.assign(day=2)]).to_parquet(path)
    windows_of = [path, path, "--reference-where", "day = 1", "--current-where", "day = 2"]
    drawn = {}
    original = plots._save
    plots._save = lambda fig, to: (drawn.update(fig=fig), original(fig, to))
    try:
        assert main(["drift", *windows_of, "--columns", "rounded", "--categorical", "country", "--max-psi", "0.2",
                     "--n-bins", "4", "--plot", str(tmp_path / "drift.png")]) == 1
    finally:
        plots._save = original
    capsys.readouterr()
    assert (tmp_path / "drift.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    panels = [ax for ax in drawn["fig"].axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["rounded", "country"]
    bins = sm.drift_bins(ref, current=cur, columns=["rounded"], categorical=["country"], n_bins=4)
    for ax, (_, part) in zip(panels, bins.groupby("column_index")):
        reference, current = ax.containers
        assert [b.get_height() for b in reference] == part["share_reference"].tolist()
        assert [b.get_height() for b in current] == part["share_current"].tolist()
    assert [t.get_text() for t in panels[1].get_xticklabels()] == ["DE", "FR", "IS", "JP", "NZ"]
    assert main(["drift", *windows_of, "--columns", "rounded", "--plot", str(tmp_path / "drift.txt")]) == 2
    assert "the file must end in .png, .svg, .pdf" in capsys.readouterr().err
