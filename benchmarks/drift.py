"""sm.drift (DuckDB reading the Parquet files) against scipy per column and Evidently's data drift table
(pandas reading the same files), interleaved rounds:

    python benchmarks/drift.py [--rows 10000000] [--columns 20] [--rounds 3] [--cases a b]
                               [--evidently-max-rows 1000000] [--timeout SECONDS] [--no-scans]
                               [--duckdb-memory-limit 12GB] [--data-dir DIR] [--json benchmarks/results_drift.json]

--rows takes several sizes (e.g. --rows 1000000 10000000); Evidently runs at the sizes up to
--evidently-max-rows (1-3 minutes a case at 1M rows on 2 cores), the others at all; --cases a runs
case (a) only; a call past --timeout is killed and reported as such. A size measured by an earlier
run into the same --json is kept (that run's settings under "earlier_runs"). Run it outside the
repository: DuckDB spills to ./.tmp when a statement outgrows its memory limit.

Data: seeded; a reference and a current Parquet file of N rows each and --columns float64 columns
(normal, log-normal, uniform, and exponential rounded to 2 decimals: ties), every second column
shifted or stretched in the current window. Cases: (a) ks + wasserstein_normed, Evidently's default
numeric tests (ks up to 1,000 rows, its normed 'wasserstein' beyond); (b) ks, wasserstein_normed,
psi, jensenshannon. What each tool's time includes (what a user runs, from the files):
- sqlmetrics: sm.drift(ref_path, cur_path, columns, method=[...]); its binned methods use its default
  bins (10 at the reference's quantiles).
- scipy: pd.read_parquet of both files, then per column scipy.stats.ks_2samp(method='asymp'),
  wasserstein_distance / max(np.std(ref), 0.001), and for psi and jensenshannon the same bins as
  sqlmetrics' (numpy.quantile(method='inverted_cdf') of the reference, np.searchsorted), Evidently's
  empty-bin rule for psi, scipy.spatial.distance.jensenshannon.
- Evidently 0.4.40: pd.read_parquet of both files, Report(metrics=[DataDriftTable(columns, stattest=m)
  for each method]).run(...) with a ColumnMapping naming the columns numerical (no type inference),
  then report.as_dict(); no HTML is rendered. DataDriftPreset holds DatasetDriftMetric and
  DataDriftTable, which each run the same tests: timing the table alone gives Evidently half the
  preset's work. Its psi and jensenshannon use its own bins (Sturges' equal-width bins of the pooled
  columns): they are compared with sm.drift given the same cuts (edges=..., a call per column,
  untimed) rather than with the timed call's.

Each timed call runs in a fresh forked child of this process (modules imported, nothing computed):
the peak memory reported is that child's kernel RSS high-water mark (VmHWM, reset through
/proc/self/clear_refs) minus its RSS just before the call, the data read included. Reported: the
median of the rounds, each tool's ratio to sqlmetrics, the largest peak of the rounds, and
|difference| to sqlmetrics of every (column, method) statistic (and ks' p-value).
"One scan per window": every statement sm.drift sends, called as it is timed, is run again under
EXPLAIN ANALYZE, and its Parquet scans are counted with the rows each read.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import pickle
import platform
import select
import signal
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import sqlmetrics as sm

CASES = {"a": ["ks", "wasserstein_normed"], "b": ["ks", "wasserstein_normed", "psi", "jensenshannon"]}
EVIDENTLY_NAME = {"ks": "ks", "wasserstein_normed": "wasserstein", "psi": "psi", "jensenshannon": "jensenshannon"}
N_BINS = 10  # sm.drift's default


# ---------------------------------------------------------------- running in a fresh child

def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key + ":"))


def in_child(fn, *args, timeout: float | None = None):
    """fn(*args) in a forked child: (value, seconds, peak RSS above the start in bytes), or None if it
    ran past `timeout` seconds (the child is then killed). A child per call, so that no allocator keeps
    memory from an earlier call and no tool's threads outlive it."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # VmHWM := the current RSS
            base = _status("VmRSS")
            start = time.perf_counter()
            value = fn(*args)
            seconds = time.perf_counter() - start
            out = (value, seconds, max(0, _status("VmHWM") - base))
        except BaseException as e:  # noqa: BLE001 (reported by the parent)
            out = e
        with os.fdopen(write, "wb") as f:
            pickle.dump(out, f)
        os._exit(0)
    os.close(write)
    if not select.select([read], [], [], timeout)[0]:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read)
        return None
    with os.fdopen(read, "rb") as f:
        out = pickle.load(f)
    os.waitpid(pid, 0)
    if isinstance(out, BaseException):
        raise out
    return out


# ---------------------------------------------------------------- data

def write_data(directory: Path, n: int, k: int) -> tuple[str, str]:
    """The two windows' Parquet files (written once per size; kept for a re-run)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    paths = tuple(str(directory / f"drift_{n}x{k}_{w}.parquet") for w in ("reference", "current"))
    if all(os.path.exists(p) for p in paths):
        return paths
    for window, path in enumerate(paths):
        columns = {}
        for j in range(k):
            rng = np.random.default_rng([0, j, window])
            drift = window == 1 and j % 2 == 1
            shift, scale = (0.02 * (1 + j // 4), 1.0 + 0.01 * (j // 4)) if drift else (0.0, 1.0)
            kind = j % 4
            if kind == 0:
                x = rng.normal(shift, scale, n)
            elif kind == 1:
                x = rng.lognormal(shift, 0.5 * scale, n)
            elif kind == 2:
                x = rng.uniform(shift, scale + shift, n)
            else:
                x = np.round(rng.exponential(scale, n) + shift, 2)
            columns[f"c{j:02d}"] = x
        pq.write_table(pa.table(columns), path)
    return paths


# ---------------------------------------------------------------- the tools: {(column, method): (statistic, p)}

DUCKDB_CONFIG = {}  # --duckdb-memory-limit: sm.drift on a connection of its own with that limit


def run_sqlmetrics(ref: str, cur: str, columns: list[str], methods: list[str]) -> dict:
    con = None
    if DUCKDB_CONFIG:
        import duckdb
        con = duckdb.connect(config=DUCKDB_CONFIG)
    d = sm.drift(ref, cur, columns, method=methods, con=con)
    return {(r.column, r.method): (float(r.statistic), float(r.p_value)) for r in d.itertuples()}


def quantile_shares(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both windows' shares of sm.drift's default bins: cut at the reference's inverted_cdf quantiles,
    each bin closed on the left, the bins neither window has dropped."""
    cuts = np.quantile(x, np.arange(1, N_BINS) / N_BINS, method="inverted_cdf")
    p = np.bincount(np.searchsorted(cuts, x, side="right"), minlength=N_BINS) / len(x)
    q = np.bincount(np.searchsorted(cuts, y, side="right"), minlength=N_BINS) / len(y)
    kept = (p > 0) | (q > 0)
    return p[kept], q[kept]


def psi(p: np.ndarray, q: np.ndarray) -> float:
    """Evidently's PSI: an empty bin's share is the window's smallest share / 1e6 (if <= 1e-4), else 1e-4."""
    def filled(s):
        low = s[s > 0].min()
        return np.where(s > 0, s, low / 1e6 if low <= 1e-4 else 1e-4)
    p, q = filled(p), filled(q)
    return float(np.sum((p - q) * np.log(p / q)))


def run_scipy(ref: str, cur: str, columns: list[str], methods: list[str]) -> dict:
    from scipy.spatial.distance import jensenshannon
    from scipy.stats import ks_2samp, wasserstein_distance
    a, b = pd.read_parquet(ref, columns=columns), pd.read_parquet(cur, columns=columns)
    out = {}
    for c in columns:
        x, y = a[c].to_numpy(), b[c].to_numpy()
        shares = quantile_shares(x, y) if {"psi", "jensenshannon"} & set(methods) else None
        for m in methods:
            if m == "ks":
                r = ks_2samp(x, y, method="asymp")
                out[c, m] = (float(r.statistic), float(r.pvalue))
            elif m == "wasserstein_normed":
                out[c, m] = (float(wasserstein_distance(x, y) / max(np.std(x), 0.001)), np.nan)
            elif m == "psi":
                out[c, m] = (psi(*shares), np.nan)
            elif m == "jensenshannon":
                out[c, m] = (float(jensenshannon(*shares)), np.nan)
    return out


def evidently_report(a: pd.DataFrame, b: pd.DataFrame, columns: list[str], methods: list[str]) -> dict:
    from evidently import ColumnMapping
    from evidently.metrics import DataDriftTable
    from evidently.report import Report
    report = Report(metrics=[DataDriftTable(columns=columns, stattest=EVIDENTLY_NAME[m]) for m in methods])
    report.run(reference_data=a, current_data=b,
               column_mapping=ColumnMapping(numerical_features=columns, target=None, prediction=None))
    out = {}
    for m, metric in zip(methods, report.as_dict()["metrics"]):
        for c, r in metric["result"]["drift_by_columns"].items():
            score = float(r["drift_score"])  # ks: its p-value; the distances: the statistic
            out[c, m] = (np.nan, score) if m == "ks" else (score, np.nan)
    return out


def run_evidently(ref: str, cur: str, columns: list[str], methods: list[str]) -> dict:
    return evidently_report(pd.read_parquet(ref, columns=columns), pd.read_parquet(cur, columns=columns),
                            columns, methods)


TOOLS = {"sqlmetrics": run_sqlmetrics, "scipy": run_scipy, "evidently": run_evidently}


# ---------------------------------------------------------------- checks (untimed)

def evidently_bins_check(ref: str, cur: str, columns: list[str]) -> dict:
    """psi and jensenshannon on Evidently's own bins: Evidently's values against sm.drift given the same
    cuts (np.histogram_bin_edges of the pooled column, 'sturges'), a call per column."""
    a, b = pd.read_parquet(ref, columns=columns), pd.read_parquet(cur, columns=columns)
    theirs = evidently_report(a, b, columns, ["psi", "jensenshannon"])
    out = {}
    for c in columns:
        edges = np.histogram_bin_edges(np.concatenate([a[c].to_numpy(), b[c].to_numpy()]), bins="sturges")
        d = sm.drift(ref, cur, [c], method=["psi", "jensenshannon"], edges=list(edges[1:-1]))
        for r in d.itertuples():
            out[f"{c} {r.method}"] = abs(float(r.statistic) - theirs[c, r.method][0])
    return out


def scans(ref: str, cur: str, columns: list[str], methods: list[str]) -> list[dict]:
    """Every statement sm.drift sends when called as it is timed (on its own connection: the checks'
    screens ride in the statement of the statistics), run again under EXPLAIN ANALYZE: its Parquet
    scans and the rows each read. The statements are taken where sqlmetrics' DuckDB engine sends them
    (a caller's connection, whose log would show them, takes the other path: its checks run first)."""
    import duckdb

    from sqlmetrics.engine import DuckDBEngine
    sent = []
    sending = {name: getattr(DuckDBEngine, name) for name in ("rows", "execute", "one_row")}

    def logged(send):
        def send_logged(self, sql):
            sent.append(sql)
            return send(self, sql)
        return send_logged
    for name, send in sending.items():
        setattr(DuckDBEngine, name, logged(send))
    try:
        sm.drift(ref, cur, columns, method=methods)
    finally:
        for name, send in sending.items():
            setattr(DuckDBEngine, name, send)
    con = duckdb.connect()
    out = []
    for sql in dict.fromkeys(sent):
        if "read_parquet" not in sql.lower():
            continue
        plan = json.loads(con.execute("EXPLAIN (ANALYZE, FORMAT json) " + sql).fetchall()[0][1])
        found = []

        def walk(node):
            if node.get("extra_info", {}).get("Function") == "READ_PARQUET":
                found.append({"file": os.path.basename(node["extra_info"].get("Filename(s)", "?")),
                              "rows": node["intermediate_rows"],
                              "columns_read": node["extra_info"].get("Projections")})
            for child in node.get("children", []):
                walk(child)
        for node in plan.get("operator", []):  # none: answered from the files' metadata (COUNT(*))
            walk(node)
        out.append({"statement": " ".join(sql.split())[:120] + " ...", "parquet_scans": found})
    return out


# ---------------------------------------------------------------- main

def summarize(seconds: dict, peaks: dict, values: dict, timed_out: dict, tools: list[str], n: int, k: int,
              quiet: bool) -> dict:
    """Per case: each tool's median seconds, ratio to sqlmetrics, largest peak and |difference| to
    sqlmetrics of every (column, method) (Evidently's psi and jensenshannon: other bins, left out)."""
    cases = {}
    for case, methods in CASES.items():
        done = max(len(seconds[case, tool]) for tool in tools)
        ours = statistics.median(seconds[case, "sqlmetrics"]) if seconds[case, "sqlmetrics"] else None
        row = cases[case] = {"methods": methods, "rounds": done, "tools": {}}
        lines = [f"case {case} ({', '.join(methods)}), {n:,} + {n:,} rows x {k} columns, median of {done}:"]
        detail = []
        for tool in tools:
            if (case, tool) in timed_out:
                row["tools"][tool] = {"timed_out_after_s": timed_out[case, tool]}
                lines.append(f"  {tool:10} timed out after {timed_out[case, tool]:.0f} s")
            if not seconds[case, tool]:
                continue
            med = statistics.median(seconds[case, tool])
            if ours is None:
                row["tools"][tool] = {"median_s": round(med, 3), "peak_rss_mb": round(max(peaks[case, tool]) / 2**20)}
                lines.append(f"  {tool:10} {med:8.2f} s  peak {row['tools'][tool]['peak_rss_mb']:6} MB")
                continue
            entry = row["tools"][tool] = {"median_s": round(med, 3),
                                          "rounds_s": [round(s, 3) for s in seconds[case, tool]],
                                          "times_sqlmetrics": round(med / ours, 2),
                                          "peak_rss_mb": round(max(peaks[case, tool]) / 2**20)}
            line = f"  {tool:10} {med:8.2f} s  x{med / ours:6.2f}  peak {entry['peak_rss_mb']:6} MB"
            if tool != "sqlmetrics":
                diffs = {}
                for (c, m), (stat, p) in values[case, tool].items():
                    ours_stat, ours_p = values[case, "sqlmetrics"][c, m]
                    if tool == "evidently" and m in ("psi", "jensenshannon"):
                        continue
                    if not np.isnan(stat):
                        diffs[f"{c} {m}"] = abs(stat - ours_stat)
                    if not np.isnan(p):
                        diffs[f"{c} {m} p-value"] = abs(p - ours_p)
                entry["abs_difference"] = diffs
                worst = entry["max_abs_difference"] = {}
                for key, d in diffs.items():
                    what = key.split(" ", 1)[1]
                    worst[what] = max(worst.get(what, 0.0), d)
                line += "  max |diff| " + ", ".join(f"{m} {d:.1e}" for m, d in worst.items())
                if not quiet:
                    detail += [f"    |diff| {tool:9} {key:30} {d:.1e}" for key, d in diffs.items()]
            lines.append(line)
        print("\n".join(lines + detail), flush=True)
    return cases


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="+", default=[10_000_000])
    ap.add_argument("--columns", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    ap.add_argument("--evidently-max-rows", type=int, default=1_000_000)
    ap.add_argument("--timeout", type=float, default=None, help="seconds a call may take; past them it is killed "
                    "and reported as timed out")
    ap.add_argument("--no-scans", action="store_true", help="skip the scans' count (it runs sm.drift's statements twice)")
    ap.add_argument("--duckdb-memory-limit", default=None, help="e.g. 12GB (default: DuckDB's, 80%% of RAM)")
    ap.add_argument("--data-dir", default=None, help="where the Parquet files go (default: a temporary directory)")
    ap.add_argument("--json", default=str(Path(__file__).with_name("results_drift.json")))
    a = ap.parse_args()
    for case in set(CASES) - set(a.cases):
        del CASES[case]
    if a.duckdb_memory_limit:
        DUCKDB_CONFIG["memory_limit"] = a.duckdb_memory_limit
    warnings.simplefilter("ignore")
    # imported here, before any fork, so that no child pays for it; nothing is computed in this process
    import duckdb  # noqa: F401
    import evidently.metrics  # noqa: F401
    import evidently.report  # noqa: F401
    import scipy.spatial.distance  # noqa: F401
    import scipy.stats  # noqa: F401
    import sqlmetrics.engine  # noqa: F401 (and with it what sm.drift loads on its first call)
    import sqlmetrics.templates  # noqa: F401
    import sqlmetrics.two_windows  # noqa: F401
    directory = Path(a.data_dir or tempfile.mkdtemp())
    directory.mkdir(parents=True, exist_ok=True)
    columns = [f"c{j:02d}" for j in range(a.columns)]
    versions = {p: importlib.metadata.version(p) for p in ("duckdb", "numpy", "pandas", "pyarrow", "scipy",
                                                           "evidently")}
    out = {"machine": f"{platform.machine()}, {os.cpu_count()} cores", "versions": versions,
           "command": "python benchmarks/drift.py " + " ".join(__import__("sys").argv[1:]),
           "columns": a.columns, "evidently_max_rows": a.evidently_max_rows,
           "peak_memory": "per call, a forked child's VmHWM (reset via /proc/self/clear_refs) minus its RSS "
                          "before the call, the files' read included; the largest of the rounds",
           "load_average_start": os.getloadavg()[0], "sizes": {}}
    if os.path.exists(a.json):  # the sizes an earlier run measured (e.g. a smaller one, with Evidently) are kept
        earlier = json.loads(Path(a.json).read_text())
        if earlier.get("columns") == a.columns:
            out["earlier_runs"] = earlier.get("earlier_runs", []) + [{k: v for k, v in earlier.items() if k not in (
                "sizes", "earlier_runs")}]
            out["sizes"] = earlier["sizes"]

    def save():  # after every round: a run stopped early keeps what it measured
        out["load_average_end"] = os.getloadavg()[0]
        Path(a.json).write_text(json.dumps(out, indent=2) + "\n")

    for n in a.rows:
        t = time.perf_counter()
        ref, cur = in_child(write_data, directory, n, a.columns)[0]
        print(f"{n:,} + {n:,} rows x {a.columns} columns: {ref}, {cur} ({time.perf_counter() - t:.0f} s)",
              flush=True)
        tools = [x for x in TOOLS if x != "evidently" or n <= a.evidently_max_rows]
        seconds = {(c, x): [] for c in CASES for x in tools}
        peaks, values, timed_out = {key: [] for key in seconds}, {}, {}
        size = out["sizes"][str(n)] = {"rows_per_window": n}
        for r in range(a.rounds):  # interleaved: each round runs every case with every tool
            for case, methods in CASES.items():
                for tool in tools:
                    done = in_child(TOOLS[tool], ref, cur, columns, methods, timeout=a.timeout)
                    if done is None:
                        timed_out[case, tool] = a.timeout
                        print(f"  round {r + 1} case {case} {tool:10} timed out after {a.timeout:.0f} s", flush=True)
                        continue
                    value, s, peak = done
                    values[case, tool] = value
                    seconds[case, tool].append(s)
                    peaks[case, tool].append(peak)
                    print(f"  round {r + 1} case {case} {tool:10} {s:8.2f} s  peak {peak / 2**20:7.0f} MB", flush=True)
            size["cases"] = summarize(seconds, peaks, values, timed_out, tools, n, a.columns,
                                      quiet=r + 1 < a.rounds)
            save()
        if timed_out:
            save()
            continue
        if "evidently" in tools:
            check = size["evidently_bins_abs_difference"] = in_child(evidently_bins_check, ref, cur, columns)[0]
            print("psi, jensenshannon on Evidently's bins (sm.drift edges=Sturges cuts, a call per column): "
                  "max |diff| " + ", ".join(f"{m} {max(v for k, v in check.items() if k.endswith(m)):.1e}"
                                            for m in ("psi", "jensenshannon")), flush=True)
        if a.no_scans:
            continue
        # the scans of the broadest case (b's statement is a's with the binned statistics added)
        case = list(CASES)[-1]
        plans = in_child(scans, ref, cur, columns, CASES[case], timeout=a.timeout)
        if plans is None:
            print(f"case {case}: the scans' count timed out", flush=True)
            continue
        plans = size[f"scans_case_{case}"] = plans[0]
        print(f"case {case}: the Parquet scans of each statement sm.drift sends (file, rows read):")
        for p in plans:
            print("   ", p["statement"][:70], [(x["file"], x["rows"]) for x in p["parquet_scans"]], flush=True)
        save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
