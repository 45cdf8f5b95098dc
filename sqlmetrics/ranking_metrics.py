"""The ranking and recommendation metrics: TREC-style measures of a run against judgments, and the
measures of the lists beyond accuracy. registry.py assembles the catalogue from this list and the
other families'."""
from __future__ import annotations

from . import consistency
from .measures import ir_measures, ranx, sqlmetrics, trec_eval
from .metric import Metric
from .params import (BETA, BY, EMPTY, GAIN, ITEM, K, K_REQUIRED, MISSING, Param, QRELS, QRELS_COLUMNS, QUERY, RANKING_BY,
                     RECALL_LEVELS, RELEVANCE, RELEVANCE_THRESHOLD, RUN_SCORE, TIES, TIES_ORDER)
from .plans import ParallelWhenDistributed

_PARALLEL = ParallelWhenDistributed()


# Ranking: the parameters every TREC-style metric shares, and the counts of its summary row.
RUN = (QRELS, QUERY, ITEM, RUN_SCORE, RELEVANCE) + QRELS_COLUMNS
POLICIES = (RELEVANCE_THRESHOLD, MISSING, EMPTY, RANKING_BY)
QUERY_COUNTS = ("n_queries", "n_missing", "n_empty")
_NO_RELEVANT = "no evaluated query has a relevant item"


def _ranking_metric(name, params, formula, summary, reference, example, undefined=_NO_RELEVANT,
                    outputs=QUERY_COUNTS, template=None, section="ranking", **fields):
    """A metric of a ranked run: one value per query, their mean over queries; `fields`, any other field
    of its entry (metric.Metric)."""
    return Metric(
        name=name, template=template or f"ranking/{name}.sql", kind="scalar", params=params,
        outputs=(name,) + outputs, summary=summary, formula=formula, reference=reference, example=example,
        undefined=undefined, per_query=True, unique=("query", "item"), section=section, **fields)


_RANK_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
              ">>> run = pd.DataFrame({'query': 1, 'item': list('abcde'), 'score': [5, 4, 3, 2, 1]})\n"
              ">>> qrels = pd.DataFrame({'query': 1, 'item': list('abcdefg'),\n"
              "...                       'relevance': [5, 3, 2, 1, 2, 4, 0]})\n")
_BINARY_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
                ">>> run = pd.DataFrame({'query': [1] * 6 + [2] * 3, 'item': list('abcdefabc'),\n"
                "...                     'score': [6, 5, 4, 3, 2, 1, 3, 2, 1],\n"
                "...                     'relevance': [1, 0, 1, 0, 1, 0, 0, 1, 0]})\n")

_NO_WEIGHT = "the data has no rows (or zero total weight)"


# The list metrics that need no judgments: item similarities (ils, serendipity), the catalogue (coverage,
# gini_index), the popularity of items in the training data (novelty, average_popularity, tail_share).
_SIMILARITY = Param("similarity", "relation", "item similarities: a table with columns item_a, item_b, similarity "
                    "(either direction is looked up; missing pairs count 0).",
                    relation_columns=(("item_a", "key"), ("item_b", "key"), ("similarity", "numeric")))
_N_ITEMS = Param("n_items", "int", "catalogue size.", default=None, low=1, sample=100)
_ITEMS = Param("items", "relation", "catalogue table (distinct values of its `item` column are counted).",
               default=None, relation_columns=(("{item}", "key"),))
_INTERACTIONS = Param("interactions", "relation", "the training interactions, one row per (user, item) event, with "
                      "the run's item column: an item's popularity count is its number of rows, p(i) its share of "
                      "the rows (or give popularity).", default=None, relation_columns=(("{item}", "key"),))
_POPULARITY = Param("popularity", "relation", "the popularity counts instead of interactions: a table with the run's "
                    "item column and a column `count` (>= 0), one row per item; p(i) = count / the sum of the counts.",
                    default=None, relation_columns=(("{item}", "key"), ("count", "count")))
_CATALOGUE_DEMO = (">>> import pandas as pd, sqlmetrics as sm\n"
                   ">>> run = pd.DataFrame({'query': [1, 1, 2, 2], 'item': ['a', 'b', 'a', 'c'],\n"
                   "...                     'score': [2, 1, 2, 1]})\n")
_POPULARITY_DEMO = (_CATALOGUE_DEMO
                    + ">>> train = pd.DataFrame({'query': [3, 3, 4, 4, 5, 5, 6, 6], "
                      "'item': ['a', 'b', 'a', 'd', 'a', 'd', 'a', 'c']})\n")
_NO_LISTS = "the run has no rows"


#: the ranking metrics, in catalogue order
RANKING = [
    _ranking_metric(
        "dcg", RUN + (K, TIES, GAIN) + POLICIES,
        "DCG@k = sum over ranks r <= k of gain(rel_r) / log2(r + 1); gain 'exponential' = 2^rel - 1 (default, "
        "as Burges et al. 2005) or 'linear' = rel; unjudged items have relevance 0.",
        "Discounted cumulative gain of each query's ranked list, averaged over queries.",
        "Jarvelin & Kekalainen 2002 (exponential gain: Burges et al. 2005); sklearn.metrics.dcg_score (linear gain, ties='average')",
        _RANK_DEMO + ">>> round(sm.dcg(run, qrels, k=5), 1)\n38.5\n",
        math=(r"\begin{aligned}\mathrm{DCG}@k(q) &= \sum_{r=1}^{k} \frac{g(\mathrm{rel}_r)}{\log_2(r+1)},\quad g(x) "
              r"= 2^x - 1 \text{ or } x \\ \mathrm{DCG}@k &= \frac{1}{\lvert Q\rvert} \sum_{q \in Q} "
              r"\mathrm{DCG}@k(q)\end{aligned}"),
        measure_names=(ranx("dcg", "linear"), sqlmetrics("dcg"), ranx("dcg_burges", "exponential")), one_pass=True),
    _ranking_metric(
        "ndcg", RUN + (K, TIES, GAIN) + POLICIES,
        "NDCG@k = DCG@k / IDCG@k, IDCG from all judged items of the query sorted by relevance (retrieved or "
        "not), cut at k; 0 when no judgment of the query has a positive grade (relevance_threshold does not "
        "apply: the gains are the grades, as trec_eval's ndcg).",
        "Normalised DCG: DCG over the best possible DCG, averaged over queries.",
        "pytrec_eval ndcg_cut_k (gain='linear', ties='item_desc'); sklearn.metrics.ndcg_score "
        "(gain='linear', ties='average', relevance in the run)",
        _RANK_DEMO + ">>> round(sm.ndcg(run, qrels, k=5), 4)\n0.8296\n",
        math=(r"\begin{aligned}\mathrm{NDCG}@k(q) &= \frac{\sum_{r=1}^{k} g(\mathrm{rel}_r) / \log_2(r+1)}"
              r"{\sum_{r=1}^{k} g(\mathrm{rel}^*_r) / \log_2(r+1)},\quad g(x) = 2^x - 1 \text{ or } x \\"
              r" \mathrm{NDCG}@k &= \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \mathrm{NDCG}@k(q),\quad "
              r"\mathrm{rel}^*_r \text{: the } r\text{-th largest judged grade of } q\end{aligned}"),
        measure_names=(trec_eval("ndcg", gain="linear"), ranx("ndcg", "linear"), sqlmetrics("ndcg"),
                       trec_eval("ndcg_cut", "named", "linear"), ir_measures("nDCG", "optional", "linear"),
                       ranx("ndcg_burges", "exponential")), one_pass=True),
    _ranking_metric(
        "mean_average_precision", RUN + (K, TIES_ORDER, Param(
            "denominator", "choice", "'r': the query's relevant judged items R (trec_eval); 'min_k_r': "
            "min(k, R), common in recommender papers.", default="r", choices=("r", "min_k_r"))) + POLICIES,
        "AP@k = (1/D) * sum over relevant items at ranks r <= k of precision@r, D = R (relevant judged items, "
        "retrieved or not) or min(k, R); MAP = mean of AP over queries.",
        "Mean average precision (alias sm.map).", "pytrec_eval map, map_cut_k",
        _BINARY_DEMO + ">>> sm.map(run, per_query=True)['mean_average_precision'].round(4).tolist()\n"
                       "[0.7556, 0.5]\n",
        math=(r"\begin{aligned}\mathrm{AP}@k(q) &= \frac{1}{D_q} \sum_{r=1}^{k} \mathbb{1}[\mathrm{rel}_r \ge "
              r"\theta]\, P@r,\quad D_q = R_q \text{ or } \min(k, R_q) \\ \mathrm{MAP}@k &= "
              r"\frac{1}{\lvert Q\rvert} \sum_{q \in Q} \mathrm{AP}@k(q)\end{aligned}"),
        aliases=("map",),
        measure_names=(trec_eval("map"), ranx("map"), sqlmetrics("map"), sqlmetrics("mean_average_precision"),
                       trec_eval("map_cut", "named"), ir_measures("AP", "optional")), one_pass=True),
    _ranking_metric(
        "mrr", RUN + (K, TIES_ORDER) + POLICIES,
        "RR = 1 / rank of the first relevant item within k (0 if none); MRR = mean over queries.",
        "Mean reciprocal rank.", "pytrec_eval recip_rank",
        _BINARY_DEMO + ">>> sm.mrr(run)\n0.75\n",
        math=(r"\begin{aligned}\mathrm{RR}@k(q) &= \frac{1}{\min\{r \le k : \mathrm{rel}_r \ge \theta\}}\quad (0 "
              r"\text{ if there is none}) \\ \mathrm{MRR}@k &= \frac{1}{\lvert Q\rvert} \sum_{q \in Q} "
              r"\mathrm{RR}@k(q)\end{aligned}"),
        # ir_measures' RR@k is its MS MARCO provider's, which sorts tied scores by document id ascending
        measure_names=(trec_eval("recip_rank"), ranx("mrr"), sqlmetrics("mrr"), ir_measures("RR", "whole"),
                       ir_measures("RR", "required", ties="item_asc")), one_pass=True),
    _ranking_metric(
        "precision_at_k", RUN + (K_REQUIRED, TIES) + POLICIES,
        "P@k = relevant items in the top k / k (k, even when the list is shorter); k=None: relevant items "
        "retrieved / items retrieved, over the whole list (= set_precision).",
        "Precision at k, averaged over queries.", "pytrec_eval P_k; k=None: pytrec_eval set_P",
        _BINARY_DEMO + ">>> sm.precision_at_k(run, k=2)\n0.5\n"
                       ">>> round(sm.precision_at_k(run, k=None), 4)\n0.4167\n",
        math=(r"P@k = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{1}{k} \sum_{r=1}^{\min(k, n_q)} "
              r"\mathbb{1}[\mathrm{rel}_{q,r} \ge \theta],\quad n_q \text{ the items retrieved};\ "
              r"\text{whole list: } k = n_q"),
        measure_names=(trec_eval("P", "named"), trec_eval("set_P"), ranx("precision"), ir_measures("P", "required"),
                       ir_measures("SetP", "whole"), sqlmetrics("precision_at_k"),
                       sqlmetrics("set_precision", "whole")), one_pass=True),
    _ranking_metric(
        "recall_at_k", RUN + (K_REQUIRED, TIES, Param(
            "average", "choice", "'macro': mean of per-query recall (trec_eval); 'micro': all hits over all "
            "relevant items (the HR@K of recommender papers).", default="macro", choices=("macro", "micro"))) + POLICIES,
        "R@k = relevant items in the top k / R, R = relevant judged items (retrieved or not); macro: mean over "
        "queries; micro: sum of hits / sum of R; k=None: the whole retrieved list (= set_recall).",
        "Recall at k.", "pytrec_eval recall_k (macro; k=None: set_recall); hits over relevant items pooled over "
        "users (micro)",
        _BINARY_DEMO + ">>> sm.recall_at_k(run, k=2, average='micro')\n0.5\n",
        math=(r"\begin{aligned}R@k &= \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{h_q}{R_q} \ (\text{macro}) "
              r"\quad\text{or}\quad \frac{\sum_{q \in Q} h_q}{\sum_{q \in Q} R_q}\ (\text{micro}) \\ h_q &= "
              r"\sum_{r=1}^{k} \mathbb{1}[\mathrm{rel}_{q,r} \ge \theta],\quad R_q "
              r"\text{ the relevant judged items of } q;\ \text{whole list: } k = n_q\end{aligned}"),
        measure_names=(trec_eval("recall", "named"), trec_eval("set_recall"), sqlmetrics("set_recall", "whole"),
                       ranx("recall"), ir_measures("R", "required"), ir_measures("SetR", "whole"),
                       sqlmetrics("recall_at_k")), one_pass=True,
        ratio_of_sums_with=(("average", "micro"),)),
    _ranking_metric(
        "relative_precision", RUN + (K_REQUIRED, TIES_ORDER) + POLICIES,
        "relative P@k = relevant items in the top k / min(k, R), R = relevant judged items (retrieved or not): "
        "precision up to rank R, recall beyond it; k=None: relevant items retrieved / min(items retrieved, R). "
        "Mean over queries.",
        "Relative precision at k: precision relative to the best a list could reach at k.",
        "trec_eval relative_P_k (k=None: set_relative_P); pytrec_eval relative_P",
        _BINARY_DEMO + ">>> round(sm.relative_precision(run, k=2), 4)\n0.75\n",
        math=(r"\mathrm{relP}@k = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} "
              r"\frac{\sum_{r=1}^{k} \mathbb{1}[\mathrm{rel}_{q,r} \ge \theta]}{\min(k, R_q)},\quad "
              r"\text{whole list: } k = n_q \text{ (the items retrieved)}"),
        one_pass=True,
        measure_names=(trec_eval("relative_P", "named"), trec_eval("set_relative_P"), ir_measures("SetRelP", "whole"),
                       sqlmetrics("relative_precision"))),
    _ranking_metric(
        "hit_rate", RUN + (K_REQUIRED, TIES_ORDER) + POLICIES,
        "hit@k = 1 if a relevant item is in the top k (k=None: anywhere in the list), else 0; mean over queries.",
        "Share of queries with at least one relevant item in the top k.", "pytrec_eval success_k",
        _BINARY_DEMO + ">>> sm.hit_rate(run, k=1)\n0.5\n",
        math=(r"\mathrm{hit}@k = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \max_{r \le k} "
              r"\mathbb{1}[\mathrm{rel}_{q,r} \ge \theta],\quad \text{whole list: } k = n_q"),
        measure_names=(trec_eval("success", "named"), ranx("hit_rate"), sqlmetrics("hit_rate", "required"),
                       ir_measures("Success", "required")), one_pass=True),
    _ranking_metric(
        "r_precision", RUN + (TIES_ORDER, Param(
            "multiple", "float", "x: the precision at rank floor(x * R + 0.9) instead of R, as trec_eval's "
            "Rprec_mult_x (1: at rank R).", default=1.0, low=0.0, low_open=True, sample=0.2)) + POLICIES,
        "R-precision = relevant items in the top R / R, R = relevant judged items (retrieved or not). multiple x: "
        "relevant items in the top c / c, c = floor(x * R + 0.9) computed in doubles as trec_eval does (x = 0.7, R "
        "= 3: 2.9999999999999996, c = 2), c even when the list is shorter, 0 when c = 0. Mean over queries.",
        "Precision at rank R (or at a multiple of R), averaged over queries.",
        "pytrec_eval Rprec; multiple=x: pytrec_eval Rprec_mult_x (trec_eval m_Rprec_mult.c)",
        _BINARY_DEMO + ">>> round(sm.r_precision(run), 4)\n0.3333\n"
                       ">>> round(sm.r_precision(run, multiple=2), 4)  # P@6 and P@2\n0.5\n",
        math=(r"\mathrm{Rprec}_x = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{1}{c_q} \sum_{r=1}^{c_q} "
              r"\mathbb{1}[\mathrm{rel}_{q,r} \ge \theta],\quad c_q = \lfloor x R_q + 0.9 \rfloor\ (x = 1: "
              r"c_q = R_q),\quad \frac{0}{0} = 0"),
        measure_names=(trec_eval("Rprec"), ir_measures("Rprec", "whole"), ranx("r-precision", cutoff="whole"),
                       sqlmetrics("r_precision", "whole"), trec_eval("Rprec_mult", "named_multiple")), one_pass=True),
    Metric(
        name="interpolated_precision", section="ranking", template="ranking/interpolated_precision.sql", kind="curve",
        params=RUN + (RECALL_LEVELS, TIES_ORDER) + POLICIES,
        outputs=("recall_level", "interpolated_precision") + QUERY_COUNTS,
        summary="Interpolated precision at recall levels (the points of the standard recall-precision graph), "
                "averaged over queries per level.",
        formula="per query and level L: the largest precision at any rank where at least n = lround(L * R) "
                "relevant items are retrieved (R = relevant judged items, retrieved or not; half rounds up), 0 "
                "when fewer than n ever are; the whole list counts. Mean over queries per level; per_query=True: "
                "one row per query and level.",
        math=(r"\begin{aligned}\mathrm{iP}_q(L) &= \max_{r \,:\, h_q(r) \ge \operatorname{round}(L R_q)} "
              r"\frac{h_q(r)}{r}\ \ (0 \text{ if no such } r),\quad h_q(r) = \sum_{i=1}^{r} "
              r"\mathbb{1}[\mathrm{rel}_{q,i} \ge \theta] \\ \text{row } L &:\ \ \frac{1}{\lvert Q\rvert} "
              r"\sum_{q \in Q} \mathrm{iP}_q(L)\end{aligned}"),
        reference="trec_eval 10 iprec_at_recall (pytrec_eval iprec_at_recall_L, from trec_eval 9, maps a "
                  "level to floor(L * R + 0.9) relevant items instead: the same values where the two counts "
                  "agree)",
        example=_BINARY_DEMO + ">>> c = sm.interpolated_precision(run, recall_levels=[0, 0.5, 1])\n"
                               ">>> c[['recall_level', 'interpolated_precision']].round(4).values.tolist()\n"
                               "[[0.0, 0.75], [0.5, 0.5833], [1.0, 0.55]]\n",
        measure_names=(trec_eval("iprec_at_recall", "named_level"), ir_measures("IPrec", "level")),
        undefined=_NO_RELEVANT, per_query=True, unique=("query", "item"),
        not_a_mean="a curve, one mean per recall level (precision_11pt is their mean, one value per query)"),
    _ranking_metric(
        "precision_11pt", RUN + (TIES_ORDER,) + POLICIES,
        "11pt = (1/11) * sum over L in 0, 0.1, ..., 1 of the query's interpolated precision at recall L "
        "(interpolated_precision); mean over queries.",
        "11-point interpolated average precision, averaged over queries.",
        "trec_eval 10 11pt_avg (pytrec_eval 11pt_avg, from trec_eval 9: the same where its level-to-count "
        "rule floor(L * R + 0.9) agrees with lround(L * R))",
        _BINARY_DEMO + ">>> round(sm.precision_11pt(run), 4)\n0.653\n",
        math=(r"\begin{aligned}\mathrm{11pt} &= \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{1}{11} "
              r"\sum_{L \in \{0, 0.1, \ldots, 1\}} \mathrm{iP}_q(L) \\ \mathrm{iP}_q(L) &= "
              r"\max_{r \,:\, h_q(r) \ge \operatorname{round}(L R_q)} \frac{h_q(r)}{r}\ \ (0 \text{ if none}),\quad "
              r"h_q(r) = \sum_{i=1}^{r} \mathbb{1}[\mathrm{rel}_{q,i} \ge \theta]\end{aligned}"),
        measure_names=(trec_eval("11pt_avg"), sqlmetrics("precision_11pt", "whole"))),
    _ranking_metric(
        "gm_map", RUN + (TIES_ORDER,) + POLICIES,
        "GM_MAP = exp((1/n) * sum over queries of ln(max(AP, 1e-5))), AP as mean_average_precision (whole "
        "list); a missing or empty query counts with AP 0 (so 1e-5) or is left out, as missing/empty say. "
        "per_query=True gives max(AP, 1e-5) per query.",
        "Geometric mean average precision: rewards systems that do well on every query.",
        "trec_eval gm_map (1e-5: its MIN_GEO_MEAN); pytrec_eval gm_map (per query ln(max(AP, 1e-5)), "
        "aggregated by compute_aggregated_measure)",
        _BINARY_DEMO + ">>> round(sm.gm_map(run), 4)\n0.6146\n",
        math=(r"\mathrm{GM\_MAP} = \exp\left(\frac{1}{\lvert Q\rvert} \sum_{q \in Q} \ln \max\left(\mathrm{AP}(q), "
              r"10^{-5}\right)\right),\quad \mathrm{AP}(q) = \frac{1}{R_q} \sum_{r=1}^{n_q} "
              r"\mathbb{1}[\mathrm{rel}_r \ge \theta]\, P@r"),
        measure_names=(trec_eval("gm_map"), sqlmetrics("gm_map", "whole")),
        not_a_mean="their geometric mean, which is not a ratio of sums of per-query parts (mean_average_precision "
                   "is their mean)"),
    _ranking_metric(
        "err", RUN + (K, TIES_ORDER, Param(
            "max_grade", "float", "top of the grading scale (default: the largest relevance in the "
            "judgments); 4 reproduces ir_measures / gdeval ERR.", default=None, low=0.0, low_open=True, sample=4.0))
        + POLICIES,
        "ERR@k = sum over r <= k of (1/r) * R_r * prod over i < r of (1 - R_i), R_i = (2^g_i - 1) / 2^max_grade.",
        "Expected reciprocal rank (Chapelle et al. 2009): a cascade model of a user stopping at a relevant item.",
        "plain implementation of Chapelle et al. 2009; max_grade=4: ir_measures ERR@k",
        _RANK_DEMO + ">>> round(sm.err(run, qrels), 4)\n0.9735\n",
        math=(r"\begin{aligned}\mathrm{ERR}@k(q) &= \sum_{r=1}^{k} \frac{1}{r}\, R_r \prod_{i=1}^{r-1} (1 - "
              r"R_i),\quad R_i = \frac{2^{\mathrm{rel}_i} - 1}{2^{g_{\max}}} \\ \mathrm{ERR}@k &= "
              r"\frac{1}{\lvert Q\rvert} \sum_{q \in Q} \mathrm{ERR}@k(q)\end{aligned}"),
        checks=(consistency.max_grade_is_the_top,)),
    _ranking_metric(
        "bpref", RUN + (TIES_ORDER,) + POLICIES,
        "bpref = (1/R) * sum over relevant retrieved items r of (1 - min(n_r, R) / min(N, R)), n_r = judged "
        "non-relevant items ranked above r, N = judged non-relevant items of the query (relevance below "
        "relevance_threshold, retrieved or not), R = its relevant items; a term is 1 when n_r = 0. Unjudged "
        "retrieved items are passed over.",
        "Binary preference (Buckley & Voorhees 2004): how often the relevant items retrieved rank above the "
        "judged non-relevant ones, robust to incomplete judgments.",
        "trec_eval m_bpref.c; pytrec_eval bpref",
        _BINARY_DEMO + ">>> round(sm.bpref(run), 4)\n0.3333\n",
        math=(r"\begin{aligned}\mathrm{bpref}(q) &= \frac{1}{R_q} \sum_{r \text{ relevant, retrieved}} \left(1 - "
              r"\frac{\min(n_r, R_q)}{\min(N_q, R_q)}\right),\quad n_r = \text{judged non-relevant above } r \\ "
              r"\mathrm{bpref} &= \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \mathrm{bpref}(q)\end{aligned}"),
        # ranx's bpref is another formula (its values differ from trec_eval's): not read as this one
        measure_names=(trec_eval("bpref"), ir_measures("Bpref", "whole"), ir_measures("BPref", "whole"),
                       sqlmetrics("bpref", "whole"))),
    _ranking_metric(
        "infap", RUN + (TIES_ORDER,) + POLICIES,
        "infAP = (1/R) * sum over the relevant retrieved items, at rank r, of (1 + p_r * (h_r + e) / (j_r + 2e)) / "
        "r, e = 0.00001; above r: p_r the items in the pool (every item of the judgments: a negative grade is in "
        "the pool, unjudged), j_r the judged ones (grade >= 0), h_r the relevant ones; R = relevant judged items "
        "(retrieved or not). An item the judgments lack is outside the pool: it only takes its rank. Mean over "
        "queries.",
        "Inferred average precision (Yilmaz & Aslam 2006): AP estimated from a judged random sample of the pool, "
        "its unjudged items (negative grades) taken to be relevant in the proportion the judged ones are.",
        "trec_eval m_infap.c; pytrec_eval infAP",
        _BINARY_DEMO + ">>> round(sm.infap(run), 4)\n0.6278\n",
        math=(r"\begin{aligned}\mathrm{infAP}(q) &= \frac{1}{R_q} \sum_{r \text{ relevant, retrieved}} \frac{1}{r} "
              r"\left(1 + p_r \frac{h_r + \epsilon}{j_r + 2\epsilon}\right),\quad \epsilon = 10^{-5} \\ "
              r"p_r, j_r, h_r &= \text{the pooled, judged and relevant items above } r,\quad \mathrm{infAP} = "
              r"\frac{1}{\lvert Q\rvert} \sum_{q \in Q} \mathrm{infAP}(q)\end{aligned}"),
        measure_names=(trec_eval("infAP"), ir_measures("infAP", "whole"), sqlmetrics("infap", "whole"))),
    _ranking_metric(
        "rbp", RUN + (K, TIES_ORDER, Param(
            "persistence", "float", "p, the probability that the user goes on to the next rank; 0.9 as "
            "trec_eval 10's rbp (ir_measures RBP defaults to 0.8).", default=0.9, low=0.0, low_open=True,
            high=1.0, high_open=True, sample=0.5), Param(
            "graded", "bool", "True: the gain of a grade is the grade over the query's top grade where that is "
            "above 1, as trec_eval 10's rbp (relevance_threshold does not apply); False: 1 for relevance >= "
            "relevance_threshold, else 0 (ir_measures' RBP(rel=...)).", default=True)) + POLICIES,
        "RBP = (1 - p) * sum over ranks r <= k of p^(r - 1) * g_r; graded (default), g_r = rel_r / max(1, the "
        "query's top grade), and a query without a positive grade is empty (as ndcg); graded=False, g_r = "
        "[rel_r >= relevance_threshold]. residual (details=True, per_query=True) = (1 - p) * sum over unjudged "
        "ranks r <= k of p^(r - 1) + p^d, d the list length (k when shorter): the most RBP could still gain if "
        "every unjudged and unseen item were relevant (1 for a query absent from the run). Weights below 1e-307 "
        "count as 0.",
        "Rank-biased precision (Moffat & Zobel 2008): the expected rate of relevant items seen by a user who "
        "goes from each rank to the next with probability p, and its residual.",
        "trec_eval 10 rbp and rbp_resid (trec_eval's rbp_resid is 0 when no retrieved item is unjudged, "
        "without the weight p^d beyond the list); graded=False: ir_measures RBP(p=..., rel=N)",
        _BINARY_DEMO + ">>> sm.rbp(run, persistence=0.5)\n0.453125\n",
        math=(r"\begin{aligned}\operatorname{RBP}@k(q) &= (1 - p) \sum_{r=1}^{k} p^{r-1} g_r,\quad g_r = "
              r"\frac{\mathrm{rel}_r}{\max(1, \max_j \mathrm{rel}_j)} \text{ (graded) or } "
              r"\mathbb{1}[\mathrm{rel}_r \ge \theta] \\ \operatorname{RBP}@k &= \frac{1}{\lvert Q\rvert} "
              r"\sum_{q \in Q} \operatorname{RBP}@k(q)\end{aligned}"),
        outputs=("residual",) + QUERY_COUNTS, one_pass=True, inapplicable=((
            "relevance_threshold", "graded", True, "trec_eval 10's rbp: each grade over the query's top grade"),),
        # trec_eval's rbp is graded; ir_measures' RBP(rel=N) counts relevance >= N (ranx's rbp.95 gives other
        # values than either: not read as this one)
        measure_names=(trec_eval("rbp", params={"graded": True}, dotted="pairs"), sqlmetrics("rbp"),
                       # without rel= ir_measures' RBP is graded (trectools' gains): rel= is required
                       ir_measures("RBP", "optional", params={"graded": False, "persistence": 0.8},
                                   options={"p": "persistence"}, level=None))),
    _ranking_metric(
        "set_precision", RUN + POLICIES,
        "set P = relevant items retrieved / items retrieved, over the whole list of the query (= precision_at_k "
        "with k=None); mean over queries.",
        "Precision of the whole retrieved set of each query, averaged over queries.", "pytrec_eval set_P",
        _BINARY_DEMO + ">>> round(sm.set_precision(run), 4)\n0.4167\n",
        math=(r"\text{set } P = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{1}{n_q} \sum_{r=1}^{n_q} "
              r"\mathbb{1}[\mathrm{rel}_{q,r} \ge \theta],\quad n_q \text{ the items retrieved}"),
        template="ranking/precision_at_k.sql"),
    _ranking_metric(
        "set_recall", RUN + POLICIES,
        "set recall = relevant items retrieved / R, R = relevant judged items (retrieved or not) (= recall_at_k "
        "with k=None); mean over queries.",
        "Recall of the whole retrieved set of each query, averaged over queries.", "pytrec_eval set_recall",
        _BINARY_DEMO + ">>> sm.set_recall(run)\n1.0\n",
        math=(r"\text{set recall} = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{1}{R_q} \sum_{r=1}^{n_q} "
              r"\mathbb{1}[\mathrm{rel}_{q,r} \ge \theta],\quad R_q \text{ the relevant judged items}"),
        template="ranking/recall_at_k.sql"),
    _ranking_metric(
        "set_f", RUN + (BETA,) + POLICIES,
        "set F = (1 + beta^2) * P * R / (beta^2 * P + R), P and R the set precision and set recall of the "
        "query; 0 when nothing relevant is retrieved; mean over queries.",
        "F-measure of the whole retrieved set of each query, averaged over queries.",
        "pytrec_eval set_F (trec_eval's set_F parameter x is beta^2: the default set_F.1 is beta=1)",
        _BINARY_DEMO + ">>> round(sm.set_f(run), 4)\n0.5833\n",
        math=(r"\begin{aligned}F(q) &= \frac{(1 + \beta^2)\, P_q \mathrm{Rec}_q}{\beta^2 P_q + "
              r"\mathrm{Rec}_q},\quad P_q = \frac{h_q}{n_q},\ \mathrm{Rec}_q = \frac{h_q}{R_q},\ h_q = "
              r"\sum_{r=1}^{n_q} \mathbb{1}[\mathrm{rel}_{q,r} \ge \theta] \\ \text{set } F &= "
              r"\frac{1}{\lvert Q\rvert} \sum_{q \in Q} F(q)\end{aligned}"),
        measure_names=(trec_eval("set_F", dotted="beta_squared"), ir_measures("SetF", "whole", options={"beta": "beta"}),
                       sqlmetrics("set_f", "whole"))),
    _ranking_metric(
        "set_map", RUN + POLICIES,
        "set MAP = h^2 / (n * R) = set P * set recall, h = relevant items retrieved, n = items retrieved, R = "
        "relevant judged items (retrieved or not): the AP of an unranked set, each relevant item retrieved counted "
        "at the set's precision and each one missed at 0; mean over queries.",
        "Set average precision: the average precision of the whole retrieved set taken unranked, averaged over "
        "queries.",
        "pytrec_eval set_map (ir_measures SetAP)",
        _BINARY_DEMO + ">>> round(sm.set_map(run), 4)\n0.4167\n",
        math=(r"\text{set MAP} = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{h_q^2}{n_q R_q},\quad h_q = "
              r"\sum_{r=1}^{n_q} \mathbb{1}[\mathrm{rel}_{q,r} \ge \theta],\ n_q \text{ the items retrieved}"),
        measure_names=(trec_eval("set_map"), ir_measures("SetAP", "whole"), sqlmetrics("set_map", "whole"))),
    _ranking_metric(
        "num_rel_ret", RUN + POLICIES,
        "relevant items retrieved, per query, summed over the counted queries (a count, not a mean: a query "
        "absent from the run or without relevant items adds 0; missing and empty only decide which queries "
        "are counted).",
        "Number of relevant items retrieved, over all queries (per query with per_query=True).",
        "pytrec_eval num_rel_ret", _BINARY_DEMO + ">>> sm.num_rel_ret(run)\n4\n",
        math=r"\mathrm{num\_rel\_ret} = \sum_{q \in Q} \sum_{r=1}^{n_q} \mathbb{1}[\mathrm{rel}_{q,r} \ge \theta]",
        undefined="", count=True,
        measure_names=(trec_eval("num_rel_ret"), ir_measures("NumRelRet", "whole"), sqlmetrics("num_rel_ret", "whole")),
        not_a_mean="their sum, a count that grows with the number of queries (set_recall is a mean)"),
    _ranking_metric(
        "num_ret", RUN + POLICIES,
        "items retrieved, per query, summed over the counted queries (a count, not a mean: a query absent from "
        "the run adds 0, one without relevant items its own count; missing and empty only decide which queries "
        "are counted).",
        "Number of items retrieved, over all judged queries (per query with per_query=True).",
        "pytrec_eval num_ret", _BINARY_DEMO + ">>> sm.num_ret(run)\n9\n",
        math=r"\mathrm{num\_ret} = \sum_{q \in Q} n_q,\quad n_q \text{ the items retrieved for } q",
        undefined="", count=True,
        # ir_measures' NumRet is this without rel= and NumRelRet with it: not read (measures.ELSEWHERE says so)
        measure_names=(trec_eval("num_ret"), sqlmetrics("num_ret", "whole")),
        not_a_mean="their sum, a count that grows with the number of queries"),
    _ranking_metric(
        "num_rel", RUN + POLICIES,
        "relevant judged items (relevance >= relevance_threshold, retrieved or not), per query, summed over the "
        "counted queries (a count, not a mean: a judged query absent from the run adds its own count, as with "
        "trec_eval -c; missing and empty only decide which queries are counted).",
        "Number of relevant judged items, over all judged queries (per query with per_query=True).",
        "pytrec_eval num_rel (trec_eval -c's summary instead counts the grades above 0 of every judged query, "
        "whatever -l: the same at level 1)", _BINARY_DEMO + ">>> sm.num_rel(run)\n4\n",
        math=r"\mathrm{num\_rel} = \sum_{q \in Q} R_q,\quad R_q \text{ the judged items of } q \text{ with } "
             r"\mathrm{rel} \ge \theta",
        undefined="", count=True,
        # ir_measures' NumRel counts a judged query absent from the run 0, trec_eval -c (missing='zero') its R:
        # not read as this one (with missing='skip' the two agree)
        measure_names=(trec_eval("num_rel"), sqlmetrics("num_rel", "whole")),
        not_a_mean="their sum, a count that grows with the number of queries"),
    _ranking_metric(
        "judged_at_k", (Param("qrels", "relation", "judgments (query, item, relevance): a table name, "
                              "sqlmetrics.Query, file or frame; required (a run carrying its relevance has every "
                              "item judged)."),
                        QUERY, ITEM, RUN_SCORE, RELEVANCE, *QRELS_COLUMNS, K, TIES_ORDER, MISSING, RANKING_BY),
        "Judged@k = items of the top k that the judgments have (any relevance, 0 included) / items in the top "
        "k (the list length when shorter; the whole list for k=None); mean over the judged queries, whatever "
        "their grades (n_relevant, per query, counts the judged items).",
        "Judgment rate: the share of each query's top k that has a relevance judgment.",
        "ir_measures Judged@k (its tie order is ties='item_asc')",
        ">>> import pandas as pd, sqlmetrics as sm\n"
        ">>> run = pd.DataFrame({'query': 1, 'item': list('abcd'), 'score': [4, 3, 2, 1]})\n"
        ">>> qrels = pd.DataFrame({'query': 1, 'item': ['a', 'c'], 'relevance': [0, 1]})\n"
        ">>> sm.judged_at_k(run, qrels, k=2)\n0.5\n",
        math=(r"\mathrm{Judged}@k = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{1}{\min(k, n_q)} "
              r"\sum_{r=1}^{\min(k, n_q)} \mathbb{1}[\text{the item at rank } r \text{ is judged}]"),
        undefined="no judged query is evaluated", measure_names=(ir_measures("Judged", "required", ties="item_asc"), sqlmetrics("judged_at_k"))),
    _ranking_metric(
        "unjudged_at_k", (Param("qrels", "relation", "judgments (query, item, relevance): a table name, "
                                "sqlmetrics.Query, file or frame; required (a run carrying its relevance has every "
                                "item judged)."),
                          QUERY, ITEM, RUN_SCORE, RELEVANCE, *QRELS_COLUMNS, K_REQUIRED, TIES_ORDER, MISSING,
                          RANKING_BY),
        "unj@k = items of the top k that the judgments lack, or have with a negative grade (in the pool, "
        "unjudged) / k: k even when the list is shorter, its missing ranks counting as judged (k=None: over the "
        "whole list, its length); a judged query absent from the run scores 0. Mean over the judged queries, "
        "whatever their grades. It is 1 - judged_at_k for a query whose list reaches k, not otherwise: judged_at_k "
        "divides by the list length when it is shorter, and scores an absent query 0 as well.",
        "Unjudged rate: the share of each query's top k that has no relevance judgment, a red flag for a run the "
        "judgments cover poorly.",
        "trec_eval 10 unj_k (m_unjudged.c, not in pytrec_eval's trec_eval 9)",
        ">>> import pandas as pd, sqlmetrics as sm\n"
        ">>> run = pd.DataFrame({'query': 1, 'item': list('abcd'), 'score': [4, 3, 2, 1]})\n"
        ">>> qrels = pd.DataFrame({'query': 1, 'item': ['a', 'c'], 'relevance': [0, 1]})\n"
        ">>> sm.unjudged_at_k(run, qrels, k=2)\n0.5\n"
        ">>> sm.unjudged_at_k(run, qrels, k=10)  # b and d of 10 ranks\n0.2\n",
        math=(r"\mathrm{unj}@k = \frac{1}{\lvert Q\rvert} \sum_{q \in Q} \frac{1}{k} \sum_{r=1}^{\min(k, n_q)} "
              r"\mathbb{1}[\text{the item at rank } r \text{ is unjudged}]"),
        undefined="no judged query is evaluated", better="lower",
        measure_names=(trec_eval("unj", "named"), sqlmetrics("unjudged_at_k", "required"))),
    _ranking_metric(
        "rank_correlation", RUN + (K, TIES_ORDER, RANKING_BY),
        "RC = sum over pairs u < v of (1 + sgn((pi(u) - pi(v)) * (pi_l(u) - pi_l(v)))) / (2 * pairs) between the "
        "predicted order pi and the order by relevance pi_l (equal relevance counts 1/2); mean over queries "
        "with at least two items.",
        "Rank correlation: the share of item pairs the ranking orders as the relevance does (ties count 1/2).",
        "plain definition (pairwise concordance, ties 1/2)",
        _RANK_DEMO + ">>> sm.rank_correlation(run, qrels)\n0.85\n",
        math=(r"\begin{aligned}\mathrm{RC}(q) &= \frac{1}{\binom{m}{2}} \sum_{r < s \le m} "
              r"\left(\mathbb{1}[\mathrm{rel}_r > \mathrm{rel}_s] + \frac{1}{2} \mathbb{1}[\mathrm{rel}_r = "
              r"\mathrm{rel}_s]\right),\quad m = \min(k, n_q) \\ \mathrm{RC} &= \text{the mean of } \mathrm{RC}(q) "
              r"\text{ over the queries with } m \ge 2\end{aligned}"),
        undefined="no query has two ranked items"),
    _ranking_metric(
        "kendall_tau", RUN + (K, Param(
            "variant", "choice", "'b' (tau-b, default, as scipy), 'a' (textbook (C - D) / pairs), 'c' (tau-c).",
            default="b", choices=("a", "b", "c")), RANKING_BY),
        "tau_b = (C - D) / sqrt((n0 - n_score_ties) * (n0 - n_relevance_ties)) between score and relevance within "
        "each query; tau_a = (C - D) / n0; tau_c = 2 (C - D) / (n^2 (m - 1) / m). Mean over queries where it is "
        "defined (not constant).",
        "Kendall rank correlation between the scores and the relevance of each query's items.",
        "scipy.stats.kendalltau",
        _RANK_DEMO + ">>> round(sm.kendall_tau(run, qrels), 4)\n0.7379\n",
        math=(r"\begin{aligned}\tau_b &= \frac{C - D}{\sqrt{(n_0 - n_s)(n_0 - n_{\mathrm{rel}})}},\quad \tau_a = "
              r"\frac{C - D}{n_0},\quad \tau_c = \frac{2 (C - D)}{n^2 (m - 1) / m},\quad n_0 = \binom{n}{2} \\ m &= "
              r"\min(\#\text{scores}, \#\text{grades}),\quad \tau = \text{the mean of } \tau(q) "
              r"\text{ over the queries where it is defined}\end{aligned}"),
        undefined="no query has two items with different scores and relevances"),
    _ranking_metric(
        "ils", (_SIMILARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, RANKING_BY),
        "ILS = mean over pairs of items in the query's top k of similarity(a, b); mean over queries with at "
        "least two items. Lower means more diverse lists.",
        "Intra-list similarity (Ziegler et al. 2005): how alike the items of each list are.",
        "plain definition (Ziegler et al. 2005, mean pairwise similarity)",
        ">>> import pandas as pd, sqlmetrics as sm\n"
        ">>> run = pd.DataFrame({'query': 1, 'item': ['a', 'b', 'c'], 'score': [3, 2, 1]})\n"
        ">>> sim = pd.DataFrame({'item_a': ['a', 'a'], 'item_b': ['b', 'c'], 'similarity': [0.9, 0.3]})\n"
        ">>> round(sm.ils(run, similarity=sim), 4)\n0.4\n",
        math=(r"\begin{aligned}\mathrm{ILS}(q) &= \frac{1}{\binom{m}{2}} \sum_{r < s \le m} \operatorname{sim}(i_r, "
              r"i_s),\quad m = \min(k, n_q) \\ \mathrm{ILS} &= \text{the mean of } \mathrm{ILS}(q) "
              r"\text{ over the queries with } m \ge 2\end{aligned}"),
        outputs=("n_queries",), undefined="no query has two ranked items", checks=(consistency.one_similarity_per_pair,),
        section="beyond_accuracy"),
    Metric(
        name="coverage", section="beyond_accuracy", template="ranking/coverage.sql", kind="scalar",
        params=(QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, _N_ITEMS, _ITEMS, BY),
        outputs=("coverage", "n_covered", "n_items"), one_of=("n_items", "items"), unique=("query", "item"),
        checks=(consistency.catalogue_holds_the_run,),
        summary="Catalogue coverage: the share of the catalogue that appears in some top-k list.",
        formula="coverage = distinct items in all top-k lists / catalogue size",
        math=(r"\mathrm{coverage} = \frac{\lvert \{ i : i \in L_q@k \text{ for some } q \} \rvert}{\lvert I "
              r"\rvert},\quad I \text{ the catalogue}"),
        reference="plain definition (RecBole ItemCoverage with n_items = catalogue + 1); Microsoft Recommenders "
                  "catalog_coverage(train, reco) with items=train, the training interactions (alias "
                  "sm.catalog_coverage)",
        example=(_POPULARITY_DEMO + ">>> sm.coverage(run, k=1, n_items=10)\n0.1\n"
                 ">>> sm.catalog_coverage(run, items=train)  # 3 of the 4 items of the training data\n0.75\n"),
        undefined="the catalogue is empty", aliases=("catalog_coverage",)),
    # -- beyond accuracy: the lists against the training data and the catalogue ------------------------
    Metric(
        name="novelty", section="beyond_accuracy", template="ranking/novelty.sql", kind="scalar",
        params=(_INTERACTIONS, _POPULARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, BY),
        outputs=("novelty", "n_recommendations"), one_of=("interactions", "popularity"), unique=("query", "item"),
        checks=(consistency.one_count_per_item, consistency.recommended_items_are_known),
        summary="Novelty (Castells et al. 2011): the mean self-information -log2 p(i) of the recommended items, "
                "p(i) the item's share of the training interactions; higher means less popular items.",
        formula="novelty = mean over the recommended (user, item) rows of the top-k lists of -log2 p(i), "
                "p(i) = interactions naming i / all interactions (or count / sum of counts). An item recommended "
                "without a positive count (p = 0, infinite self-information) is an error naming how many, where "
                "Microsoft Recommenders leaves its rows out of the sum but not of the count.",
        math=(r"\mathrm{novelty} = \frac{1}{N} \sum_{(u, i)} -\log_2 p(i),\quad p(i) = \frac{c_i}{\sum_j c_j},\quad "
              r"(u, i) \text{ the } N \text{ rows of the top-}k\text{ lists}"),
        reference="Microsoft Recommenders python_evaluation.novelty(train, reco)",
        example=_POPULARITY_DEMO + ">>> round(sm.novelty(run, train), 4)  # -log2 of 4/8, 1/8, 4/8, 1/8\n2.0\n",
        undefined=_NO_LISTS),
    _ranking_metric(
        "serendipity", (
            Param("interactions", "relation", "the users' training interactions, one row per event, with the "
                  "run's query (user) and item columns: a user's history.",
                  relation_columns=(("{query}", "key"), ("{item}", "key"))),
            _SIMILARITY, QUERY, ITEM, RUN_SCORE,
            Param("relevance", "column", "optional column of the run: the relevance of the recommended item to its "
                  "user (Microsoft Recommenders' col_relevance, which it rounds to float16: equal for 0/1 and other "
                  "values float16 holds); None: 1 for every item, as Microsoft Recommenders.", default=None,
                  role="relevance"),
            K, TIES_ORDER, BY),
        "serendipity(u, i) = (1 - mean over the user's interactions h of similarity(i, h)) * relevance(u, i); per "
        "user the mean over the items of its top k, then the mean over users. Users without interactions are left "
        "out (n_without_history); an item recommended to a user who interacted with it is an error, as in "
        "Microsoft Recommenders.",
        "Serendipity (Zhang et al. 2012): how unlike the user's history the recommended items are, weighted by "
        "their relevance.",
        "Microsoft Recommenders python_evaluation.serendipity(train, reco, col_relevance=...) with the item "
        "similarities of the similarity table (Microsoft Recommenders derives them from co-occurrence or features)",
        _CATALOGUE_DEMO + ">>> train = pd.DataFrame({'query': [1, 1, 2], 'item': ['c', 'd', 'b']})\n"
                          ">>> sim = pd.DataFrame({'item_a': ['a', 'b'], 'item_b': ['c', 'c'], "
                          "'similarity': [0.5, 0.8]})\n"
                          ">>> sm.serendipity(run, train, similarity=sim)  # user 1: (0.75 + 0.6) / 2, user 2: (1 + 0.2) / 2\n0.6375\n",
        math=(r"\begin{aligned}s(u, i) &= \left(1 - \frac{1}{\lvert H_u\rvert} \sum_{h \in H_u} "
              r"\operatorname{sim}(i, h)\right) \mathrm{rel}(u, i) \\ \mathrm{serendipity} &= "
              r"\frac{1}{\lvert U\rvert} \sum_{u \in U} \frac{1}{\lvert L_u@k\rvert} \sum_{i \in L_u@k} s(u, "
              r"i),\quad U \text{ the users with a history } H_u\end{aligned}"),
        undefined="no user of the run has interactions", outputs=("n_users", "n_without_history"),
        checks=(consistency.one_similarity_per_pair, consistency.recommended_items_are_new),
        section="beyond_accuracy"),
    Metric(
        name="distributional_coverage", section="beyond_accuracy", template="ranking/distributional_coverage.sql", kind="scalar",
        params=(QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, BY),
        outputs=("distributional_coverage", "n_recommendations", "n_covered"), unique=("query", "item"),
        summary="Distributional coverage: the Shannon entropy (bits) of how the recommendations spread over "
                "the items.",
        formula="distributional_coverage = -sum over items of p(i) log2 p(i), p(i) = the share of the recommended "
                "rows of all top-k lists that recommend i; 0 for one item recommended to all, log2(n) for n items "
                "recommended equally often.",
        math=(r"\mathrm{DC} = -\sum_{i} p(i) \log_2 p(i),\quad p(i) = "
              r"\frac{\text{rows of the top-}k\text{ lists recommending } i}{\text{rows of the top-}k\text{ lists}}"),
        reference="Microsoft Recommenders python_evaluation.distributional_coverage(train, reco) (Shani & "
                  "Gunawardana 2011, eq. 21)",
        example=_CATALOGUE_DEMO + ">>> round(sm.distributional_coverage(run), 4)  # a: 1/2, b: 1/4, c: 1/4\n1.5\n",
        undefined=_NO_LISTS),
    Metric(
        name="gini_index", section="beyond_accuracy", template="ranking/gini_index.sql", kind="scalar",
        params=(QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, _N_ITEMS, _ITEMS, BY),
        outputs=("gini_index", "n_covered", "n_items"), one_of=("n_items", "items"), unique=("query", "item"),
        checks=(consistency.catalogue_holds_the_run,),
        summary="Gini index of how often the catalogue's items are recommended: 0 for equal counts, near 1 when a "
                "few items take every recommendation.",
        formula="gini_index = sum over i of (2i - n - 1) P(i) / (n sum over i of P(i)), P(1) <= ... <= P(n) the "
                "counts of the n catalogue items in the top-k lists (0 for an item never recommended).",
        math=(r"\mathrm{Gini} = \frac{\sum_{i=1}^{n} (2i - n - 1)\, P_{(i)}}{n \sum_{i=1}^{n} P_{(i)}},\quad "
              r"P_{(1)} \le \ldots \le P_{(n)} \text{ the top-}k\text{ counts of the } n \text{ catalogue items}"),
        reference="RecBole GiniIndex (with n_items = catalogue + 1, RecBole's item count with its padding item)",
        example=_CATALOGUE_DEMO + ">>> round(sm.gini_index(run, n_items=4), 4)  # counts 0, 1, 1, 2\n0.375\n",
        undefined="the catalogue is empty"),
    _ranking_metric(
        "average_popularity", (_INTERACTIONS, _POPULARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, BY),
        "ARP = mean over users of the mean popularity count of the items of the user's top k (the interactions "
        "naming the item, or its count); an item absent from the popularity source counts 0, as in RecBole.",
        "Average recommendation popularity (ARP): how popular, in the training data, the recommended items are.",
        "RecBole AveragePopularity",
        _POPULARITY_DEMO + ">>> sm.average_popularity(run, train)  # user 1: (4 + 1) / 2, user 2: (4 + 1) / 2\n2.5\n",
        math=(r"\mathrm{ARP} = \frac{1}{\lvert U\rvert} \sum_{u \in U} \frac{1}{\lvert L_u@k\rvert} "
              r"\sum_{i \in L_u@k} c_i,\quad c_i \text{ the popularity count of } i \text{ (0 if absent)}"),
        undefined=_NO_LISTS, outputs=("n_users",), one_of=("interactions", "popularity"),
        checks=(consistency.one_count_per_item,), section="beyond_accuracy"),
    _ranking_metric(
        "tail_share", (_INTERACTIONS, _POPULARITY, QUERY, ITEM, RUN_SCORE, K, TIES_ORDER, Param(
            "tail", "float", "the long tail: above 1, the items whose popularity count is at most `tail`; up to 1, "
            "the least popular share `tail` of the items (RecBole's tail_ratio, whose default 0.1 this is, so "
            "RecBole's TailPercentage reproduces without configuring it).", default=0.1, low=0.0, low_open=True, sample=0.2),
            BY),
        "tail_share = mean over users of the share of the items of the user's top k that are in the long tail T. "
        "T is drawn from the items of the popularity source (an item it lacks is not in T, as in RecBole): tail > 1, "
        "the items counted at most `tail` times; tail <= 1, the first max(floor(n * tail), 1) of its n items by "
        "increasing count, where a cut inside a group of equal counts gives each item of the group the share of "
        "it the cut takes (RecBole orders such a group by its internal item ids). n_tail_items = |T|.",
        "Share of long-tail (rarely interacted) items among the recommended items.",
        "RecBole TailPercentage (tail_ratio = tail)",
        _POPULARITY_DEMO + ">>> sm.tail_share(run, train, tail=1.5)  # tail: b and c (1 interaction each)\n0.5\n",
        math=(r"\begin{aligned}\mathrm{tail\_share} &= \frac{1}{\lvert U\rvert} \sum_{u \in U} "
              r"\frac{1}{\lvert L_u@k\rvert} \sum_{i \in L_u@k} \mathbb{1}[i \in T] \\ T &= \{i : c_i \le \tau\}\ "
              r"(\tau > 1) \text{ or the } \max(\lfloor n \tau \rfloor, 1) \text{ least popular of the } n "
              r"\text{ items}\ (\tau \le 1)\end{aligned}"),
        undefined=_NO_LISTS, outputs=("n_users", "n_tail_items"), one_of=("interactions", "popularity"),
        checks=(consistency.one_count_per_item,), section="beyond_accuracy"),
]
