"""Distribution drift between a reference and a current window (sql/drift/two_samples.sql,
sqlmetrics/drift_pvalues.py), work in progress: the statistics of many columns from one statement
against scipy.stats (ks_2samp, wasserstein_distance, energy_distance, mannwhitneyu,
cramervonmises_2samp), per slice, with ties, missing values and weights, on DuckDB, SQLite and
PostgreSQL."""
from __future__ import annotations

import sqlite3

import duckdb
import numpy as np
import pandas as pd
import pytest
import scipy.stats as st

from conftest import connect_postgres
from sqlmetrics.drift_pvalues import cvm_statistic_pvalue, ks_pvalue, mannwhitney_pvalue
from sqlmetrics.sqltext import finish
from sqlmetrics.target import Target
from sqlmetrics.templates import render_macro

COLUMNS = ["rounded", "counts", "skewed"]


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


def statistics(run, dialect: str, **params) -> pd.DataFrame:
    target = Target(dialect)
    sql = finish(render_macro("two_sample_statistics", target, reference="ref", current="cur", columns=COLUMNS,
                              **params), {}, target)
    return run(sql)


def engines(ref: pd.DataFrame, cur: pd.DataFrame):
    con = duckdb.connect()
    con.register("ref", ref)
    con.register("cur", cur)
    yield "duckdb", lambda sql: con.execute(sql).df()
    lite = sqlite3.connect(":memory:")
    ref.to_sql("ref", lite, index=False)
    cur.to_sql("cur", lite, index=False)
    yield "sqlite", lambda sql: pd.read_sql(sql, lite)


def expected(x: pd.Series, y: pd.Series, wx: pd.Series | None = None, wy: pd.Series | None = None) -> dict:
    x, y = x.dropna(), y.dropna()
    if wx is not None:
        wx, wy = wx[x.index], wy[y.index]
    out = {"wasserstein": st.wasserstein_distance(x, y, wx, wy), "energy": st.energy_distance(x, y, wx, wy),
           "n_ref": len(x), "n_cur": len(y)}
    if wx is None:
        mw, cvm = st.mannwhitneyu(x, y, method="asymptotic"), st.cramervonmises_2samp(x, y, method="asymptotic")
        out |= {"ks": st.ks_2samp(x, y).statistic, "ks_p": st.ks_2samp(x, y, method="asymp").pvalue,
                "u1": mw.statistic, "mw_p": mw.pvalue, "cvm": cvm.statistic, "cvm_p": cvm.pvalue}
    return out


def got(row) -> dict:
    n_ref, n_cur = int(row["n_ref"]), int(row["n_cur"])
    u1, mw_p = mannwhitney_pvalue(row["rank_sum_ref"], n_ref, n_cur, row["tie_term"])
    cvm, cvm_p = cvm_statistic_pvalue(row["cvm_u"], n_ref, n_cur)
    return {"wasserstein": row["wasserstein"], "energy": row["energy"], "n_ref": n_ref, "n_cur": n_cur,
            "ks": row["ks"], "ks_p": ks_pvalue(row["ks"], n_ref, n_cur), "u1": u1, "mw_p": mw_p, "cvm": cvm,
            "cvm_p": cvm_p}


@pytest.mark.parametrize("seed, n_ref, n_cur", [(1, 700, 500), (2, 60, 90), (3, 3000, 2000)])
def test_each_column_is_scipys_two_sample_statistics(seed, n_ref, n_cur):
    ref, cur = windows(seed, n_ref, n_cur)
    for dialect, run in engines(ref, cur):
        result = statistics(run, dialect).set_index("sm_column")
        assert sorted(result.index) == [0, 1, 2], dialect
        for i, column in enumerate(COLUMNS):
            row = result.loc[i]
            want = expected(ref[column], cur[column])
            assert got(row) == pytest.approx(want, rel=1e-9, abs=1e-12), (dialect, column)
            assert (row["n_missing_ref"], row["n_missing_cur"]) == (ref[column].isna().sum(), cur[column].isna().sum())


def test_weights_weigh_the_distribution_functions():
    ref, cur = windows(4, 400, 300)
    for dialect, run in engines(ref, cur):
        result = statistics(run, dialect, weight="w").set_index("sm_column")
        for i, column in enumerate(COLUMNS):
            want = expected(ref[column], cur[column], ref["w"], cur["w"])
            assert result.loc[i, ["wasserstein", "energy"]].tolist() == pytest.approx(
                [want["wasserstein"], want["energy"]], rel=1e-9), (dialect, column)
            assert result.loc[i, "w_ref"] == pytest.approx(ref["w"][ref[column].notna()].sum())


def test_each_slice_is_its_own_two_samples():
    """by: a row per (slice, column), each the statistics of that slice's rows alone; NULL is a slice."""
    ref, cur = windows(5, 900, 700)
    for dialect, run in engines(ref, cur):
        result = statistics(run, dialect, by=["s"])
        assert len(result) == 3 * len(COLUMNS), dialect
        for s in ("x", "y", None):
            part = result[result["s"].isna()] if s is None else result[result["s"] == s]
            pick_ref = ref[ref["s"].isna()] if s is None else ref[ref["s"] == s]
            pick_cur = cur[cur["s"].isna()] if s is None else cur[cur["s"] == s]
            for _, row in part.iterrows():
                column = COLUMNS[int(row["sm_column"])]
                assert got(row) == pytest.approx(expected(pick_ref[column], pick_cur[column]), rel=1e-9, abs=1e-12)


def test_on_postgres():
    ref, cur = windows(6, 500, 400)
    con = connect_postgres(autocommit=True)
    try:
        for name, frame in (("sm_drift_ref", ref), ("sm_drift_cur", cur)):
            con.execute(f'DROP TABLE IF EXISTS "{name}"')
            con.execute(f'CREATE TEMP TABLE "{name}" (rounded float8, counts float8, skewed float8, w float8, s text)')
            with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
                for row in frame.astype(object).where(frame.notna(), None).itertuples(index=False):
                    copy.write_row(row)
        target = Target("postgres")
        sql = finish(render_macro("two_sample_statistics", target, reference="sm_drift_ref", current="sm_drift_cur",
                                  columns=COLUMNS), {}, target)
        cursor = con.execute(sql)
        result = pd.DataFrame(cursor.fetchall(), columns=[d.name for d in cursor.description]).set_index("sm_column")
    finally:
        con.close()
    for i, column in enumerate(COLUMNS):
        assert got(result.loc[i].astype(float)) == pytest.approx(expected(ref[column], cur[column]), rel=1e-9,
                                                                 abs=1e-12), column
