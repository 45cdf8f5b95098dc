"""The survival (and churn) metrics of the catalogue: models judged on right-censored durations."""
from __future__ import annotations

from .metric import Metric
from .params import BY, Param
from .plans import ParallelWhenDistributed

DURATION = Param("duration", "column", "the observed time: of the event, or of censoring; any number, negative too "
                 "(only the order of the times counts, as lifelines and scikit-survival take them).", role="numeric")
#: the censoring weights' Kaplan-Meier estimate counts time from 0 (scikit-survival refuses a negative time)
FOLLOW_UP = Param("duration", "column", "the observed time, >= 0 (since the start of follow-up): of the event, or of "
                  "censoring.", role="duration")
EVENT = Param("event", "column", "1 (or true) when the event was observed at duration, 0 when censored there.",
              role="indicator")
RISK = Param("score", "column", "the model's prediction; which way it points: higher.", role="score")
HIGHER = Param("higher", "choice",
               "what a higher score predicts: 'risk', an earlier event (scikit-survival's estimate), or "
               "'survival', a longer survival (lifelines' predicted_scores).",
               default="risk", choices=("risk", "survival"))
TAU = Param("tau", "float", "only events before tau weigh (scikit-survival's tau): the concordance up to that time; "
            "default None, every event.", default=None, none_ok=True, sample=1.5)
TIMES = Param("times", "floats", "the times at which to compute the AUC (within the follow-up: at or after the first "
              "time, before the last).")
TRAIN = Param("train", "relation", "the training data whose censoring distribution weighs the pairs (scikit-survival's "
              "survival_train): a table with the duration and event columns, one estimate over all of it; default "
              "None, the data itself (per slice).", default=None,
              relation_columns=(("{duration}", "duration"), ("{event}", "indicator")))

#: the survival metrics, in catalogue order
SURVIVAL = [
    Metric(
        name="concordance_index", section="survival", template="survival/concordance_index.sql", kind="scalar",
        params=(DURATION, EVENT, RISK, HIGHER, BY),
        outputs=("concordance_index", "concordant", "discordant", "tied_risk", "comparable"),
        summary="Harrell's concordance index (C-index) under right censoring: the share of comparable pairs "
                "that the score orders as their events happened. Exact, from rank sums: no pair is enumerated.",
        formula="(concordant + tied_risk/2) / comparable, over the pairs (i, j) with i's event observed and "
                "T_i < T_j, or T_i = T_j with j censored (two events of one time are not compared); concordant "
                "when i has the higher risk, tied_risk when the risks are equal (exactly, as lifelines; scikit-survival "
                "also ties risks closer than its tied_tol=1e-8) (Harrell et al. 1982)",
        math=(r"\begin{aligned}C &= \frac{1}{\lvert P\rvert} \sum_{(i, j) \in P} \left(\mathbb{1}[\eta_i > \eta_j] "
              r"+ \frac{1}{2} \mathbb{1}[\eta_i = \eta_j]\right),\quad \eta = \text{score (risk) or } "
              r"-\text{score (survival)} \\ P &= \{(i, j) : \delta_i = 1,\ T_i < T_j \text{ or } (T_i = T_j,\ "
              r"\delta_j = 0)\}\end{aligned}"),
        reference="sksurv.metrics.concordance_index_censored(event.astype(bool), duration, score) "
                  "(higher='risk'); lifelines.utils.concordance_index(duration, score, event) (higher='survival')",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'t': [1.0, 2.0, 3.0, 4.0, 5.0], 'e': [1, 0, 1, 1, 0],\n"
                 "...                    'risk': [0.9, 0.5, 0.7, 0.2, 0.2]})\n"
                 ">>> round(sm.concordance_index(df, duration='t', event='e', score='risk'), 4)\n"
                 "0.9286\n"),
        undefined="it needs a comparable pair: an observed event before a later time (or a row censored at its time)",
        plan=ParallelWhenDistributed()),
    Metric(
        name="concordance_index_ipcw", section="survival", template="survival/concordance_index_ipcw.sql",
        kind="scalar", params=(FOLLOW_UP, EVENT, RISK, TAU, TRAIN, HIGHER, BY),
        outputs=("concordance_index_ipcw", "concordant", "discordant", "tied_risk", "comparable"),
        summary="Uno's concordance index (C-index) under right censoring: Harrell's comparable pairs weighted by the "
                "inverse probability of censoring, whose limit does not depend on the censoring. Exact, from rank "
                "sums: no pair is enumerated.",
        formula="sum over comparable pairs (i, j) with T_i < tau of w_i (1[risk_i > risk_j] + 1/2 1[risk_i = risk_j]) / "
                "sum of w_i, w_i = 1 / G(T_i)^2, G the Kaplan-Meier estimate of the censoring distribution (of train, "
                "or of the data), taken at the last training time at or before T_i; the pairs as concordance_index's "
                "(Uno et al. 2011)",
        math=(r"\begin{aligned}C_{\mathrm{IPCW}} &= \frac{\sum_{(i, j) \in P,\, T_i < \tau} w_i c_{ij}}{\sum_{(i, "
              r"j) \in P,\, T_i < \tau} w_i},\quad w_i = \hat{G}(T_i)^{-2},\ c_{ij} = \mathbb{1}[\eta_i > \eta_j] + "
              r"\frac{1}{2} \mathbb{1}[\eta_i = \eta_j] \\ P &= \{(i, j) : \delta_i = 1,\ T_i < T_j \text{ or } "
              r"(T_i = T_j,\ \delta_j = 0)\},\quad \hat{G} \text{ the censoring Kaplan-Meier}\end{aligned}"),
        reference="sksurv.metrics.concordance_index_ipcw(survival_train, survival_test, score, tau) "
                  "(higher='risk'; ties of risk exact, where scikit-survival also ties risks closer than tied_tol=1e-8)",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'t': [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 'e': [1, 0, 1, 1, 0, 1],\n"
                 "...                    'risk': [0.9, 0.5, 0.7, 0.2, 0.2, 0.1]})\n"
                 ">>> round(sm.concordance_index_ipcw(df, duration='t', event='e', score='risk'), 4)\n"
                 "0.939\n"),
        undefined="it needs a comparable pair, and a censoring survival above 0 at every event before tau, none of "
                  "them later than every training time",
        plan=ParallelWhenDistributed()),
    Metric(
        name="cumulative_dynamic_auc", section="survival", template="survival/cumulative_dynamic_auc.sql",
        kind="curve", params=(FOLLOW_UP, EVENT, RISK, TIMES, TRAIN, HIGHER, BY),
        outputs=("time", "cumulative_dynamic_auc", "mean_auc"),
        summary="The time-dependent (cumulative/dynamic) AUC at given times under right censoring: how well the "
                "score separates the rows whose event came by each time from those still event-free after it, the "
                "events weighted by the inverse probability of censoring; and its mean over the times.",
        formula="AUC(t) = sum over cases i (T_i <= t, event) and controls j (T_j > t) of w_i (1[risk_i > risk_j] + "
                "1/2 1[risk_i = risk_j]) / (sum of w_i x controls), w_i = 1 / G(T_i), G the Kaplan-Meier estimate of "
                "the censoring distribution (of train, or of the data); mean_auc = sum_k AUC(t_k) (S(t_(k-1)) - "
                "S(t_k)) / (1 - S(t_K)), S the data's Kaplan-Meier survival (Uno et al. 2007; Lambert and Chevret 2016)",
        math=(r"\begin{aligned}\mathrm{AUC}(t) &= \frac{\sum_{T_i \le t,\, \delta_i = 1} \sum_{T_j > t} w_i "
              r"c_{ij}}{\sum_{T_i \le t,\, \delta_i = 1} w_i \cdot \lvert\{j : T_j > "
              r"t\}\rvert},\quad w_i = \frac{1}{\hat{G}(T_i)},\ c_{ij} = \mathbb{1}[\eta_i > \eta_j] + \frac{1}{2} "
              r"\mathbb{1}[\eta_i = \eta_j] \\ \text{mean AUC} &= \frac{\sum_{k} \mathrm{AUC}(t_k) "
              r"\left(\hat{S}(t_{k-1}) - \hat{S}(t_k)\right)}{1 - \hat{S}(t_K)},\quad \hat{S}(t_0) = 1\end{aligned}"),
        reference="sksurv.metrics.cumulative_dynamic_auc(survival_train, survival_test, score, times) "
                  "(higher='risk'; ties of risk exact, where scikit-survival also ties risks closer than tied_tol=1e-8)",
        example=(">>> import pandas as pd, sqlmetrics as sm\n"
                 ">>> df = pd.DataFrame({'t': [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 'e': [1, 0, 1, 1, 0, 1],\n"
                 "...                    'risk': [0.9, 0.5, 0.7, 0.2, 0.2, 0.1]})\n"
                 ">>> sm.cumulative_dynamic_auc(df, duration='t', event='e', score='risk', times=[2.0, 4.0]).round(4)\n"
                 "   time  cumulative_dynamic_auc  mean_auc\n"
                 "0   2.0                  1.0000    0.9362\n"
                 "1   4.0                  0.9107    0.9362\n"),
        undefined="each time needs a case (an event at or before it) and a control (a row event-free after it), and "
                  "a censoring survival above 0 at every case, none of them later than every training time",
        plan=ParallelWhenDistributed()),
]
