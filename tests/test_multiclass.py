"""Multi-class metrics from labels against scikit-learn 1.9: precision, recall, f_beta, f1 and
accuracy with `average`, zero_division, multiclass_confusion_matrix, balanced_accuracy, cohen_kappa,
mcc. Random data with 2, 3 and 50 classes as integers and as text (a class never predicted, one never
true), with weights (some 0), in slices; edge cases; the worked examples of the source documents.
The references never call sqlmetrics.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import sqlmetrics as sm

REL, ABS = 1e-9, 1e-12
NAN = float("nan")
AVERAGES = ("macro", "micro", "weighted", None)
ZERO_DIVISIONS = (None, 0, 1, "nan")
#: text classes whose byte order differs from a linguistic one ('B' < 'Z' < 'a' < 'é')
TEXT = np.array(["a", "B", "Z", "é", "cat", "Cat", "c-1", "c10", "c9"])


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def close(got, want) -> bool:
    got, want = float(got), float(want)
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    return math.isclose(got, want, rel_tol=REL, abs_tol=ABS)


def assert_close(got, want, what=""):
    assert close(got, want), f"{what}: sqlmetrics gave {got!r}, sklearn {want!r}"


def classes(k: int, text: bool) -> np.ndarray:
    if not text:
        return np.arange(k) * 3 - 5  # negative too: numbers sort by value
    names = list(TEXT) + [f"k{i}" for i in range(max(0, k - len(TEXT)))]
    return np.array(names[:k])


def frame(k: int, text: bool, n: int = 400, seed: int = 0) -> pd.DataFrame:
    """Labels over the first k - 1 classes and predictions right half the time, else any of the
    classes but the first: the last class is never true, the first (where k > 2) often never
    predicted. Weights with zeros; slices s (one slice holding a single class)."""
    rng = np.random.default_rng(seed + 17 * k + text)
    names = classes(k, text)
    y = names[rng.integers(0, max(k - 1, 1), n)]
    other = names[rng.integers(1 if k > 2 else 0, k, n)]
    p = np.where(rng.random(n) < 0.5, y, other)
    s = rng.choice(["x", "y", "z"], n)
    y[s == "z"], p[s == "z"] = names[0], names[0]
    w = np.where(rng.random(n) < 0.1, 0.0, rng.random(n) * 3)
    return pd.DataFrame({"y": y, "p": p, "w": w, "s": s})


CASES = [(k, text) for k in (2, 3, 50) for text in (False, True)]
IDS = [f"{k}-{'text' if text else 'int'}" for k, text in CASES]


def prfs(y, p, w, average, zero_division, beta=1.0):
    """sklearn's precision, recall, F of the call; with zero_division None (undefined), NaN where a
    0/0 class weighs in the average (the value is then sklearn's for any zero_division setting)."""
    zd = {None: np.nan, "nan": np.nan}.get(zero_division, zero_division)
    if average is None or average == "micro" or zero_division is not None:
        out = quiet(skm.precision_recall_fscore_support, y, p, beta=beta, average=average, zero_division=zd,
                    sample_weight=w)
        return out[:3], out[3]
    per_class = quiet(skm.precision_recall_fscore_support, y, p, beta=beta, average=None, zero_division=np.nan,
                      sample_weight=w)
    values = quiet(skm.precision_recall_fscore_support, y, p, beta=beta, average=average, zero_division=0,
                   sample_weight=w)[:3]
    support = per_class[3]
    weighs = np.ones(len(support), bool) if average == "macro" else support > 0
    if average == "weighted" and not weighs.any():
        weighs[:] = True  # sklearn's plain mean when every support is 0
    return tuple(NAN if np.isnan(v[weighs]).any() else x for v, x in zip(per_class[:3], values)), None


def weights(df, weighted):
    return (df["w"].to_numpy() if weighted else None), ({"weight": "w"} if weighted else {})


@pytest.mark.parametrize("k, text", CASES, ids=IDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_precision_recall_f_match_sklearn(k, text, weighted):
    df = frame(k, text)
    w, wcol = weights(df, weighted)
    for average in AVERAGES:
        for zd in ZERO_DIVISIONS:
            want, support = prfs(df["y"], df["p"], w, average, zd)
            f2 = prfs(df["y"], df["p"], w, average, zd, beta=0.5)[0][2]
            for name, value, extra in [("precision", want[0], {}), ("recall", want[1], {}), ("f1", want[2], {}),
                                       ("f_beta", f2, {"beta": 0.5})]:
                got = getattr(sm, name)(df, label="y", prediction="p", average=average, zero_division=zd,
                                        details=True, **wcol, **extra)
                what = f"{name} average={average} zero_division={zd}"
                if average is None:
                    names = np.unique(np.concatenate([df["y"], df["p"]]))
                    assert got["class"].tolist() == names.tolist(), what
                    np.testing.assert_allclose(got[name].to_numpy(float), value, rtol=REL, atol=ABS,
                                               equal_nan=True, err_msg=what)
                    np.testing.assert_allclose(got["support"].to_numpy(float), support, rtol=REL, err_msg=what)
                else:
                    assert_close(got[name].iloc[0], value, what)
                    assert got["n"].iloc[0] == len(df)


@pytest.mark.parametrize("k, text", CASES, ids=IDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_pooled_counts_are_the_one_vs_rest_matrices_summed(k, text, weighted):
    df = frame(k, text)
    w, wcol = weights(df, weighted)
    mcm = skm.multilabel_confusion_matrix(df["y"], df["p"], sample_weight=w).sum(axis=0)
    got = sm.precision(df, label="y", prediction="p", average="micro", details=True, **wcol)
    want = {"tn": mcm[0, 0], "fp": mcm[0, 1], "fn": mcm[1, 0], "tp": mcm[1, 1]}
    for col, value in want.items():
        assert got[col].iloc[0] == pytest.approx(value, rel=REL), col


@pytest.mark.parametrize("k, text", CASES, ids=IDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_accuracy_averages(k, text, weighted):
    df = frame(k, text)
    w, wcol = weights(df, weighted)
    y, p = df["y"], df["p"]
    call = lambda average: sm.accuracy(df, label="y", prediction="p", average=average, details=True, **wcol)
    assert_close(call("micro")["accuracy"].iloc[0], skm.accuracy_score(y, p, sample_weight=w), "micro")
    assert_close(call("macro")["accuracy"].iloc[0], quiet(skm.balanced_accuracy_score, y, p, sample_weight=w),
                 "macro")
    assert_close(call("weighted")["accuracy"].iloc[0],
                 quiet(skm.recall_score, y, p, average="weighted", sample_weight=w), "weighted")
    np.testing.assert_allclose(call(None)["accuracy"].to_numpy(float),
                               quiet(skm.recall_score, y, p, average=None, zero_division=np.nan, sample_weight=w),
                               rtol=REL, equal_nan=True)


@pytest.mark.parametrize("k, text", CASES, ids=IDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_other_metrics_match_sklearn(k, text, weighted):
    df = frame(k, text)
    w, wcol = weights(df, weighted)
    y, p = df["y"], df["p"]
    args = dict(label="y", prediction="p", **wcol)
    for adjusted in (False, True):  # sklearn's -inf or NaN of a single true class is undefined here
        want = quiet(skm.balanced_accuracy_score, y, p, sample_weight=w, adjusted=adjusted)
        assert_close(sm.balanced_accuracy(df, adjusted=adjusted, details=True, **args)["balanced_accuracy"].iloc[0],
                     want if math.isfinite(want) else NAN, f"adjusted={adjusted}")
    for kappa_weights in (None, "linear", "quadratic"):
        assert_close(sm.cohen_kappa(df, weights=kappa_weights, details=True, **args)["cohen_kappa"].iloc[0],
                     quiet(skm.cohen_kappa_score, y, p, weights=kappa_weights, sample_weight=w), f"kappa {kappa_weights}")
    assert_close(sm.mcc(df, zero_division=0, **args), skm.matthews_corrcoef(y, p, sample_weight=w), "mcc")
    labels = np.unique(np.concatenate([y, p]))
    matrix = sm.multiclass_confusion_matrix(df, **args)
    assert matrix[["true_class", "predicted_class"]].apply(tuple, axis=1).tolist() == sorted(
        matrix[["true_class", "predicted_class"]].apply(tuple, axis=1).tolist())
    dense = (matrix.pivot(index="true_class", columns="predicted_class", values="n")
             .reindex(index=labels, columns=labels).fillna(0).to_numpy(float))
    np.testing.assert_allclose(dense, skm.confusion_matrix(y, p, labels=labels, sample_weight=w), rtol=REL)


@pytest.mark.parametrize("name, extra", [("f1", {"average": "macro", "zero_division": 0}),
                                         ("precision", {"average": "weighted", "zero_division": 1}),
                                         ("recall", {"average": None}),
                                         ("accuracy", {"average": "macro"}),
                                         ("balanced_accuracy", {}), ("cohen_kappa", {"weights": "linear"}),
                                         ("mcc", {}), ("multiclass_confusion_matrix", {})])
def test_each_slice_is_the_metric_of_its_rows(name, extra):
    df = frame(5, True, seed=3)
    got = getattr(sm, name)(df, label="y", prediction="p", weight="w", by="s", details=True, **extra)
    for s, part in got.groupby("s"):
        alone = getattr(sm, name)(df[df.s == s], label="y", prediction="p", weight="w", details=True, **extra)
        pd.testing.assert_frame_equal(part.drop(columns="s").reset_index(drop=True), alone, check_dtype=False,
                                      rtol=REL)


@pytest.mark.parametrize("k, text", CASES, ids=IDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_accuracy_without_average_takes_classes_as_sklearn(k, text, weighted):
    """sklearn's accuracy_score takes classes of any type (here never 0/1: negative integers, text), and
    so does accuracy without average: the weight predicted right over the total, in each slice too; the
    details are average='micro''s (tp the weight predicted right, fp = fn the rest)."""
    df = frame(k, text)
    w, wcol = weights(df, weighted)
    got = sm.accuracy(df, label="y", prediction="p", details=True, **wcol)
    assert_close(got["accuracy"].iloc[0], skm.accuracy_score(df["y"], df["p"], sample_weight=w), "accuracy")
    pd.testing.assert_frame_equal(got, sm.accuracy(df, label="y", prediction="p", average="micro", details=True, **wcol))
    weight = np.ones(len(df)) if w is None else w
    right = weight[(df["y"] == df["p"]).to_numpy()].sum()
    assert got["tp"].iloc[0] == pytest.approx(right, rel=REL) and got["n"].iloc[0] == len(df)
    assert got["fp"].iloc[0] == pytest.approx(weight.sum() - right, rel=REL) == got["fn"].iloc[0]
    sliced = sm.accuracy(df, label="y", prediction="p", by="s", **wcol)
    for (s, part), value in zip(df.groupby("s"), sliced["accuracy"]):
        assert_close(value, skm.accuracy_score(part["y"], part["p"], sample_weight=part["w"] if weighted else None), s)


def test_accuracy_of_0_1_labels_keeps_its_counts_and_a_third_class_makes_classes():
    """0/1 (or boolean) labels give the binary counts, as before; a prediction of a class never true
    (2) makes label and prediction classes, as for sklearn's accuracy_score."""
    rng = np.random.default_rng(5)
    n = 300
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, 2, n))
    w = np.where(rng.random(n) < 0.1, 0.0, rng.random(n) * 2)
    df = pd.DataFrame({"y": y, "p": p, "w": w, "yb": y == 1, "pb": p == 1, "p3": np.where(rng.random(n) < 0.1, 2, p)})
    tn, fp, fn, tp = skm.confusion_matrix(y, p, sample_weight=w).ravel()
    for label, prediction in [("y", "p"), ("yb", "pb")]:
        got = sm.accuracy(df, label=label, prediction=prediction, weight="w", details=True)
        assert got.columns.tolist() == ["accuracy", "tp", "fp", "tn", "fn", "n"]
        np.testing.assert_allclose(got.iloc[0].to_numpy(float), [skm.accuracy_score(y, p, sample_weight=w),
                                                                  tp, fp, tn, fn, n], rtol=REL)
    got = sm.accuracy(df, label="y", prediction="p3", weight="w", details=True)
    assert_close(got["accuracy"].iloc[0], skm.accuracy_score(y, df["p3"], sample_weight=w), "a third class")
    assert got["tp"].iloc[0] == pytest.approx(w[y == df["p3"]].sum(), rel=REL)


def test_binary_only_metrics_given_classes_say_to_pass_average():
    """As sklearn's precision_score on multi-class labels asks for another average: the averages by
    name; a score (two classes at a threshold) also needs the predicted class instead."""
    ints, text = frame(4, False), frame(4, True)  # three classes true
    averages = "for classes pass average='macro', average='micro', average='weighted' or average=None"
    for name in ("precision", "recall", "f1", "f_beta"):
        for df, shown, type_name in [(ints, "-5, -2, 1", "BIGINT"), (text, "'B', 'Z', 'a'", "VARCHAR")]:
            with pytest.raises(sm.ColumnError) as e:
                getattr(sm, name)(df, label="y", prediction="p")
            assert str(e.value) == (f"label must be 0/1 (or boolean); column 'y' (label) holds more than two values, "
                                    f"e.g. {shown} ({type_name}): {averages}"), name
    with pytest.raises(sm.ColumnError) as e:
        sm.recall(ints.assign(s=0.5), label="y", score="s")
    assert str(e.value).endswith(f"{averages}, with the predicted class as prediction= instead of score=")
    with pytest.raises(sm.ColumnError) as e:
        sm.accuracy(ints.assign(s=0.5), label="y", score="s")
    assert str(e.value).endswith("(BIGINT): for classes, pass the predicted class as prediction= instead of score=")
    # a prediction of probabilities is no class: accuracy refuses it (sklearn: 'continuous' targets)
    for df in (ints, ints.assign(y=ints["y"] > 0)):
        with pytest.raises(sm.ColumnError) as e:
            sm.accuracy(df.assign(p=np.linspace(0, 1, len(df))), label="y", prediction="p")
        assert str(e.value).startswith("prediction must be 0/1 (or boolean), or classes (text, whole numbers); column "
                                       "'p' (prediction) holds fractions, e.g. 0.0025")
        assert str(e.value).endswith(": a score is given as score= with a threshold")


def test_integer_classes_sort_by_value_and_text_byte_by_byte():
    ints = pd.DataFrame({"y": [10, 9, -1, 10], "p": [9, 9, 10, -1]})
    assert sm.recall(ints, label="y", prediction="p", average=None)["class"].tolist() == [-1, 9, 10]
    text = pd.DataFrame({"y": ["é", "a", "B", "Z"], "p": ["a", "a", "Z", "B"]})
    assert sm.recall(text, label="y", prediction="p", average=None)["class"].tolist() == ["B", "Z", "a", "é"]
    assert sm.multiclass_confusion_matrix(text, label="y", prediction="p")["true_class"].tolist() == ["B", "Z", "a", "é"]
    for w in ("linear", "quadratic"):  # the class index follows the same order
        assert_close(sm.cohen_kappa(text, label="y", prediction="p", weights=w),
                     skm.cohen_kappa_score(text["y"], text["p"], weights=w), w)


def test_boolean_classes():
    df = pd.DataFrame({"y": [True, False, True, True, False], "p": [True, True, False, True, False]})
    assert_close(sm.f1(df, label="y", prediction="p", average="macro"), skm.f1_score(df.y, df.p, average="macro"))
    assert_close(sm.mcc(df, label="y", prediction="p"), skm.matthews_corrcoef(df.y, df.p))
    assert_close(sm.cohen_kappa(df, label="y", prediction="p", weights="linear"),
                 skm.cohen_kappa_score(df.y, df.p, weights="linear"))


def test_binary_mcc_is_the_binary_formula():
    df = pd.DataFrame({"y": [1, 1, 1, 0, 0, 0, 0], "p": [1, 1, 0, 1, 0, 0, 0]})
    tp, fp, tn, fn = 2, 1, 3, 1
    want = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert_close(sm.mcc(df, label="y", prediction="p"), want)


def test_one_class_and_undefined_values():
    one = pd.DataFrame({"y": ["a", "a"], "p": ["a", "a"]})
    assert sm.precision(one, label="y", prediction="p", average="macro") == 1.0
    assert sm.balanced_accuracy(one, label="y", prediction="p") == 1.0
    for call in (lambda: sm.cohen_kappa(one, label="y", prediction="p"),
                 lambda: sm.mcc(one, label="y", prediction="p"),
                 lambda: sm.balanced_accuracy(one, label="y", prediction="p", adjusted=True)):
        with pytest.raises(sm.UndefinedMetricError):
            call()
    assert sm.mcc(one, label="y", prediction="p", zero_division=0) == skm.matthews_corrcoef(one.y, one.p) == 0.0
    assert math.isnan(quiet(skm.cohen_kappa_score, one.y, one.p))
    # b is never predicted: its precision is 0/0, which the default does not count as 0
    never = pd.DataFrame({"y": ["a", "b", "a"], "p": ["a", "a", "a"]})
    with pytest.raises(sm.UndefinedMetricError, match="zero_division"):
        sm.precision(never, label="y", prediction="p", average="macro")
    for zd, sk in ((0, 0), (1, 1), ("nan", np.nan), (float("nan"), np.nan)):
        assert_close(sm.precision(never, label="y", prediction="p", average="macro", zero_division=zd),
                     quiet(skm.precision_score, never.y, never.p, average="macro", zero_division=sk), str(zd))
    # weighted: b has support, so it weighs; recall's 0/0 classes never do (support 0)
    with pytest.raises(sm.UndefinedMetricError):
        sm.precision(never, label="y", prediction="p", average="weighted")
    assert_close(sm.recall(never.assign(p=["a", "c", "a"]), label="y", prediction="p", average="weighted"),
                 skm.recall_score(never.y, ["a", "c", "a"], average="weighted"))
    per_class = sm.precision(never, label="y", prediction="p", average=None)
    assert per_class["class"].tolist() == ["a", "b"] and math.isnan(per_class["precision"][1])
    # in a slice: NaN, never an error
    sliced = sm.precision(never.assign(s=1), label="y", prediction="p", average="macro", by="s")
    assert math.isnan(sliced["precision"][0])


def test_all_weights_zero_and_empty_input():
    df = pd.DataFrame({"y": ["a", "b"], "p": ["a", "a"], "w": [0.0, 0.0]})
    # sklearn refuses weights that are all 0; every ratio is then 0/0: zero_division's value
    for zd in (0, 1):
        for average in ("macro", "weighted", "micro"):
            assert sm.f1(df, label="y", prediction="p", weight="w", average=average, zero_division=zd) == zd
    with pytest.raises(sm.UndefinedMetricError):
        sm.f1(df, label="y", prediction="p", weight="w", average="weighted")
    empty = df.iloc[:0]
    for name in ("precision", "balanced_accuracy", "cohen_kappa", "mcc"):
        extra = {"average": "macro"} if name == "precision" else {}
        with pytest.raises(sm.UndefinedMetricError):
            getattr(sm, name)(empty, label="y", prediction="p", **extra)


def test_binary_forms_take_zero_division():
    df = pd.DataFrame({"y": [0, 0, 1], "s": [0.1, 0.2, 0.3]})
    with pytest.raises(sm.UndefinedMetricError):
        sm.precision(df, label="y", score="s", threshold=0.9)
    assert sm.precision(df, label="y", score="s", threshold=0.9, zero_division=1) == 1.0
    assert sm.f1(df.assign(y=0), label="y", score="s", threshold=0.9, zero_division=0) == 0.0
    assert sm.precision(df, label="y", score="s", threshold=0.25) == 1.0  # unchanged when defined


def test_parameter_errors_say_what_to_do():
    df = pd.DataFrame({"y": ["a", "b"], "p": ["a", "a"], "s": [0.1, 0.9], "i": [1, 2]})
    with pytest.raises(sm.ParameterError, match="prediction= instead of score="):
        sm.f1(df, label="y", score="s", average="macro")
    with pytest.raises(sm.ParameterError, match="zero_division must be one of"):
        sm.recall(df, label="y", prediction="p", average="macro", zero_division=0.5)
    with pytest.raises(sm.ParameterError, match="adjusted must be True or False"):
        sm.balanced_accuracy(df, label="y", prediction="p", adjusted="yes")
    with pytest.raises(sm.ColumnError, match="same type"):
        sm.recall(df, label="i", prediction="p", average="macro")
    with pytest.raises(sm.ColumnError, match="NULL"):
        sm.mcc(pd.DataFrame({"y": ["a", None], "p": ["a", "b"]}), label="y", prediction="p")
    with pytest.raises(sm.ColumnError, match="0/1"):  # the binary meaning stays the default
        sm.recall(df, label="y", prediction="p")


# -- the worked examples of the source documents ------------------------------------------------------

# A 4-class confusion matrix (rows true, columns predicted) with the totals of the worked example:
# diagonal 9, 15, 24, 15 of 80 rows; class A predicted 15 times (tp 9, fp 6) and true 10 times (fn 1).
SEED_MATRIX = np.array([[9, 1, 0, 0], [2, 15, 2, 1], [3, 1, 24, 2], [1, 2, 2, 15]])


def seed_rows() -> pd.DataFrame:
    names = ["A", "B", "C", "D"]
    rows = [(names[i], names[j]) for i in range(4) for j in range(4) for _ in range(SEED_MATRIX[i, j])]
    return pd.DataFrame(rows, columns=["y", "p"])


def test_worked_example_accuracy_precision_recall_f1():
    df = seed_rows()
    assert len(df) == 80
    assert sm.accuracy(df, label="y", prediction="p", average="micro") == pytest.approx((9 + 15 + 24 + 15) / 80,
                                                                                       rel=1e-12)
    by_class = lambda name: sm.__dict__[name](df, label="y", prediction="p", average=None).set_index("class")[name]
    assert by_class("precision")["A"] == pytest.approx(9 / (9 + 6), rel=1e-12)
    assert by_class("recall")["A"] == pytest.approx(9 / (9 + 1), rel=1e-12)
    assert by_class("f1")["A"] == pytest.approx(2 * 0.6 * 0.9 / (0.6 + 0.9), rel=1e-12)


def test_worked_example_accuracy_of_four_classes_without_average():
    """The source's accuracy of 4 classes, (9 + 15 + 24 + 15) / 80, as accuracy_score: no average needed,
    with the classes as text and as integers 0..3."""
    df = seed_rows()
    codes = df.replace({"A": 0, "B": 1, "C": 2, "D": 3}).astype(int)
    for rows in (df, codes):
        assert sm.accuracy(rows, label="y", prediction="p") == 63 / 80 == skm.accuracy_score(rows["y"], rows["p"])
        got = sm.accuracy(rows, label="y", prediction="p", details=True)
        assert (got["tp"][0], got["fp"][0], got["fn"][0], got["n"][0]) == (63, 17, 17, 80)


def test_averages_as_the_source_defines_them():
    """macro: the mean of the per-class values; weighted: weighted by each class's count; micro:
    from the one-vs-rest matrices added together (for single-label classes, the accuracy)."""
    df = seed_rows()
    per_class = sm.f1(df, label="y", prediction="p", average=None)
    assert sm.f1(df, label="y", prediction="p", average="macro") == pytest.approx(per_class["f1"].mean(), rel=1e-12)
    assert sm.f1(df, label="y", prediction="p", average="weighted") == pytest.approx(
        np.average(per_class["f1"], weights=per_class["support"]), rel=1e-12)
    pooled = sm.precision(df, label="y", prediction="p", average="micro", details=True)
    assert pooled["precision"][0] == pytest.approx(63 / 80, rel=1e-12)
    assert (pooled["tp"][0], pooled["fp"][0], pooled["fn"][0], pooled["tn"][0]) == (63, 17, 17, 4 * 80 - 63 - 34)


@pytest.mark.parametrize("k, text", CASES, ids=IDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_classification_report_matches_sklearn(k, text, weighted):
    df = frame(k, text)
    w, wcol = weights(df, weighted)
    y, p = df["y"], df["p"]
    labels = np.unique(np.concatenate([y, p]))
    for zd in (0, 1):
        report = quiet(skm.classification_report, y, p, sample_weight=w, zero_division=zd, output_dict=True)
        got = sm.classification_report(df, label="y", prediction="p", zero_division=zd, **wcol)
        assert got["class"].tolist()[:len(labels)] == labels.tolist()
        assert got["average"].tolist()[len(labels):] == ["micro", "macro", "weighted"]
        want = [report[str(c)] for c in labels] + [
            {"precision": report["accuracy"], "recall": report["accuracy"], "f1-score": report["accuracy"],
             "support": report["macro avg"]["support"]}, report["macro avg"], report["weighted avg"]]
        for column, key in (("precision", "precision"), ("recall", "recall"), ("f1", "f1-score"),
                            ("support", "support")):
            np.testing.assert_allclose(got[column].to_numpy(float), [r[key] for r in want], rtol=REL,
                                       err_msg=f"{column} zero_division={zd}")
    for zd in (None, "nan"):  # the averages as precision/recall/f1 give them
        got = sm.classification_report(df, label="y", prediction="p", zero_division=zd, **wcol)
        for i, average in enumerate(["micro", "macro", "weighted"]):
            want = prfs(y, p, w, average, zd)[0]
            row = got.iloc[len(labels) + i]
            for column, value in zip(("precision", "recall", "f1"), want):
                assert_close(row[column], value, f"{average} {column} zero_division={zd}")
