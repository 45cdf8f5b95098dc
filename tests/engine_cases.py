"""The engine conformance cases (tests/test_engines.py, tests/test_spark_connect.py): seeded tables,
one call per metric and per dialect hazard, every other value of each choice parameter, and the
DuckDB reference they are compared with. A helper module, as conftest.py: test modules import from
here, never from each other."""
import math
import os
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import (ALL, LONG_TABLE, TWO_WINDOWS, args, connect_postgres, make_binary_frame, make_class_scores,
                      make_ranking_frames, plain_rows, spark_share, with_choice)
from sqlmetrics.registry import METRICS

BINARY = make_binary_frame(n=500, seed=21).assign(yb=lambda d: d["y"].astype(bool), db=lambda d: d["d"].astype(bool))
RUN, QRELS = make_ranking_frames(n_queries=25, seed=8)
BASELINE = RUN.assign(score=(RUN["score"] * 7 + RUN["item"].str.len()) % 5)  # a second run of the same items
# tie-break by byte order: 'a' (0x61) sorts after 'B' (0x42) in bytes, before it in most locales
TIES = pd.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["B", "a", "c-1", "Z", "z"],
                     "score": [1.0, 1.0, 0.5, 2.0, 2.0], "relevance": [1, 0, 1, 0, 1]})
# the run carrying its own relevance (the judgments' grade, 0 where unjudged; -1: unjudged in the pool)
JUDGED_RUN = RUN.merge(QRELS, on=["query", "item", "c"], how="left").fillna({"relevance": 0}).astype({"relevance": int})
JUDGED_RUN.loc[::7, "relevance"] = -1
_ITEMS = sorted(set(RUN["item"]))
SIMILARITY = pd.DataFrame([(a, b, round((i * 7 + j * 3) % 10 / 10, 1)) for i, a in enumerate(_ITEMS)
                           for j, b in enumerate(_ITEMS) if i < j and (i + j) % 3],
                          columns=["item_a", "item_b", "similarity"])
# training interactions of the run's users (3 events each for 3 users in 4, none of them an item of the
# user's own list: serendipity) and one user who interacted with every item; their counts as a table
_RNG = np.random.default_rng(9)
INTERACTIONS = pd.DataFrame(
    [(q, str(i)) for q in sorted(set(RUN["query"])) if q % 4
     for i in _RNG.choice(sorted(set(_ITEMS) - set(RUN.loc[RUN["query"] == q, "item"])), 3)]
    + [(1000, i) for i in _ITEMS], columns=["query", "item"])
POPULARITY = pd.concat([INTERACTIONS.groupby("item", as_index=False).size().rename(columns={"size": "count"}),
                        pd.DataFrame({"item": ["never"], "count": [0]})], ignore_index=True)
# stored bucket counts, per slice c: histogram_auc merges the slices when not given by="c"
HISTOGRAM = sm.score_histogram(BINARY, label="y", score="s", bins=7, weight="w", by="c")
# a long table of class scores, and the true classes as a table of their own
SCORES = make_class_scores()
LABELS = SCORES.groupby("example", as_index=False)["label"].first()
# rows the input checks must reject: a NULL label and a label of 2
BAD = pd.DataFrame({"y": [2.0, None], "s": [0.5, 0.1]})
# the current window of the drift metrics, against "preds" as the reference: other rows, moved, with NULLs
CURRENT = make_binary_frame(n=450, seed=23).assign(s=lambda d: d["s"] * 0.8 + 0.1)
CURRENT.loc[::9, "s2"] = None
TABLES = {"preds": BINARY, "current": CURRENT, "run": RUN, "baseline": BASELINE, "qrels": QRELS, "judged_run": JUDGED_RUN, "ties": TIES,
          "similarity": SIMILARITY, "bad": BAD,
          "histogram": HISTOGRAM, "scores": SCORES, "labels": LABELS, "interactions": INTERACTIONS,
          "popularity": POPULARITY}
RELATIONS = ("qrels", "similarity", "labels", "interactions", "popularity", "items", "current")  # parameters naming a second table


def calls():
    """(id, metric, table, params) for every registered metric; extra cases for dialect hazards."""
    out = []
    for name in sorted(METRICS):
        m = METRICS[name]
        names = {p.name for p in m.params}
        if name in ALL:
            params = args(name, weight="weight" in names)
            if "by" in names:
                out.append((f"{name}-by", name, "preds", dict(params, by="c")))
            out.append((name, name, "preds", params))
        elif name in LONG_TABLE:
            out.append((name, name, "scores", {"label": "label", "weight": "w"}))
            out.append((f"{name}-by-labels", name, "scores", {"labels": "labels", "by": "c"}))
        elif name in TWO_WINDOWS:
            out.append((name, name, "preds", {"current": "current", "columns": ["s", "s2", "t", "d"],
                                              "categorical": ["cls", "y", "g"]}))
            out.append((f"{name}-by", name, "preds", {"current": "current", "columns": ["s2", "t"], "categorical": ["cls"],
                                                      "binning": "uniform", "n_bins": 4, "weight": "w", "by": "c"}))
        elif name == "histogram_auc":
            out.append((name, name, "histogram", {}))
            out.append((f"{name}-by", name, "histogram", {"by": "c"}))
        elif name == "coverage":
            out.append((name, name, "run", {"k": 3, "n_items": 60}))
        elif name == "ils":
            out.append((name, name, "run", {"similarity": "similarity", "k": 4}))
            out.append((f"{name}-by", name, "run", {"similarity": "similarity", "k": 4, "by": "c"}))
        elif name in ("novelty", "average_popularity", "tail_share"):
            out.append((name, name, "run", {"interactions": "interactions", "k": 4}))
            out.append((f"{name}-popularity-by", name, "run", {"popularity": "popularity", "by": "c"}))
            if name == "tail_share":
                out.append((f"{name}-count", name, "run", {"interactions": "interactions", "tail": 2.0, "by": "c"}))
            if name == "average_popularity":
                out.append((f"{name}-per-query", name, "run", {"interactions": "interactions", "k": 2, "per_query": True}))
        elif name == "serendipity":
            out.append((name, name, "run", {"interactions": "interactions", "similarity": "similarity", "k": 4}))
            out.append((f"{name}-relevance-by", name, "run", {"interactions": "interactions", "similarity": "similarity",
                                                               "relevance": "score", "by": "c"}))
        elif name == "distributional_coverage":
            out.append((name, name, "run", {"k": 3}))
            out.append((f"{name}-by", name, "run", {"by": "c"}))
        elif name == "gini_index":
            out.append((name, name, "run", {"k": 3, "n_items": 70}))
            out.append((f"{name}-items-by", name, "run", {"items": "interactions", "by": "c"}))
        else:
            params = {"qrels": "qrels"} | ({"k": 3} if "k" in names and m.param("k").required else {})
            out.append((name, name, "run", params))
            if not m.param("qrels").required:  # judged_at_k: the judgments must be a table of their own
                out.append((f"{name}-ties", name, "ties", {k: v for k, v in params.items() if k != "qrels"}))
    out.append(("auc-boolean-label", "auc", "preds", {"label": "yb", "score": "s"}))
    out.append(("confusion-boolean-label", "confusion_matrix", "preds", {"label": "yb", "score": "s"}))
    out.append(("ndcg-per-query", "ndcg", "run", {"qrels": "qrels", "k": 5, "per_query": True}))
    # trec_eval's interpolated precision (a curve: one row per slice and recall level) and gm_map (a
    # geometric mean over queries): slices, per query, the query policies
    out.append(("interpolated_precision-levels-by", "interpolated_precision", "run",
                {"qrels": "qrels", "recall_levels": [0, 0.25, 0.5, 0.75, 1], "by": "c"}))
    out.append(("interpolated_precision-per-query", "interpolated_precision", "run",
                {"qrels": "qrels", "recall_levels": [0.1, 0.35], "per_query": True, "by": "c"}))
    out.append(("gm_map-by-skip", "gm_map", "run", {"qrels": "qrels", "by": "c", "missing": "skip"}))
    out.append(("gm_map-per-query", "gm_map", "run", {"qrels": "qrels", "per_query": True}))
    out.append(("precision_11pt-by-skip", "precision_11pt", "run", {"qrels": "qrels", "by": "c", "empty": "skip"}))
    out.append(("precision_at_k-whole-list", "precision_at_k", "run", {"qrels": "qrels", "k": None}))  # / list length
    out.append(("relative_precision-whole-list", "relative_precision", "run", {"qrels": "qrels", "k": None}))
    out.append(("rbp-per-query", "rbp", "run", {"qrels": "qrels", "k": 4, "persistence": 0.5, "per_query": True}))
    out.append(("num_rel_ret-per-query", "num_rel_ret", "run", {"qrels": "qrels", "per_query": True}))
    out.append(("judged_at_k-by", "judged_at_k", "run", {"qrels": "qrels", "k": 3, "by": "c"}))
    # infap tells a negative grade (in the pool, unjudged) from an item the judgments lack: judgments with -1
    # grades, and the run carrying them (its own pool); unj counts both as unjudged
    out.append(("infap-pool", "infap", "run", {"qrels": "judged_run"}))
    out.append(("infap-own-pool-by", "infap", "judged_run", {"by": "c"}))
    out.append(("unjudged_at_k-pool", "unjudged_at_k", "run", {"qrels": "judged_run", "k": 3}))
    # Rprec_mult_0.70: floor(0.7 * 3 + 0.9) is 2 in doubles, as trec_eval computes it
    out.append(("r_precision-multiple-by", "r_precision", "run", {"qrels": "qrels", "multiple": 0.7, "by": "c"}))
    out.append(("num_rel-per-query", "num_rel", "run", {"qrels": "qrels", "per_query": True}))
    out.append(("bpref-item-asc", "bpref", "run", {"qrels": "qrels", "ties": "item_asc", "relevance_threshold": 2.0}))
    out.append(("auc-bins", "auc", "preds", {"label": "y", "score": "s", "bins": 7}))
    # sliced: the parallel plan joins each slice's score range to its rows by (slice, a hash of the row)
    out.append(("auc-bins-by", "auc", "preds", {"label": "y", "score": "s", "weight": "w", "bins": 7, "by": "c"}))
    # the fairness metrics: the canonical calls' groups g include an all-positive and an all-negative one
    # (the rates are undefined there), so also groups having both classes, of two columns and per slice
    for name in (n for n in sorted(METRICS) if METRICS[n].section == "fairness"):
        defined = dict(args(name, weight=True), sensitive=["c", "d"])
        out.append((f"{name}-two-columns", name, "preds", dict(defined, method="to_overall")))
        out.append((f"{name}-sliced", name, "preds", dict(defined, sensitive=["d"], by="c")))
    # the uplift metrics: a boolean treatment; the other perfect Qini curve; uplift at k per group
    out.append(("qini_curve-boolean-treatment", "qini_curve", "preds", dict(args("qini_curve"), treatment="db", label="yb")))
    out.append(("qini_auc-no-negative-effect", "qini_auc", "preds",
                dict(args("qini_auc", weight=True), negative_effect=False, by="c")))
    out.append(("uplift_at_k-by-group", "uplift_at_k", "preds", dict(args("uplift_at_k"), k=0.25, strategy="by_group", by="c")))
    for name in ("calibration_curve", "ece"):
        quantile = dict(args(name, weight=True), strategy="quantile", n_bins=7)
        out.append((f"{name}-quantile", name, "preds", quantile))
    for average in ("macro", "weighted"):
        out.append((f"multiclass_auc-ovo-{average}", "multiclass_auc", "scores",
                    {"label": "label", "multi_class": "ovo", "average": average, "by": "c"}))
    out.append(("multiclass_auc-weighted", "multiclass_auc", "scores",
                {"label": "label", "weight": "w", "average": "weighted", "by": "c"}))
    out.append(("top_k_accuracy-k1", "top_k_accuracy", "scores", {"label": "label", "k": 1, "by": "c"}))
    for name in ("roc_curve", "pr_curve"):
        out.append((f"{name}-max-points", name, "preds", dict(args(name), max_points=9, by="c")))
    for max_fpr in (0.3, 0.05):
        out.append((f"auc-max-fpr-{max_fpr}", "auc", "preds", dict(args("auc", weight=True), max_fpr=max_fpr, by="c")))
    out.append(("best_threshold-f2", "best_threshold", "preds", dict(args("best_threshold", weight=True), beta=2.0)))
    out.append(("gain_curve-7-bins", "gain_curve", "preds", dict(args("gain_curve"), n_bins=7, by="c")))
    # classes: text (cls, cls_hat: "dog" never true) and integers (g, d: most groups never predicted)
    classes = {"label": "cls", "prediction": "cls_hat"}
    for name, extra in [("precision", dict(average="macro", weight="w", zero_division=0)),
                        ("recall", dict(average="micro", by="c")), ("f1", dict(average=None, by="c")),
                        ("f_beta", dict(average="weighted", beta=0.5, zero_division="nan")),
                        ("accuracy", dict(average="macro", weight="w"))]:
        out.append((f"{name}-classes-{extra['average']}", name, "preds", dict(classes, **extra)))
    numbers = {"label": "g", "prediction": "d"}
    # without average: classes, as they are not 0/1 (a text label at once, integer ones by their values)
    out.append(("accuracy-classes", "accuracy", "preds", dict(classes, weight="w", by="c")))
    out.append(("accuracy-integer-classes", "accuracy", "preds", dict(numbers, by="c")))
    for name, extra in [("cohen_kappa", dict(weights="linear", by="c")), ("cohen_kappa", dict(weights="quadratic")),
                        ("mcc", dict(weight="w", by="c")), ("balanced_accuracy", dict(adjusted=True)),
                        ("classification_report", dict(zero_division=1, by="c")),
                        ("multiclass_confusion_matrix", dict(weight="w"))]:
        out.append((f"{name}-integer-classes-{'-'.join(map(str, extra.values()))}", name, "preds",
                    dict(numbers, **extra)))
    return out


def own_calls(cases) -> dict:
    """metric -> (table, params) of its own call: the sliced one where it has one."""
    own = {}
    for case, name, table, params in cases:
        if case in (name, f"{name}-by"):
            own[name] = (table, params)  # the sliced call, listed after the plain one, wins
    return own


def choice_variants(cases):
    """Every other value of each choice parameter of every metric, on the metric's own call (sliced
    where it has one), as the registry declares them: a new choice is run on every engine without
    another edit here. Not `missing` and `empty`: they pick a query policy, a literal of the same SQL.
    (case, metric, table, params, (parameter, value))."""
    out = []
    for name, (table, params) in own_calls(cases).items():
        for p in METRICS[name].params:
            if p.kind == "choice" and p.name not in ("missing", "empty"):
                for choice in p.choices:
                    if choice != params.get(p.name, p.default):
                        out.append((f"{name}-{p.name}-{choice}", name, table,
                                    with_choice(name, params, p.name, choice), (p.name, choice)))
    return out


def sample_variants(cases):
    """Each metric's own call (sliced where it has one) with the sample value (Param.sample) of every
    parameter the call leaves at its default: every number parameter the registry declares runs on
    every engine without another edit here. (case, metric, table, params)."""
    out = []
    for name, (table, params) in own_calls(cases).items():
        samples = METRICS[name].samples(params)
        if samples:
            out.append((f"{name}-samples", name, table, params | samples))
    return out


_OWN_CALLS = calls()
_VARIANTS = choice_variants(_OWN_CALLS)
_SAMPLES = sample_variants(_OWN_CALLS)
CALLS = _OWN_CALLS + [v[:4] for v in _VARIANTS] + _SAMPLES
#: Spark, the slowest engine here, runs each value of a choice parameter, and the samples of the
#: number parameters, once per family (binary, multiclass, ranking, ...: on the first metric that has
#: it), a sample for CI's time; SQLite, PostgreSQL and ClickHouse run them on every metric
_SPARK_LEAVES_OUT = {case for i, (case, name, *_, choice) in enumerate(_VARIANTS)
                     if (choice, METRICS[name].section) in {(v[4], METRICS[v[1]].section) for v in _VARIANTS[:i]}} | {
    case for i, (case, name, *_) in enumerate(_SAMPLES) if METRICS[name].section in {METRICS[v[1]].section
                                                                                     for v in _SAMPLES[:i]}}
#: the metrics with a sliced call (`-by`)
SLICED = {c[1] for c in CALLS if c[0] == f"{c[1]}-by"}
#: the calls of a case of its own (an option, a hazard: auc-bins, rbp-per-query), not a metric's own call
#: or its sliced one: Spark runs a sample of them (conftest.spark_share)
_CASES = [c for c in _OWN_CALLS if c[0] not in (c[1], f"{c[1]}-by")]
_SPARK_LEAVES_OUT |= {c[0] for c in _CASES} - {c[0] for c in spark_share(_CASES, lambda c: c[1])}
#: the cases Spark runs: every metric's own call (its sliced one where it has one: the same template),
#: and the samples above of the choice values, number parameters and cases of their own
SPARK_CALLS = [c for c in CALLS if not (c[0] == c[1] and c[1] in SLICED or c[0] in _SPARK_LEAVES_OUT)]


def reference(metric, table, params):
    params = {k: (TABLES[v] if k in RELATIONS else v) for k, v in params.items()}
    return getattr(sm, metric)(TABLES[table], details=True, **params)


def assert_same(got: pd.DataFrame, want: pd.DataFrame, what: str):
    assert list(got.columns) == list(want.columns), what
    assert len(got) == len(want), what
    for column in want.columns:
        a, b = got[column].tolist(), want[column].tolist()
        for x, y in zip(a, b):
            if isinstance(y, float) and math.isnan(y):
                assert x is None or (isinstance(x, float) and math.isnan(x)), (what, column, x, y)
            elif isinstance(y, (int, float, np.integer, np.floating)) and not isinstance(y, bool):
                assert x == pytest.approx(y, rel=1e-9, abs=1e-12), (what, column, x, y)
            else:
                assert str(x) == str(y), (what, column, x, y)


@contextmanager
def postgres_tables(schema: str = "sqlmetrics_test"):
    """A psycopg connection whose search path is a schema of its own holding TABLES, dropped afterwards."""
    con = connect_postgres()
    schema = f"{schema}_{os.getpid()}"
    # text in a linguistic collation (as most production databases), so that the byte-order
    # tie-break (COLLATE "C") is really exercised
    icu = con.execute("SELECT collname FROM pg_collation WHERE collname = 'en-x-icu'").fetchone()
    text = 'text COLLATE "en-x-icu"' if icu else "text"
    with con.transaction():
        con.execute(f'CREATE SCHEMA "{schema}"')
        con.execute(f'SET search_path TO "{schema}"')
        for name, frame in TABLES.items():
            types = {"f": "double precision", "i": "bigint", "u": "bigint", "b": "boolean"}
            columns = ", ".join(f'"{c}" {types.get(frame[c].dtype.kind, text)}' for c in frame.columns)
            con.execute(f'CREATE TABLE "{name}" ({columns})')
            with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
                for row in plain_rows(frame):
                    copy.write_row(row)
    con.commit()
    try:
        yield con
    finally:
        con.rollback()
        con.execute(f'DROP SCHEMA "{schema}" CASCADE')
        con.commit()
        con.close()


def load_spark(spark):
    """TABLES as temporary views of a Spark session (classic or Spark Connect)."""
    for name, frame in TABLES.items():
        # NaN means NULL here (pandas' missing value); Spark would keep it as a NaN double
        rows = [[None if isinstance(v, float) and math.isnan(v) else v for v in row]
                for row in frame.astype(object).itertuples(index=False)]
        types = {"f": "double", "i": "bigint", "b": "boolean"}
        schema = ", ".join(f"`{c}` {types.get(frame[c].dtype.kind, 'string')}" for c in frame.columns)
        spark.createDataFrame(rows, schema).createOrReplaceTempView(name)
