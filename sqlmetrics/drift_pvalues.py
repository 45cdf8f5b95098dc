"""The p-values of the two-sample drift tests, from the statistics the engine computed
(sql/drift/drift_statistics.sql): a function of a few numbers per column, so computed here, with scipy's
distributions (imported when a p-value is asked for: scipy is the `drift` extra's). Each is the
asymptotic p-value of its test, two-sided, as scipy computes it with method='asymp' (KS) or
'asymptotic' (Mann-Whitney, Cramer-von Mises); scipy's 'auto' picks the exact distribution for
small samples (KS up to 10,000 values per window, Mann-Whitney up to 8 without ties, Cramer-von Mises
up to 20), where the asymptotic one is an approximation."""
from __future__ import annotations

import math

from .errors import ParameterError


def _scipy():
    try:
        import scipy.special
        import scipy.stats
    except ImportError as e:
        raise ParameterError("the p-values of the drift tests need scipy: pip install 'sqlmetrics[drift]'") from e
    return scipy


def ks_pvalue(d: float, n_ref: int, n_cur: int) -> float:
    """Smirnov's: the distribution of the one-sample statistic for n = round(n_ref n_cur / (n_ref + n_cur))
    (scipy.stats.ks_2samp, method='asymp')."""
    return float(_scipy().stats.kstwo.sf(d, round(n_ref * n_cur / (n_ref + n_cur))))


def mannwhitney_pvalue(u1: float, n_ref: int, n_cur: int, tie_term: float) -> float:
    """The normal approximation of U1 (the reference's U) with the tie correction and the continuity
    correction, two-sided (scipy.stats.mannwhitneyu, method='asymptotic')."""
    u = max(u1, n_ref * n_cur - u1)
    n = n_ref + n_cur
    s = math.sqrt(n_ref * n_cur / 12 * ((n + 1) - tie_term / (n * (n - 1))))
    z = (u - n_ref * n_cur / 2 - 0.5) / s if s > 0 else math.inf
    return min(1.0, 2 * float(_scipy().stats.norm.sf(z)))


def chi2_pvalue(statistic: float, dof: int) -> float:
    """The chi-square distribution's upper tail (scipy.stats.chisquare and power_divergence); a column of
    one bin has nothing to test: 1."""
    return 1.0 if dof == 0 else float(_scipy().stats.chi2.sf(statistic, dof))


def normal_pvalue(z: float) -> float:
    """Two-sided, of a statistic that is standard normal without drift: 2 (1 - Phi(|z|))."""
    return float(2 * _scipy().stats.norm.sf(abs(z)))


def cvm_pvalue(t: float, n_ref: int, n_cur: int) -> float:
    """The asymptotic p-value of the two-sample statistic T: T standardised by its exact mean and
    variance (Anderson 1962) and read on the limiting distribution of the one-sample statistic, Csorgo
    & Faraway's (1996) series (scipy.stats.cramervonmises_2samp, method='asymptotic')."""
    k, n = n_ref * n_cur, n_ref + n_cur
    mean = (1 + 1 / n) / 6
    var = (n + 1) * (4 * k * n - 3 * (n_ref ** 2 + n_cur ** 2) - 2 * k) / (45 * n ** 2 * 4 * k)
    tn = 1 / 6 + (t - mean) / math.sqrt(45 * var)
    return 1.0 if tn < 0.003 else max(0.0, 1.0 - _cvm_limit_cdf(tn))


def _cvm_limit_cdf(x: float) -> float:
    """The limiting distribution of the Cramer-von Mises statistic (Csorgo & Faraway 1996, eq. 1.2):
    the sum over j of Gamma(j + 1/2) / (Gamma(1/2) j!) * sqrt(4j + 1) / (pi sqrt x) *
    exp(-(4j + 1)^2 / (16x)) * K_1/4((4j + 1)^2 / (16x)), to terms below 1e-7."""
    special = _scipy().special
    total, j = 0.0, 0
    while True:
        y = 4 * j + 1
        q = y * y / (16 * x)
        term = (math.exp(math.lgamma(j + 0.5) - math.lgamma(j + 1)) / (math.pi ** 1.5 * math.sqrt(x))
                * math.sqrt(y) * math.exp(-q) * float(special.kv(0.25, q)))
        total += term
        if abs(term) < 1e-7:
            return total
        j += 1
