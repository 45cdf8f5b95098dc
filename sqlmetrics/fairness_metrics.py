"""The fairness metrics: the disparity of a rate of the binary confusion counts (selection rate, true
and false positive rates) across the groups of sensitive features, as fairlearn.metrics defines them.
registry.py assembles the catalogue from this list and the other families'."""
from __future__ import annotations

from .metric import Metric
from .params import BINARY_PREDICTION, BY, LABEL, OPT_SCORE, THRESHOLD, WEIGHT, Param

SENSITIVE = Param("sensitive", "columns", "the sensitive feature column(s) (fairlearn's sensitive_features): a group "
                  "is each combination of their values; NULL is an error.", role="group")
METHOD = Param("method", "choice", "'between_groups': between the groups' largest and smallest rates; 'to_overall': "
               "between each group's rate and the rate of all the rows (of the slice), the worst of the groups.",
               default="between_groups", choices=("between_groups", "to_overall"))
AGG = Param("agg", "choice", "how the disparities of the two rates combine (fairlearn's agg): 'worst_case' the "
            "larger difference (the smaller ratio), 'mean' their mean.", default="worst_case",
            choices=("worst_case", "mean"))
#: group_disparity's: its method, over any metric's values, and its rows per group
VALUE_METHOD = Param("method", "choice", "'between_groups': between the groups' largest and smallest values; "
                     "'to_overall': between each group's value and the metric on all the rows (of the slice), the "
                     "worst of the groups (fairlearn's MetricFrame.difference and ratio).",
                     default="between_groups", choices=("between_groups", "to_overall"))
PER_GROUP = Param("per_group", "bool", "one row per group (of each slice): the sensitive columns, the group's value "
                  "of the metric (a column named as the metric) and the slice's summaries (fairlearn's "
                  "MetricFrame.by_group beside them).", default=False)
_PARAMS = (LABEL, SENSITIVE, OPT_SCORE, THRESHOLD, BINARY_PREDICTION, WEIGHT, METHOD, BY)
_ONE_RATE = ("group_min", "group_max", "overall", "n_groups", "n")
_RATES = {"selection": "selection rate (weight predicted positive / all weight)",
          "tpr": "true positive rate (tp / (tp + fn))"}
_DIFFERENCE = ("between_groups: max_g r_g - min_g r_g; to_overall: max_g |r_g - r|, r the rate of all the rows")
_RATIO = ("between_groups: min_g r_g / max_g r_g; to_overall: min_g of r_g / r or r / r_g, whichever is at most 1")
_FEW = "there are fewer than two groups (fairlearn gives 0 for a difference and 1 for a ratio: no disparity measured)"
#: why a group's rate can be 0/0, for the selection rate and for the true (and false) positive rates
_ZERO_RATE = {"selection": "a group's weights are all 0, so it has no selection rate (fairlearn leaves it out)",
              "tpr": "a group weighs 0 in a rate's denominator: one without positive labels has no true positive "
                     "rate, one without negatives no false positive rate (fairlearn counts either as 0, a "
                     "disparity the data does not show), one whose weights are all 0 neither (fairlearn leaves it out)"}
_ZERO_MAX = "; or the largest (to_overall: the overall) rate is 0, 0/0 (fairlearn: NaN)"
_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
         ">>> df = pd.DataFrame({'y': [1, 1, 0, 0, 1, 1, 0, 0], 'p': [1, 1, 1, 0, 1, 0, 0, 0],\n"
         "...                    'sex': ['f', 'f', 'f', 'f', 'm', 'm', 'm', 'm']})\n")


def _fairness_metric(name, agg, rates, summary, example, math):
    """A disparity (agg 'difference' or 'ratio') of the rates; of two, the worse or their mean (fairlearn's agg=);
    `math`, its definition as LaTeX (Metric.math)."""
    disparity = _DIFFERENCE if agg == "difference" else _RATIO
    if len(rates) == 2:
        formula = (f"For r_g the true positive rate (tp / (tp + fn)) of group g, and again for r_g its false positive "
                   f"rate (fp / (fp + tn)): {disparity}; the value is the {'larger' if agg == 'difference' else 'smaller'}"
                   " of the two (fairlearn's agg='worst_case', the default) or their mean (agg='mean').")
        outputs = (f"tpr_{agg}", f"fpr_{agg}", "n_groups", "n")
        params = _PARAMS[:-1] + (AGG,) + _PARAMS[-1:]
    else:
        formula = f"r_g = {_RATES[rates[0]]} of group g; {disparity}."
        outputs = _ONE_RATE
        params = _PARAMS
    return Metric(
        name=name, template=f"fairness/{name}.sql", kind="scalar", params=params, outputs=(name,) + outputs,
        summary=summary, formula=formula + " With weight, the counts are weight sums (fairlearn's sample_weight).",
        math=math,
        one_of=("score", "prediction"),
        reference=f"fairlearn.metrics.{name}(y, y_pred, sensitive_features=..., method=..., "
                  + ("agg=..., " if len(rates) == 2 else "") + "sample_weight=w)",
        example=_DEMO + example,
        undefined=f"{_FEW}; or {_ZERO_RATE[rates[0]]}" + (_ZERO_MAX if agg == "ratio" else ""),
        section="fairness", better="lower" if agg == "difference" else "higher")


#: the fairness metrics, in catalogue order
FAIRNESS = [
    _fairness_metric("demographic_parity_difference", "difference", ("selection",),
                     "Demographic parity difference: how far apart the groups' selection rates are (0: equal).",
                     ">>> sm.demographic_parity_difference(df, label='y', prediction='p', sensitive=['sex'])\n0.5\n",
                     math=(r"\begin{aligned}r_g &= \frac{\sum_{i \in g} w_i \hat{y}_i}{\sum_{i \in g} w_i}\ "
                           r"\text{(selection rate)},\quad r_{\mathrm{all}} \text{ over all rows} \\ \mathrm{DPD} "
                           r"&= \max_g r_g - \min_g r_g\ \text{(between groups)} \quad\text{or}\quad \max_g \lvert "
                           r"r_g - r_{\mathrm{all}} \rvert\ \text{(to overall)}\end{aligned}")),
    _fairness_metric("demographic_parity_ratio", "ratio", ("selection",),
                     "Demographic parity ratio: the smallest group's selection rate over the largest's (1: equal).",
                     ">>> round(sm.demographic_parity_ratio(df, label='y', prediction='p', sensitive=['sex']), 4)\n"
                     "0.3333\n",
                     math=(r"\begin{aligned}r_g &= \frac{\sum_{i \in g} w_i \hat{y}_i}{\sum_{i \in g} w_i}\ "
                           r"\text{(selection rate)},\quad r_{\mathrm{all}} \text{ over all rows} \\ \mathrm{DPR} "
                           r"&= \frac{\min_g r_g}{\max_g r_g}\ \text{(between groups)} \quad\text{or}\quad \min_g "
                           r"\min\left(\frac{r_g}{r_{\mathrm{all}}}, \frac{r_{\mathrm{all}}}{r_g}\right)\ "
                           r"\text{(to overall)}\end{aligned}")),
    _fairness_metric("equal_opportunity_difference", "difference", ("tpr",),
                     "Equal opportunity difference: how far apart the groups' true positive rates are (0: equal).",
                     ">>> sm.equal_opportunity_difference(df, label='y', prediction='p', sensitive=['sex'])\n0.5\n",
                     math=(r"\begin{aligned}r_g &= \frac{\mathrm{TP}_g}{\mathrm{TP}_g + \mathrm{FN}_g}\ "
                           r"\text{(true positive rate)},\quad r_{\mathrm{all}} \text{ over all rows} \\ "
                           r"\mathrm{EOD} &= \max_g r_g - \min_g r_g\ \text{(between groups)} \quad\text{or}\quad "
                           r"\max_g \lvert r_g - r_{\mathrm{all}} \rvert\ \text{(to overall)}\end{aligned}")),
    _fairness_metric("equal_opportunity_ratio", "ratio", ("tpr",),
                     "Equal opportunity ratio: the smallest group's true positive rate over the largest's (1: equal).",
                     ">>> sm.equal_opportunity_ratio(df, label='y', prediction='p', sensitive=['sex'])\n0.5\n",
                     math=(r"\begin{aligned}r_g &= \frac{\mathrm{TP}_g}{\mathrm{TP}_g + \mathrm{FN}_g}\ "
                           r"\text{(true positive rate)},\quad r_{\mathrm{all}} \text{ over all rows} \\ "
                           r"\mathrm{EOR} &= \frac{\min_g r_g}{\max_g r_g}\ \text{(between groups)} "
                           r"\quad\text{or}\quad \min_g \min\left(\frac{r_g}{r_{\mathrm{all}}}, "
                           r"\frac{r_{\mathrm{all}}}{r_g}\right)\ \text{(to overall)}\end{aligned}")),
    _fairness_metric("equalized_odds_difference", "difference", ("tpr", "fpr"),
                     "Equalized odds difference: the larger (or the mean) of the groups' disparities in true and in "
                     "false positive rate (0: equal).",
                     ">>> sm.equalized_odds_difference(df, label='y', prediction='p', sensitive=['sex'])\n0.5\n",
                     math=(r"\begin{aligned}D(x) &= \max_g x_g - \min_g x_g\ \text{(between groups) or } \max_g "
                           r"\lvert x_g - x_{\mathrm{all}} \rvert\ \text{(to overall)} \\ \mathrm{EOdD} &= "
                           r"\max\left(D(\mathrm{TPR}), D(\mathrm{FPR})\right) \text{ or their mean},\quad "
                           r"\mathrm{TPR} = \frac{\mathrm{TP}}{\mathrm{TP} + \mathrm{FN}},\ \mathrm{FPR} = "
                           r"\frac{\mathrm{FP}}{\mathrm{FP} + \mathrm{TN}}\end{aligned}")),
    _fairness_metric("equalized_odds_ratio", "ratio", ("tpr", "fpr"),
                     "Equalized odds ratio: the smaller (or the mean) of the groups' ratios of true and of false "
                     "positive rate (1: equal).",
                     ">>> sm.equalized_odds_ratio(df, label='y', prediction='p', sensitive=['sex'])\n0.0\n",
                     math=(r"\begin{aligned}D(x) &= \frac{\min_g x_g}{\max_g x_g}\ \text{(between groups) or } "
                           r"\min_g \min\left(\frac{x_g}{x_{\mathrm{all}}}, \frac{x_{\mathrm{all}}}{x_g}\right)\ "
                           r"\text{(to overall)} \\ \mathrm{EOdR} &= \min\left(D(\mathrm{TPR}), "
                           r"D(\mathrm{FPR})\right) \text{ or their mean},\quad \mathrm{TPR} = "
                           r"\frac{\mathrm{TP}}{\mathrm{TP} + \mathrm{FN}},\ \mathrm{FPR} = "
                           r"\frac{\mathrm{FP}}{\mathrm{FP} + \mathrm{TN}}\end{aligned}")),
]
