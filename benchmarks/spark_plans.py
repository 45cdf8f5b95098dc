"""Which metrics funnel rows through one Spark task: an audit of the physical plans.

    python benchmarks/spark_plans.py [--master local[2]]

Every registered metric (with and without a `by` slice) is rendered for Spark, planned on small
seeded tables, and its physical plan read: a `Window` with no `Exchange` between it and an
`Exchange SinglePartition` below runs in one task, over everything that exchange gathers. The table
says, per metric, how many such windows the plan has and what they sit on (the operators between
the exchange and the rows it gathers), so that a plan over a small per-bucket table can be told
from one over row-level data by reading it.
"""
from __future__ import annotations

import argparse
import re

import numpy as np
import pandas as pd

import sqlmetrics as sm
from sqlmetrics.registry import METRICS

def tables(seed: int = 0) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    n = 2000
    preds = pd.DataFrame({"y": rng.integers(0, 2, n), "s": rng.random(n), "s2": rng.random(n),
                          "w": rng.random(n), "g": rng.integers(0, 50, n), "t": rng.normal(size=n),
                          "p": rng.normal(size=n), "c": rng.choice(["a", "b"], n)})
    run = pd.DataFrame({"query": np.repeat(np.arange(100), 10), "item": np.tile(np.arange(10), 100).astype(str),
                        "score": rng.random(1000), "relevance": rng.integers(0, 3, 1000),
                        "c": np.repeat(rng.choice(["a", "b"], 100), 10)})
    similar = pd.DataFrame({"item_a": [str(i) for i in range(9)], "item_b": [str(i + 1) for i in range(9)],
                            "similarity": rng.random(9)})
    histogram = sm.score_histogram(preds, label="y", score="s", bins=50, by="c")
    return {"preds": preds, "run": run, "similar": similar, "histogram": histogram}


def calls() -> list[tuple[str, str, dict]]:
    """(label, table, parameters) of every metric, and of the variants that take another SQL path."""
    out = [(name, *call(name)) for name in sorted(METRICS)]
    table, params = call("calibration_curve")
    out.append(("calibration_curve quantile", table, dict(params, strategy="quantile")))
    table, params = call("auc")
    out.append(("auc bins=1000", table, dict(params, bins=1000)))
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
        if "similarity" in names:
            params["similarity"] = "similar"
        if "n_items" in names:
            params["n_items"] = 10
        return "run", params
    columns = {"label": "y", "score": "s", "base_score": "s2", "group": "g", "target": "t"}
    params = {p.name: columns[p.name] for p in m.params if p.required and p.name in columns}
    if m.one_of:
        params["score"] = "s"
    if name in ("mae", "mse", "rmse", "r2"):
        params["prediction"] = "p"
    return "preds", params


def funnels(plan: str) -> list[str]:
    """For each Window with an Exchange SinglePartition below it (no other Exchange between): the
    operator that exchange gathers, as the plan prints it."""
    lines = [line for line in plan.splitlines() if line.strip()]
    depth = [len(line) - len(line.lstrip(" :|+-")) for line in lines]
    found = []
    for i, line in enumerate(lines):
        if "Exchange SinglePartition" not in line:
            continue
        level, chain = depth[i], []
        for j in range(i - 1, -1, -1):
            if depth[j] < level:
                level = depth[j]
                if lines[j].strip(" :|+-").startswith("Exchange"):
                    break
                chain.append(lines[j].strip(" :|+-"))
        if any(node.startswith("Window") for node in chain):
            found.append(next(lines[k].strip(" :|+-") for k in range(i + 1, len(lines)) if depth[k] > depth[i]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(args.master).appName("sqlmetrics-plans")
             .config("spark.sql.shuffle.partitions", "8").config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    for name, frame in tables().items():
        spark.createDataFrame(frame).createOrReplaceTempView(name)
    rows = []
    for label, table, params in calls():
        name = label.split(" ")[0]
        for by in ([], ["c"]):
            sql = sm.render(name, table, dialect="spark", pretty=False, **params, **({"by": by} if by else {}))
            plan = spark.sql(sql)._jdf.queryExecution().executedPlan().toString()
            found = funnels(plan)
            rows.append({"metric": label, "by": ",".join(by) or "-", "single-task windows": len(found),
                         "what the exchange gathers": "; ".join(re.sub(r"#\d+L?", "", f)[:48] for f in found)})
    spark.stop()
    table = pd.DataFrame(rows)
    with pd.option_context("display.max_rows", None, "display.max_colwidth", 120, "display.width", 200):
        print(table[table["single-task windows"] > 0].to_string(index=False))
        print(f"\n{len(table)} plans read; the others have no window over an Exchange SinglePartition. With by=, "
              "a window is partitioned by the slices: as many tasks as slices.")


if __name__ == "__main__":
    main()
