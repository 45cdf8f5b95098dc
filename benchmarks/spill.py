"""AUC and GAUC on more rows than the memory DuckDB may use: they must finish by spilling to disk.

    python benchmarks/spill.py [--rows 100000000] [--memory-limit 1GB] [--data-dir DIR] [--json PATH]
    python benchmarks/spill.py --rows 1000000000 --no-unlimited --no-sklearn   # 1B rows: ~17 GB of Parquet

Data: the benchmark's seeded clicks table (benchmarks/synthetic.py), 100M rows by default, read
from its Parquet file (not loaded into memory first, so the data itself does not count against
the limit). Each metric runs once on a DuckDB connection with `memory_limit` set and a spill
directory, then once more without a limit: the two values must be equal (to 1e-12), which shows
that spilling does not change the result. For AUC, scikit-learn's roc_auc_score on the full
arrays is the reference as well, and the exact AUC must lie within the certified bound of the
one-pass binned AUC (`bins=1000`), a check that needs no second sort: at a billion rows neither the
unlimited run nor scikit-learn fits in 24 GB (`--no-unlimited --no-sklearn`). The data is written
before any timing; in the default temporary directory it is deleted after the run. Printed: seconds, the process' peak resident memory growth during
the call (Linux VmHWM, reset before each call), the bytes DuckDB wrote to its spill directory
(sampled), and the values.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import duckdb

import sqlmetrics as sm
from synthetic import user_column, write_clicks

USERS = [100_000, 1_000_000]


def _rss_kib(field: str) -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field))


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # resets VmHWM to the current RSS


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(call, spill_dir: Path | None):
    """(value, seconds, peak RSS growth in MiB, largest spill directory size seen in MiB)."""
    spilled, done = [0], threading.Event()

    def watch():
        while not done.wait(0.05):
            spilled[0] = max(spilled[0], _dir_bytes(spill_dir))

    watcher = threading.Thread(target=watch, daemon=True) if spill_dir else None
    _reset_peak()
    before = _rss_kib("VmRSS:")
    if watcher:
        watcher.start()
    start = time.perf_counter()
    value = call()
    seconds = time.perf_counter() - start
    done.set()
    if watcher:
        watcher.join()
    return value, seconds, (_rss_kib("VmHWM:") - before) / 1024, spilled[0] / 2**20


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--rows", type=int, default=100_000_000)
    parser.add_argument("--memory-limit", default="1GB")
    parser.add_argument("--data-dir", type=Path, help="where the Parquet file goes (kept and reused); default: a temp dir")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--no-sklearn", action="store_true", help="skip the scikit-learn reference (loads the arrays)")
    parser.add_argument("--no-unlimited", action="store_true",
                        help="skip the run without a memory limit (past ~300M rows it does not fit in memory)")
    parser.add_argument("--json", metavar="PATH", help="write the measurements here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        data_dir = args.data_dir or Path(tmp)
        data_dir.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        path = str(write_clicks(data_dir, args.rows, USERS, args.seed))
        data_seconds = time.perf_counter() - start
        print(f"data: {path} ({Path(path).stat().st_size / 2**30:.1f} GiB, {data_seconds:.0f} s)", flush=True)
        spill_dir = Path(tmp) / "spill"
        spill_dir.mkdir()
        limited = duckdb.connect(config={"memory_limit": args.memory_limit, "temp_directory": str(spill_dir)})
        free = duckdb.connect()
        cases = [("auc", "score", {}), ("auc", "score_r3", {})] + [
            ("gauc", "score", {"group": user_column(u)}) for u in USERS]
        rows = []
        for name, score, extra in cases:
            def call(con, name=name, score=score, extra=extra):
                return getattr(sm, name)(path, label="label", score=score, con=con, **extra)
            value, seconds, peak, spilled = measure(lambda: call(limited), spill_dir)
            what = f"{name}({score}{', ' + next(iter(extra.values())) if extra else ''})"
            row = {"metric": what, "seconds": seconds, "peak_rss_growth_mib": max(peak, 0), "spilled_mib": spilled,
                   "value": value}
            print(f"{what}: {seconds:.1f} s under {args.memory_limit} (peak +{max(peak, 0):.0f} MiB, spilled up to "
                  f"{spilled:.0f} MiB); value {value:.12f}", flush=True)
            if not args.no_unlimited:
                unlimited, free_seconds, free_peak, _ = measure(lambda: call(free), None)
                row.update(unlimited_seconds=free_seconds, unlimited_peak_rss_growth_mib=max(free_peak, 0),
                           difference=abs(value - unlimited))
                print(f"  {free_seconds:.1f} s without a limit (peak +{max(free_peak, 0):.0f} MiB); "
                      f"|difference| {abs(value - unlimited):.1e}", flush=True)
                assert abs(value - unlimited) <= 1e-12, "spilling changed the value"
            if name == "auc":
                binned = sm.auc(path, label="label", score=score, bins=1000, details=True, con=free).iloc[0]
                row["binned"] = {"auc": binned["auc"], "error_bound": binned["error_bound"]}
                print(f"  binned AUC {binned['auc']:.12f} ± {binned['error_bound']:.1e} (certified)", flush=True)
                assert abs(value - binned["auc"]) <= binned["error_bound"] + 1e-12, "the AUC left its certified bound"
            rows.append(row)
        if not args.no_sklearn:
            from sklearn.metrics import roc_auc_score
            arrays = free.execute(f"SELECT label, score FROM read_parquet('{path}')").fetchnumpy()
            start = time.perf_counter()
            reference = roc_auc_score(arrays["label"], arrays["score"])
            print(f"sklearn roc_auc_score: {time.perf_counter() - start:.1f} s (arrays in memory); "
                  f"|difference| to sm.auc: {abs(reference - rows[0]['value']):.1e}")
            assert abs(reference - rows[0]["value"]) <= 1e-9

        print(f"\n| metric ({args.rows:,} rows from Parquet) | under memory_limit={args.memory_limit} | peak RSS growth "
              "| spilled (max) | without a limit | peak RSS growth |\n|---|---|---|---|---|---|")
        for row in rows:
            unlimited = (f"{row['unlimited_seconds']:.1f} s | {row['unlimited_peak_rss_growth_mib']:,.0f} MiB"
                         if "unlimited_seconds" in row else "not run | ")
            print(f"| `{row['metric']}` | {row['seconds']:.1f} s | {row['peak_rss_growth_mib']:,.0f} MiB "
                  f"| {row['spilled_mib']:,.0f} MiB | {unlimited} |")
        if args.json:
            Path(args.json).write_text(json.dumps({
                "command": "python benchmarks/spill.py " + " ".join(sys.argv[1:]), "rows": args.rows,
                "memory_limit": args.memory_limit, "cores": os.cpu_count(), "load_average_end": os.getloadavg(),
                "duckdb": duckdb.__version__, "data_seconds": data_seconds, "results": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
