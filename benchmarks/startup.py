"""Start-up: what one command costs before and around its first row, in fresh processes, as a CLI
called in a loop or a CI gate pays it every time.

    python benchmarks/startup.py [--rounds 7] [--json PATH]

Cases, each a new process per round, the rounds interleaved (every case once per round):
- `import sqlmetrics`;
- a Python script: `import sqlmetrics` and `sm.auc` on the sample CSV (the time to the first value);
- `sqlmetrics compute auc` on the bundled 10,000-row sample CSV;
- `sqlmetrics compute ndcg` on trec_eval's own test run and judgments (trec: files);
- what a user would otherwise run: for the AUC a Python one-liner with pandas and scikit-learn on
  the same CSV (the reference); for NDCG@10 on the trec files, a pytrec_eval script and a ranx
  script (ranx compiles its numba kernels in each new process unless numba's cache has them).
Columns: wall seconds (median, min-max), CPU seconds of the process (user + system, median), ratio
of the median wall time to the reference's. Then, inside one fresh process per round, the first
`sm.auc` call and the second (medians): what the first call pays beyond the work of any call (the
modules and template code it loads, DuckDB's connection).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sqlmetrics" / "data" / "sample.csv"
TREC = ROOT / "tests" / "data" / "trec_eval"
CLI = [sys.executable, "-m", "sqlmetrics"]
CASES = {
    "import sqlmetrics": [sys.executable, "-c", "import sqlmetrics"],
    "Python: import sqlmetrics + sm.auc (CSV)": [
        sys.executable, "-c", "import sqlmetrics as sm; "
        f"print(sm.auc({str(SAMPLE)!r}, label='clicked', score='pctr'))"],
    "sqlmetrics compute auc (CSV)": [*CLI, "compute", "auc", str(SAMPLE), "--label", "clicked", "--score", "pctr"],
    "sqlmetrics compute ndcg (trec: files)": [*CLI, "compute", "ndcg", f"trec:{TREC / 'results.test'}", "--qrels",
                                              f"trec:{TREC / 'qrels.test'}", "--k", "10"],
    # trec_eval's measures from Python, as IR researchers script them: the peers of compute ndcg trec:
    "pytrec_eval script (NDCG@10, trec files)": [
        sys.executable, "-c", "import pytrec_eval\n"
        f"qrels = pytrec_eval.parse_qrel(open({str(TREC / 'qrels.test')!r}))\n"
        f"run = pytrec_eval.parse_run(open({str(TREC / 'results.test')!r}))\n"
        "values = pytrec_eval.RelevanceEvaluator(qrels, {'ndcg_cut.10'}).evaluate(run)\n"
        "print(sum(v['ndcg_cut_10'] for v in values.values()) / len(values))"],
    "ranx script (NDCG@10, trec files)": [
        sys.executable, "-c", "from ranx import Qrels, Run, evaluate\n"
        f"qrels = Qrels.from_file({str(TREC / 'qrels.test')!r}, kind='trec')\n"
        f"run = Run.from_file({str(TREC / 'results.test')!r}, kind='trec')\n"
        "print(evaluate(qrels, run, 'ndcg@10'))"],
    "pandas + scikit-learn one-liner (AUC)": [
        sys.executable, "-c", "import pandas as pd; from sklearn.metrics import roc_auc_score; "
        f"d = pd.read_csv({str(SAMPLE)!r}); print(roc_auc_score(d['clicked'], d['pctr']))"],
}
REFERENCE = "pandas + scikit-learn one-liner (AUC)"
#: prints the milliseconds of the first and the second sm.auc call of a process
FIRST_AND_SECOND = [sys.executable, "-c", "import time, sqlmetrics as sm\n"
                    "for _ in range(2):\n"
                    "    start = time.perf_counter()\n"
                    f"    sm.auc({str(SAMPLE)!r}, label='clicked', score='pctr')\n"
                    "    print(1000 * (time.perf_counter() - start))"]


def run_once(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process running `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "0"})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", metavar="PATH", help="write the measurements here")
    args = parser.parse_args()
    for command in CASES.values():  # warm-up: the OS's file cache, Python's bytecode files
        run_once(command)
    walls: dict[str, list[float]] = {case: [] for case in CASES}
    cpus: dict[str, list[float]] = {case: [] for case in CASES}
    calls: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        for case, command in CASES.items():
            wall, cpu = run_once(command)
            walls[case].append(wall)
            cpus[case].append(cpu)
        first, second = map(float, subprocess.run(FIRST_AND_SECOND, capture_output=True, text=True,
                                                  check=True).stdout.split())
        calls.append((first, second))
    reference = statistics.median(walls[REFERENCE])
    print(f"{'case':42} {'wall s: median (min-max)':>26} {'CPU s':>7} {'vs reference':>13}")
    results = {}
    for case in CASES:
        median = statistics.median(walls[case])
        results[case] = {"wall_median": median, "wall_min": min(walls[case]), "wall_max": max(walls[case]),
                         "cpu_median": statistics.median(cpus[case]), "ratio": median / reference}
        print(f"{case:42} {median:>9.3f} ({min(walls[case]):.3f}-{max(walls[case]):.3f}) "
              f"{results[case]['cpu_median']:>7.3f} {median / reference:>12.2f}x")
    first, second = (statistics.median(c[i] for c in calls) for i in (0, 1))
    over = statistics.median(a - b for a, b in calls)
    results["first sm.auc call of a process over the second (ms)"] = {
        "first_ms_median": first, "second_ms_median": second, "over_ms_median": over}
    print(f"sm.auc on the CSV in one process: first call {first:.0f} ms, second {second:.0f} ms "
          f"(the first pays the modules it loads: {over:.0f} ms more)")
    print(f"load average during the run: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    if args.json:
        Path(args.json).write_text(json.dumps({"rounds": args.rounds, "load_average": os.getloadavg()[0], "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
