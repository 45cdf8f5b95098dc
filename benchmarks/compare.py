"""sqlmetrics (DuckDB) against the tools users would pick instead, on the same data, in one run.

    pip install -e ".[bench]" && pip install --no-deps recommenders==1.2.1
    python benchmarks/compare.py [--large] [--rounds 3] [--data-dir DIR] [--json PATH] [--only CASE ...]

Data: seeded synthetic Parquet (benchmarks/synthetic.py), written to --data-dir (kept, and reused
when the file is already there) or to a temporary directory removed at the end, and read into
memory once: pandas frames for sqlmetrics, scikit-learn, pandas, numpy and ranx, a polars frame for
polars. Defaults: 10M impressions (label ~5% positives, a continuous score and the score rounded to
3 decimals, user ids for 100k and 1M users) and 1M queries x 10 items with graded relevance: about
6 minutes on 2 cores (of which ~1.5 min building ranx's objects and ~1 min of memory probes).
--large: 100M impressions and 10M queries (ranx's objects skipped above --ranx-max-queries).

Cases and tools (every tool computes the same number; |difference| to sqlmetrics is printed):
  AUC (continuous, tied)  sklearn roc_auc_score on numpy arrays (reference); polars rank-sum with
                          rank('average'); sm.auc.
  GAUC (100k, 1M users;   pandas groupby(user).apply(roc_auc_score) (reference; timed on the users
   continuous, tied)
                          with id < --pandas-users and extrapolated linearly in the number of users;
                          its value is compared with sm.gauc on that subset); polars rank().over(user);
                          sm.gauc. GAUC = impressions-weighted mean of the per-user AUC over the users
                          having both classes (sqlmetrics' default weighting).
  Paired DeLong test      the continuous score against the one rounded to 3 decimals: MLstatkit's
                          Delong_test on numpy arrays (reference; timed on the first --delong-rows
                          rows and extrapolated linearly, its z compared with sm.auc_compare's on
                          that subset) and sm.auc_compare; the value is z.
  Bootstrap AUC interval  on the first --bootstrap-rows rows (1M), continuous scores: a numpy Poisson
                          bootstrap (reference; 200 replicates, each scikit-learn's roc_auc_score with
                          sample_weight = Poisson(1) draws) and sm.bootstrap('auc', n_boot=200); the
                          value is the standard error, which differs by Monte-Carlo error only (the
                          draws differ): ~5% for 200 replicates. Again on all --rows rows (the numpy
                          loop timed on the first --bootstrap-rows and extrapolated).
  Bootstrap GAUC interval the users of the first --users count resampled (200 replicates): pandas
                          groupby.apply(roc_auc_score) once per user, then numpy Poisson reweightings of
                          the users' AUCs (reference; timed on --pandas-users users and extrapolated, as
                          for GAUC); the same with polars' per-user rank sums; sm.bootstrap('gauc').
  Bootstrap NDCG@10       the queries resampled (200 replicates): 200 sklearn ndcg_score calls with
                          sample_weight = Poisson(1) draws (reference; timed on --sklearn-tied-queries
                          queries and extrapolated); numpy's per-query NDCG once, then Poisson
                          reweightings of the queries; sm.bootstrap('ndcg', gain='linear').
  ROC curve, AP           on the first --curve-rows rows (2M): sklearn roc_curve(drop_intermediate=False)
                          and average_precision_score on numpy arrays (reference); sm.roc_curve (every
                          threshold, the curve as a DataFrame) and sm.average_precision. The curves are
                          compared by the trapezoid area under their points.
  NDCG@10                 ranx evaluate on its Qrels/Run objects (reference; the objects are built once,
                          the build time is reported separately); ranx on pre-sorted numpy arrays (its
                          numba kernel alone); sklearn ndcg_score and a vectorised numpy version on the
                          dense [queries x 10] matrices; sm.ndcg(gain='linear').
                          Same definition everywhere: linear gain, 1/log2(rank+1) discount, ideal DCG
                          from the query's judgments, 0 for a query without relevant item. The data
                          has no score ties within a query (checked), so the tie-breaking rule
                          (sqlmetrics: item id descending as text) cannot change any value.
  NDCG@10, tied scores    the same lists with scores rounded to 1 decimal (most lists then have
                          ties): sklearn ndcg_score with its default tie averaging (reference; timed
                          on the first --sklearn-tied-queries queries and extrapolated linearly) and
                          sm.ndcg(ties='average'): the gain averaged over each tied group.
  6 ranking measures      the NDCG lists: sm.evaluate with ndcg@10, map, mrr, P@10, recall@10 and
                          hit_rate@10 (the report's measures, in one pass) against one sm.ndcg(k=10,
                          gain='linear') call (reference); the value is NDCG@10 (linear gain, as the
                          measure string ndcg@10 is trec_eval's ndcg_cut_10).
  Macro-F1 (100 classes) sklearn f1_score(average='macro') on numpy arrays (reference) and
                          sm.f1(average='macro') (one GROUP BY of the true and predicted classes), on
                          --rows rows of a --classes-class problem (label and prediction int16).
  bpref, RBP              the NDCG lists, every item judged (grade 0: judged non-relevant): pytrec_eval's
                          bpref, its {query: {doc: value}} dicts built from the frame inside the timed
                          call (what its users pay; reference), and sm.bpref. ranx's bpref is another
                          number (0.004 where trec_eval gives 0.77 on these lists) and is left out.
                          pytrec_eval's trec_eval 9 compares scores as 32-bit floats (trec_eval 10,
                          which sqlmetrics follows, as doubles): a query whose two scores differ
                          only beyond float precision is ordered by item id there, so the values
                          differ by ~1e-7 on 1M queries. RBP, of binary judgments (relevance >= 1):
                          ranx `rbp.8` on its Qrels/Run objects (built once from the 0/1 grades,
                          reported separately; reference; trec_eval 9 has no RBP) and
                          sm.rbp(persistence=0.8, graded=False) on the graded lists (relevance_threshold 1).
  Novelty, Gini index     --rec-users users' top-10 lists (10M recommendations) over --rec-items items,
                          and --events training events of the same users (benchmarks/synthetic.py):
                          Microsoft Recommenders' `novelty` on the pandas frames (reference; its input
                          checks included, as users run it; needs pandas < 3 and
                          `pip install --no-deps recommenders==1.2.1`) and sm.novelty; RecBole's
                          GiniIndex, its steps in numpy (its package needs torch; reference) and
                          sm.gini_index(n_items=--rec-items).
  DuckDB floors           on the same pandas frame: scanning the column (SUM), sorting it
                          (ORDER BY ... LIMIT 1 OFFSET n-1: a full sort, one row out) and
                          hash-aggregating it (GROUP BY): what any SQL formulation has to pay.
--only: just the cases whose name contains one of the words given (case-insensitive), e.g.
`--only delong bootstrap`; the data are written and read all the same.

Timing, in this process: an untimed warm-up call of every tool on a small slice (imports, numba JIT
compilation, first DuckDB connection), then --rounds interleaved rounds: each round runs every case,
and every tool of a case once, in turn (the order rotates by one each round). Reported: median and
min-max seconds, and the ratio of medians to the case's reference. In the same rounds, right after
each in-memory call, the tools users would run on a file are timed once more from the Parquet file
("from the Parquet file"): pandas/polars reading the columns and building the tool's input (numpy
arrays, the dense matrices, ranx's pre-sorted arrays) and then the call; sqlmetrics given the
file's path (DuckDB reads it). Extrapolated references, ranx's Qrels/Run objects (their build time
is reported), the curves and the floors have no such column. sqlmetrics runs as users call it
(its default DuckDB connection); the floors on another connection with DuckDB's defaults.

Peak memory, measured separately: each tool runs once more in a fresh process of its own (this
script with --memory-probe: it loads the data, warms the tool up on a small slice, then calls it
once on the full data). Peak = the highest resident set size (RSS) of that process during the call
minus its RSS just before (Linux: the kernel's high-water mark VmHWM, reset through
/proc/self/clear_refs, so native allocations of DuckDB, polars, numba and numpy are all counted;
elsewhere psutil's RSS sampled every millisecond). A fresh process per tool, because in a shared one
the allocators keep freed memory for reuse (DuckDB's and polars' jemalloc) and the next tool's RSS
then does not grow. The inputs (frames, arrays, ranx objects) are in memory before the call and
not counted.

The CPU time other processes used during the rounds is measured and printed: on a shared machine
numbers taken while something else runs are noisy (and hurt the multi-threaded tools most).
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import importlib.metadata
import importlib.util
import itertools
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

import duckdb
import numpy as np
import pandas as pd
import polars as pl

import sqlmetrics as sm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic  # noqa: E402

try:
    import psutil
except ImportError:  # only needed off Linux and for the CPU-load note
    psutil = None

HAVE_RANX = importlib.util.find_spec("ranx") is not None  # imported when used: it loads numba (~3 s)

# ranx's kernel casts uint64 hashes of document ids to int64 and says so once per compilation
warnings.filterwarnings("ignore", message=".*unsafe cast from uint64 to int64.*")
# Microsoft Recommenders' novelty indexes a Series by position, which pandas 2 warns about on every call
warnings.filterwarnings("ignore", message="Series.__getitem__ treating keys as positions is deprecated")

K = 10  # NDCG@K, items per query
N_BOOT = 200  # bootstrap replicates
RANX_OBJECTS = "ranx `evaluate(Qrels, Run)` †"


# ---------------------------------------------------------------- measuring

class PeakMemory:
    """Peak RSS of this process during a call, minus the RSS at its start (bytes)."""

    def __init__(self):
        self.method = None
        try:
            self._libc = ctypes.CDLL("libc.so.6")
        except OSError:
            self._libc = None
        try:
            self._reset_hwm()
            self._status("VmHWM")
            self.method = "VmHWM"
        except OSError:
            if psutil is not None:
                self.method = "psutil"

    @staticmethod
    def _status(key: str) -> int:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
        raise OSError(f"{key} not in /proc/self/status")

    @staticmethod
    def _reset_hwm():
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")

    def measure(self, fn: Callable):
        """(fn(), seconds, peak bytes above the start, or None if RSS cannot be read)."""
        gc.collect()
        if self._libc is not None:
            self._libc.malloc_trim(0)  # give memory freed earlier back to the OS first
        if self.method == "VmHWM":
            self._reset_hwm()
            base = self._status("VmRSS")
            start = time.perf_counter()
            value = fn()
            seconds = time.perf_counter() - start
            return value, seconds, max(0, self._status("VmHWM") - base)
        if self.method == "psutil":
            proc, peak, stop = psutil.Process(), [0], threading.Event()
            base = proc.memory_info().rss

            def sample():
                while not stop.is_set():
                    peak[0] = max(peak[0], proc.memory_info().rss)
                    stop.wait(0.001)
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            start = time.perf_counter()
            value = fn()
            seconds = time.perf_counter() - start
            stop.set()
            sampler.join()
            return value, seconds, max(0, max(peak[0], proc.memory_info().rss) - base)
        start = time.perf_counter()
        value = fn()
        return value, time.perf_counter() - start, None


MEMORY_METHODS = {
    "VmHWM": "kernel high-water mark of RSS (VmHWM, reset via /proc/self/clear_refs)",
    "psutil": "psutil RSS sampled every 1 ms in a thread",
    None: "not measured",
}


class OtherLoad:
    """Average number of cores busy with other processes between start() and stop()."""

    def start(self):
        self._t, self._sys, self._own = time.perf_counter(), self._system_busy(), self._own_cpu()

    def stop(self):
        wall = time.perf_counter() - self._t
        if self._sys is None or wall <= 0:
            return None
        return max(0.0, ((self._system_busy() - self._sys) - (self._own_cpu() - self._own)) / wall)

    @staticmethod
    def _system_busy():
        if psutil is None:
            return None
        t = psutil.cpu_times()
        return sum(t) - t.idle - getattr(t, "iowait", 0.0)

    @staticmethod
    def _own_cpu():
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system


# ---------------------------------------------------------------- data

class Data:
    """The frames, loaded on first use (a memory probe loads only what its tool needs)."""

    def __init__(self, clicks_path: Path, ranking_path: Path, classes_path: Path, recommendations_path: Path,
                 interactions_path: Path):
        self.clicks_path, self.ranking_path, self.classes_path = clicks_path, ranking_path, classes_path
        self.recommendations_path, self.interactions_path = recommendations_path, interactions_path

    @cached_property
    def clicks(self) -> pd.DataFrame:
        return pd.read_parquet(self.clicks_path)

    @cached_property
    def clicks_pl(self) -> pl.DataFrame:
        return pl.read_parquet(self.clicks_path)

    @cached_property
    def ranking(self) -> pd.DataFrame:
        return pd.read_parquet(self.ranking_path)

    @cached_property
    def classes(self) -> pd.DataFrame:
        return pd.read_parquet(self.classes_path)

    @cached_property
    def recommendations(self) -> pd.DataFrame:
        return pd.read_parquet(self.recommendations_path)

    @cached_property
    def interactions(self) -> pd.DataFrame:
        return pd.read_parquet(self.interactions_path)

    @cached_property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The floors' connection (DuckDB's defaults, like sqlmetrics' own), frames registered as they are needed."""
        return duckdb.connect()

    def table(self, name: str) -> str:
        if name not in getattr(self, "_registered", set()):
            self.con.register(name, getattr(self, name))
            self._registered = getattr(self, "_registered", set()) | {name}
        return name


class SmallData(Data):
    """The start of the same files, for warm-up calls: 50k impressions (user ids folded to 500 users,
    so every GAUC is defined) and 20 queries."""

    @staticmethod
    def _head(path: Path, rows: int) -> pd.DataFrame:
        import pyarrow.parquet as pq
        return pq.ParquetFile(path).read_row_group(0).slice(0, rows).to_pandas()

    @cached_property
    def clicks(self) -> pd.DataFrame:
        small = self._head(self.clicks_path, 50_000)
        for c in small.columns:
            if c.startswith("users_"):
                small[c] %= 500
        return small

    @cached_property
    def clicks_pl(self) -> pl.DataFrame:
        return pl.from_pandas(self.clicks)

    @cached_property
    def ranking(self) -> pd.DataFrame:
        return self._head(self.ranking_path, 20 * K)

    @cached_property
    def classes(self) -> pd.DataFrame:
        return self._head(self.classes_path, 50_000)

    @cached_property
    def recommendations(self) -> pd.DataFrame:
        return self._head(self.recommendations_path, 200 * K)

    @cached_property
    def interactions(self) -> pd.DataFrame:
        """200k events, and one of user -1 for each recommended item they lack (novelty needs its popularity)."""
        head = self._head(self.interactions_path, 200_000)
        lacking = np.setdiff1d(self.recommendations["item"].to_numpy(), head["item"].to_numpy())
        return pd.concat([head, pd.DataFrame({"user": -1, "item": lacking})], ignore_index=True)


# ---------------------------------------------------------------- tools and cases

@dataclass
class Tool:
    name: str
    role: str                      # reference | competitor | sqlmetrics | floor
    prepare: Callable = None       # builds the inputs (not timed), returns the call to time
    scale: float = 1.0             # times are multiplied by this (extrapolation)
    note: str = ""
    expected: Callable | None = None  # sqlmetrics' value on this tool's input, when not the case's input
    build_seconds: float | None = None
    from_file: Callable | None = None  # the same call from the Parquet file: read into the tool's input form, then call
    fn: Callable | None = None
    seconds: list = field(default_factory=list)
    file_seconds: list = field(default_factory=list)
    value: float | None = None
    peak: int | None = None        # bytes, from the memory probe
    probe: dict | None = None


@dataclass
class Case:
    name: str
    tools: list


def roc_auc_score(y, s, **kwargs) -> float:
    from sklearn.metrics import roc_auc_score  # imported when used: memory probes start faster
    return roc_auc_score(y, s, **kwargs)


def bootstrap_auc_numpy(y, s, n_boot: int, seed: int = 0) -> float:
    """The Poisson bootstrap's standard error of the AUC: every row weighs a Poisson(1) draw per replicate."""
    rng = np.random.default_rng(seed)
    return float(np.std([roc_auc_score(y, s, sample_weight=rng.poisson(1, len(y))) for _ in range(n_boot)], ddof=1))


def reweighted_se(values: np.ndarray, weights: np.ndarray, n_boot: int, seed: int = 0) -> float:
    """The Poisson bootstrap's standard error of a weighted mean of per-unit values (a user's AUC, a
    query's NDCG): every unit weighs a Poisson(1) draw per replicate, its value unchanged."""
    rng = np.random.default_rng(seed)
    means = [(k * weights * values).sum() / (k * weights).sum()
             for k in (rng.poisson(1, len(values)) for _ in range(n_boot))]
    return float(np.std(means, ddof=1))


def bootstrap_ndcg_sklearn(ranking: pd.DataFrame, n_boot: int, seed: int = 0) -> float:
    """The Poisson bootstrap's standard error of NDCG@K: every query weighs a Poisson(1) draw per replicate."""
    scores, relevance, _ = dense(ranking)
    rng = np.random.default_rng(seed)
    return float(np.std([ndcg_score(relevance, scores, k=K, ignore_ties=True, sample_weight=rng.poisson(1, len(scores)))
                         for _ in range(n_boot)], ddof=1))


def roc_curve(y, s):
    from sklearn.metrics import roc_curve
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    return fpr, tpr


def sm_roc(frame: pd.DataFrame):
    curve = sm.roc_curve(frame, label="label", score="score")
    return curve["fpr"].to_numpy(), curve["tpr"].to_numpy()


def curve_area(fpr, tpr) -> float:
    """The trapezoid area under the points: one number that any difference between curves moves."""
    return float(np.trapezoid(tpr, fpr))


def average_precision_score(y, s) -> float:
    from sklearn.metrics import average_precision_score
    return average_precision_score(y, s)


def f1_macro(y, p) -> float:
    from sklearn.metrics import f1_score
    return f1_score(y, p, average="macro")


def ndcg_score(*args, **kwargs) -> float:
    from sklearn.metrics import ndcg_score
    return ndcg_score(*args, **kwargs)


def delong_z(frame: pd.DataFrame, score: str, other: str) -> float:
    """MLstatkit's paired DeLong test of `score` against `other`: its z, (AUC_score - AUC_other) / SE."""
    from MLstatkit import Delong_test
    return Delong_test(frame["label"].to_numpy(), frame[other].to_numpy(), frame[score].to_numpy())[0]


def auc_polars(frame: pl.DataFrame, score: str) -> float:
    """Mann-Whitney: (sum of the positives' average ranks - P(P+1)/2) / (P N)."""
    out = frame.select(
        p=pl.col("label").cast(pl.Float64).sum(), n=pl.len().cast(pl.Float64),
        rank_sum=(pl.col(score).rank("average") * pl.col("label")).sum())
    p, n, rank_sum = out.row(0)
    return (rank_sum - p * (p + 1) / 2) / (p * (n - p))


def user_aucs_polars(frame: pl.DataFrame, user: str, score: str) -> tuple[np.ndarray, np.ndarray]:
    """The AUC and the impressions of each user with both classes (rank sums)."""
    per_user = (frame.lazy()
                .with_columns(rank=pl.col(score).rank("average").over(user))
                .group_by(user)
                .agg(n=pl.len().cast(pl.Float64), p=pl.col("label").cast(pl.Float64).sum(),
                     rank_sum=(pl.col("rank") * pl.col("label")).sum())
                .filter((pl.col("p") > 0) & (pl.col("p") < pl.col("n"))))
    auc = (pl.col("rank_sum") - pl.col("p") * (pl.col("p") + 1) / 2) / (pl.col("p") * (pl.col("n") - pl.col("p")))
    out = per_user.select(auc=auc, n=pl.col("n")).collect()
    return out["auc"].to_numpy(), out["n"].to_numpy()


def gauc_polars(frame: pl.DataFrame, user: str, score: str) -> float:
    aucs, sizes = user_aucs_polars(frame, user, score)
    return float((aucs * sizes).sum() / sizes.sum())


def user_aucs_pandas(frame: pd.DataFrame, user: str, score: str) -> tuple[np.ndarray, np.ndarray]:
    """The usual: one roc_auc_score per user; the AUC and the impressions of the users with both classes."""
    grouped = frame.groupby(user)

    def one(d):
        y = d["label"].to_numpy()
        return roc_auc_score(y, d[score].to_numpy()) if 0 < y.sum() < len(y) else np.nan
    aucs = grouped.apply(one, include_groups=False)
    used = aucs.notna()
    return aucs[used].to_numpy(), grouped.size()[used].to_numpy()


def gauc_pandas(frame: pd.DataFrame, user: str, score: str) -> float:
    """Impressions-weighted over the users with both classes."""
    aucs, sizes = user_aucs_pandas(frame, user, score)
    return float((aucs * sizes).sum() / sizes.sum())


def dense(ranking: pd.DataFrame):
    """score, relevance and item as [queries x K] matrices (the frame is stored query by query)."""
    q = len(ranking) // K
    return tuple(ranking[c].to_numpy().reshape(q, K) for c in ("score", "relevance", "item"))


def arrays(path: Path, *columns: str) -> list[np.ndarray]:
    """Columns of a Parquet file as numpy arrays, the way scikit-learn takes them."""
    frame = pd.read_parquet(path, columns=list(columns))
    return [frame[c].to_numpy() for c in columns]


def ndcg_dense(ranking: pd.DataFrame) -> float:
    scores, relevance, _ = dense(ranking)
    return ndcg_score(relevance, scores, k=K, ignore_ties=True)


def query_ndcgs_numpy(ranking: pd.DataFrame) -> np.ndarray:
    scores, relevance, _ = dense(ranking)
    discount = 1 / np.log2(np.arange(2, K + 2))
    order = np.argsort(-scores, axis=1)[:, :K]
    dcg = np.take_along_axis(relevance, order, axis=1) @ discount
    idcg = -np.sort(-relevance, axis=1)[:, :K] @ discount
    return np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)


def ndcg_numpy(ranking: pd.DataFrame) -> float:
    return float(query_ndcgs_numpy(ranking).mean())


def ranx_objects(ranking: pd.DataFrame):
    """ranx Qrels and Run built the documented way, from {query: {doc: value}} dicts (faster than
    their from_df, which runs a pandas groupby-apply)."""
    import ranx
    scores, relevance, items = dense(ranking)
    queries = ranking["query"].to_numpy()[::K].astype(str).tolist()
    docs = items.astype(str).tolist()
    qrels = ranx.Qrels({q: dict(zip(d, r)) for q, d, r in zip(queries, docs, relevance.tolist())})
    run = ranx.Run({q: dict(zip(d, s)) for q, d, s in zip(queries, docs, scores.tolist())})
    return qrels, run


def ranx_arrays(ranking: pd.DataFrame):
    """Per query [[doc, relevance]] sorted by relevance and [[doc, score]] sorted by score, both descending:
    the layout ranx's numba kernels take (its Qrels/Run objects are converted to it on every evaluate)."""
    scores, relevance, items = dense(ranking)
    by_score = np.argsort(-scores, axis=1)
    by_relevance = np.argsort(-relevance, axis=1, kind="stable")
    run = np.stack([np.take_along_axis(items, by_score, 1).astype(np.float64),
                    np.take_along_axis(scores, by_score, 1)], axis=-1)
    qrels = np.stack([np.take_along_axis(items, by_relevance, 1).astype(np.float64),
                      np.take_along_axis(relevance, by_relevance, 1).astype(np.float64)], axis=-1)
    return qrels, run


def ranx_ndcg(qrels, run, **options) -> float:
    import ranx
    return ranx.evaluate(qrels, run, f"ndcg@{K}", **options)


def trec_dicts(ranking: pd.DataFrame):
    """pytrec_eval's input: {query: {doc: relevance}} and {query: {doc: score}}, string ids."""
    scores, relevance, items = dense(ranking)
    queries = ranking["query"].to_numpy()[::K].astype(str).tolist()
    docs = items.astype(str).tolist()
    qrels = {q: dict(zip(d, r)) for q, d, r in zip(queries, docs, relevance.astype(int).tolist())}
    run = {q: dict(zip(d, s)) for q, d, s in zip(queries, docs, scores.tolist())}
    return qrels, run


def pytrec_eval_mean(ranking: pd.DataFrame, measure: str) -> float:
    """What a pytrec_eval user pays: the dicts built from the frame, the evaluation, the mean."""
    import pytrec_eval
    qrels, run = trec_dicts(ranking)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
    return float(np.mean([v[measure] for v in per_query.values()]))


def ranx_measure(qrels, run, metric: str) -> float:
    import ranx
    return ranx.evaluate(qrels, run, metric, save_results_in_run=False)


def ms_novelty(interactions: pd.DataFrame, recommendations: pd.DataFrame) -> float:
    from recommenders.evaluation.python_evaluation import novelty
    return novelty(interactions, recommendations, col_user="user", col_item="item")


def gini_recbole(recommendations: pd.DataFrame, n_items: int) -> float:
    """RecBole's GiniIndex, step by step (its package needs torch): the [users x K] item matrix, a
    Counter of its items, the counts sorted, the never-recommended items' zeros in front."""
    from collections import Counter
    item_matrix = recommendations["item"].to_numpy().reshape(-1, K)
    sorted_count = np.array(sorted(Counter(item_matrix.flatten()).values()))
    idx = np.arange(n_items - len(sorted_count) + 1, n_items + 1)
    return float(np.sum((2 * idx - n_items - 1) * sorted_count) / item_matrix.size / n_items)


def timed_build(tool: Tool, build: Callable):
    start = time.perf_counter()
    out = build()
    tool.build_seconds = time.perf_counter() - start
    return out


def floors(d: Data, table: str, n: int, *, scan: str | None, sort: str, group: str) -> list[Tool]:
    def query(sql):
        def prepare():
            t = d.table(table)
            return lambda: d.con.execute(sql.format(t=t)).fetchall()[0][0]
        return prepare
    tools = []
    if scan:
        tools.append(Tool(f"DuckDB floor: scan `SUM({scan})`", "floor",
                          query(f"SELECT SUM({scan}) FROM {{t}}")))
    tools.append(Tool(f"DuckDB floor: sort `ORDER BY {sort}`", "floor",
                      query(f"SELECT 1 FROM {{t}} ORDER BY {sort} LIMIT 1 OFFSET {n - 1}")))
    tools.append(Tool(f"DuckDB floor: hash aggregate `GROUP BY {group}`", "floor",
                      query(f"SELECT SUM(c) FROM (SELECT COUNT(*) AS c FROM {{t}} GROUP BY {group})")))
    return tools


def build_cases(d: Data, args, small: bool = False) -> list[Case]:
    """Every case and its tools on `d`. The list depends on `args` only (not on the data), so that a
    memory probe finds the same tool at the same place in the small and the full version."""
    rows = min(50_000, args.rows) if small else args.rows  # SmallData's sizes
    queries = min(20, args.queries) if small else args.queries
    cases = []
    for score, label in (("score", "continuous scores"), ("score_r3", "scores rounded to 3 decimals")):
        cases.append(Case(f"AUC, {args.rows:,} rows, {label}", [
            Tool("sklearn `roc_auc_score` (numpy arrays)", "reference",
                 lambda score=score: (lambda y=d.clicks["label"].to_numpy(), s=d.clicks[score].to_numpy():
                                      roc_auc_score(y, s)),
                 from_file=lambda score=score: roc_auc_score(*arrays(d.clicks_path, "label", score))),
            Tool("polars rank-sum, `rank('average')`", "competitor",
                 lambda score=score: (lambda f=d.clicks_pl: auc_polars(f, score)),
                 from_file=lambda score=score: auc_polars(pl.read_parquet(d.clicks_path, columns=["label", score]),
                                                          score)),
            Tool("sqlmetrics `sm.auc`", "sqlmetrics",
                 lambda score=score: (lambda f=d.clicks: sm.auc(f, label="label", score=score)),
                 from_file=lambda score=score: sm.auc(str(d.clicks_path), label="label", score=score)),
            *floors(d, "clicks", rows, scan=score, sort=score, group=score)]))

    # DeLong's paired test of the continuous score against the rounded one (pROC's roc.test)
    subset_rows = min(rows, args.delong_rows)
    delong = Tool("MLstatkit `Delong_test` (numpy arrays) ‡", "reference", scale=rows / subset_rows)

    def prepare_delong(tool=delong):
        subset = d.clicks.head(subset_rows)
        tool.note = (f"timed on the first {subset_rows:,} rows, times × {tool.scale:,.0f}; its z is compared with "
                     "sm.auc_compare's on that subset")
        tool.expected = lambda: sm.auc_compare(subset, label="label", score="score", other_score="score_r3")["z"]
        return lambda: delong_z(subset, "score", "score_r3")
    delong.prepare = prepare_delong
    cases.append(Case(f"Paired DeLong test (z), {args.rows:,} rows, continuous vs rounded scores", [
        delong,
        Tool("sqlmetrics `sm.auc_compare`", "sqlmetrics",
             lambda: (lambda f=d.clicks: sm.auc_compare(f, label="label", score="score", other_score="score_r3")["z"]),
             from_file=lambda: sm.auc_compare(str(d.clicks_path), label="label", score="score",
                                              other_score="score_r3")["z"])]))

    scores = {"score": "continuous scores", "score_r3": "scores rounded to 3 decimals"}
    for score, users in itertools.product(scores, args.users):
        user = synthetic.user_column(users)
        subset_users = min(50 if small else args.pandas_users, users)
        reference = Tool("pandas `groupby.apply(roc_auc_score)` ‡", "reference", scale=users / subset_users)

        def prepare_pandas(tool=reference, user=user, subset_users=subset_users, score=score):
            subset = d.clicks[d.clicks[user] < subset_users]
            tool.note = (f"timed on the {subset_users:,} users with the lowest ids ({len(subset):,} rows), "
                         f"times × {tool.scale:,.0f}; its value is compared with sm.gauc on that subset")
            tool.expected = lambda: sm.gauc(subset, label="label", score=score, group=user)
            return lambda: gauc_pandas(subset, user, score)
        reference.prepare = prepare_pandas
        cases.append(Case(f"GAUC, {args.rows:,} rows, {users:,} users, {scores[score]}", [
            reference,
            Tool("polars `rank('average').over(user)`", "competitor",
                 lambda user=user, score=score: (lambda f=d.clicks_pl: gauc_polars(f, user, score)),
                 from_file=lambda user=user, score=score: gauc_polars(
                     pl.read_parquet(d.clicks_path, columns=["label", score, user]), user, score)),
            Tool("sqlmetrics `sm.gauc`", "sqlmetrics",
                 lambda user=user, score=score: (
                     lambda f=d.clicks: sm.gauc(f, label="label", score=score, group=user)),
                 from_file=lambda user=user, score=score: sm.gauc(str(d.clicks_path), label="label", score=score,
                                                                  group=user)),
            *floors(d, "clicks", rows, scan=None, sort=f"{user}, {score}", group=user)]))

    # The Poisson bootstrap of the AUC: every replicate reweighs every row; on the first --bootstrap-rows
    # rows, and on all of them (the numpy loop then timed on the first ones, and extrapolated)
    boot_rows = min(rows, args.bootstrap_rows)
    boot = lambda: d.clicks.head(boot_rows)  # noqa: E731
    auc_loop = f"numpy Poisson bootstrap, {N_BOOT} × sklearn `roc_auc_score(sample_weight=...)`"

    def numpy_auc(f):
        return bootstrap_auc_numpy(f["label"].to_numpy(), f["score"].to_numpy(), N_BOOT)
    cases.append(Case(f"Bootstrap AUC interval (std_error), n_boot={N_BOOT}, {boot_rows:,} rows, continuous scores", [
        Tool(auc_loop, "reference", lambda: (lambda f=boot(): numpy_auc(f))),
        Tool("sqlmetrics `sm.bootstrap('auc')`", "sqlmetrics",
             lambda: (lambda f=boot(): sm.bootstrap("auc", f, label="label", score="score", n_boot=N_BOOT)["std_error"]))]))
    if args.rows > args.bootstrap_rows:
        loop = Tool(auc_loop + " ‡", "reference", scale=rows / boot_rows)

        def prepare_loop(tool=loop):
            tool.note = f"timed on the first {boot_rows:,} rows, times × {tool.scale:,.0f}"
            tool.expected = lambda: sm.bootstrap("auc", boot(), label="label", score="score", n_boot=N_BOOT)["std_error"]
            return lambda f=boot(): numpy_auc(f)
        loop.prepare = prepare_loop
        cases.append(Case(f"Bootstrap AUC interval (std_error), n_boot={N_BOOT}, {rows:,} rows, continuous scores", [
            loop,
            Tool("sqlmetrics `sm.bootstrap('auc')`", "sqlmetrics",
                 lambda: (lambda f=d.clicks: sm.bootstrap("auc", f, label="label", score="score",
                                                          n_boot=N_BOOT)["std_error"]))]))

    # GAUC's bootstrap resamples users: a user's AUC is the same whatever its weight, so each replicate
    # reweighs the users' AUCs
    user = synthetic.user_column(args.users[0])
    subset_users = min(50 if small else args.pandas_users, args.users[0])
    per_user = Tool(f"pandas `groupby.apply(roc_auc_score)` once, then {N_BOOT} Poisson reweightings of the users "
                    "(numpy) ‡", "reference", scale=args.users[0] / subset_users)

    def prepare_per_user(tool=per_user):
        subset = d.clicks[d.clicks[user] < subset_users]
        tool.note = (f"timed on the {subset_users:,} users with the lowest ids ({len(subset):,} rows), times × "
                     f"{tool.scale:,.0f}; its value is compared with sm.bootstrap's on that subset")
        tool.expected = lambda: sm.bootstrap("gauc", subset, label="label", score="score", group=user,
                                             n_boot=N_BOOT)["std_error"]
        return lambda: reweighted_se(*user_aucs_pandas(subset, user, "score"), N_BOOT)
    per_user.prepare = prepare_per_user
    cases.append(Case(f"Bootstrap GAUC interval (std_error), n_boot={N_BOOT}, {args.rows:,} rows, {args.users[0]:,} "
                      "users, continuous scores", [
        per_user,
        Tool(f"polars `rank('average').over(user)` once, then {N_BOOT} Poisson reweightings of the users (numpy)",
             "competitor", lambda: (lambda f=d.clicks_pl: reweighted_se(*user_aucs_polars(f, user, "score"), N_BOOT))),
        Tool("sqlmetrics `sm.bootstrap('gauc')`", "sqlmetrics",
             lambda: (lambda f=d.clicks: sm.bootstrap("gauc", f, label="label", score="score", group=user,
                                                      n_boot=N_BOOT)["std_error"]))]))

    # NDCG's bootstrap resamples queries
    subset_queries = min(20 if small else args.sklearn_tied_queries, queries)
    sklearn_loop = Tool(f"{N_BOOT} × sklearn `ndcg_score(ignore_ties=True, sample_weight=...)`, dense matrix ‡",
                        "reference", scale=queries / subset_queries)

    def prepare_sklearn_loop(tool=sklearn_loop):
        subset = d.ranking.iloc[:subset_queries * K]
        tool.note = (f"timed on the first {subset_queries:,} queries, times × {tool.scale:,.0f}; its value is compared "
                     "with sm.bootstrap's on that subset")
        tool.expected = lambda: sm.bootstrap("ndcg", subset, k=K, gain="linear", n_boot=N_BOOT)["std_error"]
        return lambda: bootstrap_ndcg_sklearn(subset, N_BOOT)
    sklearn_loop.prepare = prepare_sklearn_loop
    cases.append(Case(f"Bootstrap NDCG@{K} interval (std_error), n_boot={N_BOOT}, {args.queries:,} queries × {K} items", [
        sklearn_loop,
        Tool(f"numpy, vectorised NDCG of each query once, then {N_BOOT} Poisson reweightings of the queries",
             "competitor", lambda: (lambda f=d.ranking: reweighted_se(query_ndcgs_numpy(f), np.ones(len(f) // K), N_BOOT))),
        Tool("sqlmetrics `sm.bootstrap('ndcg')`", "sqlmetrics",
             lambda: (lambda f=d.ranking: sm.bootstrap("ndcg", f, k=K, gain="linear", n_boot=N_BOOT)["std_error"]))]))

    # The curve and average precision: one sort and running sums, as AUC, but every threshold out
    curve_rows = min(rows, args.curve_rows)
    head = lambda: d.clicks.head(curve_rows)  # noqa: E731
    cases.append(Case(f"ROC curve, {curve_rows:,} rows, continuous scores (every threshold)", [
        Tool("sklearn `roc_curve(drop_intermediate=False)` (numpy arrays)", "reference",
             lambda: (lambda f=head(): curve_area(*roc_curve(f["label"].to_numpy(), f["score"].to_numpy())))),
        Tool("sqlmetrics `sm.roc_curve`", "sqlmetrics",
             lambda: (lambda f=head(): curve_area(*sm_roc(f))))]))
    cases.append(Case(f"Average precision, {curve_rows:,} rows, continuous scores", [
        Tool("sklearn `average_precision_score` (numpy arrays)", "reference",
             lambda: (lambda f=head(): average_precision_score(f["label"].to_numpy(), f["score"].to_numpy()))),
        Tool("sqlmetrics `sm.average_precision`", "sqlmetrics",
             lambda: (lambda f=head(): sm.average_precision(f, label="label", score="score")))]))

    # Macro-F1 of a many-class problem: one GROUP BY (label, prediction), the rest on the confusion matrix
    cases.append(Case(f"Macro-F1, {args.rows:,} rows, {args.classes} classes", [
        Tool("sklearn `f1_score(average='macro')` (numpy arrays)", "reference",
             lambda: (lambda y=d.classes["label"].to_numpy(), p=d.classes["prediction"].to_numpy(): f1_macro(y, p)),
             from_file=lambda: f1_macro(*arrays(d.classes_path, "label", "prediction"))),
        Tool("sqlmetrics `sm.f1(average='macro')`", "sqlmetrics",
             lambda: (lambda f=d.classes: sm.f1(f, label="label", prediction="prediction", average="macro")),
             from_file=lambda: sm.f1(str(d.classes_path), label="label", prediction="prediction", average="macro")),
        *floors(d, "classes", rows, scan=None, sort="label, prediction", group="label, prediction")]))

    tools = []
    if HAVE_RANX:
        if args.queries <= args.ranx_max_queries:
            objects = Tool(RANX_OBJECTS, "reference")
            objects.prepare = lambda t=objects: (
                lambda qr=timed_build(t, lambda: ranx_objects(d.ranking)):
                ranx_ndcg(qr[0], qr[1], save_results_in_run=False))
            tools.append(objects)
        presorted = Tool("ranx `evaluate` on pre-sorted numpy arrays †", "competitor" if tools else "reference",
                         from_file=lambda: ranx_ndcg(*ranx_arrays(pd.read_parquet(d.ranking_path))))
        presorted.prepare = lambda t=presorted: (
            lambda qr=timed_build(t, lambda: ranx_arrays(d.ranking)): ranx_ndcg(qr[0], qr[1]))
        tools.append(presorted)
    tools += [
        Tool("sklearn `ndcg_score(ignore_ties=True)`, dense matrix", "competitor" if tools else "reference",
             lambda: (lambda f=d.ranking: ndcg_dense(f)),
             from_file=lambda: ndcg_dense(pd.read_parquet(d.ranking_path))),
        Tool("numpy, vectorised argsort on the dense matrix", "competitor",
             lambda: (lambda f=d.ranking: ndcg_numpy(f)),
             from_file=lambda: ndcg_numpy(pd.read_parquet(d.ranking_path))),
        Tool("sqlmetrics `sm.ndcg(gain='linear')`", "sqlmetrics",
             lambda: (lambda f=d.ranking: sm.ndcg(f, k=K, gain="linear")),
             from_file=lambda: sm.ndcg(str(d.ranking_path), k=K, gain="linear")),
        *floors(d, "ranking", queries * K, scan=None, sort="query, score DESC", group="query")]
    cases.append(Case(f"NDCG@{K}, {args.queries:,} queries × {K} items", tools))

    # the report's ranking measures in one pass, against one measure
    measures = [f"ndcg@{K}", "map", "mrr", f"P@{K}", f"recall@{K}", f"hit_rate@{K}"]
    cases.append(Case(f"6 ranking measures in one pass, {args.queries:,} queries × {K} items", [
        Tool(f"sqlmetrics `sm.ndcg(k={K}, gain='linear')`, one measure", "reference",
             lambda: (lambda f=d.ranking: sm.ndcg(f, k=K, gain="linear")),
             from_file=lambda: sm.ndcg(str(d.ranking_path), k=K, gain="linear")),
        Tool(f"sqlmetrics `sm.evaluate({measures})`", "sqlmetrics",
             lambda: (lambda f=d.ranking: sm.evaluate(f, measures=measures)[f"ndcg@{K}"].iloc[0]),
             from_file=lambda: sm.evaluate(str(d.ranking_path), measures=measures)[f"ndcg@{K}"].iloc[0])]))

    # trec_eval's bpref on the same lists (every item judged: grade 0 is judged non-relevant)
    cases.append(Case(f"bpref, {args.queries:,} queries × {K} items", [
        Tool("pytrec_eval `bpref`, dicts built from the frame (timed)", "reference",
             lambda: (lambda f=d.ranking: pytrec_eval_mean(f, "bpref")),
             from_file=lambda: pytrec_eval_mean(pd.read_parquet(d.ranking_path), "bpref")),
        Tool("sqlmetrics `sm.bpref`", "sqlmetrics", lambda: (lambda f=d.ranking: sm.bpref(f)),
             from_file=lambda: sm.bpref(str(d.ranking_path)))]))
    # Rank-biased precision of binary judgments (relevance >= 1), as ranx computes it on 0/1 grades
    # (on graded judgments ranx weighs the grades: another number)
    def binary():
        return d.ranking.assign(relevance=(d.ranking["relevance"] >= 1).astype(np.int8))
    tools = []
    if HAVE_RANX and args.queries <= args.ranx_max_queries:
        objects = Tool("ranx `evaluate(Qrels, Run, 'rbp.8')` †", "reference")
        objects.prepare = lambda t=objects: (
            lambda qr=timed_build(t, lambda: ranx_objects(binary())): ranx_measure(qr[0], qr[1], "rbp.8"))
        tools.append(objects)
    tools.append(Tool("sqlmetrics `sm.rbp(persistence=0.8, graded=False)`", "sqlmetrics",
                      lambda: (lambda f=d.ranking: sm.rbp(f, persistence=0.8, graded=False)),
                      from_file=lambda: sm.rbp(str(d.ranking_path), persistence=0.8, graded=False)))
    cases.append(Case(f"RBP (persistence 0.8), {args.queries:,} queries × {K} items", tools))

    # Beyond accuracy: every user's top-K list against the popularity of the training events
    n_recs = min(200, args.rec_users) * K if small else args.rec_users * K  # SmallData's lists
    cases.append(Case(f"Novelty, {args.rec_users * K:,} recommendations, {args.events:,} training events", [
        Tool("Microsoft Recommenders `novelty` (pandas)", "reference",
             lambda: (lambda t=d.interactions, r=d.recommendations: ms_novelty(t, r)),
             from_file=lambda: ms_novelty(pd.read_parquet(d.interactions_path), pd.read_parquet(d.recommendations_path))),
        Tool("sqlmetrics `sm.novelty`", "sqlmetrics",
             lambda: (lambda t=d.interactions, r=d.recommendations: sm.novelty(r, interactions=t, query="user")),
             from_file=lambda: sm.novelty(str(d.recommendations_path), interactions=str(d.interactions_path),
                                          query="user"))]))
    cases.append(Case(f"Gini index, {args.rec_users * K:,} recommendations, {args.rec_items:,} items", [
        Tool("RecBole `GiniIndex`'s steps (numpy, Counter)", "reference",
             lambda: (lambda r=d.recommendations: gini_recbole(r, args.rec_items)),
             from_file=lambda: gini_recbole(pd.read_parquet(d.recommendations_path, columns=["item"]), args.rec_items)),
        Tool("sqlmetrics `sm.gini_index`", "sqlmetrics",
             lambda: (lambda r=d.recommendations: sm.gini_index(r, query="user", n_items=args.rec_items)),
             from_file=lambda: sm.gini_index(str(d.recommendations_path), query="user", n_items=args.rec_items)),
        *floors(d, "recommendations", n_recs, scan=None, sort="item", group="item")]))

    # Scores rounded to 1 decimal: most lists have ties, and both tools average the gain over each
    # tied group (sklearn's default, sqlmetrics' ties='average').
    def tied():
        return d.ranking.assign(score=d.ranking["score"].round(1))
    subset_queries = min(20 if small else args.sklearn_tied_queries, queries)
    reference = Tool("sklearn `ndcg_score` (ties averaged: its default), dense matrix ‡", "reference",
                     scale=queries / subset_queries)

    def prepare_sklearn(tool=reference):
        subset = tied().iloc[:subset_queries * K]
        tool.note = (f"timed on the first {subset_queries:,} queries, times × {tool.scale:,.0f}; its value is "
                     "compared with sm.ndcg on that subset")
        tool.expected = lambda: sm.ndcg(subset, k=K, gain="linear", ties="average")
        return lambda: ndcg_score(dense(subset)[1], dense(subset)[0], k=K)
    reference.prepare = prepare_sklearn
    cases.append(Case(f"NDCG@{K} with tied scores (rounded to 1 decimal), {args.queries:,} queries × {K} items", [
        reference,
        Tool("sqlmetrics `sm.ndcg(gain='linear', ties='average')`", "sqlmetrics",
             lambda: (lambda f=tied(): sm.ndcg(f, k=K, gain="linear", ties="average")))]))
    return [c for c in cases if not args.only or any(word.lower() in c.name.lower() for word in args.only)]


# ---------------------------------------------------------------- memory probes (one fresh process per tool)

def probe_command(args, case: int, tool: int) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--memory-probe", f"{case},{tool}",
            "--data-dir", str(args.data_dir), "--rows", str(args.rows), "--queries", str(args.queries),
            "--users", *map(str, args.users), "--seed", str(args.seed), "--pandas-users", str(args.pandas_users),
            "--sklearn-tied-queries", str(args.sklearn_tied_queries),
            "--ranx-max-queries", str(args.ranx_max_queries), "--delong-rows", str(args.delong_rows),
            "--bootstrap-rows", str(args.bootstrap_rows), "--classes", str(args.classes),
            "--rec-users", str(args.rec_users), "--rec-items", str(args.rec_items), "--events", str(args.events)] + (["--only", *args.only] if args.only else [])


def memory_probe(args, paths):
    """Child: warm the tool up on the small slice, then call it once on the full data, measured."""
    i, j = map(int, args.memory_probe.split(","))
    full = Data(*paths)
    build_cases(SmallData(*paths), args, small=True)[i].tools[j].prepare()()
    tool = build_cases(full, args)[i].tools[j]
    fn = tool.prepare()
    memory = PeakMemory()
    value, seconds, peak = memory.measure(fn)
    print(json.dumps({"tool": tool.name, "peak_rss_bytes": peak, "seconds": seconds, "value": float(value),
                      "method": memory.method}))


def run_probes(cases: list[Case], args, jobs: int) -> None:
    todo = [(i, j) for i, c in enumerate(cases) for j, t in enumerate(c.tools) if t.peak is None]

    def run(ij):
        i, j = ij
        done = subprocess.run(probe_command(args, i, j), capture_output=True, text=True)
        tool = cases[i].tools[j]
        try:
            tool.probe = json.loads(done.stdout.strip().splitlines()[-1])
            tool.peak = tool.probe["peak_rss_bytes"]
        except (IndexError, ValueError, KeyError):
            print(f"memory probe for {tool.name} failed:\n{done.stderr[-2000:]}")
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        list(pool.map(run, todo))


# ---------------------------------------------------------------- reporting

def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def median_seconds(t: Tool) -> float:
    return statistics.median(t.seconds) * t.scale


def fmt_seconds(t: Tool) -> str:
    times = [s * t.scale for s in t.seconds]
    med, lo, hi = statistics.median(times), min(times), max(times)
    digits = 0 if med >= 100 else 1 if med >= 10 else 2 if med >= 0.1 else 3
    return f"{'~' if t.scale != 1 else ''}{med:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def ratio(tool: Tool, reference: Tool) -> str:
    if tool is reference:
        return "reference"
    r = median_seconds(reference) / median_seconds(tool)
    x = r if r >= 1 else 1 / r
    return f"{x:.{0 if x >= 100 else 1}f}× {'faster' if r >= 1 else 'slower'}"


def diff(tool: Tool, ours: float) -> str:
    if tool.role in ("floor", "sqlmetrics") or tool.value is None:
        return "—"
    d = abs(float(tool.value) - float(tool.expected() if tool.expected else ours))
    return "0" if d == 0 else f"{d:.0e}"


def from_file(tool: Tool, reference: Tool) -> str:
    """Median seconds from the Parquet file, and the ratio to the reference's where it has one."""
    if not tool.file_seconds:
        return "n/a"
    med = statistics.median(tool.file_seconds)
    shown = f"{med:.{1 if med >= 10 else 2 if med >= 0.1 else 3}f}"
    if tool is reference or not reference.file_seconds:
        return shown
    r = statistics.median(reference.file_seconds) / med
    x = r if r >= 1 else 1 / r
    return f"{shown} ({x:.1f}× {'faster' if r >= 1 else 'slower'})"


def table(cases: list[Case]) -> str:
    lines = ["| case | tool | seconds: median (min–max) | vs reference | from the Parquet file, s | peak RSS, MB "
             "| \\|Δ\\| vs sqlmetrics |",
             "|---|---|---|---|---|---|---|"]
    for case in cases:
        reference = next(t for t in case.tools if t.role == "reference")
        ours = next(t.value for t in case.tools if t.role == "sqlmetrics")
        for i, t in enumerate(case.tools):
            peak = "n/a" if t.peak is None else f"{t.peak / 2**20:,.0f}"
            name = f"**{t.name}**" if t.role == "sqlmetrics" else t.name
            lines.append(f"| {case.name if i == 0 else ''} | {name} | {fmt_seconds(t)} | {ratio(t, reference)} "
                         f"| {from_file(t, reference)} | {peak} | {diff(t, ours)} |")
    return "\n".join(lines)


def ranx_left_out(args, have_ranx: bool) -> str | None:
    """Why ranx's rows are missing from every case, if they are."""
    if not have_ranx:
        return "ranx is not installed (pip install -e '.[bench]'): its rows are left out."
    if args.queries > args.ranx_max_queries:
        return (f"ranx Qrels/Run left out: {args.queries:,} queries > --ranx-max-queries "
                f"{args.ranx_max_queries:,}.")
    return None


def footnotes(cases: list[Case], methods: set, ranx_absent: str | None) -> list[str]:
    """The notes under the table: each mark the table shows (‡ extrapolated, † ranx) explained, why
    ranx is missing where it is, and how peak memory was measured."""
    tools = [(c, t) for c in cases for t in c.tools]
    notes = []
    if any(t.note for _, t in tools):
        notes.append("‡ extrapolated: " + "; ".join(f"{c.name.split(', ', 1)[-1]}: {t.note}" for c, t in tools
                                                     if t.note) + ". Its peak RSS is that of the subset.")
    if any("†" in t.name for _, t in tools):
        built = [f"{t.name.rstrip(' †')} {t.build_seconds:.1f} s" for _, t in tools if t.build_seconds is not None]
        notes.append("† ranx: numba JIT compilation excluded (warm-up call)"
                     + ("; inputs built once, not timed: " + "; ".join(built) if built else "") + ".")
    if ranx_absent:
        notes.append(ranx_absent)
    notes.append("peak RSS: " + ", ".join(MEMORY_METHODS[m] for m in sorted(methods, key=str))
                 + ", of a fresh process per tool, during one call on the full data after a warm-up on a slice"
                 + (" (ranx `evaluate(Qrels, Run)`: in the main process after the rounds, as its objects take long "
                    "to build)" if any(t.name == RANX_OBJECTS for _, t in tools) else "")
                 + "; inputs already in memory are not counted." if methods else "peak RSS: not measured.")
    return notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--large", action="store_true", help="100M rows and 10M queries (needs ~20 GB of RAM)")
    parser.add_argument("--rows", type=int, help="impressions for AUC/GAUC (default 10M; 100M with --large)")
    parser.add_argument("--users", type=int, nargs="+", default=[100_000, 1_000_000], help="GAUC user counts")
    parser.add_argument("--queries", type=int, help=f"NDCG@{K} queries of {K} items (default 1M; 10M with --large)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pandas-users", type=int, default=1000,
                        help="users the pandas GAUC reference is timed on before extrapolation")
    parser.add_argument("--sklearn-tied-queries", type=int, default=100_000,
                        help="queries sklearn's tie-averaged ndcg_score is timed on before extrapolation")
    parser.add_argument("--delong-rows", type=int, default=1_000_000,
                        help="rows MLstatkit's Delong_test is timed on before extrapolation")
    parser.add_argument("--bootstrap-rows", type=int, default=1_000_000,
                        help="rows of the bootstrap case (the first rows of the clicks)")
    parser.add_argument("--curve-rows", type=int, default=2_000_000,
                        help="rows of the ROC curve and average precision cases (the first rows of the clicks)")
    parser.add_argument("--classes", type=int, default=100, help="classes of the macro-F1 case")
    parser.add_argument("--rec-users", type=int, default=1_000_000,
                        help=f"users with a top-{K} list in the novelty and Gini cases")
    parser.add_argument("--rec-items", type=int, default=100_000, help="catalogue size of the novelty and Gini cases")
    parser.add_argument("--events", type=int, default=10_000_000, help="training events of the novelty case")
    parser.add_argument("--ranx-max-queries", type=int, default=2_000_000,
                        help="build ranx Qrels/Run objects only up to this many queries (~80 s per 1M)")
    parser.add_argument("--data-dir", type=Path, help="where the Parquet files go (kept and reused); default: a temp dir")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--only", nargs="+", metavar="CASE",
                        help="run only the cases whose name contains one of these words (case-insensitive)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--memory-jobs", type=int, default=2, help="memory probes run this many at a time")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory probes")
    parser.add_argument("--memory-probe", help=argparse.SUPPRESS)  # internal: CASE,TOOL
    args = parser.parse_args()
    args.rows = args.rows or (100_000_000 if args.large else 10_000_000)
    args.queries = args.queries or (10_000_000 if args.large else 1_000_000)

    started = time.perf_counter()
    load_start = os.getloadavg()
    tmp = None
    if args.data_dir is None:
        tmp = args.data_dir = Path(tempfile.mkdtemp(prefix="sqlmetrics-bench-"))
    args.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        t = time.perf_counter()
        paths = (synthetic.write_clicks(args.data_dir, args.rows, args.users, args.seed),
                 synthetic.write_ranking(args.data_dir, args.queries, K, args.seed),
                 synthetic.write_classes(args.data_dir, args.rows, args.classes, args.seed),
                 synthetic.write_recommendations(args.data_dir, args.rec_users, K, args.rec_items, args.seed),
                 synthetic.write_interactions(args.data_dir, args.events, args.rec_users, args.rec_items, args.seed))
        t_write = time.perf_counter() - t
        if args.memory_probe:
            return memory_probe(args, paths)
        d = Data(*paths)
        t = time.perf_counter()
        d.clicks, d.clicks_pl, d.ranking, d.classes
        t_read = time.perf_counter() - t

        scores, relevance, _ = dense(d.ranking)
        assert (d.ranking["query"].to_numpy()[::K] == np.arange(args.queries)).all(), "ranking not stored by query"
        data = {
            "clicks": {"file": paths[0].name, "rows": len(d.clicks), "positives": float(d.clicks["label"].mean()),
                       "distinct score_r3": int(d.clicks["score_r3"].nunique())},
            "ranking": {"file": paths[1].name, "queries": args.queries, "items_per_query": K,
                        "score ties within a query": int((np.diff(np.sort(scores, axis=1), axis=1) == 0).sum()),
                        "queries without relevant item": int((relevance.max(axis=1) == 0).sum())},
            "seconds to write Parquet (0 if reused)": round(t_write, 1), "seconds to read into memory": round(t_read, 1)}
        print(json.dumps(data, indent=1))
        if ranx_left_out(args, HAVE_RANX):
            print(ranx_left_out(args, HAVE_RANX))

        # warm-up: every tool once on a small slice (imports, JIT, first connection); not timed
        t = time.perf_counter()
        for case in build_cases(SmallData(*paths), args, small=True):
            for tool in case.tools:
                tool.prepare()()
        t_warm = time.perf_counter() - t
        cases = build_cases(d, args)
        t = time.perf_counter()
        for case in cases:
            for tool in case.tools:
                tool.fn = tool.prepare()
        print(f"warm-up {t_warm:.0f} s; inputs built in {time.perf_counter() - t:.0f} s (not timed), of which "
              + ", ".join(f"{tool.name}: {tool.build_seconds:.1f} s" for c in cases for tool in c.tools
                          if tool.build_seconds is not None))

        load, others = OtherLoad(), []
        for r in range(args.rounds):
            load.start()
            for case in cases:
                for tool in case.tools[r % len(case.tools):] + case.tools[:r % len(case.tools)]:
                    gc.collect()
                    start = time.perf_counter()
                    tool.value = tool.fn()
                    tool.seconds.append(time.perf_counter() - start)
                    if tool.from_file:
                        gc.collect()
                        start = time.perf_counter()
                        value = tool.from_file()
                        tool.file_seconds.append(time.perf_counter() - start)
                        assert abs(value - tool.value) <= 1e-9 * max(1.0, abs(tool.value)), (tool.name, value)
            others.append(load.stop())
            print(f"round {r + 1}/{args.rounds} done ({time.perf_counter() - started:.0f} s since start; other "
                  f"processes busy {others[-1] if others[-1] is not None else float('nan'):.2f} cores on average)")
        load_end = os.getloadavg()
        memory = PeakMemory()
        for case in cases:
            for tool in case.tools:
                if tool.name == RANX_OBJECTS and not args.no_memory:
                    # measured here: a probe would spend another ~90 s per 1M queries building its inputs;
                    # ranx allocates through malloc (numba), trimmed before the call
                    _, _, tool.peak = memory.measure(tool.fn)
                    tool.probe = {"method": memory.method, "process": "main"}
                tool.fn = None  # the inputs (ranx objects above all) are not needed any more
        d.con.close()  # neither are the frames: the probes load their own
        for name in ("clicks", "clicks_pl", "ranking", "classes", "con"):
            d.__dict__.pop(name, None)
        scores = relevance = None
        gc.collect()

        methods = set()
        if not args.no_memory:
            t = time.perf_counter()
            run_probes(cases, args, args.memory_jobs)
            methods = {tool.probe["method"] for c in cases for tool in c.tools if tool.probe}
            print(f"memory probes: {time.perf_counter() - t:.0f} s")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    busy = [o for o in others if o is not None]
    header = (f"`python benchmarks/compare.py{' --large' if args.large else ''}`: {args.rows:,} rows and "
              f"{args.queries:,} queries in memory, {os.cpu_count()} cores, {args.rounds} interleaved rounds in one "
              f"process. Load average {load_start[0]:.1f} at start, {load_end[0]:.1f} at the end of the rounds; "
              "other processes used "
              + (f"{statistics.mean(busy):.2f} cores on average during the rounds" if busy else "n/a (no psutil)")
              + ("; the numbers are noisy." if busy and statistics.mean(busy) > 0.25 else "."))
    md = table(cases)
    notes = footnotes(cases, methods, ranx_left_out(args, HAVE_RANX))
    print("\n" + header + "\n\n" + md + "\n\n" + "\n".join(notes))
    print(f"\ntotal {time.perf_counter() - started:.0f} s")

    if args.json:
        out = {
            "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
            "parameters": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
            "environment": {
                "platform": platform.platform(), "python": platform.python_version(), "cores": os.cpu_count(),
                "versions": {name: _version(name) for name in (
                    "sqlmetrics", "duckdb", "numpy", "pandas", "polars", "scikit-learn", "ranx", "numba")},
                "load_average_start": load_start, "load_average_end_of_rounds": load_end,
                "other_processes_busy_cores_per_round": others},
            "data": data, "warm_up_seconds": t_warm,
            "cases": [{"case": c.name, "tools": [{
                "tool": t.name, "role": t.role, "seconds": t.seconds, "time_scale": t.scale,
                "seconds_from_parquet": t.file_seconds,
                "median_seconds": median_seconds(t), "value": None if t.value is None else float(t.value),
                "sqlmetrics_value_on_same_input": t.expected() if t.expected else None,
                "input_build_seconds": t.build_seconds, "note": t.note,
                "peak_rss_bytes": t.peak, "memory_probe": t.probe} for t in c.tools]} for c in cases],
            "markdown": header + "\n\n" + md + "\n\n" + "\n".join(notes),
            "total_seconds": time.perf_counter() - started,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
