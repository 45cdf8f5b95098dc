"""Write the seeds of the dbt integration project: ``python integration_tests/make_expected.py``.

- ``seeds/predictions.csv``, ``seeds/run.csv``, ``seeds/qrels.csv``, ``seeds/run_baseline.csv``,
  ``seeds/interactions.csv`` (training events of the run's users), ``seeds/item_similarity.csv``,
  ``seeds/customers.csv`` (churn: right-censored durations with ties, a risk score): the inputs, drawn from a fixed
  random seed (score ties, weights with zeros, one-class users and a one-class country, a boolean
  copy of the label; a ranking run with tied integer scores, unjudged retrieved items, judged items
  never retrieved, queries without a relevant item, judged queries missing from the run, a run query
  nobody judged, a query attribute of the run only (market, which the qrels lack: a slice of the run), graded relevance 0-3, and item ids whose byte order differs from their
  alphabetical order: 'B' < 'a', 'd10' < 'd9', 'é' last); a second run of the same items with
  other scores, missing some queries of the first (for the paired comparisons).
- ``seeds/expected/expected_<model>.csv``: for each model under ``models/``, the values the
  reference libraries give on those inputs (scikit-learn for classification and regression,
  MLstatkit's DeLong test for the AUC intervals and the paired test, pytrec_eval, i.e. trec_eval,
  for ranking, scipy's ttest_rel and wilcoxon on their per-query and per-user values for the
  comparisons, the definitions of Microsoft Recommenders and RecBole for the beyond-accuracy
  metrics, whose packages do not run here; scikit-survival for the concordance index). sqlmetrics
  is never called here: the ``matches_expected`` test compares every model built by dbt with its file to 1e-9.

Each expected file has the model's key columns (``by`` columns, thresholds, bins, queries) and
the value columns the reference gives; the model may have more columns.
"""
from __future__ import annotations

import math
import warnings
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import fairlearn.metrics as fm
import ir_measures
import numpy as np
import pandas as pd
import pytrec_eval
import sklift.metrics as sklift
import sklearn.metrics as skm
from scipy import stats
from scipy.spatial import distance
from MLstatkit import Delong_test
from sklearn.calibration import calibration_curve
from sklearn.exceptions import UndefinedMetricWarning
from sksurv.metrics import concordance_index_censored, concordance_index_ipcw
from sksurv.util import Surv

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "seeds"
RNG_SEED = 20240605


# -- inputs ------------------------------------------------------------------------------------

def make_predictions(rng) -> pd.DataFrame:
    n_users = 40
    user_country = rng.choice(["de", "fr", "jp"], size=n_users)
    user_country[-2:] = "us"  # two users of a one-class country: AUC undefined (NULL) there
    rows = []
    for user in range(n_users):
        for _ in range(int(rng.integers(5, 25))):
            clicked = int(rng.random() < 0.2 + 0.015 * (user % 10))
            if user == 0:
                clicked = 1  # one-class users: excluded from GAUC
            if user in (1, n_users - 2, n_users - 1):
                clicked = 0
            pctr = float(np.clip(round(0.3 * clicked + rng.normal(0.35, 0.18), 2), 0, 1))  # ties
            rows.append({
                "user_id": user, "country": user_country[user], "clicked": clicked,
                "clicked_flag": bool(clicked), "pctr": pctr,
                "pctr_baseline": float(np.clip(round(pctr + rng.normal(0, 0.25), 2), 0, 1)),
                "weight": 0.0 if rng.random() < 0.05 else round(float(rng.random() * 2), 2),
                "revenue": round(float(rng.normal(10, 3)), 3),
            })
    frame = pd.DataFrame(rows)
    frame["predicted_revenue"] = (frame["revenue"] + rng.normal(0, 1.5, len(frame))).round(3)
    # the uplift metrics' 0/1 treatment, from a generator of its own: the other columns as before
    frame["treated"] = np.random.default_rng(RNG_SEED + 2).integers(0, 2, len(frame))
    return frame


ITEMS = [f"d{j}" for j in range(30)] + ["D7", "a", "B", "Zz", "e\u00e9"]


def make_ranking(rng) -> tuple[pd.DataFrame, pd.DataFrame]:
    run, qrels = [], []
    n_queries = 60
    for q in range(1, n_queries + 1):
        country = "de" if q % 3 else "jp"
        market = "north" if q % 4 else "south"
        items = [str(i) for i in rng.choice(ITEMS, size=int(rng.integers(2, 16)), replace=False)]
        if q % 11 != 5:  # some judged queries are missing from the run
            run += [(q, item, int(rng.integers(0, 5)), country, market) for item in items]  # tied scores
        judged = [i for i in items if rng.random() < 0.6]  # some retrieved items stay unjudged
        judged += [str(i) for i in rng.choice([i for i in ITEMS if i not in items], size=int(rng.integers(0, 4)),
                                             replace=False)]  # judged, never retrieved
        nothing = q % 9 == 4  # queries without a relevant item
        qrels += [(q, item, 0 if nothing else int(rng.choice([0, 0, 1, 2, 3])), country) for item in judged]
    run.append((n_queries + 1, "d1", 3, "de", "north"))  # a run query nobody judged
    return (pd.DataFrame(run, columns=["query_id", "item", "score", "country", "market"]),
            pd.DataFrame(qrels, columns=["query_id", "item", "relevance", "country"]))


CLASSES = ["ant", "bee", "cat", "dog", "Elk"]  # text classes whose byte order differs from their alphabetical order


def make_classes(rng) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Multi-class examples: a true and a predicted class (text; 'Elk' is predicted, never true), an
    ordinal grade and its prediction (for the weighted kappa), a weight; and the long table of class
    probabilities (percent, so that scores tie and each example's sum to exactly 1)."""
    rows, scores = [], []
    for example in range(1, 301):
        truth = int(rng.choice(4, p=[0.4, 0.3, 0.2, 0.1]))
        predicted = truth if rng.random() < 0.6 else int(rng.integers(0, 5))
        grade = int(rng.integers(0, 5))
        rows.append({"example_id": example, "country": "de" if example % 3 else "jp", "true_class": CLASSES[truth],
                     "predicted_class": CLASSES[predicted], "grade": grade,
                     "predicted_grade": int(np.clip(grade + rng.integers(-1, 2), 0, 4)),
                     "weight": 0.0 if rng.random() < 0.05 else round(float(rng.random() * 2), 2)})
        logits = rng.normal(0, 1, 4) + 1.2 * (np.arange(4) == truth)
        percent = np.floor(100 * np.exp(logits) / np.exp(logits).sum()).astype(int)
        percent[int(np.argmax(percent))] += 100 - percent.sum()
        scores += [{"example_id": example, "class": CLASSES[c], "score": percent[c] / 100, "true_class": CLASSES[truth],
                    "country": rows[-1]["country"]} for c in range(4)]
    return pd.DataFrame(rows), pd.DataFrame(scores)


# -- references: classification and regression (scikit-learn) ----------------------------------

def counts(frame: pd.DataFrame, label="clicked") -> dict:
    y = frame[label].astype(int)
    return {"n": len(frame), "n_pos": int(y.sum()), "n_neg": int(len(frame) - y.sum())}


def auc_of(frame, score="pctr", weight=None):
    y = frame["clicked"]
    if y.nunique() < 2:
        return np.nan
    return skm.roc_auc_score(y, frame[score], sample_weight=None if weight is None else frame[weight])


def delong_rows(frame) -> dict:
    """pctr against pctr_baseline by MLstatkit's DeLong test: both AUCs, pctr's 95% interval, z, p."""
    if frame["clicked"].nunique() < 2:
        return {"auc": np.nan, "ci_low": np.nan, "ci_high": np.nan, "other_auc": np.nan, "z": np.nan, "p_value": np.nan}
    z, p, _, ci, other_auc, auc, _ = Delong_test(frame["clicked"].to_numpy(), frame["pctr_baseline"].to_numpy(),
                                                 frame["pctr"].to_numpy(), alpha=0.95)
    return {"auc": auc, "ci_low": ci[0], "ci_high": ci[1], "other_auc": other_auc, "z": z, "p_value": p}


def by_country(frame: pd.DataFrame, row) -> pd.DataFrame:
    return pd.DataFrame([{"country": c, **row(part)} for c, part in frame.groupby("country")])


def gauc_row(frame, weighting):
    used, excluded, num, den = 0, 0, 0.0, 0.0
    for _, user in frame.groupby("user_id"):
        value = auc_of(user)
        if np.isnan(value):
            excluded += 1
            continue
        used += 1
        v = {"impressions": len(user), "clicks": user["clicked"].sum(), "uniform": 1}[weighting]
        num, den = num + v * value, den + v
    return {"gauc": num / den if den else np.nan, "n_groups_used": used, "n_groups_excluded": excluded,
            **counts(frame)}


def curve_counts(frame, weight=None):
    """(distinct scores descending, tp, fp, positives, negatives) of a curve: positive iff score >= t."""
    w = np.ones(len(frame)) if weight is None else frame[weight].to_numpy()
    y, s = frame["clicked"].to_numpy(), frame["pctr"].to_numpy()
    thresholds = np.unique(s)[::-1]
    tp = np.array([(w * y)[s >= t].sum() for t in thresholds])
    fp = np.array([(w * (1 - y))[s >= t].sum() for t in thresholds])
    return thresholds, tp, fp, (w * y).sum(), (w * (1 - y)).sum()


def roc_rows(frame):
    fpr, tpr, thresholds = skm.roc_curve(frame["clicked"], frame["pctr"], drop_intermediate=False)
    t, tp, fp, pos, neg = curve_counts(frame)
    assert np.array_equal(thresholds[1:], t) and np.isinf(thresholds[0])
    tp, fp = np.r_[0, tp], np.r_[0, fp]
    return pd.DataFrame({"threshold": thresholds, "fpr": fpr, "tpr": tpr, "tp": tp.astype(int),
                         "fp": fp.astype(int), "tn": (neg - fp).astype(int), "fn": (pos - tp).astype(int)})


def pr_rows(frame):
    precision, recall, thresholds = skm.precision_recall_curve(frame["clicked"], frame["pctr"])
    t, tp, fp, _, _ = curve_counts(frame)
    assert np.array_equal(thresholds[::-1], t)
    # sklearn: increasing thresholds, then the final point (precision 1, recall 0) without one
    return pd.DataFrame({"threshold": np.r_[np.inf, thresholds[::-1]], "precision": precision[::-1],
                         "recall": recall[::-1], "tp": np.r_[0, tp].astype(int), "fp": np.r_[0, fp].astype(int)})


def calibration_rows(frame, n_bins=5):
    y, p = frame["clicked"], frame["pctr"]
    fraction_positive, mean_predicted = calibration_curve(y, p, n_bins=n_bins)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    bins = np.searchsorted(edges[1:-1], p)  # sklearn's bin of each probability
    sizes = np.bincount(bins, minlength=n_bins)
    used = np.flatnonzero(sizes)
    return pd.DataFrame({"bin": used, "mean_predicted": mean_predicted, "fraction_positive": fraction_positive,
                         "n": sizes[used]})


def ece_of(frame, cal) -> float:
    """The expected calibration error of sklearn's calibration curve `cal` of `frame`: the bins' mean
    |fraction positive - mean predicted|, weighted by their rows."""
    return float((cal["n"] / len(frame) * (cal["fraction_positive"] - cal["mean_predicted"]).abs()).sum())


def report_of(frame, group, threshold=0.5, n_bins=5) -> pd.DataFrame:
    """sqlmetrics.report's rows (scores that are probabilities, a group): a metric's value as its
    reference gives it; n, and n_pos and n_neg where the metric's own result counts them (not ece's
    nor the metrics at the threshold)."""
    y, s = frame["clicked"], frame["pctr"]
    at = (s >= threshold).astype(int)
    values = {"auc": auc_of(frame), "gini": 2 * auc_of(frame) - 1, "average_precision": skm.average_precision_score(y, s),
              "gauc": gauc_row(frame, "impressions")["gauc"], "log_loss": skm.log_loss(y, s, labels=[0, 1]),
              "brier_score": skm.brier_score_loss(y, s), "calibration": s.sum() / y.sum(),  # predicted / observed
              "ece": ece_of(frame, calibration_rows(frame, n_bins)), "precision": skm.precision_score(y, at),
              "recall": skm.recall_score(y, at), "f1": skm.f1_score(y, at), "accuracy": skm.accuracy_score(y, at)}
    c = counts(frame)
    counted = lambda m, k: c[k] if m not in ("ece", "precision", "recall", "f1", "accuracy") else None  # noqa: E731
    return pd.DataFrame({"metric": list(values), "value": list(values.values()), "n": c["n"],
                         **{k: pd.array([counted(m, k) for m in values], dtype="Int64") for k in ("n_pos", "n_neg")}})


def histogram_bucket(s: pd.Series, bins: int, lower=0.0, upper=1.0) -> np.ndarray:
    """The bucket of each score: floor((s - lower) / (upper - lower) * bins), clamped to 0 .. bins-1."""
    return np.clip(np.floor((s.to_numpy() - lower) / (upper - lower) * bins), 0, bins - 1).astype(int)


def histogram_rows(frame, bins):
    bucket, y = histogram_bucket(frame["pctr"], bins), frame["clicked"].to_numpy()
    n = np.bincount(bucket, minlength=bins)
    used = np.flatnonzero(n)
    return pd.DataFrame({"bucket": used, "low": used / bins, "high": (used + 1) / bins, "n": n[used],
                         "n_pos": np.bincount(bucket, y, bins)[used].astype(int),
                         "w_pos": np.bincount(bucket, y, bins)[used], "w_neg": np.bincount(bucket, 1 - y, bins)[used]})


def classification(p: pd.DataFrame) -> dict[str, pd.DataFrame]:
    y, s = p["clicked"], p["pctr"]
    cal = calibration_rows(p)
    at_half, at_03 = (s >= 0.5).astype(int), (s >= 0.3).astype(int)
    tn, fp, fn, tp = skm.confusion_matrix(y, at_half).ravel()
    one = lambda **row: pd.DataFrame([row])  # noqa: E731
    return {
        "auc": one(auc=auc_of(p), **counts(p)),
        "auc_boolean_label": one(auc=auc_of(p), **counts(p, "clicked_flag")),
        "auc_weighted_by_country": by_country(p, lambda part: {"auc": auc_of(part, weight="weight"), **counts(part)}),
        "auc_ci_by_country": by_country(p, lambda part: {k: v for k, v in delong_rows(part).items()
                                                         if k in ("auc", "ci_low", "ci_high")}),
        "auc_compare": one(**{k: v for k, v in delong_rows(p).items() if k not in ("ci_low", "ci_high")}),
        # the interval's replicates are the engine's draws: the estimate is the metric's
        "bootstrap_auc_by_country": by_country(p, lambda part: {"estimate": auc_of(part)}),
        "gauc": one(**gauc_row(p, "impressions")),
        "gauc_clicks_by_country": by_country(p, lambda part: gauc_row(part, "clicks")),
        "gini": one(gini=2 * auc_of(p) - 1),
        "rela_impr": one(rela_impr=(auc_of(p) - 0.5) / (auc_of(p, "pctr_baseline") - 0.5) - 1,
                         auc=auc_of(p), base_auc=auc_of(p, "pctr_baseline")),
        "roc_curve": roc_rows(p),
        # 'us' has no positive: sklearn's tpr is NaN there (with a warning), the model's NULL
        "roc_curve_by_country": pd.concat([roc_rows(part).assign(country=c) for c, part in p.groupby("country")]),
        "pr_curve": pr_rows(p),
        "score_histogram_by_country": pd.concat([histogram_rows(part, 10).assign(country=c)
                                                 for c, part in p.groupby("country")]),
        # the countries' histograms merged: the AUC of the bucket index over all rows
        "histogram_auc": one(histogram_auc=skm.roc_auc_score(y, histogram_bucket(s, 10)), **counts(p)),
        "average_precision": one(average_precision=skm.average_precision_score(y, s)),
        "log_loss": one(log_loss=skm.log_loss(y, s, labels=[0, 1]), **counts(p)),
        "log_loss_weighted_by_country": by_country(p, lambda part: {"log_loss": skm.log_loss(
            part["clicked"], part["pctr"], sample_weight=part["weight"], labels=[0, 1])}),
        "brier_score": one(brier_score=skm.brier_score_loss(y, s)),
        "calibration_curve": cal,
        "ece": one(ece=ece_of(p, cal), n=len(p), n_bins_used=len(cal)),
        "confusion_matrix": one(tp=tp, fp=fp, tn=tn, fn=fn, n=len(p)),
        "precision_at_03": one(precision=skm.precision_score(y, at_03)),
        "recall_at_03": one(recall=skm.recall_score(y, at_03)),
        "f1_weighted": one(f1=skm.f1_score(y, at_half, sample_weight=p["weight"])),
        "accuracy": one(accuracy=skm.accuracy_score(y, at_half)),
        "report": report_of(p, group="user_id"),
        "mae": one(mae=skm.mean_absolute_error(p["revenue"], p["predicted_revenue"])),
        "rmse_weighted": one(rmse=skm.root_mean_squared_error(p["revenue"], p["predicted_revenue"],
                                                              sample_weight=p["weight"])),
        "r2_by_country": by_country(p, lambda part: {"r2": skm.r2_score(part["revenue"], part["predicted_revenue"])}),
        **regression_extras(p),
        **binary_extras(p),
    }


def binary_entropy(rate: float) -> float:
    return -(rate * np.log(rate) + (1 - rate) * np.log(1 - rate))


def gain_rows(frame: pd.DataFrame, n_bins: int = 10) -> pd.DataFrame:
    """Cumulative gains by score bins: a score's tie group goes whole to bin floor(n_bins * rows
    scoring higher / rows) + 1 (kds' deciles when scores are distinct); per bin, the rows at or
    above its lowest score."""
    y, s = frame["clicked"].to_numpy(), frame["pctr"].to_numpy()
    bin_of = {v: min(int(np.floor(n_bins * np.sum(s > v) / len(s))) + 1, n_bins) for v in np.unique(s)}
    bins = np.array([bin_of[v] for v in s])
    rows = []
    for b in sorted(set(bins)):
        top = s >= s[bins == b].min()
        share, gain = top.mean(), y[top].sum() / y.sum()
        rows.append({"bin": b, "share": share, "gain": gain, "lift": gain / share,
                     "bin_lift": y[bins == b].mean() / y.mean(), "n": int((bins == b).sum())})
    return pd.DataFrame(rows)


def highest_argmax(values: np.ndarray, thresholds: np.ndarray) -> int:
    """The point of the largest value (ties within 1e-12: the highest threshold)."""
    best = np.flatnonzero(values >= values.max() - 1e-12 * abs(values.max()))
    return int(best[np.argmax(thresholds[best])])


def binary_extras(p: pd.DataFrame) -> dict[str, pd.DataFrame]:
    y, s, w = p["clicked"], p["pctr"], p["weight"]
    one = lambda **row: pd.DataFrame([row])  # noqa: E731
    fpr, fnr, det_thresholds = skm.det_curve(y, s)
    roc_fpr, roc_tpr, roc_thresholds = skm.roc_curve(y, s, drop_intermediate=False)
    ks = highest_argmax(roc_tpr - roc_fpr, roc_thresholds)
    precision, recall, pr_thresholds = skm.precision_recall_curve(y, s)
    with np.errstate(invalid="ignore"):
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0)[:-1]
    best = highest_argmax(f1, pr_thresholds)
    gains = gain_rows(p)

    def normalized_entropy(part):
        rate = part["clicked"].mean()
        if rate in (0, 1):
            return {"normalized_entropy": np.nan}
        return {"normalized_entropy": skm.log_loss(part["clicked"], part["pctr"], labels=[0, 1]) / binary_entropy(rate)}

    return {
        "auc_max_fpr_03": one(auc=skm.roc_auc_score(y, s, max_fpr=0.3)),
        "det_curve": pd.DataFrame({"threshold": det_thresholds, "fpr": fpr, "fnr": fnr}),
        "normalized_entropy_by_country": by_country(p, normalized_entropy),
        "copc_weighted": one(copc=(w * y).sum() / (w * s).sum()),
        "ks_statistic": one(ks_statistic=(roc_tpr - roc_fpr)[ks], threshold=roc_thresholds[ks]),
        "best_threshold_f1": one(threshold=pr_thresholds[best], best_value=f1[best]),
        "gain_curve": gains[["bin", "share", "gain", "lift", "n"]],
        "lift_curve": gains[["bin", "share", "lift", "bin_lift", "n"]],
    }


def regression_extras(p: pd.DataFrame) -> dict[str, pd.DataFrame]:
    y, yhat, w = p["revenue"], p["predicted_revenue"], p["weight"]
    one = lambda **row: pd.DataFrame([row])  # noqa: E731
    return {
        "mape": one(mape=skm.mean_absolute_percentage_error(y, yhat)),
        "msle_weighted": one(msle=skm.mean_squared_log_error(y, p["pctr"], sample_weight=w)),  # predicted_revenue has values below -1
        "median_absolute_error_weighted_by_country": by_country(p, lambda part: {
            "median_absolute_error": skm.median_absolute_error(part["revenue"], part["predicted_revenue"],
                                                               sample_weight=part["weight"])}),
        "explained_variance": one(explained_variance=skm.explained_variance_score(y, yhat)),
        "max_error_by_country": by_country(p, lambda part: {"max_error": skm.max_error(part["revenue"],
                                                                                       part["predicted_revenue"])}),
        "d2_absolute_error_weighted": one(d2_absolute_error=skm.d2_absolute_error_score(y, yhat, sample_weight=w)),
    }


# -- references: multi-class (scikit-learn) ------------------------------------------------------

def per_class_rows(frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    """One row per class true or predicted in `frame`: the metric (zero_division=0) and the support."""
    labels = sorted(set(frame["true_class"]) | set(frame["predicted_class"]))
    precision, recall, f1, support = skm.precision_recall_fscore_support(
        frame["true_class"], frame["predicted_class"], labels=labels, average=None, zero_division=0)
    values = {"precision": precision, "recall": recall, "f1": f1}[metric]
    return pd.DataFrame({"class": labels, metric: values, "support": support})


def report_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """sklearn's classification_report as rows: the classes, then the micro, macro and weighted averages."""
    y, p = frame["true_class"], frame["predicted_class"]
    report = skm.classification_report(y, p, output_dict=True, zero_division=0)
    rows = [{"class": c, "average": None, **{k: report[c][k] for k in ("precision", "recall", "support")},
             "f1": report[c]["f1-score"]} for c in sorted(set(y) | set(p))]
    micro = skm.precision_recall_fscore_support(y, p, average="micro", zero_division=0)
    rows.append({"class": None, "average": "micro", "precision": micro[0], "recall": micro[1], "f1": micro[2],
                 "support": len(frame)})
    for average in ("macro", "weighted"):
        r = report[f"{average} avg"]
        rows.append({"class": None, "average": average, "precision": r["precision"], "recall": r["recall"],
                     "f1": r["f1-score"], "support": r["support"]})
    return pd.DataFrame(rows)


def multiclass(c: pd.DataFrame, scores: pd.DataFrame) -> dict[str, pd.DataFrame]:
    y, p = c["true_class"], c["predicted_class"]
    one = lambda **row: pd.DataFrame([row])  # noqa: E731
    probabilities = scores.pivot(index="example_id", columns="class", values="score").sort_index()
    truth = scores.groupby("example_id")["true_class"].first().sort_index()
    classes = list(probabilities.columns)
    by_country = lambda row: pd.DataFrame([{"country": k, **row(part)} for k, part in c.groupby("country")])  # noqa: E731
    return {
        "f1_macro_classes": one(f1=skm.f1_score(y, p, average="macro", zero_division=0)),
        "recall_weighted_classes": one(recall=skm.recall_score(y, p, average="weighted", sample_weight=c["weight"],
                                                               zero_division=0)),
        "precision_per_class_by_country": pd.concat([per_class_rows(part, "precision").assign(country=k)
                                                     for k, part in c.groupby("country")]),
        "multiclass_confusion_matrix": (c.groupby(["true_class", "predicted_class"]).size().rename("n")
                                        .reset_index()),
        "classification_report": report_rows(c),
        "balanced_accuracy": one(balanced_accuracy=skm.balanced_accuracy_score(y, p)),
        "cohen_kappa_quadratic": one(cohen_kappa=skm.cohen_kappa_score(c["grade"], c["predicted_grade"],
                                                                       weights="quadratic")),
        "mcc_by_country": by_country(lambda part: {"mcc": skm.matthews_corrcoef(part["true_class"],
                                                                                part["predicted_class"])}),
        "multiclass_auc_ovr_weighted": one(multiclass_auc=skm.roc_auc_score(
            truth, probabilities, multi_class="ovr", average="weighted", labels=classes)),
        "multiclass_auc_ovo": one(multiclass_auc=skm.roc_auc_score(truth, probabilities, multi_class="ovo",
                                                                   labels=classes)),
        "top_k_accuracy_2": one(top_k_accuracy=skm.top_k_accuracy_score(truth, probabilities, k=2, labels=classes)),
        "multiclass_log_loss": one(multiclass_log_loss=skm.log_loss(truth, probabilities, labels=classes)),
    }


# -- references: ranking (pytrec_eval) ---------------------------------------------------------

def ranking(run: pd.DataFrame, qrels: pd.DataFrame) -> dict[str, pd.DataFrame]:
    trec_run, trec_qrels = {}, {}
    for q, item, score in run[["query_id", "item", "score"]].itertuples(index=False):
        trec_run.setdefault(str(q), {})[item] = float(score)
    for q, item, relevance, _ in qrels.itertuples(index=False):
        trec_qrels.setdefault(str(q), {})[item] = int(relevance)
    measures = {"ndcg_cut.10", "map", "map_cut.5", "recip_rank", "P.5", "recall.10", "success.3", "Rprec", "gm_map",
                "relative_P.5", "bpref", "set_P", "set_recall", "set_F", "num_rel_ret"}
    results = pytrec_eval.RelevanceEvaluator(trec_qrels, measures).evaluate(trec_run)  # judged and in the run
    judged = qrels.groupby("query_id").agg(country=("country", "first"), top=("relevance", "max"))
    judged["n_relevant"] = qrels[qrels["relevance"] >= 1].groupby("query_id").size()
    judged["n_relevant"] = judged["n_relevant"].fillna(0).astype(int)
    judged["in_run"] = judged.index.isin(run["query_id"])

    def values(measure):
        """Per judged query: pytrec_eval's value, 0 for a judged query missing from the run (trec_eval -c)."""
        return pd.Series({q: results[str(q)][measure] if str(q) in results else 0.0 for q in judged.index})

    def by_market(measure, name):
        """Per market, a column of the run only: the judged queries of the run (one absent from it has
        no market, so none is missing)."""
        v, markets = values(measure), run.groupby("query_id")["market"].first()
        return pd.DataFrame([{"market": market, name: v[part.index].mean(), "n_queries": len(part), "n_missing": 0,
                              "n_empty": int((part["n_relevant"] == 0).sum())}
                             for market, part in judged[judged["in_run"]].groupby(markets)])

    def mean(measure, name, skip_missing=False):
        v, rows = values(measure), judged
        if skip_missing:
            v, rows = v[judged["in_run"]], judged[judged["in_run"]]
        return pd.DataFrame([{name: v.mean(), "n_queries": len(rows), "n_missing": int((~judged["in_run"]).sum()),
                              "n_empty": int((judged["n_relevant"] == 0).sum())}])

    # RBP (p = 0.9) and its residual, from Moffat & Zobel's definition (no installed library has them):
    # trec_eval's order, score then item id descending; graded as trec_eval 10's m_rbp.c (the grades
    # over the query's top grade when it is above 1)
    rbp, residual = {}, {}
    for q in judged.index:
        ranked = sorted(trec_run.get(str(q), {}).items(), key=lambda t: (t[1], t[0]), reverse=True)
        weights = [0.1 * 0.9 ** r for r in range(len(ranked))]
        grades = trec_qrels[str(q)]
        top = max([1, *grades.values()])
        rbp[q] = sum(w * max(grades.get(d, 0), 0) / top for w, (d, _) in zip(weights, ranked))
        residual[q] = sum(w for w, (d, _) in zip(weights, ranked) if d not in grades) + 0.9 ** len(ranked)
    # ir_measures Judged@5 (it breaks score ties by item id ascending; a judged query absent from the run: 0)
    judged_at_5 = {int(m.query_id): m.value for m in ir_measures.iter_calc(
        [ir_measures.Judged @ 5],
        pd.DataFrame({"query_id": qrels["query_id"].astype(str), "doc_id": qrels["item"], "relevance": qrels["relevance"]}),
        pd.DataFrame({"query_id": run["query_id"].astype(str), "doc_id": run["item"], "score": run["score"].astype(float)}))}

    ndcg = values("ndcg_cut_10")
    levels = [i / 10 for i in range(11)]
    iprec = trec_eval_10_iprec(trec_run, trec_qrels, judged, levels)  # (query, level) -> value
    in_run = judged[judged["in_run"]]
    p11 = pd.Series({q: np.mean([iprec[q, lev] for lev in levels]) for q in in_run.index})
    # gm_map: pytrec_eval's per-query ln(max(AP, 1e-5)), ln(1e-5) for a query missing from the run (trec_eval -c)
    logs = pd.Series({q: results[str(q)]["gm_map"] if str(q) in results else math.log(1e-5) for q in judged.index})
    return {
        "interpolated_precision_by_country": pd.DataFrame([
            {"country": c, "recall_level": lev, "interpolated_precision": np.mean([iprec[q, lev] for q in part.index]),
             "n_queries": len(part)} for c, part in judged.groupby("country") for lev in levels]),
        "precision_11pt": pd.DataFrame([{"precision_11pt": p11.mean(), "n_queries": len(in_run)}]),
        "gm_map": pd.DataFrame([{"gm_map": math.exp(logs.mean()), "n_queries": len(judged),
                                 "n_missing": int((~judged["in_run"]).sum())}]),
        "bpref": mean("bpref", "bpref"),
        "set_precision": mean("set_P", "set_precision"),
        "set_recall": mean("set_recall", "set_recall", skip_missing=True),
        "set_f": mean("set_F", "set_f"),
        "num_rel_ret": pd.DataFrame([{"num_rel_ret": int(values("num_rel_ret").sum()), "n_queries": len(judged),
                                      "n_missing": int((~judged["in_run"]).sum()),
                                      "n_empty": int((judged["n_relevant"] == 0).sum())}]),
        "rbp": pd.DataFrame([{"rbp": np.mean(list(rbp.values())), "residual": np.mean(list(residual.values())),
                              "n_queries": len(judged)}]),
        "judged_at_5": pd.DataFrame([{"judged_at_k": np.mean(list(judged_at_5.values())), "n_queries": len(judged),
                                      "n_empty": 0}]),
        "ndcg_at_10": mean("ndcg_cut_10", "ndcg", skip_missing=True),
        "ndcg_at_10_by_country": pd.DataFrame([{"country": c, "ndcg": ndcg[part.index].mean(),
                                                "n_queries": len(part)} for c, part in judged.groupby("country")]),
        "ndcg_at_10_by_market_in_run": by_market("ndcg_cut_10", "ndcg"),
        "ndcg_at_10_per_query": pd.DataFrame({"query_id": judged.index, "ndcg": ndcg.to_numpy(),
                                              "n_relevant": judged["n_relevant"].to_numpy()}),
        "map": mean("map", "mean_average_precision"),
        "map_at_5": mean("map_cut_5", "mean_average_precision", skip_missing=True),
        "mrr": mean("recip_rank", "mrr"),
        "precision_at_5": mean("P_5", "precision_at_k"),
        "recall_at_10": mean("recall_10", "recall_at_k"),
        "recall_at_10_by_market_in_run": by_market("recall_10", "recall_at_k"),
        "hit_rate_at_3": mean("success_3", "hit_rate"),
        "relative_precision_at_5": mean("relative_P_5", "relative_precision"),
        "r_precision": mean("Rprec", "r_precision"),
    }


def trec_eval_10_iprec(trec_run: dict, trec_qrels: dict, judged: pd.DataFrame, levels: list) -> dict:
    """(judged query, level) -> trec_eval 10's iprec_at_recall, from pytrec_eval (trec_eval 9). The
    two interpolate alike and differ only in the relevant items k a level L asks for of a query with
    R: lround(L * R) in trec_eval 10, (long) (L * R + 0.9) in trec_eval 9; so pytrec_eval is asked at
    the levels j / R, which trec_eval 9 maps to j items, and L takes the value at j = lround(L * R)
    (halves up). 0 for a query without relevant items or missing from the run (trec_eval -c)."""
    out = {}
    for n_relevant, part in judged[judged["in_run"] & (judged["n_relevant"] > 0)].groupby("n_relevant"):
        at = [j / n_relevant for j in range(n_relevant + 1)]
        names = [f"iprec_at_recall_{level:.2f}" for level in at]
        assert len(set(names)) == len(names), "pytrec_eval names levels by two decimals"
        queries = [str(q) for q in part.index]
        res = pytrec_eval.RelevanceEvaluator({q: trec_qrels[q] for q in queries},
                                             {"iprec_at_recall." + ",".join(map(repr, at))}).evaluate(
            {q: trec_run[q] for q in queries})
        for q in part.index:
            for level in levels:
                j = int(Decimal(level * n_relevant).quantize(Decimal(1), rounding=ROUND_HALF_UP))
                out[q, level] = res[str(q)][names[j]]
    return {(q, level): out.get((q, level), 0.0) for q in judged.index for level in levels}


# -- references: beyond accuracy (Microsoft Recommenders and RecBole, from their definitions) ----

def make_interactions(rng, run: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Training events (query_id, item) of the run's users, popularity-skewed, none of them an item of
    the user's own list (serendipity), some users without any; an event of another user on every
    item (so that every recommended item has a count); and item similarities in one direction."""
    weights = 1.0 / np.arange(1, len(ITEMS) + 1)
    rows = []
    for q, items in run.groupby("query_id")["item"]:
        fresh = [i for i in ITEMS if i not in set(items)]
        p = weights[[ITEMS.index(i) for i in fresh]]
        if q % 4:
            rows += [(q, str(i)) for i in rng.choice(fresh, size=int(rng.integers(1, 8)), p=p / p.sum())]
    rows += [(1000 + j, i) for j, i in enumerate(ITEMS)]
    pairs = [(a, b, round(float(rng.random()), 2)) for x, a in enumerate(ITEMS) for b in ITEMS[x + 1:]
             if rng.random() < 0.3]
    return (pd.DataFrame(rows, columns=["query_id", "item"]),
            pd.DataFrame(pairs, columns=["item_a", "item_b", "similarity"]))


def top_k(run: pd.DataFrame, k) -> pd.DataFrame:
    """Each query's list by score descending, ties by item id as bytes descending, cut at k."""
    ordered = run.assign(key=run["item"].map(str.encode)).sort_values(
        ["query_id", "score", "key"], ascending=[True, False, False], kind="stable")
    return ordered.groupby("query_id").head(k) if k else ordered


def beyond_accuracy(run: pd.DataFrame, train: pd.DataFrame, similarity: pd.DataFrame) -> dict[str, pd.DataFrame]:
    counts = train.groupby("item").size()
    sim = {frozenset((a, b)): s for a, b, s in similarity.itertuples(index=False)}
    history = train.groupby("query_id")["item"].apply(list)

    def novelty(reco):  # Microsoft Recommenders novelty
        return {"novelty": float((-np.log2(counts[reco["item"]] / len(train))).mean()), "n_recommendations": len(reco)}

    def serendipity(reco):  # Microsoft Recommenders serendipity, relevance 1
        users = [np.mean([1 - np.mean([sim.get(frozenset((i, h)), 0.0) for h in history[u]]) for i in rows["item"]])
                 for u, rows in reco.groupby("query_id") if u in history.index]
        return {"serendipity": np.mean(users), "n_users": len(users),
                "n_without_history": reco["query_id"].nunique() - len(users)}

    def entropy(reco):  # Microsoft Recommenders distributional_coverage
        p = reco.groupby("item").size() / len(reco)
        return {"distributional_coverage": float(-(p * np.log2(p)).sum()), "n_recommendations": len(reco),
                "n_covered": len(p)}

    def gini(reco, n):  # RecBole GiniIndex
        c = np.sort(reco.groupby("item").size().to_numpy())
        i = np.arange(n - len(c) + 1, n + 1)
        return {"gini_index": float(np.sum((2 * i - n - 1) * c) / len(reco) / n), "n_covered": len(c), "n_items": n}

    def per_user(reco, value):  # RecBole's mean over users of a mean over the list
        return np.mean([np.mean([value(i) for i in rows["item"]]) for _, rows in reco.groupby("query_id")])

    tail = set(counts[counts <= 2].index)  # RecBole TailPercentage, tail_ratio = 2: a count threshold
    top2, top5, top10 = top_k(run, 2), top_k(run, 5), top_k(run, 10)
    users = top10["query_id"].nunique()
    return {
        "novelty_at_10": pd.DataFrame([novelty(top10)]),
        "serendipity_at_5_by_country": pd.DataFrame([{"country": c, **serendipity(part)}
                                                     for c, part in top5.groupby("country")]),
        "distributional_coverage_at_5": pd.DataFrame([entropy(top5)]),
        "gini_index_at_5": pd.DataFrame([gini(top5, 40)]),
        "average_popularity_at_10": pd.DataFrame([{"average_popularity": per_user(top10, lambda i: counts.get(i, 0)),
                                                   "n_users": users}]),
        "tail_share_at_10": pd.DataFrame([{"tail_share": per_user(top10, lambda i: i in tail), "n_users": users,
                                           "n_tail_items": len(tail)}]),
        # Microsoft Recommenders catalog_coverage: distinct recommended items / distinct training items
        "catalog_coverage_at_2": pd.DataFrame([{"coverage": top2["item"].nunique() / train["item"].nunique(),
                                                "n_covered": top2["item"].nunique(), "n_items": train["item"].nunique()}]),
    }


def baseline_run(run: pd.DataFrame) -> pd.DataFrame:
    """The same items with other tied scores, without the queries q % 13 == 0."""
    scores = (run["score"] * 7 + run["item"].str.len()) % 5
    return run.assign(score=scores)[run["query_id"] % 13 != 0].reset_index(drop=True)


def holm(p: np.ndarray) -> np.ndarray:
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1, np.maximum.accumulate((len(p) - np.arange(len(p))) * p[order]))
    return adjusted[np.argsort(order)]


def paired_row(a, b, test) -> dict:
    """scipy's paired test of per-unit values a and b, as sm.compare's columns. Differences equal
    but for rounding are equal (sm.compare compares them in units of 1e-12)."""
    t = stats.ttest_rel(a, b)
    ci = t.confidence_interval(0.95)
    row = {"estimate": a.mean(), "other_estimate": b.mean(), "difference": (a - b).mean(),
           "std_error": stats.sem(a - b), "ci_low": ci.low, "ci_high": ci.high, "n_units": len(a)}
    if test == "paired_t":
        return row | {"statistic": t.statistic, "p_value": t.pvalue}
    w = stats.wilcoxon(np.round(a - b, 12))
    return row | {"statistic": w.statistic, "p_value": w.pvalue}


def comparisons(p: pd.DataFrame, run: pd.DataFrame, baseline: pd.DataFrame, qrels: pd.DataFrame) -> dict:
    users = [(auc_of(user), auc_of(user, "pctr_baseline")) for _, user in p.groupby("user_id")]
    a, b = np.array([u for u in users if not np.isnan(u[0])]).T
    ndcg, other = (ranking(r, qrels)["ndcg_at_10_per_query"].set_index("query_id")["ndcg"] for r in (run, baseline))
    countries = qrels.groupby("query_id")["country"].first()
    by_country = pd.DataFrame([{"country": c, **paired_row(ndcg[q].to_numpy(), other[q].to_numpy(), "paired_t")}
                               for c, q in countries.groupby(countries).groups.items()])
    return {"compare_gauc_wilcoxon": pd.DataFrame([paired_row(a, b, "wilcoxon")]),
            "compare_ndcg_by_country": by_country.assign(p_value_holm=holm(by_country["p_value"].to_numpy()))}


def fairness(p: pd.DataFrame) -> dict[str, pd.DataFrame]:
    # fairlearn's value (a country has no clicks: its true positive rate is undefined, its selection rate not)
    dpd = fm.demographic_parity_difference(p["clicked"], (p["pctr"] >= 0.5).astype(int), sensitive_features=p["country"],
                                           sample_weight=p["weight"])
    # group_disparity: fairlearn's MetricFrame of scikit-learn's mean absolute error, weighted
    mf = fm.MetricFrame(metrics=skm.mean_absolute_error, y_true=p["revenue"], y_pred=p["predicted_revenue"],
                        sensitive_features=p["country"], sample_params={"sample_weight": p["weight"]})
    mae = {"difference": mf.difference(method="to_overall"), "ratio": mf.ratio(method="to_overall"),
           "group_min": mf.group_min(), "group_max": mf.group_max(), "overall": mf.overall, "n_groups": len(mf.by_group)}
    return {"demographic_parity_difference": pd.DataFrame([{"demographic_parity_difference": dpd}]),
            "group_disparity_mae_by_country": pd.DataFrame([mae])}


def make_survival(rng) -> pd.DataFrame:
    """Right-censored durations in days (ties in time, censoring at an event's time too), a risk score
    with ties, a cohort slice."""
    n = 300
    risk = np.round(rng.normal(size=n), 1)
    days = np.ceil(rng.exponential(60 * np.exp(-0.5 * risk))).astype(int)
    return pd.DataFrame({"customer_id": np.arange(n), "cohort": rng.choice(["spring", "autumn"], n), "days": days,
                         "churned": (rng.random(n) >= 0.35).astype(int), "risk": risk})


def survival(s: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """scikit-survival's concordance_index_censored (Harrell's C) of each cohort, with its counts, and its
    concordance_index_ipcw (Uno's C up to day 90, each cohort its own censoring estimate)."""
    rows, uno = [], []
    for cohort, part in s.groupby("cohort"):
        c, concordant, discordant, tied_risk, _ = concordance_index_censored(
            part["churned"].astype(bool).to_numpy(), part["days"].to_numpy(), part["risk"].to_numpy())
        rows.append({"cohort": cohort, "concordance_index": c, "concordant": concordant, "discordant": discordant,
                     "tied_risk": tied_risk})
        y = Surv.from_arrays(part["churned"].astype(bool).to_numpy(), part["days"].to_numpy())
        uno.append({"cohort": cohort, "concordance_index_ipcw": concordance_index_ipcw(y, y, part["risk"].to_numpy(),
                                                                                     tau=90)[0]})
    return {"concordance_index_by_cohort": pd.DataFrame(rows), "concordance_index_ipcw_by_cohort": pd.DataFrame(uno)}


def uplift(p: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """scikit-uplift's values (pctr as the predicted uplift; its tie groups are one point in both).
    A country without clicks scikit-uplift refuses (its check_is_binary): no perfect curve above the
    random line, undefined (NULL) there."""
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_country = [{"country": c, "qini_auc": float(sklift.qini_auc_score(g["clicked"], g["pctr"], g["treated"]))
                       if g["clicked"].nunique() == 2 else float("nan")} for c, g in p.groupby("country")]
        auuc = float(sklift.uplift_auc_score(p["clicked"], p["pctr"], p["treated"]))
    return {"qini_auc_by_country": pd.DataFrame(by_country), "uplift_auc": pd.DataFrame([{"uplift_auc": auuc}])}


def make_current_predictions(rng, p: pd.DataFrame) -> pd.DataFrame:
    """The drift metrics' current window: a sample of the predictions with the scores moved up (ties kept,
    two decimals), revenue missing in some rows, and no row of the smallest country (an empty bin)."""
    current = p[p["country"] != "us"].sample(n=300, random_state=rng.integers(2 ** 31)).reset_index(drop=True)
    current["pctr"] = np.clip(current["pctr"] + rng.choice([0.0, 0.05, 0.1], len(current)), 0, 1).round(2)
    current.loc[rng.random(len(current)) < 0.05, "revenue"] = None
    return current


def quantile_bins(x: np.ndarray, values: np.ndarray, n_bins: int) -> np.ndarray:
    """The bin of each value among the reference x's quantile cuts: the smallest value whose share at or
    below it reaches j / n_bins (numpy.quantile's inverted_cdf, exactly), a bin from its cut on."""
    ordered = np.sort(x)
    cuts = np.unique([ordered[-(-j * len(x) // n_bins) - 1] for j in range(1, n_bins)])
    return np.searchsorted(cuts, values, "right")


def drift(p: pd.DataFrame, current: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """scipy.stats' two-sample statistics of the numeric columns, and the binned statistics of them
    (10 quantile bins of the reference) and of the country by category, from scipy's entropy,
    jensenshannon, chisquare and power_divergence, with Evidently 0.4.40's empty-bin rule (an empty bin's
    share: the window's smallest share / 10^6 if at most 10^-4, else 10^-4)."""
    rows = []
    for index, column in enumerate(["pctr", "revenue", "country"], start=1):
        x, y = p[column].dropna().to_numpy(), current[column].dropna().to_numpy()
        row = {"column_index": index, "n_reference": len(x), "n_current": len(y)}
        if column != "country":
            _, ties = np.unique(np.concatenate([x, y]), return_counts=True)
            row |= {"ks": stats.ks_2samp(x, y).statistic, "wasserstein": stats.wasserstein_distance(x, y),
                    "energy": stats.energy_distance(x, y), "reference_std": np.std(x),
                    "mannwhitney_u": stats.mannwhitneyu(x, y).statistic, "tie_term": float(np.sum(ties ** 3 - ties)),
                    "cramervonmises": stats.cramervonmises_2samp(x, y).statistic}
            x, y = quantile_bins(x, x, 10), quantile_bins(x, y, 10)
        keys = sorted(set(x) | set(y))
        o_x, o_y = np.array([np.sum(x == k) for k in keys]), np.array([np.sum(y == k) for k in keys])
        sp, sq = o_x / len(x), o_y / len(y)
        fill = [np.where(s > 0, s, s[s > 0].min() / 1e6 if s[s > 0].min() <= 1e-4 else 1e-4) for s in (sp, sq)]
        expected = o_x * len(y) / len(x)
        row |= {"psi": np.sum((fill[0] - fill[1]) * np.log(fill[0] / fill[1])),
                "kl_divergence": stats.entropy(*fill), "jensenshannon": distance.jensenshannon(sp, sq),
                "hellinger": np.sqrt(1 - min(1.0, np.sum(np.sqrt(sp * sq)))), "total_variation": np.abs(sp - sq).sum() / 2,
                "chisquare": stats.chisquare(o_y, expected).statistic,
                "g_test": stats.power_divergence(o_y, expected, lambda_="log-likelihood").statistic,
                "n_bins": len(keys)}
        rows.append(row)
    return {"drift_statistics_of_the_scores": pd.DataFrame(rows)}


def write(seeds: Path = SEEDS) -> None:
    """Write the input and expected-value seeds under `seeds` (replacing stale expected files)."""
    rng = np.random.default_rng(RNG_SEED)
    predictions = make_predictions(rng)
    run, qrels = make_ranking(rng)
    baseline = baseline_run(run)
    classes, class_scores = make_classes(rng)
    interactions, item_similarity = make_interactions(np.random.default_rng(RNG_SEED + 1), run)
    customers = make_survival(np.random.default_rng(RNG_SEED + 2))
    predictions_current = make_current_predictions(np.random.default_rng(RNG_SEED + 3), predictions)
    expected_dir = seeds / "expected"
    expected_dir.mkdir(parents=True, exist_ok=True)
    inputs = {"predictions": predictions, "run": run, "qrels": qrels, "run_baseline": baseline, "classes": classes,
              "class_scores": class_scores, "interactions": interactions, "item_similarity": item_similarity,
              "customers": customers, "predictions_current": predictions_current}
    for name, frame in inputs.items():
        frame.to_csv(seeds / f"{name}.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # the one-class country's tpr is NaN
        expected = {**classification(predictions), **multiclass(classes, class_scores), **ranking(run, qrels),
                    **comparisons(predictions, run, baseline, qrels),
                    **beyond_accuracy(run, interactions, item_similarity), **fairness(predictions),
                    **survival(customers), **uplift(predictions), **drift(predictions, predictions_current)}
    models = {p.stem for p in (HERE / "models").rglob("*.sql")}
    assert set(expected) == models, (f"models without expected values: {sorted(models - set(expected))}; "
                                     f"expected values without a model: {sorted(set(expected) - models)}")
    for stale in set(expected_dir.glob("*.csv")) - {expected_dir / f"expected_{m}.csv" for m in expected}:
        stale.unlink()
    for model, frame in sorted(expected.items()):
        frame.to_csv(expected_dir / f"expected_{model}.csv", index=False)
    print(f"{len(inputs)} input seeds and {len(expected)} expected-value seeds written under {seeds}")


if __name__ == "__main__":
    write()
