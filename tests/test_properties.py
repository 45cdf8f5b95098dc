"""Property-based tests (hypothesis): on random data, every classification, regression and ranking
metric agrees with its reference, or both say the value is undefined, or the input is invalid and
sqlmetrics raises a ColumnError naming the column: never a number for invalid input.

References: scikit-learn (AUC, average precision, the curves, log loss, Brier score, the confusion
matrix family, regression errors, GAUC as the weighted mean of per-group roc_auc_score) and
pytrec_eval (ndcg, ndcg_cut, map, map_cut, recip_rank, P, recall, Rprec, success). They never call
sqlmetrics. Invariances without a reference: row order, AUC(s) = 1 - AUC(-s), scaling the weights,
a by= slice equal to the metric on the slice alone.

DuckDB with pandas frames; a smaller sample on SQLite (a sqlite3 connection, the frame written with
DataFrame.to_sql). Derandomized, so CI always runs the same examples;
SQLMETRICS_HYPOTHESIS=long runs 25x as many, freshly drawn, for a longer local search.
"""
from __future__ import annotations

import math
import os
import re
import sqlite3
import warnings

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
import sklearn.metrics as skm
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sqlmetrics as sm
from sqlmetrics.errors import ColumnError, MetricError
from strategies import (THRESHOLD_TEXTS, binary_frames, invalid_binary_frames, keyed_ranking_frames, ranking_frames,
                        regression_frames, trec_qrels_lines)

LONG = os.environ.get("SQLMETRICS_HYPOTHESIS") == "long"
_BASE = settings(deadline=None, derandomize=not LONG, database=None, print_blob=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def budget(n: int) -> settings:
    """n examples in CI (the whole file stays under a minute on 2 cores), 25n with the long profile."""
    return settings(_BASE, max_examples=n * 25 if LONG else n)


REL, ABS = 1e-9, 1e-12
NAN = float("nan")


# -- comparison --------------------------------------------------------------------------------------

def close(got, want) -> bool:
    got, want = float(got), float(want)
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return math.isclose(got, want, rel_tol=REL, abs_tol=ABS)


def check_scalar(call, want: float, what: str) -> None:
    """The value agrees with the reference, or both say it is undefined."""
    if math.isnan(want):
        with pytest.raises(sm.UndefinedMetricError):
            call()
        return
    got = call()
    assert isinstance(got, float), f"{what}: {got!r} is not a float"
    assert close(got, want), f"{what}: sqlmetrics {got!r}, reference {want!r}"


def assert_columns_close(got: pd.DataFrame, want: dict, what: str) -> None:
    """Column by column; the absolute tolerance scales with the column (a weight total such as
    tn = W_neg - fp carries rounding noise of the size of W_neg * 1e-16)."""
    n_want = len(next(iter(want.values())))
    assert len(got) == n_want, f"{what}: {len(got)} rows, reference {n_want}\n{got}"
    for col, values in want.items():
        values = np.asarray(values, dtype=float)
        finite = np.abs(values[np.isfinite(values)])
        scale = max(1.0, finite.max()) if len(finite) else 1.0
        np.testing.assert_allclose(got[col].to_numpy(dtype=float), values, rtol=REL, atol=ABS * scale,
                                   equal_nan=True, err_msg=f"{what}: column {col}")


def quiet(fn, *args, **kwargs):
    """A reference call without its warnings (one class, zero division, ...)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# -- references (scikit-learn, numpy; never sqlmetrics) ----------------------------------------------

def arrays(d: pd.DataFrame, weighted: bool):
    """labels as 0/1 ints, the weights given to sklearn (None) and the effective weights."""
    y = d["y"].to_numpy(dtype=float).astype(np.int64)
    w = d["w"].to_numpy(dtype=float) if weighted else None
    return y, w, (w if w is not None else np.ones(len(y)))


def dense_ranks(s):
    """Scores sklearn accepts (it rejects +-inf) in the same order with the same ties, and the
    map back to the scores: AUC, AP and the curves depend on the order only."""
    s = np.asarray(s, dtype=float)
    uniq = np.unique(s)
    return np.searchsorted(uniq, s).astype(float), uniq


def unmap(thresholds, uniq):
    thr = np.asarray(thresholds, dtype=float).copy()
    finite = np.isfinite(thr)
    thr[finite] = uniq[thr[finite].astype(np.int64)]
    return thr


def both_classes(d, weighted) -> bool:
    y, _, ones = arrays(d, weighted)
    return (ones * y).sum() > 0 and (ones * (1 - y)).sum() > 0


def ref_auc(d, weighted, score="s"):
    if not both_classes(d, weighted):
        return NAN
    y, w, _ = arrays(d, weighted)
    return float(quiet(skm.roc_auc_score, y, dense_ranks(d[score])[0], sample_weight=w))


def ref_average_precision(d, weighted):
    y, w, ones = arrays(d, weighted)
    if not (ones * y).sum() > 0:
        return NAN
    return float(quiet(skm.average_precision_score, y, dense_ranks(d["s"])[0], sample_weight=w))


def confusion_at_thresholds(y, s, sample_weight=None):
    """sklearn's per-threshold counts (tns, fps, fns, tps, thresholds): public since 1.8, the private
    helper before (Python 3.10's newest sklearn is 1.7)."""
    if hasattr(skm, "confusion_matrix_at_thresholds"):
        return skm.confusion_matrix_at_thresholds(y, s, sample_weight=sample_weight)
    from sklearn.metrics._ranking import _binary_clf_curve
    fps, tps, thresholds = _binary_clf_curve(y, s, sample_weight=sample_weight)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds


def ref_roc(d, weighted):
    """None when undefined (one class), else sklearn's roc_curve(drop_intermediate=False) points."""
    if not both_classes(d, weighted):
        return None
    y, w, _ = arrays(d, weighted)
    ranks, uniq = dense_ranks(d["s"])
    fpr, tpr, thr = quiet(skm.roc_curve, y, ranks, sample_weight=w, drop_intermediate=False)
    tns, fps, fns, tps, _ = confusion_at_thresholds(y, ranks, sample_weight=w)
    return {"threshold": unmap(thr, uniq), "fpr": fpr, "tpr": tpr, "tp": np.r_[0, tps], "fp": np.r_[0, fps],
            "tn": np.r_[fps[-1], tns], "fn": np.r_[tps[-1], fns]}


def ref_pr(d, weighted):
    """None when undefined (no positive), else sklearn's precision_recall_curve, descending, after
    the point (+inf, precision 1, recall 0)."""
    y, w, ones = arrays(d, weighted)
    if not (ones * y).sum() > 0:
        return None
    ranks, uniq = dense_ranks(d["s"])
    precision, recall, thr = quiet(skm.precision_recall_curve, y, ranks, sample_weight=w)
    _, fps, _, tps, _ = confusion_at_thresholds(y, ranks, sample_weight=w)
    return {"threshold": np.r_[np.inf, unmap(thr[::-1], uniq)], "precision": precision[::-1],
            "recall": recall[::-1], "tp": np.r_[0, tps], "fp": np.r_[0, fps]}


def ref_log_loss(d, weighted):
    y, w, ones = arrays(d, weighted)
    if not ones.sum() > 0:
        return NAN
    return float(quiet(skm.log_loss, y, d["p"].to_numpy(dtype=float), sample_weight=w, labels=[0, 1]))


def ref_brier(d, weighted):
    y, w, ones = arrays(d, weighted)
    if not ones.sum() > 0:
        return NAN
    return float(quiet(skm.brier_score_loss, y, d["p"].to_numpy(dtype=float), sample_weight=w, labels=[0, 1]))


def predicted(d, how: dict):
    if "prediction" in how:
        return d[how["prediction"]].to_numpy().astype(np.int64)
    return (d["s"].to_numpy(dtype=float) >= how["threshold"]).astype(np.int64)


def ref_confusion(d, weighted, how):
    y, w, ones = arrays(d, weighted)
    if not ones.sum() > 0:  # no rows, or zero weights only (sklearn refuses both)
        return {"tp": 0, "fp": 0, "tn": 0, "fn": 0, "n": len(d)}
    tn, fp, fn, tp = skm.confusion_matrix(y, predicted(d, how), labels=[0, 1], sample_weight=w).ravel()
    return {"tp": tp, "fp": fp, "tn": tn, "fn": fn, "n": len(d)}


def ref_from_confusion(name, d, weighted, how):
    """sklearn's precision/recall/F/accuracy; NaN where sklearn divides 0 by 0 (zero_division=nan)."""
    y, w, ones = arrays(d, weighted)
    if not ones.sum() > 0:
        return NAN
    pred = predicted(d, how)
    if name == "accuracy":
        return float(skm.accuracy_score(y, pred, sample_weight=w))
    fn, kwargs = {"precision": (skm.precision_score, {}), "recall": (skm.recall_score, {}),
                  "f1": (skm.f1_score, {}), "f_beta": (skm.fbeta_score, {"beta": 2.0})}[name]
    return float(quiet(fn, y, pred, sample_weight=w, zero_division=np.nan, labels=[0, 1], **kwargs))


def ref_regression(name, d, weighted):
    w = d["w"].to_numpy(dtype=float) if weighted else None
    ones = w if w is not None else np.ones(len(d))
    t, q = d["t"].to_numpy(dtype=float), d["q"].to_numpy(dtype=float)
    if not ones.sum() > 0 or (name == "r2" and len(d) < 2):
        return NAN
    if name == "r2":
        live = t[ones > 0]
        if live.min() == live.max():  # sklearn's documented rule for a constant target, applied exactly
            return 1.0 if np.all((t == q) | (ones == 0)) else 0.0
    fn = {"mae": skm.mean_absolute_error, "mse": skm.mean_squared_error, "rmse": skm.root_mean_squared_error,
          "r2": skm.r2_score}[name]
    return float(quiet(fn, t, q, sample_weight=w))


def ref_gauc(d, weighted, weighting):
    """The weighted mean of roc_auc_score per group over the groups with both classes. The weights
    are divided by the largest first (the mean does not change): wp * wn ('pairs') of weights near
    1e200 or 1e-200 would overflow or vanish in the reference itself."""
    ranks = dense_ranks(d["s"])[0]
    if weighted and len(d) and d["w"].max() > 0:
        d = d.assign(w=d["w"] / d["w"].max())
    used, excluded = [], 0
    for _, idx in d.groupby("g").indices.items():
        sub = d.iloc[idx]
        y, w, ones = arrays(sub, weighted)
        wp, wn = float((ones * y).sum()), float((ones * (1 - y)).sum())
        if wp > 0 and wn > 0:
            auc = float(quiet(skm.roc_auc_score, y, ranks[idx], sample_weight=w))
            used.append((auc, {"impressions": wp + wn, "clicks": wp, "uniform": 1.0, "pairs": wp * wn}[weighting]))
        else:
            excluded += 1
    value = sum(a * v for a, v in used) / sum(v for _, v in used) if used else NAN
    n_pos = int(d["y"].to_numpy(dtype=float).sum())
    return {"gauc": value, "n_groups_used": len(used), "n_groups_excluded": excluded, "n": len(d),
            "n_pos": n_pos, "n_neg": len(d) - n_pos}


# -- the metric calls -----------------------------------------------------------------------------

def weight_of(weighted):
    return {"weight": "w"} if weighted else {}


COLUMNS = {"gauc": {"label": "y", "score": "s", "group": "g"},
           "log_loss": {"label": "y", "score": "p"}, "brier_score": {"label": "y", "score": "p"},
           **{name: {"target": "t", "prediction": "q"} for name in ("mae", "mse", "rmse", "r2")}}


def call(name, data, weighted, con=None, **extra):
    """sm.<name> with the columns of the generated frames (label y and score s unless said)."""
    columns = COLUMNS.get(name, {"label": "y", "score": "s"})
    return getattr(sm, name)(data, con=con, **columns, **weight_of(weighted), **extra)


def confusion_kwargs(how):
    return {"label": "y", **({"prediction": how["prediction"]} if "prediction" in how
                             else {"score": "s", "threshold": how["threshold"]})}


# -- 1. agreement with scikit-learn, on DuckDB ---------------------------------------------------------

def check_auc_family(d, weighted, con=None, data=None):
    data = d if data is None else data
    check_scalar(lambda: call("auc", data, weighted, con), ref_auc(d, weighted), "auc")
    check_scalar(lambda: call("gini", data, weighted, con), 2 * ref_auc(d, weighted) - 1, "gini")
    check_scalar(lambda: call("average_precision", data, weighted, con), ref_average_precision(d, weighted),
                 "average_precision")
    for name, ref in (("roc_curve", ref_roc), ("pr_curve", ref_pr)):
        want = ref(d, weighted)
        if want is None:
            with pytest.raises(sm.UndefinedMetricError):
                call(name, data, weighted, con)
        else:
            got = call(name, data, weighted, con)
            assert list(got.columns) == list(want), name
            assert_columns_close(got, want, name)


@budget(45)
@given(d=binary_frames())
def test_auc_family_matches_sklearn(d):
    check_auc_family(d, "w" in d)


@budget(40)
@given(d=binary_frames())
def test_probability_losses_match_sklearn(d):
    weighted = "w" in d
    check_scalar(lambda: call("log_loss", d, weighted), ref_log_loss(d, weighted), "log_loss")
    check_scalar(lambda: call("brier_score", d, weighted), ref_brier(d, weighted), "brier_score")


THRESHOLDS = st.floats(-5, 5, allow_nan=False) | st.sampled_from([0.0, 0.5, 1.0, 1e-300, -1e300, 1e300])
CONFUSION_NAMES = ("precision", "recall", "f1", "f_beta", "accuracy")


@st.composite
def how_predicted(draw, d):
    """A threshold (often exactly one of the scores) or the 0/1 prediction column."""
    if draw(st.booleans()):
        return {"prediction": "hat"}
    finite = [float(x) for x in d["s"] if math.isfinite(x)]
    return {"threshold": draw(st.sampled_from(finite) | THRESHOLDS if finite else THRESHOLDS)}


@budget(30)
@given(data=st.data())
def test_confusion_family_matches_sklearn(data):
    d = data.draw(binary_frames())
    how = data.draw(how_predicted(d))
    weighted = "w" in d
    got = sm.confusion_matrix(d, **confusion_kwargs(how), **weight_of(weighted))
    want = ref_confusion(d, weighted, how)
    assert set(got) == set(want)
    for k in want:
        assert close(got[k], want[k]), f"confusion_matrix {k}: {got[k]!r} vs {want[k]!r}"
    if not weighted:
        assert all(type(v) is int for v in got.values()), got
    for name in CONFUSION_NAMES:
        extra = {"beta": 2.0} if name == "f_beta" else {}
        check_scalar(lambda: getattr(sm, name)(d, **confusion_kwargs(how), **weight_of(weighted), **extra),
                     ref_from_confusion(name, d, weighted, how), name)


@budget(40)
@given(d=regression_frames())
def test_regression_matches_sklearn(d):
    weighted = "w" in d
    for name in ("mae", "mse", "rmse", "r2"):
        check_scalar(lambda: call(name, d, weighted), ref_regression(name, d, weighted), name)


WEIGHTINGS = ("impressions", "clicks", "uniform", "pairs")


@budget(35)
@given(d=binary_frames(), weighting=st.sampled_from(WEIGHTINGS))
def test_gauc_matches_per_group_sklearn(d, weighting):
    weighted = "w" in d
    want = ref_gauc(d, weighted, weighting)
    got = call("gauc", d, weighted, weighting=weighting, details=True)
    assert list(got.columns) == list(want)
    for col, value in want.items():
        assert close(got[col].iloc[0], value), f"gauc {col}: {got[col].iloc[0]!r} vs {value!r}"
    check_scalar(lambda: call("gauc", d, weighted, weighting=weighting), want["gauc"], "gauc")


# -- 2. ranking against pytrec_eval --------------------------------------------------------------------

def trec_measures(k):
    """(pytrec_eval measure, its result key, sqlmetrics function, keyword arguments)."""
    return [("ndcg", "ndcg", "ndcg", {"gain": "linear"}),
            (f"ndcg_cut.{k}", f"ndcg_cut_{k}", "ndcg", {"gain": "linear", "k": k}),
            ("map", "map", "mean_average_precision", {}),
            (f"map_cut.{k}", f"map_cut_{k}", "mean_average_precision", {"k": k}),
            ("recip_rank", "recip_rank", "mrr", {}),
            (f"P.{k}", f"P_{k}", "precision_at_k", {"k": k}),
            (f"recall.{k}", f"recall_{k}", "recall_at_k", {"k": k}),
            ("Rprec", "Rprec", "r_precision", {}),
            (f"success.{k}", f"success_{k}", "hit_rate", {"k": k})]


def pytrec_results(run, qrels, measures, level):
    """pytrec_eval's per-query values (queries both judged and retrieved), ids as text.

    trec_eval holds scores in single precision: 1.0 and 1.0 + 1e-15, or 1e300 and 1.0001e300, tie
    there. sqlmetrics ranks by the exact doubles, so pytrec_eval gets the dense ranks of the scores:
    the same order and the same ties, in small integers every precision holds exactly."""
    run = run.assign(score=dense_ranks(run["score"])[0])
    as_dict = lambda frame, col, cast: {  # noqa: E731
        str(q): {str(i): cast(v) for i, v in zip(g["item"], g[col])} for q, g in frame.groupby("query")}
    evaluator = pytrec_eval.RelevanceEvaluator(as_dict(qrels, "relevance", int), set(measures),
                                               relevance_level=level)
    return evaluator.evaluate(as_dict(run, "score", float))


def expected_per_query(run, qrels, res, key, missing, level):
    """missing='skip': pytrec_eval's queries; 'zero': every judged query, 0 when not retrieved.

    trec_eval's ndcg ignores relevance_level (its gains are the grades); sqlmetrics scores a query
    without an item at the level 0, as documented: the two differ only on such queries."""
    want = {q: v[key] for q, v in res.items()}
    if key.startswith("ndcg"):
        top = qrels.groupby("query")["relevance"].max()
        want = {q: v if top[q] >= level else 0.0 for q, v in want.items()}
    if missing == "zero":
        want.update({q: 0.0 for q in set(qrels["query"]) - set(run["query"])})
    return want


def expected_mean(qrels, want: dict, level):
    """The mean over the evaluated queries; undefined when none of them has a relevant item."""
    relevant = set(qrels.loc[qrels["relevance"] >= level, "query"])
    return float(np.mean(list(want.values()))) if relevant & set(want) else NAN


def per_query_values(frame, name):
    return dict(zip(frame["query"], frame[name].astype(float)))


def inline_relevance(run, qrels):
    """The run carrying the relevance of each retrieved item (0 when unjudged), for a call without
    qrels; the judgments that reference gets: exactly those rows."""
    run = run.drop(columns="c").merge(qrels.drop(columns="c"), on=["query", "item"], how="left")
    run["relevance"] = run["relevance"].fillna(0).astype(np.int64)
    return run, run[["query", "item", "relevance"]]


def check_ranking(run, qrels, k, missing, chosen, level=1, inline=False, con=None, data=None):
    """The measures `chosen` (indices into trec_measures) per query; the first one's mean too.
    inline: the relevance in the run, no qrels (every retrieved query is judged)."""
    if inline:
        run, qrels = inline_relevance(run, qrels)
    run_data, qrels_data = data or (run, None if inline else qrels)
    measures = [trec_measures(k)[i] for i in chosen]
    res = pytrec_results(run, qrels, [m[0] for m in measures], level)
    for i, (_, key, name, kwargs) in enumerate(measures):
        fn = getattr(sm, name)
        kwargs = dict(kwargs, missing=missing, relevance_threshold=level)
        want = expected_per_query(run, qrels, res, key, missing, level)
        got = per_query_values(fn(run_data, qrels_data, per_query=True, con=con, **kwargs), name)
        bad = {q: (got.get(q), want.get(q)) for q in set(got) | set(want)
               if q not in got or q not in want or not close(got[q], want[q])}
        assert not bad, f"{name}({kwargs}) per query (sqlmetrics, pytrec_eval {key}): {bad}"
        if i == 0:
            check_scalar(lambda: fn(run_data, qrels_data, con=con, **kwargs), expected_mean(qrels, want, level),
                         f"{name}({kwargs}) mean")


# three of the nine measures per example (a ranking call costs ~0.1 s); derandomized, the examples
# cover them all
MEASURE_CHOICE = st.lists(st.integers(0, 8), min_size=3, max_size=3, unique=True)


@budget(30)
@given(frames=ranking_frames(), k=st.integers(1, 15), missing=st.sampled_from(["skip", "zero"]),
       chosen=MEASURE_CHOICE, level=st.sampled_from([1, 1, 2, 3]), inline=st.booleans())
def test_ranking_matches_pytrec_eval(frames, k, missing, chosen, level, inline):
    run, qrels = frames
    check_ranking(run, qrels, k, missing, chosen, level, inline)


# -- 3. invalid input: an error naming the column, never a number ---------------------------------------

# metric -> the columns it reads (all called with weight='w')
USES = {"auc": "ysw", "gauc": "ysgw", "roc_curve": "ysw", "average_precision": "ysw", "log_loss": "ypw",
        "brier_score": "ypw", "precision": "ysw", "f1": "ysw"}


def assert_rejected(call, needle: str, what: str):
    """A ColumnError whose message contains `needle` (the column, quoted)."""
    try:
        got = call()
    except ColumnError as e:
        assert needle in str(e), f"{what}: the message does not say {needle}: {e}"
        return
    except MetricError as e:
        raise AssertionError(f"{what}: {type(e).__name__} instead of ColumnError: {e}") from e
    raise AssertionError(f"{what}: returned {got!r} for invalid input")


@budget(60)
@given(data=st.data())
def test_invalid_binary_input_is_rejected(data):
    d, defect, col = data.draw(invalid_binary_frames())
    name = data.draw(st.sampled_from([m for m, uses in USES.items() if col in uses]))
    extra = {"threshold": 0.5} if name in ("precision", "f1") else {}
    assert_rejected(lambda: call(name, d, True, **extra), repr(col), f"{name} with {defect}")


REGRESSION_DEFECTS = {"nan_target": ("t", np.nan), "inf_target": ("t", np.inf),
                      "nan_prediction": ("q", np.nan), "minus_inf_prediction": ("q", -np.inf),
                      "negative_weight": ("w", -1.0), "infinite_weight": ("w", np.inf), "nan_weight": ("w", np.nan)}


@budget(25)
@given(d=regression_frames(min_size=1, weights=True), defect=st.sampled_from(sorted(REGRESSION_DEFECTS)),
       row=st.integers(0, 59), name=st.sampled_from(["mae", "mse", "rmse", "r2"]))
def test_invalid_regression_input_is_rejected(d, defect, row, name):
    col, value = REGRESSION_DEFECTS[defect]
    d = d.assign(**{col: d[col].astype(float)})  # an integer column cannot hold the defect
    d.loc[d.index[row % len(d)], col] = value
    assert_rejected(lambda: call(name, d, True), repr(col), f"{name} with {defect}")


RANKING_DEFECTS = ("duplicate_run", "duplicate_qrels", "null_query", "null_item", "nan_score",
                   "null_relevance", "infinite_relevance")


@budget(25)
@given(frames=ranking_frames(), defect=st.sampled_from(RANKING_DEFECTS), row=st.integers(0, 200),
       name=st.sampled_from(["ndcg", "mean_average_precision", "mrr", "recall_at_k"]))
def test_invalid_ranking_input_is_rejected(frames, defect, row, name):
    run, qrels = frames
    on_qrels = defect in ("duplicate_qrels", "null_relevance", "infinite_relevance")
    target = (qrels if on_qrels else run).copy()
    assume(len(target) > 0)
    i = target.index[row % len(target)]
    if defect.startswith("duplicate"):
        target = pd.concat([target, target.loc[[i]]], ignore_index=True)
        needle = "duplicated (query, item)"
    else:
        col = {"null_query": "query", "null_item": "item", "nan_score": "score", "null_relevance": "relevance",
               "infinite_relevance": "relevance"}[defect]
        if target[col].dtype.kind in "iuf":  # a float column, where NaN is NULL
            target[col] = target[col].astype(float)
            # -inf: a negative grade is trec_eval's unjudged, but an infinite one no grade
            target.loc[i, col] = -np.inf if defect == "infinite_relevance" else np.nan
        else:
            target.loc[i, col] = None
        needle = repr(col)
    run, qrels = (run, target) if on_qrels else (target, qrels)
    assert_rejected(lambda: getattr(sm, name)(run, qrels, k=5), needle, f"{name} with {defect}")


# -- 4. invariances ------------------------------------------------------------------------------------

def same_result(got, want, what):
    if isinstance(want, pd.DataFrame):
        assert_columns_close(got, {c: want[c].to_numpy(dtype=float) for c in want.columns}, what)
    else:
        assert close(got, want), f"{what}: {got!r} vs {want!r}"


def value_or_nan(call):
    try:
        return call()
    except sm.UndefinedMetricError:
        return NAN


@budget(40)
@given(data=st.data(), name=st.sampled_from(["auc", "gauc", "average_precision", "log_loss", "roc_curve"]))
def test_row_order_changes_nothing(data, name):
    d = data.draw(binary_frames(min_size=2))
    shuffled = d.iloc[list(data.draw(st.permutations(range(len(d)))))].reset_index(drop=True)
    weighted = "w" in d
    same_result(value_or_nan(lambda: call(name, shuffled, weighted)), value_or_nan(lambda: call(name, d, weighted)),
                f"{name} after shuffling rows")


@budget(15)
@given(frames=ranking_frames(), k=st.integers(1, 15), data=st.data(),
       name=st.sampled_from(["ndcg", "mean_average_precision", "precision_at_k", "err"]))
def test_ranking_row_order_changes_nothing(frames, k, data, name):
    run, qrels = frames
    run2 = run.iloc[list(data.draw(st.permutations(range(len(run)))))]
    qrels2 = qrels.iloc[list(data.draw(st.permutations(range(len(qrels)))))]
    fn = getattr(sm, name)
    per_query = [fn(r, q, k=k, per_query=True).sort_values("query", ignore_index=True)[["query", name]]
                 for r, q in ((run2, qrels2), (run, qrels))]
    assert per_query[0]["query"].tolist() == per_query[1]["query"].tolist()
    same_result(per_query[0][[name]], per_query[1][[name]], f"{name}@{k} after shuffling rows")


@budget(30)
@given(d=binary_frames())
def test_auc_of_negated_scores_is_one_minus_auc(d):
    weighted = "w" in d
    assume(both_classes(d, weighted))
    got = call("auc", d, weighted) + call("auc", d.assign(s=-d["s"]), weighted)
    assert math.isclose(got, 1.0, abs_tol=ABS), f"AUC(s) + AUC(-s) = {got!r}"


@budget(30)
@given(d=binary_frames(weights=True), factor=st.sampled_from([2.0 ** -20, 0.5, 3.0, 1e6]),
       name=st.sampled_from(["auc", "gauc", "average_precision", "log_loss", "brier_score", "roc_curve"]))
def test_scaling_weights_changes_nothing(d, factor, name):
    scaled, plain = (value_or_nan(lambda: call(name, data, True)) for data in (d.assign(w=d["w"] * factor), d))
    if isinstance(plain, pd.DataFrame):  # the points stay; the weight totals tp, fp, ... scale
        scaled, plain = scaled[["threshold", "fpr", "tpr"]], plain[["threshold", "fpr", "tpr"]]
    same_result(scaled, plain, f"{name} with weights x {factor}")


def slices(d: pd.DataFrame):
    """(key, rows) per distinct value of `a`, NULL last (the order of a by= result)."""
    keys = sorted(k for k in d["a"].dropna().unique())
    out = [(k, d[d["a"] == k]) for k in keys]
    if d["a"].isna().any():
        out.append((None, d[d["a"].isna()]))
    return out


@budget(30)
@given(d=binary_frames(), name=st.sampled_from(["auc", "gauc", "average_precision", "log_loss", "precision",
                                                 "f1", "roc_curve"]))
def test_by_slice_equals_the_slice_alone(d, name):
    weighted = "w" in d
    extra = {"threshold": 0.5} if name in ("precision", "f1") else {}
    got = call(name, d, weighted, by="a", **extra)
    expected = slices(d)
    if name == "roc_curve":  # rows per point, slices in order; a one-class slice has NaN rates
        keys = got["a"].drop_duplicates().tolist()
        assert [k if isinstance(k, str) else None for k in keys] == [k for k, _ in expected], keys
        for key, sub in expected:
            part = (got[got["a"] == key] if key is not None else got[got["a"].isna()]).drop(columns="a")
            if both_classes(sub, weighted):
                same_result(part.reset_index(drop=True), call(name, sub, weighted), f"roc_curve slice {key!r}")
            else:
                y, _, ones = arrays(sub, weighted)
                undefined = "tpr" if not (ones * y).sum() > 0 else "fpr"
                assert part[undefined].isna().all(), f"roc_curve slice {key!r}: {undefined} must be NaN\n{part}"
        return
    assert len(got) == len(expected), f"{name} by a: {len(got)} rows for {len(expected)} slices\n{got}"
    for row, (key, sub) in zip(got.itertuples(index=False), expected):
        assert (pd.isna(row.a) and key is None) or row.a == key, f"{name}: slice {row.a!r} where {key!r} expected"
        alone = value_or_nan(lambda: call(name, sub, weighted, **extra))
        assert close(getattr(row, name), alone), f"{name} slice {key!r}: {getattr(row, name)!r}, alone {alone!r}"


@budget(10)
@given(frames=ranking_frames(), k=st.integers(1, 15),
       name=st.sampled_from(["ndcg", "mean_average_precision", "mrr", "recall_at_k", "r_precision"]))
def test_ranking_by_slice_equals_the_slice_alone(frames, k, name):
    run, qrels = frames
    fn = getattr(sm, name)
    kwargs = {} if name == "r_precision" else {"k": k}
    got = fn(run, qrels, by="c", **kwargs)
    for row in got.itertuples(index=False):
        alone = value_or_nan(lambda: fn(run[run.c == row.c], qrels[qrels.c == row.c], **kwargs))
        assert close(getattr(row, name), alone), f"{name} slice {row.c}: {getattr(row, name)!r}, alone {alone!r}"
    assert sorted(got["c"]) == sorted(set(qrels["c"])), f"{name}: slices {list(got['c'])}"


# -- 5. a sample on SQLite -----------------------------------------------------------------------------

def sqlite_with(**frames) -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    for name, frame in frames.items():
        frame.to_sql(name, con, index=False)
    return con


@budget(12)
@given(d=binary_frames(max_size=40))
def test_sqlite_classification_matches_sklearn(d):
    weighted = "w" in d
    con = sqlite_with(preds=d)
    try:
        check_auc_family(d, weighted, con, "preds")
        check_scalar(lambda: call("log_loss", "preds", weighted, con), ref_log_loss(d, weighted), "log_loss")
        want = ref_gauc(d, weighted, "impressions")["gauc"]
        check_scalar(lambda: call("gauc", "preds", weighted, con), want, "gauc")
        how = {"threshold": 0.5}
        check_scalar(lambda: sm.precision("preds", con=con, **confusion_kwargs(how), **weight_of(weighted)),
                     ref_from_confusion("precision", d, weighted, how), "precision")
    finally:
        con.close()


@budget(15)
@given(data=st.data())
def test_sqlite_invalid_input_is_rejected(data):
    d, defect, col = data.draw(invalid_binary_frames())
    name = data.draw(st.sampled_from([m for m, uses in USES.items() if col in uses]))
    extra = {"threshold": 0.5} if name in ("precision", "f1") else {}
    con = sqlite_with(preds=d)  # NaN is written as NULL
    try:
        assert_rejected(lambda: call(name, "preds", True, con, **extra), repr(col), f"{name} with {defect} on SQLite")
    finally:
        con.close()


@budget(10)
@given(d=regression_frames(max_size=40))
def test_sqlite_regression_matches_sklearn(d):
    weighted = "w" in d
    con = sqlite_with(preds=d)
    try:
        for name in ("mse", "r2"):
            check_scalar(lambda: call(name, "preds", weighted, con), ref_regression(name, d, weighted), name)
    finally:
        con.close()


@budget(10)
@given(frames=ranking_frames(max_queries=4), k=st.integers(1, 15), chosen=MEASURE_CHOICE)
def test_sqlite_ranking_matches_pytrec_eval(frames, k, chosen):
    run, qrels = frames
    con = sqlite_with(run=run, qrels=qrels)
    try:
        check_ranking(run, qrels, k, "skip", chosen, con=con, data=("run", "qrels"))
    finally:
        con.close()


# -- 6. extreme weights -------------------------------------------------------------------------------

# Weights far from 1: the sums are finite, but a product of two of them (W_pos * W_neg, or a
# weight times a running sum) overflows a double from about 1e155 and underflows to 0 below about
# 1e-155. Every metric must give sklearn's value, as with weights near 1.
EXTREME_SCALES = [1e-300, 1e-200, 1e200, 1e300]


def extreme_weight_frame(scale):
    return pd.DataFrame({
        "y": [0, 1, 1, 0, 1, 0, 1, 0], "s": [0.1, 0.2, 0.3, 0.05, 0.2, 0.2, 0.0, 0.3],
        "p": [0.1, 0.2, 0.3, 0.0, 1.0, 0.6, 0.5, 0.7], "g": [1, 1, 1, 1, 2, 2, 2, 3],
        "t": [1.0, 2, 3, 4, 5, 6, 7, 8], "q": [1.5, 2, 3, 3, 5, 7, 6, 8],
        "w": scale * np.array([1, 2, 0.5, 3, 1, 0, 4, 1.5])})


@pytest.mark.parametrize("name", [
    "auc", "gini", "average_precision", "roc_curve", "pr_curve", "gauc", "log_loss", "brier_score", "precision",
    "recall", "f1", "accuracy", "confusion_matrix", "mae", "mse", "rmse", "r2"])
@pytest.mark.parametrize("scale", EXTREME_SCALES)
def test_extreme_weights_match_sklearn(scale, name):
    d = extreme_weight_frame(scale)
    how = {"threshold": 0.15}
    if name in ("auc", "gini", "average_precision", "roc_curve", "pr_curve"):
        refs = {"auc": lambda: ref_auc(d, True), "gini": lambda: 2 * ref_auc(d, True) - 1,
                "average_precision": lambda: ref_average_precision(d, True)}
        if name in refs:
            check_scalar(lambda: call(name, d, True), refs[name](), name)
        else:
            assert_columns_close(call(name, d, True), (ref_roc if name == "roc_curve" else ref_pr)(d, True), name)
    elif name == "gauc":
        for weighting in WEIGHTINGS:
            check_scalar(lambda: call(name, d, True, weighting=weighting), ref_gauc(d, True, weighting)["gauc"],
                         f"gauc {weighting}")
    elif name in ("log_loss", "brier_score"):
        check_scalar(lambda: call(name, d, True), (ref_log_loss if name == "log_loss" else ref_brier)(d, True), name)
    elif name == "confusion_matrix":
        got, want = sm.confusion_matrix(d, **confusion_kwargs(how), weight="w"), ref_confusion(d, True, how)
        assert all(close(got[k], want[k]) for k in want), (got, want)
    elif name in ("mae", "mse", "rmse", "r2"):
        check_scalar(lambda: call(name, d, True), ref_regression(name, d, True), name)
    else:
        check_scalar(lambda: call(name, d, True, threshold=0.15), ref_from_confusion(name, d, True, how), name)


# -- 5. the break-it pass's classes: mixed key types, TREC fields, command-line thresholds ---------------

@budget(40)
@given(frames=keyed_ranking_frames())
def test_keys_of_two_numeric_types_are_refused_never_compared_as_doubles(frames):
    """Query and item ids of one class (integer, float, text) in the run and the qrels give
    pytrec_eval's value; ids of two classes are refused: an integer id above 2^53 compared as a
    double is another id (2^53 + 1 is 2^53), and a query's judgments would be credited to another."""
    run, qrels, classes = frames
    mixed = any(classes["run", c] != classes["qrels", c] for c in ("query", "item"))
    try:
        got = sm.ndcg(run, qrels, gain="linear", missing="skip", per_query=True)
    except ColumnError as e:
        assert mixed and "must have the same type" in str(e), (classes, e)
        return
    assert not mixed, classes
    as_text = {name: {str(q): {} for q in frame["query"]} for name, frame in (("run", run), ("qrels", qrels))}
    for q, d, s in run.itertuples(index=False):
        as_text["run"][str(q)][str(d)] = float(s)
    for q, d, r in qrels.itertuples(index=False):
        as_text["qrels"][str(q)][str(d)] = int(r)
    want = pytrec_eval.RelevanceEvaluator(as_text["qrels"], {"ndcg"}).evaluate(as_text["run"])
    got = {str(q): v for q, v in zip(got["query"], got["ndcg"])}
    assert got.keys() == want.keys() and all(abs(got[q] - want[q]["ndcg"]) < 1e-12 for q in want), (got, want)


def _grade(field: str):
    """A qrels grade as sqlmetrics reads one (written apart from the code): ASCII digits with an optional
    sign, within 64 bits; anything else (0.5, 1e2, Unicode digits) is no grade."""
    digits = field[1:] if field[:1] in "+-" else field
    if not digits or any(c not in "0123456789" for c in digits):
        return None
    value = int(field)
    return value if -2 ** 63 <= value < 2 ** 63 else None


@budget(40)
@given(lines=trec_qrels_lines())
def test_trec_qrels_with_odd_numbers_are_read_or_refused_naming_the_line(tmp_path_factory, lines):
    """A qrels file is read with every grade a whole number, or refused naming its first line that
    is not one (of trec_eval's fields, at trec_eval's whitespace): never a grade rounded or read
    from Unicode digits, never an error without the line."""
    path = tmp_path_factory.mktemp("qrels") / "qrels.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected, bad = [], None
    for number, line in enumerate(lines, 1):
        fields = [f for f in re.split(r"[ \t\n\v\f\r]+", line) if f]
        if not fields or fields[0].startswith("#"):
            continue
        grade = _grade(fields[3]) if len(fields) >= 4 else None
        if grade is None:
            bad = number
            break
        expected.append((fields[2], grade))
    try:
        got = sm.TrecQrels(path)
        frame = sm.engine.DuckDBEngine()
        with frame.call(), frame.source(got) as source:
            read = frame.rows(source.relation.sql("duckdb"))
    except sm.SourceError as e:
        assert bad is not None and f"line {bad}:" in str(e), (lines, e)
        return
    assert bad is None, (lines, read)
    assert sorted((item, grade) for _, item, grade in read) == sorted(expected)


@budget(40)
@given(text=THRESHOLD_TEXTS, flag=st.sampled_from(["--min", "--max"]))
def test_cli_bounds_are_finite_numbers_or_a_usage_error(text, flag):
    """--min/--max: a finite number checks the value (exit 1 when it is outside), anything else (NaN,
    which no comparison crosses; infinities; text) is a usage error, exit 2."""
    from sqlmetrics.cli import main
    from sqlmetrics.demo import SAMPLE
    try:
        bound = float(text)
    except ValueError:
        bound = None
    code = main(["compute", "auc", str(SAMPLE), "--label", "clicked", "--score", "pctr", f"{flag}={text}"])
    if bound is None or not math.isfinite(bound):
        assert code == 2, (text, code)
        return
    value = skm.roc_auc_score(*pd.read_csv(SAMPLE)[["clicked", "pctr"]].T.values)
    outside = value < bound if flag == "--min" else value > bound
    assert code == (1 if outside else 0), (text, code, value)
