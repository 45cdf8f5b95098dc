"""``sm.drift``: did the distribution of each column move between a reference window and a current one?
One statement computes every column's two-sample statistics (the metric drift_statistics); each
method's p-value and its drift flag are computed here from them (sqlmetrics.drift_pvalues)."""
from __future__ import annotations

import math

from .api import compute_metric
from .drift_pvalues import cvm_pvalue, ks_pvalue, mannwhitney_pvalue
from .errors import ParameterError
from .registry import METRICS

#: method -> (what it is, its default threshold on the statistic, or None: a test, drifted when p < alpha)
METHODS = {
    "ks": ("two-sample Kolmogorov-Smirnov test (scipy.stats.ks_2samp; asymptotic p-value)", None),
    "mannwhitneyu": ("Mann-Whitney U test (scipy.stats.mannwhitneyu; asymptotic, ties and continuity "
                     "corrected)", None),
    "cramervonmises": ("two-sample Cramer-von Mises test (scipy.stats.cramervonmises_2samp; asymptotic)", None),
    "wasserstein": ("Wasserstein-1 distance (scipy.stats.wasserstein_distance), in the column's units", None),
    "wasserstein_normed": ("Wasserstein-1 distance over the reference's standard deviation (at least 0.001), "
                           "Evidently's 'wasserstein' stat test", 0.1),
    "energy": ("energy distance (scipy.stats.energy_distance)", 0.1),
}
_TESTS = ("ks", "mannwhitneyu", "cramervonmises")
_OUTPUTS = ("column", "method", "statistic", "p_value", "threshold", "drift", "n_reference", "n_current",
            "n_missing_reference", "n_missing_current")


def drift(reference, current, columns, *, method="ks", alpha: float = 0.05, threshold: float | None = None,
          weight: str | None = None, by=None, con=None, dialect: str | None = None):
    """Whether each numeric column's distribution moved from `reference` to `current`: one row per
    (slice, column, method) with the method's statistic, its p-value (the tests), its threshold and the
    drift flag, and each window's values and missing values (NULLs: counted and left out).

    reference, current: the two windows, tables, queries, files or frames with the same columns.
    columns: the numeric columns compared (one statement reads each window once, whatever their number).
    method: one of {methods}, or a list of them (all from the same statement).
    alpha: a test (ks, mannwhitneyu, cramervonmises) flags drift when p_value < alpha.
    threshold: a distance flags drift when statistic >= threshold; the default is Evidently's (0.1) for
        wasserstein_normed and energy; wasserstein, in the column's units, has none: pass it.
    weight: a weight column of both windows, for the distances and ks's statistic (the tests' p-values
        have no weights: refused with it).
    by: slice columns (a row per slice and column); con, dialect: as for every metric.
    """
    methods = [method] if isinstance(method, str) else list(method)
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise ParameterError(f"drift: unknown method {unknown[0] if unknown else None!r}; the methods: "
                             + ", ".join(METHODS))
    if not 0 < alpha < 1:
        raise ParameterError(f"drift: alpha must be in (0, 1), not {alpha!r}")
    if weight is not None and (weighted := [m for m in methods if m in _TESTS]):
        raise ParameterError(f"drift: method {weighted[0]!r} is a test of counts, whose p-value has no weights; "
                             "with weight= use 'wasserstein', 'wasserstein_normed' or 'energy'")
    if "wasserstein" in methods and threshold is None:
        raise ParameterError("drift: method 'wasserstein' is in the column's units: pass threshold= (or use "
                             "'wasserstein_normed', Evidently's, whose threshold is 0.1 by default)")
    names = [columns] if isinstance(columns, str) else list(columns)
    statistics = compute_metric(METRICS["drift_statistics"], reference, current=current, columns=names,
                                weight=weight, by=by, con=con, dialect=dialect)
    slices = [by] if isinstance(by, str) else list(by or [])
    rows = []
    for _, row in statistics.iterrows():
        n_ref, n_cur = int(row["n_reference"]), int(row["n_current"])
        column = names[int(row["column_index"]) - 1]
        if n_ref == 0 or n_cur == 0:
            window = "reference" if n_ref == 0 else "current"
            where = f" (slice {dict(zip(slices, row[slices]))})" if slices else ""
            raise ParameterError(f"drift: column {column!r} has no value in the {window} window{where}: nothing to "
                                 "compare")
        for name in methods:
            statistic, p_value = _statistic(name, row, n_ref, n_cur)
            cut = threshold if threshold is not None else METHODS[name][1]
            flag = p_value < alpha if name in _TESTS else statistic >= cut
            rows.append([*(row[s] for s in slices), column, name, statistic, p_value,
                         None if name in _TESTS else cut, bool(flag), n_ref, n_cur,
                         int(row["n_missing_reference"]), int(row["n_missing_current"])])
    import pandas as pd  # the result is a frame: pandas is loaded already with the statistics
    return pd.DataFrame(rows, columns=[*slices, *_OUTPUTS])


def _statistic(method: str, row, n_ref: int, n_cur: int) -> tuple[float, float]:
    """The method's statistic and p-value (NaN for a distance) from drift_statistics' row."""
    if method == "ks":
        return row["ks"], ks_pvalue(row["ks"], n_ref, n_cur)
    if method == "mannwhitneyu":
        return row["mannwhitney_u"], mannwhitney_pvalue(row["mannwhitney_u"], n_ref, n_cur, row["tie_term"])
    if method == "cramervonmises":
        return row["cramervonmises"], cvm_pvalue(row["cramervonmises"], n_ref, n_cur)
    if method == "wasserstein_normed":
        return row["wasserstein"] / max(row["reference_std"], 0.001), math.nan
    return row[method], math.nan


drift.__doc__ = drift.__doc__.format(methods=", ".join(f"'{m}' ({what})" for m, (what, _) in METHODS.items()))
