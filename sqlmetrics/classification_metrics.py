"""The classification metrics: binary (AUC and its family, curves, thresholds, calibration, CTR
measures), multi-class from labels and from a long table of class scores. registry.py assembles
the catalogue from this list, ranking_metrics.py and regression_metrics.py."""
from __future__ import annotations

from dataclasses import replace

from . import consistency
from .metric import Metric
from .params import (AUC_TEST, AVERAGE, BASE_SCORE, BETA, BINARY_PREDICTION, BY, CLASS_COLUMN, CLASS_LABEL, CLASS_PREDICTION,
                     CLASS_PROBABILITY, CLASS_SCORE, CONFIDENCE, EXAMPLE, EXAMPLE_WEIGHT, GROUP, LABEL, MAX_POINTS,
                     N_BINS, OPT_SCORE, PROBABILITY, Param, SCORE, STRATEGY, THRESHOLD, TRUE_CLASS, TRUE_CLASSES,
                     WEIGHT, WEIGHTING, ZERO_DIVISION)
from .plans import BucketsWhenRowsMany, PairsWhenGroupsSmall, ParallelWhenDistributed, RankWhenScoresDistinct

_AUC_COUNTS = ("n", "n_pos", "n_neg")
_RANK_WHEN_DISTINCT = RankWhenScoresDistinct()
_BUCKETS_WHEN_MANY = BucketsWhenRowsMany()  # what auc_parts' rank plan serves on its own: AUC and Gini
_PARALLEL = ParallelWhenDistributed()
_CONFUSION = ("tp", "fp", "tn", "fn", "n")
_CONFUSION_PARAMS = (LABEL, OPT_SCORE, THRESHOLD, BINARY_PREDICTION, WEIGHT, BY)
_ONE_CLASS = "it needs both positive and negative labels"


def _confusion_metric(name, formula, summary, example, undefined, extra=(), reference=None, columns=_CONFUSION_PARAMS,
                      **fields):
    return Metric(
        name=name, template=f"classification/{name}.sql", kind="scalar",
        params=tuple(columns) + tuple(extra), outputs=(name,) + _CONFUSION,
        summary=summary, formula=formula,
        reference=reference or "sklearn.metrics (precision_score, recall_score, fbeta_score, accuracy_score)",
        example=example, undefined=undefined, one_of=("score", "prediction"),
        averaged=any(p.name == "average" for p in extra), **fields)


# Multi-class from labels: averages over the classes (sklearn.metrics.precision_recall_fscore_support)
_AVERAGED = (AVERAGE, ZERO_DIVISION)
_AVERAGES = ("; with average='macro' | 'micro' | 'weighted' (label and prediction are then classes of any type): "
             "the ratio of each class against the rest (the classes true or predicted in the data), averaged "
             "over the classes (macro), weighted by their support (weighted), or of the counts pooled over the "
             "classes (micro); tp, fp, tn, fn are then the pooled counts; average=None: one row per class "
             "(class, the metric, support).")
_PRF_REFERENCE = ("sklearn.metrics ({}_score; with average: precision_recall_fscore_support(y, y_pred, "
                  "average=..., zero_division=..., sample_weight=w))")
#: accuracy's label, prediction and average: its default takes classes too, as sklearn's accuracy_score
#: (Metric.micro_unless_binary)
_ACCURACY_COLUMNS = (replace(LABEL, doc="0/1 (or boolean) column, 1 = positive; or, with a prediction column, the "
                             "true class, of any type (text, integers)."), OPT_SCORE, THRESHOLD,
                     replace(BINARY_PREDICTION, doc="0/1 (or boolean) predicted class, instead of score+threshold; "
                             "or the predicted class, of the label's type."), WEIGHT, BY)
_ACCURACY_AVERAGE = replace(AVERAGE, doc=(
    "'binary' (the default): 0/1 (or boolean) labels, with the counts tp, fp, tn, fn; from a prediction column "
    "(without pos_label), labels or predictions of other values (text, other integers; not fractions) are "
    "classes, and accuracy is sklearn's accuracy_score, computed as with 'micro'. 'macro', 'micro', "
    "'weighted': label and prediction are classes of any type, averaged as the formula says; None: one row "
    "per class (class, accuracy, support)."))
#: classes in a frame (after _DEMO's import, or in _CLASS_DEMO)
_CLASS_ROWS = (">>> df = pd.DataFrame({'y': ['ant', 'ant', 'bee', 'bee', 'cat', 'cat'],\n"
               "...                    'p': ['ant', 'bee', 'bee', 'bee', 'cat', 'ant']})\n")
_CLASS_DEMO = ">>> import pandas as pd, sqlmetrics as sm\n" + _CLASS_ROWS
_NEVER = ("; averaged over classes, a class it weighs is 0/0 (never predicted, or never true): pass zero_division=0 "
          "or 1 to count such a class as that value, or zero_division=float('NaN') to leave it out of the average")


_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
         ">>> df = pd.DataFrame({'y': [0, 0, 1, 1], 's': [0.1, 0.4, 0.35, 0.8]})\n")


def _class_scores_metric(name, extra, summary, formula, reference, example,
                         undefined="the examples weigh 0 in total (or there are none)", plan=None, probabilities=False,
                         **fields):
    """A multi-class metric from a long table of class scores: the table's columns, the true class as a
    column or a table, the example's weight, then `extra` and by; the checks of consistency.class_scores;
    `fields`, any other field of its entry (metric.Metric)."""
    score = CLASS_PROBABILITY if probabilities else CLASS_SCORE
    return Metric(
        name=name, template=f"classification/{name}.sql", kind="scalar",
        params=(EXAMPLE, CLASS_COLUMN, score, TRUE_CLASS, TRUE_CLASSES, EXAMPLE_WEIGHT) + extra + (BY,),
        outputs=(name, "n", "n_classes"), summary=summary, formula=formula, reference=reference,
        example=_SCORES_DEMO + example, undefined=undefined, plan=plan, unique=("example", "class_"),
        one_of=("label", "labels"), section="multiclass", better="lower" if probabilities else "higher",
        checks=(consistency.class_probabilities if probabilities else consistency.class_scores,), **fields)


_SCORES_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
               ">>> df = pd.DataFrame({'example': [1, 1, 1, 2, 2, 2, 3, 3, 3], 'class': ['a', 'b', 'c'] * 3,\n"
               "...                    'score': [0.7, 0.2, 0.1, 0.3, 0.4, 0.3, 0.2, 0.5, 0.3],\n"
               "...                    'label': ['a'] * 3 + ['b'] * 3 + ['c'] * 3})\n")

#: the classification metrics, in catalogue order
CLASSIFICATION = [
    Metric(
        name="auc", template="classification/auc.sql", kind="scalar",
        params=(LABEL, SCORE, WEIGHT, Param(
            "bins", "int", "approximate in one pass, without sorting: bucket the scores into this many "
            "equal-width bins; details=True gives error_bound, a guaranteed bound on |AUC - exact AUC|.",
            default=None, low=1, sample=50), Param(
            "max_fpr", "float", "partial AUC: the area for fpr in [0, max_fpr] only, standardised by McClish "
            "(0.5: chance, 1: perfect), as sklearn's roc_auc_score(max_fpr=...); 1 (or None) is the full AUC. "
            "Exact: not with bins.", default=None, low=0.0, low_open=True, high=1.0), BY),
        outputs=("auc",) + _AUC_COUNTS + ("error_bound",), outputs_with=(("error_bound", "bins"),),
        plan=_BUCKETS_WHEN_MANY, paired_test=AUC_TEST,
        summary="Area under the ROC curve: the probability that a random positive outscores a random negative.",
        formula="AUC = sum over (pos i, neg j) of w_i*w_j*([s_i > s_j] + 0.5*[s_i = s_j]) / (W_pos*W_neg), "
                "computed as a Mann-Whitney rank sum (ties count 1/2), never by enumerating pairs. With bins=N, "
                "AUC of the bucketed scores; the exact AUC is within error_bound = 1/2 * (weight of "
                "positive-negative pairs sharing a bucket) / (W_pos*W_neg). With max_fpr=m < 1, McClish's "
                "standardised partial AUC 0.5*(1 + (A_m - m^2/2)/(m - m^2/2)), A_m the area under the ROC curve "
                "(trapezoids, ties diagonal) for fpr in [0, m], its last segment cut at m by linear interpolation.",
        math=(r"\begin{aligned}\mathrm{AUC} &= \frac{1}{W_{+} W_{-}} \sum_{y_i = 1} \sum_{y_j = 0} w_i "
              r"w_j \left(\mathbb{1}[s_i > s_j] + \frac{1}{2}\,\mathbb{1}[s_i = s_j]\right) \\ \mathrm{AUC}_{m} "
              r"&= \frac{1}{2}\left(1 + \frac{A_m - m^2/2}{m - m^2/2}\right),\quad A_m = "
              r"\text{ROC area for } \mathrm{FPR} \le m\end{aligned}"),
        reference="sklearn.metrics.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)",
        example=_DEMO + ">>> sm.auc(df, label='y', score='s')\n0.75\n"
                        ">>> round(sm.auc(df, label='y', score='s', max_fpr=0.5), 4)\n0.6667\n",
        undefined=_ONE_CLASS),
    Metric(
        name="auc_ci", section="statistics", template="classification/auc_ci.sql", kind="record",
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
        math=(r"\begin{aligned}V_{10}(i) &= \frac{1}{W_{-}} \sum_{y_j = 0} w_j (\mathbb{1}[s_j < s_i] + "
              r"\frac{1}{2}\mathbb{1}[s_j = s_i]),\quad V_{01}(j) \text{ likewise} \\ \mathrm{SE}^2 "
              r"&= \frac{S_{10}}{W_{+}} + \frac{S_{01}}{W_{-}},\quad S_{10} = \frac{\sum_{y_i = 1} w_i (V_{10}(i) - "
              r"\mathrm{AUC})^2}{W_{+} - 1} \\ \mathrm{CI} &= \mathrm{AUC} \mp z_{(1+c)/2} \mathrm{SE}\end{aligned}"),
        reference="pROC ci.auc(method='delong'); MLstatkit Delong_test",
        example=_DEMO + ">>> r = sm.auc_ci(df, label='y', score='s')\n"
                        ">>> round(r['auc'], 4), round(r['std_error'], 4), round(r['ci_low'], 4), r['ci_high']\n"
                        "(0.75, 0.3536, 0.057, 1.0)\n",
        undefined=_ONE_CLASS),
    Metric(
        name="auc_compare", section="statistics", template="classification/auc_compare.sql", kind="record",
        params=(LABEL, SCORE, Param("other_score", "column", "the score column of the model compared with `score`.",
                                    role="score"), WEIGHT, CONFIDENCE, BY),
        outputs=("auc", "other_auc", "difference", "std_error", "z", "p_value", "ci_low", "ci_high", "n_pos", "n_neg"),
        defined_by=("auc", "other_auc"), across_slices=("p_value_holm",), plan=_RANK_WHEN_DISTINCT,
        summary="Paired DeLong test: is the AUC of one score different from another's on the same rows?",
        formula="difference = AUC(score) - AUC(other_score); its variance is DeLong et al.'s (1988) for two "
                "correlated AUCs, from each row's placements under both scores (Sun & Xu 2014); z = difference "
                "/ std_error, p_value = 2 P(Z > |z|), interval difference -/+ z_c*std_error clipped to [-1, 1] "
                "(z_c the normal quantile of (1 + confidence)/2). With by=, one test per slice and p_value_holm, "
                "Holm's adjustment over the slices.",
        math=(r"\begin{aligned}\Delta &= \mathrm{AUC}(s) - \mathrm{AUC}(s'),\quad D_{10}(i) = V_{10}(i; s) "
              r"- V_{10}(i; s'),\; D_{01} \text{ likewise} \\ \mathrm{SE}^2 &= \sum_{y_i = 1} "
              r"\frac{w_i (D_{10}(i) - \Delta)^2}{(W_{+} - 1) W_{+}} + (\text{same over } y_j = 0) \\ z &= "
              r"\Delta / \mathrm{SE},\quad p = 2 P(Z > \lvert z \rvert)\end{aligned}"),
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
        plan=PairsWhenGroupsSmall(parallel=False), unit="group",
        summary="Group AUC: AUC within each group (e.g. user), averaged over groups that have both classes.",
        formula="GAUC = sum_g v_g*AUC_g / sum_g v_g over groups with positives and negatives; v_g = rows "
                "(or total weight) for 'impressions', positives for 'clicks', 1 for 'uniform'; 'pairs' "
                "pools numerators and denominators (v_g = n_pos*n_neg). One-class groups are excluded and "
                "counted in n_groups_excluded (details=True).",
        math=(r"\mathrm{GAUC} = \frac{\sum_g v_g\, \mathrm{AUC}_g}{\sum_g v_g}\quad (W_{g+} W_{g-} > 0),\quad v_g "
              r"= \begin{cases} W_{g+} + W_{g-} & \text{impressions} \\ W_{g+} & \text{clicks} \\ 1 "
              r"& \text{uniform} \\ W_{g+} W_{g-} & \text{pairs} \end{cases}"),
        reference="weighted mean of sklearn.metrics.roc_auc_score per group",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'u': [1, 1, 1, 2, 2], 'y': [0, 1, 1, 0, 1],\n"
                 "...                    's': [0.1, 0.2, 0.4, 0.3, 0.5]})\n"
                 ">>> sm.gauc(df, label='y', score='s', group='u')\n1.0\n"),
        undefined="no group has both positive and negative labels"),
    Metric(
        name="score_histogram", template="classification/score_histogram.sql", kind="curve",
        params=(LABEL, SCORE,
                Param("bins", "int", "number of equal-width buckets of [lower, upper].", default=1000, low=1, sample=16),
                Param("lower", "float", "low end of the bucketed range; lower scores count in the first bucket.",
                      default=0.0, sample=-0.5),
                Param("upper", "float", "high end of the range (> lower); higher scores count in the last bucket.",
                      default=1.0, sample=1.5),
                WEIGHT, BY),
        outputs=("bucket", "low", "high", "n", "n_pos", "w_pos", "w_neg"),
        summary="Label counts per fixed score bucket: a summary to store (say per day), stack and pass to "
                "histogram_auc, for an AUC over any period with a guaranteed error bound.",
        formula="bucket = floor((score - lower) / (upper - lower) * bins), clamped to 0 .. bins-1; per bucket: "
                "rows n, positives n_pos, weight of positives w_pos and of negatives w_neg. Buckets depend on "
                "(bins, lower, upper) only, so histograms made with the same three merge by adding counts.",
        math=(r"\begin{aligned}b_i &= \min\left(\max\left(\operatorname{floor}\left(B\,\frac{s_i - L}{U - "
              r"L}\right), 0\right), B - 1\right) \\ n_b &= \sum_{b_i = b} 1,\quad n^{+}_b = "
              r"\sum_{b_i = b} y_i,\quad w^{+}_b = \sum_{b_i = b} w_i y_i,\quad w^{-}_b = \sum_{b_i = b} w_i "
              r"(1 - y_i)\end{aligned}"),
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
        math=(r"\begin{aligned}\mathrm{AUC} &= \frac{1}{W_{+} W_{-}} \sum_b w^{+}_b \left(\sum_{b' < b} w^{-}_{b'} "
              r"+ \frac{1}{2}\, w^{-}_b\right),\quad W_{\pm} = \sum_b w^{\pm}_b \\ \text{error bound} "
              r"&= \frac{1}{2}\,\frac{\sum_b w^{+}_b w^{-}_b}{W_{+} W_{-}}\end{aligned}"),
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
        math=(r"\begin{aligned}\mathrm{TP}(t) &= \sum_i w_i y_i\, \mathbb{1}[s_i \ge t],\quad \mathrm{FP}(t) "
              r"= \sum_i w_i (1 - y_i)\, \mathbb{1}[s_i \ge t] \\ \mathrm{FPR}(t) &= "
              r"\frac{\mathrm{FP}(t)}{W_{-}},\quad \mathrm{TPR}(t) = \frac{\mathrm{TP}(t)}{W_{+}},\quad t "
              r"\in \{+\infty, s_1, \ldots, s_n\}\end{aligned}"),
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
        math=(r"\begin{aligned}\mathrm{TP}(t) &= \sum_i w_i y_i\, \mathbb{1}[s_i \ge t],\quad \mathrm{FP}(t) "
              r"= \sum_i w_i (1 - y_i)\, \mathbb{1}[s_i \ge t] \\ P(t) &= \frac{\mathrm{TP}(t)}{\mathrm{TP}(t) + "
              r"\mathrm{FP}(t)},\quad R(t) = \frac{\mathrm{TP}(t)}{W_{+}},\quad P(+\infty) = 1,\; R(+\infty) "
              r"= 0\end{aligned}"),
        reference="sklearn.metrics.precision_recall_curve (same points, in descending threshold order)",
        example=_DEMO + ">>> sm.pr_curve(df, label='y', score='s')['precision'].tolist()\n"
                        "[1.0, 1.0, 0.5, 0.6666666666666666, 0.5]\n",
        undefined="it needs at least one positive label"),
    Metric(
        name="average_precision", template="classification/average_precision.sql", kind="scalar",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("average_precision",) + _AUC_COUNTS, plan=_RANK_WHEN_DISTINCT,
        summary="Average precision: the step-wise area under the precision-recall curve (no interpolation).",
        formula="AP = sum_n (R_n - R_(n-1)) * P_n over distinct thresholds, descending.",
        math=(r"\mathrm{AP} = \sum_{n} (R_n - R_{n-1})\, P_n,\quad P_n = \frac{\mathrm{TP}(t_n)}{\mathrm{TP}(t_n) + "
              r"\mathrm{FP}(t_n)},\quad R_n = \frac{\mathrm{TP}(t_n)}{W_{+}},\quad t_1 > t_2 > "
              r"\ldots \text{ the distinct scores},\; R_0 = 0"),
        reference="sklearn.metrics.average_precision_score(y, s, sample_weight=w)",
        example=_DEMO + ">>> round(sm.average_precision(df, label='y', score='s'), 4)\n0.8333\n",
        undefined="it needs at least one positive label"),
    Metric(
        name="log_loss", template="classification/log_loss.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("log_loss",) + _AUC_COUNTS,
        summary="Logistic loss (cross-entropy) of predicted probabilities.",
        formula="-(1/W) * sum_i w_i*(y_i*ln(p_i) + (1-y_i)*ln(1-p_i)), p clipped to [eps, 1-eps], "
                "eps = 2.220446049250313e-16 (float64 machine epsilon).",
        math=(r"\mathrm{LogLoss} = -\frac{1}{W} \sum_i w_i \left(y_i \ln \tilde p_i + (1 - y_i) \ln(1 - "
              r"\tilde p_i)\right),\quad \tilde p_i = \min(\max(p_i, \epsilon), 1 - \epsilon)"),
        reference="sklearn.metrics.log_loss(y, p, sample_weight=w, labels=[0, 1])",
        example=_DEMO + ">>> round(sm.log_loss(df, label='y', score='s'), 4)\n0.4723\n",
        undefined="the data has no rows (or zero total weight)", better="lower"),
    Metric(
        name="brier_score", template="classification/brier_score.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("brier_score",) + _AUC_COUNTS,
        summary="Brier score: mean squared error of predicted probabilities.",
        formula="(1/W) * sum_i w_i*(p_i - y_i)^2",
        math=r"\mathrm{BS} = \frac{\sum_i w_i (p_i - y_i)^2}{\sum_i w_i}",
        reference="sklearn.metrics.brier_score_loss(y, p, sample_weight=w)",
        example=_DEMO + ">>> round(sm.brier_score(df, label='y', score='s'), 4)\n0.1581\n",
        undefined="the data has no rows (or zero total weight)", better="lower"),
    Metric(
        name="calibration", template="classification/calibration.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("calibration",) + _AUC_COUNTS,
        summary="Calibration ratio: predicted over observed positives (1.0 = calibrated, >1 over-predicts).",
        formula="sum_i w_i*p_i / sum_i w_i*y_i",
        math=r"\mathrm{calibration} = \frac{\sum_i w_i p_i}{\sum_i w_i y_i}",
        reference="plain definition (checked against numpy)",
        example=_DEMO + ">>> round(sm.calibration(df, label='y', score='s'), 4)\n0.825\n",
        undefined="it needs at least one positive label", better="neither"),
    Metric(
        name="confusion_matrix", template="classification/confusion_matrix.sql", kind="record",
        params=_CONFUSION_PARAMS, outputs=_CONFUSION, one_of=("score", "prediction"),
        summary="Counts (or total weights) of true/false positives/negatives at a threshold.",
        formula="predicted positive iff score >= threshold (or prediction = 1); tp, fp, tn, fn.",
        math=(r"\begin{aligned}\mathrm{TP} &= \sum_i w_i y_i \hat y_i,\quad \mathrm{FP} = \sum_i w_i (1 - y_i) "
              r"\hat y_i,\quad \hat y_i = \mathbb{1}[s_i \ge t] \\ \mathrm{TN} &= \sum_i w_i "
              r"(1 - y_i)(1 - \hat y_i),\quad \mathrm{FN} = \sum_i w_i y_i (1 - \hat y_i)\end{aligned}"),
        reference="sklearn.metrics.confusion_matrix(y, y_pred, sample_weight=w).ravel()",
        example=_DEMO + ">>> sm.confusion_matrix(df, label='y', score='s', threshold=0.3)\n"
                        "{'tp': 2, 'fp': 1, 'tn': 1, 'fn': 0, 'n': 4}\n"),
    _confusion_metric("precision", "tp / (tp + fp)" + _AVERAGES, "Share of predicted positives that are positive.",
                      _DEMO + ">>> sm.precision(df, label='y', score='s', threshold=0.3)\n0.6666666666666666\n"
                      + _CLASS_ROWS
                      + ">>> round(sm.precision(df, label='y', prediction='p', average='macro'), 4)\n0.7222\n",
                      "nothing is predicted positive (tp + fp = 0)" + _NEVER, _AVERAGED,
                      _PRF_REFERENCE.format("precision"),
                      math=(r"\begin{aligned}\mathrm{precision} &= \frac{\mathrm{TP}}{\mathrm{TP} + "
                            r"\mathrm{FP}},\quad \mathrm{TP} = \sum_i w_i y_i \hat y_i,\; \mathrm{FP} = \sum_i "
                            r"w_i (1 - y_i) \hat y_i,\; \hat y_i = \mathbb{1}[s_i \ge t] \\ \text{macro} "
                            r"&= \frac{1}{K} \sum_k \frac{\mathrm{TP}_k}{\mathrm{TP}_k + "
                            r"\mathrm{FP}_k}\end{aligned}")),
    _confusion_metric("recall", "tp / (tp + fn)" + _AVERAGES, "Share of positives predicted positive (TPR, sensitivity).",
                      _DEMO + ">>> sm.recall(df, label='y', score='s', threshold=0.5)\n0.5\n"
                      + _CLASS_ROWS
                      + ">>> sm.recall(df, label='y', prediction='p', average=None)['recall'].tolist()\n"
                        "[0.5, 1.0, 0.5]\n",
                      "there are no positive labels (tp + fn = 0)" + _NEVER, _AVERAGED, _PRF_REFERENCE.format("recall"),
                      math=(r"\begin{aligned}\mathrm{recall} &= \frac{\mathrm{TP}}{\mathrm{TP} + \mathrm{FN}},\quad "
                            r"\mathrm{TP} = \sum_i w_i y_i \hat y_i,\; \mathrm{FN} = \sum_i w_i y_i "
                            r"(1 - \hat y_i),\; \hat y_i = \mathbb{1}[s_i \ge t] \\ \text{macro} &= "
                            r"\frac{1}{K} \sum_k \frac{\mathrm{TP}_k}{\mathrm{TP}_k + \mathrm{FN}_k}\end{aligned}")),
    _confusion_metric("specificity", "tn / (tn + fp)", "Share of negatives predicted negative (TNR).",
                      _DEMO + ">>> sm.specificity(df, label='y', score='s', threshold=0.3)\n0.5\n",
                      "there are no negative labels (tn + fp = 0)",
                      math=(r"\mathrm{specificity} = \frac{\mathrm{TN}}{\mathrm{TN} + \mathrm{FP}},\quad "
                            r"\mathrm{TN} = \sum_i w_i (1 - y_i)(1 - \hat y_i),\; \mathrm{FP} = \sum_i w_i "
                            r"(1 - y_i) \hat y_i,\; \hat y_i = \mathbb{1}[s_i \ge t]")),
    _confusion_metric(
        "accuracy", "(tp + tn) / (tp + fp + tn + fn), the counts weighted when weight is given, from 0/1 labels "
        "(and a 0/1 prediction, or a score at a threshold). From a "
        "prediction column whose labels or predictions are not all 0/1 (text, other integers): classes, and "
        "sum(w*[prediction = label]) / sum(w), sklearn's accuracy_score; tp is then the weight predicted right, "
        "fp = fn that predicted wrong (the pooled counts of average='micro', which gives the same). With average "
        "'macro', 'weighted' or None, each class's accuracy is its recall tp / (tp + fn), as torchmetrics' "
        "multi-class accuracy: 'macro' = the mean recall of the classes that have true rows (balanced accuracy), "
        "'weighted' = the support-weighted mean recall (= micro), None = one row per class (class, accuracy = "
        "its recall, support; NaN for a class never true).",
        "Share of rows predicted correctly.",
        _DEMO + ">>> sm.accuracy(df, label='y', score='s', threshold=0.3)\n0.75\n"
        + _CLASS_ROWS
        + ">>> round(sm.accuracy(df, label='y', prediction='p'), 4)\n0.6667\n",
        "the data has no rows (or zero total weight)", (_ACCURACY_AVERAGE,),
        "sklearn.metrics.accuracy_score(y, y_pred, sample_weight=w); average='macro': balanced_accuracy_score; "
        "'weighted', None: recall_score(average='weighted' | None)", columns=_ACCURACY_COLUMNS,
        micro_unless_binary=True,
        math=(r"\begin{aligned}\mathrm{accuracy} &= \frac{\sum_i w_i\, \mathbb{1}[\hat y_i = y_i]}{\sum_i "
              r"w_i},\quad \hat y_i = \mathbb{1}[s_i \ge t] \\ \text{macro} &= \frac{1}{K} "
              r"\sum_{k:\, \mathrm{TP}_k + \mathrm{FN}_k > 0} \frac{\mathrm{TP}_k}{\mathrm{TP}_k + "
              r"\mathrm{FN}_k}\end{aligned}")),
    _confusion_metric("error_rate", "(fp + fn) / (tp + fp + tn + fn), the counts weighted when weight is given",
                      "Share of rows predicted wrongly (1 - accuracy).",
                      _DEMO + ">>> sm.error_rate(df, label='y', score='s', threshold=0.3)\n0.25\n",
                      "the data has no rows (or zero total weight)", better="lower",
                      math=(r"\text{error rate} = \frac{\mathrm{FP} + \mathrm{FN}}{\mathrm{TP} + \mathrm{FP} + "
                            r"\mathrm{TN} + \mathrm{FN}} = \frac{\sum_i w_i\, \mathbb{1}[\hat y_i \ne y_i]}{\sum_i "
                            r"w_i},\quad \hat y_i = \mathbb{1}[s_i \ge t]")),
    _confusion_metric("f_beta", "(1 + beta^2)*tp / ((1 + beta^2)*tp + beta^2*fn + fp)" + _AVERAGES,
                      "F-beta score: weighted harmonic mean of precision and recall.",
                      _DEMO + ">>> sm.f_beta(df, label='y', score='s', threshold=0.3, beta=2)\n"
                              "0.9090909090909091\n"
                      + _CLASS_ROWS
                      + ">>> round(sm.f_beta(df, label='y', prediction='p', beta=2, average='micro'), 4)\n0.6667\n",
                      "there are no positives and nothing is predicted positive" + _NEVER, extra=(BETA,) + _AVERAGED,
                      reference=_PRF_REFERENCE.format("fbeta"),
                      math=(r"\begin{aligned}F_\beta &= \frac{(1 + \beta^2) \mathrm{TP}}{(1 + \beta^2) \mathrm{TP} "
                            r"+ \beta^2 \mathrm{FN} + \mathrm{FP}},\quad \text{macro} = \frac{1}{K} "
                            r"\sum_k F_{\beta,k} \\ &\mathrm{TP} = \sum_i w_i y_i \hat y_i,\; \mathrm{FP} = "
                            r"\sum_i w_i (1 - y_i) \hat y_i,\; \mathrm{FN} = \sum_i w_i y_i (1 - \hat y_i),\; "
                            r"\hat y_i = \mathbb{1}[s_i \ge t]\end{aligned}")),
    _confusion_metric("f1", "2*tp / (2*tp + fn + fp)" + _AVERAGES, "F1 score: harmonic mean of precision and recall.",
                      _DEMO + ">>> sm.f1(df, label='y', score='s', threshold=0.3)\n0.8\n"
                      + _CLASS_ROWS
                      + ">>> round(sm.f1(df, label='y', prediction='p', average='weighted'), 4)\n0.6556\n",
                      "there are no positives and nothing is predicted positive" + _NEVER, _AVERAGED,
                      _PRF_REFERENCE.format("f1"),
                      math=(r"\begin{aligned}F_1 &= \frac{2 \mathrm{TP}}{2 \mathrm{TP} + \mathrm{FN} + "
                            r"\mathrm{FP}},\quad \text{macro} = \frac{1}{K} \sum_k F_{1,k} \\ &\mathrm{TP} = "
                            r"\sum_i w_i y_i \hat y_i,\; \mathrm{FP} = \sum_i w_i (1 - y_i) \hat y_i,\; "
                            r"\mathrm{FN} = \sum_i w_i y_i (1 - \hat y_i),\; \hat y_i = \mathbb{1}[s_i "
                            r"\ge t]\end{aligned}")),
    Metric(
        name="gini", template="classification/gini.sql", kind="scalar",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("gini",) + _AUC_COUNTS, plan=_BUCKETS_WHEN_MANY,
        summary="Gini coefficient (Somers' D) of the score: 2*AUC - 1.",
        formula="Gini = 2*AUC - 1",
        math=(r"\mathrm{Gini} = 2\,\mathrm{AUC} - 1,\quad \mathrm{AUC} = \frac{1}{W_{+} W_{-}} "
              r"\sum_{y_i = 1} \sum_{y_j = 0} w_i w_j \left(\mathbb{1}[s_i > s_j] + \frac{1}{2}\,\mathbb{1}[s_i = "
              r"s_j]\right)"),
        reference="2*sklearn.metrics.roc_auc_score - 1",
        example=_DEMO + ">>> sm.gini(df, label='y', score='s')\n0.5\n",
        undefined=_ONE_CLASS),
    Metric(
        name="rela_impr", template="classification/rela_impr.sql", kind="scalar",
        params=(LABEL, SCORE, BASE_SCORE, WEIGHT, BY), outputs=("rela_impr", "auc", "base_auc") + _AUC_COUNTS,
        plan=_RANK_WHEN_DISTINCT,
        summary="RelaImpr: relative improvement of a model's AUC over a base model's, both measured above 0.5.",
        formula="RelaImpr = (AUC(score) - 0.5) / (AUC(base_score) - 0.5) - 1",
        math=r"\mathrm{RelaImpr} = \frac{\mathrm{AUC}(s) - 0.5}{\mathrm{AUC}(s_{\text{base}}) - 0.5} - 1",
        reference="plain definition (Yan et al. 2014) on sklearn.metrics.roc_auc_score",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'y': [0, 0, 1, 1], 'new': [0.1, 0.2, 0.35, 0.8],\n"
                 "...                    'old': [0.1, 0.4, 0.35, 0.8]})\n"
                 ">>> sm.rela_impr(df, label='y', score='new', base_score='old')\n1.0\n"),
        undefined="it needs both classes and a base AUC different from 0.5"),
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
        math=(r"\begin{aligned}b(p) &= \#\{j : e_j < p\},\quad e_j = \frac{j}{B} \text{ (uniform) or the } "
              r"\frac{j}{B} \text{-quantile of the } p_i \text{ (quantile)},\; 0 < j < B \\ \bar p_b "
              r"&= \frac{\sum_{b(p_i) = b} w_i p_i}{\sum_{b(p_i) = b} w_i},\quad \bar y_b = "
              r"\frac{\sum_{b(p_i) = b} w_i y_i}{\sum_{b(p_i) = b} w_i}\end{aligned}"),
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
        math=(r"\begin{aligned}\operatorname{ECE} &= \sum_b \frac{W_b}{W}\, \lvert \bar y_b - \bar p_b "
              r"\rvert,\quad W_b = \sum_{b(p_i) = b} w_i \\ \bar p_b &= \frac{1}{W_b} \sum_{b(p_i) = b} "
              r"w_i p_i,\quad \bar y_b = \frac{1}{W_b} \sum_{b(p_i) = b} w_i y_i\end{aligned}"),
        reference="numpy on the bins of sklearn.calibration.calibration_curve(y, p, n_bins, strategy)",
        example=_DEMO + ">>> round(sm.ece(df, label='y', score='s'), 4)\n0.1375\n",
        undefined="the data has no rows (or zero total weight)", better="lower"),

    # -- multi-class from labels: classes of any type ------------------------------------------------
    Metric(
        name="multiclass_confusion_matrix", section="multiclass", template="classification/multiclass_confusion_matrix.sql", kind="curve",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, BY), outputs=("true_class", "predicted_class", "n"),
        summary="The confusion matrix of classes in long form: one row per (true class, predicted class) that "
                "occurs.",
        formula="n = rows with that true and predicted class (weight sum when weighted); cells that do not occur "
                "are left out; rows in class order (numbers by value, text byte by byte).",
        math=(r"n_{jk} = \sum_i w_i\, \mathbb{1}[y_i = j]\, \mathbb{1}[\hat y_i = k]\quad "
              r"(\text{rows with } n_{jk} > 0)"),
        reference="sklearn.metrics.confusion_matrix(y, y_pred, sample_weight=w) (its nonzero cells)",
        example=_CLASS_DEMO + ">>> sm.multiclass_confusion_matrix(df, label='y', prediction='p').values.tolist()\n"
                              "[['ant', 'ant', 1], ['ant', 'bee', 1], ['bee', 'bee', 2], ['cat', 'ant', 1], "
                              "['cat', 'cat', 1]]\n",
        undefined="the data has no rows"),
    Metric(
        name="classification_report", section="multiclass", template="classification/classification_report.sql", kind="curve",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, ZERO_DIVISION, BY),
        outputs=("class", "average", "precision", "recall", "f1", "support"),
        summary="Precision, recall, F1 and support of every class, and their micro, macro and weighted "
                "averages, as a table.",
        formula="one row per class (average NULL) in class order, then rows 'micro', 'macro', 'weighted' (class "
                "NULL, support the total), each as precision/recall/f1 with that average; sklearn's 'accuracy' "
                "entry is the micro row's f1 (= its precision = its recall).",
        math=(r"\begin{aligned}P_k &= \frac{\mathrm{TP}_k}{\mathrm{TP}_k + \mathrm{FP}_k},\; R_k "
              r"= \frac{\mathrm{TP}_k}{\mathrm{TP}_k + \mathrm{FN}_k},\; F_k = \frac{2 \mathrm{TP}_k}{2 "
              r"\mathrm{TP}_k + \mathrm{FP}_k + \mathrm{FN}_k},\; S_k = \mathrm{TP}_k + \mathrm{FN}_k "
              r"\\ \text{macro} &= \frac{1}{K} \sum_k P_k,\quad \text{weighted} = \frac{\sum_k S_k P_k}{\sum_k "
              r"S_k}\end{aligned}"),
        reference="sklearn.metrics.classification_report(y, y_pred, sample_weight=w, zero_division=..., "
                  "output_dict=True)",
        example=_CLASS_DEMO + ">>> r = sm.classification_report(df, label='y', prediction='p')\n"
                              ">>> r['class'].tolist()[:3], r['average'].tolist()[3:]\n"
                              "(['ant', 'bee', 'cat'], ['micro', 'macro', 'weighted'])\n"
                              ">>> r[r['average'] == 'macro'][['precision', 'recall', 'f1']].round(4).iloc[0].tolist()\n"
                              "[0.7222, 0.6667, 0.6556]\n",
        undefined="the data has no rows"),
    Metric(
        name="balanced_accuracy", section="multiclass", template="classification/balanced_accuracy.sql", kind="scalar",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, Param(
            "adjusted", "bool", "rescale so that chance scores 0 and perfect 1: (score - 1/K) / (1 - 1/K), K the "
            "classes with true rows.", default=False), BY),
        outputs=("balanced_accuracy", "n_classes", "n"),
        summary="Balanced accuracy: the mean recall over the classes (binary: the mean of sensitivity and "
                "specificity).",
        formula="mean over the classes k with true rows of tp_k / (tp_k + fn_k) (a class only predicted is left "
                "out, as sklearn); adjusted: (score - 1/K) / (1 - 1/K), K = n_classes (undefined for K = 1).",
        math=(r"\begin{aligned}\mathrm{BA} &= \frac{1}{K} \sum_{k:\, \mathrm{TP}_k + \mathrm{FN}_k > 0} "
              r"\frac{\mathrm{TP}_k}{\mathrm{TP}_k + \mathrm{FN}_k},\quad \mathrm{TP}_k = \sum_i "
              r"w_i\, \mathbb{1}[y_i = \hat y_i = k] \\ \mathrm{BA}_{\text{adjusted}} &= "
              r"\frac{\mathrm{BA} - 1/K}{1 - 1/K}\end{aligned}"),
        reference="sklearn.metrics.balanced_accuracy_score(y, y_pred, sample_weight=w, adjusted=...)",
        example=_CLASS_DEMO + ">>> round(sm.balanced_accuracy(df, label='y', prediction='p'), 4)\n0.6667\n",
        undefined="no class has a true row (or adjusted=True with a single one)"),
    Metric(
        name="cohen_kappa", section="multiclass", template="classification/cohen_kappa.sql", kind="scalar",
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
        math=(r"\begin{aligned}\kappa &= 1 - \frac{\sum_{j,k} v_{jk} O_{jk}}{\sum_{j,k} v_{jk} E_{jk}},\quad "
              r"O_{jk} = \sum_i w_i\, \mathbb{1}[y_i = j]\, \mathbb{1}[\hat y_i = k],\quad E_{jk} = "
              r"\frac{t_j p_k}{s} \\ v_{jk} &= \mathbb{1}[j \ne k],\; \lvert j - k \rvert \text{ or } "
              r"(j - k)^2,\quad t_j = \sum_k O_{jk},\; p_k = \sum_j O_{jk},\; s = \sum_{j,k} O_{jk}\end{aligned}"),
        reference="sklearn.metrics.cohen_kappa_score(y, y_pred, weights=..., sample_weight=w)",
        example=_CLASS_DEMO + ">>> round(sm.cohen_kappa(df, label='y', prediction='p'), 4)\n0.5\n",
        undefined="the expected disagreement is 0 (a single class)"),
    Metric(
        name="mcc", section="multiclass", template="classification/mcc.sql", kind="scalar",
        params=(CLASS_LABEL, CLASS_PREDICTION, WEIGHT, ZERO_DIVISION, BY), outputs=("mcc", "n"),
        summary="Matthews correlation coefficient, binary and multi-class: the correlation between true and "
                "predicted classes.",
        formula="MCC = (c*s - sum_k p_k*t_k) / sqrt((s^2 - sum_k p_k^2) * (s^2 - sum_k t_k^2)), s rows, c rows "
                "predicted right, t_k and p_k the true and predicted counts of class k (weight sums when "
                "weighted); binary: (tp*tn - fp*fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)) (Gorodkin 2004).",
        math=(r"\begin{aligned}\mathrm{MCC} &= \frac{c\, s - \sum_k p_k t_k}{\sqrt{\left(s^2 - \sum_k "
              r"p_k^2\right)\left(s^2 - \sum_k t_k^2\right)}} \\ s &= \sum_i w_i,\; c = \sum_i "
              r"w_i\, \mathbb{1}[\hat y_i = y_i],\; t_k = \sum_i w_i\, \mathbb{1}[y_i = k],\; p_k = \sum_i "
              r"w_i\, \mathbb{1}[\hat y_i = k]\end{aligned}"),
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
        "example of weight > 0; ovo needs two classes that are true", plan=_RANK_WHEN_DISTINCT,
        math=(r"\begin{aligned}\text{ovr} &: \frac{1}{K} \sum_c \mathrm{AUC}_c \text{ or } "
              r"\frac{\sum_c W_c \mathrm{AUC}_c}{\sum_c W_c},\; \mathrm{AUC}_c = \mathrm{AUC}(\mathbb{1}[y_i = c], "
              r"s_{ic}) \\ \text{ovo} &: \frac{1}{K(K-1)} \sum_{j \ne k} A(j \mid k),\; A(j \mid k) "
              r"= \mathrm{AUC}_{y_i \in \{j,k\}}(\mathbb{1}[y_i = j], s_{ij})\end{aligned}")),
    _class_scores_metric(
        "top_k_accuracy", (Param("k", "int", "the true class counts when among the k classes of highest score "
                                 "(sklearn's default 2).", default=2, low=1, sample=1),),
        "Top-k accuracy: the share of examples whose true class is among the k classes of highest score.",
        "top_k_accuracy = sum w*[rank of the true class <= k] / sum w; of equal scores the class later in the "
        "sorted class labels ranks first (sklearn's stable argsort, reversed), but for two classes the earlier "
        "(sklearn's binary form: the later class predicted when its probability is above 0.5).",
        "sklearn.metrics.top_k_accuracy_score(y, P, k=k, labels=classes, sample_weight=w)",
        ">>> round(sm.top_k_accuracy(df, label='label', k=1), 4)\n0.6667\n",
        math=(r"\frac{\sum_i w_i\, \mathbb{1}[r_i \le k]}{\sum_i w_i},\quad r_i = 1 + \#\{c :\, s_{ic} > s_{i y_i} "
              r"\text{ or } (s_{ic} = s_{i y_i},\; c > y_i)\}\quad (c < y_i \text{ if } K = 2)")),
    _class_scores_metric(
        "multiclass_log_loss", (),
        "Multi-class log loss (cross-entropy) of predicted class probabilities.",
        "-sum w*ln(p_true) / sum w, p_true the probability given to the true class, clipped to [eps, 1 - eps] "
        "(eps the float64 machine epsilon, as sklearn); each example's probabilities must sum to 1 within 1e-6.",
        "sklearn.metrics.log_loss(y, P, labels=classes, sample_weight=w)",
        ">>> round(sm.multiclass_log_loss(df, label='label'), 4)\n0.8256\n", probabilities=True,
        math=r"-\frac{1}{W} \sum_i w_i \ln \tilde p_{i y_i},\quad \tilde p = \min(\max(p, \epsilon), 1 - \epsilon)"),

    # -- binary extras: partial AUC, DET curve, entropy, credit-risk and marketing curves -------------
    Metric(
        name="det_curve", template="classification/det_curve.sql", kind="curve",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("threshold", "fpr", "fnr", "fp", "fn"), plan=_RANK_WHEN_DISTINCT,
        summary="Detection error tradeoff (DET) curve: false positive and false negative rates by threshold, "
                "trimmed and ordered as sklearn's det_curve.",
        formula="a row is predicted positive iff score >= threshold; fpr = fp/(fp+tn), fnr = fn/(tp+fn), at +inf "
                "and each distinct score of non-zero weight, from the last point with fp = 0 to the first with "
                "fn = 0, by threshold ascending.",
        math=(r"\mathrm{FPR}(t) = \frac{1}{W_{-}} \sum_{y_i = 0} w_i\, \mathbb{1}[s_i \ge t],\quad "
              r"\mathrm{FNR}(t) = \frac{1}{W_{+}} \sum_{y_i = 1} w_i\, \mathbb{1}[s_i < t]"),
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
        math=(r"\mathrm{NE} = \frac{-\frac{1}{W} \sum_i w_i \left(y_i \ln \tilde p_i + (1 - y_i) \ln(1 - "
              r"\tilde p_i)\right)}{-\bar y \ln \bar y - (1 - \bar y) \ln(1 - \bar y)},\quad \bar y = "
              r"\frac{1}{W} \sum_i w_i y_i,\; \tilde p_i = \min(\max(p_i, \epsilon), 1 - \epsilon)"),
        reference="sklearn.metrics.log_loss(y, p, sample_weight=w) / H(p) (He et al. 2014, Practical lessons "
                  "from predicting clicks on ads at Facebook)",
        example=_DEMO + ">>> round(sm.normalized_entropy(df, label='y', score='s'), 4)\n0.6814\n",
        undefined=_ONE_CLASS + " (a base rate strictly between 0 and 1)", better="lower"),
    Metric(
        name="relative_information_gain", template="classification/relative_information_gain.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY),
        outputs=("relative_information_gain", "log_loss", "base_rate") + _AUC_COUNTS,
        summary="Relative information gain: 1 - normalized entropy, the share of the base rate's entropy "
                "the predictions remove.",
        formula="RIG = 1 - log_loss / H(p), p and H as normalized_entropy.",
        math=(r"\mathrm{RIG} = 1 - \frac{-\frac{1}{W} \sum_i w_i \left(y_i \ln \tilde p_i + (1 - y_i) \ln(1 - "
              r"\tilde p_i)\right)}{-\bar y \ln \bar y - (1 - \bar y) \ln(1 - \bar y)},\quad \bar y = "
              r"\frac{1}{W} \sum_i w_i y_i,\; \tilde p_i = \min(\max(p_i, \epsilon), 1 - \epsilon)"),
        reference="1 - sklearn.metrics.log_loss(y, p, sample_weight=w) / H(p) (He et al. 2014)",
        example=_DEMO + ">>> round(sm.relative_information_gain(df, label='y', score='s'), 4)\n0.3186\n",
        undefined=_ONE_CLASS + " (a base rate strictly between 0 and 1)"),
    Metric(
        name="copc", template="classification/copc.sql", kind="scalar",
        params=(LABEL, PROBABILITY, WEIGHT, BY), outputs=("copc",) + _AUC_COUNTS,
        summary="COPC: clicks over predicted clicks, observed over expected positives (1.0 = calibrated, "
                "below 1 over-predicts); the reciprocal of calibration.",
        formula="sum_i w_i*y_i / sum_i w_i*p_i",
        math=r"\mathrm{COPC} = \frac{\sum_i w_i y_i}{\sum_i w_i p_i}",
        reference="plain definition (checked against numpy)",
        example=_DEMO + ">>> round(sm.copc(df, label='y', score='s'), 4)\n1.2121\n",
        undefined="the predicted probabilities sum to 0", better="neither"),
    Metric(
        name="ks_statistic", template="classification/ks_statistic.sql", kind="record",
        params=(LABEL, SCORE, WEIGHT, BY), outputs=("ks_statistic", "threshold", "tpr", "fpr", "n_pos", "n_neg"),
        defined_by=("ks_statistic",), plan=_RANK_WHEN_DISTINCT,
        summary="Kolmogorov-Smirnov statistic of a score (credit scoring): the largest gap tpr - fpr over "
                "thresholds, with the threshold where it is reached.",
        formula="KS = max over thresholds t (including +inf) of tpr(t) - fpr(t), positive iff score >= t: the "
                "largest gap between the score distributions of negatives and positives, signed (0 when the "
                "score ranks negatives higher); ties: the highest threshold.",
        math=(r"\mathrm{KS} = \max_{t} \left(\mathrm{TPR}(t) - \mathrm{FPR}(t)\right),\quad \mathrm{TPR}(t) "
              r"= \frac{\sum_{y_i = 1} w_i\, \mathbb{1}[s_i \ge t]}{W_{+}},\quad \mathrm{FPR}(t) = "
              r"\frac{\sum_{y_i = 0} w_i\, \mathbb{1}[s_i \ge t]}{W_{-}}"),
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
        math=(r"\begin{aligned}t^{*} &= \operatorname{argmax}_t\, F_\beta(t) \text{ or } J(t),\quad J(t) "
              r"= \mathrm{TPR}(t) - \mathrm{FPR}(t),\quad \hat y_i = \mathbb{1}[s_i \ge t] \\ F_\beta(t) "
              r"&= \frac{(1 + \beta^2)\, \mathrm{TP}(t)}{(1 + \beta^2)\, \mathrm{TP}(t) + \beta^2\, \mathrm{FN}(t) "
              r"+ \mathrm{FP}(t)}\end{aligned}"),
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
            "split, so some bins may stay empty.", default=10, low=1, sample=7), BY),
        outputs=outputs, summary=summary,
        formula="rows sorted by score descending; the tie group of a score goes whole to bin FLOOR(n_bins * "
                "W_above / W) + 1 (W_above: the weight scoring strictly higher, W: the slice's; rows when "
                "unweighted), 1 = the highest scores; per non-empty bin, over the rows of bins 1 .. b (score >= "
                "threshold, the bin's lowest score): share = their weight / W, gain = their positive weight / "
                "W_pos, lift = gain / share; bin_lift = the bin's positive rate / the slice's; n, n_pos: the "
                "bin's rows and positive rows.",
        reference="pandas from the definition; on distinct scores kds.metrics.decile_table's deciles "
                  "(cum_cust_pct, cum_resp_pct, lift) and scikit-plot's cumulative_gain_curve at the bin ends",
        math=math, example=example, undefined="it needs at least one positive label")
      for name, outputs, summary, math, example in [
        ("gain_curve", ("bin", "share", "gain", "lift", "threshold", "n", "n_pos"),
         "Cumulative gains by score bins (deciles): the share of the positives caught by the top bins.",
         r"\begin{aligned}b_i &= \min\left(\operatorname{floor}(B\, W_{>s_i} / W) + 1, B\right),\quad W_{>s} "
         r"= \sum_{s_j > s} w_j \\ \mathrm{share}_b &= \frac{\sum_{b_i \le b} w_i}{W},\quad \mathrm{gain}_b "
         r"= \frac{\sum_{b_i \le b} w_i y_i}{W_{+}},\quad \mathrm{lift}_b = "
         r"\frac{\mathrm{gain}_b}{\mathrm{share}_b}\end{aligned}",
         _DEMO + ">>> sm.gain_curve(df, label='y', score='s', n_bins=4)[['bin', 'share', 'gain']].values.tolist()\n"
                 "[[1.0, 0.25, 0.5], [2.0, 0.5, 0.5], [3.0, 0.75, 1.0], [4.0, 1.0, 1.0]]\n"),
        ("lift_curve", ("bin", "share", "lift", "bin_lift", "threshold", "n", "n_pos"),
         "Lift by score bins (deciles): the positive rate of the top bins over the overall rate.",
         r"\begin{aligned}b_i &= \min\left(\operatorname{floor}(B\, W_{>s_i} / W) + 1, B\right),\quad W_{>s} "
         r"= \sum_{s_j > s} w_j \\ \mathrm{lift}_b &= \frac{W \sum_{b_i \le b} w_i y_i}{W_{+} \sum_{b_i \le b} "
         r"w_i},\quad \text{bin lift}_b = \frac{W \sum_{b_i = b} w_i y_i}{W_{+} \sum_{b_i = b} w_i}\end{aligned}",
         _DEMO + ">>> sm.lift_curve(df, label='y', score='s', n_bins=2)[['bin', 'lift', 'bin_lift']].values.tolist()\n"
                 "[[1.0, 1.0, 1.0], [2.0, 1.0, 1.0]]\n"),
    ]],

]
