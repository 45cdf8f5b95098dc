"""Distribution drift between a reference window and a current one (the reference is the data, the
current window the `current` relation): the two-sample statistics of many columns in one statement, as
scipy.stats defines them. registry.py assembles the catalogue from this list and the other families'."""
from __future__ import annotations

from .metric import Metric
from .params import BY, Param
from .plans import RowsWhenValuesDistinct

CURRENT = Param("current", "relation", "the current window's rows, with the reference's columns (a table name, "
                "sqlmetrics.Query, file path or DataFrame).", like_data=True)
COLUMNS = Param("columns", "columns", "the numeric columns whose distributions are compared: a row of statistics "
                "each (column_index: its position in this list, from 1); a NULL is a missing value, counted and left "
                "out.", role="measurement", default=[])
CATEGORICAL = Param("categorical", "columns", "columns compared by category (their values as text, byte by byte): "
                    "the binned statistics and the tests of counts only; a NULL is a missing value, counted and left "
                    "out (column_index: after the numeric columns).", default=[], role="category")
BINNING = Param("binning", "choice", "the bins of a numeric column: 'quantile', at the reference's quantiles "
                "(numpy.quantile, method='inverted_cdf'), or 'uniform', of equal width over the reference's range; "
                "the outer bins reach -inf and +inf.", default="quantile", choices=("quantile", "uniform"),
                sample="uniform")
N_BINS = Param("n_bins", "int", "the number of bins of a numeric column (fewer where the reference's quantiles tie).",
               default=10, low=2, high=1000, sample=4)
EDGES = Param("edges", "floats", "the cuts between the bins of every numeric column, in place of binning and n_bins: "
              "a bin holds the values from one cut (included) to the next.", default=None, sample=[0.25, 0.5])
DRIFT_WEIGHT = Param("weight", "column", "optional non-negative weight column of both windows: it weighs the "
                     "distribution functions of ks, wasserstein and energy (scipy's u_weights, v_weights); the "
                     "rank tests (mannwhitney_u, cramervonmises) have no weights and are NULL then.", default=None,
                     role="weight")

DRIFT = [
    Metric(
        name="drift_statistics", template="drift/drift_statistics.sql", kind="curve", section="drift",
        params=(CURRENT, COLUMNS, CATEGORICAL, BINNING, N_BINS, EDGES, DRIFT_WEIGHT, BY),
        outputs=("column_index", "ks", "wasserstein", "energy", "reference_std", "mannwhitney_u", "tie_term",
                 "cramervonmises", "psi", "kl_divergence", "jensenshannon", "hellinger", "total_variation",
                 "chisquare", "g_test", "two_proportion_z", "n_bins", "n_new", "n_reference", "n_current",
                 "n_missing_reference", "n_missing_current"),
        summary="Two-sample statistics of each numeric column between a reference and a current window: "
                "Kolmogorov-Smirnov, Wasserstein-1, energy distance, Mann-Whitney U, Cramer-von Mises; and of "
                "each numeric column's bins and each categorical column's categories: PSI, Kullback-Leibler, "
                "Jensen-Shannon, Hellinger, total variation, chi-square, G-test, two-proportion z.",
        formula="per column, its NULLs counted (n_missing_*) and left out; F_ref, F_cur the windows' (weighted) "
                "empirical distribution functions: ks = max_x |F_ref(x) - F_cur(x)|; wasserstein = the integral "
                "of |F_ref - F_cur| dx; energy = sqrt(2 * the integral of (F_ref - F_cur)^2 dx); without weights, "
                "r the average ranks in the pooled sample: mannwhitney_u = sum of the reference's r - n_ref "
                "(n_ref + 1)/2, tie_term = sum over groups of t equal values of t^3 - t; cramervonmises = "
                "U / (n_ref n_cur N) - (4 n_ref n_cur - 1)/(6N), N = n_ref + n_cur, U = n_ref sum_i (r_i - i)^2 "
                "+ n_cur sum_j (s_j - j)^2 over each window's values in increasing order; reference_std = the "
                "reference's (weighted) standard deviation, ddof 0. Binned (a numeric column's bins, a categorical "
                "column's categories), p and q each window's (weighted) shares of the bins either window has: "
                "psi = sum (p' - q') ln(p'/q'), p' and q' with an empty bin's share replaced by the window's "
                "smallest share / 10^6 if that is at most 10^-4, else by 10^-4; kl_divergence = sum p'' ln(p''/q''), "
                "p'' and q'' those shares rescaled to sum to 1; jensenshannon = sqrt((KL(p||m) + KL(q||m))/2), m = "
                "(p + q)/2; hellinger = sqrt(1 - min(1, sum sqrt(p q))); total_variation = sum |p - q| / 2; "
                "without weights, o a bin's current count and e = its reference count times n_cur/n_ref: chisquare "
                "= sum (o - e)^2/e, g_test = 2 sum o ln(o/e) (+inf when a bin of the current window is empty in "
                "the reference: n_new > 0), two_proportion_z = |p - q| / sqrt(P(1 - P)(1/n_ref + 1/n_cur)) for two "
                "bins (P the pooled share), 0 for one; n_bins, the bins either window has. sm.drift adds each "
                "test's p-value.",
        math=(r"\begin{aligned}\mathrm{KS} &= \max_x \lvert F_{\mathrm{ref}}(x) - F_{\mathrm{cur}}(x) \rvert,\quad "
              r"W_1 = \int \lvert F_{\mathrm{ref}} - F_{\mathrm{cur}} \rvert\,dx,\quad "
              r"E = \sqrt{2 \int (F_{\mathrm{ref}} - F_{\mathrm{cur}})^2\,dx} \\ "
              r"U_1 &= \sum_{i \in \mathrm{ref}} r_i - \frac{n(n+1)}{2},\quad "
              r"T = \frac{n \sum_i (r_i - i)^2 + m \sum_j (s_j - j)^2}{n m (n + m)} - \frac{4nm - 1}{6(n + m)} \\ "
              r"\mathrm{PSI} &= \sum_b (p'_b - q'_b) \ln \frac{p'_b}{q'_b},\quad "
              r"\mathrm{KL} = \sum_b p''_b \ln \frac{p''_b}{q''_b},\quad "
              r"\mathrm{JS} = \sqrt{\tfrac{1}{2} \mathrm{KL}(p \,\|\, m) + \tfrac{1}{2} \mathrm{KL}(q \,\|\, m)},\ "
              r"m = \tfrac{p + q}{2} \\ "
              r"H &= \sqrt{1 - \textstyle\sum_b \sqrt{p_b q_b}},\quad "
              r"\mathrm{TV} = \tfrac{1}{2} \textstyle\sum_b \lvert p_b - q_b \rvert,\quad "
              r"\chi^2 = \sum_b \frac{(o_b - e_b)^2}{e_b},\quad G = 2 \sum_b o_b \ln \frac{o_b}{e_b},\quad "
              r"e_b = c_b \frac{m}{n}"
              r"\end{aligned}"),
        reference="scipy.stats: ks_2samp, wasserstein_distance, energy_distance (u_weights, v_weights), "
                  "mannwhitneyu, cramervonmises_2samp, entropy, chisquare, power_divergence; "
                  "scipy.spatial.distance.jensenshannon; Evidently 0.4.40's stat tests (psi, kl_div, "
                  "jensenshannon, hellinger, chisquare, g_test, z, wasserstein): its empty-bin rule",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> ref = pd.DataFrame({'x': [1.0, 2.0, 2.0, 3.0], 'y': [0.0, 1.0, None, 1.0]})\n"
                 ">>> cur = pd.DataFrame({'x': [2.0, 3.0, 4.0, 4.0], 'y': [1.0, 1.0, 1.0, 0.0]})\n"
                 ">>> d = sm.drift_statistics(ref, current=cur, columns=['x', 'y'])\n"
                 ">>> d[['ks', 'wasserstein']].round(4).values.tolist()\n"
                 "[[0.5, 1.25], [0.0833, 0.0833]]\n"
                 ">>> d['n_missing_reference'].tolist()\n"
                 "[0, 1]\n"
                 ">>> ref['day'], cur['day'] = ['mon', 'mon', 'tue', 'tue'], ['mon', 'sun', 'sun', 'sun']\n"
                 ">>> d = sm.drift_statistics(ref, current=cur, categorical=['day'])\n"
                 ">>> d[['total_variation', 'n_bins', 'n_new']].values.tolist()\n"
                 "[[0.75, 3.0, 3.0]]\n"),
        undefined="a column has no value in one of the windows (all NULL, or no rows)", better="lower",
        defined_by=("total_variation",),
        plan=RowsWhenValuesDistinct()),
    Metric(
        name="drift_bins", template="drift/drift_bins.sql", kind="curve", section="drift",
        params=(CURRENT, COLUMNS, CATEGORICAL, BINNING, N_BINS, EDGES, DRIFT_WEIGHT, BY),
        outputs=("column_index", "bin", "category", "low", "high", "n_reference", "n_current", "share_reference",
                 "share_current"),
        summary="The bins of drift_statistics' binned statistics: each window's count and share of every bin of "
                "a numeric column and every category of a categorical one (what moved, bin by bin).",
        formula="per column, its NULLs left out: a numeric column's bins (bin, from 0; low and high, the smallest "
                "and largest value of either window in it) are at the reference's quantiles (a value's bin is "
                "floor(n_bins F_ref(x)), at most n_bins - 1), of equal width over the reference's range, or "
                "between the given edges, the outer bins open; a categorical column's are its values (category). "
                "n_reference, n_current: each window's values in the bin; share_reference, share_current: their "
                "(weighted) share of the window's values.",
        math=(r"\mathrm{bin}(x) = \min\bigl(k - 1, \lfloor k\,F_{\mathrm{ref}}(x) \rfloor\bigr),\quad "
              r"p_b = \frac{\sum_{i \in \mathrm{ref},\, \mathrm{bin}(x_i) = b} w_i}{\sum_{i \in \mathrm{ref}} w_i},"
              r"\quad q_b = \frac{\sum_{j \in \mathrm{cur},\, \mathrm{bin}(x_j) = b} w_j}{\sum_{j \in \mathrm{cur}} w_j}"),
        reference="numpy.quantile (method='inverted_cdf'), numpy.histogram; pandas' value_counts for categories",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> ref = pd.DataFrame({'day': ['mon', 'mon', 'tue', 'tue']})\n"
                 ">>> cur = pd.DataFrame({'day': ['mon', 'sun', 'sun', 'sun']})\n"
                 ">>> b = sm.drift_bins(ref, current=cur, categorical=['day'])\n"
                 ">>> b[['category', 'share_reference', 'share_current']].values.tolist()\n"
                 "[['mon', 0.5, 0.25], ['sun', 0.0, 0.75], ['tue', 0.5, 0.0]]\n"),
        undefined="a column has no value in one of the windows (all NULL, or no rows)", better="neither",
        defined_by=("share_reference",),
        plan=RowsWhenValuesDistinct()),
]
