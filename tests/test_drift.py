"""Distribution drift between a reference and a current window (sm.drift, the metric drift_statistics):
each column's statistics from one statement, against scipy.stats (ks_2samp, wasserstein_distance,
energy_distance, mannwhitneyu, cramervonmises_2samp: statistics and asymptotic p-values), per slice,
with ties, missing values and weights, on DuckDB, SQLite and PostgreSQL; Evidently's normed
Wasserstein; the errors."""
from __future__ import annotations

import json
import sqlite3

import duckdb
import numpy as np
import pandas as pd
import pytest
import scipy.stats as st

import sqlmetrics as sm
from conftest import connect_postgres
from sqlmetrics.errors import ParameterError
from sqlmetrics.sqltext import finish
from sqlmetrics.target import Target
from sqlmetrics.templates import render_macro

COLUMNS = ["rounded", "counts", "skewed"]
TESTS = ["ks", "mannwhitneyu", "cramervonmises"]
DISTANCES = ["wasserstein_normed", "energy"]


def windows(seed: int, n_ref: int, n_cur: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two windows of three columns: heavy ties (one decimal; five integers), a continuous one that
    moves, missing values in each, weights, and a slice column with a NULL slice."""
    rng = np.random.default_rng(seed)

    def window(n, shift):
        frame = pd.DataFrame({"rounded": rng.normal(shift, 1, n).round(1),
                              "counts": rng.integers(0, 5 + (shift > 0), n).astype(float),
                              "skewed": rng.exponential(1 + shift, n), "w": rng.integers(1, 4, n).astype(float),
                              "s": rng.choice(["x", "y", None], n)})
        frame.loc[rng.random(n) < 0.05, "rounded"] = None
        frame.loc[rng.random(n) < 0.05, "skewed"] = None
        return frame
    return window(n_ref, 0.0), window(n_cur, 0.2)


def scipy_drift(x: pd.Series, y: pd.Series, wx=None, wy=None) -> dict[str, tuple[float, float]]:
    """method -> (statistic, p-value) as scipy (and Evidently, for the normed Wasserstein) compute them."""
    x, y = x.dropna(), y.dropna()
    if wx is not None:
        wx, wy = wx[x.index], wy[y.index]
    out = {"wasserstein": (st.wasserstein_distance(x, y, wx, wy), np.nan),
           "energy": (st.energy_distance(x, y, wx, wy), np.nan)}
    if wx is None:
        ks, mw, cvm = (st.ks_2samp(x, y, method="asymp"), st.mannwhitneyu(x, y, method="asymptotic"),
                       st.cramervonmises_2samp(x, y, method="asymptotic"))
        # Evidently 0.4's wasserstein stat test: scipy's distance over max(np.std(reference), 0.001)
        out |= {"ks": (ks.statistic, ks.pvalue), "mannwhitneyu": (mw.statistic, mw.pvalue),
                "cramervonmises": (cvm.statistic, cvm.pvalue),
                "wasserstein_normed": (out["wasserstein"][0] / max(np.std(x), 0.001), np.nan)}
    return out


def check(result: pd.DataFrame, ref: pd.DataFrame, cur: pd.DataFrame, weighted: bool = False):
    for _, row in result.iterrows():
        column = row["column"]
        want = scipy_drift(ref[column], cur[column], *((ref["w"], cur["w"]) if weighted else ()))[row["method"]]
        assert [row["statistic"], row["p_value"]] == pytest.approx(want, rel=1e-9, abs=1e-14, nan_ok=True), (
            column, row["method"])
        assert (row["n_reference"], row["n_current"]) == (ref[column].notna().sum(), cur[column].notna().sum())
        assert (row["n_missing_reference"], row["n_missing_current"]) == (ref[column].isna().sum(),
                                                                          cur[column].isna().sum())


def on_sqlite(ref: pd.DataFrame, cur: pd.DataFrame) -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    ref.to_sql("ref", con, index=False)
    cur.to_sql("cur", con, index=False)
    return con


@pytest.mark.parametrize("seed, n_ref, n_cur", [(1, 700, 500), (2, 60, 90), (3, 3000, 2000)])
def test_each_column_and_method_is_scipys(seed, n_ref, n_cur):
    ref, cur = windows(seed, n_ref, n_cur)
    result = sm.drift(ref, cur, COLUMNS, method=TESTS + DISTANCES)
    assert len(result) == len(COLUMNS) * 5
    check(result, ref, cur)
    check(sm.drift("ref", "cur", COLUMNS, method=TESTS + DISTANCES, con=on_sqlite(ref, cur)), ref, cur)


def test_the_flags_read_alpha_and_the_thresholds():
    ref, cur = windows(4, 2000, 2000)
    result = sm.drift(ref, cur, COLUMNS, method=TESTS + DISTANCES, alpha=0.01)
    tests, distances = result[result["method"].isin(TESTS)], result[~result["method"].isin(TESTS)]
    # Evidently's comparisons: p <= alpha for ks and cramervonmises, p < alpha for mannwhitneyu
    at_or_below = tests["method"].isin(["ks", "cramervonmises"])
    assert (tests["drift"] == np.where(at_or_below, tests["p_value"] <= 0.01, tests["p_value"] < 0.01)).all()
    assert (tests["threshold"] == 0.01).all()
    # and statistic >= 0.1 for the normed Wasserstein, > 0.1 for energy
    above = np.where(distances["method"] == "energy", distances["statistic"] > 0.1, distances["statistic"] >= 0.1)
    assert (distances["drift"] == above).all() and (distances["threshold"] == 0.1).all()
    assert tests["drift"].any()  # the windows moved
    high = sm.drift(ref, cur, COLUMNS, method="wasserstein", threshold=10.0)
    assert not high["drift"].any() and (high["threshold"] == 10.0).all()


def test_weights_weigh_the_distances():
    ref, cur = windows(5, 400, 300)
    check(sm.drift(ref, cur, COLUMNS, method=["wasserstein", "energy"], threshold=0.1, weight="w"), ref, cur,
          weighted=True)


def test_each_slice_is_its_own_two_samples():
    """by: a row per (slice, column, method), each the drift of that slice's rows alone; NULL is a slice."""
    ref, cur = windows(6, 900, 700)
    result = sm.drift(ref, cur, COLUMNS, method=TESTS, by="s")
    assert len(result) == 3 * len(COLUMNS) * len(TESTS)
    for s in ("x", "y", None):
        part = result[result["s"].isna()] if s is None else result[result["s"] == s]
        pick = (lambda f: f[f["s"].isna()]) if s is None else (lambda f: f[f["s"] == s])
        check(part, pick(ref), pick(cur))


def test_on_postgres():
    ref, cur = windows(7, 500, 400)
    con = connect_postgres(autocommit=True)
    try:
        for name, frame in (("sm_drift_ref", ref), ("sm_drift_cur", cur)):
            con.execute(f'DROP TABLE IF EXISTS "{name}"')
            con.execute(f'CREATE TABLE "{name}" (rounded float8, counts float8, skewed float8, w float8, s text)')
            with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
                for row in frame.astype(object).where(frame.notna(), None).itertuples(index=False):
                    copy.write_row(row)
        result = sm.drift("sm_drift_ref", "sm_drift_cur", COLUMNS, method=TESTS + DISTANCES, con=con)
    finally:
        for name in ("sm_drift_ref", "sm_drift_cur"):
            con.execute(f'DROP TABLE IF EXISTS "{name}"')
        con.close()
    check(result, ref, cur)


def test_what_cannot_be_compared_is_an_error():
    ref, cur = windows(8, 100, 100)
    with pytest.raises(ParameterError, match="unknown method 'psi2'"):
        sm.drift(ref, cur, COLUMNS, method="psi2")
    with pytest.raises(ParameterError, match="test of counts"):
        sm.drift(ref, cur, COLUMNS, method="ks", weight="w")
    with pytest.raises(ParameterError, match="pass threshold="):
        sm.drift(ref, cur, COLUMNS, method="wasserstein")
    with pytest.raises(ParameterError, match="column 'counts' has no value in the current window"):
        sm.drift(ref, cur.assign(counts=np.nan), COLUMNS)


def test_the_command_line_gate(tmp_path, capsys):
    """sqlmetrics drift: a row per column and method, exit 1 on drift naming what drifted, 0 without; the
    same file as both windows by --reference-where and --current-where; the errors in flags."""
    from sqlmetrics.cli import main
    ref, cur = windows(9, 800, 600)
    both = pd.concat([ref.assign(day=1), cur.assign(day=2)])
    both.to_csv(tmp_path / "both.csv", index=False)
    path = str(tmp_path / "both.csv")
    code = main(["drift", path, path, "--reference-where", "day = 1", "--current-where", "day = 2", "--columns",
                 "rounded,counts", "--method", "ks", "--method", "energy", "--format", "json"])
    out = capsys.readouterr()
    rows = pd.DataFrame(__import__("json").loads(out.out)["rows"])
    check(rows, ref.reset_index(drop=True), cur.reset_index(drop=True))
    assert code == (1 if rows["drift"].any() else 0) == 1 and "sqlmetrics: drift in " in out.err
    assert main(["drift", path, path, "--reference-where", "day = 1", "--current-where", "day = 1", "--columns",
                 "rounded"]) == 0
    capsys.readouterr()
    assert main(["drift", path, path, "--columns", "rounded", "--method", "wasserstein"]) == 2
    assert "pass --threshold" in capsys.readouterr().err


@pytest.mark.parametrize("metric", ["drift_statistics", "drift_bins"])
@pytest.mark.parametrize("options", [{}, {"weight": "w"}, {"by": ["s"]}, {"binning": "uniform", "n_bins": 7},
                                     {"edges": [-1.0, 0.0, 2.5], "weight": "w", "by": ["s"]}])
def test_the_rank_plan_is_the_aggregate_plans(metric, options):
    """DuckDB's plan (the rows sorted, ties found by frames of peers) against the plan of the other
    engines (a GROUP BY of the distinct values first), checked against scipy above: ties, NULLs, weights,
    slices, a categorical column, each binning."""
    ref, cur = windows(4, 900, 700)
    ref["country"], cur["country"] = ref["s"].fillna("z").str.upper(), cur["s"].fillna("q")
    con = duckdb.connect()
    con.register("ref", ref)
    con.register("cur", cur)
    params = {"current": "cur", "columns": COLUMNS, "categorical": ["country"]} | options
    got, want = (con.execute(finish(render_macro(metric, Target(), relation="ref", plan=plan, **params), {}, Target()))
                 .fetchall() for plan in ("rank", "aggregate"))
    assert len(got) == len(want) > 0
    for g, w in zip(got, want):
        numbers = [i for i, v in enumerate(w) if isinstance(v, float)]
        assert [v for i, v in enumerate(g) if i not in numbers] == [v for i, v in enumerate(w) if i not in numbers]
        assert [g[i] for i in numbers] == pytest.approx([w[i] for i in numbers], rel=1e-12, abs=1e-12, nan_ok=True)


def test_each_window_is_read_once(tmp_path, monkeypatch):
    """Twenty columns of two Parquet files: one statement of the statistics, which reads each file once
    (the checks' screens ride in it, over the input written once), counted in DuckDB's own plan of what
    it ran; before it, the plan's choice reads the reference's row count and a sample of its rows."""
    from sqlmetrics.engine import DuckDBEngine
    from sqlmetrics.plans import EXACT_ROWS
    ref, cur = windows(5, 400, 300)
    columns = [f"x{i}" for i in range(20)]
    paths = {}
    for name, frame in (("reference", ref), ("current", cur)):
        paths[name] = str(tmp_path / f"{name}.parquet")
        frame[COLUMNS * 7].set_axis([f"x{i}" for i in range(21)], axis=1).to_parquet(paths[name])
    sent = []
    for method in ("rows", "execute", "one_row"):
        send = getattr(DuckDBEngine, method)
        monkeypatch.setattr(DuckDBEngine, method, lambda self, sql, send=send: sent.append(sql) or send(self, sql))
    result = sm.drift(paths["reference"], paths["current"], columns, method=["ks", "psi"])
    assert len(result) == 40

    def scans(sql: str) -> list[tuple[str, int]]:
        plan = duckdb.connect().execute("EXPLAIN (ANALYZE, FORMAT json) " + sql).fetchall()[0][1]
        found = []

        def walk(node):
            if node.get("extra_info", {}).get("Function") == "READ_PARQUET":
                found.append((node["extra_info"]["Filename(s)"], node["intermediate_rows"]))
            for child in node.get("children", []):
                walk(child)
        for node in json.loads(plan).get("operator", []):  # none: answered from the files' metadata (COUNT(*))
            walk(node)
        return found
    read = [scans(sql) for sql in dict.fromkeys(sent) if "read_parquet" in sql.lower()]
    assert sorted(read[-1]) == [(paths["current"], 300), (paths["reference"], 400)]
    assert all(path == paths["reference"] and rows <= EXACT_ROWS for found in read[:-1] for path, rows in found)


@pytest.mark.parametrize("values, plan", [("distinct", "rank"), ("ten", "aggregate")])
def test_duckdb_sorts_the_rows_when_the_values_are_mostly_distinct(values, plan, monkeypatch):
    """The plan's choice (plans.DRIFT_RANK_SHARE): columns of distinct values are sorted row by row,
    columns of ten values grouped into them first; the same statistics either way (above)."""
    from sqlmetrics.engine import DuckDBEngine
    rng = np.random.default_rng(6)

    def window(n):
        x = rng.normal(size=(n, 3))
        return pd.DataFrame(x if values == "distinct" else np.floor(x * 2) % 10, columns=["a", "b", "c"])
    sent = []
    send = DuckDBEngine.execute
    monkeypatch.setattr(DuckDBEngine, "execute", lambda self, sql: sent.append(sql) or send(self, sql))
    sm.drift_statistics(window(2000), current=window(1500), columns=["a", "b", "c"])
    assert ("sm_rows AS" in sent[-1]) == (plan == "rank")
