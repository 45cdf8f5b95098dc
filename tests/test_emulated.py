"""Snowflake, emulated: the Snowflake SQL through snowflake.connector's API on fakesnow (which
translates it to DuckDB's), each value against DuckDB's own. This is *emulated*, never *executed*:
it shows the connector path (types, names, results) and that the SQL survives a Snowflake reader,
not Snowflake's numbers. fakesnow pins its own sqlglot series, so it runs in an environment of its own
(SQLMETRICS_FAKESNOW_PYTHON, default .venv-fakesnow/bin/python, which .ci/run creates), through
tests/snowflake_emulated.py. A sample: every classification and regression metric's own call, and
the ranking metrics and workflows below; the registry-wide conformance runs on the executed engines.
"""
import json
import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import ALL, args, make_binary_frame, make_ranking_frames, unreachable

ROOT = Path(__file__).resolve().parent.parent
PYTHON = Path(os.environ.get("SQLMETRICS_FAKESNOW_PYTHON", ROOT / ".venv-fakesnow" / "bin" / "python"))

BINARY = make_binary_frame(n=300, seed=13)
RUN, QRELS = make_ranking_frames(n_queries=15, seed=4)
#: the binary frame under the names an unquoted CREATE TABLE gives its columns on Snowflake (upper case)
SHOUTING = BINARY.rename(columns=str.upper)
TABLES = {"preds": BINARY, "run": RUN, "qrels": QRELS, "shouting": SHOUTING}
CASES = [(name, name, "preds", args(name)) for name in ALL] + [
    ("auc-by", "auc", "preds", {"label": "y", "score": "s", "weight": "w", "by": "c"}),
    ("gauc-by", "gauc", "preds", {"label": "y", "score": "s", "group": "g", "by": "c"}),
    ("roc_curve-by", "roc_curve", "preds", {"label": "y", "score": "s", "by": "c"}),
    ("ndcg", "ndcg", "run", {"qrels": "qrels", "k": 5}),
    ("ndcg-per-query", "ndcg", "run", {"qrels": "qrels", "k": 5, "per_query": True}),
    ("map", "map", "run", {"qrels": "qrels"}),
    ("mrr-by", "mrr", "run", {"qrels": "qrels", "by": "c"}),
    ("bpref", "bpref", "run", {"qrels": "qrels"}),
    ("err", "err", "run", {"qrels": "qrels", "k": 5}),
    ("precision_at_k", "precision_at_k", "run", {"qrels": "qrels", "k": 3}),
    ("evaluate", "evaluate", "run", {"qrels": "qrels", "measures": ["ndcg@5", "map", "P@3", "recall@5", "mrr"]}),
    # names written in lower case resolve as Snowflake resolves them unquoted: to the upper-case columns
    ("auc-unquoted-names", "auc", "shouting", {"label": "y", "score": "s", "weight": "w", "by": "c"}),
]


def reference(metric, table, params):
    params = {k: (TABLES[v] if k == "qrels" else v.upper() if table == "shouting" else v) for k, v in params.items()}
    if metric == "evaluate":
        return sm.evaluate(TABLES[table], params.pop("qrels"), **params)
    return getattr(sm, metric)(TABLES[table], details=True, **params)


@pytest.fixture(scope="module")
def emulated(tmp_path_factory, request) -> dict:
    """The selected cases (`pytest -k auc`: auc's only), run through the emulator in one process."""
    selected = {item.callspec.params["case"] for item in request.session.items
                if item.module is request.module and hasattr(item, "callspec")}
    if not PYTHON.exists():
        unreachable("Snowflake emulator (fakesnow)", FileNotFoundError(
            f"{PYTHON}: create it with python -m venv .venv-fakesnow && .venv-fakesnow/bin/pip install fakesnow "
            "'snowflake-connector-python<4' . (as .ci/run does), or set SQLMETRICS_FAKESNOW_PYTHON"))
    work = tmp_path_factory.mktemp("snowflake")
    for name, frame in TABLES.items():
        frame.to_parquet(work / f"{name}.parquet")
    (work / "cases.json").write_text(json.dumps([c for c in CASES if c[0] in selected]))
    done = subprocess.run([str(PYTHON), str(ROOT / "tests" / "snowflake_emulated.py"), str(work / "cases.json"),
                           str(work), str(work / "out.json")], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads((work / "out.json").read_text())


@pytest.mark.parametrize("case, metric, table, params", CASES, ids=[c[0] for c in CASES])
def test_matches_duckdb_on_emulated_snowflake(emulated, case, metric, table, params):
    got = emulated[case]
    assert "error" not in got, got.get("error")
    want = reference(metric, table, dict(params))
    frame = got["frame"]
    assert frame["columns"] == list(want.columns), case
    assert len(frame["data"]) == len(want), case
    for row, (_, expected) in zip(frame["data"], want.iterrows()):
        for x, column in zip(row, want.columns):
            y = expected[column]
            if isinstance(y, float) and math.isnan(y):
                assert x is None or (isinstance(x, float) and math.isnan(x)), (case, column, x, y)
            elif isinstance(y, (int, float, np.integer, np.floating)) and not isinstance(y, bool):
                assert x == pytest.approx(y, rel=1e-9, abs=1e-12), (case, column, x, y)
            else:
                assert str(x) == str(y) or pd.isna(y) and x is None, (case, column, x, y)
