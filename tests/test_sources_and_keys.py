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
    with pytest.raises(sm.ColumnError, match="item ids must have the same type.*is an integer.*is text"):
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


# ---------------------------------------------------------------------------------------------
# trec_eval's files, qrels under other column names, DuckDB relations, files that are not read


def test_trec_files_read_as_trec_eval_does(tmp_path):
    """trec_eval's formats (get_trec_results.c, get_qrels.c): whitespace-separated fields (tabs, runs of
    spaces), blank lines and '#' comments skipped, fields after the sixth ignored, ids as text ('007' is
    not 7). By hand: query 007 ranks d1 (score 3), d2 (2), d3 (1; rank column ignored); d1 and d3 relevant:
    P@2 = 1/2, AP = (1 + 2/3) / 2."""
    run = tmp_path / "run.txt"
    run.write_text("# a comment\n007 Q0 d2 1 2.0 tag\n\n007\tQ0\td1   9  3e0 tag and more text\n"
                   "   \n007 Q0 d3 2 1 tag\n7 Q0 d1 1 1 tag\n")
    qrels = tmp_path / "qrels"
    qrels.write_text("007 0 d1 1\n007 0 d3 2\n007 0 d2 -1\n7 0 d9 1\n")
    assert sm.precision_at_k(sm.TrecRun(run), sm.TrecQrels(qrels), k=2, per_query=True).set_index(
        "query")["precision_at_k"].to_dict() == {"007": 0.5, "7": 0.0}
    got = sm.map(sm.TrecRun(str(run)), qrels=sm.TrecQrels(str(qrels)), per_query=True).set_index("query")
    assert got.loc["007", "mean_average_precision"] == pytest.approx((1 + 2 / 3) / 2, abs=1e-12)
    # malformed lines: named by file and line, as trec_eval's "Malformed line"
    bad = tmp_path / "bad.run"
    bad.write_text("q Q0 d1 1 1.0 tag\n\nq Q0 d2 2 high tag\n")
    with pytest.raises(sm.SourceError, match=r"TREC run file '.*bad.run', line 3: 'q Q0 d2 2 high tag' is not a "
                                             r"TREC run line: it needs 6 fields .*field 5 a number"):
        sm.ndcg(sm.TrecRun(bad), sm.TrecQrels(qrels))
    short = tmp_path / "short.qrels"
    short.write_text("q 0 d1 1\nq 0 d2\n")
    with pytest.raises(sm.SourceError, match=r"short.qrels', line 2: 'q 0 d2' is not a TREC qrels line: it needs 4"):
        sm.ndcg(sm.TrecRun(run), sm.TrecQrels(short))
    # a docno twice in a query: refused (trec_eval: "duplicate docs"), naming the file
    twice = tmp_path / "twice.run"
    twice.write_text("q Q0 d1 1 1.0 t\nq Q0 d1 2 0.5 t\n")
    with pytest.raises(sm.ColumnError, match=r"TREC run file '.*twice.run' has 1 duplicated \(query, item\)"):
        sm.ndcg(sm.TrecRun(twice), sm.TrecQrels(qrels))
    with pytest.raises(sm.SourceError, match="no file"):
        sm.ndcg(sm.TrecRun(tmp_path / "absent"), sm.TrecQrels(qrels))
    # DuckDB reads them; on another engine: load them first
    with pytest.raises(sm.SourceError, match="TREC files can only be read by DuckDB, not postgres; load"):
        sm.render("ndcg", sm.TrecRun(run), qrels=sm.TrecQrels(qrels), dialect="postgres")
    with pytest.raises(sm.SourceError, match="is not on SQLite"):
        sm.ndcg(sm.TrecRun(run), con=sqlite3.connect(":memory:"))


def test_trec_files_with_carriage_returns(tmp_path):
    """trec_eval ends a line at LF only and reads a CR as whitespace: CRLF ends (or a CR among the fields)
    give the LF file's values (the test above's, by hand), a malformed line is named by its LF number
    and shown without the CR, and render's SQL reads the file itself."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels"
    run.write_bytes(b"# a comment\r\n007 Q0 d2 1 2.0 tag\r\n\r\n007\rQ0 d1 9 3e0 tag\r\n007 Q0 d3 2 1 tag\n"
                    b"7 Q0 d1 1 1 tag\r\n")
    qrels.write_bytes(b"007 0 d1 1\r\n007 0 d3 2\r\n007 0 d2 -1\r\n7 0 d9 1\r\n")
    assert sm.precision_at_k(sm.TrecRun(run), sm.TrecQrels(qrels), k=2, per_query=True).set_index(
        "query")["precision_at_k"].to_dict() == {"007": 0.5, "7": 0.0}
    got = sm.map(sm.TrecRun(run), qrels=sm.TrecQrels(qrels), per_query=True).set_index("query")
    assert got.loc["007", "mean_average_precision"] == pytest.approx((1 + 2 / 3) / 2, abs=1e-12)
    bad = tmp_path / "bad.run"
    bad.write_bytes(b"q Q0 d1 1 1.0 tag\r\n\r\nq Q0 d2 2 high tag\r\n")
    with pytest.raises(sm.SourceError, match=r"bad.run', line 3: 'q Q0 d2 2 high tag' is not a TREC run line"):
        sm.ndcg(sm.TrecRun(bad), sm.TrecQrels(qrels))
    assert repr(str(run)) in sm.render("ndcg", sm.TrecRun(run), qrels=sm.TrecQrels(qrels))


def test_qrels_with_their_own_column_names():
    """qrels_query / qrels_item / qrels_relevance: the value is that of the qrels renamed; errors name the
    qrels' own columns."""
    run, qrels = make_ranking_frames(5)
    own = qrels.rename(columns={"query": "qid", "item": "docno", "relevance": "rel"})
    names = dict(qrels_query="qid", qrels_item="docno", qrels_relevance="rel")
    for name in ("ndcg", "bpref", "judged_at_k"):
        kwargs = {"k": 5} if name == "judged_at_k" else {}
        assert getattr(sm, name)(run, own, **names, **kwargs) == getattr(sm, name)(run, qrels, **kwargs), name
    con = duckdb.connect()
    con.register("run", run)
    con.register("own", own.assign(query=-1))  # a column named like the run's, replaced by qid
    assert con.execute(sm.render("ndcg", "run", qrels="own", **names)).fetchone()[0] == pytest.approx(
        sm.ndcg(run, qrels), abs=1e-12)
    with pytest.raises(sm.MissingColumnError, match=r"column 'doc' \(qrels_item\) not found"):
        sm.ndcg(run, own, **dict(names, qrels_item="doc"))
    with pytest.raises(sm.ColumnError, match="column 'qid' is text"):
        sm.ndcg(run, own.astype({"qid": str}), **names)
    with pytest.raises(sm.ParameterError, match="qrels_query names a column of the qrels: pass qrels"):
        sm.ndcg(run.assign(relevance=1), qrels_query="qid")


def test_duckdb_relations_are_data_on_their_own_connection():
    frame = make_binary_frame(200, seed=3)
    want = roc_auc_score(frame["y"], frame["s"])
    con = duckdb.connect()
    con.register("frame", frame)
    con.execute("CREATE TABLE preds AS SELECT * FROM frame")
    assert sm.auc(con.table("preds"), label="y", score="s", con=con) == pytest.approx(want, abs=1e-12)
    assert sm.auc(con.sql("SELECT * FROM preds WHERE y IN (0, 1)"), label="y", score="s", con=con) == pytest.approx(
        want, abs=1e-12)
    # duckdb.sql(...): on DuckDB's default connection, which the call then uses
    default = duckdb.sql("SELECT 1 AS y, 0.9 AS s UNION ALL SELECT 0, 0.1 UNION ALL SELECT 0, 0.95")
    assert sm.auc(default, label="y", score="s") == 0.5
    with pytest.raises(sm.SourceError, match="the DuckDB relation was made on another connection than con="):
        sm.auc(con.table("preds"), label="y", score="s", con=duckdb.connect())
    with pytest.raises(sm.SourceError, match="the DuckDB relation was made on another connection"):
        sm.auc(con.table("preds"), label="y", score="s")


def test_a_mistyped_file_name_is_no_such_file_with_the_closest(tmp_path, monkeypatch):
    """'preds.parqet' would be read as the table parqet of a schema preds: where no such table exists and
    a file sqlmetrics reads is close to the name (or the extension to one it reads), the error says there
    is no such file, with the closest file of that directory; a table name stays a table's."""
    pd.DataFrame({"y": [0, 1], "s": [0.2, 0.8]}).to_parquet(tmp_path / "preds.parquet")
    monkeypatch.chdir(tmp_path)
    for data, sentence in (
            ("preds.parqet", "no such file 'preds.parqet', nor a table of that name; did you mean 'preds.parquet'?"),
            ("scores.jsn", "no such file 'scores.jsn', nor a table of that name: it reads Parquet (.parquet)"),
            ("prds.parquet", "no file matches 'prds.parquet'; did you mean 'preds.parquet'?"),
            (f"{tmp_path}/preds.parqet",
             f"no such file '{tmp_path}/preds.parqet'; did you mean '{tmp_path}/preds.parquet'?"),
            ("preds", "table 'preds' does not exist (Catalog Error")):
        with pytest.raises(sm.SourceError) as raised:
            sm.auc(data, label="y", score="s")
        assert str(raised.value).startswith(sentence), str(raised.value)


def test_files_that_are_not_data(tmp_path):
    db = tmp_path / "wh.duckdb"
    duckdb.connect(str(db)).execute("CREATE TABLE t AS SELECT 1 AS y, 0.5 AS s").close()
    unnamed = tmp_path / "warehouse"
    unnamed.write_bytes(db.read_bytes())  # known by its header
    for path in (db, unnamed):
        with pytest.raises(sm.SourceError, match=r"is a DuckDB database file, not a table: open it with "
                                                 r"con=duckdb.connect\("):
            sm.auc(str(path), label="y", score="s")
    csv = tmp_path / "bc.parq"
    csv.write_text("y,s\n1,0.5\n")
    for data in (str(csv), csv, "no/such/file"):
        with pytest.raises(sm.SourceError, match=r"is not a file sqlmetrics reads: it reads Parquet \(.parquet\), "
                                                 r"CSV \(.csv, .tsv\)"):
            sm.auc(data, label="y", score="s")
    # a numeric column read as text: the values that made it so, and how to read them as NULL
    na = tmp_path / "na.csv"
    na.write_text("y,s\n1,0.5\n0,NA\n1,0.2\n0,n/a\n0,NA\n0,0.1\n")
    with pytest.raises(sm.ColumnError, match=r"has type VARCHAR: text such as 'NA', 'n/a' made it text; if these "
                                             r"mean missing, read the file with them as NULL: sqlmetrics.Query") as e:
        sm.auc(str(na), label="y", score="s")
    query = str(e.value).split("sqlmetrics.Query(")[1][1:-2]
    # the advice works: the two NA rows are NULL, dropped; AUC of (1, .5), (1, .2), (0, .1)
    with pytest.warns(UserWarning, match="dropped 3 of 6 rows"):
        assert sm.auc(sm.Query(query), label="y", score="s", dropna=True) == 1.0
