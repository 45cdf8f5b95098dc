"""The command line never prints a traceback: strict JSON whatever the numbers, every input error an
error with its exit code, Ctrl-C, closed pipes, files that cannot be read or written."""
import errno
import io
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import roc_auc_score

from conftest import SQLMETRICS_COMMAND
import sqlmetrics as sm
from sqlmetrics.demo import SAMPLE
from sqlmetrics.cli import main
from sqlmetrics.registry import METRICS

EXE = SQLMETRICS_COMMAND
pytestmark = pytest.mark.skipif(EXE is None, reason="the sqlmetrics entry point is not installed (pip install -e .)")
COLS = ["--label", "y", "--score", "s"]
CURVES = [name for name, m in METRICS.items() if m.kind == "curve"]
LINUX = sys.platform.startswith("linux")


def cli(*args, ok=None, **kwargs):
    done = subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, timeout=300, **kwargs)
    if ok is not None:
        assert done.returncode == ok, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr
    return done


def strict_json(text: str):
    """RFC 8259 JSON only: Python's json would otherwise accept bare NaN and Infinity."""
    def refuse(constant):
        raise AssertionError(f"not JSON: bare {constant}")
    return json.loads(text, parse_constant=refuse)


def number(value) -> float:
    """A number as the output documents it: "Infinity"/"-Infinity" strings, null for NaN."""
    return {None: math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(value, value)


def one_error_line(done, code, *fragments):
    assert done.returncode == code, (done.returncode, done.stdout[-1000:], done.stderr[-1000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sqlmetrics: error: "), done.stderr
    assert all(f in lines[0] for f in fragments), (lines[0], fragments)
    return lines[0]


# -- values that are not finite: JSON, CSV and table ---------------------------------------------

@pytest.fixture(scope="module")
def infinite_scores(tmp_path_factory):
    """Scores with +inf and -inf (allowed: they only order rows) and ties."""
    y = [1, 0, 1, 0, 1, 0, 1, 0, 0, 1]
    s = [math.inf, 0.3, 0.7, -math.inf, 0.3, 0.9, math.inf, 0.1, 0.3, 0.9]
    path = tmp_path_factory.mktemp("inf") / "scores.parquet"
    pd.DataFrame({"y": y, "s": s}).to_parquet(path)
    return path, y, s


@pytest.fixture(scope="module")
def probabilities(tmp_path_factory):
    rng = np.random.default_rng(3)
    y = (rng.random(300) < 0.4).astype(int)
    s = np.clip(0.3 * y + rng.random(300) * 0.7, 0, 1).round(3)
    path = tmp_path_factory.mktemp("prob") / "probs.parquet"
    pd.DataFrame({"y": y, "s": s}).to_parquet(path)
    return path, y, s


def curve_reference(name, y, s):
    """From the definitions: a first row at threshold +inf (nothing predicted positive), then one per
    distinct score, descending; positive iff score >= threshold."""
    y, s = np.asarray(y), np.asarray(s, dtype=float)
    pos, neg = y.sum(), len(y) - y.sum()
    rows = []
    for t in [math.inf] + sorted(set(s), reverse=True):
        tp = int(((s >= t) & (y == 1)).sum()) if rows else 0
        fp = int(((s >= t) & (y == 0)).sum()) if rows else 0
        if name == "roc_curve":
            rows.append({"threshold": t, "fpr": fp / neg, "tpr": tp / pos, "tp": tp, "fp": fp,
                         "tn": neg - fp, "fn": pos - tp})
        else:
            rows.append({"threshold": t, "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / pos,
                         "tp": tp, "fp": fp})
    return pd.DataFrame(rows)


def check_frame(got: pd.DataFrame, expected: pd.DataFrame):
    assert list(got.columns) == list(expected.columns)
    for column in expected.columns:
        np.testing.assert_allclose(got[column].astype(float), expected[column].astype(float), rtol=1e-12)


@pytest.mark.parametrize("name", ["roc_curve", "pr_curve"])
def test_curves_with_infinite_thresholds_in_every_format(name, infinite_scores):
    path, y, s = infinite_scores
    expected = curve_reference(name, y, s)
    assert np.isinf(expected["threshold"]).sum() == 3  # the +inf start, the +inf score, the -inf score
    document = strict_json(cli("compute", name, path, *COLS, "--format", "json", ok=0).stdout)
    assert document["rows"][0]["threshold"] == "Infinity" and document["rows"][-1]["threshold"] == "-Infinity"
    check_frame(pd.DataFrame([{k: number(v) for k, v in row.items()} for row in document["rows"]]), expected)
    csv = cli("compute", name, path, *COLS, "--format", "csv", ok=0).stdout
    assert csv.splitlines()[1].startswith("Infinity,") and csv.splitlines()[-1].startswith("-Infinity,")
    check_frame(pd.read_csv(io.StringIO(csv)), expected)  # pandas reads the words back
    table = cli("compute", name, path, *COLS, ok=0).stdout.splitlines()
    assert [line.split()[0] for line in table[1:]] == ["Infinity", "Infinity", "0.9", "0.7", "0.3", "0.1",
                                                       "-Infinity"]


def test_calibration_curve_and_score_histogram_are_strict_json(probabilities):
    path, y, s = probabilities
    rows = strict_json(cli("compute", "calibration_curve", path, *COLS, "--format", "json", ok=0).stdout)["rows"]
    prob_true, prob_pred = calibration_curve(y, s, n_bins=5)
    np.testing.assert_allclose([r["fraction_positive"] for r in rows], prob_true, rtol=1e-12)
    np.testing.assert_allclose([r["mean_predicted"] for r in rows], prob_pred, rtol=1e-12)
    rows = strict_json(cli("compute", "score_histogram", path, *COLS, "--bins", "10", "--format", "json",
                           ok=0).stdout)["rows"]
    counts = np.bincount(np.clip(np.floor(s * 10).astype(int), 0, 9), minlength=10)
    assert {r["bucket"]: r["n"] for r in rows if r["n"]} == {b: n for b, n in enumerate(counts) if n}


def test_det_gain_and_lift_curves_are_strict_json(infinite_scores, probabilities):
    """The same frames as the Python API (itself checked against sklearn and kds), +-inf included."""
    for (path, y, s), name in ((infinite_scores, "det_curve"), (probabilities, "gain_curve"),
                               (probabilities, "lift_curve")):
        rows = strict_json(cli("compute", name, path, *COLS, "--format", "json", ok=0).stdout)["rows"]
        expected = getattr(sm, name)(pd.DataFrame({"y": y, "s": s}), label="y", score="s")
        check_frame(pd.DataFrame([{k: number(v) for k, v in row.items()} for row in rows]), expected)
    assert rows and number(strict_json(cli("compute", "det_curve", infinite_scores[0], *COLS, "--format", "json",
                                           ok=0).stdout)["rows"][-1]["threshold"]) == math.inf


def test_class_tables_are_strict_json(tmp_path):
    path = tmp_path / "classes.csv"
    pd.DataFrame({"y": ["a", "a", "b", "c"], "p": ["a", "b", "b", "b"]}).to_csv(path, index=False)
    columns = ["--label", "y", "--prediction", "p", "--format", "json"]
    report = strict_json(cli("compute", "classification_report", path, *columns, ok=0).stdout)["rows"]
    assert [r["class"] for r in report] == ["a", "b", "c", None, None, None]
    assert [r["average"] for r in report] == [None, None, None, "micro", "macro", "weighted"]
    assert report[2]["precision"] is None and report[2]["recall"] == 0  # c is never predicted: 0/0
    matrix = strict_json(cli("compute", "multiclass_confusion_matrix", path, *columns, ok=0).stdout)["rows"]
    assert [(r["true_class"], r["predicted_class"], r["n"]) for r in matrix] == [
        ("a", "a", 1), ("a", "b", 1), ("b", "b", 1), ("c", "b", 1)]


def test_interpolated_precision_takes_its_levels_and_is_strict_json(tmp_path):
    """--recall-levels takes a list; query 1 has hits at ranks 1, 3, 5 of R = 3, query 2 at rank 2 of
    R = 1 (by hand: levels 0, 0.5, 1 ask for 0, 2, 3 hits of query 1, and 0, 1, 1 of query 2)."""
    path = tmp_path / "run.csv"
    pd.DataFrame({"query": [1] * 6 + [2] * 3, "item": list("abcdefabc"), "score": [6, 5, 4, 3, 2, 1, 3, 2, 1],
                  "relevance": [1, 0, 1, 0, 1, 0, 0, 1, 0]}).to_csv(path, index=False)
    rows = strict_json(cli("compute", "interpolated_precision", path, "--recall-levels", "0", "0.5", "1",
                           "--format", "json", ok=0).stdout)["rows"]
    assert [(r["recall_level"], r["interpolated_precision"]) for r in rows] == [
        (0, 0.75), (0.5, pytest.approx((2 / 3 + 1 / 2) / 2)), (1, pytest.approx((3 / 5 + 1 / 2) / 2))]
    one_error_line(cli("compute", "interpolated_precision", path, "--recall-levels", "0.5", "1.5"), 2,
                   "--recall-levels must be <= 1")


def test_uplift_and_survival_curves_are_strict_json(tmp_path):
    """The same frames as the Python API (itself checked against scikit-uplift and scikit-survival):
    the uplift curves start at a threshold of +inf."""
    rng = np.random.default_rng(4)
    df = pd.DataFrame({"y": rng.integers(0, 2, 300), "treated": rng.integers(0, 2, 300),
                       "u": rng.integers(0, 20, 300) / 20, "days": rng.integers(1, 60, 300).astype(float),
                       "churned": rng.integers(0, 2, 300)})
    path = tmp_path / "experiment.parquet"
    df.to_parquet(path)
    calls = {"uplift_curve": dict(label="y", treatment="treated", score="u"),
             "qini_curve": dict(label="y", treatment="treated", score="u"),
             "treatment_balance_curve": dict(treatment="treated", score="u", winsize=50),
             "cumulative_dynamic_auc": dict(duration="days", event="churned", score="u", times=[10.0, 30.0])}
    for name, params in calls.items():
        flags = [str(v) for k, value in params.items()
                 for v in ([f"--{k}"] + (value if isinstance(value, list) else [value]))]
        rows = strict_json(cli("compute", name, path, *flags, "--format", "json", ok=0).stdout)["rows"]
        expected = getattr(sm, name)(df, **params)
        check_frame(pd.DataFrame([{k: number(v) for k, v in row.items()} for row in rows]), expected)
        if name in ("uplift_curve", "qini_curve"):
            assert rows[0]["threshold"] == "Infinity"


def test_drift_statistics_are_strict_json(tmp_path):
    """Two windows (--current, a file), weighted: the rank tests are null, the rest the Python API's; a
    category only the current window has makes chi-square +inf ("Infinity"); drift_bins' categories are
    text."""
    rng = np.random.default_rng(6)
    windows = [pd.DataFrame({"a": rng.normal(shift, 1, 300).round(1), "w": rng.random(300),
                             "g": rng.choice(["x", "y"] + (["z"] if shift else []), 300)}) for shift in (0, 0.5)]
    for name, frame in zip(("reference.csv", "current.csv"), windows):
        frame.to_csv(tmp_path / name, index=False)
    read = [str(tmp_path / "reference.csv"), "--current", str(tmp_path / "current.csv"), "--columns", "a",
            "--categorical", "g", "--format", "json"]
    rows = strict_json(cli("compute", "drift_statistics", *read, "--weight", "w", ok=0).stdout)["rows"]
    assert rows[0]["mannwhitney_u"] is None and rows[0]["cramervonmises"] is None
    expected = sm.drift_statistics(windows[0], current=windows[1], columns=["a"], categorical=["g"], weight="w")
    check_frame(pd.DataFrame([{k: number(v) for k, v in row.items()} for row in rows]), expected)
    assert strict_json(cli("compute", "drift_statistics", *read, ok=0).stdout)["rows"][1]["chisquare"] == "Infinity"
    rows = strict_json(cli("compute", "drift_bins", *read, ok=0).stdout)["rows"]
    expected = sm.drift_bins(windows[0], current=windows[1], columns=["a"], categorical=["g"])
    assert [r["category"] for r in rows] == expected["category"].tolist() and rows[-1]["category"] == "z"
    check_frame(pd.DataFrame([{k: number(v) for k, v in row.items()} for row in rows]).drop(columns="category"),
                expected.drop(columns="category"))


def test_every_curve_metric_is_covered():
    assert set(CURVES) == {"roc_curve", "pr_curve", "calibration_curve", "score_histogram", "det_curve",
                           "gain_curve", "lift_curve", "classification_report", "multiclass_confusion_matrix",
                           "interpolated_precision", "uplift_curve", "qini_curve", "treatment_balance_curve",
                           "cumulative_dynamic_auc", "drift_statistics", "drift_bins"}


@pytest.fixture(scope="module")
def overflowing(tmp_path_factory):
    """Finite numbers whose squared errors overflow: mse = +inf, r2 = -inf."""
    t, p = np.array([0.0, 1.0, 2.0]), np.array([1e200, -1e200, 2.0])
    path = tmp_path_factory.mktemp("big") / "regression.parquet"
    pd.DataFrame({"t": t, "p": p}).to_parquet(path)
    with np.errstate(over="ignore"):
        squares = (t - p) ** 2
        return path, {"mse": squares.mean(), "r2": 1 - squares.sum() / ((t - t.mean()) ** 2).sum()}


@pytest.mark.parametrize("name, word", [("mse", "Infinity"), ("r2", "-Infinity")])
def test_an_infinite_value_in_every_format(name, word, overflowing):
    path, reference = overflowing
    assert math.isinf(reference[name]) and (word == "Infinity") == (reference[name] > 0)
    args = (name, path, "--target", "t", "--prediction", "p")
    document = strict_json(cli("compute", *args, "--format", "json", ok=0).stdout)
    assert document["value"] == word and document["rows"] == [{name: word}]
    assert number(document["value"]) == reference[name]
    assert cli("compute", *args, "--format", "csv", ok=0).stdout.splitlines() == [name, word]
    assert cli("compute", *args, ok=0).stdout.split()[-1] == word
    details = strict_json(cli("compute", *args, "--details", "--format", "json", ok=0).stdout)
    assert details["rows"] == [{name: word, "n": 3}]
    failed = cli("compute", *args, "--min", "0", "--max", "1", ok=1)
    assert f"check failed: {name} = {word}" in failed.stderr


def test_a_class_or_average_that_does_not_apply_is_a_dash_not_nan(tmp_path):
    """classification_report's class rows have no average and its average rows no class: a table shows
    — there (NaN is an undefined number: c's precision, never predicted); JSON keeps null."""
    path = tmp_path / "classes.csv"
    pd.DataFrame({"y": ["a", "b", "c", "a"], "p": ["a", "b", "b", "a"]}).to_csv(path, index=False)
    lines = cli("compute", "classification_report", path, "--label", "y", "--prediction", "p", ok=0).stdout.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["class", "average", "precision"], ["a", "—", "1"], ["b", "—", "0.5"], ["c", "—", "NaN"],
        ["—", "micro", "0.75"], ["—", "macro", "NaN"], ["—", "weighted", "NaN"]]
    rows = strict_json(cli("compute", "classification_report", path, "--label", "y", "--prediction", "p",
                           "--format", "json", ok=0).stdout)["rows"]
    assert rows[0]["average"] is None and rows[3]["class"] is None


def test_undefined_values_are_null_in_json_and_nan_in_csv_and_tables(tmp_path):
    path = tmp_path / "slices.csv"
    frame = pd.DataFrame({"g": ["a"] * 4 + ["b"] * 3, "y": [0, 1, 0, 1, 1, 1, 1], "s": [.1, .8, .4, .3, .2, .9, .5]})
    frame.to_csv(path, index=False)
    expected_a = roc_auc_score(frame.y[:4], frame.s[:4])
    rows = strict_json(cli("compute", "auc", path, *COLS, "--by", "g", "--format", "json", ok=0).stdout)["rows"]
    assert rows[0]["auc"] == pytest.approx(expected_a, rel=1e-12)
    assert rows[1]["g"] == "b" and rows[1]["auc"] is None and rows[1]["n_neg"] == 0  # one class: undefined
    csv = cli("compute", "auc", path, *COLS, "--by", "g", "--format", "csv", ok=0).stdout.splitlines()
    assert csv[0].startswith("g,auc,") and float(csv[1].split(",")[1]) == pytest.approx(expected_a, rel=1e-12)
    assert csv[2].split(",")[:2] == ["b", "NaN"]
    assert cli("compute", "auc", path, *COLS, "--by", "g", ok=0).stdout.splitlines()[2].split()[1] == "NaN"
    one_class = tmp_path / "b.csv"
    frame[frame.g == "b"].to_csv(one_class, index=False)
    details = strict_json(cli("compute", "auc", one_class, *COLS, "--details", "--format", "json", ok=0).stdout)
    assert details["rows"][0]["auc"] is None and details["rows"][0]["n_pos"] == 3


def test_list_and_show_of_every_metric_are_strict_json(capsys):
    assert main(["list", "--format", "json"]) == 0
    assert [m["metric"] for m in strict_json(capsys.readouterr().out)["metrics"]] == list(METRICS)
    for name in METRICS:
        assert main(["show", name, "--format", "json"]) == 0
        shown = strict_json(capsys.readouterr().out)
        assert shown["metric"] == name and [p["name"] for p in shown["parameters"]] == [
            p.name for p in METRICS[name].params]


def test_report_is_strict_json_with_skipped_metrics(tmp_path):
    path = tmp_path / "one_class.csv"
    pd.DataFrame({"y": [1, 1, 1], "s": [0.2, 0.7, 0.9]}).to_csv(path, index=False)
    report = strict_json(cli("report", path, *COLS, "--format", "json", ok=0).stdout)
    skipped = {s["metric"]: s["reason"] for s in report["skipped"]}
    assert skipped["auc"].startswith("undefined:") and "gini" in skipped  # one class: undefined, not an error
    values = {m["metric"]: m["value"] for m in report["metrics"]}
    assert values["brier_score"] == pytest.approx(np.mean((np.array([0.2, 0.7, 0.9]) - 1) ** 2), rel=1e-12)
    assert "skipped: undefined" in cli("report", path, *COLS, ok=0).stdout


@pytest.mark.skipif(not (shutil.which("node") and shutil.which("jq")), reason="needs node and jq on PATH")
def test_javascript_and_jq_read_the_json(infinite_scores):
    path, _, _ = infinite_scores
    text = cli("compute", "roc_curve", path, *COLS, "--format", "json", ok=0).stdout
    script = ("const d = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "console.log(Number(d.rows[0].threshold), Number(d.rows[d.rows.length - 1].threshold))")
    node = subprocess.run(["node", "-e", script], input=text, capture_output=True, text=True, timeout=60)
    assert node.returncode == 0 and node.stdout.split() == ["Infinity", "-Infinity"], node.stderr
    jq = subprocess.run(["jq", "-c", "[.rows[0].threshold, .rows[-1].threshold, (.rows[-1].threshold | tonumber < 0)]"],
                        input=text, capture_output=True, text=True, timeout=60)
    assert jq.returncode == 0 and jq.stdout.strip() == '["Infinity","-Infinity",true]', jq.stderr


# -- report: every input error is an error ---------------------------------------------------------

@pytest.fixture
def ranking(tmp_path):
    run = pd.DataFrame({"qid": [1, 1, 2, 2], "item": list("abab"), "score": [2, 1, 2, 1]})
    run.to_parquet(tmp_path / "run.parquet")
    run.assign(item=list("abaa"), relevance=[1, 0, 1, 0]).to_parquet(tmp_path / "dup.parquet")
    pd.DataFrame({"qid": pd.Series([], dtype="int64"), "item": pd.Series([], dtype="str"),
                  "relevance": pd.Series([], dtype="int64")}).to_parquet(tmp_path / "no_judgments.parquet")
    return tmp_path


@pytest.mark.parametrize("args, code, fragment", [
    (("run.parquet", "--query", "qid", "--qrels", "missing.csv"), 2, "no file matches"),
    (("run.parquet", "--query", "qid"), 2, "column 'relevance' (relevance) not found"),
    (("run.parquet", "--query", "quid", "--qrels", "dup.parquet"), 2, "'quid'"),
    (("dup.parquet", "--query", "qid"), 1, "duplicated (qid, item)"),
    (("run.parquet", "--query", "qid", "--qrels", "run.parquet"), 2, "column 'relevance'"),
    (("run.parquet", "--label", "y"), 2, "--label needs --score"),
    (("run.parquet", "--query", "qid", "--group", "g"), 2, "--group applies to the classification metrics"),
    (("run.parquet", "--label", "y", "--score", "score", "--qrels", "q.csv"), 2, "--qrels applies to the ranking"),
    (("run.parquet", "--query", "qid", "--qrels", "no_judgments.parquet", "--plot", "roc.png"), 2,
     "--plot roc needs --label and --score"),
])
def test_report_input_errors_are_errors_not_skipped_metrics(ranking, args, code, fragment):
    done = cli("report", *args, cwd=ranking)
    one_error_line(done, code, fragment)
    assert done.stdout == ""  # no report at all, not a report of skipped metrics


def test_a_run_without_judgments_names_qrels(ranking, capsys):
    """A ranking metric on a run without its relevance column and no qrels: the judgments are missing,
    so the error names --qrels (qrels= in Python) and --relevance, not only the column."""
    advice = "the run has no judgments: pass {} (the judgments: query, item, relevance), or {} the run's column of them."
    with pytest.raises(sm.MissingColumnError) as raised:
        sm.ndcg(ranking / "run.parquet", query="qid")
    assert str(raised.value) == (f"column 'relevance' (relevance) not found in '{ranking / 'run.parquet'}'; "
                                 f"{advice.format('qrels=', 'relevance=')} Its columns: 'qid', 'item', 'score'")
    assert main(["compute", "ndcg", str(ranking / "run.parquet"), "--query", "qid"]) == 2
    assert advice.format("--qrels", "--relevance") in capsys.readouterr().err


def test_report_skips_only_what_is_undefined_on_the_data(ranking):
    report = strict_json(cli("report", "run.parquet", "--query", "qid", "--qrels", "no_judgments.parquet",
                             "--format", "json", cwd=ranking, ok=0).stdout)
    assert report["metrics"] == [] and len(report["skipped"]) == 6
    assert all(s["reason"].startswith("undefined: no evaluated query has a relevant item") for s in report["skipped"])


# -- DuckDB database files ---------------------------------------------------------------------------

def test_a_mistyped_file_name_says_no_such_file(tmp_path):
    """On the command line as in Python: no such file, nor a table, and the closest file."""
    pd.DataFrame({"y": [0, 1], "s": [0.2, 0.8]}).to_parquet(tmp_path / "preds.parquet")
    one_error_line(cli("compute", "auc", "preds.parqet", *COLS, cwd=tmp_path), 2,
                   "sqlmetrics: error: no such file 'preds.parqet', nor a table of that name; did you mean "
                   "'preds.parquet'?")


def test_a_locked_database_and_a_file_that_is_not_one(tmp_path):
    db = tmp_path / "wh.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; con = duckdb.connect(sys.argv[1]); "
         "con.execute('CREATE TABLE t AS SELECT i % 2 AS y, (i * 37 % 101) / 101 AS s FROM range(50) r(i)'); "
         "print('ready', flush=True); sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        done = cli("compute", "auc", "--database", db, "--table", "t", *COLS)
        one_error_line(done, 2, f"cannot open the DuckDB database '{db}'", "another process has it open for writing")
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    frame = pd.DataFrame({"y": np.arange(50) % 2, "s": (np.arange(50) * 37 % 101) / 101})
    value = float(cli("compute", "auc", "--database", db, "--table", "t", *COLS, ok=0).stdout.split()[-1])
    assert value == pytest.approx(roc_auc_score(frame.y, frame.s), rel=1e-5)  # the lock was the only problem
    (tmp_path / "notes.duckdb").write_text("not a database\n")
    one_error_line(cli("compute", "auc", "--database", tmp_path / "notes.duckdb", "--table", "t", *COLS), 2,
                   "is not a DuckDB database file")
    one_error_line(cli("report", "--database", tmp_path / "notes.duckdb", "--table", "t", *COLS), 2,
                   "is not a DuckDB database file")


def test_unreadable_input_files(tmp_path):
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 this is not parquet")
    one_error_line(cli("compute", "auc", tmp_path / "broken.parquet", *COLS), 2, "cannot use", "broken.parquet")
    (tmp_path / "folder.csv").mkdir()
    one_error_line(cli("compute", "auc", tmp_path / "folder.csv", *COLS), 2, "folder.csv")


# -- options checked before anything is computed ---------------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    (("roc_curve", SAMPLE, "--label", "clicked", "--score", "pctr", "--max", "1"), "roc_curve here gives a curve"),
    (("confusion_matrix", SAMPLE, "--label", "clicked", "--score", "pctr", "--min", "1"), "several values"),
    (("roc_curve", SAMPLE, "--label", "clicked", "--score", "pctr", "--by", "country", "--plot", "roc.png"),
     "--plot draws one curve, not one per --by slice"),
    (("roc_curve", SAMPLE, "--label", "clicked", "--score", "pctr", "--plot", "plot.jpg"),
     "must end in .png, .svg, .pdf"),
])
def test_option_mistakes_stop_before_computing(tmp_path, args, fragment):
    done = cli("compute", *args, cwd=tmp_path)
    one_error_line(done, 2, fragment)
    assert done.stdout == "" and list(tmp_path.iterdir()) == []


def test_min_and_max_with_details_check_the_value():
    expected = roc_auc_score(*pd.read_csv(SAMPLE)[["clicked", "pctr"]].T.values)
    args = ("compute", "auc", SAMPLE, "--label", "clicked", "--score", "pctr", "--details")
    assert cli(*args, "--min", f"{expected - 1e-6}", ok=0).stderr == ""
    failed = cli(*args, "--min", f"{expected + 1e-6}", ok=1)
    assert failed.stderr.strip() == f"sqlmetrics: check failed: auc = {expected:.6g}, expected >= {expected + 1e-6}"


def test_warnings_are_one_line_in_the_words_of_the_command_line(tmp_path):
    path = tmp_path / "nulls.csv"
    path.write_text("y,s\n1,0.3\n0,\n0,0.1\n1,0.8\n0,0.2\n")
    done = cli("compute", "auc", path, *COLS, "--dropna", ok=0)
    assert done.stderr == "sqlmetrics: warning: --dropna dropped 1 of 5 rows of " f"'{path}' with NULL in 'y', 's'\n"
    assert float(done.stdout.split()[-1]) == pytest.approx(roc_auc_score([1, 0, 1, 0], [0.3, 0.1, 0.8, 0.2]))
    one_error_line(cli("compute", "auc", path, *COLS), 1, "1 NULL value", "pass --dropna to drop such rows")


def test_errors_give_advice_in_flags_not_python(tmp_path):
    """No message reaching the command line says how to call Python (dropna=True, sqlmetrics.Query,
    zero_division=0, n_bins): it names the flags, and --where where Python would write a query."""
    pd.DataFrame({"y": [0, 0, 1], "p": [0, 0, 0], "n": ["a", "b", "a"], "s": [0.1, 0.2, 0.3]}).to_csv(
        tmp_path / "d.csv", index=False)
    pd.DataFrame({"query": [1], "item": ["a"], "score": [1.0]}).to_csv(tmp_path / "run.csv", index=False)
    pd.DataFrame({"query": [1], "item": [1], "relevance": [1]}).to_csv(tmp_path / "qrels.csv", index=False)
    (tmp_path / "wh.duckdb").unlink(missing_ok=True)
    duckdb.connect(str(tmp_path / "wh.duckdb")).close()
    cases = [
        (("precision", "d.csv", "--label", "y", "--prediction", "p", "--average", "macro"), 1,
         "pass --zero-division 0 or 1", "--zero-division nan to leave it out"),
        (("precision", "d.csv", *COLS, "--average", "macro"), 2, "with --average macro compares classes",
         "as --prediction instead of --score", "use --average binary"),
        (("auc", "d.csv", *COLS, "--by", "n"), 2, "rename it in the data (e.g. a view in a --database file)"),
        (("auc", "--database", "wh.duckdb", "--table", "a b", *COLS), 2, "and select rows with --where"),
        (("ndcg", "run.csv", "--qrels", "qrels.csv"), 1, "e.g. CAST(item AS VARCHAR) in a view of a --database file"),
        (("ece", "d.csv", *COLS, "--n-bins", "0"), 2, "--n-bins must be >= 1"),
        (("auc", "d.csv", *COLS, "--by", "n", "--by", "n"), 2, "--by lists a column twice"),
        (("rbp", "run.csv", "--qrels", "qrels.csv", "--relevance-threshold", "2"), 2,
         "--relevance-threshold 2.0 does not apply when --graded", "pass --graded False for it to apply"),
    ]
    for args, code, *fragments in cases:
        line = one_error_line(cli("compute", *args, cwd=tmp_path), code, *fragments)
        assert not any(word in line for word in ("sqlmetrics.Query", "=True", "zero_division", "n_bins")), line


def test_labels_that_are_not_0_1_name_average_and_pos_label_as_flags(tmp_path, capsys):
    """Classes given to a metric of 0/1 labels name --average and its choices; two text labels
    --pos-label with each; accuracy takes classes as they are (sklearn's accuracy_score). A CSV's text
    classes are no numbers read as text (no --na-values advice)."""
    classes = tmp_path / "classes.csv"
    pd.DataFrame({"y": ["ant", "bee", "cat", "ant"], "p": ["ant", "bee", "bee", "ant"]}).to_csv(classes, index=False)
    yes = tmp_path / "yes.parquet"  # a CSV reader makes a yes/no column boolean, Parquet keeps the text
    pd.DataFrame({"y": ["yes", "no", "yes", "no"], "p": ["yes", "no", "no", "no"]}).to_parquet(yes)
    columns = ["--label", "y", "--prediction", "p"]
    assert main(["compute", "f1", str(classes), *columns]) == 1
    assert capsys.readouterr().err == (
        "sqlmetrics: error: --label must be 0/1 (or boolean); column 'y' (label) holds more than two values, e.g. "
        "'ant', 'bee', 'cat' (VARCHAR): for classes pass --average macro, --average micro, --average weighted or "
        "--average none\n")
    assert main(["compute", "recall", str(yes), *columns]) == 1
    assert capsys.readouterr().err == (
        "sqlmetrics: error: --label must be 0/1 (or boolean); column 'y' (label) holds 'no', 'yes' (VARCHAR): say "
        "which label is positive: --pos-label no or --pos-label yes\n")
    assert main(["compute", "recall", str(yes), *columns, "--pos-label", "yes", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 0.5
    for path in (classes, yes):
        assert main(["compute", "accuracy", str(path), *columns, "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["value"] == 0.75


def test_yes_no_labels_of_a_score_metric_name_pos_label(tmp_path, capsys):
    """auc from a score, on text labels yes/no: the error names --pos-label with each value (pos_label=
    in Python), not only the column's type; a CSV's yes/no is read as boolean, yes the positive."""
    frame = pd.DataFrame({"y": ["yes", "no", "yes", "no"], "s": [0.9, 0.2, 0.4, 0.5]})
    frame.to_parquet(tmp_path / "yes.parquet")
    frame.to_csv(tmp_path / "yes.csv", index=False)
    assert main(["compute", "auc", str(tmp_path / "yes.parquet"), *COLS]) == 1
    assert capsys.readouterr().err == (
        "sqlmetrics: error: --label must be 0/1 (or boolean); column 'y' (label) holds 'no', 'yes' (VARCHAR): say "
        "which label is positive: --pos-label no or --pos-label yes\n")
    with pytest.raises(sm.ColumnError, match="say which label is positive: pos_label='no' or pos_label='yes'"):
        sm.auc(frame, label="y", score="s")
    for path, positive in ((tmp_path / "yes.parquet", ["--pos-label", "yes"]), (tmp_path / "yes.csv", [])):
        assert main(["compute", "auc", str(path), *COLS, *positive, "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["value"] == 0.75


def test_a_treatment_or_event_not_0_1_names_its_flag_not_pos_label(tmp_path, capsys):
    """pos_label applies to the label only: a treatment or an event of two other values is to be mapped
    to 0/1, which the command line says in its own words; a training set's column is --train's."""
    path = tmp_path / "experiment.parquet"
    pd.DataFrame({"y": [1, 0, 1, 0], "arm": ["treated", "control", "control", "treated"], "u": [0.9, 0.2, 0.4, 0.5],
                  "days": [3.0, 5.0, 8.0, 9.0], "status": [2, 1, 2, 2]}).to_parquet(path)
    map_first = "map its values to 0/1 first, in the data (e.g. a view in a --database file)\n"
    assert main(["compute", "qini_auc", str(path), "--label", "y", "--treatment", "arm", "--score", "u"]) == 1
    assert capsys.readouterr().err == (
        "sqlmetrics: error: --treatment must be 0/1 (or boolean); column 'arm' (treatment) holds 'control', "
        "'treated' (VARCHAR): " + map_first)
    assert main(["compute", "concordance_index", str(path), "--duration", "days", "--event", "status",
                 "--score", "u"]) == 1
    assert capsys.readouterr().err == (
        "sqlmetrics: error: --event must be 0/1 (or boolean); column 'status' (event) holds 1, 2 (BIGINT): "
        + map_first)
    # a training set's column, named as --train's
    train = tmp_path / "train.parquet"
    pd.DataFrame({"days": [4.0, -1.0, 6.0], "y": [1, 0, 1]}).to_parquet(train)
    assert main(["compute", "concordance_index_ipcw", str(path), "--duration", "days", "--event", "y",
                 "--score", "u", "--train", str(train)]) == 1
    assert capsys.readouterr().err == (
        f"sqlmetrics: error: --duration must be >= 0 (a time since the start of follow-up); column 'days' (duration) "
        f"of {str(train)!r} given as --train has 1 negative value, e.g. -1.0\n")


# -- plots -------------------------------------------------------------------------------------------

def test_plot_destinations_that_cannot_be_written(tmp_path):
    (tmp_path / "a_file").write_text("")
    for target, fragment in ((tmp_path / "a_file" / "roc.png", "is a file, not a directory"),
                             (tmp_path, "the file must end in .png, .svg, .pdf")):
        done = cli("compute", "roc_curve", SAMPLE, "--label", "clicked", "--score", "pctr", "--plot", target)
        one_error_line(done, 2, fragment)
        assert done.stdout == ""  # refused before computing
    (tmp_path / "dir.png").mkdir()
    done = cli("report", SAMPLE, "--label", "clicked", "--score", "pctr", "--plot", f"roc={tmp_path / 'dir.png'}")
    one_error_line(done, 2, "is a directory")
    assert done.stdout == ""
    nested = tmp_path / "new" / "dir" / "roc.png"  # missing directories are made
    cli("compute", "roc_curve", SAMPLE, "--label", "clicked", "--score", "pctr", "--plot", nested, ok=0)
    assert nested.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_plot_that_fails_to_write_leaves_nothing(tmp_path, monkeypatch, capsys):
    from matplotlib.figure import Figure

    def full_disk(self, fname, **kwargs):
        with open(fname, "wb") as f:
            f.write(b"\x89PNG half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(Figure, "savefig", full_disk)
    code = main(["compute", "roc_curve", str(SAMPLE), "--label", "clicked", "--score", "pctr",
                 "--plot", str(tmp_path / "roc.png")])
    err = capsys.readouterr().err
    assert code == 2 and err == (f"sqlmetrics: error: --plot '{tmp_path / 'roc.png'}' cannot be written: "
                                 "No space left on device\n")
    assert list(tmp_path.iterdir()) == []


# -- the output ------------------------------------------------------------------------------------

def run_with_closed_stdout(*args):
    """As `sqlmetrics ... | head -c 0`: the reader has gone before anything is written."""
    proc = subprocess.Popen([EXE, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    err = proc.stderr.read()
    return proc.wait(timeout=300), err


def test_a_reader_that_leaves_is_not_an_error(tmp_path):
    assert run_with_closed_stdout("list") == (0, "")
    assert run_with_closed_stdout("show", "ndcg") == (0, "")
    assert run_with_closed_stdout("compute", "auc", SAMPLE, "--label", "clicked", "--score", "pctr",
                                  "--min", "0.5") == (0, "")
    code, err = run_with_closed_stdout("compute", "auc", SAMPLE, "--label", "clicked", "--score", "pctr",
                                       "--min", "0.9")
    assert code == 1 and err.startswith("sqlmetrics: check failed: auc = 0.76") and err.count("\n") == 1
    # as `| head -1` on a curve far larger than the pipe's buffer
    path = tmp_path / "many.parquet"
    rng = np.random.default_rng(1)
    pd.DataFrame({"y": rng.integers(0, 2, 200_000), "s": rng.random(200_000)}).to_parquet(path)
    proc = subprocess.Popen([EXE, "compute", "roc_curve", str(path), *COLS, "--format", "csv"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "threshold,fpr,tpr,tp,fp,tn,fn\n"
    proc.stdout.close()
    assert proc.stderr.read() == "" and proc.wait(timeout=300) == 0


def test_plots_are_written_before_the_output_a_reader_may_leave(tmp_path):
    """`compute ... --plot pp.png --format csv | head -1`: the plot is written whenever the reader leaves."""
    png = b"\x89PNG\r\n\x1a\n"
    cols = ("--label", "clicked", "--score", "pctr")
    for command in (("compute", "pr_curve", SAMPLE, *cols, "--plot", tmp_path / "pp.png"),
                    ("report", SAMPLE, *cols, "--plot", tmp_path / "pr.png")):
        code, err = run_with_closed_stdout(*command, "--format", "csv")
        assert code == 0 and err == f"wrote {command[-1]}\n" and command[-1].read_bytes()[:8] == png
        command[-1].unlink()
        proc = subprocess.Popen([EXE, *map(str, command), "--format", "csv"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        proc.stdout.readline()  # as | head -1
        proc.stdout.close()
        assert proc.wait(timeout=300) == 0 and command[-1].read_bytes()[:8] == png


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_output_that_cannot_be_written():
    with open("/dev/full", "w") as full:
        done = subprocess.run([EXE, "list"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "sqlmetrics: error: cannot write the output: No space left on device\n"


def test_an_unexpected_exception_is_one_line(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise TypeError("something inside went wrong\nsecond line")
    monkeypatch.setattr(sm, "auc", broken)
    assert main(["compute", "auc", str(SAMPLE), "--label", "clicked", "--score", "pctr"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        "sqlmetrics: error: unexpected TypeError: something inside went wrong (a bug in sqlmetrics: please report "
        "it with the command line)\n")


# -- Ctrl-C ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def slow_input(tmp_path_factory):
    """20M rows: AUC takes 6-12 s uninterrupted on 2 shared cores (the sort alone several seconds)."""
    path = tmp_path_factory.mktemp("slow") / "preds.parquet"
    with duckdb.connect() as con:
        con.execute(f"COPY (SELECT (hash(i) % 20 = 0)::INT AS y, hash(i * 7) % 1000003 / 1000003.0 AS s "
                    f"FROM range(20000000) r(i)) TO '{path}'")
    return path


def reading(pid: int, path) -> bool:
    fds = f"/proc/{pid}/fd"
    for fd in os.listdir(fds):
        try:
            if os.readlink(os.path.join(fds, fd)) == os.path.realpath(path):
                return True
        except OSError:  # closed meanwhile
            pass
    return False


def interrupt_when(proc, started, settle: float = 0.5) -> float:
    """SIGINT once `started()` (then `settle` seconds into the computation); the seconds the process
    took to end after it."""
    deadline = time.monotonic() + 120
    while not started():
        assert proc.poll() is None, "the command ended before it was interrupted"
        assert time.monotonic() < deadline, "the computation never started"
        time.sleep(0.02)
    time.sleep(settle)
    assert proc.poll() is None, "the command ended before it was interrupted"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    return time.monotonic() - sent


@pytest.mark.skipif(not LINUX, reason="watches /proc/PID/fd to see the query start (Linux)")
def test_ctrl_c_stops_a_long_computation_at_once(slow_input):
    proc = subprocess.Popen([sys.executable, "-m", "sqlmetrics", "compute", "auc", str(slow_input), *COLS],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = [], []
    readers = [threading.Thread(target=lambda s=s, b=b: b.append(s.read())) for s, b in
               ((proc.stdout, out), (proc.stderr, err))]
    for r in readers:
        r.start()
    took = interrupt_when(proc, lambda: reading(proc.pid, slow_input))
    for r in readers:
        r.join()
    assert proc.returncode == 130 and err == ["sqlmetrics: error: interrupted\n"] and out == [""]
    assert took < 5, f"{took:.1f} s from Ctrl-C to the end: the query was not interrupted"


def read_terminal(master: int):
    """What a program draws on the terminal `master`, gathered by a thread until it closes."""
    screen = bytearray()

    def read():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the other end closed
                return
            if not chunk:
                return
            screen.extend(chunk)
    reader = threading.Thread(target=read)
    reader.start()
    return screen, reader


def test_ctrl_c_on_a_terminal_clears_the_spinner(slow_input):
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    proc = subprocess.Popen([EXE, "compute", "auc", str(slow_input), *COLS], stdout=subprocess.PIPE,
                            stderr=slave, text=True)
    os.close(slave)
    screen, reader = read_terminal(master)
    took = interrupt_when(proc, lambda: b"computing auc" in screen)
    reader.join(timeout=30)
    os.close(master)
    text = screen.decode()
    assert proc.returncode == 130 and proc.stdout.read() == "" and "Traceback" not in text
    assert text.rstrip().endswith("\rsqlmetrics: error: interrupted"), text[-300:]  # the spinner line erased
    assert took < 5, f"{took:.1f} s from Ctrl-C to the end"


def test_report_progress_counts_its_metrics_on_a_terminal(slow_input):
    """On a terminal the report shows `i/N step (elapsed)`: N the steps it plans (one: its classification
    metrics are one statement)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    proc = subprocess.Popen([EXE, "report", str(slow_input), *COLS], stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    screen, reader = read_terminal(master)
    interrupt_when(proc, lambda: b"1/1 the classification metrics (" in screen, settle=0)
    reader.join(timeout=30)
    os.close(master)
    assert proc.returncode == 130 and re.search(r"1/1 the classification metrics \(\d+\.\ds\)", screen.decode()), \
        screen.decode()[-300:]


def test_report_runs_the_steps_it_counts(tmp_path):
    """N of `i/N` is what the report runs: with GAUC, and with raw scores (no probability metrics)."""
    from sqlmetrics.engine import own_connection
    from sqlmetrics.report import ReportSpec, build_report, n_steps
    frame = pd.read_csv(SAMPLE).assign(logit=lambda f: np.log(f.pctr / (1 - f.pctr)))
    calls = []
    with own_connection() as con:
        for spec in (ReportSpec("sample", label="clicked", score="pctr", group="user_id"),
                     ReportSpec("sample", label="clicked", score="logit")):
            report = build_report(frame, con, spec)
            calls.append((report.steps.done, report.steps.total, n_steps(spec)))
    assert calls == [(1, 1, 1), (1, 1, 1)]  # the classification metrics: one statement, with raw scores too


def run_interrupted(code: str, marker: str):
    """Run `code` in Python, SIGINT it once it printed `marker` on stderr; (exit code, stderr after)."""
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    assert line.strip() == marker, line + proc.stderr.read()
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    proc.stdout.read()
    return proc.wait(timeout=120), rest


def test_ctrl_c_while_the_worker_thread_starts_still_stops_its_query(monkeypatch):
    """Ctrl-C can land while Thread.start() waits for the new thread, its query already running:
    the query must still be interrupted and the worker ended before run() lets the connection go
    (closed under a running query, DuckDB refuses, then aborts the process at exit)."""
    from sqlmetrics import progress
    con = duckdb.connect()
    running, start = threading.Event(), threading.Thread.start

    def start_then_ctrl_c(self):
        start(self)
        running.wait(5)
        raise KeyboardInterrupt

    def endless():
        running.set()
        con.execute("SELECT SUM(i % 7) FROM range(1000000000000) r(i)").fetchall()

    monkeypatch.setattr(threading.Thread, "start", start_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        progress.run("endless", endless, interrupt=con.interrupt)
    assert not [t for t in threading.enumerate() if t.name == "sqlmetrics endless"]
    con.close()  # no query left running on it


def test_ctrl_c_in_the_demo():
    # the demo's first computation (its report's metrics) replaced by a query that would run for hours
    code = ("import sys, sqlmetrics.report\n"
            "def endless(calls, data, *, con, **kwargs):\n"
            "    print('started', file=sys.stderr, flush=True)\n"
            "    con.execute('SELECT SUM(i % 7) FROM range(1000000000000) r(i)').fetchall()\n"
            "sqlmetrics.report.compute_many = endless\n"
            "from sqlmetrics.cli import main\n"
            "sys.exit(main(['demo']))\n")
    assert run_interrupted(code, "started") == (130, "sqlmetrics: error: interrupted\n")


def test_ctrl_c_while_saving_a_plot_leaves_no_file(tmp_path):
    code = ("import sys, time\n"
            "from matplotlib.figure import Figure\n"
            "def slow(self, fname, **kwargs):\n"
            "    open(fname, 'wb').write(b'\\x89PNG half')\n"
            "    print('saving', file=sys.stderr, flush=True)\n"
            "    time.sleep(120)\n"
            "Figure.savefig = slow\n"
            "from sqlmetrics.cli import main\n"
            f"sys.exit(main(['report', {str(SAMPLE)!r}, '--label', 'clicked', '--score', 'pctr', "
            f"'--plot', {str(tmp_path / 'roc.png')!r}]))\n")
    assert run_interrupted(code, "saving") == (130, "sqlmetrics: error: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_trec_files_and_inputs_that_are_not_data(tmp_path):
    """trec:PATH reads trec_eval's files (trec_eval 10's own test files: ndcg_cut_10 0.3016, map 0.1785 in
    out.test.aq); a DuckDB database or an unread extension as SOURCE, and a CSV's NA text, say what to do."""
    data = os.path.join(os.path.dirname(__file__), "data", "trec_eval")
    run, qrels = f"trec:{data}/results.test", f"trec:{data}/qrels.test"
    done = cli("compute", "ndcg", run, "--qrels", qrels, "--k", "10", "--gain", "linear", "--format", "json", ok=0)
    assert round(json.loads(done.stdout)["value"], 4) == 0.3016
    done = cli("compare", "mean_average_precision", run, "--other", run, "--qrels", qrels, "--format", "json", ok=0)
    assert round(json.loads(done.stdout)["rows"][0]["estimate"], 4) == 0.1785
    # the qrels under other column names
    pd.DataFrame({"qid": ["q", "q"], "docno": ["a", "b"], "rel": [0, 1]}).to_csv(tmp_path / "qrels.csv", index=False)
    pd.DataFrame({"query": ["q", "q"], "item": ["a", "b"], "score": [2, 1]}).to_csv(tmp_path / "run.csv", index=False)
    done = cli("compute", "mrr", tmp_path / "run.csv", "--qrels", tmp_path / "qrels.csv", "--qrels-query", "qid",
               "--qrels-item", "docno", "--qrels-relevance", "rel", "--format", "json", ok=0)
    assert json.loads(done.stdout)["value"] == 0.5
    db = tmp_path / "wh.duckdb"
    duckdb.connect(str(db)).execute("CREATE TABLE t AS SELECT 1 AS y, 0.5 AS s").close()
    assert cli("compute", "auc", db, *COLS, ok=2).stderr.strip() == (
        f"sqlmetrics: error: SOURCE '{db}' is a DuckDB database file: pass --database {db} --table NAME")
    (tmp_path / "bc.parq").write_text("y,s\n1,0.5\n")
    err = cli("compute", "auc", tmp_path / "bc.parq", *COLS, ok=2).stderr
    assert "is not a file sqlmetrics reads: it reads Parquet (.parquet)" in err and "as trec:PATH" in err, err
    (tmp_path / "na.csv").write_text("y,s\n1,0.5\n0,NA\n1,0.2\n0,0.3\n0,0.1\n")
    err = cli("compute", "auc", tmp_path / "na.csv", *COLS, ok=1).stderr
    assert err.strip().endswith("text such as 'NA' made it text; if these mean missing, pass --na-values NA"), err
    # the advice works: rows (0, NA) dropped, AUC of the four others
    done = cli("compute", "auc", tmp_path / "na.csv", *COLS, "--na-values", "NA", "--dropna", "--format", "json", ok=0)
    assert json.loads(done.stdout)["value"] == roc_auc_score([1, 1, 0, 0], [0.5, 0.2, 0.3, 0.1])
    # --na-values adds to the empty field, which stays missing (it was replaced: an empty id became a group)
    (tmp_path / "both.csv").write_text("y,s,u\n1,0.5,a\n0,NA,a\n1,0.2,\n0,0.3,b\n0,,b\n1,0.9,b\n")
    done = cli("compute", "gauc", tmp_path / "both.csv", *COLS, "--group", "u", "--na-values", "NA", "--dropna",
               "--format", "json", ok=0)
    assert "dropped 3 of 6 rows" in done.stderr and json.loads(done.stdout)["value"] == 1.0
    assert "an empty field is a missing value already" in cli(
        "compute", "auc", tmp_path / "both.csv", *COLS, "--na-values", "", "--na-values", "NA", "--dropna", ok=0).stderr
    assert "--na-values applies to a CSV file" in cli("compute", "ndcg", run, "--na-values", "NA", ok=2).stderr
