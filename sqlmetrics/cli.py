"""The ``sqlmetrics`` command line: list, show, render, compute, compare, disparity, report, demo, and
dbt-package (the packages.yml entry installing the dbt package this installation carries).

Exit codes: 0 success; 1 the data cannot give the metric (undefined, rejected values), a
--min/--max check failed, compare found a regression (--max-drop, --alpha) or disparity one past
--max-difference or --min-ratio; 2 usage error:
unknown metric or option, bad parameter, or a file, table or column that is missing or cannot be
used (not readable, not a DuckDB database, locked by a process writing to it, a --plot file that
cannot be written); 130 interrupted (Ctrl-C). An unexpected failure exits 1 and says so. Errors go to stderr as one line, never a traceback. A reader that stops
reading (``| head``) is not an error: the exit code is what it would have been.

Results go to stdout as a table, JSON or CSV. +inf and -inf are written Infinity and -Infinity (in
JSON, the strings "Infinity" and "-Infinity": strict JSON has no such number), NaN (undefined, or a
missing value) as NaN in a table or CSV and null in JSON (see sqlmetrics.output).
"""
from __future__ import annotations

import argparse
import json
import logging
import math
import re
import sys
import warnings
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import duckdb
from sqlglot import exp

from . import __version__, api
from .command_options import flag as _flag
from .comparison import compare
from .demo import demo
from .two_windows import METHODS as DRIFT_METHODS, drift
from .engine import connect, own_connection
from .errors import MetricError, MissingColumnError, ParameterError, SourceError, UnknownMetricError
from .params import LabelText
from .output import OutputError, emit, records, silence, text, write
from .params import N_BINS, STRATEGY
from .plots import FORMATS as PLOT_FORMATS, check_destination, parse_plot_spec, pyplot, save_drift_plot, save_plot
from .progress import Steps, interrupter, run
from .registry import METRICS, RESERVED_COLUMNS, Metric, compare_of, disparity_of, named
from .systems import CORRECTIONS, paper_table
from .templates import SQL_DIR
from .report import REPORT_COLUMNS, ReportSpec, build_report, check, compare_aucs, n_steps, said_once, side_by_side
from .urls import hide_secrets, opened
from .sources import TrecQrels, TrecRun, condition_value, csv_with_nulls, filtered, is_duckdb_file

EPILOG = ("exit codes: 0 ok; 1 metric undefined, data rejected, --min/--max check failed (with --by or "
          "--per-query: in any slice or query), or a regression "
          "(compare --max-drop/--alpha); "
          "2 usage error (unknown metric or option, bad parameter, a file, table or column missing or "
          "unusable); 130 interrupted. "
          "Output: +inf/-inf as Infinity/-Infinity (JSON: the strings \"Infinity\", \"-Infinity\"), "
          "NaN as NaN (JSON: null).")
FORMATS = ("table", "json", "csv")
#: compare --run's formats besides those: the table a paper prints (sqlmetrics.paper_table)
PAPER_FORMATS = ("latex", "markdown")
#: how the command line writes the choice None (average=None: one row per class)
NONE = "none"


class UsageError(Exception):
    """A mistake in the command line itself: exit code 2."""


class Parser(argparse.ArgumentParser):
    """argparse, whose usage errors are one sentence naming where the help is (not its usage block)."""

    def error(self, message):
        raise UsageError(f"{message} (see: {self.prog} --help)")


# -- parsers ---------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="sqlmetrics", description="Evaluate classification and ranking models in SQL, where the data lives.",
        epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"sqlmetrics {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub = commands.add_parser("list", help="the metrics, one line each", epilog=EPILOG)
    _format(sub)
    sub = commands.add_parser("show", help="a metric's definition, parameters and reference", epilog=EPILOG)
    sub.add_argument("metric", metavar="METRIC")
    _format(sub)
    for name, helptext in (("render", "print a metric's SQL for an engine, without running it"),
                           ("compute", "compute one metric on a file or table")):
        sub = commands.add_parser(name, help=helptext, add_help=False, epilog=EPILOG,
                                  usage=f"sqlmetrics {name} METRIC SOURCE [options] (see: sqlmetrics {name} METRIC --help)")
        sub.add_argument("rest", nargs=argparse.REMAINDER)
    sub = commands.add_parser(
        "compare", help="is a candidate better than a baseline? a paired test; exit 1 on a regression",
        add_help=False, epilog=EPILOG,
        usage="sqlmetrics compare METRIC SOURCE (--other-score COLUMN | --other-run FILE) [options] (see: sqlmetrics "
              "compare METRIC --help)")
    sub.add_argument("rest", nargs=argparse.REMAINDER)
    sub = commands.add_parser(
        "disparity", help="a metric across the groups of sensitive columns (fairlearn's MetricFrame); exit 1 past "
        "--max-difference or --min-ratio", add_help=False, epilog=EPILOG,
        usage="sqlmetrics disparity METRIC SOURCE --sensitive COLUMN [options] (see: sqlmetrics disparity METRIC --help)")
    sub.add_argument("rest", nargs=argparse.REMAINDER)
    sub = commands.add_parser("report", help="every metric that applies, in one run", epilog=EPILOG)
    sub.add_argument("source", nargs="?", metavar="SOURCE", help="Parquet/CSV/JSON file or glob, a TREC run file as "
                     "trec:PATH, or a table with --database")
    sub.add_argument("--run", action="append", metavar="[NAME=]RUN",
                     help="instead of SOURCE, runs side by side (ranking): repeat it for each, a file or trec:PATH, "
                          "named by the file without extension, or NAME")
    _source_options(sub)
    group = sub.add_argument_group("classification columns")
    group.add_argument("--label", help="0/1 or boolean label column")
    group.add_argument("--score", action="append", metavar="COLUMN",
                       help="score column (probabilities enable log loss, Brier, calibration); repeat it to "
                            "compare scores side by side, e.g. --score new --score old")
    group.add_argument("--weight", help="optional non-negative weight column")
    group.add_argument("--group", help="group column (e.g. user id): adds GAUC")
    group.add_argument("--threshold", type=_bound(), default=0.5, help="threshold for precision/recall/F1 (default 0.5)")
    group.add_argument("--n-bins", type=int, metavar="N",
                       help=f"bins of the calibration error and plot (default: {N_BINS.default}, as ece)")
    group.add_argument("--strategy", choices=STRATEGY.choices,
                       help=f"calibration bins: equal-width or equal-count (default: {STRATEGY.default})")
    group = sub.add_argument_group("ranking columns (the run; relevance from --qrels or the run itself)")
    group.add_argument("--query", help="query/user id column (default with a trec: SOURCE, or --qrels and no "
                                       "--label: query)")
    group.add_argument("--item", default="item", help="item id column (default: item)")
    group.add_argument("--relevance", default="relevance", help="relevance column (default: relevance)")
    group.add_argument("--qrels", help="judgments file (query, item, relevance), or a TREC qrels file as trec:PATH")
    group.add_argument("--k", type=int, help="cut-off of the default ranking measures (default 10)")
    group.add_argument("--metrics", action="append", metavar="MEASURES",
                       help="the ranking measures, comma-separated or repeated, e.g. ndcg@10,P@5,map (ranx, ir_measures "
                            "and trec_eval names too: P_5, ndcg_cut_10, recip_rank; default: ndcg@K,map,mrr,P@K,"
                            "recall@K,hit_rate@K; ndcg@K has exponential gain, ndcg_cut_K linear, as trec_eval)")
    sub.add_argument("--plot", action="append", default=[], metavar="[KIND=]FILE",
                     help="save a plot: roc, pr or calibration (KIND taken from the file name if omitted), every "
                          f"--score on it; the format by the file's extension: {', '.join(PLOT_FORMATS)}")
    _format(sub)
    sub = commands.add_parser(
        "drift", help="did each column's distribution move from a reference window to a current one? exit 1 on "
        "drift", epilog=EPILOG)
    sub.add_argument("reference", metavar="REFERENCE", help="the reference window: a Parquet/CSV/JSON file or glob, "
                     "or a table of --database or --url")
    sub.add_argument("current", metavar="CURRENT", help="the current window, with the reference's columns")
    sub.add_argument("--columns", action="append", metavar="COLUMNS",
                     help="the numeric columns compared, comma-separated or repeated (one query reads each window "
                          "once, whatever their number)")
    sub.add_argument("--categorical", action="append", metavar="COLUMNS",
                     help="the columns compared by category (the binned methods and the tests of counts)")
    sub.add_argument("--method", action="append", metavar="METHOD",
                     help="comma-separated or repeated, each a row per column (default: ks; psi with --max-psi): "
                          + ", ".join(DRIFT_METHODS))
    sub.add_argument("--alpha", type=_bound(0, 1, open_low=True),
                     help="a test finds drift at a p-value below it (default: each test's Evidently default, 0.05, "
                          "and 0.1 for cramervonmises and g_test)")
    sub.add_argument("--threshold", action="append", metavar="[METHOD=]NUMBER",
                     help="a distance finds drift at or above it: for every distance, or METHOD=NUMBER for one "
                          "(default: 0.1; wasserstein, in the column's units, and total_variation need one)")
    sub.add_argument("--max-psi", type=_bound(0), metavar="NUMBER",
                     help="adds the method psi with this threshold (--method psi --threshold psi=NUMBER)")
    sub.add_argument("--binning", choices=("quantile", "uniform"), default="quantile",
                     help="the bins of a numeric column for the binned methods: at the reference's quantiles "
                          "(default) or of equal width over its range")
    sub.add_argument("--n-bins", type=int, default=10, metavar="N", help="the number of bins (default 10)")
    sub.add_argument("--edges", metavar="NUMBERS",
                     help="comma-separated cuts between the bins, in place of --binning and --n-bins")
    sub.add_argument("--weight", help="optional non-negative weight column of both windows (the distances only)")
    sub.add_argument("--by", action="append", metavar="COLUMN", help="slice by this column (repeat for several)")
    sub.add_argument("--plot", metavar="FILE", help="save each column's two distributions (its bins' or categories' "
                     f"shares, as sm.drift_bins gives them: one more query) to FILE: {', '.join(PLOT_FORMATS)}")
    for window in ("reference", "current"):
        sub.add_argument(f"--{window}-where", metavar="CONDITION",
                         help=f"only {window.upper()}'s rows where CONDITION holds, e.g. \"day < 7\" (the same file "
                              "or table can then give both windows)")
    sub.add_argument("--allow-function", action="append", default=[], metavar="NAME",
                     help="a function a --*-where may call besides those known to be pure and deterministic")
    sub.add_argument("--database", metavar="FILE", help="a DuckDB database file (opened read-only): REFERENCE and "
                     "CURRENT are tables there")
    sub.add_argument("--url", metavar="URL", help="a warehouse to compute on (a SQLAlchemy URL or a Spark Connect "
                     "address): REFERENCE and CURRENT are tables there")
    _format(sub)
    sub = commands.add_parser("demo", help="evaluate a click model on the bundled sample", epilog=EPILOG)
    _format(sub)
    commands.add_parser(
        "dbt-package", help="print a dbt packages.yml installing this installation's dbt package: the macros of "
        "this version of sqlmetrics", description="Print a dbt packages.yml whose package is the dbt project this "
        "installation of sqlmetrics carries (a local package: its directory), so that a dbt model's macros are "
        "this version's: sqlmetrics dbt-package > packages.yml && dbt deps",
        epilog="exit codes: 0 ok; 1 this installation carries no dbt project; 2 usage error.")
    return parser


def _format(parser):
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format (default: table)")


def _source_options(parser, where: str = "SOURCE's rows"):
    parser.add_argument("--database", metavar="FILE", help="a DuckDB database file (opened read-only)")
    parser.add_argument("--url", metavar="URL", help=(
        "a warehouse to compute on, as a SQLAlchemy URL (postgresql+psycopg2://user@host/db, mysql+pymysql://..., "
        "snowflake://..., bigquery://project, trino://..., databricks://...) or a Spark Connect address "
        "(sc://host:15002); SOURCE (or --table) is then a table there"))
    parser.add_argument("--table", help="the table in --database or --url (instead of SOURCE)")
    parser.add_argument("--na-values", action="append", metavar="TEXT",
                        help="read this text in a CSV SOURCE as a missing value, besides an empty field (repeat for several, "
                             "e.g. NA)")

    parser.add_argument("--where", metavar="CONDITION",
                        help=f"only {where} where CONDITION holds: one SQL condition on its columns, "
                             "e.g. \"day = 3 AND score IS NOT NULL\"")
    parser.add_argument("--allow-function", action="append", default=[], metavar="NAME",
                        help="a function --where may call besides those known to be pure and deterministic, such "
                             "as one of your own: trusted as it is (repeat for several)")


#: a file argument in trec_eval's format: trec:run.txt (SOURCE, --other: a run; --qrels: judgments)
TREC_PREFIX = "trec:"


def trec_or(value, kind):
    """`value`, or the TREC file it names with the trec: prefix (kind: TrecRun or TrecQrels)."""
    if isinstance(value, str) and value.startswith(TREC_PREFIX):
        return kind(value[len(TREC_PREFIX):])
    return value


def metric_parser(command: str, m: Metric) -> argparse.ArgumentParser:
    """The options of one metric, from its registry entry. An option not given is absent from the
    parsed arguments (argparse.SUPPRESS): the metric's own default applies, and a measure string's
    (ndcg@10: linear gain) is not overridden by the option's."""
    parser = Parser(prog=f"sqlmetrics {command} {m.name}", description=_flags(f"{m.summary} {m.formula}"),
                                     epilog=EPILOG)
    parser.add_argument("source", nargs="?", metavar="SOURCE",
                        help="Parquet/CSV/JSON file or glob, a TREC run file as trec:PATH (its columns: query, "
                        "item, score; --qrels trec:PATH: query, item, relevance), or a table name (with "
                        "--database, or for render)")
    for p in m.params:
        flags = _param_flags(p)
        required = p.required and p.kind != "relation"
        also = f" (also {', '.join(flags[1:])})" if len(flags) > 1 else ""
        kwargs = dict(help=_flags(p.doc) + ("" if p.required else f" (default: {p.default})") + also,
                      required=required, dest=p.name, default=argparse.SUPPRESS)
        if p.kind == "columns":
            parser.add_argument(*flags, action="append", metavar="COLUMN", **kwargs)
        elif p.kind == "choice":  # None, a choice of its own, is written `none`
            parser.add_argument(*flags, choices=[NONE if c is None else str(c) for c in p.choices], **kwargs)
        elif p.kind == "bool":
            parser.add_argument(*flags, action="store_true", **(kwargs | {"help": p.doc}))
        elif p.kind == "floats":  # --recall-levels 0 0.5 1
            parser.add_argument(*flags, type=float, nargs="+", metavar="X", **kwargs)
        elif p.kind == "label_value":  # read as the label column's type (params.LabelText)
            parser.add_argument(*flags, type=LabelText, metavar="VALUE", **kwargs)
        elif p.kind in ("float", "int"):
            number = float if p.kind == "float" else int
            parser.add_argument(*flags, type=_or_none(number) if p.none_ok else number,
                                metavar="N" + ("|none" if p.none_ok else ""), **kwargs)
        else:
            parser.add_argument(*flags, metavar="FILE_OR_TABLE" if p.kind == "relation" else "COLUMN", **kwargs)
    if command == "compare":
        _source_options(parser, "the rows of both runs" if _other_is_a_run(m) else "SOURCE's rows")
        parser.add_argument("--dropna", action="store_true", help="drop rows with NULLs in the metric's columns")
        parser.add_argument("--max-drop", type=_bound(low=0), metavar="X",
                            help="exit 1 when the candidate (SOURCE, --score) is worse than the baseline by more "
                                 "than X (worse: lower, or higher for a loss or an error)")
        parser.add_argument("--alpha", type=_bound(low=0, high=1, open_low=True), metavar="A",
                            help="exit 1 when the candidate is worse and the p-value is below A")
        _format(parser)
        return parser
    if command == "disparity":
        _source_options(parser)
        parser.add_argument("--dropna", action="store_true", help="drop rows with NULLs in the metric's columns")
        parser.add_argument("--max-difference", type=_bound(low=0), metavar="X",
                            help="exit 1 unless the difference is <= X (with --by: in every slice)")
        parser.add_argument("--min-ratio", type=_bound(), metavar="X",
                            help="exit 1 unless the ratio is >= X (with --by: in every slice; fairlearn's "
                                 "four-fifths rule: 0.8)")
        _format(parser)
        return parser
    if command == "render":
        parser.add_argument("--dialect", default="duckdb", help=(
            "target SQL dialect (default: duckdb); SOURCE is a table name as the dialect writes it (BigQuery: "
            "my-project.dataset.table). On warehouses sqlmetrics does not run on (bigquery, snowflake, trino, "
            "redshift, mysql, databricks) a column written plainly is the one the warehouse finds for it unquoted "
            "(snowflake: clicked is CLICKED); write '\"clicked\"' for the exact name"))
        parser.add_argument("--pretty", action="store_true", help="indented SQL over several lines (default: one line)")
        if m.per_query:
            parser.add_argument("--per-query", action="store_true", help="the SQL of the per-query values")
        return parser
    _source_options(parser)
    parser.add_argument("--details", action="store_true", help="show the counts behind the value")
    parser.add_argument("--dropna", action="store_true", help="drop rows with NULLs in the metric's columns")
    if m.per_query:
        parser.add_argument("--per-query", action="store_true", help="the value of every query")
    parser.add_argument("--min", type=_bound(), metavar="X",
                        help="exit 1 unless the value is >= X (with --by or --per-query: every one)")
    parser.add_argument("--max", type=_bound(), metavar="X",
                        help="exit 1 unless the value is <= X (with --by or --per-query: every one)")
    if m.plot:
        parser.add_argument("--plot", metavar="FILE", help=f"save the curve as {', '.join(PLOT_FORMATS)} (by extension)")
    _format(parser)
    return parser


def _param_flags(p) -> list[str]:
    """A parameter's flags: its own; compare's `other` is --other-score (a second column of SOURCE, as
    auc_compare's --other-score) or --other-run (a second run), --other kept for both."""
    if p.name != "other":
        return [_flag(p.name)]
    return ["--other-run" if p.kind == "relation" else "--other-score", "--other"]


# -- commands --------------------------------------------------------------------------------------

def find_metric(name: str) -> Metric:
    """The metric `name` names: a metric, an alias or a measure string (ndcg@10 names ndcg)."""
    try:
        return named(name, {})[0]
    except UnknownMetricError as e:
        hint = f"; did you mean {e.suggestion!r}?" if e.suggestion else ""
        raise UsageError(f"unknown metric {e.name!r}{hint} (sqlmetrics list shows them all)") from None


def cmd_list(args) -> int:
    rows = [{"metric": m.name, "kind": m.kind, "description": m.summary} for m in METRICS.values()]
    emit(rows, args.format, {"metrics": rows})
    return 0


def cmd_show(args) -> int:
    m = find_metric(args.metric)
    fixed = named(args.metric, {})[1]  # what a measure string (ndcg@10) sets: its defaults instead
    # the texts in the command line's words (details=True: --details, bins=N: --bins N); the reference
    # stays the other library's call
    params = [{"name": p.name, "kind": p.kind, "required": p.required,
               "default": fixed.get(p.name, None if p.required else p.default), "description": _flags(p.doc)}
              for p in m.params]
    summary, formula, undefined = _flags(m.summary), _flags(m.formula), _flags(m.undefined)
    info = {"metric": m.name, "kind": m.kind, "summary": summary, "formula": formula,
            "undefined_when": undefined or None, "reference": m.reference, "outputs": list(m.outputs),
            "parameters": params} | ({"measure": args.metric, "measure_sets": fixed} if fixed else {})
    if args.format == "table":
        lines = [f"{m.name} ({m.kind}): {summary}", "", f"  {formula}", ""]
        if fixed:
            lines += [f"{args.metric} is {m.name} with " + ", ".join(f"{_flag(k)} {v}" for k, v in fixed.items()), ""]
        if undefined:
            lines += [f"Undefined when {undefined}.", ""]
        lines += ["Parameters:"] + [
            f"  {_flag(p['name']):<24} {p['description']}"
            + ("" if p["required"] else f" (default: {p['default']})") for p in params]
        lines += ["", f"Output columns: {', '.join(m.outputs)}{m.outputs_note(option=_flag)}",
                  f"Reference: {m.reference}"]
        write("\n".join(lines))
    else:
        emit(params, args.format, info, columns=["name", "kind", "required", "default", "description"])
    return 0


def _choice(p, value):
    """A choice as the command line writes it (`none`, `0`) -> the choice itself (None, 0)."""
    return {NONE if c is None else str(c): c for c in p.choices}.get(value, value)


def _bound(low=None, high=None, open_low=False):
    """An argparse type: a finite number in the range (a NaN bound could never be crossed, so a check with
    it would always pass)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        within = math.isfinite(value) and (low is None or value > low or (value == low and not open_low)) and (
            high is None or value < high)
        if not within:
            rule = ("a finite number" + (f" {'>' if open_low else '>='} {low:g}" if low is not None else "")
                    + (f" and < {high:g}" if high is not None else ""))
            raise argparse.ArgumentTypeError(f"must be {rule}; got {text!r}")
        return value
    return parse


def _or_none(number):
    """A number option that may also be `none` (k=None: the whole list), kept as the word until parsed."""
    def parse(text: str):
        return NONE if text == NONE else number(text)
    parse.__name__ = number.__name__  # argparse names the type in its error message
    return parse


def _value(p, value):
    """An option's value as the metric takes it."""
    if p.kind == "choice":
        return _choice(p, value)
    return None if p.none_ok and value == NONE else value


def metric_call(command: str, argv: list[str]):
    """The metric METRIC names (a metric, or a measure string such as ndcg@10), the parsed arguments
    and the metric's parameters: the options given, with those the measure string fixes."""
    if not argv or argv[0] in ("-h", "--help"):
        names = [n for n in METRICS if (command != "compare" or _comparable(n)) and
                 (command != "disparity" or _disparity_takes(n))]
        usage = (f"usage: sqlmetrics {command} METRIC SOURCE [options]; metrics: {', '.join(names)} "
                 f"(each one's options: sqlmetrics {command} METRIC --help)")
        if not argv:
            raise UsageError(f"{command} needs METRIC and SOURCE; {usage}")
        write(f"{usage}\n\n{EPILOG}")
        raise SystemExit(0)
    m = find_metric(argv[0])
    if command == "compare":
        m = _compared(m.name, {})
    if command == "disparity":
        m = _disparity(m.name, {})
    fixed = named(argv[0], {})[1]  # what a measure string sets: not required, and its value the default shown
    m = replace(m, params=tuple(replace(p, default=fixed[p.name]) if p.name in fixed else p for p in m.params))
    args = metric_parser(command, m).parse_args(argv[1:])
    params = {p.name: _value(p, getattr(args, p.name)) for p in m.params if hasattr(args, p.name)}
    for name, kind in (("qrels", TrecQrels), ("other", TrecRun)):
        if name in params and m.param(name).kind == "relation":
            params[name] = trec_or(params[name], kind)
    metric, params = named(argv[0], params)  # a measure string's own k, gain, ...
    derived = {"compare": _compared, "disparity": _disparity}.get(command)
    return (derived(metric.name, params) if derived else metric), args, params


def _compared(name: str, params: dict) -> Metric:
    """compare's metric for METRIC with `params` (its parameters but `metric`, which METRIC names)."""
    derived = compare_of(name, dict(params))[0]
    return replace(derived, name=name, params=tuple(p for p in derived.params if p.name != "metric"))


def _disparity(name: str, params: dict) -> Metric:
    """group_disparity's metric for METRIC (its parameters but `metric`, which METRIC names)."""
    derived = disparity_of(name, dict(params))[0]
    return replace(derived, name=name, params=tuple(p for p in derived.params if p.name != "metric"))


def _disparity_takes(name: str) -> bool:
    try:
        disparity_of(name, {})
    except ParameterError:
        return False
    return True


def _comparable(name: str) -> bool:
    try:
        compare_of(name, {})
    except ParameterError:
        return False
    return True


def cmd_render(argv) -> int:
    m, args, params = metric_call("render", argv)
    if args.source is None:
        raise UsageError("render needs SOURCE: the table name (or file path, for DuckDB) the SQL reads")
    if getattr(args, "per_query", False):
        params["per_query"] = True
    write(api.render(m.name, trec_or(args.source, TrecRun), dialect=args.dialect, pretty=args.pretty, **params))
    return 0


def cmd_compute(argv) -> int:
    m, args, params = metric_call("compute", argv)
    per_query = getattr(args, "per_query", False)
    if (args.min is not None or args.max is not None) and m.kind != "scalar":
        what = {"curve": "a curve"}.get(m.kind, "several values")
        raise UsageError(f"--min/--max check a single value (of each slice); {m.name} here gives {what}")
    if args.min is not None and args.max is not None and args.min > args.max:
        raise UsageError(f"--min {args.min:g} is above --max {args.max:g}: no value could pass")
    plots = []
    if getattr(args, "plot", None):
        if params.get("by"):
            raise UsageError("--plot draws one curve, not one per --by slice: drop --by, or select one slice "
                             "with --where")
        plots = [f"{m.plot}={args.plot}"]
        prepare_plots(plots)
    with data_source(args) as (data, con):
        options = dict(con=con, details=args.details, dropna=args.dropna) | ({"per_query": True} if per_query else {})
        function = getattr(sys.modules["sqlmetrics"], m.name)
        result = run(f"computing {m.name}", lambda: function(data, **params, **options), interrupt=interrupter(con))
    if plots:  # before the output: a reader that stops reading (| head) cannot lose the file
        save_plots(plots, {m.plot: {params.get("score", m.plot): result}}, weighted=bool(params.get("weight")))
    rows = records(result, m)
    emit(rows, args.format, {"metric": m.name, "rows": rows} | ({"value": result} if isinstance(result, float) else {}),
         keys=_keys(rows, m))
    if args.min is None and args.max is None:
        return 0
    keys = list(params.get("by") or []) + ([params.get("query", "query")] if per_query else [])
    if keys:  # a row per slice or query
        return check_slices(m.name, rows, keys, "queries" if per_query else "slices", args.min, args.max)
    if args.details:  # the one row of the value and its counts
        result = rows[0][m.name]
    return check_bounds(m.name, result, args.min, args.max)


def _keys(rows: list[dict], m: Metric) -> list[str]:
    """The columns of a result that are not the metric's outputs: slices (by), queries, classes."""
    return [c for c in dict.fromkeys(c for row in rows for c in row) if c not in m.outputs]


def cmd_compare(argv) -> int:
    if any(a == "--run" or a.startswith("--run=") for a in argv):
        return cmd_compare_runs(argv)
    m, args, params = metric_call("compare", argv)
    if params.get("other") is None:
        if _other_is_a_run(m):
            raise UsageError("compare needs --other-run: the baseline, a second run of the same queries")
        raise UsageError("compare needs --other-score: the baseline, a second column of SOURCE compared with the "
                         "candidate's")
    better = METRICS[m.name].better
    if better == "neither" and (args.max_drop is not None or args.alpha is not None):
        raise UsageError(f"--max-drop and --alpha gate a metric that is better higher or lower; {m.name} is best at "
                         "1: compare shows the difference, or gate each with compute --min/--max")
    with data_source(args) as (data, con):
        other = params.pop("other")
        if args.where and _other_is_a_run(m):
            other = where(other, args.where, con, args.allow_function)  # both runs: on the same queries
        result = run(f"comparing {m.name}", lambda: compare(m.name, data, other, con=con, dropna=args.dropna, **params),
                     interrupt=interrupter(con))
    rows = records(result, m)
    emit(rows, args.format, {"metric": m.name, "rows": rows}, keys=_keys(rows, m))
    return check_regression(m.name, rows, params.get("by") or [], args.max_drop, args.alpha, better)


def cmd_disparity(argv) -> int:
    m, args, params = metric_call("disparity", argv)
    from .disparity import group_disparity
    with data_source(args) as (data, con):
        result = run(f"computing {m.name} across groups", lambda: group_disparity(data, m.name, con=con,
                                                                                   dropna=args.dropna, **params),
                     interrupt=interrupter(con))
    rows = records(result, m)
    by = list(params.get("by") or [])
    emit(rows, args.format, {"metric": m.name, "rows": rows},
         keys=by + (list(params["sensitive"]) if params.get("per_group") else []))
    slices = list({tuple(row[c] for c in by): row for row in rows}.values())  # per_group: a slice's rows repeat it
    checks = [("difference", None, args.max_difference), ("ratio", args.min_ratio, None)]
    return max([check_slices(column, slices, by, "slices", low, high) if by
                else check_bounds(column, slices[0][column], low, high)
                for column, low, high in checks if low is not None or high is not None] or [0])


def _other_is_a_run(m: Metric) -> bool:
    """compare's --other: a second run (ranking metrics), or a second score column of SOURCE (gauc)."""
    return next(p for p in m.params if p.name == "other").kind == "relation"


def check_regression(name: str, rows: list[dict], by: list[str], max_drop, alpha, better: str = "higher") -> int:
    """0 unless a row (slice) shows the candidate worse than the baseline by more than max_drop, or
    worse with a p-value below alpha: then 1, with a line on stderr naming the slices. Worse is a
    lower value, or a higher one where lower is `better` (a loss, an error)."""
    lower = better == "lower"
    failing = []
    for row in rows:
        difference, p = row["difference"], row["p_value"]
        worse = None if difference is None else difference if lower else -difference  # > 0: the candidate is worse
        reasons = []
        if max_drop is not None and (worse is None or worse > max_drop):
            reasons.append(f"difference {text(difference)} " + (f"> {max_drop:g} (lower is better)" if lower
                                                                 else f"< -{max_drop:g}"))
        if alpha is not None and worse is not None and worse > 0 and p is not None and p < alpha:
            reasons.append(f"p = {p:.3g} < {alpha:g}")
        if reasons:
            where = ", ".join(f"{c}={row[c]!r}" for c in by)
            failing.append((f"{where}: " if where else "") + " and ".join(reasons))
    if failing:
        say(f"sqlmetrics: regression in {name}: " + "; ".join(failing))
        return 1
    return 0


def _outside(value, low, high) -> bool:
    """Outside the bounds, or undefined (NaN, None: never within)."""
    return value is None or math.isnan(value) or (low is not None and value < low) or (high is not None and value > high)


def _bounds(low, high) -> str:
    return " and ".join(s for s in (f">= {low}" if low is not None else "", f"<= {high}" if high is not None else "") if s)


def _shown(value) -> str:
    return f"{value:.6g}" if value is not None and math.isfinite(value) else text(value)


def check_bounds(name, result: float, low, high) -> int:
    """0 if `result` is within the bounds given, else 1 with a line on stderr (NaN is never within)."""
    if _outside(result, low, high):
        say(f"sqlmetrics: check failed: {name} = {_shown(result)}, expected {_bounds(low, high)}")
        return 1
    return 0


def check_slices(name, rows: list[dict], keys: list[str], what: str, low, high, shown: int = 10) -> int:
    """check_bounds for every row (`what`: --by slices, or queries), named by its `keys`: 1 with a
    line on stderr naming the rows that fail (the first `shown` of them), 0 when every one passes."""
    failing = [row for row in rows if _outside(row[name], low, high)]
    if not failing:
        return 0
    named = [", ".join(f"{c}={row[c]!r}" for c in keys) + f": {_shown(row[name])}" for row in failing[:shown]]
    more = f"; and {len(failing) - shown} more" if len(failing) > shown else ""
    say(f"sqlmetrics: check failed: {name} expected {_bounds(low, high)}; {len(failing)} of {len(rows)} {what} "
        "fail: " + "; ".join(named) + more)
    return 1


@contextmanager
def data_source(args):
    """(data, con): SOURCE (files, read by a DuckDB in memory) or --database/--table (the database
    file, opened read-only). The connection is the CLI's own, so Ctrl-C can interrupt its query."""
    if args.table and not (args.database or args.url):
        raise UsageError("--table needs --database or --url")
    if args.allow_function and not args.where:
        raise UsageError("--allow-function names a function --where may call: give --where too")
    if args.database and args.url:
        raise UsageError("--database and --url name two places to compute: give one")
    if args.url:
        table = args.table or args.source
        if not table:
            raise UsageError("with --url, name the table: --table NAME (or as SOURCE)")
        if args.na_values:
            raise UsageError("--na-values applies to a CSV file given as SOURCE, not to a table of --url")
        with opened(args.url) as con:
            yield (where(table, args.where, con, args.allow_function) if args.where else table), con
        return
    if args.database:
        table = args.table or args.source
        if not table:
            raise UsageError("with --database, name the table: --table NAME (or as SOURCE)")
        con, data = open_database(args.database), table
    elif not args.source:
        raise UsageError("SOURCE is missing: a Parquet/CSV/JSON file or glob (or --database FILE --table NAME)")
    elif is_duckdb_file(args.source):
        raise UsageError(f"SOURCE {args.source!r} is a DuckDB database file: pass --database {args.source} "
                         "--table NAME")
    else:
        con, data = own_connection(), trec_or(args.source, TrecRun)
    if args.na_values:
        if args.database or not re.search(r"\.(csv|tsv)(\.\w+)?\Z", str(data), re.I):
            raise UsageError("--na-values applies to a CSV file given as SOURCE")
        if "" in args.na_values:
            warnings.warn("--na-values '': an empty field is a missing value already")
        data = csv_with_nulls(data, args.na_values)
    try:
        if args.where:
            data = where(data, args.where, con, args.allow_function)
        yield data, con
    finally:
        con.close()


def where(data, condition: str, con, functions: list[str]):
    """The rows of `data` where --where's `condition` holds, calling the functions allowed and those of
    --allow-function. A value that is not true or false (a quoted 'a', a number, a text column) is a
    mistake of the command line, said before anything is computed: DuckDB would otherwise cast it to a
    boolean row by row, and fail halfway as if the data were wrong."""
    engine = connect(con)
    functions = tuple(functions)
    with engine.call(), engine.source(condition_value(data, condition, "--where", engine.dialect, functions,
                                                      engine.reading)) as source:
        kind = next(iter(engine.schema(source).values()))
    if not engine.capabilities.is_condition(engine.type_class(kind)):
        raise UsageError(f"--where must be a condition, true or false on each row (such as \"country = 'DE'\"); "
                         f"{condition!r} is a value of type {kind}")
    return filtered(data, condition, "--where", engine.dialect, functions, engine.reading)


def open_database(path: str):
    """A DuckDB database file, read-only; the reason in one sentence when it cannot be opened."""
    if not Path(path).is_file():
        raise SourceError(f"no DuckDB database file {path!r} (--database)")
    try:
        return own_connection(path, read_only=True)
    except duckdb.Error as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        # DuckDB's own words (the path, also in the message, could contain them too)
        if "is not a valid DuckDB database file" in reason:
            raise SourceError(f"{path!r} is not a DuckDB database file (--database takes one)") from None
        if "Could not set lock on file" in reason:
            raise SourceError(f"cannot open the DuckDB database {path!r}: another process has it open for writing "
                              f"({reason}); close that connection first, or read a copy of the file") from None
        raise SourceError(f"cannot open the DuckDB database {path!r}: {reason}") from None


def cmd_report(args) -> int:
    if args.run:
        return report_runs(args)
    scores = args.score or [None]
    if len(set(scores)) < len(scores):
        raise UsageError("--score names a column twice")
    bins = {k: v for k, v in (("n_bins", args.n_bins), ("strategy", args.strategy)) if v is not None}
    # a run in trec_eval's format (whose reader names its columns), or judgments without a label, make
    # it a ranking report: its query column is then `query`, the ranking metrics' default (judgments
    # with a label are left to check, which says what --qrels needs)
    ranking = str(args.source).startswith(TREC_PREFIX) or (args.qrels and not args.label)
    query = args.query or ("query" if ranking else None)
    spec = ReportSpec(source=str(args.table or args.source), label=args.label, score=scores[0],
                      weight=args.weight, group=args.group, threshold=args.threshold, query=query,
                      item=args.item, relevance=args.relevance, qrels=args.qrels, k=args.k,
                      metrics=_measure_list(args.metrics), **bins)
    check(spec)  # before the plots are checked, and anything computed
    if bins and not args.label:
        raise UsageError("--n-bins and --strategy apply to the calibration metrics: they need --label and --score")
    N_BINS.validate(spec.n_bins)
    kinds = set()
    if args.plot:
        kinds = {kind for kind, _ in prepare_plots(args.plot)}
        if not (args.label and args.score):
            raise UsageError(f"--plot {', '.join(sorted(kinds))} needs --label and --score")
    spec = replace(spec, qrels=trec_or(spec.qrels, TrecQrels), compared=len(scores) > 1)
    specs = {score: replace(spec, score=score) for score in scores}
    others = scores[1:] if args.label else []  # DeLong's test of the first score's AUC against each
    steps = Steps(sum(n_steps(s) for s in specs.values()) + len(kinds) * len(specs) + len(others))
    with data_source(args) as (data, con):
        reports = {score: build_report(data, con, s, steps) for score, s in specs.items()}
        compared = compare_aucs(data, con, specs[scores[0]], others, steps)
        curves: dict = {kind: {} for kind in kinds}
        for score, report in reports.items():
            for kind, curve in report.curves(kinds, data, con).items():
                curves[kind][score] = curve
    if kinds:  # before the output: a reader that stops reading (| head) cannot lose the files
        save_plots(args.plot, curves, weighted=bool(args.weight))
    if len(reports) == 1:
        emit_report(reports[scores[0]].table(), args.format, reports[scores[0]].as_json(), REPORT_COLUMNS)
    else:
        rows, document = side_by_side(reports, compared=compared)
        emit_report(rows, args.format, document, ["metric", *reports, "based_on"])
    return 0


def emit_report(rows: list[dict], fmt: str, document: dict, columns: list[str]) -> None:
    """A report's rows; a table says each based_on once (report.said_once)."""
    emit(said_once(rows) if fmt == "table" else rows, fmt, document, columns=columns)


def report_runs(args) -> int:
    """report --run A --run B: the ranking measures of each run (of its files, on DuckDB), side by side."""
    given = [f"--{name.replace('_', '-')}" for name in ("source", "database", "url", "table", "where",
                                                         "allow_function", "na_values",
                                                         "label", "group", "weight", "plot", "n_bins", "strategy")
             if getattr(args, name)]
    if given or (args.score and len(args.score) > 1):
        raise UsageError(f"--run evaluates the ranking measures of each run file: drop {', '.join(given) or '--score'}")
    runs = named_runs(args.run)
    spec = ReportSpec(source="", score=(args.score or ["score"])[0], query=args.query or "query", item=args.item,
                      relevance=args.relevance, qrels=args.qrels, k=args.k, metrics=_measure_list(args.metrics))
    check(spec)
    spec = replace(spec, qrels=trec_or(spec.qrels, TrecQrels))
    steps = Steps(len(runs) * n_steps(spec))
    con = own_connection()
    try:
        reports = {name: build_report(run_data, con, replace(spec, source=str(getattr(run_data, "path", run_data))),
                                      steps) for name, run_data in runs.items()}
    finally:
        con.close()
    rows, document = side_by_side(reports, "run")
    emit_report(rows, args.format, document, ["metric", *reports, "based_on"])
    return 0


def _measure_list(values: list[str] | None) -> tuple[str, ...] | None:
    """--metrics ndcg@10,P@5 --metrics map (or drift's --columns, --method): the items of an option given
    comma-separated or repeated, split at commas outside parentheses (P(rel=2)@5)."""
    if values is None:
        return None
    return tuple(m.strip() for value in values for m in re.split(r",(?![^()]*\))", value) if m.strip())


# -- several runs: compare --run ... ---------------------------------------------------------------

def runs_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="sqlmetrics compare", epilog=EPILOG, description=(
        "Several runs compared on several measures: each system against --baseline (or every pair), a paired "
        "test per measure and pair, the p-values of a measure adjusted together."))
    parser.add_argument("metrics", metavar="METRICS", help="the measures, comma-separated, e.g. ndcg@10,P@5,map "
                        "(as report --metrics reads them)")
    parser.add_argument("--run", action="append", required=True, metavar="[NAME=]RUN",
                        help="a run: a Parquet/CSV/JSON file, or a TREC run file as trec:PATH; repeat it for each "
                             "system (two or more). Its name is the file's without extension, or NAME")
    parser.add_argument("--qrels", help="judgments file (query, item, relevance), or a TREC qrels file as trec:PATH")
    parser.add_argument("--baseline", metavar="NAME", help="the run every other is compared with (default: every pair)")
    parser.add_argument("--test", choices=("paired_t", "wilcoxon", "randomization"), default="paired_t",
                        help="the paired test (default: paired_t)")
    parser.add_argument("--correction", choices=[NONE if c is None else c for c in CORRECTIONS], default="holm",
                        help="adjustment of the p-values of each measure, over its comparisons (default: holm)")
    parser.add_argument("--alpha", type=_bound(low=0, high=1, open_low=True), default=0.05, metavar="A",
                        help="significant: an adjusted p-value below A (default: 0.05)")
    parser.add_argument("--n-resamples", type=int, default=10000, metavar="N",
                        help="sign flips of the randomization test (default: 10000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the randomization test's draws (default: 0)")
    for column in ("query", "item", "score", "relevance"):
        parser.add_argument(f"--{column}", default=column, metavar="COLUMN",
                            help=f"the runs' {column} column (default: {column})")
    parser.add_argument("--format", choices=FORMATS + PAPER_FORMATS, default="table",
                        help="output format (default: table); latex and markdown: a table of systems x measures, "
                             "the best in bold, significant differences marked")
    return parser


def named_runs(values: list[str]) -> dict:
    """--run [NAME=]PATH, repeated: name -> run (a TREC file as TrecRun), named by the file without its
    extension where no NAME is given."""
    runs = {}
    for value in values:
        given = re.match(r"([\w.@+-]+)=(.+)\Z", value)
        name, path = given.groups() if given else (None, value)
        name = name or Path(path.removeprefix(TREC_PREFIX)).stem
        if name in runs:
            raise UsageError(f"two runs are named {name!r}: name them, --run NAME=PATH")
        runs[name] = trec_or(path, TrecRun)
    return runs


def cmd_compare_runs(argv) -> int:
    args = runs_parser().parse_args(argv)
    if len(args.run) < 2:
        raise UsageError("compare --run needs two runs or more (--run A --run B); one run against another run "
                         "is also: sqlmetrics compare METRIC RUN --other BASELINE")
    runs = named_runs(args.run)
    metrics = _measure_list([args.metrics])
    options = dict(baseline=args.baseline, test=args.test, correction=None if args.correction == NONE else args.correction,
                   alpha=args.alpha, n_resamples=args.n_resamples, seed=args.seed, query=args.query, item=args.item,
                   score=args.score, relevance=args.relevance)
    con = own_connection()
    try:
        result = run(f"comparing {len(runs)} runs", lambda: compare(
            metrics=list(metrics), runs=runs, qrels=trec_or(args.qrels, TrecQrels), con=con, **options),
            interrupt=interrupter(con))
    finally:
        con.close()
    if args.format in PAPER_FORMATS:
        write(paper_table(result, args.format), end="")
        return 0
    rows = records(result)
    emit(rows, args.format, {"metrics": list(metrics)} | result.attrs | {"rows": rows},
         keys=["system", "baseline", "metric"])
    return 0


@contextmanager
def _compute_place(args):
    """The connection drift computes on: --url's warehouse, --database's file (read-only), or a DuckDB in
    memory that reads REFERENCE and CURRENT as files."""
    if args.database and args.url:
        raise UsageError("--database and --url name two places to compute: give one")
    if args.url:
        with opened(args.url) as con:
            yield con
        return
    for window in (args.reference, args.current):
        if not args.database and is_duckdb_file(window):
            raise UsageError(f"{window!r} is a DuckDB database file: pass --database {window} and name its tables")
    con = open_database(args.database) if args.database else own_connection()
    try:
        yield con
    finally:
        con.close()


def cmd_drift(args) -> int:
    """sm.drift of REFERENCE and CURRENT: a row per (slice, column, method); exit 1 when one finds drift."""
    columns, categorical = list(_measure_list(args.columns) or []), list(_measure_list(args.categorical) or [])
    if not columns and not categorical:
        raise UsageError("drift: name the columns to compare: --columns (numeric) or --categorical")
    methods = list(_measure_list(args.method) or ([] if args.max_psi is not None else ["ks"]))
    threshold = _drift_thresholds(args.threshold or [])
    if args.max_psi is not None:  # psi's own threshold; a --threshold NUMBER stays every other distance's
        methods += [] if "psi" in methods else ["psi"]
        if not isinstance(threshold, dict):
            threshold = {m: threshold for m in methods if threshold is not None and not DRIFT_METHODS[m].test}
        threshold["psi"] = args.max_psi
    by = args.by or []
    plot = _drift_plot_file(args.plot)
    binning = {"binning": args.binning, "n_bins": args.n_bins, "edges": _numbers(args.edges, "--edges")}
    with _compute_place(args) as con:
        reference, current = ((where(data, condition, con, args.allow_function) if condition else data)
                              for data, condition in ((args.reference, args.reference_where),
                                                      (args.current, args.current_where)))
        result = run("comparing the windows", lambda: drift(
            reference, current, columns, categorical=categorical, method=methods, alpha=args.alpha,
            threshold=threshold, weight=args.weight, by=by or None, con=con, **binning), interrupt=interrupter(con))
        if plot:
            bins = run("the bins of the plot", lambda: api.compute_metric(
                METRICS["drift_bins"], reference, current=current, columns=columns, categorical=categorical,
                weight=args.weight, by=by or None, con=con, **binning), interrupt=interrupter(con))
            save_drift_plot(bins, columns + categorical, plot, by)
    rows = records(result)
    emit(rows, args.format, {"rows": rows}, keys=by)
    drifted = [", ".join([*(f"{c}={row[c]!r}" for c in by), row["column"]]) + f" ({row['method']})"
               for row in rows if row["drift"]]
    if drifted:
        say("sqlmetrics: drift in " + "; ".join(drifted))
        return 1
    return 0


def _drift_plot_file(spec: str | None) -> Path | None:
    """--plot FILE, checked before anything is computed."""
    if spec is None:
        return None
    path = Path(spec)
    if path.suffix.lower() not in PLOT_FORMATS:
        raise UsageError(f"--plot {spec!r}: the file must end in {', '.join(PLOT_FORMATS)} (its format)")
    check_destination(path)
    return path


def _drift_thresholds(given: list[str]):
    """--threshold 0.2 (every distance) or --threshold psi=0.2 --threshold energy=0.05 (one each)."""
    if not given:
        return None
    named = [g.partition("=") for g in given]
    if all(sep for _, sep, _ in named):
        return {method.strip(): _numbers(value, f"--threshold {method}=")[0] for method, _, value in named}
    if len(given) == 1:
        return _numbers(given[0], "--threshold")[0]
    raise UsageError("--threshold: give one number for every distance, or METHOD=NUMBER for each")


def _numbers(text: str | None, option: str) -> list[float] | None:
    """Comma-separated finite numbers of an option, or None without it."""
    if text is None:
        return None
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(f"{option} takes numbers, comma-separated; got {text!r}") from None
    if not all(map(math.isfinite, values)):
        raise UsageError(f"{option} takes finite numbers; got {text!r}")
    return values


def cmd_demo(args) -> int:
    demo(args.format)
    return 0


def dbt_project() -> Path:
    """The dbt project this installation carries, whose macros are the templates it renders: the package
    directory of an installed wheel (sqlmetrics/dbt_project.yml, macro-paths sql/: pyproject.toml puts
    both there), the root of a checkout (an editable install)."""
    return SQL_DIR.parent


def cmd_dbt_package(args) -> int:
    """packages.yml with this installation's dbt project as a local package (docs/dbt.md): the macros are
    the same version's as the Python package, whatever commit or release it was installed from."""
    project = dbt_project()
    if not (project / "dbt_project.yml").is_file():
        return _fail(f"this installation of sqlmetrics carries no dbt project ({project / 'dbt_project.yml'} is "
                     "missing): install sqlmetrics again from its repository (pip install .)", 1)
    # a JSON string is a YAML double-quoted scalar: any path, spaces and backslashes included
    write(f"# the dbt package of sqlmetrics {__version__} as installed here: its macros follow this installation\n"
          f"packages:\n  - local: {json.dumps(str(project))}")
    return 0


def prepare_plots(specs: list[str]) -> list:
    """Check --plot before computing anything: the kinds, the files and their formats, matplotlib."""
    parsed = [parse_plot_spec(spec) for spec in specs]
    for _, path in parsed:
        check_destination(path)
    pyplot()
    return parsed


def save_plots(specs: list[str], curves: dict, weighted: bool) -> None:
    """`curves`: kind -> score column -> its curve, every score drawn on the kind's plot."""
    for spec in specs:
        kind, path = parse_plot_spec(spec)
        save_plot(kind, curves[kind], path, weighted)
        say(f"wrote {path}")


# -- entry point -----------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # sqlglot logs what it cannot read (a --where in another dialect's syntax) before sqlmetrics says
    # so in its own line: one line per error, never two
    logging.getLogger("sqlglot").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.showwarning = _warning  # one line, e.g. how many rows --dropna dropped
        code = _main(argv)
    try:
        write("", end="")  # flush what is buffered: a failure now is reported, not a traceback at exit
    except OutputError as e:
        code = _fail(str(e), 2)
    return code


def _main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if args.command is None:
            if unknown:
                parser.error(f"unrecognized arguments: {' '.join(unknown)}")
            parser.print_help(sys.stderr)
            return 2
        if args.command in ("render", "compute", "compare", "disparity"):  # the metric's own parser reads the rest
            rest = unknown + args.rest  # `compute --help`: argparse leaves an option before METRIC unread
            return {"render": cmd_render, "compute": cmd_compute, "compare": cmd_compare,
                    "disparity": cmd_disparity}[args.command](rest)
        if unknown:
            raise UsageError(f"unrecognized arguments: {' '.join(unknown)} (see: sqlmetrics {args.command} --help)")
        return {"list": cmd_list, "show": cmd_show, "report": cmd_report, "demo": cmd_demo, "drift": cmd_drift,
                "dbt-package": cmd_dbt_package}[args.command](args)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return 0 if e.code is None else e.code if isinstance(e.code, int) else 2
    except UsageError as e:
        return _fail(str(e), 2)
    except (ParameterError, SourceError, MissingColumnError) as e:  # what the command line named is wrong
        return _fail(str(e), 2)
    except MetricError as e:  # the data cannot give the metric: undefined, NULLs, labels not 0/1...
        return _fail(str(e), 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except OutputError as e:
        return _fail(str(e), 2)
    except BrokenPipeError:  # the reader has gone (argparse's --help | head): nothing more to say
        silence(sys.stdout)
        return 0
    except MemoryError:
        return _fail("out of memory", 1)
    except Exception as e:  # a bug: still one line, with what is needed to report it
        detail = str(e).strip().splitlines()[0] if str(e).strip() else "(no message)"
        return _fail(f"unexpected {type(e).__name__}: {detail} (a bug in sqlmetrics: please report it with "
                     "the command line)", 1)


def say(message: str) -> None:
    """A line on stderr; a closed stderr cannot turn it into a traceback."""
    try:
        print(message, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _fail(message: str, code: int) -> int:
    say(f"sqlmetrics: error: {_flags(hide_secrets(message))}")
    return code


def _warning(message, category, filename, lineno, file=None, line=None) -> None:
    say(f"sqlmetrics: warning: {_flags(hide_secrets(str(message)))}")


#: the options of the Python API a message may name as `name=value`; names that are also output
#: columns (n, threshold) are options only with a value that is no count (None, True, 'text'); a
#: function's argument (a reference: _weighted_percentile(average=True)) is none
_OPTIONS = {p.name for m in METRICS.values() for p in m.params} | {"dropna", "details", "per_query"} | {
    "test", "n_resamples", "seed", "cluster", "other"}  # compare's own
_COUNTS = _OPTIONS & RESERVED_COLUMNS
_ASSIGNMENT = re.compile(r"(?<!\w\()\b([a-z][a-z_]*)=(None|True|float\('\w+'\)|'[^']*'|[\w.+-]+)?")
#: advice in the Python API's terms (a sqlmetrics.Query) -> what the command line offers instead
_ADVICE = (
    (re.compile(r"a table name, sqlmetrics\.Query, file(?: path)? or (?:DataFrame|frame)"),
     lambda m: "a Parquet/CSV/JSON file, or a table of --database"),
    (re.compile(r"or wrap a query in sqlmetrics\.Query\('SELECT \.\.\.'\)"), lambda m: "and select rows with --where"),
    (re.compile(r"pass functions=\('([^']*)',\) to sqlmetrics\.Query"), lambda m: f"pass --allow-function {m.group(1)}"),
    (re.compile(r"first, in a sqlmetrics\.Query\('SELECT \.\.\.'\)"),
     lambda m: "first, in the data (e.g. a view in a --database file)"),
    # a relation named by the parameter that gave it (train, qrels): its flag
    (re.compile(r"(?<= given as )([a-z_]+)\b"), lambda m: _flag(m.group(1)) if m.group(1) in _OPTIONS else m.group(0)),
    (re.compile(r"rename it, e\.g\. sqlmetrics\.Query\('SELECT .*? FROM \.\.\.'\)"),
     lambda m: "rename it in the data (e.g. a view in a --database file)"),
    (re.compile(r"cast one side in a sqlmetrics\.Query \(e\.g\. (.*?)\)$"),
     lambda m: f"give both the same type in the data (e.g. {m.group(1)} in a view of a --database file)"),
    (re.compile(r"column '([^']+)' \(\w+\) has .*?; remove them(?=, or pass dropna=True)"),
     lambda m: f"{m.group(0)} (--where \"{exp.column(m.group(1)).sql('duckdb')} IS NOT NULL\")"),
)


def _flags(message: str) -> str:
    """The Python API's words for its options, as the command line spells them: `name=value`
    (dropna=True, k=None, average='macro') as flags, the `backquoted` options of a report
    specification, and advice to write a sqlmetrics.Query as what the command line offers."""
    # a CSV's text values read as NULL (sources.text_values_hint): --na-values, not a Query
    message = re.sub(r"read the file with them as NULL: sqlmetrics\.Query\(.*nullstr = \[(.*)\]\)\"(?:, functions=.*)?\)",
                     lambda m: "pass " + " ".join(f"--na-values {v.strip(chr(39))}" for v in m.group(1).split(", ")
                                                  if v.strip(chr(39))),
                     message)
    message = message.replace("as sqlmetrics.TrecRun(path) and sqlmetrics.TrecQrels(path)", "as trec:PATH")
    for pattern, advice in _ADVICE:
        message = pattern.sub(advice, message)
    message = re.sub(r"`([a-z_]+)`", lambda m: _flag(m.group(1)), message)
    message = re.sub(r"(^|; )([a-z][a-z_]*)(?= must | lists )",  # a parameter's own check: "n_bins must be >= 1"
                     lambda m: m.group(1) + (_flag(m.group(2)) if m.group(2) in _OPTIONS else m.group(2)), message)

    def option(m):
        name, value = m.group(1), m.group(2)
        if name not in _OPTIONS or (name in _COUNTS and value and value[0].isdigit()):
            return m.group(0)
        if value is None or value == "True":
            return _flag(name)
        if value.startswith("float("):  # float('NaN'): the command line writes nan
            value = value[7:-2].lower()
        return f"{_flag(name)} {NONE if value == 'None' else value.strip(chr(39))}"
    return _ASSIGNMENT.sub(option, message)


if __name__ == "__main__":
    sys.exit(main())
