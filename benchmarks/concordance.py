"""The concordance indices from a Parquet file: sqlmetrics on DuckDB against lifelines and scikit-survival.

    python benchmarks/concordance.py [--sizes 100000 1000000 10000000] [--rounds 3] [--sksurv-max 100000]
                                     [--json benchmarks/results_concordance.json]

Data: exponential durations rounded to 3 decimals (ties in time), 40% censored, a risk score rounded
to 1 decimal (ties in score), correlated with the durations, written to a Parquet file per size.
Each tool is timed as a user runs it, reading that file: sm.concordance_index and
sm.concordance_index_ipcw are given the file's path (DuckDB reads it); lifelines and
scikit-survival get pandas.read_parquet's columns, and their times include that read. The tools
take turns within each round (interleaved), so that a slower moment of the machine falls on all of
them; the median of the rounds is reported, with the ratio of each reference's time to
sqlmetrics' and the largest absolute difference of the values. scikit-survival compares each
event with a boolean mask over all rows (O(n^2) time): it runs up to --sksurv-max rows.
Rounds above 1M rows: one (lifelines takes minutes there).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time

import numpy as np
import pandas as pd

import sqlmetrics as sm


def data(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=n)
    t = np.round(rng.exponential(np.exp(-0.5 * risk)), 3) + 0.001
    e = (rng.random(n) >= 0.4).astype(int)
    e[np.argmax(t)] = 1  # scikit-survival's censoring estimate is 0 at a last time with a censored row
    return pd.DataFrame({"t": t, "e": e, "risk": np.round(rng.normal(risk, 1.0), 1)})


def tools(path: str, n: int, sksurv_max: int) -> dict:
    """name -> a call that reads `path` and returns the value."""
    from lifelines.utils import concordance_index
    from sksurv.metrics import concordance_index_censored, concordance_index_ipcw
    from sksurv.util import Surv

    def read():
        return pd.read_parquet(path)

    def lifelines_c():
        df = read()
        return concordance_index(df.t, -df.risk, df.e)

    def sksurv_c():
        df = read()
        return concordance_index_censored(df.e.astype(bool).to_numpy(), df.t.to_numpy(), df.risk.to_numpy())[0]

    def sksurv_uno():
        df = read()
        y = Surv.from_arrays(df.e.astype(bool).to_numpy(), df.t.to_numpy())
        return concordance_index_ipcw(y, y, df.risk.to_numpy())[0]

    out = {"sqlmetrics concordance_index": lambda: sm.concordance_index(path, duration="t", event="e", score="risk"),
           "lifelines concordance_index": lifelines_c,
           "sqlmetrics concordance_index_ipcw": lambda: sm.concordance_index_ipcw(path, duration="t", event="e",
                                                                                  score="risk")}
    if n <= sksurv_max:
        out |= {"scikit-survival concordance_index_censored": sksurv_c,
                "scikit-survival concordance_index_ipcw": sksurv_uno}
    return out


#: each reference's sqlmetrics counterpart
AGAINST = {"lifelines concordance_index": "sqlmetrics concordance_index",
           "scikit-survival concordance_index_censored": "sqlmetrics concordance_index",
           "scikit-survival concordance_index_ipcw": "sqlmetrics concordance_index_ipcw"}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sksurv-max", type=int, default=100_000)
    ap.add_argument("--json")
    a = ap.parse_args()
    out = {"machine": f"{os.cpu_count()} cores", "load_average_start": os.getloadavg()[0], "results": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for n in a.sizes:
            path = os.path.join(tmp, f"survival_{n}.parquet")
            data(n).to_parquet(path)
            calls = tools(path, n, a.sksurv_max)
            seconds = {name: [] for name in calls}
            values = {}
            for _ in range(a.rounds if n <= 1_000_000 else 1):
                for name, call in calls.items():
                    start = time.perf_counter()
                    values[name] = float(call())
                    seconds[name].append(time.perf_counter() - start)
            row = {name: {"median_s": statistics.median(s), "rounds_s": s, "value": values[name]}
                   for name, s in seconds.items()}
            for reference, ours in AGAINST.items():
                if reference in row:
                    row[reference]["times_sqlmetrics"] = row[reference]["median_s"] / row[ours]["median_s"]
                    row[reference]["abs_difference"] = abs(values[reference] - values[ours])
            out["results"][n] = row
            print(n, json.dumps(row), flush=True)
    out["load_average_end"] = os.getloadavg()[0]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
