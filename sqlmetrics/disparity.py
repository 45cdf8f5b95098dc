"""``sm.group_disparity``: any metric of one value across the groups of sensitive features, as
fairlearn's MetricFrame (by_group, overall, difference, ratio, group_min, group_max), run by the
engine in one statement (sql/group_disparity.sql). The metric's own checks and engines apply: the
disparity is a metric of its own (registry.disparity_of)."""
from __future__ import annotations

from .api import compute_metric
from .registry import disparity_of


def group_disparity(data, metric: str, sensitive, *, method: str = "between_groups", per_group: bool = False,
                    con=None, dialect=None, details: bool = False, dropna: bool = False, **params):
    """How far apart the groups of `sensitive` are by `metric`, computed by the engine.

    The metric runs per group (each combination of the `sensitive` columns' values, within each
    ``by`` slice) and on all the rows (of the slice), in one statement, and the groups' values are
    summarised as fairlearn's ``MetricFrame(metrics=..., sensitive_features=..., control_features=by)``
    summarises them.

    Parameters
        data, con, dialect, dropna: as for the metric.
        metric: the name of a metric of one value per slice (``recall``, ``precision``, ``accuracy``,
            ``auc``, ``log_loss``, ``mae``, ``r2``, ...); its parameters follow as keywords (``label=``,
            ``score=``, ``weight=``, ``by=``, ...). Not a curve, a table, a ranking metric (values per
            query) or a fairness metric (a disparity already).
        sensitive: the sensitive feature column(s) (fairlearn's sensitive_features); NULL is an error.
        method: ``"between_groups"`` (difference = group_max - group_min, ratio = group_min /
            group_max) or ``"to_overall"`` (difference = the largest |value - overall|, ratio = the
            smallest of value / overall or its inverse, whichever is at most 1), fairlearn's
            ``MetricFrame.difference(method=)`` and ``ratio(method=)``.
        per_group: return a DataFrame with a row per group (below) instead of the summaries.
        details: return the summaries as a one-row DataFrame.

    Returns
        dict of difference, ratio, group_min, group_max, overall (the metric on all the rows) and
        n_groups; with ``by=`` a DataFrame with a row per slice. With per_group=True a DataFrame with
        a row per (slice and) group: the ``by`` and `sensitive` columns, the group's value in a
        column named as the metric (MetricFrame.by_group), then its slice's summaries, repeated.

    Undefined (UndefinedMetricError; NaN in a ``by`` slice) with fewer than two groups (fairlearn's
    difference is then 0: no disparity measured) or a group whose value is undefined (a group
    without positive labels for recall, or of one class for auc: the error names the metric's own
    rule; group_min and group_max are NaN too, which fairlearn's would leave it out of); ratio alone
    is NaN over a group_max (to_overall: an overall) of 0. A metric's value that fairlearn's
    reference function takes as 0 where it is 0/0 (scikit-learn's zero_division) is undefined here.

    >>> import pandas as pd, sqlmetrics as sm
    >>> df = pd.DataFrame({'y': [1, 1, 0, 0, 1, 1, 0, 0], 'p': [1, 1, 1, 0, 1, 0, 0, 0],
    ...                    'sex': ['f', 'f', 'f', 'f', 'm', 'm', 'm', 'm']})
    >>> r = sm.group_disparity(df, 'recall', sensitive=['sex'], label='y', prediction='p')
    >>> r['difference'], r['ratio'], r['overall'], r['n_groups']
    (0.5, 0.5, 0.75, 2)
    >>> sm.group_disparity(df, 'recall', sensitive=['sex'], label='y', prediction='p', per_group=True)
      sex  recall  difference  ratio  group_min  group_max  overall  n_groups
    0   f     1.0         0.5    0.5        0.5        1.0     0.75         2
    1   m     0.5         0.5    0.5        0.5        1.0     0.75         2
    """
    m, params = disparity_of(metric, dict(params, sensitive=sensitive, method=method, per_group=per_group))
    result = compute_metric(m, data, con=con, dialect=dialect, details=details or per_group, dropna=dropna, **params)
    if per_group:  # a row per group, in the order of its keys
        keys = [params["by"]] if isinstance(params.get("by"), str) else list(params.get("by") or [])
        keys += [sensitive] if isinstance(sensitive, str) else list(sensitive)
        result = result.sort_values(keys, na_position="last", kind="stable").reset_index(drop=True)
    return result
