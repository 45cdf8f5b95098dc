"""sqlmetrics' uplift metrics (DuckDB, reading a Parquet file) against scikit-uplift and causalml
(pandas reading the same file), interleaved rounds, one run:

    python benchmarks/uplift.py [--rows 1000000] [--rounds 3] [--json benchmarks/results_uplift.json]

Data: seeded, a 0/1 treatment (half), a 0/1 outcome whose rate the treatment raises where the true
uplift is positive, the predicted uplift rounded to 4 decimals (ties, as scores stored at fixed
precision have). Each tool's time includes reading the file (pd.read_parquet for the references,
DuckDB's read_parquet for sqlmetrics): what a user pays from the same file. |difference| to
sqlmetrics is printed for every case.

causalml 0.18's metrics module imports lightgbm and seaborn at its top (for plots and TMLE, which
auuc_score and qini_score do not use); where they are not installed it is loaded here with those
imports stubbed, so its own auuc_score and qini_score run. Its curve has a point per row in its
sort's order: the data is given distinct scores for those two cases (a tie group's order is its sort's)."""
from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
import tempfile
import time
import types
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import sqlmetrics as sm


def causalml_visualize():
    """causalml.metrics.visualize: imported, or loaded from its file with its heavy imports stubbed."""
    try:
        from causalml.metrics import visualize
        return visualize
    except ImportError:
        pass
    spec = importlib.util.find_spec("causalml")
    if spec is None:
        return None

    class Unused:
        def __init__(self, *args, **kwargs):
            pass
    stubs = {"lightgbm": {"LGBMRegressor": Unused}, "seaborn": {"set_palette": lambda *a, **k: None},
             "causalml.inference.meta.tmle": {"TMLELearner": Unused},
             "causalml.metrics.rate": {"_bootstrap_score_ci": None, "_validate_bootstrap_args": None}}
    for name in ("causalml", "causalml.inference", "causalml.inference.meta", "causalml.metrics"):
        sys.modules.setdefault(name, types.ModuleType(name)).__path__ = []
    for name, attrs in stubs.items():
        module = sys.modules.setdefault(name, types.ModuleType(name))
        for key, value in attrs.items():
            setattr(module, key, value)
    path = Path(spec.submodule_search_locations[0]) / "metrics" / "visualize.py"
    loader = importlib.util.spec_from_file_location("causalml.metrics.visualize", path)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


def make(n: int, seed: int, decimals: int | None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 2, n)
    true_uplift = rng.normal(0, 0.1, n)
    y = (rng.random(n) < 0.2 + t * true_uplift).astype(np.int8)
    s = true_uplift + rng.normal(0, 0.1, n)
    if decimals is not None:
        s = np.round(s, decimals)
    return pd.DataFrame({"y": y, "t": t.astype(np.int8), "s": s})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", default=str(Path(__file__).with_name("results_uplift.json")))
    a = ap.parse_args()
    import sklift
    import sklift.metrics as skm
    cml = causalml_visualize()
    warnings.simplefilter("ignore")  # sklift calls sklearn's deprecated stable_cumsum
    tmp = Path(tempfile.mkdtemp())
    tied, distinct = tmp / "tied.parquet", tmp / "distinct.parquet"
    make(a.rows, 0, 4).to_parquet(tied)
    make(a.rows, 1, None).to_parquet(distinct)
    kw = dict(label="y", treatment="t", score="s")

    def ref(fn):
        def run(path):
            d = pd.read_parquet(path)
            return fn(d)
        return run

    cases = {
        "qini_auc": (tied, lambda p: sm.qini_auc(str(p), **kw),
                     ("sklift.qini_auc_score", ref(lambda d: skm.qini_auc_score(d.y, d.s, d.t)))),
        "uplift_auc": (tied, lambda p: sm.uplift_auc(str(p), **kw),
                       ("sklift.uplift_auc_score", ref(lambda d: skm.uplift_auc_score(d.y, d.s, d.t)))),
        "qini_curve": (tied, lambda p: float(np.trapezoid(*(lambda c: (c["qini"], c["n"]))(sm.qini_curve(str(p), **kw)))),
                       ("sklift.qini_curve (trapezoid area)",
                        ref(lambda d: float(np.trapezoid(*skm.qini_curve(d.y, d.s, d.t)[::-1]))))),
        "uplift_at_k overall": (distinct, lambda p: sm.uplift_at_k(str(p), **kw, k=0.3),
                                ("sklift.uplift_at_k(strategy='overall')",
                                 ref(lambda d: skm.uplift_at_k(d.y, d.s, d.t, strategy="overall", k=0.3)))),
        "uplift_at_k by_group": (distinct, lambda p: sm.uplift_at_k(str(p), **kw, k=0.3, strategy="by_group"),
                                 ("sklift.uplift_at_k(strategy='by_group')",
                                  ref(lambda d: skm.uplift_at_k(d.y, d.s, d.t, strategy="by_group", k=0.3)))),
    }
    if cml is not None:
        frame = lambda d: d.rename(columns={"t": "w"})  # noqa: E731 (causalml's column names)
        cases["uplift_auc causalml"] = (distinct, lambda p: sm.uplift_auc(str(p), **kw, convention="causalml"),
                                        ("causalml.auuc_score(normalize=True)",
                                         ref(lambda d: float(cml.auuc_score(frame(d))["s"]))))
        cases["qini_auc causalml"] = (distinct, lambda p: sm.qini_auc(str(p), **kw, convention="causalml"),
                                      ("causalml.qini_score(normalize=True)",
                                       ref(lambda d: float(cml.qini_score(frame(d))["s"]))))
    times = {c: {"sqlmetrics": [], "reference": []} for c in cases}
    values = {}
    for _ in range(a.rounds):  # interleaved: each round runs every case with both tools
        for case, (path, ours, (_, theirs)) in cases.items():
            for tool, fn in (("sqlmetrics", ours), ("reference", theirs)):
                start = time.perf_counter()
                values[case, tool] = float(fn(path))
                times[case][tool].append(time.perf_counter() - start)
    out = {"rows": a.rows, "rounds": a.rounds, "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores",
           "versions": {"sqlmetrics": getattr(sm, "__version__", "dev"), "scikit-uplift": sklift.__version__,
                        "duckdb": __import__("duckdb").__version__, "pandas": pd.__version__,
                        "causalml": (__import__("importlib.metadata").metadata.version("causalml") if cml else None)},
           "cases": {}}
    print(f"{a.rows:,} rows, best of {a.rounds} interleaved rounds (each reads the Parquet file)")
    for case, (path, _, (name, _)) in cases.items():
        ours, theirs = min(times[case]["sqlmetrics"]), min(times[case]["reference"])
        diff = abs(values[case, "sqlmetrics"] - values[case, "reference"])
        out["cases"][case] = {"reference": name, "data": path.stem, "sqlmetrics_s": round(ours, 3),
                              "reference_s": round(theirs, 3), "speedup": round(theirs / ours, 2),
                              "value": values[case, "sqlmetrics"], "abs_difference": diff}
        print(f"{case:24} sqlmetrics {ours:7.3f}s  {name:42} {theirs:7.3f}s  x{theirs / ours:5.1f}  |diff| {diff:.1e}")
    Path(a.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
