"""sm.evaluate: measure strings (sqlmetrics, ranx, ir_measures, trec_eval spellings) and several
ranking measures in one pass, checked against pytrec_eval and against each metric's own function.
(Its SQL on the other engines: tests/test_engines.py; in the 11 dialects: tests/test_golden.py; on
Spark's task metrics: tests/test_parallel_plan.py.)"""
import json
import math
import os
import re

import numpy as np
import pandas as pd
import pytest
import pytrec_eval  # the reference of trec_eval's measures

import sqlmetrics as sm
from conftest import ONE_PASS, one_pass_measures
from sqlmetrics.measures import ELSEWHERE, parse
from sqlmetrics.registry import CATALOGUE, METRICS, read_measures

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
    """Each spelling, as (metric, k, the tools whose reading it is, their gain, ties and level):
    the exact spelling picks the tools, another case every tool it matches."""
    table = {
        # trec_eval's (the relevance level is the call's: -l)
        "P_5": ("precision_at_k", 5, {("trec_eval", None, "item_desc", None)}),
        "recall_100": ("recall_at_k", 100, {("trec_eval", None, "item_desc", None)}),
        "ndcg_cut_10": ("ndcg", 10, {("trec_eval", "linear", "item_desc", None)}),
        "map_cut_10": ("mean_average_precision", 10, {("trec_eval", None, "item_desc", None)}),
        "success_10": ("hit_rate", 10, {("trec_eval", None, "item_desc", None)}),
        "recip_rank": ("mrr", None, {("trec_eval", None, "item_desc", None)}),
        "set_P": ("precision_at_k", None, {("trec_eval", None, "item_desc", None)}),
        "set_recall": ("recall_at_k", None, {("trec_eval", None, "item_desc", None), ("sqlmetrics", None, None, None)}),
        # shared: trec_eval's, ranx's and sqlmetrics' own
        "ndcg": ("ndcg", None, {("trec_eval", "linear", "item_desc", None), ("ranx", "linear", None, 1.0),
                                ("sqlmetrics", None, None, None)}),
        "map": ("mean_average_precision", None, {("trec_eval", None, "item_desc", None), ("ranx", None, None, 1.0),
                                                 ("sqlmetrics", None, None, None)}),
        " Rprec ": ("r_precision", None, {("trec_eval", None, "item_desc", None),
                                          ("ir_measures", None, "item_desc", 1.0)}),
        # ir_measures' (the relevance level is rel=, default 1; RR@k is MS MARCO's, ties ascending)
        "nDCG@10": ("ndcg", 10, {("ir_measures", "linear", "item_desc", 1.0)}),
        "nDCG": ("ndcg", None, {("ir_measures", "linear", "item_desc", 1.0)}),
        "nDCG(dcg=exp-log2)@10": ("ndcg", 10, {("ir_measures", "exponential", "item_desc", 1.0)}),
        "nDCG(dcg='exp-log2')@10": ("ndcg", 10, {("ir_measures", "exponential", "item_desc", 1.0)}),
        "P@5": ("precision_at_k", 5, {("ir_measures", None, "item_desc", 1.0)}),
        "P(rel=2)@5": ("precision_at_k", 5, {("ir_measures", None, "item_desc", 2.0)}),
        "R@100": ("recall_at_k", 100, {("ir_measures", None, "item_desc", 1.0)}),
        "AP": ("mean_average_precision", None, {("ir_measures", None, "item_desc", 1.0)}),
        "AP@10": ("mean_average_precision", 10, {("ir_measures", None, "item_desc", 1.0)}),
        "RR": ("mrr", None, {("ir_measures", None, "item_desc", 1.0)}),
        "RR@10": ("mrr", 10, {("ir_measures", None, "item_asc", 1.0)}),
        "Success@10": ("hit_rate", 10, {("ir_measures", None, "item_desc", 1.0)}),
        "SetP": ("precision_at_k", None, {("ir_measures", None, "item_desc", 1.0)}),
        "SetR": ("recall_at_k", None, {("ir_measures", None, "item_desc", 1.0)}),
        # ranx's (the relevance level is -lN, default 1; ties left to numba's sort: the call's)
        "ndcg@10": ("ndcg", 10, {("ranx", "linear", None, 1.0), ("sqlmetrics", None, None, None)}),
        "dcg@5": ("dcg", 5, {("ranx", "linear", None, 1.0), ("sqlmetrics", None, None, None)}),
        "ndcg_burges@10": ("ndcg", 10, {("ranx", "exponential", None, 1.0)}),
        "dcg_burges@3": ("dcg", 3, {("ranx", "exponential", None, 1.0)}),
        "map@10": ("mean_average_precision", 10, {("ranx", None, None, 1.0), ("sqlmetrics", None, None, None)}),
        "map@10-l2": ("mean_average_precision", 10, {("ranx", None, None, 2.0)}),
        "mrr@10": ("mrr", 10, {("ranx", None, None, 1.0), ("sqlmetrics", None, None, None)}),
        "precision@5": ("precision_at_k", 5, {("ranx", None, None, 1.0)}),
        "precision": ("precision_at_k", None, {("ranx", None, None, 1.0)}),
        "recall@100": ("recall_at_k", 100, {("ranx", None, None, 1.0)}),
        "hit_rate@10": ("hit_rate", 10, {("ranx", None, None, 1.0), ("sqlmetrics", None, None, None)}),
        "r-precision": ("r_precision", None, {("ranx", None, None, 1.0)}),
        # sqlmetrics' own
        "mean_average_precision@3": ("mean_average_precision", 3, {("sqlmetrics", None, None, None)}),
        "precision_at_k@5": ("precision_at_k", 5, {("sqlmetrics", None, None, None)}),
        "recall_at_k@100": ("recall_at_k", 100, {("sqlmetrics", None, None, None)}),
        "r_precision": ("r_precision", None, {("sqlmetrics", None, None, None)}),
        "set_precision": ("precision_at_k", None, {("sqlmetrics", None, None, None)}),
        # another case: every tool the spelling matches
        "NDCG@10": ("ndcg", 10, {("ranx", "linear", None, 1.0), ("sqlmetrics", None, None, None),
                                 ("ir_measures", "linear", "item_desc", 1.0)}),
        "p@5": ("precision_at_k", 5, {("ir_measures", None, "item_desc", 1.0)}),
    }
    for text, (metric, k, readings) in table.items():
        m = parse(text, CATALOGUE)
        assert (m.name, m.metric, m.k) == (text, metric, k), text
        assert {(r.tool, r.gain, r.ties, r.level) for r in m.readings} == readings, text


def trec_dicts(run, qrels):
    runs, judgments = {}, {}
    for q, d, s in run[["query", "item", "score"]].itertuples(index=False):
        runs.setdefault(str(q), {})[str(d)] = float(s)
    for q, d, r in qrels[["query", "item", "relevance"]].itertuples(index=False):
        judgments.setdefault(str(q), {})[str(d)] = int(r)  # trec_eval reads integer grades
    return runs, judgments


def graded(seed: int, n_queries: int = 80, distinct: bool = False):
    """make_frames' run and qrels with integer grades (as trec_eval, ir_measures and ranx read them),
    numeric query ids (gdeval's), unjudged pool entries (-1); `distinct`: no tied scores in a query
    (ranx orders tied scores by numba's sort, which no other tool reproduces)."""
    run, qrels = make_frames(seed, n_queries)
    qrels = qrels.assign(relevance=qrels["relevance"].round().astype(int), query=qrels["query"].str[1:])
    qrels.loc[qrels.index % 17 == 3, "relevance"] = -1
    run = run.assign(query=run["query"].str[1:])
    if distinct:
        run = run.assign(score=run.groupby("query").cumcount() * 1.5 + run["score"] / 10)
    return run, qrels


@pytest.mark.parametrize("level", [1, 2])
def test_trec_eval_names_match_pytrec_eval(level):
    """trec_eval's names give trec_eval's numbers (linear gain, ties by item id descending, the
    relevance level as its -l), per query and as the mean over the queries pytrec_eval evaluates
    (run and qrels: missing='skip'), on graded judgments with tied scores."""
    run, qrels = graded(2)
    names = ["P_5", "recall_10", "ndcg_cut_10", "ndcg", "map", "map_cut_10", "recip_rank", "success_5", "Rprec",
             "set_P", "set_recall"]
    runs, judgments = trec_dicts(run, qrels)
    want = pytrec_eval.RelevanceEvaluator(judgments, set(names), relevance_level=level).evaluate(runs)
    got = sm.evaluate(run, qrels, names, missing="skip", relevance_threshold=level, per_query=True).set_index("query")
    assert sorted(got.index) == sorted(want)
    summary = sm.evaluate(run, qrels, names, missing="skip", relevance_threshold=level)
    for name in names:
        values = {q: v[name] for q, v in want.items()}
        assert got[name].to_dict() == pytest.approx(values, abs=1e-12), name
        assert summary[name].iloc[0] == pytest.approx(np.mean(list(values.values())), abs=1e-12), name
    missing = set(qrels["query"]) - set(run["query"])
    assert summary[["n_queries", "n_missing"]].iloc[0].tolist() == [len(want), len(missing)] and missing


#: ir_measures' spellings, by the order of ties their providers give (RR@k: MS MARCO's, ascending) and
#: their relevance level (a pass each), and all of them in one call (four passes)
IR_MEASURES = [["nDCG@10", "nDCG", "nDCG(dcg='exp-log2')@10", "P@5", "R@10", "AP", "AP@10", "RR", "Success@3", "Rprec",
                "SetP", "SetR"],
               ["P(rel=2)@5", "R(rel=2)@10", "AP(rel=2)", "RR(rel=2)", "SetP(rel=2)", "nDCG@5"],
               ["RR@10"], ["RR(rel=2)@3"]]
IR_MEASURES.append([name for names in IR_MEASURES for name in names])


@pytest.mark.parametrize("names", IR_MEASURES, ids=lambda names: "all" if names == IR_MEASURES[-1] else names[0])
def test_ir_measures_names_match_ir_measures(names):
    """ir_measures' names give ir_measures' numbers (its pytrec_eval, gdeval and MS MARCO providers),
    per query and averaged (judged queries missing from the run count 0, as ir_measures counts them),
    on graded judgments with tied scores. gdeval writes 5 decimals."""
    import ir_measures
    run, qrels = graded(3)
    measures = [ir_measures.parse_measure(n) for n in names]
    run_ir = run.rename(columns={"query": "query_id", "item": "doc_id"})[["query_id", "doc_id", "score"]]
    qrels_ir = qrels.rename(columns={"query": "query_id", "item": "doc_id"})[["query_id", "doc_id", "relevance"]]
    want = ir_measures.calc_aggregate(measures, qrels_ir, run_ir)
    per_query = {}
    for metric in ir_measures.iter_calc(measures, qrels_ir, run_ir):
        per_query.setdefault(str(metric.measure), {})[metric.query_id] = metric.value
    got = sm.evaluate(run, qrels, names)
    got_queries = sm.evaluate(run, qrels, names, per_query=True).set_index("query")
    for name, measure in zip(names, measures):
        tolerance = 1e-5 if "exp-log2" in name else 1e-12
        assert got[name].iloc[0] == pytest.approx(want[measure], abs=tolerance), name
        values = per_query[str(measure)]
        assert got_queries.loc[list(values), name].to_dict() == pytest.approx(values, abs=tolerance), name


def ranx_names() -> list[tuple[str, str]]:
    """Every name ranx gives a metric in the registry (measure_names), at a cut-off (3, 5 or 10 in turn) and
    over the whole list, as the name allows: (measure, metric)."""
    names = []
    for text, readings in CATALOGUE.spellings.items():
        reading = next((r for r in readings if r.tool == "ranx"), None)
        if reading and reading.cutoff in ("optional", "required"):
            names.append((f"{text}@{(3, 5, 10)[len(names) % 3]}", reading.metric))
        if reading and reading.cutoff in ("optional", "whole"):
            names.append((text, reading.metric))
    return names


RANX = ranx_names()


@pytest.mark.parametrize("name, metric", RANX, ids=[f"{n}-{metric}" for n, metric in RANX])
def test_ranx_names_match_ranx(name, metric):
    """ranx's names give ranx's numbers (linear gain but in the _burges names, the relevance level
    -lN), per query and averaged over the judged queries (ranx's make_comparable: a judged query
    missing from the run counts 0), on graded judgments; scores are distinct within each query, as
    ranx's order of tied scores is numba's sort's (it changes with the input's order)."""
    ranx = pytest.importorskip("ranx") if not os.environ.get("CI") else __import__("ranx")
    run, qrels = graded(4, distinct=True)
    names = [name] + ([] if metric in CATALOGUE.gain_based else [f"{name}-l2"])
    runs, judgments = trec_dicts(run, qrels)
    ranx_run, ranx_qrels = ranx.Run(runs), ranx.Qrels(judgments)
    ranx.evaluate(ranx_qrels, ranx_run, names, make_comparable=True)
    for name in names:  # one relevance level per call of sm.evaluate
        got = sm.evaluate(run, qrels, [name])
        got_queries = sm.evaluate(run, qrels, [name], per_query=True).set_index("query")
        values = {q: float(v) for q, v in ranx_run.scores[name].items()}
        assert got[name].iloc[0] == pytest.approx(np.mean(list(values.values())), rel=1e-12), name
        assert got_queries.loc[list(values), name].to_dict() == pytest.approx(values, rel=1e-12, abs=1e-15), name


def own_name_cases() -> list[tuple[str, str, dict, set]]:
    """The measures of one_pass_measures in sqlmetrics' own names (every metric of the one pass), as CASES
    lists them: each leaves every option to the call."""
    cases = []
    for measure in read_measures(one_pass_measures(4)):
        if any(r.tool == "sqlmetrics" for r in measure.readings):
            m = METRICS[measure.metric]
            # the level where its defaults use one (graded rbp refuses a relevance_threshold it would ignore)
            level = not any(a == "relevance_threshold" and m.param(b).default == v for a, b, v, _ in m.inapplicable)
            cases.append((measure.name, measure.metric, {"k": measure.k} if m.takes("k") else {},
                          {"ties"} | ({"level"} if level else set()) | ({"gain"} if m.takes("gain") else set())))
    return cases


#: (measure, function, the parameters its spelling fixes, the call's options it takes: ties, gain, level):
#: other tools' spellings, and every metric of the one pass by its own name
CASES = [
    ("ndcg@5", "ndcg", {"k": 5}, {"ties", "gain", "level"}),
    ("ndcg_burges@3", "ndcg", {"k": 3, "gain": "exponential"}, {"ties", "level"}),
    ("ndcg_cut_10", "ndcg", {"k": 10, "gain": "linear"}, {"level"}), ("map", "mean_average_precision", {}, {"ties", "level"}),
    ("AP@3", "mean_average_precision", {"k": 3}, set()), ("P@3", "precision_at_k", {"k": 3}, set()),
    ("set_P", "precision_at_k", {"k": None}, {"level"}), ("recip_rank", "mrr", {}, {"level"}),
    ("Rprec", "r_precision", {}, {"level"}), ("Rprec_mult_0.20", "r_precision", {"multiple": 0.2}, {"level"}),
    ("Rprec_mult_2.00", "r_precision", {"multiple": 2.0}, {"level"}),
] + own_name_cases()
#: the metrics of the one pass that average tied scores (ties='average')
AVERAGING = tuple(name for name in ONE_PASS if "average" in METRICS[name].param("ties").choices)


@pytest.mark.parametrize("metric", sorted({c[1] for c in CASES}))
def test_each_measure_is_its_own_metric(metric):
    """On graded judgments with every corner case, each measure of `metric` in one evaluate call (after a
    measure of another metric) equals its own function with the parameters its spelling fixes and the
    call's options it takes: exactly per query, and its mean over queries (by slices too) up to the order
    in which the engine sums (threads), under each missing/empty policy, with ties by item id and (for
    the metrics that take it) averaged, with either gain, and at a threshold of 2."""
    variants = [{}, {"missing": "skip", "empty": "skip"}, {"missing": "zero", "empty": "skip"},
                {"ties": "average"}, {"gain": "exponential", "ties": "item_asc"}, {"relevance_threshold": 2.0}]
    for i, variant in enumerate(variants):
        options = {"ties" if "ties" in variant else None, "gain" if "gain" in variant else None,
                   "level" if "relevance_threshold" in variant else None} - {None}
        cases = [c for c in CASES if options <= c[3] and (variant.get("ties") != "average" or c[1] in AVERAGING)]
        # the metric's measures in one call with another metric's before them (their columns numbered after it)
        cases = [c for i, c in enumerate(cases) if c[1] == metric or i == 0 and c[1] != metric]
        measures = [m for m, _, _, _ in cases]
        for by in ([["c"]] if i % 2 else [[]]):  # half the variants by slices
            sliced = {"by": by} if by else {}
            got = sm.evaluate(RUN, QRELS, measures, by=by, **variant)
            got_queries = sm.evaluate(RUN, QRELS, measures, by=by, per_query=True, **variant)
            for measure, name, params, _ in (c for c in cases if c[1] == metric):
                if METRICS[name].takes("gain"):  # the spelling's gain, or the call's where it takes one; else linear
                    params = {"gain": variant.get("gain", "linear"), **params}
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


@pytest.mark.parametrize("params", [{}, {"by": "c"}, {"per_query": True, "ties": "average"}, {"relevance_threshold": 2}])
def test_the_run_carrying_its_relevance(params):
    """A run that carries its relevance is its own judgments: its one pass sums them itself, and gives
    what the same run gives with those rows as qrels (the judgments' own pass), every measure alike;
    a negative grade is unjudged in both."""
    run = RUN.merge(QRELS, on=["query", "item", "c"], how="left").fillna({"relevance": 0})
    run.loc[::7, "relevance"] = -1
    measures = one_pass_measures(3)
    if params.get("ties") == "average":
        measures = [m.name for m in read_measures(measures) if "average" in METRICS[m.metric].param("ties").choices]
    got = sm.evaluate(run, measures=measures, **params)
    want = sm.evaluate(run.drop(columns="relevance"), run[["query", "item", "relevance", "c"]], measures=measures, **params)
    pd.testing.assert_frame_equal(got, want, rtol=1e-12)
    pd.testing.assert_frame_equal(  # a metric's own call is the same pass with one measure
        sm.ndcg(run, k=5, details=True, **params),
        sm.ndcg(run.drop(columns="relevance"), run[["query", "item", "relevance", "c"]], k=5, details=True, **params),
        rtol=1e-12)


def test_three_spellings_of_one_measure_at_a_relevance_level():
    """trec_eval's P_5 at -l 2, ir_measures' P(rel=2)@5 and ranx's precision@5-l2 are one measure."""
    got = sm.evaluate(RUN, QRELS, ["P(rel=2)@5", "P_5", "precision@5-l2"], relevance_threshold=2)
    want = sm.precision_at_k(RUN, QRELS, k=5, relevance_threshold=2)
    assert got[["P(rel=2)@5", "P_5", "precision@5-l2"]].iloc[0].tolist() == pytest.approx([want] * 3, rel=1e-12)
    # the level in the measure alone sets the call's threshold
    assert sm.evaluate(RUN, QRELS, "P(rel=2)@5")["P(rel=2)@5"].iloc[0] == pytest.approx(want, rel=1e-12)


def test_a_measure_without_relevant_items_is_nan_not_an_error():
    qrels = QRELS.assign(relevance=0.0)
    got = sm.evaluate(RUN, qrels, ["ndcg@5", "map"])
    assert math.isnan(got["ndcg@5"].iloc[0]) and math.isnan(got["map"].iloc[0])
    assert got["n_empty"].iloc[0] == qrels["query"].nunique()


@pytest.mark.parametrize("measures, params, fragment", [
    (["ndgc@10"], {}, "unknown measure 'ndgc@10' (did you mean 'ndcg'?)"),
    (["precison@5"], {}, "did you mean 'precision'?"),
    (["foo"], {}, "Accepted: trec_eval's ndcg, map, recip_rank,"),
    (["ndcg@0"], {}, "the cut-off must be a positive whole number"),
    (["P@x"], {}, "the cut-off must be a positive whole number"),
    (["P"], {}, "measure 'P' needs a cut-off, e.g. P@10 (set_P for the whole list)"),
    (["Rprec@5"], {}, "Rprec takes no @k"),
    (["Rprec_mult_0"], {}, "the multiple of R is a number > 0, as in Rprec_mult_0.20"),
    (["Rprec_mult"], {}, "did you mean 'Rprec_mult_X'?"),
    (["P(foo=1)@5"], {}, "unknown parameter foo=1"),
    (["err@10"], {}, "err is computed by its own function: sqlmetrics.err(...)"),
    (["RBP(p=0.9)@10"], {}, "RBP without rel= scores graded relevance"),
    (["map", "MAP"], {}, "the same measure twice"),
    ([], {}, "measures must be a non-empty list"),
    (None, {}, "evaluate needs measures"),
    (["map", "ndcg@5"], {"ties": "average"}, "ties='average' applies to dcg, ndcg, precision_at_k, "),
    (["map", "ndcg@5"], {"ties": "average"}, "; map order equal scores by item id"),
    (["P(rel=2)@5"], {"relevance_threshold": 1}, "measure 'P(rel=2)@5' is ir_measures' P(rel=2)@5, whose relevance "
                                                 "level is grades >= 2: relevance_threshold=1.0 would not give its"),
    (["P@5"], {"relevance_threshold": 2}, "write its relevance level in the measure, as P(rel=2)@5"),
    (["precision@5"], {"relevance_threshold": 2}, "write its relevance level in the measure, as precision@5-l2"),
    (["P_5"], {"ties": "item_asc"}, "trec_eval's P_5, whose order of tied scores is by item id descending "
                                    "(trec_eval's): ties='item_asc' would not give its number; write sqlmetrics' "
                                    "precision_at_k@5"),
    (["ndcg_cut_10"], {"gain": "exponential"}, "write ndcg_burges@10 (ranx) or ndcg@10 with gain='exponential'"),
    (["nDCG@10"], {"gain": "exponential"}, "ir_measures' nDCG@10, with linear gain"),
    (["ndcg_burges@10"], {"gain": "linear"}, "write ndcg@10 for linear gain"),
    (["ndcg@10-l2"], {}, "ranx's ndcg at a relevance level above 1 drops the gains"),
    (["P_5-l2"], {}, "the cut-off must be a positive whole number"),
    (["P@\u00b2"], {}, "the cut-off must be a positive whole number"),
    (["P_\u00b2"], {}, "the cut-off must be a positive whole number"),
    (["nDCG(rel=2)@5", "map"], {"gain": "exponential"}, "nDCG(rel=2)@5"),
    (["map"], {"by": ["map"]}, "also the name of a query or by column"),
])
def test_errors(measures, params, fragment):
    params = dict(params)
    measures = params.pop("measures", measures)
    with pytest.raises(sm.ParameterError) as e:
        sm.evaluate(RUN.assign(map=1), QRELS.assign(map=1), measures, **params)
    assert fragment in str(e.value)


@pytest.mark.parametrize("measures, fragment", [
    (["P(rel=2)@5", "P@5"], "one relevance level per call: P(rel=2)@5 grades >= 2, P@5 grades >= 1"),
    (["RR", "RR@10"], "one order of tied scores per call: RR by item id descending (trec_eval's), RR@10 by item id "
                      "ascending"),
])
def test_the_sql_of_one_pass_has_one_level_and_one_order(measures, fragment):
    """sm.evaluate takes a pass per relevance level and order of ties (test_ir_measures_names_match_ir_measures);
    the SQL of evaluate's one pass, one statement, refuses measures that need two."""
    assert len(sm.evaluate(RUN, QRELS, measures)) == 1
    with pytest.raises(sm.ParameterError, match=re.escape(fragment)):
        sm.render("evaluate", RUN, qrels=QRELS, measures=measures)


def test_report_takes_measures_of_two_levels(tmp_path, capsys):
    from sqlmetrics.cli import main
    RUN.to_csv(tmp_path / "run.csv", index=False)
    QRELS.to_csv(tmp_path / "qrels.csv", index=False)
    measures = ["nDCG@10", "P(rel=2)@5", "AP"]
    assert main(["report", str(tmp_path / "run.csv"), "--qrels", str(tmp_path / "qrels.csv"), "--metrics",
                 ",".join(measures), "--format", "json"]) == 0
    got = {row["metric"]: row["value"] for row in json.loads(capsys.readouterr().out)["metrics"]}
    want = sm.evaluate(RUN, QRELS, measures).iloc[0]
    assert got == {name: pytest.approx(want[name], rel=1e-12) for name in measures}


@pytest.mark.parametrize("name", sorted(n for n in ELSEWHERE if n not in {t.lower() for t in CATALOGUE.spellings}))
def test_a_measure_computed_elsewhere_says_what_to_use(name):
    """A name another library gives a measure sqlmetrics does not compute under it (ranx's hits) says what
    to use instead; once a metric's entry declares the name, it is that metric's."""
    with pytest.raises(sm.ParameterError, match=re.escape(ELSEWHERE[name])):
        sm.evaluate(RUN, QRELS, [f"{name}@10"])


def test_measures_in_the_place_of_the_qrels():
    with pytest.raises(sm.ParameterError, match="the measures come after the qrels"):
        sm.evaluate(RUN, ["ndcg@10"])


def test_render_gives_the_sql_of_the_call():
    sql = sm.render("evaluate", "run", qrels="qrels", measures=["ndcg@10", "P@5"], by=["c"])
    assert sql.count("ROW_NUMBER()") == 2  # the ideal ranking and the run's, once each
    assert '"ndcg@10"' in sql and '"P@5"' in sql


#: trec_eval 10's test files: (run, its -q output, judgments, the relevance level -l)
TREC_EVAL_FILES = [("results.test", "out.test.aq", "qrels.test", 1), ("results.trunc", "out.test.aqc", "qrels.test", 1),
                   ("results.test", "out.test.aql", "qrels.rel_level", 2)]


@pytest.mark.parametrize("results, output, judgments, level", TREC_EVAL_FILES, ids=lambda v: str(v))
def test_every_trec_eval_measure_of_its_own_files_in_one_call(results, output, judgments, level):
    """Every measure of trec_eval 10's -q output that sqlmetrics names, all in one evaluate call, gives
    trec_eval's number for each query and over all of them (-c for results.trunc: a judged query
    absent from the run scores 0): the one-pass measures and those that run their own query alike,
    graded rbp included (trec_eval 10 divides the grades by the query's top grade)."""
    from test_trec_measures import DATA, expected
    want = expected(output)
    names = sorted({m for m, _ in want if _names(m)})
    assert {"bpref", "rbp", "11pt_avg", "iprec_at_recall_0.50", "set_P", "set_F", "gm_map", "num_rel_ret", "P_5",
            "ndcg_cut_10", "infAP", "set_map", "num_ret", "num_rel", "unj_5", "Rprec_mult_0.20",
            "Rprec_mult_2.00"} <= set(names)
    run, qrels = sm.TrecRun(DATA / results), sm.TrecQrels(DATA / judgments)
    summary = sm.evaluate(run, qrels, names, relevance_threshold=level)
    per_query = sm.evaluate(run, qrels, names, relevance_threshold=level, per_query=True).set_index("query")
    compared = 0
    for (measure, q), text in want.items():
        if measure not in names or (q != "all" and measure == "gm_map"):  # -q prints gm_map's ln(AP) per query
            continue
        value = summary[measure].iloc[0] if q == "all" else per_query.loc[q, measure]
        assert abs(value - float(text)) <= 5e-5 + 1e-12, (measure, q, value, text)
        compared += 1
    assert compared >= 4 * len(names) - 10


def _names(measure: str) -> bool:
    """Whether sqlmetrics reads trec_eval's measure name."""
    try:
        parse(measure, CATALOGUE)
    except sm.ParameterError:
        return False
    return True


@pytest.mark.parametrize("level", [1, 2])
def test_the_other_measures_match_ir_measures(level):
    """ir_measures' Bpref, IPrec@L, SetF, SetAP, infAP, NumRelRet and Judged@k (its pytrec_eval provider), in
    one evaluate call with one-pass measures; its NumRel (rel=1 only) is sm.num_rel with missing='skip', not a
    measure name: it counts a judged query absent from the run 0, trec_eval -c its relevant items. ranx's bpref
    and rbp.95 give other values than trec_eval's and are refused rather than read as trec_eval's."""
    import ir_measures
    run, qrels = graded(5, distinct=True)
    qrels = qrels.assign(relevance=qrels["relevance"].clip(lower=0))  # ir_measures' Judged counts a -1 as judged
    suffix = f"(rel={level})" if level > 1 else ""
    names = [f"Bpref{suffix}", f"IPrec{suffix}@0.5", f"SetF{suffix}", f"SetAP{suffix}", f"infAP{suffix}", "Judged@10",
             "nDCG@10", f"P{suffix}@5"]
    measures = [ir_measures.parse_measure(n) for n in names]
    run_ir = run.rename(columns={"query": "query_id", "item": "doc_id"})[["query_id", "doc_id", "score"]]
    qrels_ir = qrels.rename(columns={"query": "query_id", "item": "doc_id"})[["query_id", "doc_id", "relevance"]]
    want = ir_measures.calc_aggregate(measures, qrels_ir, run_ir)
    got = sm.evaluate(run, qrels, names)
    for name, measure in zip(names, measures):
        assert got[name].iloc[0] == pytest.approx(want[measure], abs=1e-12), name
    counted = sm.evaluate(run, qrels, ["NumRelRet" + suffix, "ndcg@5"])
    measure = ir_measures.parse_measure("NumRelRet" + suffix)
    assert counted["NumRelRet" + suffix].iloc[0] == ir_measures.calc_aggregate([measure], qrels_ir, run_ir)[measure]
    if not suffix:
        num_rel = ir_measures.calc_aggregate([ir_measures.NumRel], qrels_ir, run_ir)[ir_measures.NumRel]
        assert sm.num_rel(run, qrels, missing="skip") == num_rel < sm.num_rel(run, qrels)

    # ranx's rbp.NN sums the raw grades at or above its level; ranx 0.3.21's bpref gives 0 on queries where
    # trec_eval and pytrec_eval agree on another value (query '1' here: 0.5556): neither is read as ranx's
    with pytest.raises(sm.ParameterError, match="raw grade"):
        sm.evaluate(run, qrels, [f"rbp.95-l{level}"])
    with pytest.raises(sm.ParameterError, match="applies to ranx's spellings"):
        sm.evaluate(run, qrels, [f"bpref-l{level}"])
