"""What a source holds can never change a result silently: columns the metric does not use, two
columns of one name, keys of different types in a run and its judgments. And every mistake in a
parameter is a ValueError subclass naming it; an undefined value is NaN on every engine.
"""
import math
import sqlite3

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from sklearn.metrics import roc_auc_score

import sqlmetrics as sm
from conftest import make_binary_frame, make_ranking_frames

BINARY = make_binary_frame(n=200, seed=3)
RUN, QRELS = make_ranking_frames(n_queries=12, seed=4)


# -- columns the metric does not use ----------------------------------------------------------------

#: names of intermediate columns of the templates, as extra data columns holding garbage
INTERNAL = ["sm_bucket", "sm_pos", "sm_w", "sm_y", "sm_s", "sm_rank", "sm_item", "sm_value", "sm_gain"]
CALLS = [
    ("score_histogram", dict(label="y", score="s", bins=4)),
    ("auc", dict(label="y", score="s")),
    ("auc", dict(label="y", score="s2")),  # continuous scores: the rank plan
    ("gauc", dict(label="y", score="s", group="g")),
    ("roc_curve", dict(label="y", score="s", weight="w")),
    ("log_loss", dict(label="y", score="s")),
    ("r2", dict(target="t", prediction="p")),
]


@pytest.mark.parametrize("metric, params", CALLS, ids=[c[0] for c in CALLS])
def test_extra_columns_named_like_ours_change_nothing(metric, params):
    noisy = BINARY.assign(**{c: np.arange(len(BINARY)) * 7.5 for c in INTERNAL})
    got = getattr(sm, metric)(noisy, details=metric not in ("score_histogram", "roc_curve"), **params)
    want = getattr(sm, metric)(BINARY, details=metric not in ("score_histogram", "roc_curve"), **params)
    pd.testing.assert_frame_equal(got, want)


def test_extra_columns_named_like_ours_change_nothing_in_ranking():
    run = RUN.assign(**{c: 3 for c in INTERNAL})
    qrels = QRELS.assign(**{c: "x" for c in INTERNAL})
    for metric in ("ndcg", "mean_average_precision", "precision_at_k"):
        # equal up to the order DuckDB's threads add the per-query values in
        assert getattr(sm, metric)(run, qrels, k=5) == pytest.approx(getattr(sm, metric)(RUN, QRELS, k=5), rel=1e-12)


# -- two columns of one name ---------------------------------------------------------------------

def test_two_columns_of_one_name_are_refused():
    frame = pd.DataFrame([[1, 0.5, 0.2], [0, 0.1, 0.9]], columns=["y", "s", "s"])
    with pytest.raises(sm.SourceError, match="more than one column named 's'"):
        sm.auc(frame, label="y", score="s")
    with pytest.raises(sm.SourceError, match="more than one column named"):
        sm.auc(pa.table([[1, 0], [0.5, 0.1], [0.2, 0.9]], names=["y", "s", "S"]), label="y", score="s")
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 0.5, 0.2), (0, 0.1, 0.9)) v(y, s, s2)")
    with pytest.raises(sm.ColumnError, match="more than one column named 's'"):
        sm.auc(sm.Query("SELECT t.*, s2 AS s FROM t"), label="y", score="s", con=con)
    # a duplicated column the metric does not read is harmless
    assert sm.auc(sm.Query("SELECT t.*, s AS s2 FROM t"), label="y", score="s", con=con) == 1.0
    lite = sqlite3.connect(":memory:")
    lite.execute("CREATE TABLE t (y INTEGER, s REAL, s2 REAL)")
    lite.execute("INSERT INTO t VALUES (1, 0.5, 0.2), (0, 0.1, 0.9)")
    with pytest.raises(sm.ColumnError, match="more than one column named 's'"):
        sm.auc(sm.Query("SELECT t.*, s2 AS s FROM t"), label="y", score="s", con=lite)


# -- keys of different types in a run and its judgments ------------------------------------------

def precision_at_3(run: pd.DataFrame, qrels: pd.DataFrame) -> float:
    """P@3 of one query from the definition (items compared as they are, no coercion)."""
    top = run.sort_values("score", ascending=False)["item"].head(3).tolist()
    relevant = set(qrels.loc[qrels.relevance > 0, "item"])
    return sum(i in relevant for i in top) / 3


def test_item_ids_of_different_types_are_refused():
    run = pd.DataFrame({"query": 1, "item": [1, 2, 3], "score": [3.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query": 1, "item": ["1", "01", "001"], "relevance": [1, 1, 1]})
    with pytest.raises(sm.ColumnError, match="item ids must have the same type.*is a number.*is text"):
        sm.precision_at_k(run, qrels, k=3)
    # the same ids as text on both sides: compared exactly, '01' is not '1'
    as_text = run.assign(item=run["item"].astype(str))
    assert sm.precision_at_k(as_text, qrels, k=3) == precision_at_3(as_text, qrels) == pytest.approx(1 / 3)


def test_query_ids_of_different_types_are_refused():
    run = pd.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query": ["1", "1"], "item": ["a", "b"], "relevance": [1, 0]})
    with pytest.raises(sm.ColumnError, match="query ids must have the same type"):
        sm.ndcg(run, qrels, per_query=True)


def test_by_columns_are_keys_each_of_its_own():
    run = RUN.assign(day=RUN["query"] % 2)
    qrels = QRELS.assign(day=QRELS["query"] % 2)
    sliced = sm.ndcg(run, qrels, k=5, by=["c", "day"])  # text and integer slices: each matches itself
    assert len(sliced) == 4
    with pytest.raises(sm.ColumnError, match="the 'day' values must have the same type"):
        sm.ndcg(run, qrels.assign(day=qrels["day"].astype(str)), k=5, by=["c", "day"])


def test_catalogue_and_similarity_ids_must_match_the_run():
    run = pd.DataFrame({"query": 1, "item": ["1", "2"], "score": [2.0, 1.0]})
    with pytest.raises(sm.ColumnError, match="item ids must have the same type"):
        sm.coverage(run, items=pd.DataFrame({"item": [1, 2, 3]}))
    similarity = pd.DataFrame({"item_a": [1], "item_b": [2], "similarity": [0.5]})
    with pytest.raises(sm.ColumnError, match="item ids must have the same type"):
        sm.ils(run, similarity)


def test_key_types_of_sqlite_tables():
    lite = sqlite3.connect(":memory:")
    lite.execute("CREATE TABLE run (query INTEGER, item INTEGER, score REAL)")
    lite.execute("CREATE TABLE qrels (query INTEGER, item TEXT, relevance INTEGER)")
    lite.executemany("INSERT INTO run VALUES (1, ?, ?)", [(1, 3.0), (2, 2.0), (3, 1.0)])
    lite.executemany("INSERT INTO qrels VALUES (1, ?, 1)", [("1",), ("01",), ("001",)])
    with pytest.raises(sm.ColumnError, match="item ids must have the same type"):
        sm.precision_at_k("run", "qrels", k=3, con=lite)


# -- parameters: every mistake is a ValueError subclass naming it ---------------------------------

@pytest.mark.parametrize("call, match", [
    (lambda: sm.precision(BINARY, label="y", score="s", by=["c\x00d"]), "NUL"),
    (lambda: sm.precision(BINARY, label="y", score="s", threshold=10 ** 400), "beyond the range of a float"),
    (lambda: sm.ndcg(RUN, QRELS, k=10 ** 30), "below 2\\^63"),
    (lambda: sm.ndcg(RUN, QRELS, ties=pd.NA), "ties must be one of"),
    (lambda: sm.ndcg(RUN, QRELS, ties=["average"]), "ties must be one of"),
])
def test_parameter_mistakes_are_value_errors(call, match):
    with pytest.raises(sm.ParameterError, match=match):
        call()


def test_closed_duckdb_connection_is_a_source_error():
    con = duckdb.connect()
    con.close()
    with pytest.raises(sm.SourceError, match="cannot be used.*closed"):
        sm.auc(BINARY, label="y", score="s", con=con)


def test_file_with_glob_characters_in_its_name(tmp_path):
    path = tmp_path / "data[1].csv"
    BINARY[["y", "s"]].to_csv(path, index=False)
    assert sm.auc(str(path), label="y", score="s") == pytest.approx(roc_auc_score(BINARY.y, BINARY.s), rel=1e-12)


# -- an undefined value is NaN on every engine ----------------------------------------------------

def test_undefined_is_nan_with_the_same_types_everywhere():
    one_class = pd.DataFrame({"y": [1, 1], "s": [0.5, 0.4]})
    lite = sqlite3.connect(":memory:")
    one_class.to_sql("t", lite, index=False)
    duck = sm.auc(one_class, label="y", score="s", details=True)
    lite_result = sm.auc("t", label="y", score="s", con=lite, details=True)
    for result in (duck, lite_result):
        assert math.isnan(result["auc"].iloc[0]) and result["auc"].dtype == np.float64
        assert result["n"].iloc[0] == 2
    assert dict(duck.dtypes) == dict(lite_result.dtypes)


# -- relations that are each valid but inconsistent together ------------------------------------

def test_coverage_and_ils_refuse_an_inconsistent_catalogue_or_similarity():
    run = pd.DataFrame({"query": [1, 1, 1, 2], "item": ["a", "b", "c", "d"], "score": [3.0, 2.0, 1.0, 1.0]})
    with pytest.raises(sm.ParameterError, match="n_items=2 is below the 4 distinct items"):
        sm.coverage(run, n_items=2)
    with pytest.raises(sm.ColumnError, match="2 items of the run are not in the catalogue.*e.g. 'c'"):
        sm.coverage(run, items=pd.DataFrame({"item": ["a", "b"]}))
    assert sm.coverage(run, n_items=10) == 0.4  # 4 distinct items of a catalogue of 10
    conflicting = pd.DataFrame({"item_a": ["a", "b"], "item_b": ["b", "a"], "similarity": [0.5, 0.7]})
    with pytest.raises(sm.ColumnError, match=r"pair \('a', 'b'\) two different similarities"):
        sm.ils(run, conflicting)
    repeated = pd.DataFrame({"item_a": ["a", "b"], "item_b": ["b", "a"], "similarity": [0.5, 0.5]})
    assert sm.ils(run, repeated, k=2) == 0.5  # query 1's top 2 is (a, b); query 2 has one item
