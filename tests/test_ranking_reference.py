"""Ranking metrics against their reference implementations (docs/conventions.md#ranking).

* pytrec_eval (trec_eval 9) for ndcg, ndcg_cut_k, map, map_cut_k, recip_rank, P_k, recall_k,
  success_k and Rprec, per query and averaged, with linear gain and trec_eval's tie order;
* sklearn ``ndcg_score`` / ``dcg_score`` for ``ties='average'``;
* scipy ``kendalltau`` for Kendall's tau b and c;
* ir_measures (gdeval) for ``ERR@k`` with ``max_grade=4``;
* plain-Python oracles written from the definitions for everything else (ERR, tie-averaged
  precision/recall by enumerating every order of every tie group, tau_a, rank correlation, ILS,
  coverage, MAP with the min(k, R) denominator, micro recall, the missing/empty query policies).

The data are seeded (numpy default_rng) and built to trip ranking code: heavy score ties
(integer scores 0..4), unjudged retrieved items, judged relevant items never retrieved, queries
without a relevant item, judged queries absent from the run, run queries nobody judged, graded
relevance 0..3, and item ids whose byte order differs from their numeric order ('d9' > 'd10'),
including upper case, punctuation and a non-ASCII id. The oracles never call sqlmetrics.
"""
from __future__ import annotations

import functools
import itertools
import math
import os
import shutil

import numpy as np
import pandas as pd
import pytest
import pytrec_eval  # the reference of the ranking metrics; a hard dependency of this file, never skipped
import scipy.stats
import sklearn.metrics as skm

import sqlmetrics as sm
from sqlmetrics.ranking_metrics import QUERY_COUNTS
from sqlmetrics.registry import METRICS

ABS = 1e-12
KS = (1, 3, 5, 10, 20)
# Item ids of different lengths and kinds: byte order != numeric order ('d9' > 'd10' > 'd1'),
# upper case sorts before lower case, and one id is not ASCII (UTF-8 bytes sort after ASCII).
POOL = [f"d{j}" for j in range(45)] + ["D7", "d05", "a", "zz", "d1-x", "e\u00e91", "Z9", "d_3"]
ASCII_POOL = [f"d{j}" for j in range(45)]


# ---------------------------------------------------------------------------------------------
# data


def make_frames(seed: int, pool=POOL, qid=lambda i: f"q{i}", n_queries=(50, 151), max_len=30,
                min_len=1):
    """A run (query, item, score) and qrels (query, item, relevance) with every TREC corner case."""
    rng = np.random.default_rng(seed)
    nq = int(rng.integers(*n_queries))
    run, qrels = [], []
    for i in range(nq):
        q = qid(i)
        kind = rng.random()
        in_run = kind >= 0.08                    # ~8 %: judged, but missing from the run
        in_qrels = not 0.08 <= kind < 0.16       # ~8 %: retrieved, but nobody judged it
        n = int(rng.integers(min_len, max_len + 1))
        docs = [str(d) for d in rng.choice(pool, size=n, replace=False)]
        scores = rng.integers(0, 5, size=n)      # integer scores: heavy ties
        if in_run:
            run += [(q, d, int(s)) for d, s in zip(docs, scores)]
        if in_qrels:
            judged = [d for d in docs if rng.random() < 0.6]           # some retrieved ones unjudged
            others = [d for d in pool if d not in docs]
            judged += [str(d) for d in rng.choice(others, size=int(rng.integers(0, 6)), replace=False)]
            if not judged:
                judged = [docs[0]]
            nothing = rng.random() < 0.15                              # no relevant item at all
            for d in judged:
                qrels.append((q, d, 0 if nothing else int(rng.choice([0, 0, 1, 1, 2, 3]))))
    return (pd.DataFrame(run, columns=["query", "item", "score"]),
            pd.DataFrame(qrels, columns=["query", "item", "relevance"]))


def run_dict(run):
    out: dict = {}
    for q, d, s in run[["query", "item", "score"]].itertuples(index=False):
        out.setdefault(str(q), {})[str(d)] = float(s)
    return out


def qrels_dict(qrels):
    out: dict = {}
    for q, d, r in qrels[["query", "item", "relevance"]].itertuples(index=False):
        out.setdefault(str(q), {})[str(d)] = int(r)
    return out


def trec_order(pairs):
    """Items of one query in trec_eval's order: score descending, then item id descending, byte
    order (Python compares str by code point, which is the UTF-8 byte order)."""
    return [d for d, _ in sorted(pairs, key=lambda t: (t[1], t[0]), reverse=True)]


def ranked_lists(run):
    """query -> [items in trec order]."""
    lists: dict = {}
    for q, d, s in run[["query", "item", "score"]].itertuples(index=False):
        lists.setdefault(q, []).append((d, s))
    return {q: trec_order(p) for q, p in lists.items()}


def per_query(frame, column):
    return dict(zip(frame["query"], frame[column].astype(float)))


def assert_close_maps(got: dict, want: dict, tol=ABS, what=""):
    """Same queries, and every value within tol (the values of the common queries are checked
    first, so a wrong value is reported before a wrong query set)."""
    bad = [(q, got[q], want[q]) for q in sorted(set(want) & set(got))
           if not (abs(got[q] - want[q]) <= tol or (math.isnan(got[q]) and math.isnan(want[q])))]
    assert not bad, f"{what}: {len(bad)} of {len(want)} queries differ (query, sqlmetrics, reference): {bad[:8]}"
    assert set(got) == set(want), (
        f"{what}: queries differ: only sqlmetrics {sorted(set(got) - set(want))[:10]}, "
        f"only reference {sorted(set(want) - set(got))[:10]}")


# ---------------------------------------------------------------------------------------------
# 1. pytrec_eval


def _measures():
    """(pytrec_eval measure, sqlmetrics function name, keyword arguments)."""
    out = [("ndcg", "ndcg", {"gain": "linear"}), ("map", "mean_average_precision", {}),
           ("recip_rank", "mrr", {}), ("Rprec", "r_precision", {})]
    for k in KS:
        out += [(f"ndcg_cut_{k}", "ndcg", {"gain": "linear", "k": k}),
                (f"map_cut_{k}", "mean_average_precision", {"k": k}),
                (f"P_{k}", "precision_at_k", {"k": k}),
                (f"recall_{k}", "recall_at_k", {"k": k}),
                (f"success_{k}", "hit_rate", {"k": k})]
    return out


MEASURES = _measures()
MEASURE_IDS = [f"{name}-{measure}" for measure, name, _ in MEASURES]  # `-k precision_at_k` finds P_5
TREC_MEASURES = {"ndcg", "map", "recip_rank", "Rprec"} | {
    f"{m}.{','.join(map(str, KS))}" for m in ("ndcg_cut", "map_cut", "P", "recall", "success")}
# (seed, relevance level) combinations: three datasets at the default level, two at level 2
TREC_CASES = [(101, 1), (202, 1), (303, 1), (404, 2), (505, 2)]


@functools.lru_cache(maxsize=None)
def trec_case(seed: int, level: int):
    run, qrels = make_frames(seed)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict(qrels), TREC_MEASURES, relevance_level=level)
    return run, qrels, evaluator.evaluate(run_dict(run))


def test_fixture_has_the_corner_cases():
    """The generated data really contain what the comparisons are meant to exercise."""
    run, qrels, res = trec_case(101, 1)
    run_q, qrels_q = set(run["query"]), set(qrels["query"])
    assert 50 <= len(qrels_q | run_q) <= 150
    assert qrels_q - run_q and run_q - qrels_q                       # missing both ways
    relevant = qrels[qrels.relevance >= 1]
    assert set(qrels_q) - set(relevant["query"])                      # queries with no relevant item
    merged = run.merge(qrels, on=["query", "item"], how="outer", indicator=True)
    assert (merged["_merge"] == "left_only").any()                    # unjudged retrieved items
    assert ((merged["_merge"] == "right_only") & (merged["relevance"] >= 1)).any()  # relevant, unretrieved
    assert run.groupby("query")["score"].apply(lambda s: s.duplicated().any()).mean() > 0.5  # ties
    assert {"d9", "d10", "e\u00e91", "D7"} <= set(run["item"])
    assert set(qrels["relevance"]) == {0, 1, 2, 3}
    assert len(res) == len(run_q & qrels_q)                           # pytrec_eval: the intersection


@pytest.mark.parametrize("measure,name,kwargs", MEASURES, ids=MEASURE_IDS)
@pytest.mark.parametrize("seed,level", TREC_CASES, ids=[f"seed{s}-level{l}" for s, l in TREC_CASES])
def test_against_pytrec_eval(seed, level, measure, name, kwargs):
    run, qrels, res = trec_case(seed, level)
    fn = getattr(sm, name)
    args = dict(kwargs, ties="item_desc", missing="skip", relevance_threshold=level)
    want = {q: v[measure] for q, v in res.items()}
    got = per_query(fn(run, qrels, per_query=True, **args), name)
    assert_close_maps(got, want, what=f"{name}({kwargs}) vs pytrec_eval {measure}")
    mean = fn(run, qrels, **args)
    assert isinstance(mean, float)
    assert abs(mean - float(np.mean(list(want.values())))) <= ABS


@pytest.mark.parametrize("name", ["ndcg", "dcg", "err"])
def test_gain_metrics_score_a_query_below_the_threshold_from_its_grades(name):
    """trec_eval's ndcg ignores relevance_level: a query whose grades are all below it keeps its nDCG
    (the gains are the grades). So do dcg and err: such a query is not 'empty' (it counts with
    empty='skip' too); only a query without a positive grade is. n_relevant still counts R."""
    run, qrels, res = trec_case(404, 2)
    top = qrels.groupby("query")["relevance"].max()
    below = {q for q in res if 0 < top[q] < 2}
    assert below, "the data should have a query whose only positive grades are 1"
    fn = getattr(sm, name)
    per = fn(run, qrels, missing="skip", relevance_threshold=2, per_query=True, **({} if name == "err" else {"gain": "linear"}))
    got = per_query(per, name)
    assert all(got[q] > 0 for q in below if res[q]["ndcg"] > 0)
    if name == "ndcg":
        assert_close_maps(got, {q: v["ndcg"] for q, v in res.items()}, what="ndcg at level 2 vs pytrec_eval")
    assert per["n_relevant"].dtype.kind == "i"
    assert set(per.loc[per["query"].isin(below), "n_relevant"]) == {0}
    skipped = fn(run, qrels, missing="skip", empty="skip", relevance_threshold=2, details=True)
    graded = {q for q in res if top[q] > 0}
    assert int(skipped["n_queries"].iloc[0]) == len(graded)
    assert int(skipped["n_empty"].iloc[0]) == int((top == 0).sum())  # over the judged queries, as n_missing


def test_pytrec_eval_counts():
    run, qrels, res = trec_case(101, 1)
    missing = set(qrels["query"]) - set(run["query"])
    d = sm.ndcg(run, qrels, gain="linear", missing="skip", details=True)
    assert int(d["n_queries"].iloc[0]) == len(res)
    assert int(d["n_missing"].iloc[0]) == len(missing)
    d = sm.ndcg(run, qrels, gain="linear", details=True)
    assert int(d["n_queries"].iloc[0]) == qrels["query"].nunique()


# ---------------------------------------------------------------------------------------------
# 2. missing / empty query policies


@pytest.mark.parametrize("measure,name,kwargs", MEASURES, ids=MEASURE_IDS)
def test_missing_zero_counts_absent_queries_as_zero(measure, name, kwargs):
    """missing='zero' (the default, trec_eval -c): the mean over every judged query, a judged
    query absent from the run scoring 0."""
    run, qrels, res = trec_case(202, 1)
    fn = getattr(sm, name)
    all_q = set(qrels["query"])
    want = {q: res[q][measure] if q in res else 0.0 for q in all_q}
    got = per_query(fn(run, qrels, missing="zero", per_query=True, **kwargs), name)
    assert_close_maps(got, want, what=f"{name}({kwargs}) missing='zero'")
    d = fn(run, qrels, details=True, **kwargs)                        # 'zero' is the default
    assert abs(float(d[name].iloc[0]) - sum(want.values()) / len(all_q)) <= ABS
    assert int(d["n_queries"].iloc[0]) == len(all_q)


EMPTY_CASES = [m for m in MEASURES if m[0] in ("ndcg", "ndcg_cut_3", "map", "map_cut_5", "recip_rank", "P_5",
                                                 "recall_10", "success_3", "Rprec")]


@pytest.mark.parametrize("measure,name,kwargs", EMPTY_CASES, ids=[f"{m[1]}-{m[0]}" for m in EMPTY_CASES])
def test_empty_skip_drops_queries_without_relevant(measure, name, kwargs):
    """empty='skip' with missing='skip': the pytrec_eval mean over the queries that have a relevant
    item."""
    run, qrels, res = trec_case(303, 1)
    fn = getattr(sm, name)
    has_rel = set(qrels.loc[qrels.relevance >= 1, "query"])
    want = {q: v[measure] for q, v in res.items() if q in has_rel}
    assert len(want) < len(res)
    got = per_query(fn(run, qrels, missing="skip", empty="skip", per_query=True, **kwargs), name)
    assert_close_maps(got, want, what=f"{name}({kwargs}) empty='skip'")
    d = fn(run, qrels, missing="skip", empty="skip", details=True, **kwargs)
    assert abs(float(d[name].iloc[0]) - float(np.mean(list(want.values())))) <= ABS
    assert int(d["n_queries"].iloc[0]) == len(want)


def _policy_frames():
    """Four judged queries: A (retrieved, relevant), B (retrieved, nothing relevant), C (absent
    from the run, relevant item judged), D (absent from the run, nothing relevant); E is a run
    query nobody judged."""
    run = pd.DataFrame({"query": ["A", "A", "B", "B", "E"], "item": ["x", "y", "x", "y", "x"],
                        "score": [2, 1, 2, 1, 5]})
    qrels = pd.DataFrame({"query": ["A", "A", "B", "C", "D"], "item": ["x", "z", "x", "x", "x"],
                          "relevance": [1, 1, 0, 2, 0]})
    return run, qrels


@pytest.mark.parametrize("missing,empty,want_queries", [
    ("skip", "zero", {"A", "B"}),
    ("zero", "zero", {"A", "B", "C", "D"}),
    ("skip", "skip", {"A"}),
    # a query with no relevant item is dropped by empty='skip' whether or not the run has it
    # (params.EMPTY: "a query without relevant items ... is left out ('skip')")
    ("zero", "skip", {"A", "C"}),
])
def test_missing_and_empty_policies_combine(missing, empty, want_queries):
    run, qrels = _policy_frames()
    ap = {"A": 0.5, "B": 0.0, "C": 0.0, "D": 0.0}   # A: x relevant at rank 1 of R = 2 -> 1/2
    got = per_query(sm.map(run, qrels, missing=missing, empty=empty, per_query=True),
                    "mean_average_precision")
    assert got == {q: ap[q] for q in want_queries}
    d = sm.map(run, qrels, missing=missing, empty=empty, details=True)
    assert int(d["n_queries"].iloc[0]) == len(want_queries)
    assert abs(float(d["mean_average_precision"].iloc[0]) - 0.5 / len(want_queries)) <= ABS


# ---------------------------------------------------------------------------------------------
# 3. ties='average': sklearn ndcg_score / dcg_score, and an enumeration oracle for P@k / R@k


@functools.lru_cache(maxsize=None)
def judged_run(seed: int, pool=tuple(POOL), min_len=2, max_len=30, n_queries=(40, 61)):
    """A run carrying its own relevance (no qrels): every query has >= min_len items."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(int(rng.integers(*n_queries))):
        n = int(rng.integers(min_len, max_len + 1))
        docs = [str(d) for d in rng.choice(list(pool), size=n, replace=False)]
        scores = rng.integers(0, 5, size=n)
        nothing = rng.random() < 0.1
        rels = np.zeros(n, dtype=int) if nothing else rng.choice([0, 0, 0, 1, 2, 3], size=n)
        rows += [(f"u{i}", d, int(s), int(r)) for d, s, r in zip(docs, scores, rels)]
    return pd.DataFrame(rows, columns=["query", "item", "score", "relevance"])


@pytest.mark.parametrize("k", [None, 1, 3, 5])
@pytest.mark.parametrize("metric", ["ndcg", "dcg"])
def test_tie_average_against_sklearn(metric, k):
    run = judged_run(7)
    reference = {"ndcg": skm.ndcg_score, "dcg": skm.dcg_score}[metric]
    want = {}
    for q, g in run.groupby("query"):
        want[q] = float(reference(np.array([g["relevance"].to_numpy(float)]),
                                  np.array([g["score"].to_numpy(float)]), k=k))
    fn = getattr(sm, metric)
    got = per_query(fn(run, k=k, ties="average", gain="linear", per_query=True), metric)
    assert_close_maps(got, want, what=f"{metric}(k={k}, ties='average') vs sklearn")
    assert abs(fn(run, k=k, ties="average", gain="linear") - float(np.mean(list(want.values())))) <= ABS


def _tie_orders(pairs):
    """Every ranking of [(item, score)] consistent with the scores (all orders of each tie group)."""
    groups = [[d for d, _ in grp] for _, grp in itertools.groupby(
        sorted(pairs, key=lambda t: -t[1]), key=lambda t: t[1])]
    for perms in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [d for p in perms for d in p]


def test_tie_average_precision_recall_against_enumeration():
    """The expected P@k and R@k over every order of every tie group, by brute force."""
    rng = np.random.default_rng(31)
    run_rows, qrels_rows = [], []
    for i in range(30):
        n = int(rng.integers(1, 8))
        docs = [str(d) for d in rng.choice(POOL, size=n, replace=False)]
        scores = rng.integers(0, 3, size=n)
        run_rows += [(f"t{i}", d, int(s)) for d, s in zip(docs, scores)]
        judged = [d for d in docs if rng.random() < 0.7]
        judged += [str(d) for d in rng.choice([d for d in POOL if d not in docs], size=int(rng.integers(0, 3)),
                                              replace=False)]
        qrels_rows += [(f"t{i}", d, int(rng.choice([0, 1, 2]))) for d in judged or [docs[0]]]
    run = pd.DataFrame(run_rows, columns=["query", "item", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query", "item", "relevance"])
    rel = {(q, d) for q, d, r in qrels_rows if r >= 1}
    n_rel = {q: sum(1 for qq, _ in rel if qq == q) for q in qrels["query"].unique()}
    lists = {q: list(zip(g["item"], g["score"])) for q, g in run.groupby("query")}
    for k in (1, 2, 3, 5):
        want_p, want_r = {}, {}
        for q, pairs in lists.items():
            hits = [sum((q, d) in rel for d in order[:k]) for order in _tie_orders(pairs)]
            expected = sum(hits) / len(hits)
            want_p[q] = expected / k
            want_r[q] = expected / n_rel[q] if n_rel[q] else 0.0
        got_p = per_query(sm.precision_at_k(run, qrels, k=k, ties="average", per_query=True), "precision_at_k")
        got_r = per_query(sm.recall_at_k(run, qrels, k=k, ties="average", per_query=True), "recall_at_k")
        assert_close_maps(got_p, want_p, what=f"precision_at_k(k={k}, ties='average')")
        assert_close_maps(got_r, want_r, what=f"recall_at_k(k={k}, ties='average')")
        assert abs(sm.precision_at_k(run, qrels, k=k, ties="average") - np.mean(list(want_p.values()))) <= ABS
        assert abs(sm.recall_at_k(run, qrels, k=k, ties="average") - np.mean(list(want_r.values()))) <= ABS


# ---------------------------------------------------------------------------------------------
# 4. ERR


def err_oracle(grades, max_grade, k=None):
    """Chapelle et al. 2009: sum_r (1/r) R_r prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^max_grade."""
    total, reach = 0.0, 1.0
    for r, g in enumerate(grades[:k] if k else grades, start=1):
        stop = (2.0 ** g - 1) / 2.0 ** max_grade
        total += reach * stop / r
        reach *= 1 - stop
    return total


@pytest.mark.parametrize("k", [None, 3])
@pytest.mark.parametrize("max_grade", [None, 4])
def test_err_against_definition(max_grade, k):
    run, qrels = make_frames(606)
    grade = {(q, d): r for q, d, r in qrels.itertuples(index=False)}
    top = max_grade if max_grade is not None else qrels["relevance"].max()
    assert top == (4 if max_grade else 3)
    both = set(run["query"]) & set(qrels["query"])
    want = {q: err_oracle([grade.get((q, d), 0) for d in items], top, k)
            for q, items in ranked_lists(run).items() if q in both}
    got = per_query(sm.err(run, qrels, k=k, max_grade=max_grade, missing="skip", per_query=True), "err")
    assert_close_maps(got, want, what=f"err(k={k}, max_grade={max_grade})")
    # the default missing='zero': the mean over every judged query
    mean = sm.err(run, qrels, k=k, max_grade=max_grade)
    assert abs(mean - sum(want.values()) / qrels["query"].nunique()) <= ABS


def test_err_against_ir_measures_gdeval():
    # Both come with the test extra and Debian; in CI their absence is a failure, not a skip.
    if os.environ.get("CI"):
        import ir_measures
        assert shutil.which("perl"), "ir_measures' gdeval provider needs perl"
    else:
        ir_measures = pytest.importorskip(
            "ir_measures", reason="ir_measures (reference for ERR@k via gdeval) is not installed")
        if shutil.which("perl") is None:
            pytest.skip("ir_measures' gdeval provider runs a Perl script and perl is not installed")
    # gdeval needs numeric topic ids and grades <= 4; it prints 5 decimals
    run, qrels = make_frames(707, pool=ASCII_POOL, qid=lambda i: str(100 + i))
    ir_qrels = [ir_measures.Qrel(q, d, int(r)) for q, d, r in qrels.itertuples(index=False)]
    ir_run = [ir_measures.ScoredDoc(q, d, float(s)) for q, d, s in run.itertuples(index=False)]
    both = set(run["query"]) & set(qrels["query"])
    for k in (1, 3, 10, 20):
        want = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.ERR @ k], ir_qrels, ir_run)
                if m.query_id in both}
        got = per_query(sm.err(run, qrels, k=k, max_grade=4, missing="skip", per_query=True), "err")
        got = {q: v for q, v in got.items() if q in want}
        assert len(want) >= 0.7 * len(both)
        assert_close_maps(got, want, tol=5.1e-6, what=f"err(k={k}, max_grade=4) vs ir_measures ERR@{k}")


# ---------------------------------------------------------------------------------------------
# 5. Kendall tau and rank correlation


def _top_k(run, k):
    """Per query: [(item, score, relevance)] in trec order, cut at k."""
    out = {}
    for q, g in run.groupby("query"):
        rows = sorted(zip(g["item"], g["score"], g["relevance"]), key=lambda t: (t[1], t[0]), reverse=True)
        out[q] = rows[:k] if k else rows
    return out


def tau_a(x, y):
    c = d = n0 = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        s = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
        c += s > 0
        d += s < 0
        n0 += 1
    return (c - d) / n0


def _correlation_run():
    """A judged run (relevance in the run) with short lists, single-item queries and constant
    queries (all scores equal, or all relevances equal)."""
    run = judged_run(8, min_len=1, max_len=12, n_queries=(60, 61)).copy()
    first = sorted(run["query"].unique())
    run.loc[run["query"] == first[0], "score"] = 2          # constant scores
    run.loc[run["query"] == first[1], "relevance"] = 1      # constant relevance
    return run


@pytest.mark.parametrize("k", [None, 5])
@pytest.mark.parametrize("variant", ["a", "b", "c"])
def test_kendall_tau_against_scipy(variant, k):
    run = _correlation_run()
    want = {}
    for q, rows in _top_k(run, k).items():
        x = np.array([r[1] for r in rows], float)
        y = np.array([r[2] for r in rows], float)
        if len(rows) < 2 or len(set(x)) == 1 or len(set(y)) == 1:
            continue                           # undefined (scipy: NaN): left out
        want[q] = tau_a(x, y) if variant == "a" else float(scipy.stats.kendalltau(x, y, variant=variant)[0])
    got = per_query(sm.kendall_tau(run, k=k, variant=variant, per_query=True), "kendall_tau")
    assert_close_maps(got, want, what=f"kendall_tau(variant={variant!r}, k={k})")
    assert abs(sm.kendall_tau(run, k=k, variant=variant) - float(np.mean(list(want.values())))) <= ABS


def test_kendall_tau_with_qrels_against_scipy():
    run, qrels = make_frames(808)
    grade = {(q, d): r for q, d, r in qrels.itertuples(index=False)}
    judged = run[run["query"].isin(set(qrels["query"]))].copy()
    judged["relevance"] = [grade.get((q, d), 0) for q, d in zip(judged["query"], judged["item"])]
    want = {}
    for q, g in judged.groupby("query"):
        if len(g) < 2:
            continue                           # no pair: undefined, left out
        tau = scipy.stats.kendalltau(g["score"].to_numpy(float), g["relevance"].to_numpy(float))[0]
        if not math.isnan(tau):
            want[q] = float(tau)
    got = per_query(sm.kendall_tau(run, qrels, per_query=True), "kendall_tau")
    assert_close_maps(got, want, what="kendall_tau(run, qrels)")


def test_kendall_tau_is_nan_for_a_constant_query_in_every_variant():
    """docs/conventions.md#ranking: kendall_tau is 'NaN when a query is constant' and the mean is over the queries
    where it is defined; that holds for the textbook tau_a too (scipy returns NaN for any
    variant on constant input)."""
    run = pd.DataFrame({"query": [1, 1, 1, 2, 2, 2], "item": list("abcabc"),
                        "score": [3, 2, 1, 3, 2, 1], "relevance": [2, 1, 0, 1, 1, 1]})
    for variant in ("a", "b", "c"):
        got = per_query(sm.kendall_tau(run, variant=variant, per_query=True), "kendall_tau")
        assert set(got) == {1} and got[1] == 1.0, (variant, got)
        d = sm.kendall_tau(run, variant=variant, details=True)
        assert float(d["kendall_tau"].iloc[0]) == 1.0, (variant, d.to_dict("records"))


@pytest.mark.parametrize("k", [None, 4])
def test_rank_correlation_against_pairs_oracle(k):
    run = _correlation_run()
    want = {}
    for q, rows in _top_k(run, k).items():
        if len(rows) < 2:
            continue
        credit = [1.0 if u[2] > v[2] else 0.5 if u[2] == v[2] else 0.0   # u is ranked above v
                  for u, v in itertools.combinations(rows, 2)]
        want[q] = sum(credit) / len(credit)
    got = per_query(sm.rank_correlation(run, k=k, per_query=True), "rank_correlation")
    assert_close_maps(got, want, what=f"rank_correlation(k={k})")
    assert abs(sm.rank_correlation(run, k=k) - float(np.mean(list(want.values())))) <= ABS


# ---------------------------------------------------------------------------------------------
# 6. ILS and coverage


def _similarity(seed, both_directions):
    rng = np.random.default_rng(seed)
    rows = []
    for a, b in itertools.combinations(POOL, 2):
        if rng.random() < 0.5:
            s = float(np.round(rng.random(), 3))
            rows.append((a, b, s) if rng.random() < 0.5 else (b, a, s))
            if both_directions:
                rows.append(rows[-1][1::-1] + (s,))
    return pd.DataFrame(rows, columns=["item_a", "item_b", "similarity"])


@pytest.mark.parametrize("both_directions", [False, True])
@pytest.mark.parametrize("k", [None, 5])
def test_ils_against_definition(k, both_directions):
    run, _ = make_frames(909)
    sim_frame = _similarity(5, both_directions)
    sim = {}
    for a, b, s in sim_frame.itertuples(index=False):
        sim[frozenset((a, b))] = s
    want = {}
    for q, items in ranked_lists(run).items():
        top = items[:k] if k else items
        if len(top) >= 2:
            pairs = list(itertools.combinations(top, 2))
            want[q] = sum(sim.get(frozenset(p), 0.0) for p in pairs) / len(pairs)
    got = per_query(sm.ils(run, similarity=sim_frame, k=k, per_query=True), "ils")
    assert_close_maps(got, want, what=f"ils(k={k}, both_directions={both_directions})")
    d = sm.ils(run, similarity=sim_frame, k=k, details=True)
    assert abs(float(d["ils"].iloc[0]) - float(np.mean(list(want.values())))) <= ABS
    assert int(d["n_queries"].iloc[0]) == len(want)


@pytest.mark.parametrize("k", [None, 1, 3, 10])
def test_coverage_against_definition(k):
    run, _ = make_frames(1001)
    lists = ranked_lists(run)
    covered = {d for items in lists.values() for d in (items[:k] if k else items)}
    n_items = len(POOL) + 7
    d = sm.coverage(run, k=k, n_items=n_items, details=True)
    assert float(d["coverage"].iloc[0]) == len(covered) / n_items
    assert int(d["n_covered"].iloc[0]) == len(covered) and int(d["n_items"].iloc[0]) == n_items
    # an items table (with duplicate rows and never-recommended items): its distinct items count
    catalogue = pd.DataFrame({"item": POOL + ["never1", "never2"] + POOL[:5]})
    assert sm.coverage(run, k=k, items=catalogue) == len(covered) / (len(POOL) + 2)


# ---------------------------------------------------------------------------------------------
# 7. by= slices, MAP with min(k, R), micro recall


def _ap_oracle(items, relevant, k, denominator):
    hits, total = 0, 0.0
    for r, d in enumerate(items[:k] if k else items, start=1):
        if d in relevant:
            hits += 1
            total += hits / r
    n = len(relevant) if denominator == "r" or not k else min(k, len(relevant))
    return total / n if n else 0.0


@pytest.mark.parametrize("k", [None, 1, 3, 10])
def test_map_min_k_r_against_definition(k):
    run, qrels = make_frames(1102)
    relevant = {q: set(g.loc[g.relevance >= 1, "item"]) for q, g in qrels.groupby("query")}
    lists = ranked_lists(run)
    want = {q: _ap_oracle(lists[q], relevant[q], k, "min_k_r") for q in relevant if q in lists}
    got = per_query(sm.map(run, qrels, k=k, denominator="min_k_r", missing="skip", per_query=True),
                    "mean_average_precision")
    assert_close_maps(got, want, what=f"map(k={k}, denominator='min_k_r')")
    mean = sm.map(run, qrels, k=k, denominator="min_k_r")
    assert abs(mean - sum(want.values()) / len(relevant)) <= ABS


@pytest.mark.parametrize("missing", ["zero", "skip"])
@pytest.mark.parametrize("k", [1, 5, 20])
def test_recall_micro_against_definition(k, missing):
    run, qrels = make_frames(1203)
    relevant = {q: set(g.loc[g.relevance >= 1, "item"]) for q, g in qrels.groupby("query")}
    lists = ranked_lists(run)
    queries = [q for q in relevant if q in lists or missing == "zero"]
    hits = sum(len(set(lists.get(q, [])[:k]) & relevant[q]) for q in queries)
    total = sum(len(relevant[q]) for q in queries)
    got = sm.recall_at_k(run, qrels, k=k, average="micro", missing=missing)
    assert abs(got - hits / total) <= ABS
    d = sm.recall_at_k(run, qrels, k=k, average="micro", missing=missing, details=True)
    assert int(d["n_queries"].iloc[0]) == len(queries)
    # per query, the queries with a relevant item: hits / R (the queries without one: next test)
    pq = per_query(sm.recall_at_k(run, qrels, k=k, average="micro", missing=missing, per_query=True),
                   "recall_at_k")
    want = {q: len(set(lists.get(q, [])[:k]) & relevant[q]) / len(relevant[q]) for q in queries if relevant[q]}
    assert_close_maps({q: v for q, v in pq.items() if relevant[q]}, want,
                      what=f"recall_at_k(k={k}, average='micro') per query")
    assert set(pq) == set(queries)


def test_recall_micro_per_query_scores_zero_without_relevant():
    """docs/conventions.md#ranking: 'a query with no relevant item scores 0' (empty='zero'); per_query=True lists that
    query's recall as 0 with average='macro', and the per-query recall does not depend on the
    averaging, so average='micro' must list 0 too (not 0/0 = NaN)."""
    run = pd.DataFrame({"query": ["A", "A", "B", "B"], "item": ["x", "y", "x", "y"], "score": [2, 1, 2, 1]})
    qrels = pd.DataFrame({"query": ["A", "B"], "item": ["x", "x"], "relevance": [1, 0]})
    macro = per_query(sm.recall_at_k(run, qrels, k=1, per_query=True), "recall_at_k")
    assert macro == {"A": 1.0, "B": 0.0}
    micro = per_query(sm.recall_at_k(run, qrels, k=1, average="micro", per_query=True), "recall_at_k")
    assert micro == {"A": 1.0, "B": 0.0}
    assert sm.recall_at_k(run, qrels, k=1, average="micro") == 1.0   # sum of hits 1 / sum of R 1


def by_cases() -> list[tuple[str, dict]]:
    """Every ranking metric of one value per slice (the registry's section 'ranking'), at k=5 where it
    takes k, and with every other value of each of its choice parameters but missing and empty (a
    literal of the same SQL), one at a time."""
    cases = []
    for name, m in METRICS.items():
        if m.section != "ranking" or m.kind != "scalar" or not m.takes("by"):
            continue
        base = {"k": 5} if m.takes("k") else {}
        cases.append((name, base))
        cases += [(name, base | {p.name: choice}) for p in m.params if p.kind == "choice" and p.name not in (
            "missing", "empty") for choice in p.choices if choice != p.default]
    return cases


BY_CASES = by_cases()


@functools.lru_cache(maxsize=None)
def sliced_frames():
    run, qrels = make_frames(1304)
    country = lambda q: ["de", "jp", "us"][int(q[1:]) % 3]  # noqa: E731  (a query-level attribute)
    run = run.assign(country=run["query"].map(country))
    qrels = qrels.assign(country=qrels["query"].map(country))
    return run, qrels


@pytest.mark.parametrize("name,kwargs", BY_CASES, ids=[f"{n}-{'-'.join(map(str, k.values()))}" for n, k in BY_CASES])
def test_by_slices_equal_each_slice_alone(name, kwargs):
    run, qrels = sliced_frames()
    fn = getattr(sm, name)
    out = fn(run, qrels, by="country", **kwargs)
    assert list(out.columns[:2]) == ["country", name]
    assert list(out["country"]) == ["de", "jp", "us"]
    for row in out.to_dict("records"):
        c = row["country"]
        alone = fn(run[run.country == c], qrels[qrels.country == c], details=True, **kwargs).iloc[0]
        assert abs(row[name] - float(alone[name])) <= ABS, (c, row, dict(alone))
        for col in out.columns[2:]:  # the counts exactly, a further value (rbp's residual) as the metric's
            assert row[col] == pytest.approx(alone[col], abs=ABS if col not in QUERY_COUNTS else 0), (c, col, row)


def test_ils_and_coverage_by_slices():
    run, _ = sliced_frames()
    sim = _similarity(9, False)
    out = sm.ils(run, similarity=sim, k=5, by="country")
    for row in out.to_dict("records"):
        alone = sm.ils(run[run.country == row["country"]], similarity=sim, k=5)
        assert abs(row["ils"] - alone) <= ABS
    out = sm.coverage(run, k=3, n_items=100, by="country")
    for row in out.to_dict("records"):
        assert row["coverage"] == sm.coverage(run[run.country == row["country"]], k=3, n_items=100)


# ---------------------------------------------------------------------------------------------
# 3. slices (by) of the run, of the qrels or of both


def market(query: str) -> str:
    """A query attribute to slice by."""
    return "north" if int(query[1:]) % 3 else "south"


SLICED = [m for m in MEASURES if m[0] in ("ndcg_cut_10", "map", "recall_10")]


@pytest.mark.parametrize("side", ["run", "qrels", "both"])
@pytest.mark.parametrize("measure,name,kwargs", SLICED, ids=[f"{m[1]}-{m[0]}" for m in SLICED])
def test_slices_of_the_run_the_qrels_or_both_against_pytrec_eval(side, measure, name, kwargs):
    """A `by` column of the run only, of the qrels only, or of both: each slice is pytrec_eval's mean over
    its judged queries with missing='zero' (trec_eval -c: a judged query absent from the run scores 0),
    except that a slice of the run only cannot hold a judged query the run lacks (it has no slice)."""
    run, qrels, res = trec_case(101, 1)
    given_run = run.assign(market=run["query"].map(market)) if side in ("run", "both") else run
    given_qrels = qrels.assign(market=qrels["query"].map(market)) if side in ("qrels", "both") else qrels
    got = getattr(sm, name)(given_run, given_qrels, by=["market"], **kwargs).set_index("market")
    judged = set(qrels["query"]) & set(run["query"]) if side == "run" else set(qrels["query"])
    slices: dict = {}
    for q in judged:
        slices.setdefault(market(q), []).append(q)
    assert sorted(got.index) == sorted(slices)
    for value, queries in slices.items():
        want = [res[q][measure] if q in res else 0.0 for q in queries]
        assert abs(float(got.loc[value, name]) - float(np.mean(want))) <= ABS, (side, value)
        assert int(got.loc[value, "n_queries"]) == len(queries)
        assert int(got.loc[value, "n_missing"]) == len(set(queries) - set(run["query"]))
    per_query_rows = getattr(sm, name)(given_run, given_qrels, by=["market"], per_query=True, missing="skip", **kwargs)
    assert_close_maps(per_query(per_query_rows, name), {q: v[measure] for q, v in res.items()}, what=f"{side} slices")
    assert all(per_query_rows["market"] == per_query_rows["query"].map(market))
