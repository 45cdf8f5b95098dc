"""AUC on Spark: sqlmetrics' two plans, MLlib and scikit-learn on one CTR-like table, per number of cores.

    pip install -e ".[bench]" pyspark     # and Java 17+
    python benchmarks/spark.py [--rows 20000000] [--masters 'local[1]' 'local[2]'] [--rounds 2]
                               [--mllib-max-rows N] [--data-dir DIR] [--json PATH]

Data: a seeded synthetic click table, written once to Parquet in --data-dir (kept, and reused when
already there) or in a temporary directory removed at the end: one file per 2M rows, row groups of
100k rows, so that Spark reads it in parallel. Per impression: a true click probability p,
log-normal with mean 0.02 (clipped below 1); the label y ~ Bernoulli(p) (int8); the score s, a
noisy model of p: exp(log p + N(0, 0.5)), continuous (no ties in practice); s3, s rounded to 3
decimals (765 distinct values on 1M rows, 1,471 on 20M: heavy ties); i, the row number.

Tools, on both score columns:
  scikit-learn `roc_auc_score`    the reference value, in this process: timed end-to-end (reading y and
                                  the score from Parquet into numpy with pyarrow, what a user pays to
                                  get the data to it, then the call) and the call alone on the arrays.
  sqlmetrics `sm.auc`             what users call: input checks, then the parallel plan.
  sqlmetrics parallel plan        its SQL alone: exact, the running sums split by score buckets, so no
                                  window spans the distinct scores in one task (Spark's default plan).
  sqlmetrics aggregate plan       its SQL alone: one row per distinct score, then one window with no
                                  PARTITION BY over them, which Spark runs in one task
                                  (`Exchange SinglePartition`).
  MLlib `BinaryClassificationEvaluator(metricName='areaUnderROC')` with its default numBins (1000),
                                  which down-samples the ROC curve when there are more distinct scores
                                  than that: approximate on s. --mllib-max-rows times it on the rows with i < N only
                                  (marked ‡, times scaled linearly to all rows, its |Δ| against
                                  scikit-learn on the same rows).

Timing: each master of --masters runs in a child process of its own (this script with --worker), a
fresh SparkSession: no UI, spark.sql.shuffle.partitions = 2 x its cores, --driver-memory,
spark.sql.adaptive.enabled left at Spark's default (on: it may coalesce small shuffles into fewer
tasks). The Parquet files are a temporary view. An untimed warm-up runs every tool on the first 50k
rows (JVM and Python imports, code generation), then --rounds interleaved rounds: each round runs
every tool once per score column, in turn (the order rotates by one each round). Every call collects
the scalar, so the whole query runs. scikit-learn's rounds run in this process before the workers,
with no Spark running. Reported per score column: median and min-max seconds, the ratio of medians
to scikit-learn end-to-end, the speed-up from the first master to the others, the value and
|value - scikit-learn|. The parallel and aggregate plans are exact: their |Δ| should be ~1e-9 at most.
The cores other processes kept busy during the rounds are measured (Linux /proc: all CPU time less
that of the timing process and its descendants, the worker's JVM among them) and printed: on a
shared machine numbers taken while something else runs are noisy, the multi-core runs' most.

Where the rows go: for the parallel and the aggregate plan, the stages of the last round's call are
read back from Spark's status store (no listener, no REST): per stage, its tasks and the rows each
read (from Parquet, or from a shuffle). The busiest task reading shuffled rows is the figure to
compare: the aggregate plan's window reads every distinct score in one task.
"""
from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

SCORES = {"s": "continuous", "s3": "rounded to 3 decimals"}
TOOLS = {  # the worker's tools, in the order of the tables
    "sm.auc": "sqlmetrics `sm.auc` (checks + parallel plan)",
    "parallel": "sqlmetrics parallel plan, SQL alone",
    "aggregate": "sqlmetrics aggregate plan (one-task window), SQL alone",
    "mllib": "MLlib `BinaryClassificationEvaluator`",
}
SKLEARN = "scikit-learn `roc_auc_score`, Parquet → numpy + call"
SKLEARN_CALL = "scikit-learn `roc_auc_score`, call alone"
CHUNK_ROWS = 2_000_000     # one file each: the memory needed to write does not grow with --rows
ROW_GROUP_ROWS = 100_000   # Spark splits a file between tasks at row groups
WARM_UP_ROWS = 50_000
CTR_MEAN, LOG_SIGMA, NOISE_SIGMA = 0.02, 1.0, 0.5
RESULT = "RESULT "         # prefix of the worker's JSON line on its stdout


# ---------------------------------------------------------------- measuring

class OtherLoad:
    """Average number of cores busy with other processes than this one and its descendants (a
    worker's JVM) between start() and stop(), from /proc (Linux); None elsewhere."""

    TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def start(self):
        self._t, self._system, self._own = time.perf_counter(), self.system_busy(), self.tree_cpu()

    def stop(self) -> float | None:
        wall = time.perf_counter() - self._t
        if self._system is None or wall <= 0:
            return None
        return max(0.0, ((self.system_busy() - self._system) - (self.tree_cpu() - self._own)) / wall)

    @classmethod
    def system_busy(cls) -> float | None:
        """CPU seconds used by all processes since boot."""
        try:
            with open("/proc/stat") as f:
                ticks = [int(x) for x in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
        except OSError:
            return None
        return (sum(ticks) - ticks[3] - ticks[4]) / cls.TICK

    @classmethod
    def tree_cpu(cls) -> float | None:
        """CPU seconds used by this process and its live descendants (and the children they reaped)."""
        parent, cpu = {}, {}
        try:
            pids = [int(e.name) for e in os.scandir("/proc") if e.name.isdigit()]
        except OSError:
            return None
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            parent[pid], cpu[pid] = int(fields[1]), sum(map(int, fields[11:15])) / cls.TICK
        tree, todo = set(), [os.getpid()]
        while todo:
            pid = todo.pop()
            tree.add(pid)
            todo += [child for child, ppid in parent.items() if ppid == pid and child not in tree]
        return sum(cpu.get(pid, 0.0) for pid in tree)


def busy_note(busy: list[float | None]) -> str:
    known = [b for b in busy if b is not None]
    return f"{statistics.mean(known):.2f}" if known else "n/a"


# ---------------------------------------------------------------- data

def data_path(directory: Path, rows: int, seed: int) -> Path:
    return Path(directory) / f"ctr_{rows}_seed{seed}"


def write_data(directory: Path, rows: int, seed: int) -> Path:
    """The Parquet directory (written via a temporary name: no partial directory is reused)."""
    path = data_path(directory, rows, seed)
    if path.exists():
        return path
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    mu = np.log(CTR_MEAN) - LOG_SIGMA ** 2 / 2  # a log-normal's mean is exp(mu + sigma^2 / 2)
    for k, start in enumerate(range(0, rows, CHUNK_ROWS)):
        n = min(CHUNK_ROWS, rows - start)
        rng = np.random.default_rng([seed, k])
        p = np.minimum(np.exp(mu + LOG_SIGMA * rng.standard_normal(n)), np.nextafter(1.0, 0.0))
        y = (rng.random(n) < p).astype(np.int8)
        s = np.exp(np.log(p) + NOISE_SIGMA * rng.standard_normal(n))
        table = pa.table({"i": np.arange(start, start + n, dtype=np.int64), "y": y, "s": s, "s3": np.round(s, 3)})
        pq.write_table(table, tmp / f"part-{k:05d}.parquet", row_group_size=ROW_GROUP_ROWS)
    os.replace(tmp, path)
    return path


# ---------------------------------------------------------------- the worker (one Spark master)

def spark_tools(spark, view: str, score: str, mllib_rows: int | None) -> dict:
    """The worker's calls on `view`, each returning the AUC. The plans' SQL is rendered here, not timed."""
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import functions as F

    import sqlmetrics as sm
    from sqlmetrics.sqltext import finish
    from sqlmetrics.target import Target
    from sqlmetrics.templates import render_macro

    def plan(name):
        sql = finish(render_macro("auc", Target("spark"), relation=view, label="y", score=score, plan=name),
                     {}, Target("spark"))
        return lambda: spark.sql(sql).collect()[0]["auc"]

    ml_input = spark.table(view)
    if mllib_rows is not None:
        ml_input = ml_input.where(F.col("i") < mllib_rows)
    # MLlib wants a double label; a double rawPrediction is read as the positive class' score
    ml_input = ml_input.select(F.col("y").cast("double").alias("label"), F.col(score).alias("raw"))
    evaluator = BinaryClassificationEvaluator(rawPredictionCol="raw", labelCol="label", metricName="areaUnderROC")
    return {"sm.auc": lambda: sm.auc(spark.table(view), label="y", score=score),
            "parallel": plan("parallel"), "aggregate": plan("aggregate"),
            "mllib": lambda: evaluator.evaluate(ml_input)}


def rows_read(spark, group: str) -> list[dict]:
    """The stages that ran tasks for the jobs of `group` (AQE runs a query as several jobs and skips
    the stages it reuses), in order: per task, the rows read from Parquet and from a shuffle."""
    tracker, store = spark.sparkContext.statusTracker(), spark._jsc.sc().statusStore()
    jobs = [tracker.getJobInfo(j) for j in tracker.getJobIdsForGroup(group)]
    stages = []
    for stage_id in sorted({s for job in jobs if job is not None for s in job.stageIds}):
        info = tracker.getStageInfo(stage_id)
        if info is None or not info.numCompletedTasks:
            continue
        tasks = store.taskList(stage_id, info.currentAttemptId, info.numTasks)  # a Scala Seq over Py4J
        metrics = [tasks.apply(k).taskMetrics() for k in range(tasks.size())]
        metrics = [m.get() for m in metrics if m.isDefined()]
        stages.append({"stage": stage_id,
                       "input_rows": [m.inputMetrics().recordsRead() for m in metrics],
                       "shuffle_rows": [m.shuffleReadMetrics().recordsRead() for m in metrics]})
    return stages


def worker(args) -> None:
    """Child: time the Spark tools on one master; progress lines, then one RESULT line of JSON."""
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master(args.worker).appName("sqlmetrics-bench-spark")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", args.driver_memory).getOrCreate())
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    cores = sc.defaultParallelism
    spark.conf.set("spark.sql.shuffle.partitions", str(2 * cores))
    spark.read.parquet(str(data_path(args.data_dir, args.rows, args.seed))).createOrReplaceTempView("preds")
    spark.sql(f"SELECT * FROM preds WHERE i < {WARM_UP_ROWS}").createOrReplaceTempView("preds_small")
    mllib_rows = args.mllib_max_rows if args.mllib_max_rows and args.mllib_max_rows < args.rows else None

    started = time.perf_counter()
    for score in SCORES:
        for fn in spark_tools(spark, "preds_small", score, mllib_rows).values():
            fn()
    print(f"{args.worker}: warm-up {time.perf_counter() - started:.0f} s", flush=True)

    calls = {score: list(spark_tools(spark, "preds", score, mllib_rows).items()) for score in SCORES}
    results = {score: {key: {"seconds": [], "value": None} for key in TOOLS} for score in SCORES}
    load, others = OtherLoad(), []
    for r in range(args.rounds):
        load.start()
        for score, tools in calls.items():
            for key, fn in tools[r % len(tools):] + tools[:r % len(tools)]:
                sc.setJobGroup(f"{key}/{score}/{r}", key)  # to find the call's stages afterwards
                gc.collect()
                start = time.perf_counter()
                value = fn()
                results[score][key]["seconds"].append(time.perf_counter() - start)
                results[score][key]["value"] = float(value)
        others.append(load.stop())
        print(f"{args.worker}: round {r + 1}/{args.rounds} done ({time.perf_counter() - started:.0f} s; other "
              f"processes busy {busy_note(others[-1:])} cores on average)", flush=True)
    stages = {score: {key: rows_read(spark, f"{key}/{score}/{args.rounds - 1}") for key in ("parallel", "aggregate")}
              for score in SCORES}
    out = {"master": args.worker, "cores": cores, "spark": spark.version,
           "java": sc._jvm.System.getProperty("java.version"),
           "conf": {k: spark.conf.get(k) for k in ("spark.sql.shuffle.partitions", "spark.sql.adaptive.enabled",
                                                   "spark.sql.adaptive.coalescePartitions.enabled",
                                                   "spark.driver.memory")},
           "mllib_rows": mllib_rows or args.rows, "mllib_num_bins": BinaryClassificationEvaluator().getNumBins(),
           "results": results, "other_processes_busy_cores_per_round": others, "stages": stages}
    spark.stop()
    print(RESULT + json.dumps(out), flush=True)


def run_worker(args, master: str) -> dict | None:
    """Run the worker for `master`, echoing its progress; its result, or None (its stderr printed) if it failed."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", master, "--data-dir", str(args.data_dir),
               "--rows", str(args.rows), "--seed", str(args.seed), "--rounds", str(args.rounds),
               "--driver-memory", args.driver_memory]
    if args.mllib_max_rows:
        command += ["--mllib-max-rows", str(args.mllib_max_rows)]
    result = None
    with tempfile.TemporaryFile("w+") as stderr:  # Spark's log: shown only if the worker fails
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True) as child:
            for line in child.stdout:
                if line.startswith(RESULT):
                    result = json.loads(line[len(RESULT):])
                else:
                    print("  " + line.rstrip(), flush=True)
        if child.returncode or result is None:
            stderr.seek(0)
            print(f"worker {master} failed (exit code {child.returncode}):\n{stderr.read()[-3000:]}")
            return None
    return result


# ---------------------------------------------------------------- scikit-learn (this process)

def read_arrays(path: Path, score: str, rows: int | None = None):
    """y and the score as numpy arrays, from Parquet (the rows with i < `rows` only, if given)."""
    table = pq.read_table(path, columns=["y", score] + (["i"] if rows else []))
    if rows:
        table = table.filter(pc.less(table["i"], rows))
    return table["y"].to_numpy(), table[score].to_numpy()


def roc_auc_score_on(path: Path, score: str, rows: int) -> float:
    from sklearn.metrics import roc_auc_score
    return float(roc_auc_score(*read_arrays(path, score, rows)))


def sklearn_rounds(path: Path, rounds: int) -> tuple[dict, list]:
    """End-to-end (read + call) and call-alone seconds per score column, interleaved as the workers';
    and the cores other processes kept busy, per round."""
    from sklearn.metrics import roc_auc_score
    roc_auc_score(*read_arrays(path, "s", WARM_UP_ROWS))  # warm-up: imports, first read
    arrays = {score: read_arrays(path, score) for score in SCORES}
    results = {score: {tool: {"seconds": [], "value": None} for tool in (SKLEARN, SKLEARN_CALL)} for score in SCORES}

    def end_to_end(score):
        return roc_auc_score(*read_arrays(path, score))

    def call(score):
        return roc_auc_score(*arrays[score])
    tools = [(SKLEARN, end_to_end), (SKLEARN_CALL, call)]
    load, others = OtherLoad(), []
    for r in range(rounds):
        load.start()
        for score in SCORES:
            for name, fn in tools[r % 2:] + tools[:r % 2]:
                gc.collect()
                start = time.perf_counter()
                value = fn(score)
                results[score][name]["seconds"].append(time.perf_counter() - start)
                results[score][name]["value"] = float(value)
        others.append(load.stop())
    return results, others


# ---------------------------------------------------------------- reporting

def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def fmt_seconds(seconds: list[float], scale: float = 1.0) -> str:
    times = [s * scale for s in seconds]
    med, lo, hi = statistics.median(times), min(times), max(times)
    digits = 0 if med >= 100 else 1 if med >= 10 else 2 if med >= 0.1 else 3
    return f"{'~' if scale != 1 else ''}{med:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def ratio(reference: float, median: float) -> str:
    r = reference / median
    x = r if r >= 1 else 1 / r
    return f"{x:.{0 if x >= 100 else 1}f}× {'faster' if r >= 1 else 'slower'}"


def fmt_diff(d: float) -> str:
    return "0" if d == 0 else f"{d:.0e}"


def score_table(score: str, rows: int, sk: dict, workers: list[dict], references: dict) -> tuple[str, list[str]]:
    """The markdown table of one score column, and the check lines of the exact plans."""
    reference = statistics.median(sk[SKLEARN]["seconds"])
    first = workers[0]["master"] if workers else None
    lines = [(f"| tool | master | seconds: median (min–max) | vs scikit-learn end-to-end | speed-up vs {first} "
              "| value | \\|Δ\\| vs scikit-learn |"), "|---|---|---|---|---|---|---|"]
    call = sk[SKLEARN_CALL]
    lines += [(f"| {SKLEARN} | — | {fmt_seconds(sk[SKLEARN]['seconds'])} | reference | — "
               f"| {sk[SKLEARN]['value']:.12f} | reference |"),
              (f"| {SKLEARN_CALL} | — | {fmt_seconds(call['seconds'])} "
               f"| {ratio(reference, statistics.median(call['seconds']))} | — | {call['value']:.12f} "
               f"| {fmt_diff(abs(call['value'] - references['all']))} |")]
    checks = []
    for key, name in TOOLS.items():
        base = None
        for w in workers:
            r = w["results"][score][key]
            prefix = key == "mllib" and w["mllib_rows"] < rows
            scale = rows / w["mllib_rows"] if prefix else 1.0
            median = statistics.median(r["seconds"]) * scale
            base = median if base is None else base
            diff = abs(r["value"] - references["mllib" if prefix else "all"])
            label = {"sm.auc": f"**{name}**",
                     "mllib": f"{name} (numBins={w['mllib_num_bins']})"
                              + (f" ‡ on the first {w['mllib_rows']:,} rows only" if prefix else "")}.get(key, name)
            lines.append(f"| {label} | {w['master']} | {fmt_seconds(r['seconds'], scale)} | {ratio(reference, median)} "
                         f"| {'—' if w['master'] == first else f'{base / median:.2f}×'} | {r['value']:.12f} "
                         f"| {fmt_diff(diff)} |")
            if key in ("parallel", "aggregate"):
                checks.append(f"{key} plan, {w['master']}: |Δ| = {diff:.1e} "
                              f"({'within' if diff <= 1e-9 else 'NOT within'} 1e-9)")
    return "\n".join(lines), checks


def stage_lines(stages: list[dict]) -> list[str]:
    out = []
    for st in stages:
        n = len(st["input_rows"])
        source = "shuffle_rows" if sum(st["shuffle_rows"]) else "input_rows"
        rows = st[source]
        out.append(f"stage {st['stage']}: {n} task{'s' if n != 1 else ''}, {sum(rows):,} rows read from "
                   f"{'a shuffle' if source == 'shuffle_rows' else 'Parquet'}"
                   + (f" (busiest task {max(rows):,})" if n > 1 else ""))
    return out


def busiest_shuffle_task(stages: list[dict]) -> int:
    return max((max(st["shuffle_rows"], default=0) for st in stages), default=0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--masters", nargs="+", default=["local[1]", "local[2]"])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--mllib-max-rows", type=int,
                        help="time MLlib on the rows with i < N only, scaled linearly (default: all rows)")
    parser.add_argument("--driver-memory", default="6g", help="spark.driver.memory of each worker")
    parser.add_argument("--data-dir", type=Path, help="where the Parquet files go (kept and reused); default: a temp dir")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # internal: the master this child runs on
    args = parser.parse_args()
    if args.worker:
        return worker(args)

    started = time.perf_counter()
    load_start = os.getloadavg()
    tmp = None
    if args.data_dir is None:
        tmp = args.data_dir = Path(tempfile.mkdtemp(prefix="sqlmetrics-bench-spark-"))
    args.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        t = time.perf_counter()
        path = write_data(args.data_dir, args.rows, args.seed)
        t_write = time.perf_counter() - t
        table = pq.read_table(path, columns=["y", *SCORES])
        data = {"path": path.name, "rows": table.num_rows, "files": len(list(path.glob("*.parquet"))),
                "positives": pc.mean(table["y"]).as_py(),
                **{f"distinct {score}": pc.count_distinct(table[score]).as_py() for score in SCORES},
                "seconds to write Parquet (0 if reused)": round(t_write, 1)}
        table = None
        print(json.dumps(data, indent=1))

        sk, sk_others = sklearn_rounds(path, args.rounds)
        mllib_rows = args.mllib_max_rows if args.mllib_max_rows and args.mllib_max_rows < args.rows else None
        references = {score: {"all": sk[score][SKLEARN]["value"],
                              "mllib": roc_auc_score_on(path, score, mllib_rows) if mllib_rows else None}
                      for score in SCORES}
        print(f"scikit-learn done ({time.perf_counter() - started:.0f} s since start; other processes busy "
              f"{busy_note(sk_others)} cores on average)", flush=True)

        workers = []
        for master in args.masters:
            result = run_worker(args, master)
            if result is not None:
                workers.append(result)
        load_end = os.getloadavg()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    # numbers taken while something else runs are noisy, the multi-core runs' most
    busy = [("scikit-learn's rounds", sk_others)] + [(w["master"], w["other_processes_busy_cores_per_round"])
                                                      for w in workers]
    noisy = any(b is not None and b > 0.25 for _, rounds in busy for b in rounds)
    header = (f"`{' '.join(['python', 'benchmarks/spark.py', *sys.argv[1:]])}`: {args.rows:,} rows "
              f"({data['positives']:.2%} positives), {os.cpu_count()} cores, {args.rounds} interleaved rounds; "
              "Spark " + ", ".join(f"{w['master']} (shuffle partitions {w['conf']['spark.sql.shuffle.partitions']}, "
                                   f"AQE {w['conf']['spark.sql.adaptive.enabled']})" for w in workers)
              + f". Load average {load_start[0]:.1f} at start, {load_end[0]:.1f} at the end; other processes used "
              + ", ".join(f"{busy_note(b)} cores during {who}" for who, b in busy)
              + (" on average: the numbers are noisy." if noisy else " on average."))
    sections, notes = [], []
    for score, kind in SCORES.items():
        md, checks = score_table(score, args.rows, sk[score], workers, references[score])
        sections.append(f"### AUC, score `{score}` ({kind}, {data[f'distinct {score}']:,} distinct values)\n\n"
                        f"{md}\n\nExact plans against scikit-learn: " + "; ".join(checks) + ".")
        for w in workers:
            for key in ("parallel", "aggregate"):
                st = w["stages"][score][key]
                notes.append(f"{key} plan, `{score}`, {w['master']}: busiest task reading shuffled rows "
                             f"{busiest_shuffle_task(st):,}\n" + "\n".join("    " + s for s in stage_lines(st)))
    footnotes = [
        (f"‡ MLlib timed on the rows with i < {mllib_rows:,}, times × {args.rows / mllib_rows:,.1f}; its |Δ| "
         "is against scikit-learn on those rows.") if mllib_rows else None,
        ("MLlib's numBins down-samples its ROC curve when there are more distinct scores than numBins: its "
         "value is then approximate."),
    ]
    md = header + "\n\n" + "\n\n".join(sections) + "\n\n" + "\n".join(f for f in footnotes if f)
    print("\n" + md)
    print("\nWhere the rows go (the last round's call; rows read per task, per stage that ran tasks):\n"
          + "\n".join(notes))
    print(f"\ntotal {time.perf_counter() - started:.0f} s")

    if args.json:
        out = {
            "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
            "parameters": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
            "environment": {
                "platform": platform.platform(), "python": platform.python_version(), "cores": os.cpu_count(),
                "versions": {name: _version(name) for name in ("sqlmetrics", "pyspark", "pyarrow", "numpy",
                                                               "scikit-learn")},
                "spark": {w["master"]: {k: w[k] for k in ("cores", "spark", "java", "conf")} for w in workers},
                "load_average_start": load_start, "load_average_end": load_end,
                "other_processes_busy_cores_per_round": dict(busy)},
            "data": data,
            "sklearn": sk, "references": references,
            "workers": [{k: w[k] for k in ("master", "mllib_rows", "mllib_num_bins", "results", "stages")}
                        for w in workers],
            "markdown": md, "total_seconds": time.perf_counter() - started,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
