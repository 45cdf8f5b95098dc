"""The regression metrics, each as the scikit-learn function of its name. registry.py assembles the
catalogue from this list and the other families'."""
from __future__ import annotations

from .metric import Metric
from .params import (BY, LOG_PREDICTION, LOG_TARGET, PREDICTION, TARGET, WEIGHT)
from .plans import ParallelWhenDistributed

_NO_WEIGHT = "the data has no rows (or zero total weight)"
_PARALLEL = ParallelWhenDistributed()


def _regression_metric(name, summary, formula, ref, value, undefined=_NO_WEIGHT, plan=None,
                       columns=(TARGET, PREDICTION), weighted=True, better="lower", extra=(), **fields):
    """A metric of a target and a prediction column (`extra`: its own parameters after them), with its
    sklearn function `ref` (which takes sample_weight where the metric is `weighted`) and an example on
    sklearn's documented data: an error, better lower, but for the shares of variance or deviation
    explained (`better`); `fields`, any other field of its entry (metric.Metric)."""
    return Metric(
        name=name, template=f"regression/{name}.sql", kind="scalar",
        params=columns + tuple(extra) + ((WEIGHT,) if weighted else ()) + (BY,), outputs=(name, "n"), plan=plan,
        section="regression",
        summary=summary, formula=formula,
        reference=f"sklearn.metrics.{ref}(y, y_pred{', sample_weight=w' if weighted else ''})",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'y': [3.0, -0.5, 2.0, 7.0], 'p': [2.5, 0.0, 2.0, 8.0]})\n"
                 f">>> round(sm.{name}(df, target='y', prediction='p'), 4)\n{value}\n"),
        undefined=undefined, better=better, **fields)



#: the regression metrics, in catalogue order
REGRESSION = [
    *[_regression_metric(*entry, math=math) for *entry, math in [
        ("mae", "Mean absolute error.", "(1/W) * sum_i w_i*|y_i - p_i|", "mean_absolute_error", "0.5",
         r"\mathrm{MAE} = \frac{1}{W} \sum_{i} w_i \lvert y_i - \hat{y}_i \rvert,\quad W = \sum_i w_i"),
        ("mse", "Mean squared error.", "(1/W) * sum_i w_i*(y_i - p_i)^2", "mean_squared_error", "0.375",
         r"\mathrm{MSE} = \frac{1}{W} \sum_{i} w_i (y_i - \hat{y}_i)^2,\quad W = \sum_i w_i"),
        ("rmse", "Root mean squared error.", "sqrt(MSE)", "root_mean_squared_error", "0.6124",
         r"\mathrm{RMSE} = \sqrt{\frac{1}{W} \sum_{i} w_i (y_i - \hat{y}_i)^2},\quad W = \sum_i w_i"),
    ]],
    _regression_metric(
        "r2", "Coefficient of determination.",
        "1 - sum w*(y - p)^2 / sum w*(y - mean_w(y))^2; as sklearn, a constant target gives 1.0 for a "
        "perfect prediction and 0.0 otherwise", "r2_score", "0.9486",
        "it needs at least two rows", _PARALLEL, better="higher",
        math=(r"R^2 = 1 - \frac{\sum_i w_i (y_i - \hat{y}_i)^2}{\sum_i w_i (y_i - \bar{y})^2},\quad \bar{y} = "
              r"\frac{\sum_i w_i y_i}{\sum_i w_i}")),
    # -- regression extras -----------------------------------------------------------------------------
    _regression_metric(
        "mape", "Mean absolute percentage error (a ratio: 0.1 is 10%).",
        "(1/W) * sum_i w_i*|y_i - p_i| / max(|y_i|, eps), eps = 2.220446049250313e-16 (the float64 machine "
        "epsilon): a zero target gives a huge term, not an error", "mean_absolute_percentage_error", "0.3274",
        math=(r"\mathrm{MAPE} = \frac{1}{W} \sum_{i} w_i \frac{\lvert y_i - \hat{y}_i \rvert}{\max(\lvert y_i "
              r"\rvert, \epsilon)},\quad \epsilon = 2^{-52},\ W = \sum_i w_i")),
    _regression_metric(
        "msle", "Mean squared logarithmic error.", "(1/W) * sum_i w_i*(ln(1 + y_i) - ln(1 + p_i))^2; targets and "
        "predictions must be above -1", "mean_squared_log_error", "0.128", columns=(LOG_TARGET, LOG_PREDICTION),
        math=(r"\mathrm{MSLE} = \frac{1}{W} \sum_{i} w_i \left(\ln(1 + y_i) - \ln(1 + \hat{y}_i)\right)^2,\quad W = "
              r"\sum_i w_i")),
    _regression_metric(
        "rmsle", "Root mean squared logarithmic error.", "sqrt(MSLE)", "root_mean_squared_log_error", "0.3578",
        columns=(LOG_TARGET, LOG_PREDICTION),
        math=(r"\mathrm{RMSLE} = \sqrt{\frac{1}{W} \sum_{i} w_i \left(\ln(1 + y_i) - \ln(1 + "
              r"\hat{y}_i)\right)^2},\quad W = \sum_i w_i")),
    _regression_metric(
        "median_absolute_error", "Median absolute error: robust to outliers.",
        "the weighted median of |y - p|: unweighted the middle value (the mean of the two middle ones for "
        "an even count, as numpy.median); weighted, over the distinct values of positive weight in "
        "increasing order, the first whose running weight reaches W/2, averaged with the next one when "
        "it reaches W/2 exactly (sklearn's averaged inverted CDF, _weighted_percentile(average=True))",
        "median_absolute_error", "0.5", plan=_PARALLEL,
        math=(r"\mathrm{MedAE} = \operatorname{median}_w \lvert y_i - \hat{y}_i \rvert,\quad "
              r"\operatorname{median}_w \text{ the median weighted by } w_i")),
    _regression_metric(
        "explained_variance", "Explained variance: the share of the target's variance the prediction "
        "explains, ignoring a constant bias.",
        "1 - Var_w(y - p) / Var_w(y), weighted variances about weighted means; as sklearn (force_finite), "
        "1.0 when y - p is constant (one row included) and 0.0 for a constant target otherwise",
        "explained_variance_score", "0.9572", plan=_PARALLEL, better="higher",
        math=(r"\mathrm{EV} = 1 - \frac{\operatorname{Var}_w(y - \hat{y})}{\operatorname{Var}_w(y)},\quad "
              r"\operatorname{Var}_w(x) = \frac{1}{W} \sum_i w_i (x_i - \bar{x})^2,\ \bar{x} = \frac{1}{W} \sum_i "
              r"w_i x_i")),
    _regression_metric(
        "max_error", "Largest absolute error.", "max_i |y_i - p_i| (unweighted, as sklearn)", "max_error", "1.0",
        undefined="the data has no rows", weighted=False,
        math=r"\text{max error} = \max_i \lvert y_i - \hat{y}_i \rvert"),
    _regression_metric(
        "d2_absolute_error", "D^2 of the absolute error: the share of the absolute deviation about the "
        "target's median that the prediction removes.",
        "1 - sum w*|y - p| / sum w*|y - median_w(y)|, median_w the weighted median of median_absolute_error; "
        "as sklearn (force_finite), 1.0 for a perfect prediction, else 0.0 for a constant target",
        "d2_absolute_error_score", "0.7647", "it needs at least two rows", plan=_PARALLEL, better="higher",
        math=(r"D^2 = 1 - \frac{\sum_i w_i \lvert y_i - \hat{y}_i \rvert}{\sum_i w_i \lvert y_i - "
              r"\operatorname{median}_w(y) \rvert},\quad \operatorname{median}_w "
              r"\text{ the median weighted by } w_i")),

]
