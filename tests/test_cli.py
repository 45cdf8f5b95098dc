"""The `sqlmetrics` command, run as a user runs it: the installed entry point, in a subprocess."""
import io
import json
import math
import struct
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
import sqlglot
from sklearn.metrics import roc_auc_score

from conftest import SQLMETRICS_COMMAND
import sqlmetrics as sm
from sqlmetrics.demo import SAMPLE
from sqlmetrics.registry import METRICS

EXE = SQLMETRICS_COMMAND
pytestmark = pytest.mark.skipif(EXE is None, reason="the sqlmetrics entry point is not installed (pip install -e .)")
COLS = ["--label", "clicked", "--score", "pctr"]


def cli(*args, ok=None):
    done = subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, timeout=120)
    if ok is not None:
        assert done.returncode == ok, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    return done


def test_help_version_and_no_command():
    assert "compute" in cli("--help", ok=0).stdout
    assert cli("--version", ok=0).stdout.strip() == f"sqlmetrics {sm.__version__}"
    assert "usage" in cli(ok=2).stderr
    for command in ("list", "show", "report", "demo"):
        assert "exit codes" in cli(command, "--help", ok=0).stdout
    assert ".png, .svg, .pdf" in cli("report", "--help", ok=0).stdout
    assert ".png, .svg, .pdf" in cli("compute", "roc_curve", "--help", ok=0).stdout
    helped = " ".join(cli("compare", "recall_at_k", "--help", ok=0).stdout.split())  # in flags, not Python
    assert "--k none" in helped and "a Parquet/CSV/JSON file, or a table of --database" in helped
    assert "sqlmetrics.Query" not in helped and "k=None" not in helped
    for command in ("render", "compute"):
        assert "--label" in cli(command, "auc", "--help", ok=0).stdout
        assert "--k" in cli(command, "ndcg", "--help", ok=0).stdout
    for command in ("render", "compute", "compare"):  # no metric yet: the command's own help, exit 0
        for flag in ("--help", "-h"):
            done = cli(command, flag, ok=0)
            assert f"sqlmetrics {command} METRIC SOURCE" in done.stdout and "ndcg" in done.stdout, done.stdout
            assert done.stderr == ""


def test_list_in_every_format():
    listing = json.loads(cli("list", "--format", "json", ok=0).stdout)
    assert [m["metric"] for m in listing["metrics"]] == list(METRICS)
    assert all(set(m) == {"metric", "kind", "description"} for m in listing["metrics"])
    assert "ndcg" in cli("list", ok=0).stdout
    csv = cli("list", "--format", "csv", ok=0).stdout.splitlines()
    assert csv[0] == "metric,kind,description" and len(csv) == len(METRICS) + 1


def test_show_describes_a_metric():
    shown = json.loads(cli("show", "gauc", "--format", "json", ok=0).stdout)
    assert shown["metric"] == "gauc" and shown["reference"] == METRICS["gauc"].reference
    assert {p["name"] for p in shown["parameters"]} >= {"label", "score", "group", "weighting"}
    assert "Reference:" in cli("show", "map", ok=0).stdout  # aliases work


def test_show_speaks_in_flags():
    """show's summary, formula and parameters name the command line's options (as --help does), not the
    Python parameters: --details, --bins N, --class; the reference stays the other library's call."""
    shown = cli("show", "auc", ok=0).stdout
    assert "--details gives error_bound" in shown and "With --bins N, AUC of the bucketed scores" in shown
    assert "details=True" not in shown and "bins=N" not in shown
    assert "Output columns: auc, n, n_pos, n_neg, error_bound (error_bound only with --bins)" in shown
    assert "Reference: sklearn.metrics.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)" in shown
    document = json.loads(cli("show", "auc", "--format", "json", ok=0).stdout)
    bins = next(p for p in document["parameters"] if p["name"] == "bins")
    assert "--details gives error_bound" in bins["description"] and "--bins N" in document["formula"]
    assert "\n  --class " in cli("show", "multiclass_auc", ok=0).stdout  # class_, a Python keyword


def test_unknown_metric_suggests_the_closest_name():
    done = cli("compute", "ndgc", SAMPLE, ok=2)
    assert done.stdout == "" and "unknown metric 'ndgc'; did you mean 'ndcg'?" in done.stderr
    assert "did you mean 'auc'" in cli("show", "aucc", ok=2).stderr


def test_render_for_a_dialect():
    sql = cli("render", "auc", "analytics.preds", *COLS, "--dialect", "snowflake", "--pretty", ok=0).stdout
    assert len(sqlglot.parse(sql, read="snowflake")) == 1 and sql.count("\n") > 10
    assert "\n" not in cli("render", "ndcg", "run", "--k", "10", ok=0).stdout.strip()
    assert "dialect must be one of" in cli("render", "auc", "t", *COLS, "--dialect", "oracle", ok=2).stderr
    assert "render needs SOURCE" in cli("render", "auc", *COLS, ok=2).stderr
    # a BigQuery table path, and no sqlglot warning about NULL ordering on stderr
    done = cli("render", "auc", "my-project.dataset.table", *COLS, "--by", "country", "--dialect", "bigquery", ok=0)
    assert done.stderr == "" and "FROM `my-project`.dataset.table" in done.stdout


def test_compute_matches_the_python_api_in_every_format():
    expected = sm.auc(str(SAMPLE), label="clicked", score="pctr")
    table = cli("compute", "auc", SAMPLE, *COLS, ok=0)
    assert table.stderr == "", "no progress noise when stderr is not a terminal"
    assert float(table.stdout.split()[-1]) == pytest.approx(expected, rel=1e-5)
    document = json.loads(cli("compute", "auc", SAMPLE, *COLS, "--format", "json", ok=0).stdout)
    assert document == {"metric": "auc", "rows": [{"auc": expected}], "value": expected}
    details = cli("compute", "auc", SAMPLE, *COLS, "--details", "--format", "csv", ok=0).stdout.splitlines()
    assert details[0] == "auc,n,n_pos,n_neg" and float(details[1].split(",")[0]) == expected


def test_auc_has_an_error_bound_only_with_bins():
    """error_bound bounds the error of bins: an exact AUC, by slice or with --details, has no such column."""
    by = cli("compute", "auc", SAMPLE, *COLS, "--by", "country", ok=0).stdout.splitlines()
    assert by[0].split() == ["country", "auc", "n", "n_pos", "n_neg"]
    binned = json.loads(cli("compute", "auc", SAMPLE, *COLS, "--by", "country", "--bins", "50", "--format", "json",
                            ok=0).stdout)["rows"]
    assert all(0 < row["error_bound"] < 0.5 for row in binned)
    assert "error_bound" not in sm.auc(str(SAMPLE), label="clicked", score="pctr", details=True)


def test_compute_by_slices_and_per_query(tmp_path):
    rows = json.loads(cli("compute", "auc", SAMPLE, *COLS, "--by", "country", "--format", "json", ok=0).stdout)["rows"]
    assert [r["country"] for r in rows] == ["BR", "DE", "JP"] and set(rows[0]) == {"country", "auc", "n", "n_pos", "n_neg"}
    run = pd.DataFrame({"query": [1, 1, 2, 2], "item": list("abab"), "score": [2, 1, 2, 1], "relevance": [0, 1, 1, 0]})
    run.to_parquet(tmp_path / "run.parquet")
    per_query = json.loads(cli("compute", "mrr", tmp_path / "run.parquet", "--per-query", "--format", "json",
                               ok=0).stdout)["rows"]
    assert per_query == [{"query": 1, "mrr": 0.5, "n_relevant": 1}, {"query": 2, "mrr": 1.0, "n_relevant": 1}]


def test_min_and_max_checks_set_the_exit_code():
    assert cli("compute", "auc", SAMPLE, *COLS, "--min", "0.7", ok=0).stderr == ""
    failed = cli("compute", "auc", SAMPLE, *COLS, "--min", "0.9", ok=1)
    assert "check failed: auc = 0.76" in failed.stderr and "expected >= 0.9" in failed.stderr
    assert cli("compute", "log_loss", SAMPLE, *COLS, "--max", "0.1", ok=1).stdout  # value still printed


def test_min_and_max_check_every_slice(tmp_path):
    """With --by (or --per-query), every slice (query) is checked: exit 1 naming those that fail (an
    undefined one fails)."""
    frame = pd.read_csv(SAMPLE)
    auc = {c: roc_auc_score(g.clicked, g.pctr) for c, g in frame.groupby("country")}
    low, high = sorted(auc.values())[0], sorted(auc.values())[-1]
    by = ("compute", "auc", SAMPLE, *COLS, "--by", "country")
    assert cli(*by, "--min", low - 1e-6, "--max", high + 1e-6, ok=0).stderr == ""
    failed = cli(*by, "--min", low + 1e-6, ok=1)
    worst = min(auc, key=auc.get)
    assert failed.stderr == (f"sqlmetrics: check failed: auc expected >= {low + 1e-6}; 1 of 3 slices fail: "
                             f"country={worst!r}: {low:.6g}\n")
    assert len(failed.stdout.strip().splitlines()) == 4  # the values are still printed
    one_class = cli(*by, "--min", 0, "--where", "country <> 'JP' OR clicked = 1", ok=1)
    assert "1 of 3 slices fail: country='JP': NaN" in one_class.stderr
    # reciprocal ranks by hand: qid 1 finds its relevant item second (0.5), qid 2 first (1)
    pd.DataFrame({"qid": [1, 1, 2, 2], "item": list("abab"), "score": [2, 1, 2, 1],
                  "relevance": [0, 1, 1, 0]}).to_parquet(tmp_path / "run.parquet")
    per_query = ("compute", "mrr", tmp_path / "run.parquet", "--query", "qid", "--per-query")
    assert cli(*per_query, "--min", 0.5, ok=0).stderr == ""
    assert cli(*per_query, "--min", 0.9, ok=1).stderr.endswith("1 of 2 queries fail: qid=1: 0.5\n")


@pytest.mark.parametrize("args, code, message", [
    (("compute", "auc", "missing.parquet", *COLS), 2, "no file matches 'missing.parquet'"),
    (("compute", "auc", SAMPLE, "--label", "clickd", "--score", "pctr"), 2, "did you mean 'clicked'?"),
    (("compute", "auc", SAMPLE, "--label", "clicked"), 2, "--score"),
    (("compute", "precision", SAMPLE, *COLS, "--threshold", "abc"), 2, "invalid float value"),
    (("compute", "f_beta", SAMPLE, *COLS, "--beta", "0"), 2, "beta must be > 0"),
    (("compute", "auc", SAMPLE, "--label", "country", "--score", "pctr"), 1, "label must be 0/1"),
    (("compute", "auc", SAMPLE, *COLS, "--bogus", "1"), 2, "unrecognized arguments: --bogus"),
    (("compute", "auc", "--table", "t", *COLS), 2, "--table needs --database"),
    (("compute", "auc", SAMPLE, "--label", "clicked"), 2, "(see: sqlmetrics compute auc --help)"),
    (("list", "--bogus"), 2, "unrecognized arguments: --bogus (see: sqlmetrics list --help)"),
    (("report", "--k", "ten"), 2, "invalid int value: 'ten' (see: sqlmetrics report --help)"),
    (("compute",), 2, "compute needs METRIC and SOURCE"),
    (("nope",), 2, "invalid choice: 'nope'"),
])
def test_errors_are_one_sentence_on_stderr_with_the_right_exit_code(args, code, message):
    """One line, argparse's usage errors included (no usage block): where the help is, not all of it."""
    done = cli(*args, ok=code)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("sqlmetrics: error:") and message in lines[0], lines[0]


def test_undefined_metric_exits_1(tmp_path):
    path = tmp_path / "one_class.csv"
    pd.DataFrame({"clicked": [1, 1], "pctr": [0.2, 0.3]}).to_csv(path, index=False)
    assert "auc is undefined" in cli("compute", "auc", path, *COLS, ok=1).stderr


def test_compute_on_a_table_of_a_duckdb_database_file(tmp_path):
    db = tmp_path / "wh.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(f"CREATE TABLE preds AS SELECT * FROM read_csv('{SAMPLE}')")
    value = json.loads(cli("compute", "gauc", "--database", db, "--table", "preds", *COLS, "--group", "user_id",
                           "--format", "json", ok=0).stdout)["value"]
    assert value == pytest.approx(sm.gauc(str(SAMPLE), label="clicked", score="pctr", group="user_id"), rel=1e-12)
    assert "does not exist" in cli("compute", "auc", "--database", db, "--table", "nope", *COLS, ok=2).stderr
    assert "no DuckDB database file" in cli("compute", "auc", "--database", tmp_path / "x.duckdb", "--table", "t",
                                            *COLS, ok=2).stderr


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_report_classification_with_plots(tmp_path):
    plots = [f"--plot={tmp_path / 'roc.png'}", f"--plot=pr={tmp_path / 'curve.png'}",
             f"--plot={tmp_path / 'model_calibration.png'}"]
    done = cli("report", SAMPLE, *COLS, "--group", "user_id", "--format", "json", *plots, ok=0)
    report = json.loads(done.stdout)
    assert set(report) == {"source", "counts", "metrics", "skipped"}
    values = {m["metric"]: m["value"] for m in report["metrics"]}
    assert values["auc"] == pytest.approx(sm.auc(str(SAMPLE), label="clicked", score="pctr"), rel=1e-12)
    assert {"gauc", "log_loss", "brier_score", "precision", "f1"} <= set(values)
    gauc = next(m for m in report["metrics"] if m["metric"] == "gauc")
    assert gauc["counts"]["n_groups_excluded"] > 0 and "excluded" in gauc["based_on"]
    for name in ("roc.png", "curve.png", "model_calibration.png"):
        width, height = png_size(tmp_path / name)
        assert 400 <= width <= 2000 and 400 <= height <= 2000
        assert (tmp_path / name).stat().st_size > 10_000  # a drawn curve, not an empty canvas


MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".svg": b"<?xml"}


def test_report_of_several_scores_side_by_side_from_a_database_with_plots(tmp_path):
    """--score a --score b: a value column per score, a report per score in JSON, every score on each
    plot (its format by extension); from --database, whose connection the plots still use."""
    db = tmp_path / "wh.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(f"CREATE TABLE preds AS SELECT * FROM read_csv('{SAMPLE}')")
    frame = pd.read_csv(SAMPLE)
    plots = [f"--plot={tmp_path / name}" for name in ("roc.png", "pr.svg", "calibration.pdf")]
    args = ("report", "--database", db, "--table", "preds", "--label", "clicked", "--score", "pctr",
            "--score", "pctr_base")
    document = json.loads(cli(*args, *plots, "--format", "json", ok=0).stdout)
    assert [r["score"] for r in document["scores"]] == ["pctr", "pctr_base"]
    for report in document["scores"]:
        auc = next(m["value"] for m in report["metrics"] if m["metric"] == "auc")
        assert auc == pytest.approx(roc_auc_score(frame.clicked, frame[report["score"]]), rel=1e-12)
    for name in ("roc.png", "pr.svg", "calibration.pdf"):
        path = tmp_path / name
        assert path.read_bytes()[:len(MAGIC[path.suffix])] == MAGIC[path.suffix], name
    if path.suffix == ".svg":
        assert "pctr_base" in path.read_text()
    assert "pctr_base (AP = " in (tmp_path / "pr.svg").read_text()  # both scores' curves on one plot
    csv = pd.read_csv(io.StringIO(cli(*args, "--format", "csv", ok=0).stdout))
    assert list(csv.columns) == ["metric", "pctr", "pctr_base", "based_on"]
    auc = csv.set_index("metric").loc["auc"]
    assert auc.pctr == pytest.approx(roc_auc_score(frame.clicked, frame.pctr), rel=1e-12)
    assert auc.based_on == "n=6,000, n_pos=546, n_neg=5,454"  # the same for both: said once
    assert "--score names a column twice" in cli("report", SAMPLE, *COLS, "--score", "pctr", ok=2).stderr


def test_report_table_says_each_based_on_once():
    """Side by side, precision, recall, F1 and accuracy share one long based_on (both scores' counts): the
    table says it on precision's row and "as above" on the next three; CSV and JSON keep every row's."""
    args = ("report", SAMPLE, *COLS, "--score", "pctr_base")
    lines = {line.split()[0]: line for line in cli(*args, ok=0).stdout.splitlines()}
    counts = "pctr: score >= 0.5: tp=27, fp=9, tn=5,445, fn=519; pctr_base: score >= 0.5: tp=2, fp=6, tn=5,448, fn=544"
    assert lines["precision"].endswith(counts)
    assert all(lines[name].endswith("  as above") for name in ("recall", "f1", "accuracy", "gini"))
    assert lines["auc"].endswith("n=6,000, n_pos=546, n_neg=5,454")
    csv = pd.read_csv(io.StringIO(cli(*args, "--format", "csv", ok=0).stdout)).set_index("metric")
    assert (csv.loc[["precision", "recall", "f1", "accuracy"], "based_on"] == counts).all()
    document = json.loads(cli(*args, "--format", "json", ok=0).stdout)
    recall = next(m for m in document["scores"][0]["metrics"] if m["metric"] == "recall")
    assert recall["based_on"] == "score >= 0.5: tp=27, fp=9, tn=5,445, fn=519"


def ece_reference(y, p, n_bins, strategy):
    """sum over bins of |fraction of positives - mean probability| * rows / N, on scikit-learn's bins."""
    y, p = np.asarray(y, dtype=float), np.asarray(p, dtype=float)
    edges = np.percentile(p, np.linspace(0, 100, n_bins + 1)) if strategy == "quantile" else np.linspace(0, 1, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    return sum(abs(y[ids == b].mean() - p[ids == b].mean()) * (ids == b).sum() for b in set(ids)) / len(y)


def test_report_calibration_bins_default_as_ece_and_chosen():
    frame = pd.read_csv(SAMPLE)
    for options, n_bins, strategy in (((), 5, "uniform"), (("--n-bins", "10", "--strategy", "quantile"), 10, "quantile")):
        csv = pd.read_csv(io.StringIO(cli("report", SAMPLE, *COLS, *options, "--format", "csv", ok=0).stdout))
        ece = csv.set_index("metric").loc["ece"]
        assert ece.value == pytest.approx(ece_reference(frame.clicked, frame.pctr, n_bins, strategy), rel=1e-9)
        assert ece.based_on.startswith(f"{n_bins} {strategy} bins:")
    assert "--n-bins and --strategy apply to the calibration" in cli(
        "report", SAMPLE, "--query", "user_id", "--n-bins", "3", ok=2).stderr
    assert "--n-bins must be >= 1" in cli("report", SAMPLE, *COLS, "--n-bins", "0", ok=2).stderr


def test_where_selects_the_rows_of_the_source(tmp_path):
    frame = pd.read_csv(SAMPLE)
    de = frame[frame.country == "DE"]
    where = ("--where", "country = 'DE'")
    value = float(cli("compute", "auc", SAMPLE, *COLS, *where, ok=0).stdout.split()[-1])
    assert value == pytest.approx(roc_auc_score(de.clicked, de.pctr), rel=1e-5)
    report = json.loads(cli("report", SAMPLE, *COLS, *where, "--format", "json", ok=0).stdout)
    assert report["counts"] == {"rows": len(de), "positives": int(de.clicked.sum())}
    compared = json.loads(cli("compare", "gauc", SAMPLE, *COLS, "--group", "user_id", "--other", "pctr_base", *where,
                              "--format", "json", ok=0).stdout)["rows"][0]
    assert compared["n_units"] == de.groupby("user_id").clicked.nunique().eq(2).sum()  # users with both classes
    copied = tmp_path / "pwned.csv"
    injection = (f":x$ IS NULL OR country = '$x$ IS NULL OR country = ''$y$ IS NULL; COPY (SELECT 42 AS v) TO "
                 f"$z${copied}$z$; SELECT 1 --'' --'")
    for condition, fragment in (("country IN (SELECT 'DE')", "without a subquery"),
                                ("1 = 1; SELECT 1", "must be one condition"),
                                ("nextval('s') > 0", "calls nextval()"),
                                ("country = ", "does not parse"),
                                (injection, "has a placeholder for a value bound when it runs (:x$)"),
                                (":x = ''", "has a placeholder"),
                                ("country = 'DE", "a quote or a comment that is not closed?"),
                                ("country IN (SELECT content FROM read_text('/etc/hostname'))", "without a subquery"),
                                ("sleep_ms(5000) IS NULL", "holds the connection"),
                                ("'a'", "--where must be a condition, true or false on each row"),
                                ("pctr", "'pctr' is a value of type DOUBLE")):
        done = cli("compute", "auc", SAMPLE, *COLS, "--where", condition, ok=2)
        assert done.stdout == "" and fragment in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert not copied.exists()
    # the NULL message offers --where, which works
    path = tmp_path / "nulls.csv"
    path.write_text("y,s\n1,0.3\n0,\n0,0.1\n1,0.8\n0,0.2\n")
    advice = cli("compute", "auc", path, "--label", "y", "--score", "s", ok=1).stderr
    assert '(--where "s IS NOT NULL")' in advice and "pass --dropna" in advice
    value = float(cli("compute", "auc", path, "--label", "y", "--score", "s", "--where", "s IS NOT NULL",
                      ok=0).stdout.split()[-1])
    assert value == pytest.approx(roc_auc_score([1, 0, 1, 0], [0.3, 0.1, 0.8, 0.2]))


def test_report_skips_probability_metrics_for_raw_scores(tmp_path):
    path = tmp_path / "logits.csv"
    pd.DataFrame({"y": [0, 1, 0, 1], "logit": [-2.0, 1.5, 0.3, 3.0]}).to_csv(path, index=False)
    report = json.loads(cli("report", path, "--label", "y", "--score", "logit", "--format", "json", ok=0).stdout)
    assert {s["metric"] for s in report["skipped"]} >= {"log_loss", "brier_score"}
    assert "probabilities in [0, 1]" in report["skipped"][0]["reason"]


def test_report_ranking(tmp_path):
    run = pd.DataFrame({"qid": [1, 1, 2, 2], "item": list("abab"), "score": [2, 1, 2, 1]})
    qrels = pd.DataFrame({"qid": [1, 2, 3], "item": ["b", "a", "c"], "relevance": [1, 1, 1]})
    run.to_parquet(tmp_path / "run.parquet")
    qrels.to_csv(tmp_path / "qrels.csv", index=False)
    report = json.loads(cli("report", tmp_path / "run.parquet", "--query", "qid", "--qrels", tmp_path / "qrels.csv",
                            "--k", "2", "--format", "json", ok=0).stdout)
    mrr = next(m for m in report["metrics"] if m["metric"] == "mrr")
    assert mrr["value"] == pytest.approx((0.5 + 1 + 0) / 3) and mrr["counts"]["n_missing"] == 1
    assert "needs --label and --score" in cli("report", tmp_path / "run.parquet", ok=2).stderr


def test_report_ranking_measures(tmp_path):
    """One pass, default measures named by their cut-off with MAP and MRR over the whole list (as trec_eval's
    map and recip_rank), --metrics in any library's spelling, and the counts in the JSON. By hand: q1 ranks
    its relevant b second, q2 its relevant a first, q3 (judged) is missing from the run."""
    run = pd.DataFrame({"qid": [1, 1, 2, 2], "item": list("abab"), "score": [2, 1, 2, 1]})
    run.to_parquet(tmp_path / "run.parquet")
    pd.DataFrame({"qid": [1, 2, 3], "item": ["b", "a", "c"], "relevance": [1, 1, 1]}).to_csv(tmp_path / "q.csv", index=False)
    base = ("report", tmp_path / "run.parquet", "--query", "qid", "--qrels", tmp_path / "q.csv", "--format", "json")
    report = json.loads(cli(*base, "--k", "1", ok=0).stdout)
    values = {m["metric"]: m["value"] for m in report["metrics"]}
    assert list(values) == ["ndcg@1", "map", "mrr", "P@1", "recall@1", "hit_rate@1"]
    assert values["map"] == pytest.approx((0.5 + 1 + 0) / 3) and values["mrr"] == pytest.approx((0.5 + 1 + 0) / 3)
    assert values["P@1"] == pytest.approx(1 / 3) and values["ndcg@1"] == pytest.approx(1 / 3)
    assert report["counts"] == {"n_queries": 3, "n_missing": 1, "n_empty": 0}
    report = json.loads(cli(*base, "--metrics", "ndcg_cut_2,P(rel=1)@1", "--metrics", "recip_rank", ok=0).stdout)
    values = {m["metric"]: m["value"] for m in report["metrics"]}
    assert values == pytest.approx({"ndcg_cut_2": (1 / math.log2(3) + 1 + 0) / 3, "P(rel=1)@1": 1 / 3,
                                    "recip_rank": 0.5})
    assert "unknown measure 'ndgc@10' (did you mean 'ndcg'?)" in cli(*base, "--metrics", "ndgc@10", ok=2).stderr
    assert "with --metrics, write the cut-off in each measure" in cli(*base, "--metrics", "map", "--k", "5", ok=2).stderr
    assert "--k must be a positive whole number; got 0" in cli(*base, "--k", "0", ok=2).stderr


def test_report_of_trec_files_needs_no_query():
    """A run in trec_eval's format names its columns (query, item, score), and --qrels makes the report a
    ranking one: no --query to give, the same report as with --query query, the values of the Python API."""
    trec = Path(__file__).parent / "data" / "trec_eval"
    files = ("report", f"trec:{trec / 'results.test'}", "--qrels", f"trec:{trec / 'qrels.test'}", "--format", "json")
    report = json.loads(cli(*files, ok=0).stdout)
    assert report == json.loads(cli(*files, "--query", "query", ok=0).stdout)
    values = {m["metric"]: m["value"] for m in report["metrics"]}
    run, qrels = sm.TrecRun(trec / "results.test"), sm.TrecQrels(trec / "qrels.test")
    assert values["map"] == pytest.approx(sm.map(run, qrels))
    assert values["ndcg@10"] == pytest.approx(sm.ndcg(run, qrels, k=10, gain="exponential"))


def test_bad_plot_requests():
    assert "say which plot" in cli("report", SAMPLE, *COLS, "--plot", "out.png", ok=2).stderr
    assert "must end in .png, .svg, .pdf" in cli("report", SAMPLE, *COLS, "--plot", "roc=out.jpg", ok=2).stderr


def test_plot_without_matplotlib_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['matplotlib'] = None; from sqlmetrics.cli import main; "
            f"sys.exit(main(['compute', 'roc_curve', {str(SAMPLE)!r}, '--label', 'clicked', '--score', 'pctr', "
            f"'--plot', {str(tmp_path / 'roc.png')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "pip install 'sqlmetrics[plot]'" in done.stderr
    assert done.stdout == ""  # found out before computing the curve


def test_demo_runs_the_main_job():
    out = cli("demo", ok=0).stdout
    assert "gauc" in out and "RelaImpr" in out and "SELECT" in out and "ci_low" in out and "DeLong" in out
    document = json.loads(cli("demo", "--format", "json", ok=0).stdout)
    assert document["counts"] == {"rows": 6000, "positives": 546}
    compared = document["auc_compare_vs_pctr_base"]
    assert compared["ci_low"] < compared["difference"] < compared["ci_high"] and 0 <= compared["p_value"] <= 1
    assert subprocess.run([sys.executable, "-m", "sqlmetrics", "demo"], capture_output=True).returncode == 0


def test_compare_gates_a_regression(tmp_path):
    """compare exits 0 when the candidate holds up, 1 when it is worse by more than --max-drop or
    significantly worse at --alpha (naming the failing slices), 2 without a baseline."""
    from test_compare import null_runs, two_runs
    run, other, qrels = two_runs(1)
    grades = run.merge(qrels, on=["query", "item"], how="left")["relevance"].fillna(0).to_numpy()
    best, worse = run.assign(score=grades), run.assign(score=-grades)  # relevant items first, or last
    for name, frame in {"run": run, "other": other, "best": best, "worse": worse, "qrels": qrels}.items():
        frame.to_parquet(tmp_path / f"{name}.parquet")
    files = {name: tmp_path / f"{name}.parquet" for name in ("run", "other", "best", "worse", "qrels")}
    done = cli("compare", "ndcg", files["run"], "--other", files["other"], "--qrels", files["qrels"], "--k", 10,
               "--format", "json", ok=0)
    got = json.loads(done.stdout)["rows"][0]
    assert got == pytest.approx(sm.compare("ndcg", run, other, qrels, k=10), rel=1e-12)
    assert got["difference"] < 0  # a small drop: fine without a gate, and with a loose one
    cli("compare", "ndcg", files["run"], "--other", files["other"], "--qrels", files["qrels"], "--k", 10,
        "--max-drop", 0.5, ok=0)
    done = cli("compare", "ndcg", files["run"], "--other", files["other"], "--qrels", files["qrels"], "--k", 10,
               "--max-drop", 0.0001, ok=1)
    assert "regression in ndcg: difference" in done.stderr
    done = cli("compare", "ndcg", files["worse"], "--other", files["best"], "--qrels", files["qrels"], "--alpha", 0.05,
               "--test", "wilcoxon", ok=1)
    assert "p = " in done.stderr and "< 0.05" in done.stderr
    cli("compare", "ndcg", files["best"], "--other", files["worse"], "--qrels", files["qrels"], "--alpha", 0.05, ok=0)
    assert "--other" in cli("compare", "ndcg", files["run"], "--qrels", files["qrels"], ok=2).stderr
    assert "--max-drop" in cli("compare", "ndcg", "--help", ok=0).stdout
    # a gate that could never fail is a usage error: NaN crosses no bound; a drop is >= 0, alpha in (0, 1)
    for flag, value, rule in (("--max-drop", "nan", ">= 0"), ("--max-drop", "-1", ">= 0"), ("--max-drop", "inf", ">= 0"),
                              ("--alpha", "nan", "> 0 and < 1"), ("--alpha", "2", "> 0 and < 1"),
                              ("--alpha", "0", "> 0 and < 1")):
        err = cli("compare", "ndcg", files["run"], "--other", files["other"], "--qrels", files["qrels"], flag, value,
                  ok=2).stderr
        assert f"argument {flag}: must be a finite number {rule}; got '{value}'" in err, err
    sliced_run, sliced_other, sliced_qrels = null_runs(n_slices=3, n_queries=20)
    grades = sliced_run.merge(sliced_qrels, on=["c", "query", "item"])["relevance"].to_numpy()
    sliced_other = sliced_run.assign(score=np.where(sliced_run.c == 1, -grades, grades))  # slice 1 worse
    for name, frame in {"a": sliced_run, "b": sliced_other, "q": sliced_qrels}.items():
        frame.to_parquet(tmp_path / f"{name}.parquet")
    done = cli("compare", "mrr", tmp_path / "b.parquet", "--other", tmp_path / "a.parquet", "--qrels",
               tmp_path / "q.parquet", "--by", "c", "--max-drop", 0.0, ok=1)
    assert "c=1" in done.stderr


def test_compare_gauc_two_score_columns():
    done = cli("compare", "gauc", SAMPLE, *COLS, "--group", "user_id", "--other", "pctr_base", "--format", "json", ok=0)
    got = json.loads(done.stdout)["rows"][0]
    want = sm.compare("gauc", pd.read_csv(SAMPLE), "pctr_base", label="clicked", score="pctr", group="user_id")
    assert got == pytest.approx(want, rel=1e-12)


def test_table_separates_thousands_in_counts_not_in_keys(tmp_path):
    """A year or an id of a `by` column (or a query) is written as it is; counts get separators."""
    path = tmp_path / "years.csv"
    n = 1500
    pd.DataFrame({"year": [2024] * n + [202411] * n, "clicked": [0, 1] * n, "pctr": [0.1, 0.9] * n}).to_csv(path, index=False)
    out = cli("compute", "auc", path, *COLS, "--by", "year", "--details", ok=0).stdout
    rows = [line.split() for line in out.strip().splitlines()[1:]]
    assert [r[0] for r in rows] == ["2024", "202411"]
    assert all(r[2] == "1,500" for r in rows), out  # n


def test_compare_gates_auc_and_a_loss():
    """compare auc is DeLong's paired test (sm.auc_compare's numbers); a loss regresses upwards, by the
    paired bootstrap; --other-score and --other name the second column alike."""
    delong = sm.auc_compare(pd.read_csv(SAMPLE), label="clicked", score="pctr", other_score="pctr_base")
    done = cli("compare", "auc", SAMPLE, *COLS, "--other-score", "pctr_base", "--max-drop", 0.002, "--alpha", 0.05,
               "--format", "json", ok=0)
    got = json.loads(done.stdout)["rows"][0]
    assert (got["estimate"], got["difference"], got["p_value"]) == (delong["auc"], delong["difference"], delong["p_value"])
    worse = cli("compare", "auc", SAMPLE, "--label", "clicked", "--score", "pctr_base", "--other", "pctr", "--alpha",
                0.05, ok=1)
    assert "regression in auc" in worse.stderr
    cli("compare", "auc", SAMPLE, *COLS, "--other-score", "pctr_base", "--max-drop", 0.2, ok=0)
    loss = ("compare", "log_loss", SAMPLE, "--label", "clicked", "--n-resamples", 200)
    cli(*loss, "--score", "pctr", "--other-score", "pctr_base", "--alpha", 0.05, "--max-drop", 0, ok=0)
    failed = cli(*loss, "--score", "pctr_base", "--other-score", "pctr", "--alpha", 0.05, ok=1).stderr
    assert "regression in log_loss: p = 0.00995 < 0.05" in failed  # 2 / 201: every replicate's loss is higher
    assert "(lower is better)" in cli(*loss, "--score", "pctr_base", "--other-score", "pctr", "--max-drop", 0.01,
                                      ok=1).stderr
    assert "--other-score" in cli("compare", "log_loss", SAMPLE, *COLS, ok=2).stderr
    assert "calibration is best at 1" in cli("compare", "calibration", SAMPLE, *COLS, "--other-score", "pctr_base",
                                             "--max-drop", 0.1, ok=2).stderr
    assert "--test bootstrap" in cli("compare", "auc", SAMPLE, *COLS, "--other-score", "pctr_base", "--seed", 1,
                                     ok=2).stderr


def test_measure_strings_name_metrics(tmp_path):
    """compute, compare and render take a measure string where they take METRIC: ndcg@10 is ndcg with
    --k 10 --gain linear; an option that contradicts the string is refused by its flag."""
    from test_compare import two_runs
    run, other, qrels = two_runs(1)
    paths = {name: tmp_path / f"{name}.parquet" for name in ("run", "other", "qrels")}
    for name, frame in (("run", run), ("other", other), ("qrels", qrels)):
        frame.to_parquet(paths[name])
    judged = ("--qrels", paths["qrels"], "--format", "json")
    string = json.loads(cli("compute", "ndcg@10", paths["run"], *judged, ok=0).stdout)["rows"]
    flags = json.loads(cli("compute", "ndcg", paths["run"], "--k", 10, "--gain", "linear", *judged, ok=0).stdout)["rows"]
    # the same mean, to the last bits DuckDB's threads may add in another order
    assert string[0].keys() == flags[0].keys() == {"ndcg"}
    assert string[0]["ndcg"] == pytest.approx(flags[0]["ndcg"], rel=1e-14) == sm.ndcg(run, qrels, k=10, gain="linear")
    compared = [json.loads(cli("compare", *metric, paths["run"], "--other-run", paths["other"], *judged, ok=0).stdout)
                for metric in (("ndcg@10",), ("ndcg", "--k", 10, "--gain", "linear"))]
    assert compared[0]["rows"][0] == pytest.approx(compared[1]["rows"][0], rel=1e-12)  # sums in any order
    assert json.loads(cli("compute", "P@5", paths["run"], *judged, ok=0).stdout)["rows"][0]["precision_at_k"] == \
        pytest.approx(sm.precision_at_k(run, qrels, k=5), rel=1e-14)
    assert "drop --k 5" in cli("compute", "ndcg@10", paths["run"], "--k", 5, ok=2).stderr
    assert "--gain exponential would not give its number" in cli("compute", "ndcg_cut_10", paths["run"], "--gain",
                                                                 "exponential", ok=2).stderr
    assert cli("render", "ndcg@10", "t", ok=0).stdout == cli("render", "ndcg", "t", "--k", 10, "--gain", "linear",
                                                             ok=0).stdout
    assert "ndcg@10 is ndcg with" in cli("show", "ndcg@10", ok=0).stdout


def test_report_of_two_scores_adds_normalized_entropy_and_delong():
    done = cli("report", SAMPLE, *COLS, "--score", "pctr_base", "--format", "json", ok=0)
    document = json.loads(done.stdout)
    df = pd.read_csv(SAMPLE)
    for entry in document["scores"]:
        ne = next(m for m in entry["metrics"] if m["metric"] == "normalized_entropy")
        assert ne["value"] == sm.normalized_entropy(df, label="clicked", score=entry["score"])
    delong = document["auc_compare"][0]
    assert (delong["score"], delong["other_score"]) == ("pctr", "pctr_base")
    assert delong["p_value"] == sm.auc_compare(df, label="clicked", score="pctr", other_score="pctr_base")["p_value"]
    table = cli("report", SAMPLE, *COLS, "--score", "pctr_base", ok=0).stdout
    assert "auc_compare: p_value" in table and "DeLong's paired test" in table
    assert "normalized_entropy" not in cli("report", SAMPLE, *COLS, ok=0).stdout  # one score: as before


def test_disparity_is_group_disparity_and_gates_it(tmp_path):
    """disparity METRIC: sm.group_disparity's summaries (a row per slice with --by; a row per group with
    --per-group); exit 1 past --max-difference or --min-ratio, naming the slices; 2 for a curve."""
    sample = pd.read_csv(SAMPLE)
    done = cli("disparity", "auc", SAMPLE, *COLS, "--sensitive", "country", "--method", "to_overall", "--format", "json",
               ok=0)
    got = json.loads(done.stdout)["rows"][0]
    assert got == pytest.approx(sm.group_disparity(sample, "auc", ["country"], label="clicked", score="pctr",
                                                   method="to_overall"), rel=1e-12)
    sample.assign(half=sample["user_id"] % 2).to_csv(tmp_path / "sample.csv", index=False)
    done = cli("disparity", "recall", tmp_path / "sample.csv", *COLS, "--threshold", 0.2, "--sensitive", "country",
               "--by", "half", "--per-group", "--format", "csv", ok=0)
    got = pd.read_csv(io.StringIO(done.stdout))
    want = sm.group_disparity(pd.read_csv(tmp_path / "sample.csv"), "recall", ["country"], label="clicked",
                              score="pctr", threshold=0.2, by=["half"], per_group=True)
    pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-12)
    worst = want.groupby("half")["ratio"].first()
    done = cli("disparity", "recall", tmp_path / "sample.csv", *COLS, "--threshold", 0.2, "--sensitive", "country",
               "--by", "half", "--min-ratio", (worst.min() + worst.max()) / 2, ok=1)
    assert "1 of 2 slices fail: half=" in done.stderr
    cli("disparity", "auc", SAMPLE, *COLS, "--sensitive", "country", "--max-difference", 1, ok=0)
    done = cli("disparity", "roc_curve", SAMPLE, *COLS, "--sensitive", "country", ok=2)
    assert "one value per slice" in done.stderr and "a curve" in done.stderr


def _commands_of(name: str) -> list[str]:
    from sqlmetrics import cli
    return ["compute", "render"] + (["compare"] if cli._comparable(name) else []) + (
        ["disparity"] if cli._disparity_takes(name) else [])


@pytest.mark.parametrize("name", sorted(METRICS))
def test_every_command_parser_builds_for_every_metric(name):
    """Each command's parser for each metric (argparse fails on an option given twice: a parameter named as
    a command's own option, or as a parameter of the comparison), with exactly the command's own options
    besides the metric's (sqlmetrics.command_options: what the registry refuses as a parameter name)."""
    from sqlmetrics import cli, command_options
    for command in _commands_of(name):
        m = {"compare": cli._compared, "disparity": cli._disparity}.get(command, lambda n, _: METRICS[n])(name, {})
        parser = cli.metric_parser(command, m)
        options = {o for action in parser._actions for o in action.option_strings}
        own = options - {f for p in m.params for f in cli._param_flags(p)} - set(command_options.HELP)
        conditional = {"--per-query", "--plot"}
        assert set(command_options.OWN[command]) - conditional <= own <= set(command_options.OWN[command]), command


def test_a_parameter_named_as_a_command_option_is_refused():
    from dataclasses import replace
    from sqlmetrics.params import Param
    from sqlmetrics.registry import refuse_command_options
    pinball = replace(METRICS["mae"], name="mean_pinball_loss",
                      params=METRICS["mae"].params + (Param("alpha", "float", "the quantile.", default=0.5),))
    with pytest.raises(TypeError, match="parameter 'alpha' would be --alpha on the command line, which is the own "
                                        "option of compare"):
        refuse_command_options(pinball)
    refuse_command_options(replace(pinball, params=METRICS["mae"].params + (
        Param("quantile", "float", "the quantile.", default=0.5),)))
