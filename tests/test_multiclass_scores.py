"""Multi-class metrics from a long table of class scores (one row per example and class):
multiclass_auc, top_k_accuracy and multiclass_log_loss against scikit-learn on the same data, as a
score matrix P (examples x sorted classes) and the true classes y.

Data: 2, 3 and 50 classes, as integers and as text (text whose byte order differs from a natural
one: 'B' < 'Z' < 'a' < 'c-1' < 'é'), tied scores, per-example weights with zeros, slices, rows in
random order; then every input the metrics refuse, from Python and from the SQL itself.
"""
from __future__ import annotations

import math
import warnings

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss, roc_auc_score, top_k_accuracy_score

import sqlmetrics as sm
from sqlmetrics import plans
from sqlmetrics.templates import render_macro

TEXT_CLASSES = ["B", "Z", "a", "c-1", "é"]


def long_table(n=300, classes=(0, 1, 2), seed=0, ties=True, weights=True, slices=True):
    """(long table, P, y, w, slice) for n examples: probabilities (tied when `ties`: small integer
    counts over their sum), each class true at least once in the whole table; P's columns are the
    classes sorted, as sklearn takes them."""
    rng = np.random.default_rng(seed)
    k = len(classes)
    counts = rng.integers(0, 4, (n, k)).astype(float) if ties else rng.gamma(0.7, 1, (n, k))
    counts[counts.sum(axis=1) == 0, 0] = 1
    P = counts / counts.sum(axis=1, keepdims=True)
    y_index = np.array([rng.choice(k, p=row) if rng.random() < 0.6 else rng.integers(k) for row in P])
    y_index[:k] = np.arange(k)
    y = np.asarray(classes, dtype=object)[y_index]
    w = np.where(rng.random(n) < 0.1, 0.0, rng.random(n) * 3) if weights else np.ones(n)
    s = rng.choice(["x", "y"], n) if slices else np.array(["x"] * n)
    examples = [f"e{i}" for i in range(n)]
    rows = pd.DataFrame({"example": np.repeat(examples, k), "class": list(classes) * n, "score": P.ravel(),
                         "label": np.repeat(y, k), "w": np.repeat(w, k), "s": np.repeat(s, k)})
    rows = rows.sample(frac=1, random_state=seed).reset_index(drop=True)
    if all(isinstance(c, (int, np.integer)) for c in classes):
        rows["class"] = rows["class"].astype("int64")
        rows["label"] = rows["label"].astype("int64")
        y = y.astype("int64")
    order = sorted(range(k), key=lambda j: classes[j])  # sklearn's columns: the sorted classes
    return rows, P[:, order], y, w, s


def close(got, want, what=""):
    if want is None or (isinstance(want, float) and math.isnan(want)):
        assert got is None or math.isnan(got), what
    else:
        assert got == pytest.approx(want, rel=1e-9, abs=1e-15), what


def sk(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns where it returns NaN, or k >= n_classes
        try:
            return float(function(*args, **kwargs))
        except ZeroDivisionError:  # numpy's average of weights summing to 0
            return math.nan


def sk_auc(y, P, classes, w, multi_class, average):
    """sklearn; with two classes its binary form (the score of the second class)."""
    if len(classes) == 2:
        return sk(roc_auc_score, y, P[:, 1], sample_weight=w)
    return sk(roc_auc_score, y, P, multi_class=multi_class, average=average, labels=list(classes),
              sample_weight=None if multi_class == "ovo" else w)


CASES = [("int3", (0, 1, 2)), ("text5", tuple(TEXT_CLASSES)), ("int50", tuple(range(50))),
         ("text50", tuple(f"k{i}" for i in range(50)))]


@pytest.mark.parametrize("case, classes", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("average", ["macro", "weighted"])
# sklearn takes no sample weight for ovo (its refusal: test_parameters_that_cannot_work_are_refused)
@pytest.mark.parametrize("multi_class, weighted", [("ovr", False), ("ovr", True), ("ovo", False)])
def test_multiclass_auc_matches_sklearn(case, classes, multi_class, average, weighted):
    n = 2000 if len(classes) == 50 else 300
    rows, P, y, w, s = long_table(n, classes, seed=len(classes) + weighted)
    weight = {"weight": "w"} if weighted else {}
    got = sm.multiclass_auc(rows, label="label", multi_class=multi_class, average=average, **weight)
    close(got, sk_auc(y, P, sorted(classes), w if weighted else None, multi_class, average))
    sliced = sm.multiclass_auc(rows, label="label", multi_class=multi_class, average=average, by="s", **weight)
    for _, r in sliced.iterrows():
        m = s == r["s"]
        close(r["multiclass_auc"], sk_auc(y[m], P[m], sorted(classes), w[m] if weighted else None, multi_class,
                                          average), (case, r["s"]))
        assert r["n"] == m.sum() and r["n_classes"] == len(classes)


@pytest.mark.parametrize("classes", [(3, 7), ("no", "yes")])
@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
def test_two_classes_give_the_binary_auc(classes, multi_class):
    rows, P, y, w, _ = long_table(200, classes, seed=4)
    weight = {} if multi_class == "ovo" else {"weight": "w"}
    for average in ("macro", "weighted"):
        got = sm.multiclass_auc(rows, label="label", multi_class=multi_class, average=average, **weight)
        close(got, sk(roc_auc_score, y == classes[1], P[:, 1], sample_weight=w if weight else None))


def test_a_class_never_true_in_a_slice():
    """ovr macro: its AUC is undefined, so is the mean (sklearn: NaN); ovr weighted leaves it out
    (sklearn forces its score to 0 at weight 0); ovo averages the pairs of classes true in the slice."""
    rows, P, y, w, s = long_table(200, (0, 1, 2), seed=8, slices=False)
    keep = y != 2
    rows = rows[rows["example"].isin({f"e{i}" for i in np.flatnonzero(keep)})]
    P, y, w = P[keep], y[keep], w[keep]
    with pytest.raises(sm.UndefinedMetricError, match="each class both true and not true"):
        sm.multiclass_auc(rows, label="label")
    details = sm.multiclass_auc(rows, label="label", details=True)
    assert math.isnan(details["multiclass_auc"][0]) and math.isnan(sk_auc(y, P, [0, 1, 2], None, "ovr", "macro"))
    for multi_class, average in [("ovr", "weighted"), ("ovo", "macro"), ("ovo", "weighted")]:
        weight = {"weight": "w"} if multi_class == "ovr" else {}
        got = sm.multiclass_auc(rows, label="label", multi_class=multi_class, average=average, **weight)
        close(got, sk_auc(y, P, [0, 1, 2], w if weight else None, multi_class, average), (multi_class, average))


def test_scores_need_not_be_probabilities():
    """sklearn refuses scores that do not sum to 1 for multi-class AUC; the AUCs are defined on any
    scores (+-inf included): each against an oracle of sklearn's binary AUCs."""
    rng = np.random.default_rng(3)
    rows, P, y, w, _ = long_table(250, (0, 1, 2, 3), seed=5)
    logits = np.round(rng.normal(0, 1, P.shape), 1)
    logits[0, 1], logits[1, 2] = np.inf, -np.inf
    lookup = {(e, c): logits[int(e[1:]), c] for e, c in zip(rows["example"], rows["class"])}
    rows["score"] = [lookup[e, c] for e, c in zip(rows["example"], rows["class"])]
    finite = np.clip(logits, -1e300, 1e300)  # for sklearn, which refuses infinities: the same order
    ovr = [sk(roc_auc_score, y == c, finite[:, c], sample_weight=w) for c in range(4)]
    close(sm.multiclass_auc(rows, label="label", weight="w"), np.mean(ovr))
    prevalence = [w[y == c].sum() for c in range(4)]
    close(sm.multiclass_auc(rows, label="label", weight="w", average="weighted"), np.average(ovr, weights=prevalence))
    pairs = [(sk(roc_auc_score, y[(y == a) | (y == b)] == a, finite[(y == a) | (y == b), a])
              + sk(roc_auc_score, y[(y == a) | (y == b)] == b, finite[(y == a) | (y == b), b])) / 2
             for a in range(4) for b in range(a + 1, 4)]
    close(sm.multiclass_auc(rows, label="label", multi_class="ovo"), np.mean(pairs))


@pytest.mark.parametrize("plan", ["aggregate", "parallel", "rank"])
@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
def test_every_plan_gives_the_same_auc(plan, multi_class, monkeypatch):
    rows, P, y, w, s = long_table(300, tuple(TEXT_CLASSES), seed=11)
    monkeypatch.setattr(plans.RankWhenScoresDistinct, "choose", lambda self, share, dialect: plan)
    for average in ("macro", "weighted"):
        got = sm.multiclass_auc(rows, label="label", multi_class=multi_class, average=average, by="s")
        for _, r in got.iterrows():
            m = s == r["s"]
            close(r["multiclass_auc"], sk_auc(y[m], P[m], sorted(TEXT_CLASSES), None, multi_class, average))


@pytest.mark.parametrize("case, classes", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_top_k_accuracy_matches_sklearn(case, classes, k):
    """Tied scores everywhere (integer counts over their sum): sklearn's tie rule decides often."""
    rows, P, y, w, s = long_table(400, classes, seed=20 + k)
    labels = sorted(classes)
    close(sm.top_k_accuracy(rows, label="label", k=k), sk(top_k_accuracy_score, y, P, k=k, labels=labels))
    close(sm.top_k_accuracy(rows, label="label", k=k, weight="w"),
          sk(top_k_accuracy_score, y, P, k=k, labels=labels, sample_weight=w))
    for _, r in sm.top_k_accuracy(rows, label="label", k=k, weight="w", by="s").iterrows():
        m = s == r["s"]
        close(r["top_k_accuracy"], sk(top_k_accuracy_score, y[m], P[m], k=k, labels=labels, sample_weight=w[m]))


@pytest.mark.parametrize("classes", [(0, 1), ("no", "yes")])
def test_top_k_accuracy_of_two_classes_is_sklearns_binary_form(classes):
    """Two classes: sklearn takes the later class's probability (a 1-D score) and predicts it above 0.5,
    so a 0.5/0.5 tie goes to the earlier class (with more classes, to the later one)."""
    rows, P, y, w, s = long_table(300, classes, seed=9)
    assert (P[:, 1] == 0.5).sum() > 20  # ties decide often
    assert sm.top_k_accuracy(rows, label="label", k=2) == 1.0
    labels = sorted(classes)
    close(sm.top_k_accuracy(rows, label="label", k=1), sk(top_k_accuracy_score, y, P[:, 1], k=1, labels=labels))
    close(sm.top_k_accuracy(rows, label="label", k=1, weight="w"),
          sk(top_k_accuracy_score, y, P[:, 1], k=1, labels=labels, sample_weight=w))
    tie = pd.DataFrame({"example": [1, 1], "class": list(classes), "score": [0.5, 0.5], "label": [classes[0]] * 2})
    assert sm.top_k_accuracy(tie, label="label", k=1) == 1.0


def test_top_k_ties_follow_the_sorted_class_labels():
    """Equal scores: the class later in the sorted labels ranks first, text in code point order."""
    rows = pd.DataFrame({"example": [1] * 5, "class": TEXT_CLASSES, "score": [0.2] * 5})
    for position, c in enumerate(TEXT_CLASSES):  # sorted: 'é' ranks 1st, 'B' 5th
        one = rows.assign(label=c)
        for k in range(1, 6):
            assert sm.top_k_accuracy(one, label="label", k=k) == float(5 - position <= k), (c, k)


@pytest.mark.parametrize("case, classes", CASES + [("text2", ("no", "yes"))], ids=[c[0] for c in CASES] + ["text2"])
def test_multiclass_log_loss_matches_sklearn(case, classes):
    rows, P, y, w, s = long_table(300, classes, seed=30)  # zero probabilities: clipped
    labels = sorted(classes)
    close(sm.multiclass_log_loss(rows, label="label"), sk(log_loss, y, P, labels=labels))
    close(sm.multiclass_log_loss(rows, label="label", weight="w"), sk(log_loss, y, P, labels=labels, sample_weight=w))
    for _, r in sm.multiclass_log_loss(rows, label="label", weight="w", by="s").iterrows():
        m = s == r["s"]
        close(r["multiclass_log_loss"], sk(log_loss, y[m], P[m], labels=labels, sample_weight=w[m]))


def test_log_loss_takes_sums_within_1e_6():
    """sklearn warns (it computes) from a relative 1.5e-8 off; the values agree up to our 1e-6."""
    rows, P, y, w, _ = long_table(50, (0, 1, 2), seed=2, ties=False)
    rows["score"] = rows["score"] * (1 + 5e-7)
    close(sm.multiclass_log_loss(rows, label="label"), sk(log_loss, y, P * (1 + 5e-7), labels=[0, 1, 2]))


@pytest.mark.parametrize("metric", ["multiclass_auc", "top_k_accuracy", "multiclass_log_loss"])
def test_labels_table_equals_label_column(metric):
    rows, *_ = long_table(200, tuple(TEXT_CLASSES), seed=9)
    labels = rows.groupby("example", as_index=False)["label"].first()
    labels = pd.concat([labels, pd.DataFrame({"example": ["never scored"], "label": ["a"]})])  # ignored
    want = getattr(sm, metric)(rows, label="label", weight="w", by="s")
    got = getattr(sm, metric)(rows.drop(columns="label"), labels=labels, weight="w", by="s")
    pd.testing.assert_frame_equal(got, want)


def test_other_column_names_and_zero_weight():
    rows, P, y, w, _ = long_table(100, (0, 1, 2), seed=12, slices=False)
    renamed = rows.rename(columns={"example": "id", "class": "order", "score": "p", "label": "truth"})
    got = sm.multiclass_log_loss(renamed, example="id", class_="order", score="p", label="truth")
    close(got, sk(log_loss, y, P, labels=[0, 1, 2]))
    with pytest.raises(sm.UndefinedMetricError, match="weigh 0"):
        sm.top_k_accuracy(rows.assign(w=0.0), label="label", weight="w")


# -- inputs that cannot give a right answer -----------------------------------------------------

def small():
    return pd.DataFrame({"example": [1, 1, 1, 2, 2, 2], "class": ["a", "b", "c"] * 2,
                         "score": [0.5, 0.3, 0.2, 0.1, 0.6, 0.3], "label": ["a"] * 3 + ["b"] * 3,
                         "w": [1.0] * 6})


@pytest.mark.parametrize("metric", ["multiclass_auc", "top_k_accuracy", "multiclass_log_loss"])
@pytest.mark.parametrize("spoil, message", [
    (lambda d: d.drop(index=4), r"example 2 has no row for class 'b'"),
    (lambda d: d.assign(label=["a", "a", "b", "b", "b", "b"]), r"label.*differs between the rows of example 1"),
    (lambda d: d.assign(label=["a"] * 3 + ["z"] * 3), r"the label 'z' of example 2 is not one of the table's classes"),
    (lambda d: d.assign(w=[1.0, 1, 2, 1, 1, 1]), r"weight.*differs between the rows of example 1"),
    (lambda d: pd.concat([d, d.iloc[[0]]]), r"duplicated \(example, class\)"),
    (lambda d: d[d["class"] == "a"], r"has one class, 'a'"),
    (lambda d: d.assign(label=[1] * 6), "the classes must have the same type"),
])
def test_inconsistent_tables_are_refused(metric, spoil, message):
    with pytest.raises(sm.ColumnError, match=message):
        getattr(sm, metric)(spoil(small()), label="label", weight="w")


@pytest.mark.parametrize("metric", ["multiclass_auc", "top_k_accuracy", "multiclass_log_loss"])
def test_labels_table_needs_one_label_per_example(metric):
    scores = small().drop(columns="label")
    with pytest.raises(sm.ColumnError, match="labels has no row for example 2"):
        getattr(sm, metric)(scores, labels=pd.DataFrame({"example": [1], "label": ["a"]}))
    with pytest.raises(sm.ColumnError, match="labels has 2 rows for example 1"):
        getattr(sm, metric)(scores, labels=pd.DataFrame({"example": [1, 1, 2], "label": ["a", "a", "b"]}))
    with pytest.raises(sm.ColumnError, match="example ids must have the same type"):
        getattr(sm, metric)(scores, labels=pd.DataFrame({"example": ["1", "2"], "label": ["a", "b"]}))


def test_parameters_that_cannot_work_are_refused():
    with pytest.raises(sm.ParameterError, match="exactly one of label or labels"):
        sm.top_k_accuracy(small())
    with pytest.raises(sm.ParameterError, match="multi_class='ovo' takes no weight"):
        sm.multiclass_auc(small(), label="label", weight="w", multi_class="ovo")
    with pytest.raises(sm.ColumnError, match="sum to 1.1.*not 1"):
        sm.multiclass_log_loss(small().assign(score=[0.6, 0.3, 0.2, 0.1, 0.6, 0.3]), label="label")
    with pytest.raises(sm.ColumnError, match="score"):
        sm.multiclass_log_loss(small().assign(score=[1.5, -0.3, -0.2, 0.1, 0.6, 0.3]), label="label")


@pytest.mark.parametrize("metric", ["multiclass_auc", "top_k_accuracy", "multiclass_log_loss"])
@pytest.mark.parametrize("spoil, message", [
    (lambda d: d.drop(index=4), "an example lacks a row for a class"),
    (lambda d: d.assign(label=["a", "a", "b", "b", "b", "b"]), "the label differs between the rows"),
    (lambda d: d.assign(label=["a"] * 3 + ["z"] * 3), "not one of the classes"),
    (lambda d: d.assign(w=[1.0, 1, 2, 1, 1, 1]), "the weight differs"),
])
def test_the_sql_itself_refuses_them(metric, spoil, message):
    """As dbt runs the macros: no Python check before the query."""
    con = duckdb.connect()
    con.register("t", spoil(small()))
    sql = sm.render(metric, "t", label="label", **({} if metric == "multiclass_auc" else {"weight": "w"}))
    if "weight" in message:
        sql = sm.render(metric, "t", label="label", weight="w")
    with pytest.raises(duckdb.Error, match=message):
        con.execute(sql).fetchall()
    if metric == "multiclass_log_loss":
        con.register("u", small().assign(score=[0.6, 0.3, 0.2, 0.1, 0.6, 0.3]))
        with pytest.raises(duckdb.Error, match="summing to 1 within 1e-6"):
            con.execute(sm.render(metric, "u", label="label")).fetchall()


def test_the_macros_need_one_of_label_and_labels():
    for metric in ("multiclass_auc", "top_k_accuracy", "multiclass_log_loss"):
        with pytest.raises(sm.ParameterError, match="exactly one of label"):
            render_macro(metric, relation="t")
    with pytest.raises(sm.ParameterError, match="takes no weight"):
        render_macro("multiclass_auc", relation="t", label="y", weight="w", multi_class="ovo")


def test_the_columns_found_by_default_are_those_the_readme_names():
    """The multi-class guide's "From scores" (docs/catalogue.md): the columns example, class and score are found by default; the true
    class never is, even in a column named label: exactly one of label= (a column of the table) or
    labels= (a table of the example column and a column named label) is given."""
    table = pd.DataFrame({"example": [1, 1, 2, 2], "class": ["a", "b"] * 2, "score": [0.9, 0.1, 0.3, 0.7],
                          "label": ["a", "a", "b", "b"]})
    with pytest.raises(sm.ParameterError, match="multiclass_auc needs exactly one of label or labels"):
        sm.multiclass_auc(table)
    assert sm.multiclass_auc(table, label="label") == 1.0
    renamed = table.drop(columns="label").rename(columns={"example": "id"})
    assert sm.multiclass_auc(renamed, example="id", labels=pd.DataFrame({"id": [1, 2], "label": ["a", "b"]})) == 1.0
