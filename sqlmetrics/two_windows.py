"""``sm.drift``: did the distribution of each column move between a reference window and a current one?
One statement computes every column's two-sample statistics (the metric drift_statistics); each
method's p-value and its drift flag are computed here from them (sqlmetrics.drift_pvalues)."""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from .api import compute_metric
from .drift_pvalues import chi2_pvalue, cvm_pvalue, ks_pvalue, mannwhitney_pvalue, normal_pvalue
from .errors import ParameterError
from .registry import METRICS


@dataclass(frozen=True)
class Method:
    what: str
    #: a test's alpha (drift when its p-value is below it) or a distance's threshold (drift when the
    #: statistic reaches it); None: the caller must give one. Evidently's defaults.
    default: float | None
    test: bool = False
    #: the flag holds at the bound too (p <= alpha, statistic >= threshold): Evidently's, method by method
    inclusive: bool = False
    #: compares numbers (a sort): not for a categorical column
    numeric: bool = False


METHODS = {
    "ks": Method("two-sample Kolmogorov-Smirnov test (scipy.stats.ks_2samp; asymptotic p-value)", 0.05,
                 test=True, inclusive=True, numeric=True),
    "mannwhitneyu": Method("Mann-Whitney U test (scipy.stats.mannwhitneyu; asymptotic, ties and continuity "
                           "corrected)", 0.05, test=True, numeric=True),
    "cramervonmises": Method("two-sample Cramer-von Mises test (scipy.stats.cramervonmises_2samp; asymptotic)",
                             0.1, test=True, inclusive=True, numeric=True),
    "wasserstein": Method("Wasserstein-1 distance (scipy.stats.wasserstein_distance), in the column's units", None,
                          inclusive=True, numeric=True),
    "wasserstein_normed": Method("Wasserstein-1 distance over the reference's standard deviation (at least "
                                 "0.001), Evidently's 'wasserstein' stat test", 0.1, inclusive=True, numeric=True),
    "energy": Method("energy distance (scipy.stats.energy_distance)", 0.1, numeric=True),
    "psi": Method("population stability index over the bins or categories (Evidently's empty-bin rule)", 0.1,
                  inclusive=True),
    "kl_divergence": Method("Kullback-Leibler divergence of the current shares from the reference's "
                            "(scipy.stats.entropy; Evidently's empty-bin rule)", 0.1, inclusive=True),
    "jensenshannon": Method("Jensen-Shannon distance, natural logarithm (scipy.spatial.distance.jensenshannon)",
                            0.1, inclusive=True),
    "hellinger": Method("Hellinger distance over the bins or categories", 0.1, inclusive=True),
    "total_variation": Method("total variation distance, half the sum of the shares' differences", None,
                              inclusive=True),
    "chisquare": Method("chi-square test of the current counts against the reference's shares "
                        "(scipy.stats.chisquare)", 0.05, test=True),
    "g_test": Method("G-test (log-likelihood ratio) of the current counts against the reference's shares "
                     "(scipy.stats.power_divergence)", 0.1, test=True),
    "two_proportion_z": Method("two-proportion z-test of a column of two values (pooled variance)", 0.05,
                               test=True),
}
_OUTPUTS = ("column", "method", "statistic", "p_value", "threshold", "drift", "n_reference", "n_current",
            "n_missing_reference", "n_missing_current")


def drift(reference, current, columns=(), *, categorical=(), method="ks", alpha: float | None = None,
          threshold: float | dict | None = None, binning: str = "quantile", n_bins: int = 10, edges=None,
          weight: str | None = None, by=None, con=None, dialect: str | None = None):
    """Whether each column's distribution moved from `reference` to `current`: one row per (slice,
    column, method) with the method's statistic, its p-value (the tests), the bound its flag used
    (threshold: alpha for a test) and the drift flag, and each window's values and missing values
    (NULLs: counted and left out).

    reference, current: the two windows, tables, queries, files or frames with the same columns.
    columns: the numeric columns compared; categorical: the columns compared by category (one statement
        reads each window once, whatever their number).
    method: one of {methods}, or a list of them (all from the same statement). The binned ones compare
        a numeric column by its bins (binning, n_bins, edges: as for sm.drift_statistics) and a
        categorical one by its categories; a category only the current window has is a bin of its own.
    alpha: a test flags drift when its p-value is below it (at or below it for ks and cramervonmises);
        by default each test's Evidently default: 0.05, and 0.1 for cramervonmises and g_test.
    threshold: a distance flags drift when its statistic reaches it (exceeds it for energy); one number
        for every distance, or a dict method -> number. By default Evidently's (0.1); wasserstein, in
        the column's units, and total_variation have none: pass it.
    weight: a weight column of both windows, for the distances and ks's statistic (the tests' p-values
        are of counts: refused with it).
    by: slice columns (a row per slice and column); con, dialect: as for every metric.
    """
    methods = [method] if isinstance(method, str) else list(method)
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise ParameterError(f"drift: unknown method {unknown[0] if unknown else None!r}; the methods: "
                             + ", ".join(METHODS))
    if alpha is not None and not 0 < alpha < 1:
        raise ParameterError(f"drift: alpha must be in (0, 1), not {alpha!r}")
    bounds = _bounds(methods, alpha, threshold)
    if weight is not None and (weighted := [m for m in methods if METHODS[m].test]):
        raise ParameterError(f"drift: method {weighted[0]!r} is a test of counts, whose p-value has no weights; "
                             "with weight= use a distance (" + ", ".join(m for m in METHODS if not METHODS[m].test)
                             + ")")
    numeric, categories = _names(columns), _names(categorical)
    if not numeric and not categories:
        raise ParameterError("drift: no column to compare: pass columns= (numeric) or categorical=")
    if categories and (by_number := [m for m in methods if METHODS[m].numeric]):
        raise ParameterError(f"drift: method {by_number[0]!r} compares numbers, and column {categories[0]!r} is "
                             "categorical: compare it with " + ", ".join(m for m in METHODS if not METHODS[m].numeric))
    statistics = compute_metric(METRICS["drift_statistics"], reference, current=current, columns=numeric,
                                categorical=categories, binning=binning, n_bins=n_bins, edges=edges, weight=weight,
                                by=by, con=con, dialect=dialect)
    names = numeric + categories
    slices = [by] if isinstance(by, str) else list(by or [])
    rows = []
    for _, row in statistics.iterrows():
        n_ref, n_cur = int(row["n_reference"]), int(row["n_current"])
        column = names[int(row["column_index"]) - 1]
        where = f" (slice {dict(zip(slices, row[slices]))})" if slices else ""
        if n_ref == 0 or n_cur == 0:
            window = "reference" if n_ref == 0 else "current"
            raise ParameterError(f"drift: column {column!r} has no value in the {window} window{where}: nothing to "
                                 "compare")
        for name in methods:
            if name == "two_proportion_z" and row["n_bins"] > 2:
                raise ParameterError(f"drift: method 'two_proportion_z' compares a column of two values; column "
                                     f"{column!r}{where} has {int(row['n_bins'])}: use chisquare")
            statistic, p_value = _statistic(name, row, n_ref, n_cur)
            bound, m = bounds[name], METHODS[name]
            measured = p_value if m.test else statistic
            flag = (measured <= bound if m.inclusive else measured < bound) if m.test else (
                measured >= bound if m.inclusive else measured > bound)
            rows.append([*(row[s] for s in slices), column, name, statistic, p_value, bound, bool(flag), n_ref,
                         n_cur, int(row["n_missing_reference"]), int(row["n_missing_current"])])
    import pandas as pd  # the result is a frame: pandas is loaded already with the statistics
    return pd.DataFrame(rows, columns=[*slices, *_OUTPUTS])


def _names(columns) -> list[str]:
    return [columns] if isinstance(columns, str) else list(columns or [])


def _bounds(methods: list[str], alpha: float | None, threshold) -> dict[str, float]:
    """Each method's bound: alpha for a test, the threshold for a distance (threshold: one number for
    every distance, or a dict by method), else its default."""
    if isinstance(threshold, dict):
        if stray := [m for m in threshold if m not in methods or METHODS[m].test]:
            raise ParameterError(f"drift: threshold names {stray[0]!r}, not a distance among the methods "
                                 f"{methods}; a test's bound is alpha")
        given = threshold
    else:
        given = {m: threshold for m in methods if threshold is not None}
    bounds = {}
    for name in methods:
        m = METHODS[name]
        bound = alpha if m.test else given.get(name)
        bound = m.default if bound is None else bound
        if bound is None:
            raise ParameterError(f"drift: method {name!r} has no default threshold: pass threshold= (Evidently's "
                                 "'wasserstein' is 'wasserstein_normed', whose threshold is 0.1 by default)"
                                 if name == "wasserstein" else
                                 f"drift: method {name!r} has no default threshold: pass threshold=")
        if not m.test and not (isinstance(bound, numbers.Real) and bound >= 0):
            raise ParameterError(f"drift: the threshold of {name!r} must be a number >= 0, not {bound!r}")
        bounds[name] = float(bound)
    return bounds


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
    if method in ("chisquare", "g_test"):
        return row[method], chi2_pvalue(row[method], int(row["n_bins"]) - 1)
    if method == "two_proportion_z":
        return row[method], normal_pvalue(row[method])
    return row[method], math.nan


drift.__doc__ = drift.__doc__.format(methods=", ".join(f"'{m}' ({m_.what})" for m, m_ in METHODS.items()))
