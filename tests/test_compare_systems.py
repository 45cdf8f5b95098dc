"""sm.compare(metrics, runs={...}): several systems on several measures, and its tables.

References: ranx.compare on the same runs (estimates, Student's p-values, win/tie/loss; Fisher's
randomization test within Monte-Carlo error, and ranx's p-value floor read from its code); scipy's
ttest_rel and wilcoxon on ranx's per-query values; Holm's and Bonferroni's adjustments written
here from their definitions; pytrec_eval's per-query values for the command line's TREC runs.
"""
from __future__ import annotations

import inspect
import itertools
import json
import math
import re
import subprocess
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from scipy import stats

import sqlmetrics as sm
from conftest import SQLMETRICS_COMMAND
from sqlmetrics.errors import ParameterError
from test_ranking_reference import qrels_dict, run_dict

#: ranx's spellings, read by sqlmetrics as ranx defines them
MEASURES = ["ndcg@10", "precision@5", "map", "mrr"]
DATA = Path(__file__).parent / "data" / "trec_eval"


def three_systems(seed=3, n_queries=60, n_docs=25):
    """Qrels with graded judgments (every query with a relevant item) and three runs of rising quality,
    scores without ties; the weakest misses two queries (0 for both tools)."""
    rng = np.random.default_rng(seed)
    qrels = pd.DataFrame([(f"q{q}", f"d{q}_{i}", int(rng.choice([0, 0, 0, 1, 2])) or int(i == 0))
                          for q in range(n_queries) for i in range(n_docs)], columns=["query", "item", "relevance"])
    runs = {name: qrels[["query", "item"]].assign(score=strength * qrels["relevance"] + rng.normal(size=len(qrels)))
            for name, strength in (("weak", 0.4), ("mid", 1.0), ("strong", 1.15))}
    runs["weak"] = runs["weak"][~runs["weak"]["query"].isin(["q1", "q2"])].reset_index(drop=True)
    return runs, qrels


def ranx_objects(runs, qrels):
    import ranx  # here, not at collection: its import takes a second and a half
    ids = {"query": object, "item": object}  # ranx takes ids of dtype object only
    rq = ranx.Qrels.from_df(qrels.astype(ids), q_id_col="query", doc_id_col="item", score_col="relevance")
    rr = [ranx.Run.from_df(run.astype(ids), q_id_col="query", doc_id_col="item", score_col="score", name=name)
          for name, run in runs.items()]
    return rq, rr


def per_query(runs, qrels, measure):
    """ranx's per-query values of each run, queries in the qrels' order (a missing query scores 0)."""
    import ranx
    rq, rr = ranx_objects(runs, qrels)
    return {run.name: np.asarray(ranx.evaluate(rq, run, measure, return_mean=False, make_comparable=True))
            for run in rr}


def holm(p):
    """Holm (1979): the i-th smallest of m p-values becomes max over j <= i of (m - j + 1) p_(j), at most 1."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for j, i in enumerate(order, start=1):
        running = max(running, (len(p) - j + 1) * p[i])
        out[i] = min(1.0, running)
    return out


def bonferroni(p):
    return [min(1.0, len(p) * x) for x in p]


def test_every_pair_matches_ranx_student():
    import ranx
    runs, qrels = three_systems()
    got = sm.compare(metrics=MEASURES, runs=runs, qrels=qrels, correction=None, alpha=0.05)
    rq, rr = ranx_objects(runs, qrels)
    want = ranx.compare(rq, rr, MEASURES, stat_test="student", max_p=0.05, make_comparable=True)
    pairs = {("mid", "weak"), ("strong", "weak"), ("strong", "mid")}
    assert set(zip(got.system, got.baseline)) == pairs and len(got) == len(pairs) * len(MEASURES)
    for row in got.itertuples():
        assert row.estimate == pytest.approx(want.results[row.system][row.metric], rel=1e-9, abs=1e-12)
        assert row.baseline_estimate == pytest.approx(want.results[row.baseline][row.metric], rel=1e-9, abs=1e-12)
        tested = want.comparisons[row.system, row.baseline][row.metric]
        assert row.p_value == pytest.approx(tested["p_value"], rel=1e-9, abs=1e-15)
        assert row.p_value_adjusted == row.p_value and row.significant == tested["significant"]
        counts = want.win_tie_loss[(row.system, row.baseline)][row.metric]
        assert (row.n_wins, row.n_ties, row.n_losses) == (counts["W"], counts["T"], counts["L"])
        assert row.n_units == len(qrels["query"].unique())
    # the runs differ: some comparisons are significant, some not
    assert 0 < got.significant.sum() < len(got)


@pytest.mark.parametrize("test", ["paired_t", "wilcoxon"])
@pytest.mark.parametrize("correction", ["holm", "bonferroni"])
def test_baseline_against_scipy_and_the_adjustments(test, correction):
    runs, qrels = three_systems(seed=4)
    got = sm.compare(MEASURES, runs=runs, qrels=qrels, baseline="mid", test=test, correction=correction, alpha=0.05)
    assert list(got.columns) == ["system", "baseline", "metric", "estimate", "baseline_estimate", "difference",
                                 "statistic", "p_value", "p_value_adjusted", "significant", "ci_low", "ci_high",
                                 "n_units", "n_wins", "n_ties", "n_losses"]
    assert (got.baseline == "mid").all() and list(got.system[:2]) == ["weak", "strong"]
    for measure in MEASURES:
        values = per_query(runs, qrels, measure)
        rows = got[got.metric == measure]
        want = [stats.ttest_rel(values[s], values["mid"]) if test == "paired_t" else
                stats.wilcoxon(np.round(values[s] - values["mid"], 12)) for s in rows.system]
        p = [w.pvalue for w in want]
        assert rows.p_value.to_numpy() == pytest.approx(p, rel=1e-9)
        assert rows.statistic.to_numpy() == pytest.approx([w.statistic for w in want], rel=1e-9)
        adjusted = holm(p) if correction == "holm" else bonferroni(p)
        assert rows.p_value_adjusted.to_numpy() == pytest.approx(adjusted, rel=1e-9)
        assert list(rows.significant) == [a < 0.05 for a in adjusted]
        assert rows.difference.to_numpy() == pytest.approx([(values[s] - values["mid"]).mean() for s in rows.system],
                                                           rel=1e-9, abs=1e-12)


def test_holm_over_more_comparisons_than_two():
    """Four systems against one baseline: Holm's steps over three p-values of each measure."""
    runs, qrels = three_systems(seed=5)
    runs["shuffled"] = runs["mid"].assign(score=runs["mid"]["score"].sample(frac=1, random_state=1).to_numpy())
    got = sm.compare(["ndcg@10", "map"], runs=runs, qrels=qrels, baseline="weak")
    for measure, rows in got.groupby("metric"):
        assert len(rows) == 3
        assert rows.p_value_adjusted.to_numpy() == pytest.approx(holm(list(rows.p_value)), rel=1e-12)


def exact_sign_flip_p(d):
    """Every sign pattern of the nonzero differences d: the share whose |sum| reaches the data's."""
    d = d[np.abs(d) > 1e-12]
    sums = np.abs(np.array(list(itertools.product([-1.0, 1.0], repeat=len(d)))) @ d)
    return (sums >= abs(d.sum()) * (1 - 1e-12)).mean()


def test_fisher_randomization_against_ranx():
    """ranx's Fisher test: the share of its permutations at least as extreme, count / n (read from its
    code below), so 0.0 where none is; sqlmetrics' (1 + count) / (1 + n), whose floor is 1 / (1 + n).
    Elsewhere the two estimate the same p-value: within Monte-Carlo error of each other, and of the
    exact p-value where the nonzero differences are few enough to flip every sign. ranx runs on one
    numba thread: on two, its p-values here were biased (0.214 where the exact p-value is 0.281)."""
    import ranx
    source = inspect.getsource(ranx.statistical_tests.fisher_randomization_test)
    assert "p_value = counter_array.mean()" in source and "permuted_diff >= control_treatment_diff" in source
    runs, qrels = three_systems()
    n = 5000
    got = sm.compare(MEASURES, runs=runs, qrels=qrels, test="randomization", n_resamples=n, correction=None)
    rq, rr = ranx_objects(runs, qrels)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        want = ranx.compare(rq, rr, MEASURES, stat_test="fisher", n_permutations=n, make_comparable=True)
    finally:
        numba.set_num_threads(threads)
    floors = exact = 0
    for row in got.itertuples():
        theirs = want.comparisons[row.system, row.baseline][row.metric]["p_value"]
        assert row.p_value >= 1 / (1 + n)  # never 0
        floors += theirs == 0.0 and row.p_value == 1 / (1 + n)
        p = max(theirs, row.p_value)
        assert abs(row.p_value - theirs) <= 4 * math.sqrt(2 * p * (1 - p) / n) + 2 / n, (row.system, row.metric)
        values = per_query(runs, qrels, row.metric)
        d = values[row.system] - values[row.baseline]
        if (np.abs(d) > 1e-12).sum() <= 16:
            exactly = exact_sign_flip_p(d)
            assert abs(row.p_value - exactly) <= 4 * math.sqrt(exactly * (1 - exactly) / n) + 2 / n
            exact += 1
    assert 0 < floors < len(got) and exact > 0  # ranx's 0.0 against the floor, and p-values above it


def test_paper_tables():
    runs, qrels = three_systems()
    runs = {"bm25_plus" if k == "weak" else k: v for k, v in runs.items()}
    got = sm.compare(["ndcg@10", "map"], runs=runs, qrels=qrels, baseline="bm25_plus")
    latex, markdown = sm.paper_table(got, "latex"), sm.paper_table(got, format="markdown", digits=4)
    for row in got.itertuples():
        value = f"{row.estimate:.3f}"
        marker = ("$^{\\dagger}$" if row.difference > 0 else "$^{\\ddagger}$") if row.significant else ""
        best = row.estimate == got[got.metric == row.metric].estimate.max()
        cell = (f"\\textbf{{{value}}}" if best else value) + marker
        line = next(x for x in latex.splitlines() if x.startswith(row.system + " &"))
        assert cell in line.split(" & ")[1 + ["ndcg@10", "map"].index(row.metric)]
    assert "bm25\\_plus & " in latex and "significantly better than bm25\\_plus" in latex
    assert "Holm-adjusted p < 0.05" in latex and latex.count("\\\\") == 4  # header and three systems
    assert got.significant.any() and "$^{\\dagger}$" in latex
    lines = markdown.splitlines()
    assert lines[0] == "| system | ndcg@10 | map |" and lines[1] == "|:---|---:|---:|"
    strong = got[(got.system == "strong")].set_index("metric")
    assert lines[4] == ("| strong | " + " | ".join(
        f"**{strong.estimate[m]:.4f}**" + ("<sup>†</sup>" if strong.significant[m] else "") for m in ["ndcg@10", "map"])
        + " |")
    assert lines[2].startswith("| bm25_plus | ") and "<sup>" not in lines[2]  # the baseline carries no marker

    pairs = sm.compare(["ndcg@10"], runs=runs, qrels=qrels)  # every pair: the letters of the systems beaten
    table = sm.paper_table(pairs, "markdown")
    for row in pairs.itertuples():
        better, worse = (row.system, row.baseline) if row.difference > 0 else (row.baseline, row.system)
        letter = "abc"[list(runs).index(worse)]
        line = next(x for x in table.splitlines() if x.startswith(f"| {better} ("))
        assert (letter in line.split("<sup>")[1] if "<sup>" in line else False) == bool(row.significant)


def test_two_system_call_unchanged():
    runs, qrels = three_systems()
    one = sm.compare("ndcg@10", runs["strong"], runs["mid"], qrels)
    many = sm.compare("ndcg@10", runs={"mid": runs["mid"], "strong": runs["strong"]}, qrels=qrels)
    assert many.iloc[0][["estimate", "p_value", "n_wins"]].to_dict() == pytest.approx(
        {k: one[k] for k in ("estimate", "p_value", "n_wins")}, rel=1e-12)


def rough_systems(seed=11, n_queries=40, n_docs=8):
    """Runs of rounded scores (ties), one missing queries, one listing unjudged items; qrels with queries
    without a relevant item and graded judgments."""
    rng = np.random.default_rng(seed)
    qrels = pd.DataFrame([(q, f"d{i}", int(rng.choice([0, 0, 1, 2])) if q % 7 else 0)
                          for q in range(n_queries) for i in range(n_docs)], columns=["query", "item", "relevance"])
    runs = {name: qrels[["query", "item"]].assign(score=np.round(strength * qrels["relevance"]
                                                                 + rng.normal(size=len(qrels)), 1))
            for name, strength in (("a", 0.3), ("b", 0.8), ("c", 1.0), ("d", 1.0))}
    runs["a"] = runs["a"][runs["a"]["query"] % 5 != 1]
    runs["d"] = pd.concat([runs["d"], pd.DataFrame({"query": [2, 3], "item": ["x", "y"], "score": [9.0, 9.0]})])
    return runs, qrels


@pytest.mark.parametrize("options", [
    dict(test="paired_t"), dict(test="wilcoxon", baseline="b"), dict(test="randomization", n_resamples=500, seed=3,
                                                                     baseline="c"),
    dict(missing="skip", empty="skip", baseline="d"), dict(relevance_threshold=2, baseline="a"),
    dict(ties="item_asc", baseline="a")])
def test_one_statement_per_pass_is_each_pair_own_comparison(options):
    """The measures of evaluate's one pass, compared in one statement per order of ties (ir_measures'
    RR@10 orders ties by item id ascending, its nDCG@10 descending) and the others pair by pair, give
    each pair's own two-run comparison: to the last digit but for the rounding of sums."""
    runs, qrels = rough_systems()
    measures = ["nDCG@10", "RR@10", "map", "P@3", "Rprec", "bpref"]
    if options.get("ties"):  # spellings whose ties the call chooses (ir_measures' RR@10 fixes them)
        measures = ["ndcg@10", "map", "mrr", "precision@5", "bpref"]
    if options.get("relevance_threshold"):  # whose relevance level it chooses: trec_eval's (-l)
        measures = ["ndcg_cut_10", "map", "P_5", "recip_rank", "bpref"]
    given = {k: v for k, v in options.items() if k != "baseline"}
    got = sm.compare(measures, runs=runs, qrels=qrels, baseline=options.get("baseline"), correction=None, **given)
    assert len(got) == len(measures) * (3 if options.get("baseline") else 6)
    for row in got.itertuples():
        want = sm.compare(row.metric, runs[row.system], runs[row.baseline], qrels, **given)
        for column in ("estimate", "difference", "statistic", "p_value", "ci_low", "ci_high", "n_units", "n_wins",
                       "n_ties", "n_losses"):
            mine = getattr(row, column)
            theirs = want["other_estimate" if column == "baseline_estimate" else column]
            assert mine == pytest.approx(theirs, rel=1e-9, abs=1e-12, nan_ok=True), (row.metric, row.system, column)
        assert row.baseline_estimate == pytest.approx(want["other_estimate"], rel=1e-9, abs=1e-12)


def test_each_run_read_once_in_one_statement(monkeypatch):
    """Three runs on five measures of the one pass: one statement reading each run and the qrels once
    (SQLite's trace), where comparing pair by pair read each run in 10 statements."""
    import sqlite3
    runs, qrels = rough_systems()
    con = sqlite3.connect(":memory:")
    for name, frame in [*runs.items(), ("qrels", qrels)]:
        frame.to_sql(name, con, index=False)
    statements = []
    con.set_trace_callback(statements.append)
    got = sm.compare(["ndcg@10", "map", "P@3", "recall@5", "mrr"], runs={"a": "a", "b": "b", "c": "c"}, qrels="qrels",
                     con=con)
    con.set_trace_callback(None)
    reading = [s for s in statements if re.search(r'\b(FROM|JOIN)\s+"?(a|b|c|qrels)"?(\s|\)|$)', s)
               and not s.rstrip().endswith("LIMIT 0")]
    assert len(reading) == 1, reading
    assert all(len(re.findall(rf'\b(FROM|JOIN)\s+"?{name}"?(\s|\)|$)', reading[0])) == 1 for name in "abc"), reading[0]
    assert len(got) == 15 and got["p_value"].notna().all()


def test_render_of_several_runs_is_the_statement_run():
    """sm.render("compare", None, runs=...) is the statement sm.compare runs: run as it is on DuckDB, it gives
    sm.compare's numbers (the runs' and measures' numbers for names)."""
    import duckdb
    runs, qrels = rough_systems()
    con = duckdb.connect()
    for name, frame in [*runs.items(), ("qrels", qrels)]:
        con.register(name, frame)
    measures = ["ndcg@10", "map", "P@3"]
    named = {name: name for name in runs}
    got = con.execute(sm.render("compare", None, metric=measures, runs=named, qrels="qrels", baseline="b")).df()
    want = sm.compare(measures, runs=runs, qrels=qrels, baseline="b", correction=None)
    assert len(got) == len(want) == 9
    for r in got.itertuples():
        row = want[(want.metric == measures[r.measure_index]) & (want.system == list(runs)[r.system_index])
                   & (want.baseline == list(runs)[r.baseline_index])].iloc[0]
        assert (r.difference, r.p_value, r.n_units) == pytest.approx((row.difference, row.p_value, row.n_units),
                                                                     rel=1e-12, abs=1e-15)
    with pytest.raises(ParameterError, match="pass data=None"):
        sm.render("compare", "a", metric=measures, runs=named, qrels="qrels")
    with pytest.raises(ParameterError, match="outside sm.evaluate's one pass"):
        sm.render("compare", None, metric=["map", "bpref"], runs=named, qrels="qrels")


def test_by_refused():
    runs, qrels = three_systems()
    with pytest.raises(ParameterError, match="compare of two runs"):
        sm.compare(MEASURES, runs=runs, qrels=qrels, by="query")


def test_errors():
    runs, qrels = three_systems()
    with pytest.raises(ParameterError, match="two runs or more"):
        sm.compare(MEASURES, runs={"mid": runs["mid"]}, qrels=qrels)
    with pytest.raises(ParameterError, match="baseline 'stong' is not one of the runs; did you mean 'strong'"):
        sm.compare(MEASURES, runs=runs, qrels=qrels, baseline="stong")
    with pytest.raises(sm.UnknownMetricError, match="did you mean 'ndcg'"):
        sm.compare(["ndgc@10", "map"], runs=runs, qrels=qrels)
    with pytest.raises(ParameterError, match="correction must be"):
        sm.compare(MEASURES, runs=runs, qrels=qrels, correction="fdr")
    with pytest.raises(ParameterError, match="alpha must be"):
        sm.compare(MEASURES, runs=runs, qrels=qrels, alpha=5)
    with pytest.raises(ParameterError, match="test must be one of"):
        sm.compare(MEASURES, runs=runs, qrels=qrels, test="t")
    with pytest.raises(ParameterError, match="takes ranking measures"):
        sm.compare(["auc"], runs=runs, qrels=qrels)
    with pytest.raises(ParameterError, match="give the measures once"):
        sm.compare("map", runs=runs, qrels=qrels, metrics=["map"])
    with pytest.raises(ParameterError, match="pass no data"):
        sm.compare("map", runs["mid"], runs=runs, qrels=qrels)
    with pytest.raises(ParameterError, match="unexpected parameter.*baseline"):  # a two-run call takes no baseline
        sm.compare("map", runs["mid"], runs["weak"], qrels, baseline="weak")
    with pytest.raises(ParameterError, match="format must be"):
        sm.paper_table(sm.compare("map", runs=runs, qrels=qrels), "html")


# -- the command line, on trec_eval's test runs ----------------------------------------------------

def cli(*args, ok=None):
    done = subprocess.run([SQLMETRICS_COMMAND, *map(str, args)], capture_output=True, text=True, timeout=120)
    if ok is not None:
        assert done.returncode == ok, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    return done


@pytest.fixture
def trec_runs(tmp_path):
    """trec_eval's two test runs and a third: results.test's scores reversed."""
    reversed_run = tmp_path / "reversed.txt"
    lines = [line.split() for line in (DATA / "results.test").read_text().splitlines()]
    reversed_run.write_text("".join(f"{q} Q0 {d} {r} {-float(s)} rev\n" for q, _, d, r, s, *_ in lines))
    return [f"trec:{DATA}/results.test", f"trunc=trec:{DATA}/results.trunc", f"trec:{reversed_run}"]


needs_command = pytest.mark.skipif(SQLMETRICS_COMMAND is None, reason="the sqlmetrics entry point is not installed")


def trec_values(path, measure):
    qrels = pd.read_csv(f"{DATA}/qrels.test", sep=r"\s+", header=None, usecols=[0, 2, 3],
                        names=["query", "item", "relevance"], dtype={"query": str, "item": str})
    run = pd.read_csv(path, sep=r"\s+", header=None, usecols=[0, 2, 4], names=["query", "item", "score"],
                      dtype={"query": str, "item": str})
    res = pytrec_eval.RelevanceEvaluator(qrels_dict(qrels), {measure}).evaluate(run_dict(run))
    return np.array([res.get(q, {}).get(measure, 0.0) for q in sorted(qrels_dict(qrels))])


@needs_command
def test_cli_three_trec_runs(trec_runs):
    args = ["compare", "ndcg_cut_10,P_5", *(x for run in trec_runs for x in ("--run", run)),
            "--qrels", f"trec:{DATA}/qrels.test", "--baseline", "results", "--correction", "bonferroni"]
    document = json.loads(cli(*args, "--format", "json", ok=0).stdout)
    assert document["systems"] == ["results", "trunc", "reversed"] and document["correction"] == "bonferroni"
    rows = pd.DataFrame(document["rows"])
    paths = {"results": f"{DATA}/results.test", "trunc": f"{DATA}/results.trunc",
             "reversed": trec_runs[2][len("trec:"):]}
    for measure in ("ndcg_cut_10", "P_5"):
        base = trec_values(paths["results"], measure)
        mine = rows[rows.metric == measure]
        assert list(mine.system) == ["trunc", "reversed"]
        p = [stats.ttest_rel(trec_values(paths[s], measure), base).pvalue for s in mine.system]
        assert mine.p_value.to_numpy() == pytest.approx(p, rel=1e-9)
        assert mine.p_value_adjusted.to_numpy() == pytest.approx(bonferroni(p), rel=1e-9)
        assert mine.estimate.to_numpy() == pytest.approx([trec_values(paths[s], measure).mean() for s in mine.system],
                                                        rel=1e-9)
    runs = {"results": sm.TrecRun(paths["results"]), "trunc": sm.TrecRun(paths["trunc"]),
            "reversed": sm.TrecRun(paths["reversed"])}
    api = sm.compare(["ndcg_cut_10", "P_5"], runs=runs, qrels=sm.TrecQrels(f"{DATA}/qrels.test"), baseline="results",
                     correction="bonferroni")
    assert cli(*args, "--format", "latex", ok=0).stdout == sm.paper_table(api, "latex")
    assert cli(*args, "--format", "markdown", ok=0).stdout == sm.paper_table(api, "markdown")
    table = cli(*args, ok=0).stdout.splitlines()
    assert table[0].split()[:3] == ["system", "baseline", "metric"] and len(table) == 5


@needs_command
def test_cli_errors(trec_runs):
    qrels = ["--qrels", f"trec:{DATA}/qrels.test"]
    one = cli("compare", "map", "--run", trec_runs[0], *qrels, ok=2).stderr
    assert "needs two runs or more" in one
    unknown = cli("compare", "map", "--run", trec_runs[0], "--run", trec_runs[1], *qrels, "--baseline", "result",
                  ok=2).stderr
    assert "baseline 'result' is not one of the runs; did you mean 'results'?" in unknown
    misspelt = cli("compare", "ndgc@10,map", "--run", trec_runs[0], "--run", trec_runs[1], *qrels, ok=2).stderr
    assert "unknown metric 'ndgc@10'; did you mean 'ndcg'?" in misspelt
    twice = cli("compare", "map", "--run", trec_runs[0], "--run", trec_runs[0], *qrels, ok=2).stderr
    assert "two runs are named 'results'" in twice


@needs_command
def test_cli_report_of_several_runs(trec_runs):
    out = cli("report", "--run", trec_runs[0], "--run", trec_runs[1], "--qrels", f"trec:{DATA}/qrels.test",
              "--metrics", "P_5,ndcg_cut_10", "--format", "json", ok=0).stdout
    document = json.loads(out)
    assert [r["run"] for r in document["runs"]] == ["results", "trunc"]
    for entry, path in zip(document["runs"], [f"{DATA}/results.test", f"{DATA}/results.trunc"]):
        values = {m["metric"]: m["value"] for m in entry["metrics"]}
        assert values == pytest.approx({m: trec_values(path, m).mean() for m in ("P_5", "ndcg_cut_10")}, rel=1e-9)
    assert "drop --label" in cli("report", "--run", trec_runs[0], "--label", "y", ok=2).stderr
