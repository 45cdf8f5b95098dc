"""Which metrics funnel rows through one Spark task: an audit from Spark's own task metrics.

    python benchmarks/spark_plans.py [--master local[2]] [--rows 50000] [--partitions 8]

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
"""
from __future__ import annotations

import argparse
import itertools
import json
import time
import urllib.request

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
                          "k": rng.integers(0, 50, n), "khat": rng.integers(0, 50, n)})
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
    return {"preds": preds, "run": run, "similar": similar, "histogram": histogram, "scores": scores,
            "interactions": interactions}


def calls() -> list[tuple[str, str, dict]]:
    """(label, table, parameters) of every metric, of the variants that take another SQL path, and of
    sm.evaluate."""
    out = [(name, *call(name)) for name in sorted(METRICS)]
    table, params = call("calibration_curve")
    out.append(("calibration_curve quantile", table, dict(params, strategy="quantile")))
    table, params = call("auc")
    out.append(("auc bins=1000", table, dict(params, bins=1000)))
    out.append(("auc max_fpr=0.1", table, dict(params, max_fpr=0.1)))
    # sm.evaluate: every measure of its one pass over the run
    columns = {k: v for k, v in call("ndcg")[1].items() if k != "k"}
    out.append(("evaluate", "run", dict(columns, measures=["ndcg@5", "ndcg_cut_5", "dcg@5", "map", "mrr@5",
                                                                    "P@5", "set_P", "recall@5", "hit_rate@5", "Rprec"])))
    return out


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
    if "example" in names:  # multi-class from scores
        probabilities = m.param("score").role == "probability"
        return "scores", {"label": "label"} | ({"score": "probability"} if probabilities else {})
    if any(p.role == "class" for p in m.params):  # multi-class from labels
        return "preds", {"label": "k", "prediction": "khat"}
    columns = {"label": "y", "score": "s", "base_score": "s2", "other_score": "s2", "group": "g", "target": "t"}
    params = {p.name: columns[p.name] for p in m.params if p.required and p.name in columns}
    if m.one_of:
        params["score"] = "s"
    prediction = next((p for p in m.params if p.name == "prediction"), None)
    if prediction is not None and prediction.role in ("numeric", "log1p"):  # a regression metric
        params["prediction"] = "s2" if prediction.role == "log1p" else "p"  # log1p: values above -1
    return "preds", params


def largest_task_read(spark, sql: str) -> int:
    """Run `sql` and return the most shuffled rows any one of its tasks read (Spark's task metrics):
    from the driver's status store on a classic session, from the Spark UI's REST API on a Spark
    Connect session (its client has no SparkContext)."""
    connect = type(spark).__module__.startswith("pyspark.sql.connect.")
    reads = _connect_task_reads if connect else _classic_task_reads
    return max(reads(spark, sql, f"sqlmetrics-audit-{next(_RUNS)}"), default=0)


def _classic_task_reads(spark, sql: str, group: str):
    sc = spark.sparkContext
    sc.setJobGroup(group, group)
    spark.sql(sql).collect()
    jsc = sc._jsc.sc()
    jsc.listenerBus().waitUntilEmpty()  # the status store is filled from the listener bus
    store = jsc.statusStore()
    for job in sc.statusTracker().getJobIdsForGroup(group):
        for stage in sc.statusTracker().getJobInfo(job).stageIds:
            info = sc.statusTracker().getStageInfo(stage)
            if info is None:  # skipped: its output was reused
                continue
            tasks = store.taskList(stage, info.currentAttemptId, 100_000)
            for i in range(tasks.size()):
                metrics = tasks.apply(i).taskMetrics()
                if metrics.isDefined():
                    yield metrics.get().shuffleReadMetrics().recordsRead()


def _connect_task_reads(spark, sql: str, tag: str):
    """The server's Spark UI (on this machine, at the session's spark.ui.port) lists the jobs by the
    tags of the operations that ran them. A second tagged job is a barrier: the UI's store takes
    Spark's events in order, so once it shows that job ended, it has every task of the first."""
    api = (f"http://localhost:{spark.conf.get('spark.ui.port', '4040')}/api/v1/applications/"
           f"{spark.conf.get('spark.app.id')}")
    for name, query in ((tag, lambda: spark.sql(sql)), (f"{tag}-barrier", lambda: spark.range(2).groupBy().count())):
        spark.addTag(name)
        try:
            query().collect()
        finally:
            spark.removeTag(name)

    def jobs(name):  # a Connect tag reaches Spark as ..._Tag_<name>
        return [job for job in _rest(f"{api}/jobs") if any(t.endswith(f"_Tag_{name}") for t in job.get("jobTags", ()))]

    deadline = time.monotonic() + 60
    while not any(job["status"] == "SUCCEEDED" for job in jobs(f"{tag}-barrier")):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Spark UI at {api} did not show the audit's jobs within 60 s")
        time.sleep(0.1)
    for job in jobs(tag):
        for stage in job["stageIds"]:
            for attempt in _rest(f"{api}/stages/{stage}"):
                if attempt["status"] == "SKIPPED":  # its output was reused
                    continue
                for task in _rest(f"{api}/stages/{stage}/{attempt['attemptId']}/taskList?length=100000"):
                    if "taskMetrics" in task:
                        yield task["taskMetrics"]["shuffleReadMetrics"]["recordsRead"]


def _rest(url: str):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def session(master: str, partitions: int):
    """A Spark session for the audit: `partitions` shuffle partitions, adaptive execution off."""
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(master).appName("sqlmetrics-plans")
             .config("spark.sql.shuffle.partitions", str(partitions)).config("spark.sql.adaptive.enabled", "false")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--partitions", type=int, default=8)
    args = parser.parse_args()
    spark = session(args.master, args.partitions)
    data = tables(args.rows)
    for name, frame in data.items():
        spark.createDataFrame(frame).createOrReplaceTempView(name)
    rows = []
    for label, table, params in calls():
        name = label.split(" ")[0]
        for by in ([], ["c"]):
            sql = sm.render(name, table, dialect="spark", pretty=False, **params, **({"by": by} if by else {}))
            most = largest_task_read(spark, sql)
            rows.append({"metric": label, "by": ",".join(by) or "-", "rows": len(data[table]),
                         "most rows one task read": most, "share": f"{most / len(data[table]):.1%}"})
    spark.stop()
    with pd.option_context("display.max_rows", None, "display.width", 200):
        print(pd.DataFrame(rows).to_string(index=False))
    print(f"\n{args.partitions} shuffle partitions: a spread plan's tasks read about 1/{args.partitions} = "
          f"{1 / args.partitions:.1%} of the rows each; a step that funnels them reads 100% (50% with by: two slices).")


if __name__ == "__main__":
    main()
