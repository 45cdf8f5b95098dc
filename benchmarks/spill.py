"""AUC and GAUC on more rows than the memory DuckDB may use: they must finish by spilling to disk.

    python benchmarks/spill.py [--rows 100000000] [--memory-limit 1GB] [--data-dir DIR]

Data: the benchmark's seeded clicks table (benchmarks/synthetic.py), 100M rows by default, read
from its Parquet file (not loaded into memory first, so the data itself does not count against
the limit). Each metric runs once on a DuckDB connection with `memory_limit` set and a spill
directory, then once more without a limit: the two values must be equal (to 1e-12), which shows
that spilling does not change the result. For AUC, scikit-learn's roc_auc_score on the full
arrays is the reference as well. Printed: seconds, the process' peak resident memory growth during
the call (Linux VmHWM, reset before each call), the bytes DuckDB wrote to its spill directory
(sampled), and the values.
"""
from __future__ import annotations

import argparse
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
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        data_dir = args.data_dir or Path(tmp)
        data_dir.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        path = str(write_clicks(data_dir, args.rows, USERS, args.seed))
        print(f"data: {path} ({Path(path).stat().st_size / 2**30:.1f} GiB, {time.perf_counter() - start:.0f} s)")
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
            unlimited, free_seconds, free_peak, _ = measure(lambda: call(free), None)
            what = f"{name}({score}{', ' + next(iter(extra.values())) if extra else ''})"
            rows.append((what, seconds, peak, spilled, free_seconds, free_peak, value, abs(value - unlimited)))
            print(f"{what}: {seconds:.1f} s under {args.memory_limit} (peak +{max(peak, 0):.0f} MiB, spilled up to "
                  f"{spilled:.0f} MiB); {free_seconds:.1f} s without a limit (peak +{max(free_peak, 0):.0f} MiB); "
                  f"value {value:.12f}, |difference| {abs(value - unlimited):.1e}", flush=True)
            assert abs(value - unlimited) <= 1e-12, "spilling changed the value"
        if not args.no_sklearn:
            from sklearn.metrics import roc_auc_score
            arrays = free.execute(f"SELECT label, score FROM read_parquet('{path}')").fetchnumpy()
            start = time.perf_counter()
            reference = roc_auc_score(arrays["label"], arrays["score"])
            print(f"sklearn roc_auc_score: {time.perf_counter() - start:.1f} s (arrays in memory); "
                  f"|difference| to sm.auc: {abs(reference - rows[0][6]):.1e}")
            assert abs(reference - rows[0][6]) <= 1e-9

        print(f"\n| metric ({args.rows:,} rows from Parquet) | under memory_limit={args.memory_limit} | peak RSS growth "
              "| spilled (max) | without a limit | peak RSS growth |\n|---|---|---|---|---|---|")
        for what, seconds, peak, spilled, free_seconds, free_peak, _, _ in rows:
            print(f"| `{what}` | {seconds:.1f} s | {max(peak, 0):,.0f} MiB | {spilled:,.0f} MiB | {free_seconds:.1f} s "
                  f"| {max(free_peak, 0):,.0f} MiB |")


if __name__ == "__main__":
    main()
