"""Which metrics funnel rows through one Spark task: an audit from Spark's own task metrics.

    python benchmarks/spark_plans.py [--master local[2]] [--rows 50000] [--partitions 8]
                                     [--parquet] [--scale 1] [--statistics] [--only NAME ...] [--json PATH]

Every registered metric (with and without a `by` slice of two values) runs on Spark over seeded
tables of --rows rows whose values are all distinct (scores, probabilities and targets in [0.5, 1),
one power-of-two range: the parallel plan's buckets then number at most 1024), with
--partitions shuffle partitions and adaptive execution off (it would merge small partitions into
one task, and so hide the plan's own spread). Spark's status store then gives, for every task
that read shuffled data, how many rows it read: the table shows the most any one task read, as a
share of the rows. A step that funnels the rows (a window with no PARTITION BY, or one partitioned
by a slice with two values) reads them all (or half) in one task; a parallel plan spreads them over
the partitions (about 1/partitions each) and only small tables (one row per bucket, per slice)
reach one task.

The tables are Spark DataFrames of pandas frames, whose exact (small) sizes let the optimizer
broadcast any side of a join, and so hide a join that sends a slice's rows to one task; --parquet
writes them to Parquet files (through Spark, in a temporary directory) and reads those, whose sizes
the optimizer estimates from the files, as a warehouse table's; --scale N makes it take each file
for N times its size (spark.sql.sources.fileCompressionFactor), so that 20,000 rows get the plan of
20,000 x N. The largest table broadcast (rows; Spark's BroadcastExchange nodes) is shown too: every
task of the join reads it whole. --statistics audits the statistics with a `by` instead (auc_ci,
auc_compare, compare's paired tests of gauc and of a ranking metric, the bootstrap), --only the
metrics named; --json writes the table and the run's settings. On a `local-cluster[2,1,2048]`
master (two executor JVMs) the shuffled rows each executor's tasks read are shown too.
"""
from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import platform
import sys
import tempfile
import time
import urllib.request
from typing import NamedTuple

import numpy as np
import pandas as pd

import sqlmetrics as sm
from sqlmetrics.registry import METRICS

_RUNS = itertools.count()


def tables(n: int, seed: int = 0) -> dict[str, pd.DataFrame]:
    """Seeded tables of n rows; the scores, probabilities and targets are distinct, in [0.5, 1)."""
    rng = np.random.default_rng(seed)

    def distinct() -> np.ndarray:
        return 0.5 + rng.permutation(n) / (2.0 * n)

    preds = pd.DataFrame({"y": rng.integers(0, 2, n), "s": distinct(), "s2": distinct(),
                          "w": rng.random(n), "g": rng.integers(0, n // 40, n), "t": distinct(),
                          "p": rng.normal(size=n), "c": rng.choice(["a", "b"], n),
                          "k": rng.integers(0, 50, n), "khat": rng.integers(0, 50, n),
                          # the uplift metrics' treatment, from a generator of its own: the other columns as before
                          "tr": np.random.default_rng(seed + 1).integers(0, 2, n)})
    # a long table of class scores (distinct) and probabilities, 2 classes per example: the AUC plan's
    # table of one row per (slice, class, bucket) stays small beside the rows, as in a warehouse
    examples = n // 2
    probability = rng.random(examples)
    scores = pd.DataFrame({"example": np.repeat(np.arange(examples), 2), "class": np.tile(np.arange(2), examples),
                           "score": distinct(), "probability": np.column_stack([probability, 1 - probability]).ravel(),
                           "label": np.repeat(rng.integers(0, 2, examples), 2),
                           "c": np.repeat(rng.choice(["a", "b"], examples), 2)})
    queries = n // 10
    run = pd.DataFrame({"query": np.repeat(np.arange(queries), 10), "item": np.tile(np.arange(10), queries).astype(str),
                        "score": rng.random(n), "relevance": rng.integers(0, 3, n),
                        "c": np.repeat(rng.choice(["a", "b"], queries), 10)})
    similar = pd.DataFrame({"item_a": [str(i) for i in range(9)], "item_b": [str(i + 1) for i in range(9)],
                            "similarity": rng.random(9)})
    # training interactions: each run user's history of 5 items outside its list ('10'..'59'), and as many
    # events of other users on the run's items ('0'..'9'), so that every recommended item has a count
    users = np.repeat(np.arange(queries), 5)
    interactions = pd.DataFrame({"query": np.concatenate([users, queries + users]),
                                 "item": np.concatenate([rng.integers(10, 60, len(users)),
                                                         rng.integers(0, 10, len(users))]).astype(str)})
    histogram = sm.score_histogram(preds, label="y", score="s", bins=50, by="c")
    other_run = run.assign(score=rng.random(n))  # a second system's run of the same queries (compare)
    # the drift metrics' current window: other rows of the same columns, moved
    current = preds.assign(s=preds["s"] * 0.9, t=rng.permutation(preds["t"].to_numpy()))
    return {"preds": preds, "current": current, "run": run, "other_run": other_run, "similar": similar,
            "histogram": histogram, "scores": scores, "interactions": interactions}


def calls() -> list[tuple[str, str, dict]]:
    """(label, table, parameters) of every metric, of the variants that take another SQL path, and of
    sm.evaluate."""
    out = [(name, *call(name)) for name in sorted(METRICS)]
    table, params = call("calibration_curve")
    out.append(("calibration_curve quantile", table, dict(params, strategy="quantile")))
    table, params = call("auc")
    out.append(("auc bins=1000", table, dict(params, bins=1000)))
    out.append(("auc max_fpr=0.1", table, dict(params, max_fpr=0.1)))
    table, params = call("uplift_at_k")  # each slice's treated and control rows ordered apart
    out.append(("uplift_at_k by_group", table, dict(params, strategy="by_group")))
    # sm.evaluate: every measure of its one pass over the run
    columns = {k: v for k, v in call("ndcg")[1].items() if k != "k"}
    out.append(("evaluate", "run", dict(columns, measures=["ndcg@5", "ndcg_cut_5", "dcg@5", "map", "mrr@5",
                                                                    "P@5", "set_P", "recall@5", "hit_rate@5", "Rprec"])))
    return out


def statistics() -> list[tuple[str, str, dict]]:
    """(label, table, parameters) of the statistics whose SQL joins per-slice results back to the rows
    (or units): DeLong's interval and paired test, compare's paired tests of gauc's groups and of a
    ranking metric's queries, the bootstrap of a metric of rows and of a ranking metric."""
    auc, gauc, ndcg = call("auc")[1], call("gauc")[1], call("ndcg")[1]
    return [("auc_ci", *call("auc_ci")), ("auc_compare", *call("auc_compare")),
            ("compare gauc", "preds", dict(gauc, metric="gauc", other="s2")),
            ("compare ndcg", "run", dict(ndcg, metric="ndcg", other="other_run")),
            ("compare ndcg wilcoxon", "run", dict(ndcg, metric="ndcg", other="other_run", test="wilcoxon")),
            ("bootstrap auc", "preds", dict(auc, metric="auc", n_boot=20)),
            ("bootstrap ndcg", "run", dict(ndcg, metric="ndcg", n_boot=20))]


def call(name: str) -> tuple[str, dict]:
    """(table, parameters) of a plain call of metric `name` on the tables above."""
    m = METRICS[name]
    names = {p.name for p in m.params}
    if name == "histogram_auc":
        return "histogram", {}
    if "query" in names or name == "coverage":
        params = {k: v for k, v in {"query": "query", "item": "item", "score": "score", "relevance": "relevance"}.items()
                  if k in names}
        if "k" in names:
            params["k"] = 5
        if "qrels" in names and m.param("qrels").required:  # judged_at_k: the run's own judgments as qrels
            params["qrels"] = "run"
        if "similarity" in names:
            params["similarity"] = "similar"
        if "n_items" in names:
            params["n_items"] = 10
        if "interactions" in names:
            params["interactions"] = "interactions"
        return "run", params
    if "current" in names:  # drift: two windows, two columns
        return "preds", {"current": "current", "columns": ["s", "t"]}
    if "example" in names:  # multi-class from scores
        probabilities = m.param("score").role == "probability"
        return "scores", {"label": "label"} | ({"score": "probability"} if probabilities else {})
    if any(p.role == "class" for p in m.params):  # multi-class from labels
        return "preds", {"label": "k", "prediction": "khat"}
    columns = {"label": "y", "score": "s", "base_score": "s2", "other_score": "s2", "group": "g", "target": "t",
               "sensitive": ["g"], "duration": "t", "event": "y", "treatment": "tr"}
    params = {p.name: columns[p.name] for p in m.params if p.required and p.name in columns}
    if "times" in names:  # cumulative_dynamic_auc: times within t's range
        params["times"] = [0.6, 0.8]
    if "winsize" in names:  # treatment_balance_curve
        params["winsize"] = 100
    if m.one_of:
        params["score"] = "s"
    prediction = next((p for p in m.params if p.name == "prediction"), None)
    if prediction is not None and prediction.role in ("numeric", "log1p"):  # a regression metric
        params["prediction"] = "s2" if prediction.role == "log1p" else "p"  # log1p: values above -1
    return "preds", params


class Reads(NamedTuple):
    """What the tasks of one query read: (stage, executor, shuffled rows) per task; the rows of each
    table broadcast (None: not known, on Spark Connect); the seconds the query took."""
    tasks: list[tuple[int, str, int]]
    broadcasts: list[int] | None
    seconds: float

    def busiest_share(self, rows: int) -> float:
        """The most rows one task read, as a share of the rows its stage read (of `rows`, the table's,
        where the stage read fewer: one of small tables, which a task may read whole). A step that
        reads k copies of the rows (both systems of a comparison, both sides of a join) spreads
        k x rows: its tasks read about 1/partitions of that each. A funnel's task reads its slice's
        rows (1/2 with two slices) or all."""
        stages = collections.defaultdict(list)
        for stage, _, read in self.tasks:
            stages[stage].append(read)
        return max((max(reads) / max(sum(reads), rows) for reads in stages.values()), default=0.0)


def largest_task_read(spark, sql: str) -> int:
    """Run `sql` and return the most shuffled rows any one of its tasks read (Spark's task metrics)."""
    return max((read for _, _, read in task_reads(spark, sql).tasks), default=0)


def task_reads(spark, sql: str) -> Reads:
    """Run `sql` and read its tasks' metrics: from the driver's status store on a classic session, from
    the Spark UI's REST API on a Spark Connect session (its client has no SparkContext)."""
    connect = type(spark).__module__.startswith("pyspark.sql.connect.")
    return (_connect_task_reads if connect else _classic_task_reads)(spark, sql, f"sqlmetrics-audit-{next(_RUNS)}")


def _classic_task_reads(spark, sql: str, group: str) -> Reads:
    sc = spark.sparkContext
    sc.setJobGroup(group, group)
    frame = spark.sql(sql)
    start = time.perf_counter()
    frame.collect()
    seconds = time.perf_counter() - start
    jsc = sc._jsc.sc()
    jsc.listenerBus().waitUntilEmpty()  # the status store is filled from the listener bus
    store = jsc.statusStore()
    tasks = []
    for job in sc.statusTracker().getJobIdsForGroup(group):
        for stage in sc.statusTracker().getJobInfo(job).stageIds:
            info = sc.statusTracker().getStageInfo(stage)
            if info is None:  # skipped: its output was reused
                continue
            listed = store.taskList(stage, info.currentAttemptId, 100_000)
            for i in range(listed.size()):
                task = listed.apply(i)
                if task.taskMetrics().isDefined():
                    tasks.append((stage, task.executorId(), task.taskMetrics().get().shuffleReadMetrics().recordsRead()))
    broadcasts = [node.metrics().apply("numOutputRows").value()
                  for node in _nodes(frame._jdf.queryExecution().executedPlan()) if node.nodeName() == "BroadcastExchange"]
    return Reads(tasks, broadcasts, seconds)


def _nodes(plan):
    """The nodes of an executed plan (a JVM object), depth first; a reused exchange is a leaf."""
    yield plan
    children = plan.children()
    for i in range(children.size()):
        yield from _nodes(children.apply(i))


def _connect_task_reads(spark, sql: str, tag: str) -> Reads:
    """The server's Spark UI (on this machine, at the session's spark.ui.port) lists the jobs by the
    tags of the operations that ran them. A second tagged job is a barrier: the UI's store takes
    Spark's events in order, so once it shows that job ended, it has every task of the first."""
    api = (f"http://localhost:{spark.conf.get('spark.ui.port', '4040')}/api/v1/applications/"
           f"{spark.conf.get('spark.app.id')}")

    def tagged(name, query) -> float:
        spark.addTag(name)
        try:
            start = time.perf_counter()
            query().collect()
            return time.perf_counter() - start
        finally:
            spark.removeTag(name)
    seconds = tagged(tag, lambda: spark.sql(sql))
    tagged(f"{tag}-barrier", lambda: spark.range(2).groupBy().count())

    def jobs(name):  # a Connect tag reaches Spark as ..._Tag_<name>
        return [job for job in _rest(f"{api}/jobs") if any(t.endswith(f"_Tag_{name}") for t in job.get("jobTags", ()))]

    deadline = time.monotonic() + 60
    while not any(job["status"] == "SUCCEEDED" for job in jobs(f"{tag}-barrier")):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Spark UI at {api} did not show the audit's jobs within 60 s")
        time.sleep(0.1)
    tasks = []
    for job in jobs(tag):
        for stage in job["stageIds"]:
            for attempt in _rest(f"{api}/stages/{stage}"):
                if attempt["status"] == "SKIPPED":  # its output was reused
                    continue
                for task in _rest(f"{api}/stages/{stage}/{attempt['attemptId']}/taskList?length=100000"):
                    if "taskMetrics" in task:
                        tasks.append((stage, task["executorId"], task["taskMetrics"]["shuffleReadMetrics"]["recordsRead"]))
    return Reads(tasks, None, seconds)


def _rest(url: str):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def session(master: str, partitions: int, driver_memory: str = "1g"):
    """A Spark session for the audit: `partitions` shuffle partitions, adaptive execution off."""
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(master).appName("sqlmetrics-plans")
             .config("spark.sql.shuffle.partitions", str(partitions)).config("spark.sql.adaptive.enabled", "false")
             .config("spark.driver.memory", driver_memory)
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def register(spark, data: dict[str, pd.DataFrame], directory: str | None = None, scale: float = 1) -> None:
    """The tables as temporary views of `spark`: DataFrames of the frames, or (`directory`) Parquet files
    Spark writes there and reads back, each taken by the optimizer for `scale` times its size."""
    if directory:
        spark.conf.set("spark.sql.sources.fileCompressionFactor", str(scale))
    for name, frame in data.items():
        table = spark.createDataFrame(frame)
        if directory:
            table.write.parquet(f"{directory}/{name}")
            table = spark.read.parquet(f"{directory}/{name}")
        table.createOrReplaceTempView(name)


def read_by(audited: list[tuple[str, str, dict]], data: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The tables of `data` that the calls `audited` read: as their data, or named by a parameter."""
    return {name: frame for name, frame in data.items()
            if any(name == table or name in params.values() for _, table, params in audited)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--parquet", action="store_true", help="read the tables from Parquet files Spark wrote")
    parser.add_argument("--scale", type=float, default=1, help="the optimizer takes each Parquet file for this many "
                                                               "times its size")
    parser.add_argument("--statistics", action="store_true", help="the statistics with a `by` only")
    parser.add_argument("--only", nargs="+", help="the metrics (labels) to audit")
    parser.add_argument("--driver-memory", default="1g")
    parser.add_argument("--json", help="write the results there")
    args = parser.parse_args()
    audited = [(label, table, params, by) for label, table, params in (statistics() if args.statistics else calls())
               if not args.only or label in args.only for by in ([["c"]] if args.statistics else [[], ["c"]])]
    spark = session(args.master, args.partitions, args.driver_memory)
    data = tables(args.rows)
    results = []
    with tempfile.TemporaryDirectory() as directory:
        register(spark, read_by([c[:3] for c in audited], data), directory if args.parquet else None, args.scale)
        for label, table, params, by in audited:
            sql = sm.render(label.split(" ")[0], table, dialect="spark", pretty=False, **params,
                            **({"by": by} if by else {}))
            reads = task_reads(spark, sql)
            rows = len(data[table])
            most = max((read for _, _, read in reads.tasks), default=0)
            per_executor = collections.Counter()
            for _, executor, read in reads.tasks:
                per_executor[executor] += read
            shuffled = sum(per_executor.values())
            results.append({"metric": label, "by": ",".join(by) or "-", "rows": rows, "most rows one task read": most,
                            "share of the rows": round(most / rows, 4),
                            "share of its stage's rows": round(reads.busiest_share(rows), 4),
                            "largest broadcast": max(reads.broadcasts, default=0),
                            "executors' shares of the shuffled rows": {e: round(n / shuffled, 3)
                                                                      for e, n in sorted(per_executor.items())},
                            "seconds": round(reads.seconds, 1)})
            print(results[-1], flush=True)
        version = spark.version
    spark.stop()
    with pd.option_context("display.max_rows", None, "display.width", 250, "display.max_colwidth", 60):
        print(pd.DataFrame(results).to_string(index=False))
    print(f"\n{args.partitions} shuffle partitions: a spread step's tasks read about 1/{args.partitions} = "
          f"{1 / args.partitions:.1%} of its rows each (a join's, 1/{args.partitions} of each side); a step that "
          "funnels them reads 100% (50% with by: two slices).")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"command": "python benchmarks/spark_plans.py " + " ".join(sys.argv[1:]),
                       "parameters": vars(args),
                       "environment": {"platform": platform.platform(), "cores": os.cpu_count(), "spark": version,
                                       "load_average_end": os.getloadavg()},
                       "results": results}, out, indent=1)


if __name__ == "__main__":
    main()
