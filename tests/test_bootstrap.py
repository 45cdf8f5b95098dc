"""sm.bootstrap: the Poisson bootstrap in SQL.

References: a numpy Poisson bootstrap of the same data (scikit-learn's metric with Poisson(1)
sample weights), whose standard error the SQL one must match within 10%; coverage of the intervals
on simulated binormal data; determinism; the units (rows, clusters, GAUC's groups).
"""
from __future__ import annotations

import doctest
import math
import os
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import sqlglot
from scipy.stats import norm
from sklearn.metrics import log_loss, roc_auc_score

import sqlmetrics as sm
import importlib
from sqlmetrics.errors import ParameterError
from sqlmetrics.registry import METRICS
from sqlmetrics.dialects import DIALECTS
from sqlmetrics.templates import SQL_DIR, namespace
from conftest import connect_postgres, plain_rows


def frame(rng, n, ties=False):
    y = rng.integers(0, 2, n)
    s = rng.normal(y * 0.7, 1.0)
    return pd.DataFrame({"y": y, "s": np.round(s, 1) if ties else s, "p": 1 / (1 + np.exp(-s)),
                         "w": rng.integers(1, 3, n).astype(float), "user": rng.integers(0, n // 8, n)})


def numpy_bootstrap(statistic, n_units, n_boot, seed, unit_of_row=None):
    """Standard error of `statistic(weights)` over Poisson(1) weights per unit."""
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(n_boot):
        k = rng.poisson(1.0, n_units)
        weights = k if unit_of_row is None else k[unit_of_row]
        try:
            values.append(statistic(weights))
        except ValueError:  # a replicate with one class
            pass
    return np.std(values, ddof=1)


def weighted_aucs(y, s, weights):
    """The AUC under each row of `weights` (replicates x rows), from the definition: each positive's weight
    times the negative weight below its score plus half that at it, over W_pos * W_neg. Vectorised over
    the replicates (scikit-learn's roc_auc_score, one replicate a call, took 30 s for this test)."""
    order = np.argsort(s, kind="stable")
    s, y, weights = s[order], y[order], weights[:, order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])  # the first row of each tie group
    pos, neg = (np.add.reduceat(weights * (y == c), starts, axis=1) for c in (1, 0))
    below = np.cumsum(neg, axis=1) - neg
    return (pos * (below + 0.5 * neg)).sum(axis=1) / (pos.sum(axis=1) * neg.sum(axis=1))


@pytest.mark.parametrize("ties", [False, True], ids=["continuous", "ties"])
def test_standard_error_matches_a_numpy_poisson_bootstrap(ties):
    df = frame(np.random.default_rng(4 + ties), 1500, ties=ties)  # the replicates' count sets the precision
    got = sm.bootstrap("auc", df, label="y", score="s", weight="w", n_boot=1000)
    assert got["estimate"] == pytest.approx(roc_auc_score(df.y, df.s, sample_weight=df.w), abs=1e-12)
    y, s, w = df.y.to_numpy(), df.s.to_numpy(), df.w.to_numpy()
    k = np.random.default_rng(1).poisson(1.0, (1000, len(df)))
    aucs = weighted_aucs(y, s, w * k)
    for i in (0, 1, 999):  # the oracle is scikit-learn's AUC on each replicate
        assert aucs[i] == pytest.approx(roc_auc_score(y, s, sample_weight=w * k[i]), abs=1e-12)
    want = np.std(aucs, ddof=1)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    assert got["n_boot"] == 1000
    assert got["ci_low"] < got["estimate"] < got["ci_high"]


def test_a_metric_other_than_auc_and_its_cluster():
    df = frame(np.random.default_rng(8), 4000)
    got = sm.bootstrap("log_loss", df, label="y", score="p", cluster="user", n_boot=800)
    users, row_user = np.unique(df.user, return_inverse=True)
    want = numpy_bootstrap(lambda k: log_loss(df.y, df.p, sample_weight=k), len(users), 800, 2, row_user)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    by_row = sm.bootstrap("log_loss", df, label="y", score="p", n_boot=800)
    assert by_row["estimate"] == pytest.approx(log_loss(df.y, df.p), rel=1e-12)
    assert got["estimate"] == pytest.approx(log_loss(df.y, df.p), rel=1e-12)


def test_gauc_resamples_groups():
    df = frame(np.random.default_rng(9), 6000)
    got = sm.bootstrap("gauc", df, label="y", score="s", group="user", n_boot=600)
    groups = [(g.y.to_numpy(), g.s.to_numpy()) for _, g in df.groupby("user") if g.y.nunique() == 2]
    aucs = np.array([roc_auc_score(y, s) for y, s in groups])
    sizes = np.array([len(y) for y, _ in groups])
    assert got["estimate"] == pytest.approx((aucs * sizes).sum() / sizes.sum(), rel=1e-12)
    want = numpy_bootstrap(lambda k: (k * sizes * aucs).sum() / (k * sizes).sum(), len(groups), 2000, 3)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    with pytest.raises(ParameterError, match="weighting 'impressions' or 'clicks'"):
        sm.bootstrap("gauc", df, label="y", score="s", group="user", weighting="uniform")


#: sql/bootstrap.sql's modulus (2^31 - 1) and Poisson(1) distribution function at 0 .. 12, summed as it sums them
M = 2 ** 31 - 1


def _cdf():
    """The Poisson(1) distribution function at 0 .. 12, summed as sql/bootstrap.sql's poisson_one sums it."""
    total, term, out = 0.0, math.exp(-1), []
    for k in range(13):
        total += term
        out.append(total)
        term /= k + 1
    return np.array(out)


def poisson_draws(units: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """k[b, i]: the weight of unit units[i] (its hash) in replicate b, drawn by sql/bootstrap.sql's
    arithmetic (every product below 2^63); replicate 0 weighs every unit 1."""
    u = units.astype(np.int64)[None, :]
    b = np.arange(n_boot + 1, dtype=np.int64)[:, None]
    r1 = (u + b * 1000003 + (seed * 999983 + 1) % M) % M * 48271 % M
    r3 = ((r1 * r1 + 12345) % M * 16807 + u) % M
    uniform = ((r3 * r3 + 54321) % M * 48271 % M).astype(float) / M
    k = np.searchsorted(_cdf(), uniform, side="right")  # the smallest k whose distribution function exceeds u
    k[0] = 1
    return k


def sqlite_units(frame: pd.DataFrame, columns: list[str]) -> np.ndarray:
    """SQLite's unit hash: the DENSE_RANK of the units' values."""
    return frame.groupby(columns, sort=True).ngroup().to_numpy() + 1


def row_units(frame: pd.DataFrame, carried: list[str]) -> np.ndarray:
    """A row's unit: its columns and its place among the rows equal to it."""
    return sqlite_units(frame.assign(sm_occurrence=frame.groupby(carried).cumcount() + 1), carried + ["sm_occurrence"])


def interval(values: np.ndarray, n_boot: int, confidence: float = 0.95) -> dict:
    """bootstrap's outputs from the metric on the data (values[0]) and its replicates (NaN: none)."""
    v = values[1:][~np.isnan(values[1:])]
    tail = (1 - confidence) / 2
    refused = len(v) < 0.9 * n_boot  # resampling.MIN_DEFINED
    return {"estimate": values[0], "std_error": math.nan if refused else np.std(v, ddof=1),
            "ci_low": math.nan if refused else np.quantile(v, tail),
            "ci_high": math.nan if refused else np.quantile(v, 1 - tail), "n_boot": len(v), "n_undefined": n_boot - len(v)}


def weighted_auc(y, s, w) -> float:
    return roc_auc_score(y, s, sample_weight=w) if w[y == 1].sum() > 0 and w[y == 0].sum() > 0 else math.nan


def sliced_sample(seed=21, n=1500):
    """Tied scores, weights and users in three slices: 'a' with few positives, 'b' with more positives
    than negatives (the order is anchored on the negatives there), 'c' of 12 rows (some replicates lose
    its one positive)."""
    rng = np.random.default_rng(seed)
    c = np.where(np.arange(n) < 12, "c", rng.choice(["a", "b"], n))
    y = (rng.random(n) < np.where(c == "b", 0.7, 0.2)).astype(int)
    y[:12] = [1] + [0] * 11
    s = np.round(rng.normal(y * 0.8, 1.0), 1)
    return pd.DataFrame({"c": c, "y": y, "s": s, "p": 1 / (1 + np.exp(-s)), "w": rng.integers(1, 4, n).astype(float),
                         "user": rng.integers(0, n // 6, n)})


@pytest.fixture(scope="module")
def sqlite_sample():
    import sqlite3
    df = sliced_sample()
    run = ranking_run(np.random.default_rng(22), 300).assign(m=lambda f: np.where(f["query"] % 3 == 0, "x", "y"))
    con = sqlite3.connect(":memory:")
    df.to_sql("preds", con, index=False)
    run.to_sql("run", con, index=False)
    yield con, df, run
    con.close()


def reference(frame: pd.DataFrame, by: str, statistic, units: np.ndarray, n_boot: int, seed: int,
              draws=poisson_draws) -> pd.DataFrame:
    """bootstrap's outputs per slice, from `statistic(part, k)` (the metric of the slice's rows with the
    draws k of their units) and the draws of sql/bootstrap.sql (`draws`: of PostgreSQL's AUC replicates)."""
    k = draws(units, n_boot, seed)
    rows = []
    for value, part in frame.groupby(by):
        at = part.index.to_numpy()
        values = np.array([statistic(part, k[b, at]) for b in range(n_boot + 1)])
        rows.append({by: value, **interval(values, n_boot)})
    return pd.DataFrame(rows)


def assert_same(got: pd.DataFrame, want: pd.DataFrame):
    assert list(got.columns) == list(want.columns)
    for column in want.columns[1:]:
        np.testing.assert_allclose(got[column].astype(float), want[column].astype(float), rtol=1e-9, atol=1e-15,
                                   err_msg=column)


@pytest.mark.filterwarnings("ignore:bootstrap of")
def test_the_draws_and_metrics_as_numpy_reproduces_them(sqlite_sample):
    """On SQLite, whose unit hash is the rank of the unit's values, numpy reproduces the draws of every
    replicate: each way of computing the replicates gives scikit-learn's metric of the rows weighted by
    them, and the interval numpy's percentiles and standard deviation (ties, weights, slices, a slice
    anchored on its negatives, one where replicates lose the only positive, clusters, GAUC's groups, the
    queries of NDCG, a metric over rows)."""
    con, df, run = sqlite_sample
    n_boot = 90
    auc = sm.bootstrap("auc", "preds", con=con, label="y", score="s", weight="w", by="c", n_boot=n_boot, seed=5)
    assert_same(auc, reference(df, "c", lambda f, k: weighted_auc(f.y.to_numpy(), f.s.to_numpy(), f.w.to_numpy() * k),
                               row_units(df, ["c", "w", "y", "s"]), n_boot, 5))
    assert auc.set_index("c").loc["c", "n_undefined"] > 0

    clustered = sm.bootstrap("auc", "preds", con=con, label="y", score="s", by="c", cluster="user", n_boot=n_boot)
    assert_same(clustered, reference(df, "c", lambda f, k: weighted_auc(f.y.to_numpy(), f.s.to_numpy(), k),
                                     sqlite_units(df, ["user"]), n_boot, 0))

    # a group's AUC is the same whatever its weight k: it weighs k times its rows' weight in the mean
    groups = {c: [(g.index[0], g.w.sum(), weighted_auc(g.y.to_numpy(), g.s.to_numpy(), g.w.to_numpy()))
                  for _, g in part.groupby("user") if g.y.nunique() == 2] for c, part in df.groupby("c")}

    def gauc(f, k):
        first, v, a = np.array(groups[f.c.iloc[0]]).reshape(-1, 3).T
        kg = pd.Series(k, index=f.index)[first.astype(int)].to_numpy()
        return (kg * v * a).sum() / (kg * v).sum() if (kg * v).sum() > 0 else math.nan
    grouped = sm.bootstrap("gauc", "preds", con=con, label="y", score="s", group="user", weight="w", by="c",
                           n_boot=n_boot)
    assert_same(grouped, reference(df, "c", gauc, sqlite_units(df, ["user"]), n_boot, 0))

    loss = sm.bootstrap("log_loss", "preds", con=con, label="y", score="p", weight="w", by="c", n_boot=n_boot, seed=2)
    assert_same(loss, reference(df, "c", lambda f, k: log_loss(f.y, f.p, sample_weight=f.w * k),
                                row_units(df, ["c", "w", "y", "p"]), n_boot, 2))

    per_query = sm.ndcg(run, k=5, by="m", per_query=True).reset_index(drop=True)
    got = sm.bootstrap("ndcg", "run", con=con, k=5, by="m", n_boot=n_boot)
    assert_same(got, reference(per_query, "m", lambda f, k: (k * f.ndcg).sum() / k.sum(),
                               sqlite_units(per_query, ["m", "query"]), n_boot, 0))


def _rotate(x: np.ndarray, k: int) -> np.ndarray:
    return (x << np.uint32(k)) | (x >> np.uint32(32 - k))


def _mix(a, b, c):
    """lookup3's mix, as PostgreSQL's src/common/hashfn.c writes it (uint32 arithmetic, wrapping)."""
    a -= c; a ^= _rotate(c, 4); c += b
    b -= a; b ^= _rotate(a, 6); a += c
    c -= b; c ^= _rotate(b, 8); b += a
    a -= c; a ^= _rotate(c, 16); c += b
    b -= a; b ^= _rotate(a, 19); a += c
    c -= b; c ^= _rotate(b, 4); b += a
    return a, b, c


def _final(a, b, c):
    """lookup3's final, as src/common/hashfn.c writes it."""
    c ^= b; c -= _rotate(b, 14)
    a ^= c; a -= _rotate(c, 11)
    b ^= a; b -= _rotate(a, 25)
    c ^= b; c -= _rotate(b, 16)
    a ^= c; a -= _rotate(c, 4)
    b ^= a; b -= _rotate(a, 14)
    c ^= b; c -= _rotate(b, 24)
    return a, b, c


def _as_bigint(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """((uint64) b << 32) | c, read as PostgreSQL's signed BIGINT."""
    return ((b.astype(np.uint64) << np.uint64(32)) | c.astype(np.uint64)).view(np.int64)


def hashtextextended(text: str) -> int:
    """PostgreSQL's hashtextextended(text, 0) (a deterministic collation: hash_bytes_extended of its UTF-8
    bytes, seed 0; a little-endian machine)."""
    data = text.encode()
    with np.errstate(over="ignore"):
        a = b = c = np.uint32((0x9e3779b9 + len(data) + 3923095) % 2 ** 32)
        while len(data) >= 12:
            a += np.uint32(int.from_bytes(data[0:4], "little"))
            b += np.uint32(int.from_bytes(data[4:8], "little"))
            c += np.uint32(int.from_bytes(data[8:12], "little"))
            a, b, c = _mix(a, b, c)
            data = data[12:]
        # the last 11 bytes: the lowest byte of c is reserved for the length
        a += np.uint32(int.from_bytes(data[0:4], "little"))
        b += np.uint32(int.from_bytes(data[4:8], "little"))
        c += np.uint32(int.from_bytes(data[8:11], "little") << 8)
        a, b, c = _final(a, b, c)
    return int(_as_bigint(np.array([b]), np.array([c]))[0])


def hashint8extended(value: np.ndarray, seed: np.ndarray) -> np.ndarray:
    """PostgreSQL's hashint8extended(value, seed) of values in [0, 2^31) (their high half is 0):
    hash_bytes_uint32_extended of the value with the 64-bit seed."""
    value, seed = np.broadcast_arrays(value.astype(np.uint64), seed.astype(np.uint64))
    with np.errstate(over="ignore"):
        start = np.full(value.shape, (0x9e3779b9 + 4 + 3923095) % 2 ** 32, dtype=np.uint32)
        mixed = _mix(start + (seed >> np.uint64(32)).astype(np.uint32), start + seed.astype(np.uint32), start.copy())
        a, b, c = (np.where(seed != 0, m, start) for m in mixed)  # a seed of 0 is not mixed in
        a, b, c = _final(a + value.astype(np.uint32), b, c)
    return _as_bigint(b, c)


def postgres_units(values: pd.Series) -> np.ndarray:
    """PostgreSQL's unit hash (postgres__unit_hash) of one integer column: hashtextextended of its text,
    taken modulo M as PostgreSQL's % takes it (the remainder of the truncated quotient), then in [0, M)."""
    remainders = {v: (1 if h >= 0 else -1) * (abs(h) % M) for v in values.unique() for h in [hashtextextended(str(v))]}
    return np.array([(remainders[v] + M) % M for v in values], dtype=np.int64)


def postgres_draws(units: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """k[b, i] of PostgreSQL's AUC replicates: the unit's and the replicate's seeded parts (as
    poisson_draws takes them) hashed together, h = hashint8extended(unit part, replicate part), and the
    smallest k whose distribution function exceeds u = (h + 2^63) / 2^64, compared exactly; replicate 0
    weighs every unit 1."""
    u = (units.astype(np.int64) + (seed * 999983 + 1) % M) % M * 48271 % M
    b = np.arange(n_boot + 1, dtype=np.int64) * 1000003 % M * 48271 % M
    h = hashint8extended(u[None, :], b[:, None])
    # u < F(k), i.e. h < 2^64 F(k) - 2^63: F(k) is a double, and 2^64 F(k) an integer here (F(k) >= 1/4)
    below = np.array([int(Fraction(total) * 2 ** 64) - 2 ** 63 for total in _cdf()], dtype=np.int64)
    k = np.searchsorted(below, h, side="right")
    k[0] = 1
    return k


@pytest.fixture(scope="module")
def postgres_sample():
    """sliced_sample() as the table preds of a PostgreSQL schema of its own, dropped afterwards."""
    df = sliced_sample()
    con = connect_postgres()
    schema = f"sqlmetrics_bootstrap_{os.getpid()}"
    with con.transaction():
        con.execute(f'CREATE SCHEMA "{schema}"')
        con.execute(f'SET search_path TO "{schema}"')
        types = {"f": "double precision", "i": "bigint"}
        columns = ", ".join(f'"{c}" {types.get(df[c].dtype.kind, "text")}' for c in df.columns)
        con.execute(f"CREATE TABLE preds ({columns})")
        with con.cursor().copy("COPY preds FROM STDIN") as copy:
            for row in plain_rows(df):
                copy.write_row(row)
    try:
        yield con, df
    finally:
        con.rollback()
        con.execute(f'DROP SCHEMA "{schema}" CASCADE')
        con.commit()
        con.close()


@pytest.mark.filterwarnings("ignore:bootstrap of")
def test_the_draws_on_postgres_as_numpy_reproduces_them(postgres_sample):
    """On PostgreSQL, whose AUC replicates hash each unit with its replicate (hashint8extended), numpy
    reproduces their draws with PostgreSQL's hash functions transcribed from its source (Bob Jenkins'
    lookup3, src/common/hashfn.c), and each replicate is scikit-learn's AUC of the rows so weighted:
    ties, weights or none, slices (one anchored on its negatives, one whose replicates lose its one
    positive), users resampled together."""
    con, df = postgres_sample
    # the transcriptions are the server's functions
    ids = [0, 7, 123, 2 ** 31 - 2]
    server = con.execute("SELECT " + ", ".join(f"hashtextextended('{i}', 0), hashint8extended({i}, {i * 7919 + 3})"
                                               for i in ids)).fetchone()
    assert list(server) == [v for i in ids for v in (hashtextextended(str(i)),
                                                     int(hashint8extended(np.array([i]), np.array([i * 7919 + 3]))[0]))]
    n_boot = 90
    units = postgres_units(df.user)
    weighted = sm.bootstrap("auc", "preds", con=con, label="y", score="s", weight="w", by="c", cluster="user",
                            n_boot=n_boot, seed=5)
    assert_same(weighted, reference(df, "c", lambda f, k: weighted_auc(f.y.to_numpy(), f.s.to_numpy(),
                                                                       f.w.to_numpy() * k), units, n_boot, 5,
                                    postgres_draws))
    assert weighted.set_index("c").loc["c", "n_undefined"] > 0
    plain = sm.bootstrap("auc", "preds", con=con, label="y", score="s", cluster="user", n_boot=n_boot)
    want = reference(df.assign(all=0), "all", lambda f, k: weighted_auc(f.y.to_numpy(), f.s.to_numpy(), k), units,
                     n_boot, 0, postgres_draws).drop(columns="all").iloc[0]
    assert plain == pytest.approx(want.to_dict(), rel=1e-9)


def test_batches_give_the_one_statement_interval():
    """sm.bootstrap runs the replicates of a metric over rows in batches on a single machine and takes
    their interval in-process; sm.render's one statement (dbt's) gives the same numbers."""
    import duckdb
    df = sliced_sample(23, 3000)[lambda f: f.c != "c"]
    con = duckdb.connect()
    con.register("preds", df)
    for metric, params in (("auc", dict(label="y", score="s", weight="w")), ("log_loss", dict(label="y", score="p"))):
        got = sm.bootstrap(metric, df, by="c", n_boot=150, **params)
        want = con.sql(sm.render("bootstrap", "preds", metric=metric, by="c", n_boot=150, **params)).df().sort_values("c")
        want.index = got.index
        pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-12)


def test_same_seed_same_interval_other_seed_other_interval():
    df = frame(np.random.default_rng(1), 500)
    a = sm.bootstrap("auc", df, label="y", score="s", n_boot=200, seed=7)
    # the same draws; the engine's parallel sums may differ in the last bit
    assert sm.bootstrap("auc", df, label="y", score="s", n_boot=200, seed=7) == pytest.approx(a, rel=1e-12)
    b = sm.bootstrap("auc", df, label="y", score="s", n_boot=200, seed=8)
    assert b["estimate"] == a["estimate"] and b["std_error"] != a["std_error"]
    # the order of the rows does not matter (identical rows are exchangeable)
    assert sm.bootstrap("auc", df.iloc[::-1], label="y", score="s", n_boot=200, seed=7) == pytest.approx(a)


def test_identical_rows_resample_on_their_own():
    """Ten copies of each row: resampled as ten rows each, so the standard error is that of the
    tenfold data (1/sqrt(10) of the original's), not the original's."""
    df = frame(np.random.default_rng(2), 400, ties=True)[["y", "s"]]
    once = sm.bootstrap("auc", df, label="y", score="s", n_boot=1000)
    tenfold = sm.bootstrap("auc", pd.concat([df] * 10), label="y", score="s", n_boot=1000)
    assert tenfold["std_error"] == pytest.approx(once["std_error"] / math.sqrt(10), rel=0.15)


def test_slices_and_replicates_without_a_value():
    """A replicate that loses a class has no AUC: left out and counted (n_undefined), said in a warning,
    and where more than 10% are left out the slice has no interval (what remains is not the sample)."""
    df = frame(np.random.default_rng(3), 2000)
    df["c"] = np.where(df.index < 1990, "big", "tiny")
    df.loc[df.c == "tiny", "y"] = [1] + [0] * 9  # one positive: a third of the replicates lose it
    with pytest.warns(UserWarning, match=r"bootstrap of auc: replicates without a value left out \(c='tiny': \d+ "
                                         r"of 300\).*no interval where more than 10%"):
        got = sm.bootstrap("auc", df, label="y", score="s", by="c", n_boot=300).set_index("c")
    big = df[df.c == "big"]
    want = numpy_bootstrap(lambda k: roc_auc_score(big.y, big.s, sample_weight=k), len(big), 1000, 5)
    assert got.loc["big", "std_error"] == pytest.approx(want, rel=0.10)
    assert got.loc["big", ["n_boot", "n_undefined"]].tolist() == [300, 0]
    tiny = got.loc["tiny"]
    assert 0 < tiny.n_boot < 270 and tiny.n_boot + tiny.n_undefined == 300  # 10 rows: replicates lose a class
    assert tiny[["std_error", "ci_low", "ci_high"]].isna().all() and tiny.estimate == pytest.approx(roc_auc_score(
        df[df.c == "tiny"].y, df[df.c == "tiny"].s))


def test_an_interval_of_the_replicates_that_kept_a_rare_class_is_refused():
    """One positive in ten rows: 37% of the replicates lose it, and those that keep it rank it first
    (AUC 1): their interval would be [1, 1]. Refused, saying why; a few lost replicates are said."""
    df = pd.DataFrame({"y": [1] + [0] * 9, "s": [0.9] + [i / 10 for i in range(9)]})
    with pytest.raises(sm.UndefinedMetricError, match=r"bootstrap of auc: \d+ of 200 replicates gave no value, as a "
                                                      r"resample can lose what auc needs \(it needs both positive"):
        sm.bootstrap("auc", df, label="y", score="s", n_boot=200)
    # 4 positives among 40 rows: 2% of the replicates lose them all, said; the interval is the others'
    many = pd.DataFrame({"y": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] * 4, "s": [(7 * i) % 40 / 40 for i in range(40)]})
    with pytest.warns(UserWarning, match=r"replicates without a value left out \(\d+ of 1000\)"):
        got = sm.bootstrap("auc", many, label="y", score="s", n_boot=1000)
    assert 0 < got["n_undefined"] <= 100 and got["n_boot"] + got["n_undefined"] == 1000
    assert got["ci_low"] < got["estimate"] < got["ci_high"]


def test_intervals_cover_the_true_auc():
    """400 binormal samples of 300 rows (400 slices of one call), 95% percentile intervals of 300
    replicates: they must cover the true AUC, Phi(1/sqrt(2)), in 93-97% of the samples."""
    rng = np.random.default_rng(77)
    sims, n = 400, 300
    y = rng.integers(0, 2, sims * n)
    df = pd.DataFrame({"sim": np.repeat(np.arange(sims), n), "y": y, "s": rng.normal(y * 1.0, 1.0)})
    got = sm.bootstrap("auc", df, label="y", score="s", by="sim", n_boot=300)
    truth = norm.cdf(1 / math.sqrt(2))
    coverage = ((got.ci_low <= truth) & (truth <= got.ci_high)).mean()
    assert 0.93 <= coverage <= 0.97, coverage


def test_gauc_intervals_cover_the_true_value():
    """400 samples of 80 users with 4 binormal impressions each: every user's AUC estimates
    Phi(1/sqrt(2)) without bias, so GAUC does too; the 95% intervals from resampling users must cover
    it in 93-97% of the samples."""
    rng = np.random.default_rng(78)
    sims, users, per = 400, 80, 4
    y = rng.integers(0, 2, sims * users * per)
    df = pd.DataFrame({"sim": np.repeat(np.arange(sims), users * per), "u": np.repeat(np.arange(sims * users), per),
                       "y": y, "s": rng.normal(y * 1.0, 1.0)})
    got = sm.bootstrap("gauc", df, label="y", score="s", group="u", by="sim", n_boot=200)
    truth = norm.cdf(1 / math.sqrt(2))
    coverage = ((got.ci_low <= truth) & (truth <= got.ci_high)).mean()
    assert 0.93 <= coverage <= 0.97, coverage


def ranking_run(rng, queries):
    """Ten items per query, graded 0-2, scores that follow the grades with noise."""
    relevance = rng.integers(0, 3, queries * 10)
    return pd.DataFrame({"query": np.repeat(np.arange(queries), 10), "item": np.tile(np.arange(10), queries),
                         "score": relevance + rng.normal(0, 1.5, queries * 10), "relevance": relevance})


def test_ranking_metrics_resample_queries():
    run = ranking_run(np.random.default_rng(12), 800)
    per_query = sm.ndcg(run, k=5, per_query=True)["ndcg"].to_numpy()
    got = sm.bootstrap("ndcg", run, k=5, n_boot=1000)
    assert got["estimate"] == pytest.approx(sm.ndcg(run, k=5), rel=1e-12)
    want = numpy_bootstrap(lambda k: (k * per_query).sum() / k.sum(), len(per_query), 2000, 6)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    # recall, micro-averaged: the queries' hits over their R, both reweighed
    recall = sm.recall_at_k(run, k=3, per_query=True)
    hits, r = (recall["recall_at_k"] * recall["n_relevant"]).to_numpy(), recall["n_relevant"].to_numpy()
    got = sm.bootstrap("recall_at_k", run, k=3, average="micro", n_boot=1000)
    assert got["estimate"] == pytest.approx(sm.recall_at_k(run, k=3, average="micro"), rel=1e-12)
    want = numpy_bootstrap(lambda k: (k * hits).sum() / (k * r).sum(), len(r), 2000, 7)
    assert got["std_error"] == pytest.approx(want, rel=0.10)
    with pytest.raises(ParameterError, match="takes no cluster"):
        sm.bootstrap("ndcg", run, k=5, cluster="item")


def test_ndcg_intervals_cover_the_true_value():
    """1,000 samples of 100 queries; the true NDCG@10 is the mean over 400,000 queries of the same law
    (its own standard error, ~3e-4, is a fiftieth of the intervals' width). The 95% intervals must
    cover it in 93-97% of the samples, and the standard errors must be those of the estimates."""
    truth = sm.ndcg(ranking_run(np.random.default_rng(1), 400_000), k=10)
    sims, queries = 1000, 100
    run = ranking_run(np.random.default_rng(79), sims * queries).assign(sim=lambda f: f["query"] // queries)
    got = sm.bootstrap("ndcg", run, k=10, by="sim", n_boot=200)
    coverage = ((got.ci_low <= truth) & (truth <= got.ci_high)).mean()
    assert 0.93 <= coverage <= 0.97, coverage
    assert got.std_error.mean() == pytest.approx(got.estimate.std(), rel=0.05)


def test_the_macro_knows_the_ranking_metrics():
    """sql/bootstrap.sql resamples queries for the registry's ranking metrics, and only for them (the
    catalogue macro it asks is written from the registry, as dbt runs it)."""
    assert "sqlmetrics.per_query_metric(metric)" in (SQL_DIR / "bootstrap.sql").read_text()
    for name, m in METRICS.items():
        assert namespace().per_query_metric(name) is m.per_query, name


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_renders_one_select_in_every_dialect(dialect):
    """sm.render("bootstrap", ...) in each dialect: one SELECT that parses there (the engines that run
    here also run it: tests/test_engines.py), with the dialect's own hash of the units."""
    spelled = {"duckdb": "HASH(", "spark": "XXHASH64(", "databricks": "XXHASH64(", "clickhouse": "CITYHASH64(",
               "postgres": "HASHTEXTEXTENDED(", "sqlite": "DENSE_RANK()", "bigquery": "FARM_FINGERPRINT(",
               "snowflake": "HASH(", "trino": "XXHASH64(", "redshift": "FNV_HASH(", "mysql": "CRC32("}
    for metric, data, params in (("auc", "analytics.preds", dict(label="clicked", score="pctr", weight="w")),
                                 ("ndcg", "analytics.run", dict(qrels="analytics.qrels", k=10, by=["market"]))):
        sql = sm.render("bootstrap", data, metric=metric, dialect=dialect, n_boot=200, **params)
        assert len(sqlglot.parse(sql, read=dialect)) == 1 and isinstance(sqlglot.parse_one(sql, read=dialect),
                                                                           sqlglot.exp.Select)
        assert spelled[dialect] in sql.upper(), dialect
    with pytest.raises(ParameterError, match="needs metric="):
        sm.render("bootstrap", "t", label="y", score="s")


def test_the_docstring_example():
    assert doctest.testmod(importlib.import_module("sqlmetrics.resampling")).failed == 0


def test_what_it_does_not_take():
    df = frame(np.random.default_rng(0), 50)
    with pytest.raises(ParameterError, match="ranking metric or a metric of one value"):
        sm.bootstrap("roc_curve", df, label="y", score="s")
    with pytest.raises(ParameterError, match="n_boot must be >= 2"):
        sm.bootstrap("auc", df, label="y", score="s", n_boot=1)
    # bounds checked before rendering (10**9 overflowed a 32-bit integer inside DuckDB)
    with pytest.raises(ParameterError, match="n_boot must be <= 100,000; got 1,000,000,000"):
        sm.bootstrap("auc", df, label="y", score="s", n_boot=10 ** 9)
    with pytest.raises(ParameterError, match="n_resamples must be <= 1,000,000"):
        sm.compare("gauc", df.assign(s2=df.s), "s2", label="y", score="s", group="user", test="randomization",
                   n_resamples=10 ** 7)
    with pytest.raises(ParameterError, match="unknown metric|Unknown metric|no metric"):
        sm.bootstrap("no_such_metric", df)
