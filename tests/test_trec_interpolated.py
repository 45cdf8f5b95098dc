"""interpolated_precision, precision_11pt and gm_map against trec_eval.

References:

* pytrec_eval (trec_eval 9) iprec_at_recall_L, 11pt_avg and gm_map;
* an oracle transcribed from trec_eval 10's m_iprec_at_recall.c / m_11pt_avg.c (the same loop as
  trec_eval 9, but a level L becomes lround(L * R) relevant items where trec_eval 9 took
  (long) (L * R + 0.9)), run in both versions: its trec_eval 9 form must give pytrec_eval's values
  exactly (so the transcription is faithful), and sqlmetrics must give its trec_eval 10 form
  everywhere, and pytrec_eval's values wherever the two versions map the level to the same count;
* trec_eval's averaging of gm_map (meas_avg.c te_calc_avg_meas_s_gm): exp of the mean of
  ln(max(AP, 1e-5)), a query missing from the run counting ln(1e-5) under -c.

The data (seeded) have heavy score ties, unjudged retrieved items, relevant items never retrieved,
queries without relevant items, judged queries missing from the run, run queries nobody judged,
item ids whose byte order differs from their numeric order, and R up to ~25 so that the two
level rules differ on many (query, level) pairs. The oracles never call sqlmetrics.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import sqlmetrics as sm

ABS = 1e-12
ELEVEN = [i / 10 for i in range(11)]
#: other levels, as pytrec_eval takes them (iprec_at_recall.0.05,...; reported with two decimals)
ODD_LEVELS = [0.05, 0.25, 0.33, 0.45, 0.67, 0.99]
MIN_GEO_MEAN = 1e-5  # trec_eval.h
POOL = [f"d{j}" for j in range(60)] + ["D7", "d05", "a", "zz", "Z9", "e\u00e91"]


def make_frames(seed: int):
    """A run (query, item, score, c) and qrels (query, item, relevance, c); c is a query attribute."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for i in range(int(rng.integers(40, 70))):
        q, c = f"q{i}", "ab"[i % 2]
        kind = rng.random()
        n = int(rng.integers(1, 40))
        docs = [str(d) for d in rng.choice(POOL, size=n, replace=False)]
        if kind >= 0.1:                                  # ~10 %: judged, missing from the run
            run += [(q, d, int(s), c) for d, s in zip(docs, rng.integers(0, 6, size=n))]
        if not 0.1 <= kind < 0.17:                       # ~7 %: retrieved, nobody judged it
            judged = [d for d in docs if rng.random() < 0.7] or [docs[0]]   # some retrieved unjudged
            others = [d for d in POOL if d not in docs]
            judged += [str(d) for d in rng.choice(others, size=int(rng.integers(0, 10)), replace=False)]
            nothing = rng.random() < 0.1                 # no relevant item at all
            share = rng.uniform(0.1, 0.9)
            for d in judged:
                grade = 0 if nothing or rng.random() > share else int(rng.integers(1, 4))
                qrels.append((q, d, grade, c))
    return (pd.DataFrame(run, columns=["query", "item", "score", "c"]),
            pd.DataFrame(qrels, columns=["query", "item", "relevance", "c"]))


# -- the oracles: trec_eval's code and definitions, in plain Python -------------------------------

def lround(x: float) -> int:
    """C's lround for x >= 0: the nearest integer to the double's exact value, halves up."""
    return int(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def level_count(level: float, n_rel: int, version: int) -> int:
    return lround(level * n_rel) if version == 10 else int(level * n_rel + 0.9)


def iprec(rels: list[bool], n_rel: int, levels, version: int) -> list[float]:
    """te_calc_iprec_at_recall, line by line: rels = is each retrieved item relevant, in rank order;
    a query missing from the run is trec_eval -c's one unjudged item."""
    rels = rels or [False]
    cutoffs = [level_count(level, n_rel, version) for level in levels]
    num_ret, num_rel_ret = len(rels), sum(rels)
    values = [0.0] * len(levels)
    current = len(levels) - 1
    while current >= 0 and cutoffs[current] > num_rel_ret:
        current -= 1
    int_precis = num_rel_ret / num_ret
    rel_so_far = num_rel_ret
    i = num_ret
    while i > 0 and rel_so_far > 0:
        int_precis = max(int_precis, rel_so_far / i)
        if rels[i - 1]:
            while current >= 0 and rel_so_far == cutoffs[current]:
                values[current] = int_precis
                current -= 1
            rel_so_far -= 1
        i -= 1
    while current >= 0:
        values[current] = int_precis
        current -= 1
    return values


def average_precision(rels: list[bool], n_rel: int) -> float:
    hits, total = 0, 0.0
    for rank, relevant in enumerate(rels, 1):
        if relevant:
            hits += 1
            total += hits / rank
    return total / n_rel if n_rel else 0.0


def trec_lists(run, qrels, level):
    """query -> (relevant flags in trec_eval's order: score, then item id descending by bytes, R);
    the judged queries only (a run query nobody judged is not evaluated)."""
    grade = {(q, d): r for q, d, r in qrels[["query", "item", "relevance"]].itertuples(index=False)}
    n_rel = (qrels["relevance"] >= level).groupby(qrels["query"]).sum().astype(int).to_dict()
    ranked: dict = {}
    for q, d, s in run[["query", "item", "score"]].itertuples(index=False):
        ranked.setdefault(q, []).append((s, d.encode()))
    out = {}
    for q, r in n_rel.items():
        order = sorted(ranked.get(q, []), reverse=True)
        out[q] = ([grade.get((q, d.decode()), 0) >= level for _, d in order], r, q in ranked)
    return out


def dicts(run, qrels):
    r, j = {}, {}
    for q, d, s in run[["query", "item", "score"]].itertuples(index=False):
        r.setdefault(q, {})[d] = float(s)
    for q, d, v in qrels[["query", "item", "relevance"]].itertuples(index=False):
        j.setdefault(q, {})[d] = int(v)
    return r, j


def values(frame, column, keys=("query",)):
    return {tuple(k) if len(keys) > 1 else k[0]: float(v)
            for *k, v in frame[list(keys) + [column]].itertuples(index=False)}


def assert_close(got: dict, want: dict, what: str):
    assert set(got) == set(want), f"{what}: keys differ: {sorted(set(got) ^ set(want))[:8]}"
    bad = [(k, got[k], want[k]) for k in want if abs(got[k] - want[k]) > ABS]
    assert not bad, f"{what}: {len(bad)} of {len(want)} differ (key, sqlmetrics, reference): {bad[:6]}"


# -- random runs: every (query, level) against pytrec_eval where the versions agree, trec_eval 10 everywhere

CASES = [(11, 1), (12, 1), (13, 2), (14, 3)]  # (seed, relevance level)


def test_against_pytrec_eval_and_trec_eval_10():
    differ_total = 0
    for seed, level in CASES:
        run, qrels = make_frames(seed)
        rd, jd = dicts(run, qrels)
        res = pytrec_eval.RelevanceEvaluator(jd, {"iprec_at_recall", "11pt_avg", "gm_map"},
                                             relevance_level=level).evaluate(rd)
        odd = pytrec_eval.RelevanceEvaluator(jd, {"iprec_at_recall." + ",".join(map(str, ODD_LEVELS))},
                                             relevance_level=level).evaluate(rd)
        lists = trec_lists(run, qrels, level)
        assert set(res) == {q for q, (_, _, in_run) in lists.items() if in_run}
        what = f"seed {seed}, level {level}"
        for levels, pytrec, name in [(ELEVEN, res, "iprec_at_recall"), (ODD_LEVELS, odd, "iprec_at_recall")]:
            got = values(sm.interpolated_precision(run, qrels, recall_levels=levels, relevance_threshold=level,
                                                   per_query=True), "interpolated_precision",
                         ("query", "recall_level"))
            want10, agree, differ = {}, {}, 0
            for q, (rels, n_rel, in_run) in lists.items():
                v9, v10 = iprec(rels, n_rel, levels, 9), iprec(rels, n_rel, levels, 10)
                for i, lev in enumerate(levels):
                    want10[q, lev] = v10[i] if in_run else 0.0        # missing='zero': trec_eval -c
                    if not in_run:
                        continue
                    measured = pytrec[q][f"{name}_{lev:.2f}"]
                    assert measured == v9[i], (what, q, lev, "the oracle is not trec_eval 9's code")
                    if level_count(lev, n_rel, 9) == level_count(lev, n_rel, 10):
                        agree[q, lev] = measured
                    else:
                        differ += 1
            assert_close({k: v for k, v in got.items() if k in agree}, agree, f"{what}: vs pytrec_eval {levels}")
            assert_close(got, want10, f"{what}: vs trec_eval 10 {levels}")
            differ_total += differ
            mean = sm.interpolated_precision(run, qrels, recall_levels=levels, relevance_threshold=level)
            assert mean["recall_level"].tolist() == sorted(levels)
            assert (mean["n_queries"] == len(lists)).all()
            assert_close(values(mean, "interpolated_precision", ("recall_level",)),
                         {lev: float(np.mean([want10[q, lev] for q in lists])) for lev in levels}, f"{what}: means")

        # precision_11pt: the mean of the 11 levels
        got = values(sm.precision_11pt(run, qrels, relevance_threshold=level, missing="skip", per_query=True),
                     "precision_11pt")
        want = {q: float(np.mean(iprec(rels, n_rel, ELEVEN, 10))) for q, (rels, n_rel, in_run) in lists.items()
                if in_run}
        assert_close(got, want, f"{what}: precision_11pt vs trec_eval 10")
        agree = {q: res[q]["11pt_avg"] for q, (rels, n_rel, _) in lists.items() if q in res
                 and all(level_count(lev, n_rel, 9) == level_count(lev, n_rel, 10) for lev in ELEVEN)}
        assert 0 < len(agree) < len(res)
        assert_close({q: got[q] for q in agree}, agree, f"{what}: precision_11pt vs pytrec_eval 11pt_avg")
        assert abs(sm.precision_11pt(run, qrels, relevance_threshold=level)
                   - sum(want.values()) / len(lists)) <= ABS                   # missing queries count 0

        # gm_map: per query max(AP, 1e-5); over queries exp(mean(ln)), as trec_eval (-c) and pytrec_eval
        got = values(sm.gm_map(run, qrels, relevance_threshold=level, missing="skip", per_query=True), "gm_map")
        assert_close(got, {q: math.exp(v["gm_map"]) for q, v in res.items()}, f"{what}: gm_map per query")
        assert_close(got, {q: max(average_precision(rels, n_rel), MIN_GEO_MEAN)
                           for q, (rels, n_rel, in_run) in lists.items() if in_run}, f"{what}: gm_map vs AP")
        logs = [v["gm_map"] for v in res.values()]
        skip = sm.gm_map(run, qrels, relevance_threshold=level, missing="skip")
        assert abs(skip - pytrec_eval.compute_aggregated_measure("gm_map", logs)) <= ABS
        n_missing = len(lists) - len(res)
        assert n_missing > 0
        complete = math.exp((sum(logs) + n_missing * math.log(MIN_GEO_MEAN)) / len(lists))  # meas_avg.c, -c
        details = sm.gm_map(run, qrels, relevance_threshold=level, details=True)
        assert abs(details["gm_map"].iloc[0] - complete) <= ABS
        assert details[["n_queries", "n_missing"]].values.tolist() == [[len(lists), n_missing]]
    assert differ_total > 100, "the data should have many (query, level) pairs where trec_eval 9 and 10 differ"


def test_slices_and_query_policies():
    """by= (a curve per slice), empty='skip', missing='skip', per query with by, against the oracle."""
    run, qrels = make_frames(21)
    lists = trec_lists(run, qrels, 1)
    slice_of = dict(zip(qrels["query"], qrels["c"]))
    levels = [0.0, 0.3, 0.5, 0.7, 1.0]
    kept = {q for q, (_, n_rel, in_run) in lists.items() if n_rel > 0 and in_run}
    assert len(kept) < len(lists)
    curve = sm.interpolated_precision(run, qrels, recall_levels=levels, by="c", empty="skip", missing="skip")
    assert curve[["c", "recall_level"]].values.tolist() == [[c, lev] for c in "ab" for lev in levels]
    want = {(c, lev): np.mean([iprec(*lists[q][:2], levels, 10)[i] for q in kept if slice_of[q] == c])
            for c in "ab" for i, lev in enumerate(levels)}
    assert_close(values(curve, "interpolated_precision", ("c", "recall_level")), want, "curve by c")
    per_query = sm.interpolated_precision(run, qrels, recall_levels=levels, by="c", per_query=True, empty="skip")
    assert list(per_query.columns) == ["c", "recall_level", "query", "interpolated_precision", "n_relevant"]
    assert len(per_query) == len(levels) * sum(1 for _, n_rel, _ in lists.values() if n_rel > 0)

    gm = sm.gm_map(run, qrels, by="c", empty="skip", missing="skip")
    want = {c: math.exp(np.mean([math.log(max(average_precision(*lists[q][:2]), MIN_GEO_MEAN))
                                 for q in kept if slice_of[q] == c])) for c in "ab"}
    assert_close(values(gm, "gm_map", ("c",)), want, "gm_map by c")
    p11 = sm.precision_11pt(run, qrels, by="c", empty="skip")
    want = {c: np.mean([np.mean(iprec(rels, n_rel, ELEVEN, 10)) if in_run else 0.0
                        for q, (rels, n_rel, in_run) in lists.items() if n_rel > 0 and slice_of[q] == c])
            for c in "ab"}
    assert_close(values(p11, "precision_11pt", ("c",)), want, "precision_11pt by c")


# -- tiny cases, by hand -----------------------------------------------------------------------------

#: A: R = 4 (a, b, c, d; d never retrieved, x judged non-relevant, y, z, w unjudged); its tie (x, b at
#:    4.0) is broken by item id descending: x (0x78) before b (0x62). B: judged, missing from the run.
#: C: nothing relevant (R = 0). D: R = 2, neither retrieved. E: a run query nobody judged.
RUN = pd.DataFrame({"query": list("AAAAAAACCDDE"),
                    "item": ["a", "x", "y", "b", "z", "c", "w", "a", "b", "a", "b", "a"],
                    "score": [5.0, 4.0, 3.5, 4.0, 1.5, 1.0, 0.5, 2.0, 1.0, 2.0, 1.0, 1.0]})
QRELS = pd.DataFrame({"query": list("AAAAABBCDDD"),
                      "item": ["a", "b", "c", "d", "x", "a", "b", "a", "a", "e", "f"],
                      "relevance": [2, 1, 1, 2, 0, 1, 1, 0, 0, 1, 1]})


def test_hand_checked_cases():
    # A in rank order: a(1) x(0) b(1) y(0) z(0) c(1) w: hits at 1, 3, 6 -> precisions 1, 2/3, 1/2
    # level 0.3: trec_eval 10 lround(1.2) = 1 hit -> 1; trec_eval 9 (long)(1.2 + 0.9) = 2 -> 2/3
    ip = sm.interpolated_precision(RUN, QRELS, recall_levels=[0, 0.3, 0.5, 0.75, 1], per_query=True)
    got = {(q, lev): v for lev, q, v in ip[["recall_level", "query", "interpolated_precision"]].values}
    assert [got["A", lev] for lev in (0, 0.3, 0.5, 0.75, 1)] == [1.0, 1.0, 2 / 3, 0.5, 0.0]
    assert {got[q, lev] for q in "BCD" for lev in (0, 0.3, 0.5, 0.75, 1)} == {0.0}
    assert set(ip["query"]) == set("ABCD")                     # E: judged by nobody, not evaluated
    run_dict, qrels_dict = dicts(RUN, QRELS)
    pytrec = pytrec_eval.RelevanceEvaluator(qrels_dict, {"iprec_at_recall"}).evaluate(run_dict)
    assert pytrec["A"]["iprec_at_recall_0.30"] == 2 / 3       # the trec_eval 9 rule, not followed
    curve = sm.interpolated_precision(RUN, QRELS, recall_levels=[0.3, 0], details=True)
    assert curve.values.tolist() == [[0.0, 0.25, 4, 1, 1], [0.3, 0.25, 4, 1, 1]]
    skip = sm.interpolated_precision(RUN, QRELS, recall_levels=[0.3], missing="skip", empty="skip")
    assert skip[["interpolated_precision", "n_queries"]].values.tolist() == [[0.5, 2]]  # A and D
    # relevance_threshold=2: A has R = 2 (a, d), one retrieved at rank 1; D and B nothing relevant
    strict = sm.interpolated_precision(RUN, QRELS, recall_levels=[0.5, 1], relevance_threshold=2, per_query=True)
    assert strict.query("query == 'A'")["interpolated_precision"].tolist() == [1.0, 0.0]
    # item_asc breaks A's tie the other way: b(1) at rank 2, x at 3
    asc = sm.interpolated_precision(RUN, QRELS, recall_levels=[0.5], ties="item_asc", per_query=True)
    assert asc.query("query == 'A'")["interpolated_precision"].tolist() == [1.0]

    # 11 points of A: levels 0-0.3 -> 1 hit (1), 0.4-0.6 -> 2 hits (2/3), 0.7-0.8 -> 3 hits (1/2),
    # 0.9-1 -> 4 hits (0); B, C, D score 0
    a11 = (4 * 1 + 3 * 2 / 3 + 2 * 0.5) / 11
    assert sm.precision_11pt(RUN, QRELS, per_query=True)["precision_11pt"].tolist() == pytest.approx(
        [a11, 0, 0, 0], abs=ABS)
    assert sm.precision_11pt(RUN, QRELS) == pytest.approx(a11 / 4, abs=ABS)

    # gm_map: AP(A) = (1 + 2/3 + 1/2) / 4; B, C, D have AP 0 -> 1e-5
    ap = (1 + 2 / 3 + 0.5) / 4
    assert sm.gm_map(RUN, QRELS, per_query=True)["gm_map"].tolist() == pytest.approx(
        [ap, 1e-5, 1e-5, 1e-5], abs=ABS)
    assert sm.gm_map(RUN, QRELS) == pytest.approx((ap * 1e-15) ** 0.25, abs=ABS)
    assert sm.gm_map(RUN, QRELS, missing="skip", empty="skip") == pytest.approx(
        math.sqrt(ap * 1e-5), abs=ABS)                                        # A and D
    with pytest.raises(sm.UndefinedMetricError, match="no evaluated query has a relevant item"):
        sm.gm_map(RUN[RUN["query"] == "C"], QRELS[QRELS["query"] == "C"])


def test_parameters_and_resampling():
    for bad, match in [([], "non-empty list"), ([0.5, 1.5], "<= 1"), ([-0.1], ">= 0"), ([0.2, 0.2], "twice"),
                       ("0.5", "non-empty list of numbers"), ([True], "must be a number"),
                       ([float("nan")], "finite")]:
        with pytest.raises(sm.ParameterError, match=match):
            sm.interpolated_precision(RUN, QRELS, recall_levels=bad)
    one = sm.interpolated_precision(RUN, QRELS, recall_levels=np.float64(0.3))
    assert one["recall_level"].tolist() == [0.3]
    for name in ("gm_map", "interpolated_precision"):
        with pytest.raises(sm.ParameterError, match=f"recombines per-query values by their mean; {name} is"):
            sm.bootstrap(name, RUN, qrels=QRELS)
        with pytest.raises(sm.ParameterError, match=f"recombines per-query values by their mean; {name} is"):
            sm.compare(name, RUN, RUN, QRELS)
    boot = sm.bootstrap("precision_11pt", RUN, qrels=QRELS, n_boot=20)
    assert boot["estimate"] == pytest.approx(sm.precision_11pt(RUN, QRELS), abs=ABS)
