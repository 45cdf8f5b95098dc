"""Several systems compared at once: ``sm.compare(metrics, runs={...}, qrels=...)``.

Every system against a baseline (or every pair of systems), on every measure: each comparison is
the paired test of two runs as ``sm.compare`` of the two makes it. The measures of sm.evaluate's one
pass are compared in one statement that reads each run once (sql/compare.sql compare_runs; one per
order of ties and relevance level the measures need), the others pair by pair. The p-values of one
measure are then adjusted together (Holm, Bonferroni), here. ``paper_table`` writes the result as
a LaTeX or Markdown table.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .api import compute_metric
from .errors import ParameterError, UndefinedMetricError
from .params import TEST
from .registry import EVALUATE, check_runs, compare_of, named, runs_compared

if TYPE_CHECKING:
    import pandas as pd

CORRECTIONS = ("holm", "bonferroni", None)
#: the long table's columns
COLUMNS = ("system", "baseline", "metric", "estimate", "baseline_estimate", "difference", "statistic", "p_value",
           "p_value_adjusted", "significant", "ci_low", "ci_high", "n_units", "n_wins", "n_ties", "n_losses")


def compare_runs(pair, metrics, runs: dict, qrels=None, *, baseline: str | None = None, test: str = "paired_t",
                 correction: str | None = "holm", alpha: float = 0.05, n_resamples: int = 10000, seed: int = 0,
                 confidence: float = 0.95, con=None, dialect=None, dropna: bool = False, **params) -> pd.DataFrame:
    """The long table of sm.compare(metrics, runs=...): a row per comparison and measure (see sm.compare), the
    measures of sm.evaluate's one pass in one statement per group (_one_passes), each other comparison made
    by `pair`, sm.compare of two runs (which dispatches here: passed, not imported)."""
    import pandas as pd  # on the call: `import sqlmetrics` stays light
    measures = [metrics] if isinstance(metrics, str) else list(metrics or [])
    if not measures or not all(isinstance(m, str) for m in measures):
        raise ParameterError(f"metrics must be measure strings such as ['ndcg@10', 'map']; got {metrics!r}")
    if len(set(measures)) < len(measures):
        raise ParameterError(f"metrics names a measure twice: {measures!r}")
    check_runs(runs, baseline)
    if correction not in CORRECTIONS:
        raise ParameterError(f"correction must be 'holm', 'bonferroni' or None; got {correction!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ParameterError(f"alpha must be a number between 0 and 1; got {alpha!r}")
    TEST.validate(test)
    for measure in measures:  # every measure read before anything runs: a misspelt one costs nothing
        if not named(measure, params)[0].per_query:
            raise ParameterError(f"compare of several runs takes ranking measures (a run's per-query values); "
                                 f"{measure!r} is not one")
        compare_of(measure, dict(params, test=test))
    if params.get("by"):
        raise ParameterError("compare with runs= compares whole runs: slice them by compare of two runs, "
                             "sm.compare(metric, run, other_run, qrels, by=...)")
    names = list(runs)
    pairs = ([(name, baseline) for name in names if name != baseline] if baseline is not None else
             [(later, earlier) for i, earlier in enumerate(names) for later in names[i + 1:]])
    options = dict(test=test, n_resamples=n_resamples, seed=seed, confidence=confidence)
    compared, passes = {}, _one_passes(measures, params)
    for group, resolved in passes:
        m, data, call = runs_compared(dict(params, measures=group, qrels=qrels, **resolved, **options), runs, baseline)
        frame = compute_metric(m, data, con=con, dialect=dialect, dropna=dropna, details=True, **call)
        for r in frame.to_dict("records"):
            compared[group[r["measure_index"]], names[r["system_index"]], names[r["baseline_index"]]] = r
    rows = []
    for measure in measures:
        for system, other in pairs:
            r = compared.get((measure, system, other))
            if r is None and any(measure in group for group, _ in passes):
                raise UndefinedMetricError(f"compare of {system!r} with {other!r} by {measure} is undefined on this "
                                           "data: no query is evaluated under both runs with a relevant item (is one "
                                           "of the runs empty?)")
            if r is None:  # a measure outside the one pass: the two runs' own comparison
                r = pair(measure, runs[system], runs[other], qrels, con=con, dialect=dialect, dropna=dropna,
                         **options, **params)
            rows.append({"system": system, "baseline": other, "metric": measure, "estimate": r["estimate"],
                         "baseline_estimate": r["other_estimate"]}
                        | {k: r[k] for k in ("difference", "statistic", "p_value", "ci_low", "ci_high", "n_units",
                                             "n_wins", "n_ties", "n_losses")})
    table = pd.DataFrame(rows)
    table["p_value_adjusted"] = pd.concat([adjusted(group, correction) for _, group in
                                           table.groupby("metric", sort=False)["p_value"]])
    table["significant"] = table["p_value_adjusted"] < alpha  # NaN (no p-value) is not significant
    table = table[list(COLUMNS)]
    table.attrs.update(systems=names, baseline=baseline, test=test, correction=correction, alpha=alpha,
                       n_resamples=n_resamples)
    return table


def _one_passes(measures: list[str], params: dict) -> list[tuple[list[str], dict]]:
    """The measures of sm.evaluate's one pass in groups that one statement compares: each group with its one
    order of ties and one relevance level (those each measure's own comparison takes), as evaluate's
    parameters. None where the call has a parameter evaluate does not take: each measure is then compared
    pair by pair."""
    if not set(params) <= {p.name for p in EVALUATE.params}:
        return []
    groups = []
    for measure in measures:
        m, fixed = named(measure, params)
        if not m.one_pass:
            continue
        # None: the measure's metric takes no such parameter, and goes with any group
        wanted = {"ties": fixed.get("ties"), "relevance_threshold": fixed.get("relevance_threshold")}
        group = next((g for g in groups if all(None in (v, g[k]) or v == g[k] for k, v in wanted.items())), None)
        if group is None:
            groups.append(group := {"names": []} | wanted)
        group["names"].append(measure)
        group.update({k: v for k, v in wanted.items() if v is not None})
    return [(g.pop("names"), {k: v for k, v in g.items() if v is not None}) for g in groups]


def adjusted(p: pd.Series, correction: str | None) -> pd.Series:
    """The p-values of one family adjusted: Bonferroni's m p; Holm's (1979) step-down, the i-th smallest
    max over j <= i of (m - j + 1) p_(j); both at most 1. m counts the p-values there are (NaN: none)."""
    import pandas as pd
    present = p.dropna()
    m = len(present)
    if correction is None or m == 0:
        return p.astype(float)
    if correction == "bonferroni":
        return (p * m).clip(upper=1)
    ordered = present.sort_values(kind="stable")
    steps = (ordered * (m - pd.Series(range(m), index=ordered.index))).cummax().clip(upper=1)
    return steps.reindex(p.index)


# -- the table a paper prints ----------------------------------------------------------------------

_TESTS = {"paired_t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test",
          "randomization": "randomization test ({n_resamples:,} sign flips)"}
_CORRECTIONS = {"holm": "Holm-adjusted ", "bonferroni": "Bonferroni-adjusted ", None: ""}
#: markers with a baseline: significantly better, significantly worse
_BETTER, _WORSE = "†", "‡"
_LATEX = {"bold": "\\textbf{{{}}}", "mark": "$^{{{}}}$", "†": "\\dagger", "‡": "\\ddagger"}
_MARKDOWN = {"bold": "**{}**", "mark": "<sup>{}</sup>", "†": "†", "‡": "‡"}


def paper_table(result: pd.DataFrame, format: str = "latex", digits: int = 3) -> str:
    """The systems x measures table of sm.compare(metrics, runs=...)'s result, as a paper prints it:
    each system's estimate, the best of each measure in bold (every system that reaches it, at the
    digits shown), and the significant differences marked. With a baseline, † marks a system
    significantly better than the baseline and ‡ one significantly worse; with every pair compared,
    the systems are lettered a, b, c, ... and a system's estimate carries the letters of the systems
    it is significantly better than (as ranx's report). A note says the test, the adjustment and alpha.

    format: ``"latex"`` (a table environment with booktabs rules: \\usepackage{booktabs}) or
    ``"markdown"`` (a pipe table, superscripts as <sup>)."""
    if format not in ("latex", "markdown"):
        raise ParameterError(f"format must be 'latex' or 'markdown'; got {format!r}")
    if not {"systems", "test"} <= set(result.attrs):
        raise ParameterError("paper_table takes the result of sm.compare(metrics, runs=...) as it was returned")
    style = _LATEX if format == "latex" else _MARKDOWN
    escape = _latex_escape if format == "latex" else _markdown_escape
    systems, baseline = result.attrs["systems"], result.attrs["baseline"]
    measures = list(dict.fromkeys(result["metric"]))
    letters = {} if baseline is not None else {s: chr(ord("a") + i) for i, s in enumerate(systems)}
    estimates = {(row.system, row.metric): row.estimate for row in result.itertuples()} | {
        (row.baseline, row.metric): row.baseline_estimate for row in result.itertuples()}
    marks: dict = {}
    for row in result[result["significant"]].itertuples():
        better, worse = (row.system, row.baseline) if row.difference > 0 else (row.baseline, row.system)
        if baseline is not None:
            marks.setdefault((row.system, row.metric), []).append(_BETTER if better == row.system else _WORSE)
        else:
            marks.setdefault((better, row.metric), []).append(letters[worse])

    def shown(value) -> str:
        return "–" if value is None or math.isnan(value) else f"{value:.{digits}f}"

    best = {m: max((shown(estimates[s, m]) for s in systems if not math.isnan(estimates[s, m])),
                   key=float, default=None) for m in measures}
    header = ["system", *(escape(m) for m in measures)]
    body = []
    for s in systems:
        cells = [escape(s) + (f" ({letters[s]})" if letters else "")]
        for m in measures:
            cell = shown(estimates[s, m])
            cell = style["bold"].format(cell) if cell == best[m] else cell
            found = "".join(style.get(x, x) for x in sorted(marks.get((s, m), [])))
            cells.append(cell + (style["mark"].format(found) if found else ""))
        body.append(cells)
    note = _note(result.attrs, escape, style)
    if format == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join([":---"] + ["---:"] * len(measures)) + "|"]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body] + ["", note]) + "\n"
    return "\n".join([
        "% \\usepackage{booktabs}",
        "\\begin{table}[t]", "\\centering", f"\\caption{{{note}}}",
        "\\begin{tabular}{l" + "r" * len(measures) + "}", "\\toprule", " & ".join(header) + " \\\\", "\\midrule",
        *(" & ".join(r) + " \\\\" for r in body), "\\bottomrule", "\\end{tabular}", "\\end{table}"]) + "\n"


def _note(attrs: dict, escape, style) -> str:
    test = _TESTS[attrs["test"]].format(n_resamples=attrs["n_resamples"])
    level = f"{_CORRECTIONS[attrs['correction']]}p < {attrs['alpha']:g}"
    if attrs["baseline"] is not None:
        marks = (f"{style['mark'].format(style[_BETTER])} significantly better than {escape(attrs['baseline'])}, "
                 f"{style['mark'].format(style[_WORSE])} significantly worse")
    else:
        marks = "A superscript letter marks a system significantly better than the system of that letter"
    adjusted_over = " over the comparisons of each measure" if attrs["correction"] else ""
    return f"Best per measure in bold. {marks} ({test}, {level}{adjusted_over})."


def _latex_escape(text: str) -> str:
    return "".join("\\" + c if c in "&%$#_{}" else {"~": "\\textasciitilde{}", "^": "\\textasciicircum{}",
                                                     "\\": "\\textbackslash{}"}.get(c, c) for c in str(text))


def _markdown_escape(text: str) -> str:
    return str(text).replace("|", "\\|")
