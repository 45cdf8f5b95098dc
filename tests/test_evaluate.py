"""sm.evaluate: measure strings (sqlmetrics, ranx, ir_measures, trec_eval spellings) and several
ranking measures in one pass, checked against pytrec_eval and against each metric's own function.
(Its SQL on the other engines: tests/test_engines.py; in the 11 dialects: tests/test_golden.py; on
Spark's task metrics: tests/test_parallel_plan.py.)"""
import math

import numpy as np
import pandas as pd
import pytest
import pytrec_eval  # the reference of trec_eval's measures

import sqlmetrics as sm
from sqlmetrics.measures import Measure, parse

# ids whose byte order differs from their numeric order, and upper case before lower case
POOL = [f"d{j}" for j in range(30)] + ["D7", "d05", "Z9", "a"]


def make_frames(seed: int, n_queries: int = 60):
    """A run (query, item, score, c) and graded qrels with the corner cases: tied scores, unjudged
    retrieved items, judged items never retrieved, queries without relevant items (and without any
    positive grade), judged queries missing from the run, run queries nobody judged."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for i in range(n_queries):
        q, c = f"q{i}", "ab"[i % 2]
        docs = [str(d) for d in rng.choice(POOL, size=int(rng.integers(1, 16)), replace=False)]
        if i % 9 != 8:  # judged, missing from the run
            run += [(q, d, int(s), c) for d, s in zip(docs, rng.integers(0, 4, len(docs)))]
        if i % 11 == 10:  # retrieved, nobody judged it
            continue
        judged = [d for d in docs if rng.random() < 0.6] + [str(d) for d in rng.choice(POOL, 3) if d not in docs]
        grades = [0, 0, 1, 2, 3] if i % 7 else [0, 0.5]  # i % 7 == 0: nothing >= 1 (0.5 is a positive grade)
        qrels += [(q, d, float(rng.choice(grades)), c) for d in dict.fromkeys(judged or docs[:1])]
    return (pd.DataFrame(run, columns=["query", "item", "score", "c"]),
            pd.DataFrame(qrels, columns=["query", "item", "relevance", "c"]))


RUN, QRELS = make_frames(1)


def test_measure_strings():
    """Every spelling of the libraries, case-insensitive, as (metric, k, gain, relevance_threshold)."""
    table = {
        # sqlmetrics' names and aliases (gain None: the call's gain=)
        "ndcg@10": ("ndcg", 10, None, None), "NDCG@10": ("ndcg", 10, None, None), "dcg@5": ("dcg", 5, None, None),
        "map": ("mean_average_precision", None, None, None), "map@10": ("mean_average_precision", 10, None, None),
        "mean_average_precision@3": ("mean_average_precision", 3, None, None), "mrr@10": ("mrr", 10, None, None),
        "mrr": ("mrr", None, None, None), "precision@5": ("precision_at_k", 5, None, None),
        "precision_at_k@5": ("precision_at_k", 5, None, None), "recall@100": ("recall_at_k", 100, None, None),
        "recall_at_k@100": ("recall_at_k", 100, None, None), "hit_rate@10": ("hit_rate", 10, None, None),
        "r_precision": ("r_precision", None, None, None), "set_precision": ("precision_at_k", None, None, None),
        "set_recall": ("recall_at_k", None, None, None),
        # ir_measures
        "nDCG@10": ("ndcg", 10, None, None), "P@5": ("precision_at_k", 5, None, None),
        "R@100": ("recall_at_k", 100, None, None), "AP": ("mean_average_precision", None, None, None),
        "AP@10": ("mean_average_precision", 10, None, None), "RR": ("mrr", None, None, None),
        "RR@10": ("mrr", 10, None, None), "Success@10": ("hit_rate", 10, None, None),
        "Rprec": ("r_precision", None, None, None), "SetP": ("precision_at_k", None, None, None),
        "SetR": ("recall_at_k", None, None, None), "P(rel=2)@5": ("precision_at_k", 5, None, 2.0),
        "nDCG(dcg=exp-log2)@10": ("ndcg", 10, "exponential", None), "nDCG": ("ndcg", None, None, None),
        # ranx
        "ndcg_burges@10": ("ndcg", 10, "exponential", None), "dcg_burges@3": ("dcg", 3, "exponential", None),
        "r-precision": ("r_precision", None, None, None),
        # trec_eval
        "P_5": ("precision_at_k", 5, None, None), "recall_100": ("recall_at_k", 100, None, None),
        "ndcg_cut_10": ("ndcg", 10, "linear", None), "ndcg": ("ndcg", None, None, None),
        "map_cut_10": ("mean_average_precision", 10, None, None), "recip_rank": ("mrr", None, None, None),
        "success_10": ("hit_rate", 10, None, None), "set_P": ("precision_at_k", None, None, None),
        " Rprec ": ("r_precision", None, None, None),
    }
    for text, (metric, k, gain, threshold) in table.items():
        assert parse(text) == Measure(text, metric, k, gain, threshold), text


def trec_dicts(run, qrels):
    runs, judgments = {}, {}
    for q, d, s in run[["query", "item", "score"]].itertuples(index=False):
        runs.setdefault(q, {})[d] = float(s)
    for q, d, r in qrels[["query", "item", "relevance"]].itertuples(index=False):
        judgments.setdefault(q, {})[d] = int(r)  # trec_eval reads integer grades
    return runs, judgments


def test_trec_eval_names_match_pytrec_eval():
    """trec_eval's names give trec_eval's numbers (linear gain, ties by item id descending), per
    query and as the mean over the queries pytrec_eval evaluates (run and qrels: missing='skip').
    trec_eval's whole-list `ndcg` is also sqlmetrics' name: it takes the call's gain, here linear."""
    run, qrels = make_frames(2, 80)
    qrels = qrels.assign(relevance=qrels["relevance"].round())  # integer grades, as trec_eval
    names = ["P_5", "recall_10", "ndcg_cut_10", "ndcg", "map", "map_cut_10", "recip_rank", "success_5", "Rprec",
             "set_P", "set_recall"]
    runs, judgments = trec_dicts(run, qrels)
    want = pytrec_eval.RelevanceEvaluator(judgments, set(names)).evaluate(runs)
    got = sm.evaluate(run, qrels, names, missing="skip", gain="linear", per_query=True).set_index("query")
    assert sorted(got.index) == sorted(want)
    summary = sm.evaluate(run, qrels, names, missing="skip", gain="linear")
    for name in names:
        values = {q: v[name] for q, v in want.items()}
        assert got[name].to_dict() == pytest.approx(values, abs=1e-12), name
        assert summary[name].iloc[0] == pytest.approx(np.mean(list(values.values())), abs=1e-12), name
    missing = set(qrels["query"]) - set(run["query"])
    assert summary[["n_queries", "n_missing"]].iloc[0].tolist() == [len(want), len(missing)] and missing


CASES = [  # (measure, function, its parameters)
    ("ndcg@5", "ndcg", {"k": 5}), ("ndcg", "ndcg", {}), ("ndcg_burges@3", "ndcg", {"k": 3, "gain": "exponential"}),
    ("ndcg_cut_10", "ndcg", {"k": 10, "gain": "linear"}), ("dcg@4", "dcg", {"k": 4}), ("dcg", "dcg", {}),
    ("map", "mean_average_precision", {}), ("AP@3", "mean_average_precision", {"k": 3}), ("mrr", "mrr", {}),
    ("RR@2", "mrr", {"k": 2}), ("P@3", "precision_at_k", {"k": 3}), ("set_P", "precision_at_k", {"k": None}),
    ("recall@5", "recall_at_k", {"k": 5}), ("set_recall", "recall_at_k", {"k": None}),
    ("hit_rate@2", "hit_rate", {"k": 2}), ("Rprec", "r_precision", {}),
]
AVERAGING = ("ndcg", "dcg", "precision_at_k", "recall_at_k")


def test_each_measure_is_its_own_metric():
    """On graded judgments with every corner case, each measure of one evaluate call equals its own
    function: exactly per query, and its mean over queries (by slices too) up to the order in which
    the engine sums (threads), under each missing/empty policy, with ties by item id and (for the
    metrics that take it) averaged, with either gain, and at a threshold of 2."""
    variants = [{}, {"missing": "skip", "empty": "skip"}, {"missing": "zero", "empty": "skip"},
                {"ties": "average"}, {"gain": "linear", "ties": "item_asc"}, {"relevance_threshold": 2.0}]
    for i, variant in enumerate(variants):
        cases = [c for c in CASES if variant.get("ties") != "average" or c[1] in AVERAGING]
        measures = [m for m, _, _ in cases]
        for by in ([["c"]] if i % 2 else [[]]):  # half the variants by slices
            sliced = {"by": by} if by else {}
            got = sm.evaluate(RUN, QRELS, measures, by=by, **variant)
            got_queries = sm.evaluate(RUN, QRELS, measures, by=by, per_query=True, **variant)
            for measure, name, params in cases:
                # the call's gain for sqlmetrics' spellings; the spelling's own otherwise
                if name in ("ndcg", "dcg"):
                    params = {"gain": variant.get("gain", "exponential"), **params}
                params = {**{k: v for k, v in variant.items() if k != "gain"}, **params}
                what = f"{measure} {variant} by={by}"
                want = getattr(sm, name)(RUN, QRELS, details=True, **sliced, **params)
                assert got[by].values.tolist() == want[by].values.tolist(), what
                assert np.allclose(got[measure], want[name], rtol=1e-12, atol=0, equal_nan=True), what
                if measure == measures[0]:
                    counts = ["n_queries", "n_missing", "n_empty"]
                    assert got[counts].values.tolist() == want[counts].values.tolist(), what
                mine = got_queries[by + ["query", measure]].dropna()
                theirs = getattr(sm, name)(RUN, QRELS, per_query=True, **sliced, **params)
                assert mine.values.tolist() == theirs[by + ["query", name]].values.tolist(), what


def test_the_run_carrying_its_relevance():
    run = RUN.merge(QRELS, on=["query", "item", "c"], how="left").fillna({"relevance": 0})
    got = sm.evaluate(run, measures=["ndcg@5", "P@3", "map", "Rprec"])
    want = [sm.ndcg(run, k=5), sm.precision_at_k(run, k=3), sm.map(run), sm.r_precision(run)]
    assert got[["ndcg@5", "P@3", "map", "Rprec"]].iloc[0].tolist() == pytest.approx(want, rel=1e-12)


def test_two_spellings_of_one_measure_and_a_relevance_level():
    got = sm.evaluate(RUN, QRELS, ["P@5", "P_5", "p(rel=2)@5"], relevance_threshold=2)
    want = sm.precision_at_k(RUN, QRELS, k=5, relevance_threshold=2)
    assert got[["P@5", "P_5", "p(rel=2)@5"]].iloc[0].tolist() == pytest.approx([want] * 3, rel=1e-12)
    # the level alone sets the call's threshold
    assert sm.evaluate(RUN, QRELS, "P(rel=2)@5")["P(rel=2)@5"].iloc[0] == pytest.approx(want, rel=1e-12)


def test_a_measure_without_relevant_items_is_nan_not_an_error():
    qrels = QRELS.assign(relevance=0.0)
    got = sm.evaluate(RUN, qrels, ["ndcg@5", "map"])
    assert math.isnan(got["ndcg@5"].iloc[0]) and math.isnan(got["map"].iloc[0])
    assert got["n_empty"].iloc[0] == qrels["query"].nunique()


@pytest.mark.parametrize("measures, params, fragment", [
    (["ndgc@10"], {}, "unknown measure 'ndgc@10' (did you mean 'ndcg'?)"),
    (["precison@5"], {}, "did you mean 'precision'?"),
    (["foo"], {}, "Accepted: sqlmetrics/ranx/ir_measures forms"),
    (["ndcg@0"], {}, "the cut-off must be a positive whole number"),
    (["P@x"], {}, "the cut-off must be a positive whole number"),
    (["P"], {}, "measure 'P' needs a cut-off, e.g. P@10 (set_P for the whole list)"),
    (["Rprec@5"], {}, "rprec takes no @k"),
    (["P(foo=1)@5"], {}, "unknown parameter foo=1"),
    (["bpref"], {}, "bpref is computed by its own function: sqlmetrics.bpref(...)"),
    (["hits@10"], {}, "ranx's hits"),
    (["f1@10"], {}, "ranx's f1 is not a sqlmetrics measure"),
    (["map", "MAP"], {}, "the same measure twice"),
    ([], {}, "measures must be a non-empty list"),
    (None, {}, "evaluate needs measures"),
    (["map", "ndcg@5"], {"ties": "average"}, "ties='average' applies to ndcg, dcg, precision and recall; map"),
    (["P(rel=2)@5", "P@5"], {}, "one relevance threshold per call"),
    (["P(rel=2)@5"], {"relevance_threshold": 1}, "P(rel=2)@5 count(s) grades >= the rel= of the measure"),
    (["map"], {"by": ["map"]}, "also the name of a query or by column"),
])
def test_errors(measures, params, fragment):
    params = dict(params)
    measures = params.pop("measures", measures)
    with pytest.raises(sm.ParameterError) as e:
        sm.evaluate(RUN.assign(map=1), QRELS.assign(map=1), measures, **params)
    assert fragment in str(e.value)


def test_measures_in_the_place_of_the_qrels():
    with pytest.raises(sm.ParameterError, match="the measures come after the qrels"):
        sm.evaluate(RUN, ["ndcg@10"])


def test_render_gives_the_sql_of_the_call():
    sql = sm.render("evaluate", "run", qrels="qrels", measures=["ndcg@10", "P@5"], by=["c"])
    assert sql.count("ROW_NUMBER()") == 2  # the ideal ranking and the run's, once each
    assert '"ndcg@10"' in sql and '"P@5"' in sql
