"""sm.bootstrap and sm.compare of the multi-class metrics of a long table of class scores
(multiclass_auc, top_k_accuracy, multiclass_log_loss): the resampling unit is the example, every row of
which (one per class) takes the example's Poisson draw. Reproduced by numpy from the draws of
sql/bootstrap.sql (on SQLite, whose unit hash is the rank of the unit's values; on DuckDB, its hash of
the unit taken from the engine) and scikit-learn's metric of the examples each repeated as often as
drawn: ties, a rare class that some replicates lose, weights, slices, clusters of whole examples.
"""
from __future__ import annotations

import json
import sqlite3
import subprocess
import warnings

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss, roc_auc_score, top_k_accuracy_score

import sqlmetrics as sm
from sqlmetrics.errors import ColumnError, ParameterError
from sqlmetrics.target import Target
from sqlmetrics.templates import render_macro
from conftest import SQLMETRICS_COMMAND
from test_bootstrap import assert_same, reference, sqlite_units
from test_compare_columns import paired_reference

CLASSES = np.array(["ant", "bee", "cat", "dog"])
#: the wide columns of the second model's probabilities
SECOND = [f"{c}2" for c in CLASSES]
#: a call of each metric, and of multiclass_auc each way of averaging (ovo takes no weight)
CALLS = [("multiclass_auc", {}), ("multiclass_auc", {"average": "weighted", "weight": "w"}),
         ("multiclass_auc", {"multi_class": "ovo"}), ("multiclass_auc", {"multi_class": "ovo", "average": "weighted"}),
         ("top_k_accuracy", {"k": 2, "weight": "w"}), ("top_k_accuracy", {"k": 1}),
         ("multiclass_log_loss", {"weight": "w"})]
IDS = [f"{m}-{'-'.join(map(str, p.values())) or 'default'}" for m, p in CALLS]


def class_sample(seed=41, n=240):
    """n examples of 4 classes, 'dog' rare (5%): probabilities of small whole counts over their sum
    (many ties, some 0), the true class's count raised; whole-number weights, two regions, users. Wide (a
    row per example, a column of probabilities per class: `ant`, ..., and a second model's, blurred:
    `ant2`, ...) and long (a row per example and class: `score` and `score2`)."""
    rng = np.random.default_rng(seed)
    y = rng.choice(4, n, p=[0.45, 0.3, 0.2, 0.05])
    counts = rng.integers(0, 4, (n, 4))
    counts[np.arange(n), y] += 1 + rng.integers(0, 3, n)
    blurred = counts + rng.integers(0, 3, (n, 4))
    p, p2 = counts / counts.sum(1, keepdims=True), blurred / blurred.sum(1, keepdims=True)
    wide = pd.DataFrame(np.hstack([p, p2]), columns=[*CLASSES, *SECOND]).assign(
        example=np.arange(n), label=CLASSES[y], w=rng.integers(1, 4, n).astype(float), region=rng.choice(["x", "y"], n),
        user=rng.integers(0, n // 4, n))
    keys = ["example", "label", "w", "region", "user"]
    long = wide.melt(id_vars=keys, value_vars=list(CLASSES), var_name="class", value_name="score")
    long["score2"] = p2[long.example, np.searchsorted(CLASSES, long["class"])]
    return wide, long.sort_values(["example", "class"], ignore_index=True)


def sklearn_metric(metric: str, params: dict, column="score"):
    """value(part, k): scikit-learn's `metric` of the examples `part` (wide: the probabilities of
    `column` in a column per class) each repeated k times, as its draw counts it; NaN where undefined
    (ovr's macro average when a replicate lost a class)."""
    def value(part: pd.DataFrame, k: np.ndarray) -> float:
        scores = part[list(CLASSES) if column == "score" else SECOND]
        y, p = np.repeat(part.label.to_numpy(), k), np.repeat(scores.to_numpy(), k, axis=0)
        w = np.repeat(part.w.to_numpy(), k) if params.get("weight") else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scikit-learn's warning of a class that is never true: NaN
            if metric == "multiclass_auc":
                return roc_auc_score(y, p, multi_class=params.get("multi_class", "ovr"),
                                     average=params.get("average", "macro"), labels=CLASSES, sample_weight=w)
            if metric == "top_k_accuracy":
                return top_k_accuracy_score(y, p, k=params["k"], labels=CLASSES, sample_weight=w)
            return log_loss(y, p, labels=CLASSES, sample_weight=w)
    return value


@pytest.fixture(scope="module")
def sqlite_scores():
    wide, long = class_sample()
    con = sqlite3.connect(":memory:")
    long.to_sql("scores", con, index=False)
    yield con, wide, long
    con.close()


@pytest.mark.filterwarnings("ignore:bootstrap of")
@pytest.mark.parametrize("metric, params", CALLS, ids=IDS)
def test_each_example_weighs_its_draw_as_numpy_reproduces_it(sqlite_scores, metric, params):
    """Per region, the estimate, standard error, interval and counts of replicates with a value are
    numpy's and scikit-learn's of the examples drawn as sql/bootstrap.sql draws them (the unit: the
    example within its slice); a few replicates lose the rare class, where ovr's macro AUC has none."""
    con, wide, long = sqlite_scores
    n_boot = 80
    got = sm.bootstrap(metric, "scores", con=con, label="label", by="region", n_boot=n_boot, seed=3, **params)
    want = reference(wide, "region", sklearn_metric(metric, params), sqlite_units(wide, ["region", "example"]),
                     n_boot, 3)
    assert_same(got, want)
    assert got.estimate.tolist() == pytest.approx(getattr(sm, metric)(long, label="label", by="region", **params)[
        metric].tolist(), rel=1e-12)  # the metric's own value
    assert (got.n_undefined > 0).any() == (metric == "multiclass_auc" and not params)


@pytest.mark.filterwarnings("ignore:bootstrap of")
def test_a_cluster_of_whole_examples_is_the_unit(sqlite_scores):
    """With cluster, the examples of a user share the user's draw."""
    con, wide, _ = sqlite_scores
    params = {"multi_class": "ovo"}
    got = sm.bootstrap("multiclass_auc", "scores", con=con, label="label", by="region", cluster="user", n_boot=60,
                       **params)
    assert_same(got, reference(wide, "region", sklearn_metric("multiclass_auc", params), sqlite_units(wide, ["user"]),
                               60, 0))


def test_on_duckdb_in_batches_and_in_one_statement():
    """DuckDB runs the replicates in batches (resampling.ROWS_BATCH of them a statement), without
    slices: numpy's draws from the engine's own hash of each example; sm.render's one statement (dbt's)
    gives the same numbers."""
    wide, long = class_sample(43, 200)
    con = duckdb.connect()
    con.register("scores", long)
    hashed = render_macro("unit_hash", Target("duckdb"), columns=["example"])
    units = con.execute(f"SELECT {hashed} FROM scores WHERE class = 'ant' ORDER BY example").df().iloc[:, 0].to_numpy()
    for metric, params in (("multiclass_auc", {"average": "weighted", "weight": "w"}),
                           ("multiclass_log_loss", {})):
        got = sm.bootstrap(metric, long, label="label", n_boot=70, **params)
        want = reference(wide.assign(all=0), "all", sklearn_metric(metric, params), units, 70, 0)
        assert got == pytest.approx(want.drop(columns="all").iloc[0].to_dict(), rel=1e-9)
        one = con.sql(sm.render("bootstrap", "scores", metric=metric, label="label", n_boot=70, **params)).df()
        assert got == pytest.approx(one.iloc[0].to_dict(), rel=1e-12)


def test_the_true_classes_as_a_table_give_the_same_interval():
    """labels= (a table of example and label) in place of the label column: the same examples, the same
    draws. (There is no wide form of these metrics, a column per class: the long table is theirs.)"""
    _, long = class_sample(44, 150)
    labels = long.drop_duplicates("example")[["example", "label"]]
    for metric, params in CALLS[2:5]:
        column = sm.bootstrap(metric, long, label="label", by="region", n_boot=40, **params)
        table = sm.bootstrap(metric, long.drop(columns="label"), labels=labels, by="region", n_boot=40, **params)
        pd.testing.assert_frame_equal(column, table, rtol=1e-12)


def test_compare_is_the_paired_bootstrap_of_examples(sqlite_scores):
    """sm.compare of two probability columns of the long table: both under the same draws of each example."""
    con, wide, _ = sqlite_scores
    params = {"weight": "w"}
    got = sm.compare("multiclass_log_loss", "scores", "score2", con=con, label="label", by="region", n_resamples=60,
                     seed=2, **params)
    want = paired_reference(wide, "region", lambda f, column, k: sklearn_metric("multiclass_log_loss", params,
                                                                                  column)(f, k),
                            ["score", "score2"], sqlite_units(wide, ["region", "example"]), 60, 2)
    pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-9)


@pytest.mark.skipif(SQLMETRICS_COMMAND is None, reason="the sqlmetrics entry point is not installed (pip install -e .)")
def test_the_command_line_gates_them(tmp_path):
    """sqlmetrics compare of a long table's two probability columns: sm.compare's numbers; the blurred
    probabilities (a higher loss) are a regression, by a p-value of the paired bootstrap."""
    _, long = class_sample(47, 200)
    path = tmp_path / "scores.parquet"
    long.to_parquet(path)

    def cli(score, other, ok):
        done = subprocess.run([SQLMETRICS_COMMAND, "compare", "multiclass_log_loss", str(path), "--label", "label",
                               "--score", score, "--other-score", other, "--n-resamples", "100", "--alpha", "0.05",
                               "--format", "json"], capture_output=True, text=True, timeout=120)
        assert done.returncode == ok, done.stderr[-2000:]
        return done
    got = json.loads(cli("score", "score2", 0).stdout)["rows"][0]
    assert got == pytest.approx(sm.compare("multiclass_log_loss", long, "score2", label="label", n_resamples=100),
                                rel=1e-12)
    assert "regression in multiclass_log_loss" in cli("score2", "score", 1).stderr


def test_what_it_refuses():
    """A cluster that splits an example (its rows would weigh two draws), found before the query and by
    the query itself (as dbt runs it); ovo with a weight, as the metric itself; compare's second column
    of probabilities that do not sum to 1."""
    _, long = class_sample(45, 60)
    split = long.assign(user=np.arange(len(long)) % 7)
    with pytest.raises(ColumnError, match=r"column 'user' \(cluster\) differs between the rows of example 0 "
                                          ".*a cluster must hold whole examples"):
        sm.bootstrap("top_k_accuracy", split, label="label", cluster="user", n_boot=20)
    con = duckdb.connect()
    con.register("scores", split)
    with pytest.raises(duckdb.Error, match="the cluster differs between the rows of an example"):
        con.sql(sm.render("bootstrap", "scores", metric="top_k_accuracy", label="label", cluster="user",
                          n_boot=20)).fetchall()
    with pytest.raises(ParameterError, match="multi_class='ovo' takes no weight"):
        sm.bootstrap("multiclass_auc", long, label="label", multi_class="ovo", weight="w", n_boot=20)
    with pytest.raises(ParameterError, match="takes no weight"):
        sm.render("bootstrap", "scores", metric="multiclass_auc", label="label", multi_class="ovo", weight="w")
    with pytest.raises(ColumnError, match=r"the probabilities of example 0 \(column 'bad'\) sum to 0.9,"):
        sm.compare("multiclass_log_loss", long.assign(bad=long.score * 0.9), "bad", label="label", n_resamples=20)
