"""``sqlmetrics report``: every metric that applies to a source, in one run, with what it rests on.

What to evaluate is a plain ReportSpec; ``check`` refuses a spec with options that would be ignored,
naming the options as `backquoted` field names (the command line writes them as its flags)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field


import sqlmetrics as sm

from .api import compute_many
from .errors import ColumnError, ParameterError
from .output import plain
from .params import N_BINS, STRATEGY
from .progress import Steps, interrupter
from .registry import METRICS, PLOTS, read_measures

#: the classification metrics (GAUC with a group; the probability ones when the scores are probabilities)
_RANKED = ("auc", "gini", "average_precision")
_PROBABILITY = ("log_loss", "brier_score", "calibration", "ece")
_AT_THRESHOLD = ("precision", "recall", "f1", "accuracy")


#: the columns of a report's table
REPORT_COLUMNS = ["metric", "value", "based_on"]


@dataclass(frozen=True)
class ReportSpec:
    """The columns and options of a report: classification (label, score) and/or ranking (query)."""
    source: str  # the name the report is shown under
    label: str | None = None
    score: str | None = None
    weight: str | None = None
    group: str | None = None  # adds GAUC
    threshold: float = 0.5  # of precision, recall, F1 and accuracy
    query: str | None = None
    item: str = "item"
    relevance: str = "relevance"
    qrels: str | None = None
    k: int | None = None  # cut-off of the default ranking measures (None: 10)
    #: the ranking measures (sm.evaluate's strings); None: ranking_measures(k)
    metrics: tuple[str, ...] | None = None
    n_bins: int = N_BINS.default  # of ece and the calibration plot, as the metrics' own default
    strategy: str = STRATEGY.default
    #: one of several scores side by side: adds the normalized entropy, whose ratio of two scores' log
    #: losses does not depend on the base rate (compare_aucs tests their AUCs)
    compared: bool = False


def ranking_measures(k: int) -> tuple[str, ...]:
    """The report's default ranking measures: NDCG, precision, recall and hit rate at k; MAP and MRR
    over the whole list (trec_eval's map and recip_rank)."""
    return (f"ndcg@{k}", "map", "mrr", f"P@{k}", f"recall@{k}", f"hit_rate@{k}")


@dataclass
class Report:
    source: str
    rows: list = field(default_factory=list)  # {"metric", "value", "based_on"}
    skipped: list = field(default_factory=list)  # {"metric", "reason"}
    counts: dict = field(default_factory=dict)
    calls: dict = field(default_factory=dict)  # metric -> the parameters used, to draw its curve
    steps: Steps = field(default_factory=lambda: Steps(0), repr=False)  # the progress shown

    def add(self, name: str, row: dict, based_on: str) -> None:
        self.rows.append({"metric": name, "value": plain(row[name]), "based_on": based_on,
                          "counts": {k: plain(v) for k, v in row.items() if k != name}})

    def table(self) -> list[dict]:
        """The rows of its table: metric, value, based_on."""
        rows = [{"metric": r["metric"], "value": r["value"], "based_on": r["based_on"]} for r in self.rows]
        return rows + [{"metric": s["metric"], "value": None, "based_on": f"skipped: {s['reason']}"}
                       for s in self.skipped]

    def as_json(self) -> dict:
        return {"source": self.source, "counts": self.counts, "metrics": self.rows, "skipped": self.skipped}

    def curves(self, kinds: set[str], data, con) -> dict:
        """The curves to plot (`kinds` among roc, pr, calibration), computed as the report's metrics were."""
        out = {}
        for kind in sorted(kinds):
            if kind not in self.calls:  # calibration, when the scores are not probabilities
                reason = next(s["reason"] for s in self.skipped if s["metric"] == "calibration")
                raise ColumnError(f"a calibration plot needs probabilities as scores: {reason}")
            name = PLOTS[kind].name
            out[kind] = self.steps.run(name, lambda f=getattr(sm, name), p=self.calls[kind]: f(data, con=con, **p),
                                       interrupt=interrupter(con))
        return out


def side_by_side(reports: dict[str, Report], what: str = "score",
                 compared: dict[str, dict] | None = None) -> tuple[list[dict], dict]:
    """The reports of several scores of one source (score column -> its report; `what` "score") or of
    several runs (name -> its report; `what` "run") as one table, a value column per score or run,
    and as JSON: a report per score (under the one source) or per run (each with its source).
    based_on is said once when every report's is the same, else per report. `compared`
    (compare_aucs: another score -> DeLong's test of the first score's AUC against it) adds two rows,
    the difference and the p-value in that score's column, and "auc_compare" to the JSON."""
    values: dict[str, dict] = {}
    based_on: dict[str, dict] = {}
    for name, report in reports.items():
        for row in report.table():
            values.setdefault(row["metric"], {})[name] = row["value"]
            based_on.setdefault(row["metric"], {})[name] = row["based_on"]
    rows = []
    for metric, by_name in values.items():
        said = based_on[metric]
        shared = len(set(said.values())) == 1 and len(said) == len(reports)
        rows.append({"metric": metric, **{name: by_name.get(name) for name in reports},
                     "based_on": next(iter(said.values())) if shared else
                     "; ".join(f"{name}: {text}" for name, text in said.items())})
    entries = [{what: name} | {k: v for k, v in report.as_json().items() if what == "run" or k != "source"}
               for name, report in reports.items()]
    document = ({"source": next(iter(reports.values())).source} if what == "score" else {}) | {f"{what}s": entries}
    if compared:
        first = next(iter(reports))
        for said_what, column in (("difference", "difference"), ("p_value", "p_value")):
            rows.append({"metric": f"auc_compare: {said_what}", **{score: plain(compared[score][column])
                                                                    if score in compared else None for score in reports},
                         "based_on": "; ".join(_delong_said(first, other, test, said_what)
                                               for other, test in compared.items())})
        document["auc_compare"] = [{"score": first, "other_score": other} | {k: plain(v) for k, v in test.items()}
                                   for other, test in compared.items()]
    return rows, document


#: a table's based_on where the row above says the same (precision, recall, F1 and accuracy share theirs)
AS_ABOVE = "as above"


def said_once(rows: list[dict]) -> list[dict]:
    """The rows of a report's table with each based_on said once: a row whose based_on is its previous
    row's says AS_ABOVE (JSON and CSV, data to read, keep every row's)."""
    return [row | {"based_on": AS_ABOVE} if i and row["based_on"] == rows[i - 1]["based_on"] else row
            for i, row in enumerate(rows)]


def _delong_said(first: str, other: str, test: dict, what: str) -> str:
    if what == "difference":
        return (f"AUC {first} - {other}: 95% CI {_signed(test['ci_low'])} to {_signed(test['ci_high'])} "
                f"(DeLong's paired test)")
    return f"{first} against {other}: z = {_signed(test['z'])}, two-sided (DeLong's paired test)"


def _signed(value) -> str:
    return "NaN" if plain(value) is None else f"{value:+.4f}"


def compare_aucs(data, con, spec: ReportSpec, others: list[str], steps: Steps) -> dict[str, dict]:
    """DeLong's paired test of the AUC of `spec`'s score against each of the `others` (sm.auc_compare,
    as sqlmetrics demo shows it): other score -> its record."""
    cols = dict(label=spec.label, score=spec.score) | ({"weight": spec.weight} if spec.weight else {})
    return {other: steps.run(f"auc_compare against {other}", lambda o=other: sm.auc_compare(
        data, other_score=o, con=con, **cols), interrupt=interrupter(con)) for other in others}


def _counts(row: dict, keys: tuple[str, ...]) -> str:
    return ", ".join(f"{k}={plain(row[k]):,}" for k in keys if k in row and plain(row[k]) is not None)


def check(spec: ReportSpec) -> None:
    """Options that would be ignored are mistakes: say so before computing anything."""
    if spec.label and not spec.score:
        raise ParameterError("`label` needs `score`: the column of the scores to evaluate")
    if not (spec.label and spec.score) and not spec.query:
        raise ParameterError("a report needs `label` and `score` (classification) and/or `query` (ranking)")
    for option in ("weight", "group"):
        if getattr(spec, option) and not spec.label:
            raise ParameterError(f"`{option}` applies to the classification metrics: it needs `label` and `score`")
    if spec.qrels and not spec.query:
        raise ParameterError("`qrels` applies to the ranking metrics: it needs `query`")
    if spec.k is not None and spec.k < 1:
        raise ParameterError(f"`k` must be a positive whole number; got {spec.k}")
    if spec.k is not None and not spec.query:
        raise ParameterError("`k` is the cut-off of the ranking measures: it needs `query`")
    if spec.metrics is not None:
        if not spec.query:
            raise ParameterError("`metrics` chooses the ranking measures: it needs `query`")
        if spec.k is not None:
            raise ParameterError("`k` is the cut-off of the default measures; with `metrics`, write the cut-off in "
                                 "each measure (ndcg@10, P@5)")
        read_measures(list(spec.metrics))  # a misspelt measure stops the report before anything runs


def n_steps(spec: ReportSpec) -> int:
    """The computations `build_report` plans for `spec` (the progress shown counts them)."""
    return bool(spec.label and spec.score) + bool(spec.query)


def build_report(data, con, spec: ReportSpec, steps: Steps | None = None) -> Report:
    """Every metric that applies (`spec` as checked by `check`); `con` is the DuckDB connection the
    metrics run on; `steps` counts the computations for the progress shown (n_steps of them)."""
    report = Report(source=spec.source, steps=steps or Steps(n_steps(spec)))
    if spec.label and spec.score:
        _classification(report, data, con, spec)
    if spec.query:
        _ranking(report, data, con, spec)
    return report


def _classification(report: Report, data, con, spec: ReportSpec) -> None:
    """The classification metrics, in one statement where the engine takes it (api.compute_many). Only a
    metric undefined on this data (NaN) is skipped, and the metrics of probabilities where log loss
    rejects the scores: every other error (a missing file or column, rejected values) stops the report."""
    cols = dict(label=spec.label, score=spec.score) | ({"weight": spec.weight} if spec.weight else {})
    bins = dict(n_bins=spec.n_bins, strategy=spec.strategy)
    calls = {name: cols for name in _RANKED} | ({"gauc": dict(cols, group=spec.group)} if spec.group else {}) \
        | {name: dict(cols, **bins) if name == "ece" else cols for name in _probability(spec)} \
        | {name: dict(cols, threshold=spec.threshold) for name in _AT_THRESHOLD}
    results = dict(zip(calls, report.steps.run("the classification metrics", lambda: compute_many(
        [(METRICS[name], params) for name, params in calls.items()], data, con=con), interrupt=interrupter(con))))
    rows = lambda r: _counts(r, ("n", "n_pos", "n_neg"))  # noqa: E731
    at = lambda r: f"score >= {spec.threshold:g}: " + _counts(r, ("tp", "fp", "tn", "fn"))  # noqa: E731
    based_on = {name: rows for name in calls} | {name: at for name in _AT_THRESHOLD} | {
        "gauc": lambda r: (f"{plain(r['n_groups_used']):,} groups used, {plain(r['n_groups_excluded']):,} excluded "
                           "(only one class)"),
        "normalized_entropy": lambda r: f"base rate {plain(r['base_rate']):.4g}, " + rows(r),
        "ece": lambda r: f"{spec.n_bins} {spec.strategy} bins: {plain(r['n_bins_used'])} used, n={plain(r['n']):,}"}
    rejected = results["log_loss"] if isinstance(results["log_loss"], ColumnError) else None
    for name, result in results.items():
        if rejected and name in _probability(spec):
            # AUC accepted these columns: what log loss checks beyond them is that the scores are
            # probabilities in [0, 1]. Raw scores (logits, ranks): the probability metrics do not apply.
            report.skipped.append({"metric": name, "reason": str(rejected)})
        elif isinstance(result, Exception):
            raise result
        else:
            _add(report, name, result, based_on[name])
    if isinstance(results["auc"], dict):
        report.counts.update(rows=plain(results["auc"]["n"]), positives=plain(results["auc"]["n_pos"]))
    report.calls.update(roc=cols, pr=cols)
    if not rejected:
        report.calls["calibration"] = dict(cols, **bins)


def _add(report: Report, name: str, row: dict, based_on) -> None:
    """A metric's row in the report, or where its value is undefined on this data (NaN), the reason it is skipped."""
    value = row[name]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        report.skipped.append({"metric": name, "reason": f"undefined: {METRICS[name].undefined}"})
    else:
        report.add(name, row, based_on(row))


def _probability(spec: ReportSpec) -> tuple[str, ...]:
    """The metrics of probabilities `spec` reports, in order."""
    return _PROBABILITY[:1] + (("normalized_entropy",) if spec.compared else ()) + _PROBABILITY[1:]


def _ranking(report: Report, data, con, spec: ReportSpec) -> None:
    """The ranking measures in one pass (sm.evaluate); a measure undefined on this data is skipped."""
    measures = read_measures(list(spec.metrics or ranking_measures(spec.k or 10)))
    counts = ("n_queries", "n_missing", "n_empty")
    frame = report.steps.run("the ranking measures", lambda: sm.evaluate(
        data, spec.qrels, [m.name for m in measures], query=spec.query, item=spec.item, score=spec.score or "score",
        relevance=spec.relevance, con=con), interrupt=interrupter(con))
    row = frame.to_dict("records")[0]
    report.counts.update({k: plain(row[k]) for k in counts})
    for m in measures:
        value = row[m.name]
        if value is None or (isinstance(value, float) and math.isnan(value)):
            report.skipped.append({"metric": m.name, "reason": f"undefined: {METRICS[m.metric].undefined}"})
        else:
            report.add(m.name, {m.name: value, **{k: row[k] for k in counts}}, _counts(row, counts))
