"""concordance_index (Harrell's C) on DuckDB against lifelines and scikit-survival, same data.

    python benchmarks/concordance.py [--sizes 10000 100000 1000000] [--sksurv-max 100000] [--json PATH]

Data: exponential durations rounded to 3 decimals (ties in time), 40% censored, a risk score with
1,000 distinct values (ties in score), correlated with the durations. Each size is timed once per
tool, wall seconds, in this process (DuckDB's connection opened before the clock starts), with the
largest absolute difference of C between the tools. scikit-survival's concordance_index_censored
compares each event with a boolean mask over all rows (O(n^2) time), so it runs up to --sksurv-max
rows only; lifelines' concordance_index is O(n log n) (a balanced tree of the event scores).
"""
from __future__ import annotations

import argparse
import json
import os
import time

import duckdb
import numpy as np
import pandas as pd

import sqlmetrics as sm


def data(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=n)
    t = np.round(rng.exponential(np.exp(-0.5 * risk)), 3) + 0.001
    return pd.DataFrame({"t": t, "e": (rng.random(n) >= 0.4).astype(int), "risk": np.round(rng.normal(risk, 1.0), 1)})


def timed(f):
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--sksurv-max", type=int, default=100_000)
    ap.add_argument("--json")
    a = ap.parse_args()
    from lifelines.utils import concordance_index
    from sksurv.metrics import concordance_index_censored
    con = duckdb.connect()
    out = {"load_average": os.getloadavg()[0], "results": {}}
    for n in a.sizes:
        df = data(n)
        con.register("survival", df)
        sql_s, c = timed(lambda: sm.concordance_index("survival", duration="t", event="e", score="risk", con=con))
        lif_s, c_lif = timed(lambda: concordance_index(df.t, -df.risk, df.e))
        row = {"sqlmetrics_duckdb_s": sql_s, "lifelines_s": lif_s, "c": c, "diff_lifelines": abs(c - c_lif)}
        if n <= a.sksurv_max:
            sk_s, got = timed(lambda: concordance_index_censored(df.e.astype(bool).to_numpy(), df.t.to_numpy(),
                                                                 df.risk.to_numpy()))
            row |= {"sksurv_s": sk_s, "diff_sksurv": abs(c - got[0])}
        out["results"][n] = row
        print(n, json.dumps(row), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
