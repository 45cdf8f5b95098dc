"""The trec_eval measures bpref, infAP, rbp (and its residual), set_precision, set_recall, set_f, set_map,
num_rel_ret, num_ret, num_rel, Rprec_mult (r_precision's multiple), judged_at_k, unj (unjudged_at_k), and
k=None (the whole list) for precision_at_k, recall_at_k and hit_rate.

References, all independent of sqlmetrics:
* pytrec_eval for bpref, infAP, set_P, set_recall, set_F (its parameter is beta^2), set_map, num_rel_ret,
  num_ret, num_rel, Rprec_mult, success;
* ir_measures for Judged@k;
* trec_eval 10's own test files and expected outputs (tests/data/trec_eval), for rbp, rbp_resid and unj
  (which pytrec_eval's trec_eval 9 lacks) and every other measure sqlmetrics has;
* oracles written here from the published definitions: RBP and its residual (Moffat & Zobel 2008;
  no installed library computes them), unj from trec_eval 10's m_unjudged.c, bpref on hand-made lists.
The random data are test_ranking_reference's: heavy score ties, unjudged retrieved items, judged
queries absent from the run, run queries nobody judged, queries without relevant items.
"""
from __future__ import annotations

import itertools
import math
import tempfile
from pathlib import Path

import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import sqlmetrics as sm
from sqlmetrics.templates import render_macro
from test_ranking_reference import assert_close_maps, make_frames, per_query, qrels_dict, ranked_lists, run_dict

ABS = 1e-12
DATA = Path(__file__).parent / "data" / "trec_eval"
# (seed, relevance level): two datasets at the default level, one at level 2
CASES = [(11, 1), (22, 1), (33, 2)]
#: the measures that are counts, summed over queries (trec_eval's summary of them is a sum, not a mean)
COUNTS = ("num_rel_ret", "num_ret", "num_rel")


def rbp_oracle(items, judgments, p, k=None, level=1, graded=False):
    """(RBP, residual) of one ranked list, from Moffat & Zobel's definition: weights (1 - p) p^(r-1);
    the residual adds the weights of the unjudged ranks and p^d beyond the depth d seen. Graded, as
    trec_eval 10's m_rbp.c: gains are the grades (negative ones 0), divided by the query's top grade
    when it is above 1."""
    seen = items[:k] if k else items
    weights = [(1 - p) * p ** r for r in range(len(seen))]
    if graded:
        top = max([1.0] + list(judgments.values()))
        value = sum(w * max(judgments.get(d, 0), 0) / top for w, d in zip(weights, seen))
    else:
        value = sum(w for w, d in zip(weights, seen) if judgments.get(d, 0) >= level)
    residual = sum(w for w, d in zip(weights, seen) if d not in judgments) + p ** len(seen)
    return value, residual


def unj_oracle(items, judgments, k=None):
    """trec_eval 10's m_unjudged.c: the items of the top k the judgments lack or grade negative, over k (ranks
    beyond the list count as judged); without k, over the list's length."""
    unjudged = sum(1 for d in items[:k] if judgments.get(d, -1) < 0)
    return unjudged / (k or len(items)) if k or items else 0.0


def bpref_oracle(items, judgments, level=1):
    """trec_eval's m_bpref.c, item by item."""
    relevant = sum(1 for r in judgments.values() if r >= level)
    nonrelevant = sum(1 for r in judgments.values() if r < level)
    total, above = 0.0, 0
    for d in items:
        if d not in judgments:
            continue
        if judgments[d] < level:
            above += 1
        else:
            total += 1 - min(above, relevant) / min(nonrelevant, relevant) if above else 1.0
    return total / relevant if relevant else 0.0


# ---------------------------------------------------------------------------------------------
# random runs against pytrec_eval, ir_measures and the oracles


def _pytrec_measures(level):
    """(pytrec_eval measure, sqlmetrics function, keyword arguments)."""
    return [("bpref", "bpref", {}), ("set_P", "set_precision", {}), ("set_recall", "set_recall", {}),
            ("set_F", "set_f", {}), ("num_rel_ret", "num_rel_ret", {}),
            ("set_P", "precision_at_k", {"k": None}), ("set_recall", "recall_at_k", {"k": None}),
            ("success_1000", "hit_rate", {"k": None}), ("infAP", "infap", {}), ("set_map", "set_map", {}),
            ("num_ret", "num_ret", {}), ("num_rel", "num_rel", {})] + [
        # 0.7: with R = 3, 0.7 * 3 + 0.9 is 2.9999999999999996 in doubles, so trec_eval cuts at 2
        (f"Rprec_mult_{x:.2f}", "r_precision", {"multiple": x}) for x in (0.2, 0.7, 1.0, 2.0)]


def test_against_pytrec_eval_ir_measures_and_the_oracles():
    for seed, level in CASES:
        run, qrels = make_frames(seed)
        judged = set(qrels["query"])
        lists, judgments = ranked_lists(run), qrels_dict(qrels)
        evaluator = pytrec_eval.RelevanceEvaluator(judgments, {"bpref", "set_P", "set_recall", "set_F", "num_rel_ret",
                                                               "success.1000", "infAP", "set_map", "num_ret", "num_rel",
                                                               "Rprec_mult.0.2,0.7,1,2"}, relevance_level=level)
        res = evaluator.evaluate(run_dict(run))
        relevant = qrels[qrels["relevance"] >= level].groupby("query").size()
        extra = {f"set_F_{b}": pytrec_eval.RelevanceEvaluator(judgments, {f"set_F.{b * b}"}, relevance_level=level)
                 .evaluate(run_dict(run)) for b in (0.5, 2.0)}
        checks = [(m, name, kw, {q: v[m] for q, v in res.items()}) for m, name, kw in _pytrec_measures(level)]
        checks += [(f"set_F.{b * b}", "set_f", {"beta": b}, {q: v["set_F"] for q, v in extra[f"set_F_{b}"].items()})
                   for b in (0.5, 2.0)]
        for measure, name, kwargs, want in checks:
            fn = getattr(sm, name)
            what = f"seed {seed} level {level}: {name}({kwargs}) vs pytrec_eval {measure}"
            args = dict(kwargs, relevance_threshold=level)
            got = fn(run, qrels, per_query=True, missing="skip", **args)
            assert_close_maps(per_query(got, name), want, what=what)
            mean = fn(run, qrels, missing="skip", **args)
            # every judged query, 0 where the run lacks it (trec_eval -c)
            zero = fn(run, qrels, **args)
            values = [want.get(str(q), 0.0) for q in judged]
            if name in COUNTS:
                # a sum over queries, as trec_eval's summary (pytrec_eval's compute_aggregated_measure); a judged
                # query the run lacks adds its relevant items to num_rel (trec_eval -c), nothing to the others
                absent = sum(relevant.get(q, 0) for q in judged - set(want)) if name == "num_rel" else 0
                assert got[name].dtype.kind == "i" and isinstance(mean, int), what
                assert mean == sum(want.values()) and zero == mean + absent, what
            else:
                assert abs(mean - np.mean(list(want.values()))) <= ABS, what
                assert abs(zero - np.mean(values)) <= ABS, what

        # rbp and its residual against the oracle, at two depths and persistences
        for (p, k), graded in itertools.product([(0.9, None), (0.5, 5), (0.95, 20)], (False, True)):
            want = {q: rbp_oracle(lists.get(q, []), judgments[q], p, k, level, graded) for q in judged}
            args = dict(persistence=p, k=k, graded=graded) | ({} if graded else {"relevance_threshold": level})
            got = sm.rbp(run, qrels, per_query=True, **args)
            what = f"seed {seed} level {level}: rbp(p={p}, k={k}, graded={graded})"
            assert_close_maps(per_query(got, "rbp"), {q: v[0] for q, v in want.items()}, what=what)
            assert_close_maps(per_query(got, "residual"), {q: v[1] for q, v in want.items()}, what=what + " residual")
            summary = sm.rbp(run, qrels, missing="skip", details=True, **args)
            kept = [q for q in judged if q in lists]
            assert abs(summary["rbp"][0] - np.mean([want[q][0] for q in kept])) <= ABS, what
            assert abs(summary["residual"][0] - np.mean([want[q][1] for q in kept])) <= ABS, what

        # bpref with trec_eval's tie order against the oracle too (pytrec_eval above): also item_asc
        got = per_query(sm.bpref(run, qrels, ties="item_asc", relevance_threshold=level, per_query=True), "bpref")
        asc = {q: [d for d, _ in sorted(((d, s) for d, s in run_dict(run).get(q, {}).items()),
                                        key=lambda t: (-t[1], t[0]))] for q in judged}
        assert_close_maps(got, {q: bpref_oracle(asc[q], judgments[q], level) for q in judged}, what="bpref item_asc")

        # Judged@k: ir_measures (its ties: item ascending; a judged query absent from the run: 0)
        for k in (1, 5, 20, None):
            measure = ir_measures.Judged @ k if k else ir_measures.Judged
            want = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels_for_ir(qrels),
                                                                       run_for_ir(run))}
            got = sm.judged_at_k(run, qrels, k=k, ties="item_asc", per_query=True)
            assert_close_maps(per_query(got, "judged_at_k"), want, what=f"seed {seed}: judged_at_k(k={k})")


def test_unjudged_at_k_against_trec_eval_10s_definition():
    """unj_k (trec_eval 10's m_unjudged.c, which pytrec_eval's trec_eval 9 lacks: the oracle transcribes it)
    per query and averaged, on the random data with negative grades (in the pool, unjudged: counted), at
    cut-offs below and beyond the lists' lengths and over the whole list, with both orders of ties; where a
    list reaches k, 1 - judged_at_k."""
    for seed in (7, 8):
        run, qrels = _with_pool_grades(seed)
        judgments, judged = qrels_dict(qrels), set(qrels["query"])
        desc = ranked_lists(run)
        asc = {q: [d for d, _ in sorted(run_dict(run)[q].items(), key=lambda t: (-t[1], t[0]))] for q in desc}
        for k, ties in itertools.product((1, 5, 20, None), ("item_desc", "item_asc")):
            lists = desc if ties == "item_desc" else asc
            want = {q: unj_oracle(lists.get(q, []), judgments[q], k) for q in judged}
            got = sm.unjudged_at_k(run, qrels, k=k, ties=ties, per_query=True)
            what = f"seed {seed}: unjudged_at_k(k={k}, ties={ties})"
            assert_close_maps(per_query(got, "unjudged_at_k"), want, what=what)
            assert abs(sm.unjudged_at_k(run, qrels, k=k, ties=ties) - np.mean(list(want.values()))) <= ABS, what
            kept = [q for q in judged if q in lists]
            skipped = sm.unjudged_at_k(run, qrels, k=k, ties=ties, missing="skip")
            assert abs(skipped - np.mean([want[q] for q in kept])) <= ABS, what
            share = per_query(sm.judged_at_k(run, qrels, k=k, ties=ties, per_query=True), "judged_at_k")
            full = [q for q in kept if len(lists[q]) >= (k or 0)]
            assert full and all(abs(want[q] + share[q] - 1) <= ABS for q in full), what


def qrels_for_ir(qrels):
    return pd.DataFrame({"query_id": qrels["query"].astype(str), "doc_id": qrels["item"].astype(str),
                         "relevance": qrels["relevance"].astype(int)})


def run_for_ir(run):
    return pd.DataFrame({"query_id": run["query"].astype(str), "doc_id": run["item"].astype(str),
                         "score": run["score"].astype(float)})


def test_relative_precision_against_pytrec_eval():
    """trec_eval's relative_P_k and set_relative_P, per query and averaged (missing='skip', as
    pytrec_eval evaluates the run's queries), with ties and unjudged items, at two relevance levels."""
    for seed, level in CASES:
        run, qrels = make_frames(seed)
        names = {"relative_P.1,3,10", "set_relative_P"}
        want = pytrec_eval.RelevanceEvaluator(qrels_dict(qrels), names, relevance_level=level).evaluate(run_dict(run))
        for measure, k in [("relative_P_1", 1), ("relative_P_3", 3), ("relative_P_10", 10), ("set_relative_P", None)]:
            what = f"seed {seed} level {level}: {measure}"
            got = sm.relative_precision(run, qrels, k=k, relevance_threshold=level, per_query=True, missing="skip")
            values = {q: v[measure] for q, v in want.items()}
            assert_close_maps(per_query(got, "relative_precision"), values, what=what)
            mean = sm.relative_precision(run, qrels, k=k, relevance_threshold=level, missing="skip")
            assert abs(mean - np.mean(list(values.values()))) <= ABS, what


# ---------------------------------------------------------------------------------------------
# trec_eval 10's test files


def read_trec(name, columns):
    """A TREC file's leading columns (trec_eval ignores what follows them: results.trunc has some)."""
    rows = [line.split()[:len(columns)] for line in (DATA / name).read_text().splitlines() if line.strip()]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype({c: float for c in ("relevance", "score") if c in columns})


def expected(name):
    """(measure, query) -> value, from trec_eval's -q output ('all': the summary)."""
    out = pd.read_csv(DATA / name, sep=r"\s+", header=None, names=["measure", "query", "value"], dtype=str)
    return {(m, q): v for m, q, v in out.itertuples(index=False)}


def _trec_eval_calls():
    """(trec_eval measure, sqlmetrics function, keyword arguments, output column)."""
    out = [("bpref", "bpref", {}, "bpref"), ("set_P", "set_precision", {}, "set_precision"),
           ("set_recall", "set_recall", {}, "set_recall"), ("set_F", "set_f", {}, "set_f"),
           ("num_rel_ret", "num_rel_ret", {}, "num_rel_ret"), ("rbp", "rbp", {}, "rbp"),
           ("rbp_resid", "rbp", {}, "residual"), ("map", "mean_average_precision", {}, "mean_average_precision"),
           ("Rprec", "r_precision", {}, "r_precision"), ("recip_rank", "mrr", {}, "mrr"),
           ("ndcg", "ndcg", {"gain": "linear"}, "ndcg"), ("infAP", "infap", {}, "infap"),
           ("set_map", "set_map", {}, "set_map"), ("num_ret", "num_ret", {}, "num_ret"),
           ("num_rel", "num_rel", {}, "num_rel")]
    # (every Rprec_mult_x and unj_k of the files, through sm.evaluate: test_evaluate's trec_eval files test)
    out += [(f"Rprec_mult_{x:.2f}", "r_precision", {"multiple": x}, "r_precision") for x in (0.2, 2.0)]
    out += [(f"unj_{k}", "unjudged_at_k", {"k": k}, "unjudged_at_k") for k in (5, 20)]
    for k in (5, 10, 100, 1000):
        out += [(f"P_{k}", "precision_at_k", {"k": k}, "precision_at_k"),
                (f"recall_{k}", "recall_at_k", {"k": k}, "recall_at_k"),
                (f"ndcg_cut_{k}", "ndcg", {"gain": "linear", "k": k}, "ndcg"),
                (f"map_cut_{k}", "mean_average_precision", {"k": k}, "mean_average_precision")]
    return out + [(f"success_{k}", "hit_rate", {"k": k}, "hit_rate") for k in (1, 5, 10)]


def with_ends(name: str, ends: str, folder: Path) -> Path:
    """trec_eval's test file `name` with other line ends: as it is (LF), CRLF, CRLF on every other line,
    or carriage returns among the fields and as blank lines (trec_eval ends a line at LF only and reads a
    CR as whitespace, C's isspace: the same lines)."""
    if ends == "lf":
        return DATA / name
    lines = (DATA / name).read_text().splitlines()
    if ends == "crlf":
        text = "".join(line + "\r\n" for line in lines)
    elif ends == "mixed":
        text = "".join(line + ("\r\n" if i % 2 else "\n") for i, line in enumerate(lines))
    else:
        text = "".join("\r" + line.replace(" ", "\r", 1) + " \r\n\r\n" for line in lines)
    path = folder / f"{name}.{ends}"
    path.write_bytes(text.encode())
    return path


@pytest.mark.parametrize("results, output, ends", [("results.test", "out.test.aq", "lf"),
                                                  ("results.trunc", "out.test.aqc", "lf")]
                         + [("results.test", "out.test.aq", ends) for ends in ("crlf", "mixed", "stray")])
def test_trec_eval_test_files(results, output, ends, tmp_path, monkeypatch):
    """trec_eval -q (and -c: a query absent from the run scores 0) on its own test files, with their
    own line ends and with carriage returns (with_ends), which a copy lets DuckDB read as trec_eval
    does, removed after the call. The expected values are printed to 4 decimals. One difference,
    documented: trec_eval's rbp_resid of a query absent from the run is 0, sqlmetrics' residual 1
    (nothing of it is judged)."""
    judged = set(read_trec("qrels.test", ["query", "iter", "item", "relevance"])["query"])
    absent = judged - set(read_trec(results, ["query", "q0", "item", "rank", "score", "runid"])["query"])
    assert absent == ({"302"} if results == "results.trunc" else set())
    copies, made = [], tempfile.TemporaryDirectory
    monkeypatch.setattr(tempfile, "TemporaryDirectory", lambda **kw: copies.append(made(**kw)) or copies[-1])
    # the files read by sqlmetrics (results.trunc has text after the sixth field of some lines)
    run = sm.TrecRun(with_ends(results, ends, tmp_path))
    qrels = sm.TrecQrels(with_ends("qrels.test", ends, tmp_path))
    want = expected(output)
    # with other line ends the reading is what differs: a fifth of the measures (every one, with trec_eval's)
    calls = _trec_eval_calls()[:: 1 if ends == "lf" else 5]
    for measure, name, kwargs, column in calls:
        fn = getattr(sm, name)
        got = per_query(fn(run, qrels, per_query=True, **kwargs), column)
        summary = fn(run, qrels, details=True, **kwargs)[column][0]
        for q in sorted(judged) + ["all"]:
            if measure == "rbp_resid" and q in absent:
                assert got[q] == 1.0
                continue
            value = summary if q == "all" else got[q]
            if measure == "rbp_resid" and q == "all" and absent:
                value = np.mean([got[x] for x in got if x not in absent] + [0.0] * len(absent))
            text = want[measure, q]
            if measure in COUNTS:
                assert int(value) == int(text), (measure, q)
            else:
                assert abs(value - float(text)) <= 5e-5 + 1e-12, (measure, q, value, text)
    assert len(copies) == (0 if ends == "lf" else 2 * 2 * len(calls))  # each call's run and qrels
    assert not any(Path(c.name).exists() for c in copies)


@pytest.mark.parametrize("threshold", [2, 3])
def test_trec_eval_graded_test_file(threshold):
    """trec_eval -q -l2 on its graded judgments (qrels.rel_level: query 303's grades are 2, 0 and -1).
    trec_eval's ndcg takes its gains from the grades and ignores the relevance level, so at level 3,
    where query 303 has no relevant item, it keeps its nDCG of 0.3669 (sqlmetrics' empty rule of the
    gain-based metrics), as does its rbp (trec_eval 10 divides the grades by the query's top one: query
    301 gives 0.0465); map, P, infAP, set_map, num_rel and Rprec_mult at level 2. The -1 grades are read as
    trec_eval does (in the pool, unjudged: gain 0, not relevant, not judged; infAP counts them among the
    pooled items above a relevant one, unj among the unjudged)."""
    assert (read_trec("qrels.rel_level", ["query", "iter", "item", "relevance"])["relevance"] < 0).any()
    qrels, run = sm.TrecQrels(DATA / "qrels.rel_level"), sm.TrecRun(DATA / "results.test")
    want = expected("out.test.aql")
    calls = [("ndcg", "ndcg", {"gain": "linear"}), ("ndcg_cut_10", "ndcg", {"gain": "linear", "k": 10}),
             ("rbp", "rbp", {})]  # trec_eval 10's graded rbp: the grades over the query's top one, whatever -l
    # unj counts the -1 grades as unjudged, whatever -l (query 303: unj_5 0.2)
    calls += [(f"unj_{k}", "unjudged_at_k", {"k": k}) for k in (5, 10, 20)]
    # (sm.rbp refuses a relevance_threshold it would ignore, unjudged_at_k takes none: the level is given to the others)
    if threshold == 2:
        calls += [("map", "mean_average_precision", {}), ("P_10", "precision_at_k", {"k": 10}), ("bpref", "bpref", {}),
                  ("infAP", "infap", {}), ("set_map", "set_map", {}), ("num_rel", "num_rel", {}),
                  ("num_ret", "num_ret", {}), ("Rprec_mult_2.00", "r_precision", {"multiple": 2.0})]
    for measure, name, kwargs in calls:
        fn = getattr(sm, name)
        level = {} if name in ("rbp", "unjudged_at_k") else {"relevance_threshold": threshold}
        got = per_query(fn(run, qrels, per_query=True, **level, **kwargs), name)
        got["all"] = fn(run, qrels, **level, **kwargs)
        for q in ("301", "302", "303", "all"):
            assert abs(got[q] - float(want[measure, q])) <= 5e-5 + 1e-12, (measure, q, got[q], want[measure, q])
    assert want["ndcg", "303"] == "0.3669"
    residual = per_query(sm.rbp(run, qrels, per_query=True), "residual")  # every retrieved list has unjudged items
    for q in ("301", "302", "303"):
        assert abs(residual[q] - float(want["rbp_resid", q])) <= 5e-5 + 1e-12, (q, residual[q])


# ---------------------------------------------------------------------------------------------
# small cases worked by hand


def judged_list(items, scores=None):
    return pd.DataFrame({"query": "q", "item": items,
                         "score": scores if scores is not None else list(range(len(items), 0, -1))})


def test_bpref_of_trec_eval_bpref_bug_note():
    """trec_eval's note on the 2005 bpref fix: five judged items retrieved, one non-relevant then four
    relevant; unretrieved, three judged non-relevant and two relevant: ((4 * 3/4) + 2 * 0) / 6 = 0.5.
    Unjudged items anywhere in the list change nothing."""
    qrels = pd.DataFrame({"query": "q", "item": ["n1", "r1", "r2", "r3", "r4", "n2", "n3", "n4", "r5", "r6"],
                          "relevance": [0, 1, 1, 1, 1, 0, 0, 0, 1, 1]})
    run = judged_list(["n1", "r1", "r2", "r3", "r4"])
    assert sm.bpref(run, qrels) == 0.5
    assert sm.bpref(judged_list(["u1", "n1", "u2", "r1", "r2", "u3", "r3", "r4", "u4"]), qrels) == 0.5
    # no judged non-relevant item at all: each relevant retrieved item counts 1
    only_relevant = qrels[qrels.relevance > 0]
    assert sm.bpref(judged_list(["u1", "r1", "u2", "r2"]), only_relevant) == pytest.approx(2 / 6, abs=ABS)
    # relevance_threshold: grade 1 becomes judged non-relevant
    graded = pd.DataFrame({"query": "q", "item": ["a", "b", "c"], "relevance": [1, 2, 0]})
    assert sm.bpref(judged_list(["a", "b", "c"]), graded, relevance_threshold=2) == 0.0
    assert sm.bpref(judged_list(["b", "a", "c"]), graded, relevance_threshold=2) == 1.0


def test_rbp_residual_and_long_lists():
    qrels = pd.DataFrame({"query": "q", "item": ["a", "c"], "relevance": [0, 1]})
    r = sm.rbp(judged_list(list("abcd")), qrels, details=True)
    assert r["rbp"][0] == pytest.approx(0.1 * 0.81, abs=ABS)
    assert r["residual"][0] == pytest.approx(0.1 * (0.9 + 0.729) + 0.9 ** 4, abs=ABS)
    assert sm.rbp(judged_list(list("abcd")), qrels, k=2, details=True)["residual"][0] == pytest.approx(
        0.1 * 0.9 + 0.81, abs=ABS)
    # the run carrying its relevance: everything judged, the residual is the weight beyond the list
    own = judged_list(["x", "y"]).assign(relevance=[1, 1])
    assert sm.rbp(own, persistence=0.5, details=True)[["rbp", "residual"]].values.tolist() == [[0.75, 0.25]]
    # a list far longer than p^r stays representable: weights below 1e-307 count as 0, no error
    long = judged_list([f"d{i}" for i in range(3000)]).assign(relevance=1)
    assert sm.rbp(long, persistence=0.5, details=True)[["rbp", "residual"]].values.tolist() == [[1.0, 0.0]]


def test_a_relevance_threshold_graded_rbp_would_ignore_is_an_error():
    run, qrels = judged_list(["a", "b"]), pd.DataFrame({"query": "q", "item": ["a", "b"], "relevance": [2, 1]})
    with pytest.raises(sm.ParameterError, match=r"relevance_threshold=2.0 does not apply when graded=True .*pass "
                                             r"graded=False for it to apply, or leave it out"):
        sm.rbp(run, qrels, relevance_threshold=2)
    assert sm.rbp(run, qrels, relevance_threshold=2, graded=False) == pytest.approx(0.1, abs=ABS)  # a alone
    assert sm.rbp(run, qrels, relevance_threshold=1) == sm.rbp(run, qrels)  # the default: nothing to ignore


def test_rbp_missing_query_has_residual_one_and_policies():
    qrels = pd.DataFrame({"query": ["q", "gone", "none"], "item": ["a", "a", "a"], "relevance": [1, 1, 0]})
    run = pd.DataFrame({"query": ["q", "none"], "item": ["a", "a"], "score": [1.0, 1.0]})
    pq = sm.rbp(run, qrels, per_query=True).set_index("query")
    assert pq.loc["gone", "rbp"] == 0 and pq.loc["gone", "residual"] == 1
    assert pq.loc["none", "rbp"] == 0 and pq.loc["none", "residual"] == pytest.approx(0.9, abs=ABS)
    d = sm.rbp(run, qrels, details=True, missing="skip", empty="skip")
    assert d[["rbp", "residual", "n_queries"]].values.tolist() == [[pytest.approx(0.1), pytest.approx(0.9), 1]]


def test_num_rel_ret_is_a_count_and_policies_only_count_queries():
    qrels = pd.DataFrame({"query": ["q", "q", "gone", "none"], "item": ["a", "b", "a", "a"], "relevance": [1, 1, 1, 0]})
    run = pd.DataFrame({"query": ["q", "q", "q", "none"], "item": ["a", "b", "c", "a"], "score": [3.0, 2.0, 1.0, 1.0]})
    value = sm.num_rel_ret(run, qrels)
    assert value == 2 and isinstance(value, int)
    d = sm.num_rel_ret(run, qrels, details=True, missing="skip", empty="skip")
    assert d[["num_rel_ret", "n_queries"]].values.tolist() == [[2, 1]]
    assert sm.num_rel_ret(run, qrels, per_query=True)["num_rel_ret"].tolist() == [0, 0, 2]
    by = sm.num_rel_ret(run.assign(c=1), qrels.assign(c=1), by="c")
    assert by["num_rel_ret"].tolist() == [2]
    for call in (lambda: sm.bootstrap("num_rel_ret", run, qrels=qrels), lambda: sm.compare("num_rel_ret", run, run, qrels)):
        with pytest.raises(sm.ParameterError, match="num_rel_ret is their sum"):
            call()
    with pytest.raises(sm.ParameterError, match="num_rel_ret is a sum over queries"):  # dbt reaches the macro
        render_macro("bootstrap", metric="num_rel_ret", relation="run", qrels="qrels")


def test_set_f_and_whole_list_k():
    qrels = pd.DataFrame({"query": "q", "item": ["a", "z"], "relevance": [1, 1]})
    run = judged_list(["b", "a", "c"])
    p, r = 1 / 3, 1 / 2
    assert sm.set_f(run, qrels) == pytest.approx(2 * p * r / (p + r), abs=ABS)
    assert sm.set_f(run, qrels, beta=2) == pytest.approx(5 * p * r / (4 * p + r), abs=ABS)
    assert sm.set_f(judged_list(["b", "c"]), qrels) == 0.0
    # k=None: the whole list, the denominator its length (not k)
    assert sm.precision_at_k(run, qrels, k=None) == sm.set_precision(run, qrels) == pytest.approx(p, abs=ABS)
    assert sm.recall_at_k(run, qrels, k=None) == sm.set_recall(run, qrels) == 0.5
    assert sm.hit_rate(run, qrels, k=None) == 1.0 and sm.hit_rate(run, qrels, k=1) == 0.0
    with pytest.raises(sm.ParameterError, match="missing a required argument: 'k'"):
        sm.precision_at_k(run, qrels)


def test_judged_at_k_needs_qrels_and_counts_grade_zero():
    qrels = pd.DataFrame({"query": ["q", "q", "q2"], "item": ["a", "c", "a"], "relevance": [0, 0, 0]})
    run = judged_list(list("abcd"))
    assert sm.judged_at_k(run, qrels, k=2, missing="skip") == 0.5
    assert sm.judged_at_k(run, qrels, k=10, missing="skip") == 0.5  # 2 of the 4 listed, not of 10
    assert sm.judged_at_k(run, qrels, k=2) == 0.25  # q2, judged but absent from the run: 0
    d = sm.judged_at_k(run, qrels, details=True)
    assert d[["judged_at_k", "n_queries", "n_missing", "n_empty"]].values.tolist() == [[0.25, 2, 1, 0]]
    with pytest.raises(sm.ArgumentError, match="qrels"):
        sm.judged_at_k(run.assign(relevance=1))


def test_command_line_takes_k_none(tmp_path, capsys):
    from sqlmetrics.cli import main
    path = tmp_path / "run.csv"
    judged_list(["a", "b", "c"]).assign(relevance=[1, 0, 0]).to_csv(path, index=False)
    assert main(["compute", "precision_at_k", str(path), "--k", "none", "--format", "json"]) == 0
    assert math.isclose(float(capsys.readouterr().out.split('"precision_at_k":')[1].split(",")[0].split("}")[0]), 1 / 3)


def _with_pool_grades(seed):
    """make_frames' run and qrels, a third of the judgments after each query's first made -1 or -2 (trec_eval
    9, in pytrec_eval, crashes on a query whose judgments are all negative)."""
    run, qrels = make_frames(seed)
    rng = np.random.default_rng(seed)
    pool = (rng.random(len(qrels)) < 0.3) & qrels.duplicated("query").to_numpy()
    qrels.loc[pool, "relevance"] = rng.choice([-1, -2], size=int(pool.sum()))
    return run, qrels


def test_negative_grades_against_pytrec_eval():
    """trec_eval reads a negative grade as "in the pool, unjudged" (form_res_rels.c: not counted in the
    relevance levels, RELVALUE_UNJUDGED in the ranked list): not relevant, gain 0, not judged."""
    run, qrels = _with_pool_grades(7)
    assert (qrels["relevance"] < 0).sum() > 50
    calls = [("ndcg", "ndcg", {"gain": "linear"}), ("ndcg_cut_10", "ndcg", {"gain": "linear", "k": 10}),
             ("map", "mean_average_precision", {}), ("map_cut_10", "mean_average_precision", {"k": 10}),
             ("recip_rank", "mrr", {}), ("Rprec", "r_precision", {}), ("bpref", "bpref", {}),
             ("P_5", "precision_at_k", {"k": 5}), ("recall_10", "recall_at_k", {"k": 10}),
             ("success_5", "hit_rate", {"k": 5}), ("set_P", "set_precision", {}), ("set_recall", "set_recall", {}),
             ("set_F", "set_f", {}), ("num_rel_ret", "num_rel_ret", {}), ("infAP", "infap", {}),
             ("set_map", "set_map", {}), ("num_ret", "num_ret", {}), ("num_rel", "num_rel", {}),
             ("Rprec_mult_0.20", "r_precision", {"multiple": 0.2}), ("Rprec_mult_2.00", "r_precision", {"multiple": 2})]
    measures = {"ndcg", "ndcg_cut.10", "map", "map_cut.10", "recip_rank", "Rprec", "bpref", "P.5", "recall.10",
                "success.5", "set_P", "set_recall", "set_F", "num_rel_ret", "infAP", "set_map", "num_ret", "num_rel",
                "Rprec_mult.0.2,2"}
    for level in (1, 2):
        res = pytrec_eval.RelevanceEvaluator(qrels_dict(qrels), measures, relevance_level=level).evaluate(run_dict(run))
        for measure, name, kwargs in calls:
            got = getattr(sm, name)(run, qrels, per_query=True, missing="skip", relevance_threshold=level, **kwargs)
            assert_close_maps(per_query(got, name), {q: v[measure] for q, v in res.items()},
                              what=f"level {level}: {name}({kwargs}) vs pytrec_eval {measure} with negative grades")


def test_negative_grades_are_unjudged_in_every_ranking_metric():
    """For every metric reading graded judgments, a negative grade is exactly an item the judgments lack
    (trec_eval's "in the pool, unjudged"): the values equal those of the judgments without those rows, in the
    qrels and in a run carrying its own relevance; the exponential gain of a grade -1 is 0, not 2^-1 - 1.
    infAP alone tells the two apart (test_infap_counts_the_pool)."""
    run, qrels = _with_pool_grades(8)
    plain = qrels[qrels["relevance"] >= 0]
    own = run.merge(qrels, on=["query", "item"], how="inner")  # the run with its judged items only
    own_plain = own[own["relevance"] >= 0]
    graded = [m for m in sm.METRICS.values() if any(p.name == "relevance" and p.role == "grade" for p in m.params)
              and m.name != "infap"]
    assert {"ndcg", "dcg", "err", "bpref", "rbp", "judged_at_k", "unjudged_at_k", "interpolated_precision",
            "num_rel", "set_map"} <= {m.name for m in graded}
    for m in graded:
        fn = getattr(sm, m.name)
        kwargs = {"k": 10} if any(p.name == "k" and p.required for p in m.params) else {}
        options = {"per_query": True} if m.per_query else {}
        values = [fn(run, judgments, **kwargs, **options) for judgments in (qrels, plain)]
        pd.testing.assert_frame_equal(*values, check_exact=False, rtol=1e-12, obj=m.name)
        if not m.param("qrels").required:  # judged_at_k and unjudged_at_k need qrels
            # the run's own grades: its queries with a grade >= 0 left, a negative row counts as unjudged
            values = [fn(own, **kwargs, **options),
                      fn(own[["query", "item", "score"]], own_plain, **kwargs, **options)]
            pd.testing.assert_frame_equal(*values, check_exact=False, rtol=1e-12, obj=f"{m.name}, the run's own grades")
    # by hand: grades [-1, 1] in the run: exponential DCG = 0 + 1/log2(3), bpref counts one judged item
    two = pd.DataFrame({"query": "q", "item": ["a", "b"], "score": [2, 1], "relevance": [-1, 1]})
    assert sm.dcg(two) == pytest.approx(1 / math.log2(3), abs=ABS)
    assert sm.bpref(two) == 1.0
    # serendipity weighs by the relevance itself (Microsoft Recommenders): a negative one is still refused
    with pytest.raises(sm.ColumnError, match="relevance must be >= 0"):
        sm.serendipity(two, pd.DataFrame({"query": ["q"], "item": ["z"]}),
                       similarity=pd.DataFrame({"item_a": ["a"], "item_b": ["z"], "similarity": [0.5]}),
                       relevance="relevance")


def test_infap_counts_the_pool():
    """infAP (trec_eval's m_infap.c) tells an item in the pool left unjudged (a negative grade) from one outside
    the pool (absent from the judgments): above a relevant item the first counts among the pooled items, the
    second only takes a rank. By hand, and against pytrec_eval on the random data with the negative grades
    and without their rows, which give other values."""
    e = 1e-5
    qrels = pd.DataFrame({"query": "q", "item": ["a", "b", "c"], "relevance": [1, 0, -1]})
    run = judged_list(["d", "c", "b", "a"])  # d outside the pool, c in it unjudged, b judged non-relevant
    assert sm.infap(run, qrels) == pytest.approx((1 + 2 * e / (1 + 2 * e)) / 4, abs=ABS)
    assert sm.infap(run, qrels[qrels["relevance"] >= 0]) == pytest.approx((1 + e / (1 + 2 * e)) / 4, abs=ABS)
    # a run carrying its relevance is its own pool: d judged non-relevant now
    assert sm.infap(run.assign(relevance=[0, -1, 0, 1])) == pytest.approx((1 + 3 * e / (2 + 2 * e)) / 4, abs=ABS)

    run, qrels = _with_pool_grades(7)
    values = []
    for judgments in (qrels, qrels[qrels["relevance"] >= 0]):
        res = pytrec_eval.RelevanceEvaluator(qrels_dict(judgments), {"infAP"}).evaluate(run_dict(run))
        got = per_query(sm.infap(run, judgments, per_query=True, missing="skip"), "infap")
        assert_close_maps(got, {q: v["infAP"] for q, v in res.items()}, what="infap")
        values.append(got)
    assert sum(abs(values[0][q] - values[1][q]) > 1e-3 for q in values[0]) > 10


def test_the_trec_counts_rprec_mult_set_map_infap_and_unj_on_edge_cases():
    """A query without relevant items (R = 0), a judged query absent from the run, the cut-off floor(x * R +
    0.9) at 0 and beyond the list: by hand under each policy, and per query against pytrec_eval (the
    run's queries: missing='skip')."""
    qrels = pd.DataFrame({"query": ["q"] * 3 + ["none", "gone", "gone"], "item": ["a", "b", "c", "a", "a", "z"],
                          "relevance": [1, 0, -1, 0, 1, 1]})
    run = pd.DataFrame({"query": ["q"] * 4 + ["none"] * 2, "item": ["a", "d", "c", "b", "a", "x"],
                        "score": [4.0, 3.0, 2.0, 1.0, 2.0, 1.0]})
    # q: R = 1, its list a (relevant), d (unjudged), c (-1: unjudged), b; none: R = 0, its list a (judged), x
    cases = [("Rprec_mult_0.05", "r_precision", {"multiple": 0.05}, {"q": 0.0, "none": 0.0}),  # c = 0
             ("Rprec_mult_0.20", "r_precision", {"multiple": 0.2}, {"q": 1.0, "none": 0.0}),  # c = 1
             ("Rprec_mult_2.00", "r_precision", {"multiple": 2.0}, {"q": 0.5, "none": 0.0}),
             ("Rprec_mult_5.00", "r_precision", {"multiple": 5.0}, {"q": 0.2, "none": 0.0}),  # c = 5, 4 listed
             ("infAP", "infap", {}, {"q": 1.0, "none": 0.0}), ("set_map", "set_map", {}, {"q": 0.25, "none": 0.0}),
             ("num_ret", "num_ret", {}, {"q": 4, "none": 2}), ("num_rel", "num_rel", {}, {"q": 1, "none": 0})]
    res = pytrec_eval.RelevanceEvaluator(qrels_dict(qrels), {"Rprec_mult.0.05,0.2,2,5", "infAP", "set_map", "num_ret",
                                                             "num_rel"}).evaluate(run_dict(run))
    for measure, name, kwargs, want in cases:
        got = per_query(getattr(sm, name)(run, qrels, per_query=True, missing="skip", **kwargs), name)
        assert got == pytest.approx(want, abs=ABS) == {q: v[measure] for q, v in res.items()}, measure
    # gone counts 0 (missing='zero', as trec_eval -c), but for num_rel its own R
    assert sm.r_precision(run, qrels, multiple=5) == pytest.approx(0.2 / 3, abs=ABS)
    assert sm.r_precision(run, qrels, multiple=5, missing="skip", empty="skip") == pytest.approx(0.2, abs=ABS)
    assert sm.infap(run, qrels, details=True)[["n_queries", "n_missing", "n_empty"]].values.tolist() == [[3, 1, 1]]
    assert sm.set_map(run, qrels, empty="skip") == pytest.approx(0.125, abs=ABS)
    assert sm.num_rel(run, qrels, per_query=True)["num_rel"].tolist() == [2, 0, 1]
    assert (sm.num_rel(run, qrels), sm.num_rel(run, qrels, missing="skip")) == (3, 1)
    assert (sm.num_ret(run, qrels), sm.num_ret(run, qrels, empty="skip")) == (6, 4)  # none adds its own count
    # unj: over k even beyond the list; a query without relevant items keeps its value, an absent one is 0
    unj = sm.unjudged_at_k(run, qrels, k=2, per_query=True)
    assert dict(zip(unj["query"], unj["unjudged_at_k"])) == {"gone": 0.0, "none": 0.5, "q": 0.5}
    assert sm.unjudged_at_k(run, qrels, k=10, missing="skip") == pytest.approx((0.2 + 0.1) / 2, abs=ABS)
    assert sm.unjudged_at_k(run, qrels, k=None, missing="skip") == pytest.approx((0.5 + 0.5) / 2, abs=ABS)
    with pytest.raises(sm.ParameterError, match="missing a required argument: 'k'"):
        sm.unjudged_at_k(run, qrels)
    with pytest.raises(sm.ArgumentError, match="qrels"):
        sm.unjudged_at_k(run.assign(relevance=1), k=5)
