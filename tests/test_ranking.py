"""Ranking metrics: the worked examples (docs/conventions.md#worked-examples), input errors, and registry-wide properties.
The comparisons with pytrec_eval, sklearn and scipy are in test_ranking_reference.py."""
import math

import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import make_ranking_frames
from sqlmetrics.dialects import DIALECTS
from sqlmetrics.registry import METRICS

RANKING = sorted(m for m in METRICS if METRICS[m].per_query and "qrels" in {p.name for p in METRICS[m].params})


def one_list(relevances, query=1):
    """A ranked list (scores descending) carrying its own relevance."""
    n = len(relevances)
    return pd.DataFrame({"query": query, "item": [f"i{j}" for j in range(n)], "score": range(n, 0, -1),
                         "relevance": relevances})


# -- the worked examples -------------------------------------------------------------------

def test_seed000_ndcg_at_5_with_seven_judged_films():
    run = pd.DataFrame({"query": 1, "item": list("ABCDE"), "score": [5, 4, 3, 2, 1]})
    qrels = pd.DataFrame({"query": 1, "item": list("ABCDEFG"), "relevance": [5, 3, 2, 1, 2, 4, 0]})
    assert sm.dcg(run, qrels, k=5) == pytest.approx(38.508, abs=5e-4)
    assert sm.ndcg(run, qrels, k=5) == pytest.approx(38.508 / 46.417, abs=5e-5)
    assert round(sm.ndcg(run, qrels, k=5), 4) == 0.8296


def test_seed002_average_precision_and_ndcg_of_binary_lists():
    assert round(sm.mean_average_precision(one_list([1, 0, 1, 0, 1, 0])), 4) == 0.7556
    assert math.isclose(sm.map(one_list([1, 0, 1, 0, 1, 0])), (1 + 2 / 3 + 3 / 5) / 3, rel_tol=1e-12)
    assert round(sm.ndcg(one_list([0, 1, 1, 0, 1])), 4) == 0.7123
    assert round(sm.ndcg(one_list([0, 0, 1, 1, 1])), 4) == 0.6183


def test_seed001_mrr_is_eleven_eighteenths():
    # cat, torus, virus found at ranks 3, 2, 1
    run = pd.concat([one_list([0, 0, 1], "cat"), one_list([0, 1, 0], "torus"), one_list([1, 0, 0], "virus")])
    assert math.isclose(sm.mrr(run), 11 / 18, rel_tol=1e-12)


def test_seed001_ndcg_094_with_linear_gain():
    # relevances 3, 1, 2, 3, 2: CG 11, DCG 6.69, IDCG (3, 3, 2, 2, 1) 7.14
    run = one_list([3, 1, 2, 3, 2])
    assert round(sm.dcg(run, gain="linear"), 2) == 6.70  # the seed truncates 6.6967 to 6.69
    assert round(sm.ndcg(run, gain="linear"), 2) == 0.94


def test_seed001_hit_ratio_at_10_is_micro_recall():
    # three users with 10, 12, 8 test items; 6, 5, 4 of them in their top-10 lists: (6+5+4)/(10+12+8)
    runs, qrels = [], []
    for user, (relevant, hits) in enumerate([(10, 6), (12, 5), (8, 4)]):
        ranked = [f"hit{j}" for j in range(hits)] + [f"miss{j}" for j in range(10 - hits)]
        runs.append(pd.DataFrame({"query": user, "item": ranked, "score": range(10, 0, -1)}))
        judged = [f"hit{j}" for j in range(hits)] + [f"unseen{j}" for j in range(relevant - hits)]
        qrels.append(pd.DataFrame({"query": user, "item": judged, "relevance": 1}))
    run, qrels = pd.concat(runs), pd.concat(qrels)
    assert sm.recall_at_k(run, qrels, k=10, average="micro") == 0.5
    macro = (6 / 10 + 5 / 12 + 4 / 8) / 3
    assert math.isclose(sm.recall_at_k(run, qrels, k=10), macro, rel_tol=1e-12)


def test_seed004_rank_correlation_counts_agreeing_pairs():
    # predicted order a > b > c > d; true relevance 3, 1, 2, 0: pairs (a,b) (a,c) (a,d) (b,d) (c,d)
    # agree, (b,c) disagrees: RC = 5/6
    run = pd.DataFrame({"query": 1, "item": list("abcd"), "score": [4, 3, 2, 1], "relevance": [3, 1, 2, 0]})
    assert math.isclose(sm.rank_correlation(run), 5 / 6, rel_tol=1e-12)


# -- query sets and counts --------------------------------------------------------------------------

def test_missing_and_empty_queries_are_counted_and_follow_the_policies():
    run = pd.concat([one_list([1, 0], 1), one_list([0, 0], 2)]).drop(columns="relevance")
    qrels = pd.DataFrame({"query": [1, 2, 3], "item": ["i0", "i0", "x"], "relevance": [1, 0, 1]})
    # query 1: NDCG 1; query 2: nothing relevant (0); query 3: judged, not in the run (0)
    details = sm.ndcg(run, qrels, details=True).iloc[0]
    assert (details["ndcg"], details["n_queries"], details["n_missing"], details["n_empty"]) == (1 / 3, 3, 1, 1)
    assert sm.ndcg(run, qrels, missing="skip") == 0.5
    assert sm.ndcg(run, qrels, empty="skip") == 0.5
    assert sm.ndcg(run, qrels, missing="skip", empty="skip") == 1.0
    per_query = sm.ndcg(run, qrels, per_query=True)
    assert per_query["query"].tolist() == [1, 2, 3] and per_query["ndcg"].tolist() == [1.0, 0.0, 0.0]


def test_no_relevant_item_anywhere_is_undefined():
    with pytest.raises(sm.UndefinedMetricError, match="no evaluated query has a relevant item"):
        sm.ndcg(one_list([0, 0, 0]))
    assert math.isnan(sm.ndcg(one_list([0, 0, 0]), details=True)["ndcg"][0])


def test_ties_break_on_item_id_bytes_descending_like_trec_eval():
    # equal scores: 'd9' > 'd10' as text, so d9 ranks first under item_desc
    run = pd.DataFrame({"query": 1, "item": ["d10", "d9"], "score": [1.0, 1.0], "relevance": [1, 0]})
    assert sm.mrr(run) == 0.5
    assert sm.mrr(run, ties="item_asc") == 1.0
    assert sm.ndcg(run, ties="average", gain="linear") == pytest.approx((1 + 1 / math.log2(3)) / 2)


def test_k_longer_than_the_list_and_precision_divides_by_k():
    run = one_list([1, 1])
    assert sm.precision_at_k(run, k=10) == 0.2
    assert sm.ndcg(run, k=10) == 1.0


# -- bad input --------------------------------------------------------------------------------------

@pytest.mark.parametrize("k, message", [(0, "k must be >= 1"), (-3, "k must be >= 1"), (2.5, "whole number"),
                                        ("10", "whole number"), (True, "whole number")])
def test_bad_k(k, message):
    with pytest.raises(sm.ParameterError, match=message):
        sm.ndcg(one_list([1, 0]), k=k)


def test_k_is_required_where_the_spec_says_so():
    for name in ("precision_at_k", "recall_at_k", "hit_rate"):
        with pytest.raises(sm.ParameterError, match="missing a required argument: 'k'"):
            getattr(sm, name)(one_list([1, 0]))


def test_duplicate_query_item_rows_are_an_error_naming_the_table():
    run = pd.concat([one_list([1, 0]), one_list([1, 0]).iloc[:1]])
    with pytest.raises(sm.ColumnError, match=r"has 1 duplicated \(query, item\) combination, e.g. query=1, item='i0'"):
        sm.ndcg(run)
    twice = pd.concat([run, one_list([1, 0]).iloc[1:], one_list([1, 0]).iloc[1:]])
    with pytest.raises(sm.ColumnError, match=r"has 2 duplicated \(query, item\) combinations"):
        sm.ndcg(twice)
    qrels = pd.DataFrame({"query": [1, 1], "item": ["i0", "i0"], "relevance": [1, 2]})
    with pytest.raises(sm.ColumnError, match="duplicated"):
        sm.ndcg(one_list([1, 0]).drop(columns="relevance"), qrels)


@pytest.mark.parametrize("column", ["query", "item", "score", "relevance"])
def test_null_keys_scores_and_relevance_are_errors(column):
    run = one_list([1, 0, 1]).astype({column: object})
    run.loc[1, column] = None
    with pytest.raises(sm.ColumnError, match=f"column '{column}' \\({column}\\) has 1 NULL value"):
        sm.ndcg(run)


def test_max_grade_below_the_data_is_an_error():
    with pytest.raises(sm.ParameterError, match="max_grade=2 is below the largest relevance"):
        sm.err(one_list([3, 1]), max_grade=2)
    assert sm.err(one_list([3, 1]), max_grade=4) == pytest.approx(7 / 16 + 0.5 * (1 / 16) * (9 / 16))


def test_columns_missing_from_the_qrels_are_named():
    qrels = pd.DataFrame({"query": [1], "doc": ["i0"], "relevance": [1]})
    with pytest.raises(sm.ColumnError, match="column 'item' \\(item\\) not found in the pandas DataFrame"):
        sm.ndcg(one_list([1]).drop(columns="relevance"), qrels)


# -- registry-wide properties -----------------------------------------------------------------------

def required_k(name):
    m = METRICS[name]
    return {"k": 3} if "k" in {p.name for p in m.params} and m.param("k").required else {}


def call(name, run, qrels, **extra):
    return getattr(sm, name)(run, qrels, details=True, **required_k(name), **extra)


def query_keys(name):
    """The columns that identify a per-query row: the query, and the recall level of a curve's."""
    return ["recall_level", "query"] if METRICS[name].kind == "curve" else ["query"]


@pytest.mark.parametrize("name", RANKING)
def test_ranking_row_order_does_not_matter(name, ranking_frames):
    run, qrels = ranking_frames
    a = call(name, run, qrels)
    b = call(name, run.sample(frac=1, random_state=1), qrels.sample(frac=1, random_state=2))
    pd.testing.assert_frame_equal(a, b, rtol=1e-12)


@pytest.mark.parametrize("name", RANKING)
def test_ranking_slices_equal_each_slice_alone(name, ranking_frames):
    run, qrels = ranking_frames
    sliced = call(name, run, qrels, by="c")
    for country, part in sliced.groupby("c"):
        alone = call(name, run[run.c == country], qrels[qrels.c == country])
        pd.testing.assert_frame_equal(part.drop(columns="c").reset_index(drop=True), alone, rtol=1e-12)


@pytest.mark.parametrize("name", RANKING)
def test_mean_is_the_mean_of_the_per_query_values(name, ranking_frames):
    run, qrels = ranking_frames
    params = required_k(name)
    per_query = getattr(sm, name)(run, qrels, per_query=True, **params)
    assert not per_query[query_keys(name)].duplicated().any()
    if name == "recall_at_k":
        return  # macro mean checked below; micro is a ratio of sums
    if METRICS[name].kind == "curve":  # a mean per recall level
        want = per_query.groupby("recall_level")[name].mean().tolist()
        assert getattr(sm, name)(run, qrels, **params)[name].tolist() == pytest.approx(want, rel=1e-12)
        return
    if METRICS[name].count:  # num_rel_ret: a sum over queries
        assert getattr(sm, name)(run, qrels, **params) == per_query[name].sum()
        return
    values = per_query[name]
    want = math.exp(values.map(math.log).mean()) if name == "gm_map" else values.mean()  # a geometric mean
    assert getattr(sm, name)(run, qrels, **params) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("name", RANKING)
def test_each_query_alone_gives_its_per_query_value(name):
    run, qrels = make_ranking_frames(n_queries=8, seed=9)
    params = required_k(name)
    per_query = getattr(sm, name)(run, qrels, per_query=True, **params)
    for q, values in per_query.groupby("query"):
        alone = getattr(sm, name)(run[run["query"] == q], qrels[qrels["query"] == q], per_query=True, **params)
        assert alone[name].tolist() == pytest.approx(values[name].tolist(), rel=1e-12, nan_ok=True)


def test_query_ids_named_like_sql_keywords_and_unicode_work():
    run = one_list([1, 0, 1]).rename(columns={"query": "用户", "item": "order", "score": "select"})
    assert sm.map(run, query="用户", item="order", score="select") == sm.map(one_list([1, 0, 1]))


# -- slices (by) of the run or of the qrels ---------------------------------------------------------

def sliced_frames():
    """A run with a column market (a query attribute) that the qrels lack."""
    run = one_list([1, 0, 1]).drop(columns="relevance").assign(market="north")
    run = pd.concat([run, one_list([0, 1], query=2).drop(columns="relevance").assign(market="south")])
    qrels = pd.DataFrame({"query": [1, 1, 2, 3], "item": ["i0", "i2", "i1", "i0"], "relevance": [1, 1, 1, 1]})
    return run, qrels


def test_a_slice_column_in_neither_the_run_nor_the_qrels_is_named_with_both():
    run, qrels = sliced_frames()
    with pytest.raises(sm.MissingColumnError, match=r"column 'region' \(by\) not found in the run .* nor in the qrels "
                                                     r".*the run's: 'query', 'item', 'score', 'market'; the qrels'"):
        sm.ndcg(run, qrels, by=["region"])


@pytest.mark.parametrize("side", ["run", "qrels"])
def test_a_slice_given_by_one_side_with_two_values_for_a_query_is_an_error(side):
    run, qrels = sliced_frames()
    if side == "qrels":
        qrels = qrels.assign(market=["north", "south", "south", "north"])  # query 1 in two markets
        run = run.drop(columns="market")
    else:
        run.loc[run["item"] == "i2", "market"] = "south"
    with pytest.raises(sm.ColumnError, match=f"column 'market' \\(by\\) of the {side} .* more than one value for "
                                             "query 1: .* one value per query"):
        sm.mean_average_precision(run, qrels, by=["market"])


def test_the_template_itself_refuses_two_slice_values_for_a_query():
    """dbt runs no checks: the query fails on such a run (with_slices' guard), as sm.render's SQL does."""
    duckdb = pytest.importorskip("duckdb")
    from sqlmetrics.target import Target
    from sqlmetrics.templates import render_macro
    run, qrels = sliced_frames()
    run.loc[run["item"] == "i2", "market"] = "south"
    columns = (("run", tuple(run.columns)), ("qrels", tuple(qrels.columns)))
    sql = render_macro("ndcg", Target(relation_columns=columns), relation="run", qrels="qrels", by=["market"])
    con = duckdb.connect()
    con.register("run", run)
    con.register("qrels", qrels)
    with pytest.raises(duckdb.Error, match="a by column taken from the run must have one value per query.*found 1"):
        con.sql(sql).fetchall()


def test_a_judged_query_absent_from_the_run_has_no_slice_of_the_run():
    run, qrels = sliced_frames()
    got = sm.ndcg(run, qrels, by=["market"], details=True)
    assert list(got["market"]) == ["north", "south"]
    assert list(got["n_queries"]) == [1, 1] and list(got["n_missing"]) == [0, 0]  # query 3: judged, in no slice


@pytest.mark.parametrize("dialect", DIALECTS)
def test_slices_given_across_sides_render_for_every_dialect(dialect):
    """sm.render cannot see the columns (its SQL takes `by` on both sides), so the golden files lack
    with_slices: here its SQL, as dbt renders it with a run-only and a qrels-only slice, is written
    for every dialect, with both its slice columns and its guard."""
    from sqlglot import exp
    from sqlmetrics.sqltext import finish
    from sqlmetrics.target import Target
    from sqlmetrics.templates import render_macro
    target = Target(dialect, relation_columns=(("r", ("query", "item", "score", "market")),
                                              ("j", ("query", "item", "relevance", "region"))))
    sql = finish(render_macro("ndcg", target, relation="r", qrels="j", by=["market", "region"]),
                 {"r": exp.to_table("run"), "j": exp.to_table("qrels")}, target)
    assert sql.count("sm_slice_query") == 4 and "one value per query" in sql
