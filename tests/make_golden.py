"""Regenerate the golden SQL files: ``python tests/make_golden.py`` (every file), or
``python tests/make_golden.py NAME...`` (the files of those metrics or golden names only).

``tests/golden/<dialect>/<metric>.sql`` holds ``sm.render(...)`` (pretty=True) of one canonical call
per registered metric, in every dialect sqlmetrics supports, so that every change to the generated
SQL shows up as a diff in review. ``tests/test_golden.py`` fails until the files are regenerated
(run this script, then read ``git diff tests/golden``) and also checks every file for the known
cross-engine hazards.

The canonical call of each metric (``tests/golden/CALLS.md`` lists all of them):

- classification / regression metrics (data ``analytics.preds``): the parameters
  ``conftest.args(name, weight=True)`` chooses (the required columns, ``score`` for the metrics
  that take a score or a prediction, the weight column wherever the metric takes one), renamed to
  realistic columns by ``COLUMNS`` below; everything else at its default (threshold 0.5, n_bins 5,
  uniform bins, weighting 'impressions', exact AUC without bins);
- multi-class metrics from scores (data ``analytics.class_scores``, one row per image and class):
  the columns ``LONG_TABLE_COLUMNS`` below, the true class as a column, weighted, every option at its
  default (multiclass_auc: one-vs-rest, macro);
- drift metrics (reference ``analytics.features_last_month``, current ``analytics.features_this_week``):
  ``DRIFT_CALL`` below, three numeric columns and a categorical one, weighted;
- ranking metrics (run ``analytics.run``): the parameters ``conftest.ranking_args(name,
  "weighted_by")`` chooses (query/item/score/relevance columns, judgments in ``analytics.qrels``,
  k=10 wherever k exists, similarities in ``analytics.similar_items``, a catalogue of 1000 items),
  renamed by ``COLUMNS``; ties at the default 'item_desc' except ``ndcg``, which shows the
  ties='average' path (``dcg`` shows the default path of the same template);
- every metric: ``by=["country"]``, so the slice handling (partitions, joins, GROUP BY and the final
  ORDER BY of the curves) is part of the review;
- ``sm.bootstrap``'s and ``sm.compare``'s SQL (``sm.render("bootstrap", ..., metric=...)``), which
  are not registry metrics: ``bootstrap-auc`` (replicates over rows) and ``bootstrap-ndcg`` (over
  queries), the canonical calls of those two metrics with ``n_boot=200``; ``compare-ndcg`` (the
  paired t test of two runs) and ``compare-ndcg-wilcoxon``, against ``analytics.run_baseline``, and
  ``compare-gauc-randomization`` (two score columns, 1000 sign flips), ``compare-auc-delong`` (DeLong's
  paired test of two score columns) and ``compare-log_loss-bootstrap`` (the paired bootstrap, 200
  replicates); ``bootstrap-demographic_parity_difference`` (a fairness metric's sensitive columns
  carried through the replicates);
- ``sm.group_disparity``'s SQL (``sm.render("group_disparity", ..., metric=...)``):
  ``group_disparity-recall`` (two sensitive columns, method='to_overall') and
  ``group_disparity-auc-per_group`` (a row per group);
- ``sm.evaluate``'s SQL (``sm.render("evaluate", ...)``): ``evaluate``, the ranking columns and
  judgments of ``ndcg``'s call with ``EVALUATE_MEASURES``, every measure of its one pass, and
  ``evaluate-own-relevance``, the same without the judgments (the run carrying its relevance);
- ``sm.compare``'s of several runs (``sm.render("compare", None, metric=[...], runs={...})``):
  ``compare-runs``, three runs against the first on ``COMPARE_RUNS``' measures.

Keep the calls stable: changing them rewrites every golden file and hides real changes in the diff.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script, or imported by the tests
    sys.path.insert(0, str(HERE))

import sqlmetrics as sm  # noqa: E402
from sqlmetrics.registry import METRICS  # noqa: E402
from conftest import ALL, LONG_TABLE, TWO_WINDOWS, args, one_pass_measures, ranking_args  # noqa: E402

GOLDEN = HERE / "golden"

#: the engines that cannot run here first (the reason for these files), then the others
DIALECTS = ("bigquery", "snowflake", "trino", "redshift", "mysql", "databricks",
            "duckdb", "sqlite", "postgres", "spark", "clickhouse")

#: test-helper column names -> the realistic names used in the golden files
COLUMNS = {
    "y": "clicked", "s": "pctr", "s2": "pctr_baseline", "w": "impressions", "g": "user_id",
    "t": "revenue", "p": "predicted_revenue", "t1": "revenue", "p1": "predicted_revenue", "cls": "category",
    "cls_hat": "predicted_category", "d": "treated", "dur": "revenue",
    "qid": "query_id", "doc no": "doc_id", "Score": "score", "rel": "relevance",
}
BY = ["country"]
#: the multi-class metrics from scores: a long table of one row per image and class, weighted
#: the drift metrics: last month's feature table against this week's, three numeric feature columns and a
#: categorical one, weighted
DRIFT_CALL = {"current": "analytics.features_this_week", "columns": ["age", "basket_value", "sessions"],
              "categorical": ["device"],
              "weight": "sample_weight"}
LONG_TABLE_COLUMNS = {"example": "image_id", "class_": "class", "score": "probability", "label": "true_class",
                      "weight": "importance"}
#: ranking metrics rendered with ties='average' (every other one keeps its default tie order)
TIES_AVERAGE = {"ndcg"}


#: golden names of sm.bootstrap's, sm.compare's and sm.group_disparity's SQL -> (function, the metric it takes, its
#: own parameters)
DERIVED = {
    "bootstrap-auc": ("bootstrap", "auc", {"n_boot": 200}),
    "bootstrap-ndcg": ("bootstrap", "ndcg", {"n_boot": 200}),
    "compare-ndcg": ("compare", "ndcg", {"other": "analytics.run_baseline"}),
    "compare-ndcg-wilcoxon": ("compare", "ndcg", {"other": "analytics.run_baseline", "test": "wilcoxon"}),
    "compare-gauc-randomization": ("compare", "gauc", {"other": "pctr_baseline", "test": "randomization",
                                                       "n_resamples": 1000}),
    "compare-auc-delong": ("compare", "auc", {"other": "pctr_baseline"}),
    "compare-log_loss-bootstrap": ("compare", "log_loss", {"other": "pctr_baseline", "n_resamples": 200}),
    "bootstrap-demographic_parity_difference": ("bootstrap", "demographic_parity_difference", {"n_boot": 200}),
    "group_disparity-recall": ("group_disparity", "recall", {"sensitive": ["gender", "age_band"],
                                                             "method": "to_overall"}),
    "group_disparity-auc-per_group": ("group_disparity", "auc", {"sensitive": ["gender"], "per_group": True}),
}
#: sm.evaluate's canonical measures: every metric of its one pass, with both gains and with and without k
EVALUATE_MEASURES = one_pass_measures(10)
#: sm.compare of several runs on measures of sm.evaluate's one pass, each run against the first
COMPARE_RUNS = {"measures": ["ndcg@10", "map", "P@10", "recip_rank"],
                "runs": {"run": "analytics.run", "baseline": "analytics.run_baseline", "candidate": "analytics.run_candidate"}}
#: every golden name: the metrics, the derived ones, sm.evaluate's and sm.compare's of several runs
NAMES = sorted(METRICS) + sorted(DERIVED) + ["evaluate", "evaluate-own-relevance", "compare-runs"]


def function_of(name: str) -> str:
    """The name sm.render takes for golden name `name`."""
    return DERIVED[name][0] if name in DERIVED else {"compare-runs": "compare", "evaluate-own-relevance": "evaluate"}.get(name, name)


def call(name: str) -> tuple[str, dict]:
    """(data, parameters) of the canonical call of golden name `name`."""
    if name in DERIVED:
        _, metric, own = DERIVED[name]
        data, params = call(metric)
        return data, {"metric": metric, **params, **own}
    if name == "evaluate":
        data, params = call("ndcg")
        keep = ("qrels", "query", "item", "score", "relevance", "by")
        return data, {"measures": EVALUATE_MEASURES, **{k: v for k, v in params.items() if k in keep}}
    if name == "evaluate-own-relevance":  # the run carrying its relevance: the pass sums the judgments itself
        data, params = call("evaluate")
        return data, {k: v for k, v in params.items() if k != "qrels"}
    if name == "compare-runs":
        _, params = call("evaluate")
        keep = ("qrels", "query", "item", "score", "relevance")
        return None, {"metric": COMPARE_RUNS["measures"], "runs": COMPARE_RUNS["runs"], "baseline": "run",
                      **{k: v for k, v in params.items() if k in keep}}
    if name in ALL:
        data = "analytics.preds"
        params = args(name, weight=any(p.name == "weight" for p in METRICS[name].params))
    elif name in LONG_TABLE:
        data = "analytics.class_scores"
        params = dict(LONG_TABLE_COLUMNS)
    elif name in TWO_WINDOWS:
        data = "analytics.features_last_month"
        params = dict(DRIFT_CALL)
    else:
        data = "analytics.run"
        params = ranking_args(name, "weighted_by")
        if name in TIES_AVERAGE:
            params["ties"] = "average"
        else:
            params.pop("ties", None)
    params = {k: COLUMNS.get(v, v) if isinstance(v, str) else v for k, v in params.items()}
    params["by"] = list(BY)
    return data, params


def call_text(name: str) -> str:
    data, params = call(name)
    function = function_of(name)
    return f"sm.render({function!r}, {data!r}, " + ", ".join(f"{k}={v!r}" for k, v in params.items()) + ")"


def render(name: str, dialect: str) -> str:
    data, params = call(name)
    function = function_of(name)
    return sm.render(function, data, dialect=dialect, pretty=True, **params) + "\n"


def path(name: str, dialect: str) -> Path:
    return GOLDEN / dialect / f"{name}.sql"


def calls_md() -> str:
    lines = ["# Canonical calls of the golden files", "",
             "Generated by `python tests/make_golden.py`; each `<dialect>/<metric>.sql` is the call below "
             "with `dialect=<dialect>, pretty=True`.", "", "```python"]
    lines += [call_text(name) for name in NAMES]
    return "\n".join(lines + ["```", ""])


def expected_files(names=NAMES) -> dict[Path, str]:
    files = {GOLDEN / "CALLS.md": calls_md()}
    for dialect in DIALECTS:
        for name in names:
            files[path(name, dialect)] = render(name, dialect)
    return files


def main(names: list[str]) -> int:
    """Write the golden files of golden names `names` (metrics, or the derived names above; CALLS.md
    too), or of every name when none is given, removing those of names that no longer exist."""
    unknown = sorted(set(names) - set(NAMES))
    if unknown:
        print(f"not a golden name: {', '.join(unknown)} (the names: the metrics, {', '.join(NAMES[len(METRICS):])})",
              file=sys.stderr)
        return 2
    files = expected_files(names or NAMES)
    changed = 0
    for file, text in files.items():
        if not file.exists() or file.read_text() != text:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text)
            changed += 1
    stale = [] if names else [f for f in GOLDEN.rglob("*.sql") if f not in files]
    for f in stale:  # a metric or dialect that no longer exists
        f.unlink()
    print(f"{len(files)} golden files, {changed} written, {len(stale)} removed; "
          f"review with: git diff {GOLDEN.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
