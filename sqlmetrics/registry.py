"""The metric catalogue: one declarative entry per metric, the single place a metric is registered.

Each entry names its template under ``sql/`` (a Jinja macro of the same name), its parameters,
its output columns and its reference. The entry drives the public function ``sm.<name>``,
``sm.render``, the docstrings and the registry-wide tests.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Callable, Literal

from . import consistency, measures as measure_strings
from .plans import ParallelWhenDistributed, RankWhenScoresDistinct

from .errors import ParameterError, UnknownMetricError
from .params import (AVERAGE, BASE_SCORE, BETA, BINARY_PREDICTION, BY, CLASS_LABEL, CLASS_PREDICTION, EMPTY, GAIN,
                     GROUP, ITEM, K, K_REQUIRED, LABEL, LOG_PREDICTION, LOG_TARGET, MISSING, OPT_SCORE, PREDICTION,
                     POS_LABEL, PROBABILITY, QRELS, QRELS_COLUMNS, QUERY, RANKING_BY, RECALL_LEVELS, RELEVANCE, RELEVANCE_THRESHOLD, RUN_SCORE,
                     SCORE, TARGET, THRESHOLD, TIES, TIES_ORDER, WEIGHT, WEIGHTING, ZERO_DIVISION, Param, require_word)
from .params import CLUSTER, CONFIDENCE, MAX_POINTS, N_BINS, N_BOOT, N_RESAMPLES, SEED, STRATEGY, TEST
from .params import (CLASS_COLUMN, CLASS_PROBABILITY, CLASS_SCORE, EXAMPLE, EXAMPLE_WEIGHT, TRUE_CLASS,
                     TRUE_CLASSES)

#: what a metric returns: "scalar" a float, "record" a dict, "curve" a DataFrame
Kind = Literal["scalar", "record", "curve"]
#: the plots the command line draws (sqlmetrics.plots), each of one curve metric
Plot = Literal["roc", "pr", "calibration"]


@dataclass(frozen=True)
class Metric:
    name: str
    template: str  # file under sql/ defining a macro called `name`
    kind: Kind
    params: tuple[Param, ...]
    outputs: tuple[str, ...]  # result columns, after the `by` columns
    summary: str
    formula: str
    reference: str
    example: str  # doctest, run by the test suite
    undefined: str = ""  # why the value can be missing, shown when a scalar/curve is undefined
    defined_by: tuple[str, ...] = ()  # a record's columns whose NULL means it is undefined
    across_slices: tuple[str, ...] = ()  # columns only a result with `by` has, computed across its slices
    one_of: tuple[str, ...] = ()  # exactly one of these parameters must be given
    #: how the template's `plan` argument is chosen (a parallel plan on distributed engines, and
    #: for the AUC family from the data too), or None: one plan
    plan: ParallelWhenDistributed | None = None
    per_query: bool = False  # ranking: `per_query=True` returns the value of every query
    unique: tuple[str, ...] = ()  # key parameters that must identify a row (duplicates are an error)
    aliases: tuple[str, ...] = ()  # other names the metric answers to (sm.map, sqlmetrics show map)
    plot: Plot | None = None  # the plot drawn from this curve
    #: takes `average`: other than 'binary', its label and prediction are classes of any type (role
    #: 'class'), and average=None returns one row per class (class, the metric, support)
    averaged: bool = False
    #: checks across the parameters and relations, run before the metric (sqlmetrics.consistency)
    checks: tuple[Callable[[dict, dict], list], ...] = ()
    #: a scalar that is a count: returned as an int (its columns are BIGINT)
    count: bool = False

    def __post_init__(self):
        require_word(f"metric {self.name!r}", "kind", self.kind, Kind)
        if self.plot is not None:
            require_word(f"metric {self.name!r}", "plot", self.plot, Plot)

    @property
    def value_columns(self) -> tuple[str, ...]:
        """Columns whose NULL means 'undefined' (raised for an unsliced call)."""
        return {"scalar": (self.name,), "curve": self.outputs[1:3], "record": self.defined_by}[self.kind]

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)


_AUC_COUNTS = ("n", "n_pos", "n_neg")
_RANK_WHEN_DISTINCT = RankWhenScoresDistinct()
_PARALLEL = ParallelWhenDistributed()
_CONFUSION = ("tp", "fp", "tn", "fn", "n")
_CONFUSION_PARAMS = (LABEL, OPT_SCORE, THRESHOLD, BINARY_PREDICTION, WEIGHT, BY)
_ONE_CLASS = "it needs both positive and negative labels"


def _confusion_metric(name, formula, summary, example, undefined, extra=(), reference=None):
    return Metric(
        name=name, template=f"classification/{name}.sql", kind="scalar",
        params=_CONFUSION_PARAMS + tuple(extra), outputs=(name,) + _CONFUSION,
        summary=summary, formula=formula,
        reference=reference or "sklearn.metrics (precision_score, recall_score, fbeta_score, accuracy_score)",
        example=example, undefined=undefined, one_of=("score", "prediction"), averaged=AVERAGE in extra)


# Multi-class from labels: averages over the classes (sklearn.metrics.precision_recall_fscore_support)
_AVERAGED = (AVERAGE, ZERO_DIVISION)
_AVERAGES = ("; with average='macro' | 'micro' | 'weighted' (label and prediction are then classes of any type): "
             "the ratio of each class against the rest (the classes true or predicted in the data), averaged "
             "over the classes (macro), weighted by their support (weighted), or of the counts pooled over the "
             "classes (micro); tp, fp, tn, fn are then the pooled counts; average=None: one row per class "
             "(class, the metric, support).")
_PRF_REFERENCE = ("sklearn.metrics ({}_score; with average: precision_recall_fscore_support(y, y_pred, "
                  "average=..., zero_division=..., sample_weight=w))")
#: classes in a frame (after _DEMO's import, or in _CLASS_DEMO)
_CLASS_ROWS = (">>> df = pd.DataFrame({'y': ['ant', 'ant', 'bee', 'bee', 'cat', 'cat'],\n"
               "...                    'p': ['ant', 'bee', 'bee', 'bee', 'cat', 'ant']})\n")
_CLASS_DEMO = ">>> import pandas as pd, sqlmetrics as sm\n" + _CLASS_ROWS
_NEVER = ("; averaged over classes, a class it weighs is 0/0 (never predicted, or never true): pass zero_division=0 "
          "or 1 to count such a class as that value, or zero_division=float('NaN') to leave it out of the average")


# Ranking: the parameters every TREC-style metric shares, and the counts of its summary row.
_RUN = (QRELS, QUERY, ITEM, RUN_SCORE, RELEVANCE) + QRELS_COLUMNS
_POLICIES = (RELEVANCE_THRESHOLD, MISSING, EMPTY, RANKING_BY)
_QUERY_COUNTS = ("n_queries", "n_missing", "n_empty")
_NO_RELEVANT = "no evaluated query has a relevant item"


def _ranking_metric(name, params, formula, summary, reference, example, undefined=_NO_RELEVANT,
                    outputs=_QUERY_COUNTS, template=None, one_of=(), aliases=(), checks=(), count=False):
    return Metric(
        name=name, template=template or f"ranking/{name}.sql", kind="scalar", params=params,
        outputs=(name,) + outputs, summary=summary, formula=formula, reference=reference, example=example,
        undefined=undefined, per_query=True, unique=("query", "item"), one_of=one_of, aliases=aliases,
        checks=checks, count=count)


_RANK_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
              ">>> run = pd.DataFrame({'query': 1, 'item': list('abcde'), 'score': [5, 4, 3, 2, 1]})\n"
              ">>> qrels = pd.DataFrame({'query': 1, 'item': list('abcdefg'),\n"
              "...                       'relevance': [5, 3, 2, 1, 2, 4, 0]})\n")
_BINARY_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
                ">>> run = pd.DataFrame({'query': [1] * 6 + [2] * 3, 'item': list('abcdefabc'),\n"
                "...                     'score': [6, 5, 4, 3, 2, 1, 3, 2, 1],\n"
                "...                     'relevance': [1, 0, 1, 0, 1, 0, 0, 1, 0]})\n")

_NO_WEIGHT = "the data has no rows (or zero total weight)"


# The list metrics that need no judgments: item similarities (ils, serendipity), the catalogue (coverage,
# gini_index), the popularity of items in the training data (novelty, average_popularity, tail_share).
_SIMILARITY = Param("similarity", "relation", "item similarities: a table with columns item_a, item_b, similarity "
                    "(either direction is looked up; missing pairs count 0).",
                    relation_columns=(("item_a", "key"), ("item_b", "key"), ("similarity", "numeric")))
_N_ITEMS = Param("n_items", "int", "catalogue size.", default=None, low=1)
_ITEMS = Param("items", "relation", "catalogue table (distinct values of its `item` column are counted).",
               default=None, relation_columns=(("{item}", "key"),))
_INTERACTIONS = Param("interactions", "relation", "the training interactions, one row per (user, item) event, with "
                      "the run's item column: an item's popularity count is its number of rows, p(i) its share of "
                      "the rows (or give popularity).", default=None, relation_columns=(("{item}", "key"),))
_POPULARITY = Param("popularity", "relation", "the popularity counts instead of interactions: a table with the run's "
                    "item column and a column `count` (>= 0), one row per item; p(i) = count / the sum of the counts.",
                    default=None, relation_columns=(("{item}", "key"), ("count", "count")))
_CATALOGUE_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
                   ">>> run = pd.DataFrame({'query': [1, 1, 2, 2], 'item': ['a', 'b', 'a', 'c'],\n"
                   "...                     'score': [2, 1, 2, 1]})\n")
_POPULARITY_DEMO = (_CATALOGUE_DEMO
                    + ">>> train = pd.DataFrame({'query': [3, 3, 4, 4, 5, 5, 6, 6], "
                      "'item': ['a', 'b', 'a', 'd', 'a', 'd', 'a', 'c']})\n")
_NO_LISTS = "the run has no rows"



def _regression_metric(name, summary, formula, ref, value, undefined=_NO_WEIGHT, plan=None,
                       columns=(TARGET, PREDICTION), weighted=True):
    """A metric of a target and a prediction column, with its sklearn function `ref` (which takes
    sample_weight where the metric is `weighted`) and an example on sklearn's documented data."""
    return Metric(
        name=name, template=f"regression/{name}.sql", kind="scalar",
        params=columns + ((WEIGHT,) if weighted else ()) + (BY,), outputs=(name, "n"), plan=plan,
        summary=summary, formula=formula,
        reference=f"sklearn.metrics.{ref}(y, y_pred{', sample_weight=w' if weighted else ''})",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'y': [3.0, -0.5, 2.0, 7.0], 'p': [2.5, 0.0, 2.0, 8.0]})\n"
                 f">>> round(sm.{name}(df, target='y', prediction='p'), 4)\n{value}\n"),
        undefined=undefined)


_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
         ">>> df = pd.DataFrame({'y': [0, 0, 1, 1], 's': [0.1, 0.4, 0.35, 0.8]})\n")


def _class_scores_metric(name, extra, summary, formula, reference, example,
                         undefined="the examples weigh 0 in total (or there are none)", plan=None, probabilities=False):
    """A multi-class metric from a long table of class scores: the table's columns, the true class as a
    column or a table, the example's weight, then `extra` and by; the checks of consistency.class_scores."""
    score = CLASS_PROBABILITY if probabilities else CLASS_SCORE
    return Metric(
        name=name, template=f"classification/{name}.sql", kind="scalar",
        params=(EXAMPLE, CLASS_COLUMN, score, TRUE_CLASS, TRUE_CLASSES, EXAMPLE_WEIGHT) + extra + (BY,),
        outputs=(name, "n", "n_classes"), summary=summary, formula=formula, reference=reference,
        example=_SCORES_DEMO + example, undefined=undefined, plan=plan, unique=("example", "class_"),
        one_of=("label", "labels"),
        checks=(consistency.class_probabilities if probabilities else consistency.class_scores,))


_SCORES_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
               ">>> df = pd.DataFrame({'example': [1, 1, 1, 2, 2, 2, 3, 3, 3], 'class': ['a', 'b', 'c'] * 3,\n"
               "...                    'score': [0.7, 0.2, 0.1, 0.3, 0.4, 0.3, 0.2, 0.5, 0.3],\n"
               "...                    'label': ['a'] * 3 + ['b'] * 3 + ['c'] * 3})\n")

METRICS: dict[str, Metric] = {m.name: m for m in [
    Metric(
        name="auc", template="classification/auc.sql", kind="scalar",
        params=(LABEL, SCORE, WEIGHT, Param(
            "bins", "int", "approximate in one pass, without sorting: bucket the scores into this many "
            "equal-width bins; details=True gives error_bound, a guaranteed bound on |AUC - exact AUC|.",
            default=None, low=1), Param(
            "max_fpr", "float", "partial AUC: the area for fpr in [0, max_fpr] only, standardised by McClish "
            "(0.5: chance, 1: perfect), as sklearn's roc_auc_score(max_fpr=...); 1 (or None) is the full AUC. "
            "Exact: not with bins.", default=None, low=0.0, low_open=True, high=1.0), BY),
        outputs=("auc",) + _AUC_COUNTS + ("error_bound",), plan=_RANK_WHEN_DISTINCT,
        summary="Area under the ROC curve: the probability that a random positive outscores a random negative.",
        formula="AUC = sum over (pos i, neg j) of w_i*w_j*([s_i > s_j] + 0.5*[s_i = s_j]) / (W_pos*W_neg), "
                "computed as a Mann-Whitney rank sum (ties count 1/2), never by enumerating pairs. With bins=N, "
                "AUC of the bucketed scores; the exact AUC is within error_bound = 1/2 * (weight of "
                "positive-negative pairs sharing a bucket) / (W_pos*W_neg). With max_fpr=m < 1, McClish's "
                "standardised partial AUC 0.5*(1 + (A_m - m^2/2)/(m - m^2/2)), A_m the area under the ROC curve "
                "(trapezoids, ties diagonal) for fpr in [0, m], its last segment cut at m by linear interpolation.",
        reference="sklearn.metrics.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)",
        example=_DEMO + ">>> sm.auc(df, label='y', score='s')\n0.75\n"
                        ">>> round(sm.auc(df, label='y', score='s', max_fpr=0.5), 4)\n0.6667\n",
        undefined=_ONE_CLASS),
    Metric(
        name="auc_ci", template="classification/auc_ci.sql", kind="record",
        params=(LABEL, SCORE, WEIGHT, CONFIDENCE, BY),
        outputs=("auc", "std_error", "ci_low", "ci_high", "n_pos", "n_neg"), defined_by=("auc",),
        plan=_RANK_WHEN_DISTINCT,
        summary="AUC with its DeLong standard error and confidence interval.",
        formula="DeLong et al. (1988) from placement values (Sun & Xu 2014; no pair enumerated): a positive's "
                "V10 = (negative weight below its score + 1/2 at it) / W_neg, a negative's V01 = (positive "
                "weight above + 1/2 at) / W_pos; Var(AUC) = S10/W_pos + S01/W_neg with S10, S01 the sample "
                "variances of V10 over the positives and V01 over the negatives (weights count as repeated "
                "rows); interval AUC -/+ z*std_error, z the normal quantile of (1 + confidence)/2, clipped to "
                "[0, 1]. std_error is NaN when a class weighs 1 or less.",
        reference="pROC ci.auc(method='delong'); MLstatkit Delong_test",
        example=_DEMO + ">>> r = sm.auc_ci(df, label='y', score='s')\n"
                        ">>> round(r['auc'], 4), round(r['std_error'], 4), round(r['ci_low'], 4), r['ci_high']\n"
                        "(0.75, 0.3536, 0.057, 1.0)\n",
        undefined=_ONE_CLASS),
    Metric(
        name="auc_compare", template="classification/auc_compare.sql", kind="record",
        params=(LABEL, SCORE, Param("other_score", "column", "the score column of the model compared with `score`.",
                                    role="score"), WEIGHT, CONFIDENCE, BY),
        outputs=("auc", "other_auc", "difference", "std_error", "z", "p_value", "ci_low", "ci_high", "n_pos", "n_neg"),
        defined_by=("auc", "other_auc"), across_slices=("p_value_holm",), plan=_RANK_WHEN_DISTINCT,
        summary="Paired DeLong test: is the AUC of one score different from another's on the same rows?",
        formula="difference = AUC(score) - AUC(other_score); its variance is DeLong et al.'s (1988) for two "
                "correlated AUCs, from each row's placements under both scores (Sun & Xu 2014); z = difference "
                "/ std_error, p_value = 2 P(Z > |z|), interval difference -/+ z_c*std_error (z_c the normal "
                "quantile of (1 + confidence)/2). With by=, one test per slice and p_value_holm, Holm's "
                "adjustment over the slices.",
        reference="pROC roc.test(paired=TRUE, method='delong'); MLstatkit Delong_test",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'y': [0, 0, 0, 1, 1, 1], 'a': [0.1, 0.4, 0.2, 0.35, 0.8, 0.7],\n"
                 "...                    'b': [0.3, 0.2, 0.1, 0.25, 0.5, 0.15]})\n"
                 ">>> r = sm.auc_compare(df, label='y', score='a', other_score='b')\n"
                 ">>> round(r['auc'], 4), round(r['other_auc'], 4), round(r['p_value'], 4)\n"
                 "(0.8889, 0.6667, 0.4795)\n"),
        undefined=_ONE_CLASS),
    Metric(
        name="gauc", template="classification/gauc.sql", kind="scalar",
        params=(LABEL, SCORE, GROUP, WEIGHT, WEIGHTING, BY),
        outputs=("gauc", "n_groups_used", "n_groups_excluded") + _AUC_COUNTS,
        plan=RankWhenScoresDistinct(parallel=False),
        summary="Group AUC: AUC within each group (e.g. user), averaged over groups that have both classes.",
        formula="GAUC = sum_g v_g*AUC_g / sum_g v_g over groups with positives and negatives; v_g = rows "
                "(or total weight) for 'impressions', positives for 'clicks', 1 for 'uniform'; 'pairs' "
                "pools numerators and denominators (v_g = n_pos*n_neg). One-class groups are excluded and "
                "counted in n_groups_excluded (details=True).",
        reference="weighted mean of sklearn.metrics.roc_auc_score per group",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'u': [1, 1, 1, 2, 2], 'y': [0, 1, 1, 0, 1],\n"
                 "...                    's': [0.1, 0.2, 0.4, 0.3, 0.5]})\n"
                 ">>> sm.gauc(df, label='y', score='s', group='u')\n1.0\n"),
        undefined="no group has both positive and negative labels"),
    Metric(
        name="score_histogram", template="classification/score_histogram.sql", kind="curve",
        params=(LABEL, SCORE,
                Param("bins", "int", "number of equal-width buckets of [lower, upper].", default=1000, low=1),
                Param("lower", "float", "low end of the bucketed range; lower scores count in the first bucket.",
                      default=0.0),
                Param("upper", "float", "high end of the range (> lower); higher scores count in the last bucket.",
                      default=1.0),
                WEIGHT, BY),
        outputs=("bucket", "low", "high", "n", "n_pos", "w_pos", "w_neg"),
        summary="Label counts per fixed score bucket: a summary to store (say per day), stack and pass to "
                "histogram_auc, for an AUC over any period with a guaranteed error bound.",
        formula="bucket = floor((score - lower) / (upper - lower) * bins), clamped to 0 .. bins-1; per bucket: "
                "rows n, positives n_pos, weight of positives w_pos and of negatives w_neg. Buckets depend on "
                "(bins, lower, upper) only, so histograms made with the same three merge by adding counts.",
        reference="numpy.bincount of the clamped bucket index (plain definition)",
        example=_DEMO + ">>> sm.score_histogram(df, label='y', score='s', bins=2)[['bucket', 'n', 'n_pos']].values.tolist()\n"
                        "[[0, 3, 1], [1, 1, 1]]\n",
        undefined="the data has no rows"),
    Metric(
        name="histogram_auc", template="classification/histogram_auc.sql", kind="scalar",
        params=(Param("bucket", "column", "bucket column, ordered as the scores.", default="bucket", role="key"),
                Param("n", "column", "rows per bucket.", default="n", role="count"),
                Param("n_pos", "column", "positive rows per bucket.", default="n_pos", role="count"),
                Param("w_pos", "column", "weight of the positives per bucket.", default="w_pos", role="count"),
                Param("w_neg", "column", "weight of the negatives per bucket.", default="w_neg", role="count"),
                BY),
        outputs=("histogram_auc",) + _AUC_COUNTS + ("error_bound",),
        summary="AUC from score_histogram's bucket counts (stacked histograms are merged), with a guaranteed "
                "error bound.",
        formula="AUC of the buckets, rows of a bucket added up first, pairs sharing a bucket counting 1/2; the "
                "exact AUC of the rows is within error_bound = 1/2 * sum_b w_pos_b*w_neg_b / (W_pos*W_neg).",
        reference="sklearn.metrics.roc_auc_score(y, bucket, sample_weight=w): the AUC of the bucket index",
        example=_DEMO + ">>> h = sm.score_histogram(df, label='y', score='s', bins=2)\n"
                        ">>> sm.histogram_auc(h, details=True)[['histogram_auc', 'error_bound']].values.tolist()\n"
                        "[[0.75, 0.25]]\n",
        undefined=_ONE_CLASS),
    Metric(
        name="roc_curve", template="classification/roc_curve.sql", kind="curve", plot="roc",
        params=(LABEL, SCORE, WEIGHT, MAX_POINTS, BY), outputs=("threshold", "fpr", "tpr", "tp", "fp", "tn", "fn"),
        plan=_RANK_WHEN_DISTINCT,
        summary="ROC curve: one point per distinct score (descending) after a first point at +inf.",
        formula="a row is predicted positive iff score >= threshold; fpr = fp/(fp+tn), tpr = tp/(tp+fn).",
        reference="sklearn.metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)",
        example=_DEMO + ">>> sm.roc_curve(df, label='y', score='s')['tpr'].tolist()\n[0.0, 0.5, 0.5, 1.0, 1.0]\n",
        undefined=_ONE_CLASS),
    Metric(
        name="pr_curve", template="classification/pr_curve.sql", kind="curve", plot="pr",
        params=(LABEL, SCORE, WEIGHT, MAX_POINTS, BY), outputs=("threshold", "precision", "recall", "tp", "fp"),
        plan=_RANK_WHEN_DISTINCT,
        summary="Precision-recall curve: one point per distinct score (descending) after (recall 0, precision 1).",
        formula="precision = tp/(tp+fp), recall = tp/(tp+fn) with positive iff score >= threshold; the first "
                "row (threshold +inf) is sklearn's final point (precision 1, recall 0).",
        reference="sklearn.metrics.precision_recall_curve (same points, in descending threshold order)",
        example=_DEMO + ">>> sm.pr_curve(df, label='y', score='s')['precision'].tolist()\n"
                        "[1.0, 1.0, 0.5, 0.6666666666666666, 0.5]\n",
        undefined="it needs at least one positive label"),
    Metric(
        name="average_precision", template="classification/average_precision.sql", kind="scalar",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("average_precision",) + _AUC_COUNTS, plan=_RANK_WHEN_DISTINCT,
        summary="Average precision: the step-wise area under the precision-recall curve (no interpolation).",
        formula="AP = sum_n (R_n - R_(n-1)) * P_n over distinct thresholds, descending.",
        reference="sklearn.metrics.average_precision_score(y, s, sample_weight=w)",
        example=_DEMO + ">>> round(sm.average_precision(df, label='y', score='s'), 4)\n0.8333\n",
        undefined="it needs at least one positive label"),
    Metric(
        name="log_loss", template="classification/log_loss.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("log_loss",) + _AUC_COUNTS,
        summary="Logistic loss (cross-entropy) of predicted probabilities.",
        formula="-(1/W) * sum_i w_i*(y_i*ln(p_i) + (1-y_i)*ln(1-p_i)), p clipped to [eps, 1-eps], "
                "eps = 2.220446049250313e-16 (float64 machine epsilon).",
        reference="sklearn.metrics.log_loss(y, p, sample_weight=w, labels=[0, 1])",
        example=_DEMO + ">>> round(sm.log_loss(df, label='y', score='s'), 4)\n0.4723\n",
        undefined="the data has no rows (or zero total weight)"),
    Metric(
        name="brier_score", template="classification/brier_score.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("brier_score",) + _AUC_COUNTS,
        summary="Brier score: mean squared error of predicted probabilities.",
        formula="(1/W) * sum_i w_i*(p_i - y_i)^2",
        reference="sklearn.metrics.brier_score_loss(y, p, sample_weight=w)",
        example=_DEMO + ">>> round(sm.brier_score(df, label='y', score='s'), 4)\n0.1581\n",
        undefined="the data has no rows (or zero total weight)"),
    Metric(
        name="calibration", template="classification/calibration.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("calibration",) + _AUC_COUNTS,
        summary="Calibration ratio: predicted over observed positives (1.0 = calibrated, >1 over-predicts).",
        formula="sum_i w_i*p_i / sum_i w_i*y_i",
        reference="plain definition (checked against numpy)",
        example=_DEMO + ">>> round(sm.calibration(df, label='y', score='s'), 4)\n0.825\n",
        undefined="it needs at least one positive label"),
    Metric(
        name="confusion_matrix", template="classification/confusion_matrix.sql", kind="record",
        params=_CONFUSION_PARAMS, outputs=_CONFUSION, one_of=("score", "prediction"),
        summary="Counts (or total weights) of true/false positives/negatives at a threshold.",
        formula="predicted positive iff score >= threshold (or prediction = 1); tp, fp, tn, fn.",
        reference="sklearn.metrics.confusion_matrix(y, y_pred, sample_weight=w).ravel()",
        example=_DEMO + ">>> sm.confusion_matrix(df, label='y', score='s', threshold=0.3)\n"
                        "{'tp': 2, 'fp': 1, 'tn': 1, 'fn': 0, 'n': 4}\n"),
    _confusion_metric("precision", "tp / (tp + fp)" + _AVERAGES, "Share of predicted positives that are positive.",
                      _DEMO + ">>> sm.precision(df, label='y', score='s', threshold=0.3)\n0.6666666666666666\n"
                      + _CLASS_ROWS
                      + ">>> round(sm.precision(df, label='y', prediction='p', average='macro'), 4)\n0.7222\n",
                      "nothing is predicted positive (tp + fp = 0)" + _NEVER, _AVERAGED,
                      _PRF_REFERENCE.format("precision")),
    _confusion_metric("recall", "tp / (tp + fn)" + _AVERAGES, "Share of positives predicted positive (TPR, sensitivity).",
                      _DEMO + ">>> sm.recall(df, label='y', score='s', threshold=0.5)\n0.5\n"
                      + _CLASS_ROWS
                      + ">>> sm.recall(df, label='y', prediction='p', average=None)['recall'].tolist()\n"
                        "[0.5, 1.0, 0.5]\n",
                      "there are no positive labels (tp + fn = 0)" + _NEVER, _AVERAGED, _PRF_REFERENCE.format("recall")),
    _confusion_metric("specificity", "tn / (tn + fp)", "Share of negatives predicted negative (TNR).",
                      _DEMO + ">>> sm.specificity(df, label='y', score='s', threshold=0.3)\n0.5\n",
                      "there are no negative labels (tn + fp = 0)"),
    _confusion_metric("accuracy", "(tp + tn) / n; with classes (average other than 'binary'), each class's "
                      "accuracy is its recall tp / (tp + fn), as torchmetrics' multi-class accuracy: 'micro' = "
                      "correct rows / rows, 'macro' = the mean recall of the classes that have true rows (balanced "
                      "accuracy), 'weighted' = the support-weighted mean recall (= micro), None = one row per class "
                      "(class, accuracy = its recall, support; NaN for a class never true).",
                      "Share of rows predicted correctly.",
                      _DEMO + ">>> sm.accuracy(df, label='y', score='s', threshold=0.3)\n0.75\n"
                      + _CLASS_ROWS
                      + ">>> round(sm.accuracy(df, label='y', prediction='p', average='micro'), 4)\n0.6667\n",
                      "the data has no rows (or zero total weight)", (AVERAGE,),
                      "sklearn.metrics.accuracy_score; average='macro': balanced_accuracy_score; 'weighted', "
                      "None: recall_score(average='weighted' | None)"),
    _confusion_metric("error_rate", "(fp + fn) / n", "Share of rows predicted wrongly (1 - accuracy).",
                      _DEMO + ">>> sm.error_rate(df, label='y', score='s', threshold=0.3)\n0.25\n",
                      "the data has no rows (or zero total weight)"),
    _confusion_metric("f_beta", "(1 + beta^2)*tp / ((1 + beta^2)*tp + beta^2*fn + fp)" + _AVERAGES,
                      "F-beta score: weighted harmonic mean of precision and recall.",
                      _DEMO + ">>> sm.f_beta(df, label='y', score='s', threshold=0.3, beta=2)\n"
                              "0.9090909090909091\n"
                      + _CLASS_ROWS
                      + ">>> round(sm.f_beta(df, label='y', prediction='p', beta=2, average='micro'), 4)\n0.6667\n",
                      "there are no positives and nothing is predicted positive" + _NEVER, extra=(BETA,) + _AVERAGED,
                      reference=_PRF_REFERENCE.format("fbeta")),
    _confusion_metric("f1", "2*tp / (2*tp + fn + fp)" + _AVERAGES, "F1 score: harmonic mean of precision and recall.",
                      _DEMO + ">>> sm.f1(df, label='y', score='s', threshold=0.3)\n0.8\n"
                      + _CLASS_ROWS
                      + ">>> round(sm.f1(df, label='y', prediction='p', average='weighted'), 4)\n0.6556\n",
                      "there are no positives and nothing is predicted positive" + _NEVER, _AVERAGED,
                      _PRF_REFERENCE.format("f1")),
    Metric(
        name="gini", template="classification/gini.sql", kind="scalar",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("gini",) + _AUC_COUNTS, plan=_RANK_WHEN_DISTINCT,
        summary="Gini coefficient (Somers' D) of the score: 2*AUC - 1.",
        formula="Gini = 2*AUC - 1", reference="2*sklearn.metrics.roc_auc_score - 1",
        example=_DEMO + ">>> sm.gini(df, label='y', score='s')\n0.5\n",
        undefined=_ONE_CLASS),
    Metric(
        name="rela_impr", template="classification/rela_impr.sql", kind="scalar",
        params=(LABEL, SCORE, BASE_SCORE, WEIGHT, BY), outputs=("rela_impr", "auc", "base_auc") + _AUC_COUNTS,
        plan=_RANK_WHEN_DISTINCT,
        summary="RelaImpr: relative improvement of a model's AUC over a base model's, both measured above 0.5.",
        formula="RelaImpr = (AUC(score) - 0.5) / (AUC(base_score) - 0.5) - 1",
        reference="plain definition (Yan et al. 2014) on sklearn.metrics.roc_auc_score",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'y': [0, 0, 1, 1], 'new': [0.1, 0.2, 0.35, 0.8],\n"
                 "...                    'old': [0.1, 0.4, 0.35, 0.8]})\n"
                 ">>> sm.rela_impr(df, label='y', score='new', base_score='old')\n1.0\n"),
        undefined="it needs both classes and a base AUC different from 0.5"),
    *[_regression_metric(*entry) for entry in [
        ("mae", "Mean absolute error.", "(1/W) * sum_i w_i*|y_i - p_i|", "mean_absolute_error", "0.5"),
        ("mse", "Mean squared error.", "(1/W) * sum_i w_i*(y_i - p_i)^2", "mean_squared_error", "0.375"),
        ("rmse", "Root mean squared error.", "sqrt(MSE)", "root_mean_squared_error", "0.6124"),
        ("r2", "Coefficient of determination.",
         "1 - sum w*(y - p)^2 / sum w*(y - mean_w(y))^2; as sklearn, a constant target gives 1.0 for a "
         "perfect prediction and 0.0 otherwise", "r2_score", "0.9486",
         "it needs at least two rows", _PARALLEL),
    ]],
    _ranking_metric(
        "dcg", _RUN + (K, TIES, GAIN) + _POLICIES,
        "DCG@k = sum over ranks r <= k of gain(rel_r) / log2(r + 1); gain 'exponential' = 2^rel - 1 (default, "
        "as Burges et al. 2005) or 'linear' = rel; unjudged items have relevance 0.",
        "Discounted cumulative gain of each query's ranked list, averaged over queries.",
        "Jarvelin & Kekalainen 2002 (exponential gain: Burges et al. 2005); sklearn.metrics.dcg_score (linear gain, ties='average')",
        _RANK_DEMO + ">>> round(sm.dcg(run, qrels, k=5), 1)\n38.5\n"),
    _ranking_metric(
        "ndcg", _RUN + (K, TIES, GAIN) + _POLICIES,
        "NDCG@k = DCG@k / IDCG@k, IDCG from all judged items of the query sorted by relevance (retrieved or "
        "not), cut at k; 0 when no judgment of the query has a positive grade (relevance_threshold does not "
        "apply: the gains are the grades, as trec_eval's ndcg).",
        "Normalised DCG: DCG over the best possible DCG, averaged over queries.",
        "pytrec_eval ndcg_cut_k (gain='linear', ties='item_desc'); sklearn.metrics.ndcg_score "
        "(gain='linear', ties='average', relevance in the run)",
        _RANK_DEMO + ">>> round(sm.ndcg(run, qrels, k=5), 4)\n0.8296\n"),
    _ranking_metric(
        "mean_average_precision", _RUN + (K, TIES_ORDER, Param(
            "denominator", "choice", "'r': the query's relevant judged items R (trec_eval); 'min_k_r': "
            "min(k, R), common in recommender papers.", default="r", choices=("r", "min_k_r"))) + _POLICIES,
        "AP@k = (1/D) * sum over relevant items at ranks r <= k of precision@r, D = R (relevant judged items, "
        "retrieved or not) or min(k, R); MAP = mean of AP over queries.",
        "Mean average precision (alias sm.map).", "pytrec_eval map, map_cut_k",
        _BINARY_DEMO + ">>> sm.map(run, per_query=True)['mean_average_precision'].round(4).tolist()\n"
                       "[0.7556, 0.5]\n", aliases=("map",)),
    _ranking_metric(
        "mrr", _RUN + (K, TIES_ORDER) + _POLICIES,
        "RR = 1 / rank of the first relevant item within k (0 if none); MRR = mean over queries.",
        "Mean reciprocal rank.", "pytrec_eval recip_rank",
        _BINARY_DEMO + ">>> sm.mrr(run)\n0.75\n"),
    _ranking_metric(
        "precision_at_k", _RUN + (K_REQUIRED, TIES) + _POLICIES,
        "P@k = relevant items in the top k / k (k, even when the list is shorter); k=None: relevant items "
        "retrieved / items retrieved, over the whole list (= set_precision).",
        "Precision at k, averaged over queries.", "pytrec_eval P_k; k=None: pytrec_eval set_P",
        _BINARY_DEMO + ">>> sm.precision_at_k(run, k=2)\n0.5\n"
                       ">>> round(sm.precision_at_k(run, k=None), 4)\n0.4167\n"),
    _ranking_metric(
        "recall_at_k", _RUN + (K_REQUIRED, TIES, Param(
            "average", "choice", "'macro': mean of per-query recall (trec_eval); 'micro': all hits over all "
            "relevant items (the HR@K of recommender papers).", default="macro", choices=("macro", "micro"))) + _POLICIES,
        "R@k = relevant items in the top k / R, R = relevant judged items (retrieved or not); macro: mean over "
        "queries; micro: sum of hits / sum of R; k=None: the whole retrieved list (= set_recall).",
        "Recall at k.", "pytrec_eval recall_k (macro; k=None: set_recall); hits over relevant items pooled over "
        "users (micro)",
        _BINARY_DEMO + ">>> sm.recall_at_k(run, k=2, average='micro')\n0.5\n"),
    _ranking_metric(
        "hit_rate", _RUN + (K_REQUIRED, TIES_ORDER) + _POLICIES,
        "hit@k = 1 if a relevant item is in the top k (k=None: anywhere in the list), else 0; mean over queries.",
        "Share of queries with at least one relevant item in the top k.", "pytrec_eval success_k",
        _BINARY_DEMO + ">>> sm.hit_rate(run, k=1)\n0.5\n"),
    _ranking_metric(
        "r_precision", _RUN + (TIES_ORDER,) + _POLICIES,
        "R-precision = relevant items in the top R / R, R = relevant judged items.",
        "Precision at rank R, averaged over queries.", "pytrec_eval Rprec",
        _BINARY_DEMO + ">>> round(sm.r_precision(run), 4)\n0.3333\n"),
    Metric(
        name="interpolated_precision", template="ranking/interpolated_precision.sql", kind="curve",
        params=_RUN + (RECALL_LEVELS, TIES_ORDER) + _POLICIES,
        outputs=("recall_level", "interpolated_precision") + _QUERY_COUNTS,
        summary="Interpolated precision at recall levels (the points of the standard recall-precision graph), "
                "averaged over queries per level.",
        formula="per query and level L: the largest precision at any rank where at least n = lround(L * R) "
                "relevant items are retrieved (R = relevant judged items, retrieved or not; half rounds up), 0 "
                "when fewer than n ever are; the whole list counts. Mean over queries per level; per_query=True: "
                "one row per query and level.",
        reference="trec_eval 10 iprec_at_recall (pytrec_eval iprec_at_recall_L, from trec_eval 9, maps a "
                  "level to floor(L * R + 0.9) relevant items instead: the same values where the two counts "
                  "agree)",
        example=_BINARY_DEMO + ">>> c = sm.interpolated_precision(run, recall_levels=[0, 0.5, 1])\n"
                               ">>> c[['recall_level', 'interpolated_precision']].round(4).values.tolist()\n"
                               "[[0.0, 0.75], [0.5, 0.5833], [1.0, 0.55]]\n",
        undefined=_NO_RELEVANT, per_query=True, unique=("query", "item")),
    _ranking_metric(
        "precision_11pt", _RUN + (TIES_ORDER,) + _POLICIES,
        "11pt = (1/11) * sum over L in 0, 0.1, ..., 1 of the query's interpolated precision at recall L "
        "(interpolated_precision); mean over queries.",
        "11-point interpolated average precision, averaged over queries.",
        "trec_eval 10 11pt_avg (pytrec_eval 11pt_avg, from trec_eval 9: the same where its level-to-count "
        "rule floor(L * R + 0.9) agrees with lround(L * R))",
        _BINARY_DEMO + ">>> round(sm.precision_11pt(run), 4)\n0.653\n"),
    _ranking_metric(
        "gm_map", _RUN + (TIES_ORDER,) + _POLICIES,
        "GM_MAP = exp((1/n) * sum over queries of ln(max(AP, 1e-5))), AP as mean_average_precision (whole "
        "list); a missing or empty query counts with AP 0 (so 1e-5) or is left out, as missing/empty say. "
        "per_query=True gives max(AP, 1e-5) per query.",
        "Geometric mean average precision: rewards systems that do well on every query.",
        "trec_eval gm_map (1e-5: its MIN_GEO_MEAN); pytrec_eval gm_map (per query ln(max(AP, 1e-5)), "
        "aggregated by compute_aggregated_measure)",
        _BINARY_DEMO + ">>> round(sm.gm_map(run), 4)\n0.6146\n"),
    _ranking_metric(
        "err", _RUN + (K, TIES_ORDER, Param(
            "max_grade", "float", "top of the grading scale (default: the largest relevance in the "
            "judgments); 4 reproduces ir_measures / gdeval ERR.", default=None, low=0.0, low_open=True))
        + _POLICIES,
        "ERR@k = sum over r <= k of (1/r) * R_r * prod over i < r of (1 - R_i), R_i = (2^g_i - 1) / 2^max_grade.",
        "Expected reciprocal rank (Chapelle et al. 2009): a cascade model of a user stopping at a relevant item.",
        "plain implementation of Chapelle et al. 2009; max_grade=4: ir_measures ERR@k",
        _RANK_DEMO + ">>> round(sm.err(run, qrels), 4)\n0.9735\n", checks=(consistency.max_grade_is_the_top,)),
    _ranking_metric(
        "bpref", _RUN + (TIES_ORDER,) + _POLICIES,
        "bpref = (1/R) * sum over relevant retrieved items r of (1 - min(n_r, R) / min(N, R)), n_r = judged "
        "non-relevant items ranked above r, N = judged non-relevant items of the query (relevance below "
        "relevance_threshold, retrieved or not), R = its relevant items; a term is 1 when n_r = 0. Unjudged "
        "retrieved items are passed over.",
        "Binary preference (Buckley & Voorhees 2004): how often the relevant items retrieved rank above the "
        "judged non-relevant ones, robust to incomplete judgments.",
        "trec_eval m_bpref.c; pytrec_eval bpref",
        _BINARY_DEMO + ">>> round(sm.bpref(run), 4)\n0.3333\n"),
    _ranking_metric(
        "rbp", _RUN + (K, TIES_ORDER, Param(
            "persistence", "float", "p, the probability that the user goes on to the next rank; 0.9 as "
            "trec_eval 10's rbp (ir_measures RBP defaults to 0.8).", default=0.9, low=0.0, low_open=True,
            high=1.0, high_open=True)) + _POLICIES,
        "RBP = (1 - p) * sum over ranks r <= k of p^(r - 1) * [rel_r >= relevance_threshold]; residual "
        "(details=True, per_query=True) = (1 - p) * sum over unjudged ranks r <= k of p^(r - 1) + p^d, d the "
        "list length (k when shorter): the most RBP could still gain if every unjudged and unseen item were "
        "relevant (1 for a query absent from the run). Weights below 1e-307 count as 0.",
        "Rank-biased precision (Moffat & Zobel 2008): the expected rate of relevant items seen by a user who "
        "goes from each rank to the next with probability p, and its residual.",
        "trec_eval 10 rbp and rbp_resid (binary judgments: trec_eval scales grades above 1 to grade / top "
        "grade, sqlmetrics counts relevance >= relevance_threshold; trec_eval's rbp_resid is 0 when no "
        "retrieved item is unjudged, without the weight p^d beyond the list); ir_measures RBP(p=..., rel=1)",
        _BINARY_DEMO + ">>> sm.rbp(run, persistence=0.5)\n0.453125\n",
        outputs=("residual",) + _QUERY_COUNTS),
    _ranking_metric(
        "set_precision", _RUN + _POLICIES,
        "set P = relevant items retrieved / items retrieved, over the whole list of the query (= precision_at_k "
        "with k=None); mean over queries.",
        "Precision of the whole retrieved set of each query, averaged over queries.", "pytrec_eval set_P",
        _BINARY_DEMO + ">>> round(sm.set_precision(run), 4)\n0.4167\n", template="ranking/precision_at_k.sql"),
    _ranking_metric(
        "set_recall", _RUN + _POLICIES,
        "set recall = relevant items retrieved / R, R = relevant judged items (retrieved or not) (= recall_at_k "
        "with k=None); mean over queries.",
        "Recall of the whole retrieved set of each query, averaged over queries.", "pytrec_eval set_recall",
        _BINARY_DEMO + ">>> sm.set_recall(run)\n1.0\n", template="ranking/recall_at_k.sql"),
    _ranking_metric(
        "set_f", _RUN + (BETA,) + _POLICIES,
        "set F = (1 + beta^2) * P * R / (beta^2 * P + R), P and R the set precision and set recall of the "
        "query; 0 when nothing relevant is retrieved; mean over queries.",
        "F-measure of the whole retrieved set of each query, averaged over queries.",
        "pytrec_eval set_F (trec_eval's set_F parameter x is beta^2: the default set_F.1 is beta=1)",
        _BINARY_DEMO + ">>> round(sm.set_f(run), 4)\n0.5833\n"),
    _ranking_metric(
        "num_rel_ret", _RUN + _POLICIES,
        "relevant items retrieved, per query, summed over the counted queries (a count, not a mean: a query "
        "absent from the run or without relevant items adds 0; missing and empty only decide which queries "
        "are counted).",
        "Number of relevant items retrieved, over all queries (per query with per_query=True).",
        "pytrec_eval num_rel_ret", _BINARY_DEMO + ">>> sm.num_rel_ret(run)\n4\n", undefined="", count=True),
    _ranking_metric(
        "judged_at_k", (Param("qrels", "relation", "judgments (query, item, relevance): a table name, "
                              "sqlmetrics.Query, file or frame; required (a run carrying its relevance has every "
                              "item judged)."),
                        QUERY, ITEM, RUN_SCORE, RELEVANCE, *QRELS_COLUMNS, K, TIES_ORDER, MISSING, RANKING_BY),
        "Judged@k = items of the top k that the judgments have (any relevance, 0 included) / items in the top "
        "k (the list length when shorter; the whole list for k=None); mean over the judged queries, whatever "
        "their grades (n_relevant, per query, counts the judged items).",
        "Judgment rate: the share of each query's top k that has a relevance judgment.",
        "ir_measures Judged@k (its tie order is ties='item_asc')",
        ">>> import pandas as pd, sqlmetrics as sm\n"
        ">>> run = pd.DataFrame({'query': 1, 'item': list('abcd'), 'score': [4, 3, 2, 1]})\n"
        ">>> qrels = pd.DataFrame({'query': 1, 'item': ['a', 'c'], 'relevance': [0, 1]})\n"
        ">>> sm.judged_at_k(run, qrels, k=2)\n0.5\n",
        undefined="no judged query is evaluated"),
    _ranking_metric(
        "rank_correlation", _RUN + (K, TIES_ORDER, RANKING_BY),
        "RC = sum over pairs u < v of (1 + sgn((pi(u) - pi(v)) * (pi_l(u) - pi_l(v)))) / (2 * pairs) between the "
        "predicted order pi and the order by relevance pi_l (equal relevance counts 1/2); mean over queries "
        "with at least two items.",
        "Rank correlation: the share of item pairs the ranking orders as the relevance does (ties count 1/2).",
        "plain definition (pairwise concordance, ties 1/2)",
        _RANK_DEMO + ">>> sm.rank_correlation(run, qrels)\n0.85\n",
        undefined="no query has two ranked items"),
    _ranking_metric(
        "kendall_tau", _RUN + (K, Param(
            "variant", "choice", "'b' (tau-b, default, as scipy), 'a' (textbook (C - D) / pairs), 'c' (tau-c).",
            default="b", choices=("a", "b", "c")), RANKING_BY),
        "tau_b = (C - D) / sqrt((n0 - n_score_ties) * (n0 - n_relevance_ties)) between score and relevance within "
        "each query; tau_a = (C - D) / n0; tau_c = 2 (C - D) / (n^2 (m - 1) / m). Mean over queries where it is "
        "defined (not constant).",
        "Kendall rank correlation between the scores and the relevance of each query's items.",
        "scipy.stats.kendalltau",
        _RANK_DEMO + ">>> round(sm.kendall_tau(run, qrels), 4)\n0.7379\n",
        undefined="no query has two items with different scores and relevances"),
    _ranking_metric(
        "ils", (_SIMILARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, RANKING_BY),
        "ILS = mean over pairs of items in the query's top k of similarity(a, b); mean over queries with at "
        "least two items. Lower means more diverse lists.",
        "Intra-list similarity (Ziegler et al. 2005): how alike the items of each list are.",
        "plain definition (Ziegler et al. 2005, mean pairwise similarity)",
        ">>> import pandas as pd, sqlmetrics as sm\n"
        ">>> run = pd.DataFrame({'query': 1, 'item': ['a', 'b', 'c'], 'score': [3, 2, 1]})\n"
        ">>> sim = pd.DataFrame({'item_a': ['a', 'a'], 'item_b': ['b', 'c'], 'similarity': [0.9, 0.3]})\n"
        ">>> round(sm.ils(run, similarity=sim), 4)\n0.4\n",
        outputs=("n_queries",), undefined="no query has two ranked items", checks=(consistency.one_similarity_per_pair,)),
    Metric(
        name="coverage", template="ranking/coverage.sql", kind="scalar",
        params=(QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, _N_ITEMS, _ITEMS, BY),
        outputs=("coverage", "n_covered", "n_items"), one_of=("n_items", "items"), unique=("query", "item"),
        checks=(consistency.catalogue_holds_the_run,),
        summary="Catalogue coverage: the share of the catalogue that appears in some top-k list.",
        formula="coverage = distinct items in all top-k lists / catalogue size",
        reference="plain definition (RecBole ItemCoverage with n_items = catalogue + 1); Microsoft Recommenders "
                  "catalog_coverage(train, reco) with items=train, the training interactions (alias "
                  "sm.catalog_coverage)",
        example=(_POPULARITY_DEMO + ">>> sm.coverage(run, k=1, n_items=10)\n0.1\n"
                 ">>> sm.catalog_coverage(run, items=train)  # 3 of the 4 items of the training data\n0.75\n"),
        undefined="the catalogue is empty", aliases=("catalog_coverage",)),
    # -- beyond accuracy: the lists against the training data and the catalogue ------------------------
    Metric(
        name="novelty", template="ranking/novelty.sql", kind="scalar",
        params=(_INTERACTIONS, _POPULARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, BY),
        outputs=("novelty", "n_recommendations"), one_of=("interactions", "popularity"), unique=("query", "item"),
        checks=(consistency.one_count_per_item, consistency.recommended_items_are_known),
        summary="Novelty (Castells et al. 2011): the mean self-information -log2 p(i) of the recommended items, "
                "p(i) the item's share of the training interactions; higher means less popular items.",
        formula="novelty = mean over the recommended (user, item) rows of the top-k lists of -log2 p(i), "
                "p(i) = interactions naming i / all interactions (or count / sum of counts). An item recommended "
                "without a positive count (p = 0, infinite self-information) is an error naming how many, where "
                "Microsoft Recommenders leaves its rows out of the sum but not of the count.",
        reference="Microsoft Recommenders python_evaluation.novelty(train, reco)",
        example=_POPULARITY_DEMO + ">>> round(sm.novelty(run, train), 4)  # -log2 of 4/8, 1/8, 4/8, 1/8\n2.0\n",
        undefined=_NO_LISTS),
    _ranking_metric(
        "serendipity", (
            Param("interactions", "relation", "the users' training interactions, one row per event, with the "
                  "run's query (user) and item columns: a user's history.",
                  relation_columns=(("{query}", "key"), ("{item}", "key"))),
            _SIMILARITY, QUERY, ITEM, RUN_SCORE,
            Param("relevance", "column", "optional column of the run: the relevance of the recommended item to its "
                  "user (Microsoft Recommenders' col_relevance, which it rounds to float16: equal for 0/1 and other "
                  "values float16 holds); None: 1 for every item, as Microsoft Recommenders.", default=None,
                  role="relevance"),
            K, TIES_ORDER, BY),
        "serendipity(u, i) = (1 - mean over the user's interactions h of similarity(i, h)) * relevance(u, i); per "
        "user the mean over the items of its top k, then the mean over users. Users without interactions are left "
        "out (n_without_history); an item recommended to a user who interacted with it is an error, as in "
        "Microsoft Recommenders.",
        "Serendipity (Zhang et al. 2012): how unlike the user's history the recommended items are, weighted by "
        "their relevance.",
        "Microsoft Recommenders python_evaluation.serendipity(train, reco, col_relevance=...) with the item "
        "similarities of the similarity table (Microsoft Recommenders derives them from co-occurrence or features)",
        _CATALOGUE_DEMO + ">>> train = pd.DataFrame({'query': [1, 1, 2], 'item': ['c', 'd', 'b']})\n"
                          ">>> sim = pd.DataFrame({'item_a': ['a', 'b'], 'item_b': ['c', 'c'], "
                          "'similarity': [0.5, 0.8]})\n"
                          ">>> sm.serendipity(run, train, similarity=sim)  # user 1: (0.75 + 0.6) / 2, user 2: (1 + 0.2) / 2\n0.6375\n",
        undefined="no user of the run has interactions", outputs=("n_users", "n_without_history"),
        checks=(consistency.one_similarity_per_pair, consistency.recommended_items_are_new)),
    Metric(
        name="distributional_coverage", template="ranking/distributional_coverage.sql", kind="scalar",
        params=(QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, BY),
        outputs=("distributional_coverage", "n_recommendations", "n_covered"), unique=("query", "item"),
        summary="Distributional coverage: the Shannon entropy (bits) of how the recommendations spread over "
                "the items.",
        formula="distributional_coverage = -sum over items of p(i) log2 p(i), p(i) = the share of the recommended "
                "rows of all top-k lists that recommend i; 0 for one item recommended to all, log2(n) for n items "
                "recommended equally often.",
        reference="Microsoft Recommenders python_evaluation.distributional_coverage(train, reco) (Shani & "
                  "Gunawardana 2011, eq. 21)",
        example=_CATALOGUE_DEMO + ">>> round(sm.distributional_coverage(run), 4)  # a: 1/2, b: 1/4, c: 1/4\n1.5\n",
        undefined=_NO_LISTS),
    Metric(
        name="gini_index", template="ranking/gini_index.sql", kind="scalar",
        params=(QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, _N_ITEMS, _ITEMS, BY),
        outputs=("gini_index", "n_covered", "n_items"), one_of=("n_items", "items"), unique=("query", "item"),
        checks=(consistency.catalogue_holds_the_run,),
        summary="Gini index of how often the catalogue's items are recommended: 0 for equal counts, near 1 when a "
                "few items take every recommendation.",
        formula="gini_index = sum over i of (2i - n - 1) P(i) / (n sum over i of P(i)), P(1) <= ... <= P(n) the "
                "counts of the n catalogue items in the top-k lists (0 for an item never recommended).",
        reference="RecBole GiniIndex (with n_items = catalogue + 1, RecBole's item count with its padding item)",
        example=_CATALOGUE_DEMO + ">>> round(sm.gini_index(run, n_items=4), 4)  # counts 0, 1, 1, 2\n0.375\n",
        undefined="the catalogue is empty"),
    _ranking_metric(
        "average_popularity", (_INTERACTIONS, _POPULARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, BY),
        "ARP = mean over users of the mean popularity count of the items of the user's top k (the interactions "
        "naming the item, or its count); an item absent from the popularity source counts 0, as in RecBole.",
        "Average recommendation popularity (ARP): how popular, in the training data, the recommended items are.",
        "RecBole AveragePopularity",
        _POPULARITY_DEMO + ">>> sm.average_popularity(run, train)  # user 1: (4 + 1) / 2, user 2: (4 + 1) / 2\n2.5\n",
        undefined=_NO_LISTS, outputs=("n_users",), one_of=("interactions", "popularity"),
        checks=(consistency.one_count_per_item,)),
    _ranking_metric(
        "tail_share", (_INTERACTIONS, _POPULARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, Param(
            "tail", "float", "the long tail: above 1, the items whose popularity count is at most `tail`; up to 1, "
            "the least popular share `tail` of the items (RecBole's tail_ratio, whose default 0.1 this is, so "
            "RecBole's TailPercentage reproduces without configuring it).", default=0.1, low=0.0, low_open=True),
            BY),
        "tail_share = mean over users of the share of the items of the user's top k that are in the long tail T. "
        "T is drawn from the items of the popularity source (an item it lacks is not in T, as in RecBole): tail > 1, "
        "the items counted at most `tail` times; tail <= 1, the first max(floor(n * tail), 1) of its n items by "
        "increasing count, where a cut inside a group of equal counts gives each item of the group the share of "
        "it the cut takes (RecBole orders such a group by its internal item ids). n_tail_items = |T|.",
        "Share of long-tail (rarely interacted) items among the recommended items.",
        "RecBole TailPercentage (tail_ratio = tail)",
        _POPULARITY_DEMO + ">>> sm.tail_share(run, train, tail=1.5)  # tail: b and c (1 interaction each)\n0.5\n",
        undefined=_NO_LISTS, outputs=("n_users", "n_tail_items"), one_of=("interactions", "popularity"),
        checks=(consistency.one_count_per_item,)),
    Metric(
        name="calibration_curve", template="classification/calibration_curve.sql", kind="curve", plot="calibration",
        plan=_PARALLEL,
        params=(LABEL, PROBABILITY, WEIGHT, N_BINS, STRATEGY, BY),
        outputs=("bin", "mean_predicted", "fraction_positive", "n"),
        summary="Calibration (reliability) curve: mean predicted probability and fraction of positives per "
                "bin of predicted probability, one row per non-empty bin.",
        formula="bin of p = number of inner edges strictly below p (np.searchsorted(edges[1:-1], p)): edges "
                "j/n_bins ('uniform', as np.linspace) or the linear-interpolation quantiles of the slice's "
                "probabilities ('quantile', as np.percentile, unweighted); per bin mean_predicted = "
                "sum w*p / sum w, fraction_positive = sum w*y / sum w, n = rows (total weight when "
                "weighted; bins of zero weight are left out). bin is 0-based.",
        reference="sklearn.calibration.calibration_curve(y, p, n_bins=n_bins, strategy=strategy) "
                  "(prob_pred, prob_true); weighted: numpy on the same bins",
        example=_DEMO + ">>> sm.calibration_curve(df, label='y', score='s').round(4).to_dict('list')\n"
                        "{'bin': [0, 1, 3], 'mean_predicted': [0.1, 0.375, 0.8], "
                        "'fraction_positive': [0.0, 0.5, 1.0], 'n': [1, 2, 1]}\n",
        undefined="the data has no rows (or zero total weight)"),
    Metric(
        name="ece", template="classification/ece.sql", kind="scalar", plan=_PARALLEL,
        params=(LABEL, PROBABILITY, WEIGHT, N_BINS, STRATEGY, BY), outputs=("ece", "n", "n_bins_used"),
        summary="Expected calibration error: the weighted mean gap between fraction of positives and mean "
                "predicted probability over the bins of calibration_curve.",
        formula="ECE = sum over bins b of (W_b / W) * |fraction_positive_b - mean_predicted_b|, W_b = rows "
                "(total weight when weighted) in bin b, W = sum of W_b; bins as calibration_curve. "
                "n = rows, n_bins_used = non-empty bins.",
        reference="numpy on the bins of sklearn.calibration.calibration_curve(y, p, n_bins, strategy)",
        example=_DEMO + ">>> round(sm.ece(df, label='y', score='s'), 4)\n0.1375\n",
        undefined="the data has no rows (or zero total weight)"),

    # -- multi-class from labels: classes of any type ------------------------------------------------
    Metric(
        name="multiclass_confusion_matrix", template="classification/multiclass_confusion_matrix.sql", kind="curve",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, BY), outputs=("true_class", "predicted_class", "n"),
        summary="The confusion matrix of classes in long form: one row per (true class, predicted class) that "
                "occurs.",
        formula="n = rows with that true and predicted class (weight sum when weighted); cells that do not occur "
                "are left out; rows in class order (numbers by value, text byte by byte).",
        reference="sklearn.metrics.confusion_matrix(y, y_pred, sample_weight=w) (its nonzero cells)",
        example=_CLASS_DEMO + ">>> sm.multiclass_confusion_matrix(df, label='y', prediction='p').values.tolist()\n"
                              "[['ant', 'ant', 1], ['ant', 'bee', 1], ['bee', 'bee', 2], ['cat', 'ant', 1], "
                              "['cat', 'cat', 1]]\n",
        undefined="the data has no rows"),
    Metric(
        name="classification_report", template="classification/classification_report.sql", kind="curve",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, ZERO_DIVISION, BY),
        outputs=("class", "average", "precision", "recall", "f1", "support"),
        summary="Precision, recall, F1 and support of every class, and their micro, macro and weighted "
                "averages, as a table.",
        formula="one row per class (average NULL) in class order, then rows 'micro', 'macro', 'weighted' (class "
                "NULL, support the total), each as precision/recall/f1 with that average; sklearn's 'accuracy' "
                "entry is the micro row's f1 (= its precision = its recall).",
        reference="sklearn.metrics.classification_report(y, y_pred, sample_weight=w, zero_division=..., "
                  "output_dict=True)",
        example=_CLASS_DEMO + ">>> r = sm.classification_report(df, label='y', prediction='p')\n"
                              ">>> r['class'].tolist()[:3], r['average'].tolist()[3:]\n"
                              "(['ant', 'bee', 'cat'], ['micro', 'macro', 'weighted'])\n"
                              ">>> r.set_index('average').loc['macro', ['precision', 'recall', 'f1']].round(4).tolist()\n"
                              "[0.7222, 0.6667, 0.6556]\n",
        undefined="the data has no rows"),
    Metric(
        name="balanced_accuracy", template="classification/balanced_accuracy.sql", kind="scalar",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, Param(
            "adjusted", "bool", "rescale so that chance scores 0 and perfect 1: (score - 1/K) / (1 - 1/K), K the "
            "classes with true rows.", default=False), BY),
        outputs=("balanced_accuracy", "n_classes", "n"),
        summary="Balanced accuracy: the mean recall over the classes (binary: the mean of sensitivity and "
                "specificity).",
        formula="mean over the classes k with true rows of tp_k / (tp_k + fn_k) (a class only predicted is left "
                "out, as sklearn); adjusted: (score - 1/K) / (1 - 1/K), K = n_classes (undefined for K = 1).",
        reference="sklearn.metrics.balanced_accuracy_score(y, y_pred, sample_weight=w, adjusted=...)",
        example=_CLASS_DEMO + ">>> round(sm.balanced_accuracy(df, label='y', prediction='p'), 4)\n0.6667\n",
        undefined="no class has a true row (or adjusted=True with a single one)"),
    Metric(
        name="cohen_kappa", template="classification/cohen_kappa.sql", kind="scalar",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, Param(
            "weights", "choice", "the cost of a disagreement between classes i and j: None (1 whenever they "
            "differ), 'linear' (|i - j|) or 'quadratic' ((i - j)^2), i and j the classes' positions in sorted "
            "order (numbers by value, text byte by byte).", default=None, choices=(None, "linear", "quadratic")),
            BY),
        outputs=("cohen_kappa", "n"),
        summary="Cohen's kappa: agreement between the true and predicted classes beyond chance.",
        formula="kappa = 1 - sum_ij w_ij*O_ij / sum_ij w_ij*E_ij, O the confusion matrix, E_ij = t_i*p_j / s the "
                "matrix expected from its marginals (t_i true and p_j predicted counts, s rows; weight sums when "
                "weighted), w_ij = [i != j], |i - j| or (i - j)^2 by weights.",
        reference="sklearn.metrics.cohen_kappa_score(y, y_pred, weights=..., sample_weight=w)",
        example=_CLASS_DEMO + ">>> round(sm.cohen_kappa(df, label='y', prediction='p'), 4)\n0.5\n",
        undefined="the expected disagreement is 0 (a single class)"),
    Metric(
        name="mcc", template="classification/mcc.sql", kind="scalar",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, ZERO_DIVISION, BY), outputs=("mcc", "n"),
        summary="Matthews correlation coefficient, binary and multi-class: the correlation between true and "
                "predicted classes.",
        formula="MCC = (c*s - sum_k p_k*t_k) / sqrt((s^2 - sum_k p_k^2) * (s^2 - sum_k t_k^2)), s rows, c rows "
                "predicted right, t_k and p_k the true and predicted counts of class k (weight sums when "
                "weighted); binary: (tp*tn - fp*fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)) (Gorodkin 2004).",
        reference="sklearn.metrics.matthews_corrcoef(y, y_pred, sample_weight=w) (which returns 0 where "
                  "undefined: zero_division=0)",
        example=_CLASS_DEMO + ">>> round(sm.mcc(df, label='y', prediction='p'), 4)\n0.5222\n",
        undefined="the true or the predicted classes are all one class; sklearn returns 0 there "
                  "(zero_division=0)"),

    # -- multi-class from scores: a long table, one row per (example, class) -------------------------
    _class_scores_metric(
        "multiclass_auc", (Param(
            "multi_class", "choice", "'ovr' (each class against the rest) or 'ovo' (each pair of classes, Hand & "
            "Till 2001; no weight, as sklearn).", default="ovr", choices=("ovr", "ovo")), Param(
            "average", "choice", "'macro' (plain mean over the classes, or pairs) or 'weighted' (by prevalence: "
            "a class's positive weight for ovr, a pair's examples for ovo).", default="macro",
            choices=("macro", "weighted"))),
        "Multi-class AUC from class scores: one-vs-rest or one-vs-one (Hand & Till) ROC AUC, averaged.",
        "ovr: AUC_c = AUC of [label = c] by the score of class c over all examples (weighted); macro = mean of "
        "AUC_c over the table's classes, weighted = sum W_c*AUC_c / sum W_c, W_c the weight of class c's "
        "examples (classes of weight 0 left out). ovo: A(j|k) = AUC of class j's examples against class k's by "
        "the score of j; macro = mean over pairs of classes both true of (A(j|k) + A(k|j)) / 2, weighted by the "
        "pair's examples n_j + n_k.",
        "sklearn.metrics.roc_auc_score(y, P, multi_class=multi_class, average=average, labels=classes, "
        "sample_weight=w)",
        ">>> sm.multiclass_auc(df, label='label'), sm.multiclass_auc(df, label='label', multi_class='ovo')\n"
        "(0.75, 0.75)\n",
        "ovr with average='macro' needs each class both true and not true (with weight > 0), 'weighted' some "
        "example of weight > 0; ovo needs two classes that are true", plan=_RANK_WHEN_DISTINCT),
    _class_scores_metric(
        "top_k_accuracy", (Param("k", "int", "the true class counts when among the k classes of highest score "
                                 "(sklearn's default 2).", default=2, low=1),),
        "Top-k accuracy: the share of examples whose true class is among the k classes of highest score.",
        "top_k_accuracy = sum w*[rank of the true class <= k] / sum w; of equal scores the class later in the "
        "sorted class labels ranks first (sklearn's stable argsort, reversed), but for two classes the earlier "
        "(sklearn's binary form: the later class predicted when its probability is above 0.5).",
        "sklearn.metrics.top_k_accuracy_score(y, P, k=k, labels=classes, sample_weight=w)",
        ">>> round(sm.top_k_accuracy(df, label='label', k=1), 4)\n0.6667\n"),
    _class_scores_metric(
        "multiclass_log_loss", (),
        "Multi-class log loss (cross-entropy) of predicted class probabilities.",
        "-sum w*ln(p_true) / sum w, p_true the probability given to the true class, clipped to [eps, 1 - eps] "
        "(eps the float64 machine epsilon, as sklearn); each example's probabilities must sum to 1 within 1e-6.",
        "sklearn.metrics.log_loss(y, P, labels=classes, sample_weight=w)",
        ">>> round(sm.multiclass_log_loss(df, label='label'), 4)\n0.8256\n", probabilities=True),

    # -- binary extras: partial AUC, DET curve, entropy, credit-risk and marketing curves -------------
    Metric(
        name="det_curve", template="classification/det_curve.sql", kind="curve",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("threshold", "fpr", "fnr", "fp", "fn"), plan=_RANK_WHEN_DISTINCT,
        summary="Detection error tradeoff (DET) curve: false positive and false negative rates by threshold, "
                "trimmed and ordered as sklearn's det_curve.",
        formula="a row is predicted positive iff score >= threshold; fpr = fp/(fp+tn), fnr = fn/(tp+fn), at +inf "
                "and each distinct score of non-zero weight, from the last point with fp = 0 to the first with "
                "fn = 0, by threshold ascending.",
        reference="sklearn.metrics.det_curve(y, s, sample_weight=w) (1.9; drop_intermediate=False, its default)",
        example=_DEMO + ">>> sm.det_curve(df, label='y', score='s')[['threshold', 'fpr', 'fnr']].values.tolist()\n"
                        "[[0.35, 0.5, 0.0], [0.4, 0.5, 0.5], [0.8, 0.0, 0.5]]\n",
        undefined=_ONE_CLASS),
    Metric(
        name="normalized_entropy", template="classification/normalized_entropy.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY),
        outputs=("normalized_entropy", "log_loss", "base_rate") + _AUC_COUNTS,
        summary="Normalized entropy (He et al. 2014): the log loss over the entropy of the base rate "
                "(below 1: better than predicting the base rate everywhere).",
        formula="NE = log_loss / H(p), p = sum w*y / sum w (the base rate), H(p) = -p*ln(p) - (1-p)*ln(1-p) "
                "(nats); log loss as log_loss (p clipped to [eps, 1-eps]).",
        reference="sklearn.metrics.log_loss(y, p, sample_weight=w) / H(p) (He et al. 2014, Practical lessons "
                  "from predicting clicks on ads at Facebook)",
        example=_DEMO + ">>> round(sm.normalized_entropy(df, label='y', score='s'), 4)\n0.6814\n",
        undefined=_ONE_CLASS + " (a base rate strictly between 0 and 1)"),
    Metric(
        name="relative_information_gain", template="classification/relative_information_gain.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY),
        outputs=("relative_information_gain", "log_loss", "base_rate") + _AUC_COUNTS,
        summary="Relative information gain: 1 - normalized entropy, the share of the base rate's entropy "
                "the predictions remove.",
        formula="RIG = 1 - log_loss / H(p), p and H as normalized_entropy.",
        reference="1 - sklearn.metrics.log_loss(y, p, sample_weight=w) / H(p) (He et al. 2014)",
        example=_DEMO + ">>> round(sm.relative_information_gain(df, label='y', score='s'), 4)\n0.3186\n",
        undefined=_ONE_CLASS + " (a base rate strictly between 0 and 1)"),
    Metric(
        name="copc", template="classification/copc.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("copc",) + _AUC_COUNTS,
        summary="COPC: clicks over predicted clicks, observed over expected positives (1.0 = calibrated, "
                "below 1 over-predicts); the reciprocal of calibration.",
        formula="sum_i w_i*y_i / sum_i w_i*p_i",
        reference="plain definition (checked against numpy)",
        example=_DEMO + ">>> round(sm.copc(df, label='y', score='s'), 4)\n1.2121\n",
        undefined="the predicted probabilities sum to 0"),
    Metric(
        name="ks_statistic", template="classification/ks_statistic.sql", kind="record",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("ks_statistic", "threshold", "tpr", "fpr", "n_pos", "n_neg"),
        defined_by=("ks_statistic",), plan=_RANK_WHEN_DISTINCT,
        summary="Kolmogorov-Smirnov statistic of a score (credit scoring): the largest gap tpr - fpr over "
                "thresholds, with the threshold where it is reached.",
        formula="KS = max over thresholds t (including +inf) of tpr(t) - fpr(t), positive iff score >= t: the "
                "largest gap between the score distributions of negatives and positives, signed (0 when the "
                "score ranks negatives higher); ties: the highest threshold.",
        reference="scipy.stats.ks_2samp(negatives, positives, alternative='greater') (unweighted; the "
                  "two-sided statistic when the model ranks positives higher); argmax of tpr - fpr over "
                  "sklearn.metrics.roc_curve(y, s, sample_weight=w)",
        example=_DEMO + ">>> sm.ks_statistic(df, label='y', score='s')\n"
                        "{'ks_statistic': 0.5, 'threshold': 0.8, 'tpr': 0.5, 'fpr': 0.0, 'n_pos': 2, 'n_neg': 2}\n",
        undefined=_ONE_CLASS),
    Metric(
        name="best_threshold", template="classification/best_threshold.sql", kind="record",
        params=(LABEL, SCORE, WEIGHT, Param(
            "criterion", "choice", "what the threshold maximises: 'f_beta' (F-beta, with beta) or 'youden' "
            "(Youden's J = tpr - fpr).", default="f_beta", choices=("f_beta", "youden")), BETA, BY),
        outputs=("threshold", "best_value", "precision", "recall", "fpr", "n_pos", "n_neg"),
        defined_by=("best_value",), plan=_RANK_WHEN_DISTINCT,
        summary="The score threshold that maximises F-beta or Youden's J, with the value reached and the "
                "precision, recall and fpr there.",
        formula="argmax over thresholds t (the distinct scores of non-zero weight; also +inf for 'youden') of "
                "F_beta(t) = (1 + beta^2)*tp / ((1 + beta^2)*tp + beta^2*fn + fp) or J(t) = tpr(t) - fpr(t), "
                "positive iff score >= t; ties (equal to 1e-12 relative): the highest threshold.",
        reference="argmax over sklearn.metrics.precision_recall_curve (f_beta) / roc_curve (youden), "
                  "sample_weight=w",
        example=_DEMO + ">>> sm.best_threshold(df, label='y', score='s')\n"
                        "{'threshold': 0.35, 'best_value': 0.8, 'precision': 0.6666666666666666, 'recall': 1.0, "
                        "'fpr': 0.5, 'n_pos': 2, 'n_neg': 2}\n",
        undefined="it needs positive labels (and negative ones for 'youden')"),

    *[Metric(
        name=name, template=f"classification/{name}.sql", kind="curve", plan=_PARALLEL,
        params=(LABEL, SCORE, WEIGHT, Param(
            "n_bins", "int", "number of bins of the rows sorted by score (10: deciles); a tie group is never "
            "split, so some bins may stay empty.", default=10, low=1), BY),
        outputs=outputs, summary=summary,
        formula="rows sorted by score descending; the tie group of a score goes whole to bin FLOOR(n_bins * "
                "W_above / W) + 1 (W_above: the weight scoring strictly higher, W: the slice's; rows when "
                "unweighted), 1 = the highest scores; per non-empty bin, over the rows of bins 1 .. b (score >= "
                "threshold, the bin's lowest score): share = their weight / W, gain = their positive weight / "
                "W_pos, lift = gain / share; bin_lift = the bin's positive rate / the slice's; n, n_pos: the "
                "bin's rows and positive rows.",
        reference="pandas from the definition; on distinct scores kds.metrics.decile_table's deciles "
                  "(cum_cust_pct, cum_resp_pct, lift) and scikit-plot's cumulative_gain_curve at the bin ends",
        example=example, undefined="it needs at least one positive label")
      for name, outputs, summary, example in [
        ("gain_curve", ("bin", "share", "gain", "lift", "threshold", "n", "n_pos"),
         "Cumulative gains by score bins (deciles): the share of the positives caught by the top bins.",
         _DEMO + ">>> sm.gain_curve(df, label='y', score='s', n_bins=4)[['bin', 'share', 'gain']].values.tolist()\n"
                 "[[1.0, 0.25, 0.5], [2.0, 0.5, 0.5], [3.0, 0.75, 1.0], [4.0, 1.0, 1.0]]\n"),
        ("lift_curve", ("bin", "share", "lift", "bin_lift", "threshold", "n", "n_pos"),
         "Lift by score bins (deciles): the positive rate of the top bins over the overall rate.",
         _DEMO + ">>> sm.lift_curve(df, label='y', score='s', n_bins=2)[['bin', 'lift', 'bin_lift']].values.tolist()\n"
                 "[[1.0, 1.0, 1.0], [2.0, 1.0, 1.0]]\n"),
    ]],

    # -- regression extras -----------------------------------------------------------------------------
    _regression_metric(
        "mape", "Mean absolute percentage error (a ratio: 0.1 is 10%).",
        "(1/W) * sum_i w_i*|y_i - p_i| / max(|y_i|, eps), eps = 2.220446049250313e-16 (the float64 machine "
        "epsilon): a zero target gives a huge term, not an error", "mean_absolute_percentage_error", "0.3274"),
    _regression_metric(
        "msle", "Mean squared logarithmic error.", "(1/W) * sum_i w_i*(ln(1 + y_i) - ln(1 + p_i))^2; targets and "
        "predictions must be above -1", "mean_squared_log_error", "0.128", columns=(LOG_TARGET, LOG_PREDICTION)),
    _regression_metric(
        "rmsle", "Root mean squared logarithmic error.", "sqrt(MSLE)", "root_mean_squared_log_error", "0.3578",
        columns=(LOG_TARGET, LOG_PREDICTION)),
    _regression_metric(
        "median_absolute_error", "Median absolute error: robust to outliers.",
        "the weighted median of |y - p|: unweighted the middle value (the mean of the two middle ones for "
        "an even count, as numpy.median); weighted, over the distinct values of positive weight in "
        "increasing order, the first whose running weight reaches W/2, averaged with the next one when "
        "it reaches W/2 exactly (sklearn's averaged inverted CDF, _weighted_percentile(average=True))",
        "median_absolute_error", "0.5", plan=_PARALLEL),
    _regression_metric(
        "explained_variance", "Explained variance: the share of the target's variance the prediction "
        "explains, ignoring a constant bias.",
        "1 - Var_w(y - p) / Var_w(y), weighted variances about weighted means; as sklearn (force_finite), "
        "1.0 when y - p is constant (one row included) and 0.0 for a constant target otherwise",
        "explained_variance_score", "0.9572"),
    _regression_metric(
        "max_error", "Largest absolute error.", "max_i |y_i - p_i| (unweighted, as sklearn)", "max_error", "1.0",
        undefined="the data has no rows", weighted=False),
    _regression_metric(
        "d2_absolute_error", "D^2 of the absolute error: the share of the absolute deviation about the "
        "target's median that the prediction removes.",
        "1 - sum w*|y - p| / sum w*|y - median_w(y)|, median_w the weighted median of median_absolute_error; "
        "as sklearn (force_finite), 1.0 for a perfect prediction, else 0.0 for a constant target",
        "d2_absolute_error_score", "0.7647", "it needs at least two rows", plan=_PARALLEL),

]}

def _with_pos_label(m: Metric) -> Metric:
    """Every metric reading a 0/1 label takes pos_label (scikit-learn's), after its last label or
    prediction parameter: labels of any two values."""
    binary = [i for i, p in enumerate(m.params) if p.role in ("label", "binary")]
    if not binary:
        return m
    at = binary[-1] + 1
    return replace(m, params=m.params[:at] + (POS_LABEL,) + m.params[at:])


METRICS = {name: _with_pos_label(m) for name, m in METRICS.items()}

#: output columns that hold classes (of any type) or words, never converted to numbers
TEXT_OUTPUTS = frozenset({"class", "true_class", "predicted_class", "average"})

#: other names a metric answers to -> its name
ALIASES = {alias: m.name for m in METRICS.values() for alias in m.aliases}
#: names a `by`/`group`/`query` column may not have: output or intermediate columns of the templates
RESERVED_COLUMNS = frozenset(c.lower() for m in METRICS.values() for c in m.outputs) | {
    "threshold", "tp", "fp", "tn", "fn"}
#: plot -> the curve metric it draws
PLOTS = {m.plot: m for m in METRICS.values() if m.plot}


def lookup(name: str) -> Metric:
    """The metric called `name` (or one of its aliases)."""
    if not isinstance(name, str):
        raise ParameterError(f"the metric name must be a string such as 'auc'; got {name!r}")
    try:
        return METRICS[ALIASES.get(name, name)]
    except KeyError:
        near = difflib.get_close_matches(name.lower(), list(METRICS) + list(ALIASES), n=1, cutoff=0.5)
        raise UnknownMetricError(name, near[0] if near else None, tuple(METRICS)) from None


#: ranking metrics that are not a mean of per-query values (the parts bootstrap and compare recombine)
_NOT_A_MEAN_OVER_QUERIES = {
    "gm_map": "their geometric mean, which is not a ratio of sums of per-query parts (mean_average_precision is "
              "their mean)",
    "interpolated_precision": "a curve, one mean per recall level (precision_11pt is their mean, one value per query)",
    "num_rel_ret": "their sum, a count that grows with the number of queries (set_recall is a mean)",
}


def _require_mean_over_queries(m: Metric, what: str) -> None:
    if m.name in _NOT_A_MEAN_OVER_QUERIES:
        raise ParameterError(f"{what} recombines per-query values by their mean; {m.name} is "
                             f"{_NOT_A_MEAN_OVER_QUERIES[m.name]}")


#: GAUC weightings under which a group drawn k times weighs k times as much when its rows weigh k
_GAUC_BOOTSTRAP_WEIGHTINGS = ("impressions", "clicks")


def bootstrap_of(name: str, params: dict) -> tuple[Metric, dict]:
    """The bootstrap of metric `name` (sql/bootstrap.sql), as a record metric of its own, and the call's
    parameters: over rows (or clusters) for a metric of one value with frequency weights, over queries
    for a ranking metric, over groups for gauc."""
    m = lookup(name)
    params = dict(params)
    if any(p.name == "example" for p in m.params):
        raise ParameterError(f"bootstrap does not take {m.name} yet: a long table of class scores resamples by "
                             "example (all its rows together), which its replicates do not do")
    if m.per_query:
        _require_mean_over_queries(m, "bootstrap")
        extra = (N_BOOT, CONFIDENCE, SEED)
        if params.get("cluster") is not None:
            raise ParameterError(f"bootstrap of {m.name} resamples queries: it takes no cluster")
    elif m.kind == "scalar" and any(p.name == "weight" for p in m.params):
        extra = (N_BOOT, CONFIDENCE, SEED, CLUSTER)
    else:
        raise ParameterError(f"bootstrap needs a ranking metric or a metric of one value that takes a weight "
                             f"parameter (the replicates are frequency weights); {m.name} is neither")
    if m.name == "gauc":
        weighting = params.get("weighting", "impressions")
        if weighting not in _GAUC_BOOTSTRAP_WEIGHTINGS:
            raise ParameterError(f"bootstrap of gauc takes weighting "
                                 f"{' or '.join(map(repr, _GAUC_BOOTSTRAP_WEIGHTINGS))}, not {weighting!r}: a group "
                                 "drawn k times must weigh k times as much")
        params["cluster"] = params.get("cluster") or params.get("group")
    if params.get("cluster") is None:
        params.pop("cluster", None)
    derived = _derived(m, "bootstrap", (), extra, outputs=("estimate", "std_error", "ci_low", "ci_high", "n_boot",
                                                            "n_undefined"),
                       defined_by=("estimate",), across_slices=())
    return derived, params


def _derived(m: Metric, name: str, leading: tuple, trailing: tuple, **fields) -> Metric:
    """A record metric `name` (template sql/<name>.sql) made from metric `m`: its parameters are
    `metric` (m's name), `leading`, m's own and `trailing`; its plan is m's choice between the
    parallel plan and the dialect's default (the derived template passes it on to m's macro)."""
    plan = ParallelWhenDistributed(parallel=m.plan.parallel) if m.plan else None
    metric = Param("metric", "choice", f"the metric the {name} takes.", default=m.name, choices=(m.name,))
    return replace(m, name=name, template=f"{name}.sql", kind="record", params=(metric, *leading) + m.params + trailing,
                   plan=plan, per_query=False, **fields)



#: what compare returns, per slice
COMPARE_OUTPUTS = ("estimate", "other_estimate", "difference", "std_error", "statistic", "p_value", "ci_low",
                   "ci_high", "n_units")


def compare_of(name: str, params: dict) -> tuple[Metric, dict]:
    """The paired comparison of two systems by metric `name` (sql/compare.sql), as a record metric of
    its own: per query for a ranking metric (`other` a second run), per group for gauc (`other` a
    second score column)."""
    m = lookup(name)
    if m.per_query:
        _require_mean_over_queries(m, "compare")
        if m.name == "recall_at_k" and params.get("average") == "micro":
            raise ParameterError("compare tests the mean of per-query differences; recall_at_k with "
                                 "average='micro' is not a mean over queries: use average='macro'")
        other = Param("other", "relation", "the second run, with the same columns as the first (a table name, "
                      "sqlmetrics.Query, file path or DataFrame).", like_data=True)
        # the units are queries evaluated under both runs: a run without rows leaves none
        undefined = "no query is evaluated under both runs with a relevant item (is one of the runs empty?)"
    elif m.name == "gauc":
        other = Param("other", "column", "the second score column, compared with `score` group by group.",
                      role="score")
        undefined = m.undefined
        if params.get("test") == "wilcoxon" and params.get("weighting", "impressions") != "uniform":
            raise ParameterError("test='wilcoxon' ranks the groups' differences without weights: pass "
                                 "weighting='uniform', or use test='paired_t' or 'randomization', which weigh "
                                 "each group as the GAUC does")
    else:
        hint = " (for auc, auc_compare is DeLong's paired test)" if m.name == "auc" else ""
        raise ParameterError(f"compare needs paired units: a ranking metric (two runs of the same queries) or "
                             f"gauc (two score columns, group by group); {m.name} is neither{hint}; "
                             "sqlmetrics.bootstrap gives an interval for any metric")
    derived = _derived(m, "compare", (other,), (TEST, N_RESAMPLES, SEED, CONFIDENCE), outputs=COMPARE_OUTPUTS,
                       defined_by=("difference",), across_slices=("p_value_holm",), undefined=undefined)
    return derived, dict(params)


#: metrics made from another metric, by the name sm.render knows them by
DERIVED = {"bootstrap": bootstrap_of, "compare": compare_of}


#: sm.evaluate's measures: strings read by sqlmetrics.measures
MEASURES = Param("measures", "measures", "the measures, as strings such as 'ndcg@10', 'P@5', 'map' (sqlmetrics, ranx, "
                 "ir_measures and trec_eval spellings; see sqlmetrics.evaluate).")
#: several ranking measures in one pass (sql/ranking/evaluate.sql): its outputs are the call's measures
EVALUATE = Metric(
    name="evaluate", template="ranking/evaluate.sql", kind="record",
    params=_RUN + (MEASURES, TIES) + _POLICIES, outputs=_QUERY_COUNTS,
    summary="Several ranking measures in one pass over the run.",
    formula="each measure as its own metric computes it", reference="trec_eval, ir_measures, ranx (measure names)",
    example="", per_query=True, unique=("query", "item"))


def read_measures(texts) -> tuple[measure_strings.Measure, ...]:
    """Measure strings read (sqlmetrics.measures); a ranking metric of the catalogue outside evaluate's one
    pass is refused with the function that computes it."""
    for text in [texts] if isinstance(texts, str) else texts if isinstance(texts, (list, tuple)) else []:
        name = measure_strings.unknown_name(text)
        metric = ALIASES.get(name, name)
        if metric in METRICS and METRICS[metric].per_query and metric not in measure_strings.ONE_PASS:
            raise ParameterError(f"measure {text!r}: evaluate computes {', '.join(measure_strings.ONE_PASS)} in one "
                                 f"pass; {metric} is computed by its own function: sqlmetrics.{metric}(...) "
                                 f"(sqlmetrics compute {metric})")
    return measure_strings.parse_all(texts)


def evaluate_of(params: dict) -> tuple[Metric, dict]:
    """sm.evaluate as a metric of its own, the columns of the call's measures, and the call's parameters:
    the measures read, each with its gain, and the call's one order of ties and one relevance level,
    as the measures' spellings define them (sqlmetrics.measures.resolve)."""
    params = dict(params)
    if params.get("measures") is None:
        raise ParameterError("evaluate needs measures, e.g. ['ndcg@10', 'P@5', 'map']")
    gain, ties, threshold = (params.pop(k, None) for k in ("gain", "ties", "relevance_threshold"))
    measures = read_measures(params["measures"])
    measures, params["ties"], params["relevance_threshold"] = measure_strings.resolve(
        measures, GAIN.validate(gain) if gain is not None else None, TIES.validate(ties) if ties is not None else None,
        RELEVANCE_THRESHOLD.validate(threshold) if threshold is not None else None)
    params["measures"] = measures
    if params["ties"] == "average":
        other = [m.name for m in measures if m.metric not in measure_strings.AVERAGES_TIES]
        if other:
            raise ParameterError(f"ties='average' applies to ndcg, dcg, precision and recall; {', '.join(other)} "
                                 "order equal scores by item id: pass ties='item_desc' (trec_eval) or 'item_asc', or "
                                 "evaluate those measures in another call")
    by = params.get("by")
    keys = {k.lower() for k in [params.get("query", "query")] + ([by] if isinstance(by, str) else list(by or []))
            if isinstance(k, str)}
    clash = [m.name for m in measures if m.name.strip().lower() in keys | set(_QUERY_COUNTS) | {"n_relevant"}]
    if clash:
        raise ParameterError(f"measure {clash[0]!r} is also the name of a query or by column (or a count): rename "
                             "the column")
    return replace(EVALUATE, outputs=tuple(m.name for m in measures) + _QUERY_COUNTS), params
