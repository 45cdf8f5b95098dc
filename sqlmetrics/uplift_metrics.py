"""The uplift (treatment effect) metrics: uplift and Qini curves and their normalized areas, and
uplift at k, of a predicted uplift scored against an outcome and a 0/1 treatment, as
scikit-uplift (sklift.metrics) and causalml (causalml.metrics) define them. Every one is a
function of four running sums over the distinct scores, descending (treated and control weight,
and their responders: sql/uplift/uplift_points.sql), so one exact parallel plan serves them all, and
one rank plan (a sort of the rows) where the scores are mostly distinct.
registry.py assembles the catalogue from this list and the other families'."""
from __future__ import annotations

from .metric import Metric
from .params import BY, LABEL, SCORE, WEIGHT, Param
from .plans import ParallelWhenDistributed, RankWhenScoresDistinct

TREATMENT = Param("treatment", "column", "0/1 (or boolean) column: 1 = treated, 0 = control.", role="indicator")
UPLIFT = Param("score", "column", "predicted uplift (the treatment effect); higher = treat first. NaN is an error, "
               "+-inf allowed.", role="score")
OUTCOME = Param("label", "column", "0/1 (or boolean) outcome; 1 = responded.", role="label")
CONVENTION = Param(
    "convention", "choice",
    "'sklift': scikit-uplift's definition (trapezoid area under the curve's points at distinct scores, less "
    "the random line's, over the same for the perfect curve); 'causalml': causalml's (the mean of the curve "
    "over every row count, normalized by its end value, normalize=True; unweighted).",
    default="sklift", choices=("sklift", "causalml"))
NEGATIVE_EFFECT = Param(
    "negative_effect", "bool", "convention='sklift': True, the perfect Qini curve ranks control responders "
    "last (scikit-uplift's default); False, it ignores negative effects (a path (0, 0), (r, r), (N, r), r "
    "the Qini curve's end).", default=True)
_PARAMS = (OUTCOME, TREATMENT, UPLIFT, WEIGHT)
#: the metrics of the four running sums: ranked over the rows where the scores are distinct (uplift_points)
_POINTS_PLAN = RankWhenScoresDistinct()
_PLAN = ParallelWhenDistributed()
_COUNTS = ("n_treatment", "n_control", "responders_treatment", "responders_control")
_BOTH = "a slice has no treated or no control rows"
_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
         ">>> df = pd.DataFrame({'y': [1, 0, 1, 0, 1, 0, 1, 0], 't': [1, 1, 0, 0, 1, 0, 1, 0],\n"
         "...                    'u': [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]})\n")
_X = ("n: the rows (weight) at or above the threshold; n_t, n_c of them treated and control, y_t, y_c the "
      "responders among them; a ratio over an empty group counts as 0 (scikit-uplift)")
_SKLIFT_AREA = ("convention='sklift': (A - A_random) / (A_perfect - A_random), A the trapezoid area under the curve's "
                "points (n, value) at distinct scores, A_random under the line from (0, 0) to its end, A_perfect "
                "under the curve of the perfect ranking of the rows' (label, treatment) cells ({perfect}). ")
_CAUSALML_AREA = ("convention='causalml' (causalml.metrics.{fn}, normalize=True; no weight), over the points "
                  "i = 0..n (a point per row): {score}. causalml "
                  "interpolates the cumulative lift {interpolated} linearly where a group is empty; here a tie "
                  "group is one point with that quantity linear in i across it (causalml's own values on "
                  "distinct scores; on ties, causalml's depend on its sort).")

UPLIFT_METRICS = [
    Metric(
        name="uplift_curve", template="uplift/uplift_curve.sql", kind="curve", params=_PARAMS + (BY,),
        outputs=("threshold", "n", "uplift") + _COUNTS, plan=_POINTS_PLAN, section="uplift",
        summary="Uplift curve: the cumulative uplift of treating the top-scored rows, one point per distinct score "
                "(descending) after a first point (0, 0) at +inf.",
        formula=f"uplift(n) = (y_t/n_t - y_c/n_c) * n at each threshold; {_X}. With weight, counts are weight sums.",
        math=(r"\begin{aligned}\text{row } s&:\ \ n = \sum_{\hat{u}_i \ge s} w_i,\quad \mathrm{uplift}(n) = "
              r"\left(\frac{y_t}{n_t} - \frac{y_c}{n_c}\right) n,\quad s \in \{+\infty\} \cup \{\hat{u}_i\} \\ n_t "
              r"&= \sum_{\hat{u}_i \ge s} w_i t_i,\ \ y_t = \sum_{\hat{u}_i \ge s} w_i t_i y_i,\ \ n_c, y_c "
              r"\text{ the same with } 1 - t_i\end{aligned}"),
        reference="sklift.metrics.uplift_curve(y, uplift, treatment) (the same points; x is n)",
        example=_DEMO + ">>> sm.uplift_curve(df, label='y', treatment='t', score='u')['uplift'].round(4).tolist()\n"
                        "[0.0, 1.0, 1.0, -1.5, 0.0, 0.8333, 2.0, 2.9167, 4.0]\n",
        undefined="the data has no rows"),
    Metric(
        name="qini_curve", template="uplift/qini_curve.sql", kind="curve", params=_PARAMS + (BY,),
        outputs=("threshold", "n", "qini") + _COUNTS, plan=_POINTS_PLAN, section="uplift",
        summary="Qini curve: the treated responders of the top-scored rows beyond the control's rate, one point per "
                "distinct score (descending) after a first point (0, 0) at +inf.",
        formula=f"qini(n) = y_t - y_c * n_t / n_c at each threshold; {_X}. With weight, counts are weight sums.",
        math=(r"\begin{aligned}\text{row } s&:\ \ n = \sum_{\hat{u}_i \ge s} w_i,\quad \mathrm{qini}(n) = y_t - y_c "
              r"\frac{n_t}{n_c},\quad s \in \{+\infty\} \cup \{\hat{u}_i\} \\ n_t &= \sum_{\hat{u}_i \ge s} w_i "
              r"t_i,\ \ y_t = \sum_{\hat{u}_i \ge s} w_i t_i y_i,\ \ n_c, y_c \text{ the same with } 1 - "
              r"t_i\end{aligned}"),
        reference="sklift.metrics.qini_curve(y, uplift, treatment) (the same points; x is n)",
        example=_DEMO + ">>> sm.qini_curve(df, label='y', treatment='t', score='u')['qini'].round(4).tolist()\n"
                        "[0.0, 1.0, 1.0, -1.0, 0.0, 0.5, 1.0, 1.6667, 2.0]\n",
        undefined="the data has no rows"),
    Metric(
        name="uplift_auc", template="uplift/uplift_auc.sql", kind="scalar",
        params=_PARAMS + (CONVENTION, BY), outputs=("uplift_auc",) + _COUNTS, plan=_POINTS_PLAN, section="uplift",
        aliases=("auuc",),
        summary="Area under the uplift curve (AUUC), normalized: scikit-uplift's uplift_auc_score (1: the perfect "
                "ranking, 0: random) or causalml's auuc_score.",
        formula=_SKLIFT_AREA.format(perfect="perfect_uplift_curve") + _CAUSALML_AREA.format(
            fn="auuc_score", score="the mean of g(i) / |g(n)|, g(i) = i * l(i) the cumulative gain, "
                                 "l(i) = y_t/n_t - y_c/n_c the lift of the first i rows",
            interpolated="(y_t/n_t - y_c/n_c)") + " With weight (sklift only), counts are weight sums.",
        math=(r"\begin{aligned}\text{sklift} &: \frac{A - A_{\mathrm{random}}}"
              r"{A_{\mathrm{perfect}} - A_{\mathrm{random}}},\quad A = \text{trapezoid area under } "
              r"(n, \mathrm{uplift}(n)) \\ \text{causalml} &: "
              r"\frac{1}{n + 1} \sum_{i=0}^{n} \frac{i\, \ell(i)}{\lvert n\, \ell(n) \rvert},\quad \ell(i) = "
              r"\frac{y_t}{n_t} - \frac{y_c}{n_c} \text{ of the top } i \text{ rows}\end{aligned}"),
        reference="sklift.metrics.uplift_auc_score(y, uplift, treatment); causalml.metrics.auuc_score(df, "
                  "normalize=True)",
        example=_DEMO + ">>> round(sm.uplift_auc(df, label='y', treatment='t', score='u'), 4)\n-0.6327\n",
        undefined=f"{_BOTH}; or the perfect curve's area equals the random line's (sklift; e.g. no responders), or "
                  "the curve ends at 0 (causalml: 0/0)"),
    Metric(
        name="qini_auc", template="uplift/qini_auc.sql", kind="scalar",
        params=_PARAMS + (NEGATIVE_EFFECT, CONVENTION, BY), outputs=("qini_auc",) + _COUNTS, plan=_POINTS_PLAN,
        section="uplift", aliases=("qini_coefficient",),
        summary="Qini coefficient: the normalized area under the Qini curve, scikit-uplift's qini_auc_score (1: the "
                "perfect ranking, 0: random) or causalml's qini_score.",
        formula=_SKLIFT_AREA.format(perfect="perfect_qini_curve with negative_effect") + _CAUSALML_AREA.format(
            fn="qini_score", score="with q(i) the Qini curve after i rows divided by |q(n)|, the mean "
                                   "of q(i) less that of the random line from 0 to q(n) (sign(q(n)) / 2)", interpolated="and the Qini value")
               + " With weight (sklift only), counts are weight sums.",
        math=(r"\begin{aligned}\text{sklift} &: \frac{A - A_{\mathrm{random}}}"
              r"{A_{\mathrm{perfect}} - A_{\mathrm{random}}},\quad A = \text{trapezoid area under } "
              r"(n, \mathrm{qini}(n)) \\ \text{causalml} &: "
              r"\frac{1}{n + 1} \sum_{i=0}^{n} \frac{\mathrm{qini}(i)}{\lvert \mathrm{qini}(n) \rvert} - "
              r"\frac{\operatorname{sgn}(\mathrm{qini}(n))}{2},\quad \mathrm{qini}(i) = y_t - y_c \frac{n_t}{n_c} "
              r"\text{ of the top } i \text{ rows}\end{aligned}"),
        reference="sklift.metrics.qini_auc_score(y, uplift, treatment, negative_effect=...); "
                  "causalml.metrics.qini_score(df, normalize=True)",
        example=_DEMO + ">>> round(sm.qini_auc(df, label='y', treatment='t', score='u'), 4)\n-0.2576\n",
        undefined=f"{_BOTH}; or the perfect curve's area equals the random line's (sklift; with negative_effect="
                  "False also where the Qini curve ends at or below 0), or the curve ends at 0 (causalml: 0/0)"),
    Metric(
        name="uplift_at_k", template="uplift/uplift_at_k.sql", kind="scalar",
        params=(OUTCOME, TREATMENT, UPLIFT,
                Param("k", "float", "the share of the rows at the top, in (0, 1) (scikit-uplift's float k).",
                      default=0.3, low=0.0, low_open=True, high=1.0, high_open=True, sample=0.25),
                Param("strategy", "choice", "'overall': the top floor(n * k) rows of all; 'by_group': the top "
                      "floor(n_t * k) treated and floor(n_c * k) control rows, each group ranked on its own.",
                      default="overall", choices=("overall", "by_group")), BY),
        outputs=("uplift_at_k", "treatment_rate", "control_rate", "n_top", "n"), plan=_POINTS_PLAN, section="uplift",
        summary="Uplift at k: the treated rows' response rate less the control rows' among the top share k by "
                "predicted uplift.",
        formula="y_t/n_t - y_c/n_c over the top rows (strategy). A tie group across the cut-off counts by the share "
                "of its rows the cut-off leaves in (the expected counts over the orders of its rows; scikit-uplift's "
                "depend on its sort).",
        math=(r"\begin{aligned}\mathrm{uplift}@k &= \frac{y_t}{n_t} - \frac{y_c}{n_c},\quad n_t, n_c "
              r"\text{ the treated, control rows of the top},\ y_t, y_c \text{ their responders} \\ \text{top} &= "
              r"\text{the first } \lfloor N k \rfloor \text{ rows (overall), or } \lfloor N_t k \rfloor "
              r"\text{ treated and } \lfloor N_c k \rfloor \text{ control rows (by group)}\end{aligned}"),
        reference="sklift.metrics.uplift_at_k(y, uplift, treatment, strategy=..., k=k) (k a share)",
        example=_DEMO + ">>> sm.uplift_at_k(df, label='y', treatment='t', score='u', k=0.5)\n0.0\n",
        undefined="the top holds no treated or no control row"),
    Metric(
        name="treatment_balance_curve", template="uplift/treatment_balance_curve.sql", kind="curve",
        params=(TREATMENT, UPLIFT,
                Param("winsize", "int", "the rows of the moving window.", low=1), BY),
        outputs=("idx", "balance"), plan=_PLAN, section="uplift",
        summary="Treatment balance curve: the share of treated rows in a moving window of winsize rows down the "
                "rows in descending predicted uplift, one point per window (a check of the experiment's balance "
                "along the ranking).",
        formula="balance(i) = (1/winsize) * sum of the treatment over rows i .. i + winsize - 1 in descending score "
                "order, i = 1 .. n - winsize + 1, at idx = numpy.linspace(1, 100, n - winsize + 1); each row of a "
                "tie group counts the group's share of treated rows (the expected value over its orders; "
                "scikit-uplift's depends on its sort)",
        math=(r"\begin{aligned}\text{row } i &= 1, \ldots, n - w + 1:\quad \mathrm{balance}(i) = \frac{1}{w} "
              r"\sum_{j=i}^{i + w - 1} t_{(j)},\quad \mathrm{idx}_i = 1 + 99\, \frac{i - 1}{n - w} \\ t_{(j)} &: "
              r"\text{the treatment of the } j\text{-th row by descending score},\quad w = "
              r"\text{winsize}\end{aligned}"),
        reference="sklift.metrics.treatment_balance_curve(uplift, treatment, winsize)",
        example=_DEMO + ">>> sm.treatment_balance_curve(df, treatment='t', score='u', winsize=4)['balance'].tolist()\n"
                        "[0.5, 0.5, 0.25, 0.5, 0.5]\n",
        undefined="a slice has fewer rows than winsize"),
]
