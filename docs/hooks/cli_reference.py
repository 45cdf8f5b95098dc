"""The command-line reference of the documentation site, written from the command line's own argument
parsers while MkDocs builds the site (mkdocs.yml names this file among its hooks): in docs/cli.md, at
the line ``<!-- cli-reference -->``, a section per command of ``sqlmetrics`` (every subcommand of
sqlmetrics.cli.build_parser, found there: a new command gets its section, and needs an EXAMPLES line) with its
one-line purpose, its usage line, a table of its options (flags, argument, default, help) and an example
with what it prints. The commands that take a metric (compute, render, compare, disparity: those whose
parser leaves the rest of the line to the metric's own, cli.metric_parser) have a table of the options
every metric has, and one metric's own options as an example.

Why at build time, as sqlmetrics/docsite.py writes the metric pages, rather than stored in docs/cli.md by
sqlmetrics/codegen.py (with tests/test_codegen.py failing while it is stale): the page shows what each
example prints, and a stored copy of that output would be stale at every change of any of it (a figure, a
version, the path dbt-package prints); written from the parsers and the examples' own runs at every
build, it cannot drift. Each example runs (``python -m sqlmetrics``, in the directory of the bundled
sample that ``sqlmetrics demo`` evaluates): one that fails, or a command without an example, is a warning,
which ``mkdocs build --strict`` turns into a failed build; tests/test_cli_reference.py runs them without
building the site.

Why here and not in the package, beside docsite.py: it reads sqlmetrics.cli, and no module of the package
but the command line's own may import that (tests/test_layout.py: the library is not a client of its
command line); this is the site's build code, not the library's. Under docs/, as the sdist carries docs/
and mkdocs.yml (pyproject.toml), and out of the site itself (mkdocs.yml's exclude_docs).
"""
from __future__ import annotations

import argparse
import html
import logging
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

from sqlmetrics import cli
from sqlmetrics.demo import SAMPLE
from sqlmetrics.errors import ParameterError
from sqlmetrics.metric import Metric
from sqlmetrics.registry import METRICS

#: the page the reference is written into, and the line it replaces
PAGE = "cli.md"
MARKER = "<!-- cli-reference -->"
#: one example per command, run as shown in the directory of SAMPLE (so `sample.csv` is the sample); it
#: must exit 0. For a command that takes a metric, the example's metric is the one whose options are shown.
EXAMPLES = {
    "list": "sqlmetrics list",
    "show": "sqlmetrics show auc",
    "render": "sqlmetrics render brier_score my-project.analytics.impressions --label clicked --score pctr "
              "--dialect bigquery --pretty",
    "compute": "sqlmetrics compute auc sample.csv --label clicked --score pctr --by country --min 0.7",
    "compare": "sqlmetrics compare auc sample.csv --label clicked --score pctr --other-score pctr_base --alpha 0.05",
    "disparity": "sqlmetrics disparity auc sample.csv --label clicked --score pctr --sensitive country "
                 "--max-difference 0.05",
    "report": "sqlmetrics report sample.csv --label clicked --score pctr --score pctr_base --group user_id",
    "drift": "sqlmetrics drift sample.csv sample.csv --reference-where \"country = 'DE'\" "
             "--current-where \"country = 'JP'\" --columns pctr,pctr_base --method ks,wasserstein_normed",
    "demo": "sqlmetrics demo",
    "dbt-package": "sqlmetrics dbt-package",
}
#: the lines of an example's output shown; the rest is counted
SHOWN_LINES = 25
#: the width the usage lines are wrapped at (argparse's default is the terminal's)
WIDTH = 100
#: a heading's anchor, as the toc extension makes it from `sqlmetrics NAME` (tests/test_docs.py looks for it)
ANCHOR = "sqlmetrics-{}"
log = logging.getLogger("mkdocs.plugins.sqlmetrics.cli_reference")


# -- the parsers ----------------------------------------------------------------------------------

def commands(parser: argparse.ArgumentParser | None = None) -> dict[str, tuple[str, argparse.ArgumentParser]]:
    """Each command of the command line: its name -> (its one-line purpose, its parser), in the order
    ``sqlmetrics --help`` lists them."""
    parser = parser or cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    purposes = {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {name: (purposes.get(name, ""), sub) for name, sub in action.choices.items()}


def takes_a_metric(sub: argparse.ArgumentParser) -> bool:
    """A command whose parser leaves the rest of the line to the metric's own (cli.metric_parser)."""
    return any(a.nargs == argparse.REMAINDER for a in sub._actions)


def command_metric(command: str, name: str) -> Metric | None:
    """The metric `command` computes for METRIC `name` (compare and disparity: their own, derived from
    it, as cli.metric_call makes it), or None where the command takes no such metric."""
    m = cli.find_metric(name)
    derived = {"compare": cli._compared, "disparity": cli._disparity}.get(command)
    try:
        return derived(m.name, {}) if derived else m
    except ParameterError:
        return None


def metric_options(command: str, m: Metric) -> tuple[list[argparse.Action], list[argparse.Action]]:
    """The actions of `command`'s parser for metric `m`: (those of the command, those of the metric's
    parameters), help left out."""
    params = {p.name for p in m.params}
    actions = [a for a in cli.metric_parser(command, m)._actions if not isinstance(a, argparse._HelpAction)]
    return [a for a in actions if a.dest not in params], [a for a in actions if a.dest in params]


class Common(NamedTuple):
    """An option of a command that takes a metric, whatever the metric: its action (as the first metric
    that has it shows it), its help texts and the metrics each is theirs (compare's --where says "the
    rows of both runs" for a metric of two runs), and the metrics that have it."""
    action: argparse.Action
    helps: dict[str, list[str]]
    metrics: list[str]


def common_options(command: str) -> tuple[list[Common], list[str]]:
    """The options `command` has besides a metric's parameters, over every metric it takes (some, such
    as --per-query and --plot, only where the metric has what they act on); and the metrics it takes."""
    found: dict[tuple, Common] = {}
    order: list[tuple] = []
    taken = []
    for name in METRICS:
        m = command_metric(command, name)
        if m is None:
            continue
        taken.append(name)
        own, _ = metric_options(command, m)
        for i, action in enumerate(own):
            key = tuple(action.option_strings) or (action.dest,)
            if key not in found:
                found[key] = Common(action, {}, [])
                # after the option it follows in this metric's parser: each parser's order is kept
                before = (tuple(own[i - 1].option_strings) or (own[i - 1].dest,)) if i else None
                order.insert(order.index(before) + 1 if before in order else len(order), key)
            found[key].metrics.append(name)
            found[key].helps.setdefault(action.help or "", []).append(name)
    return [found[key] for key in order], taken


def some(names: list[str]) -> str:
    """Metrics named, or counted where they are many."""
    return ", ".join(names) if len(names) <= 8 else f"{len(names)} metrics"


def usage(parser: argparse.ArgumentParser) -> str:
    """The parser's usage line(s), wrapped at WIDTH."""
    formatter = argparse.HelpFormatter(parser.prog, width=WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


# -- Markdown ---------------------------------------------------------------------------------------

def text(value: str) -> str:
    """Help text as the text of a table cell: shown as written (its *, _, [, <, | are not Markdown or
    HTML), its --flags as code."""
    escaped = re.sub(r"([*_\[\]\\`])", r"\\\1", html.escape(value, quote=False)).replace("|", "&#124;")
    return re.sub(r"(?<![\w-])(--[a-z][a-z-]*[a-z])", r"<code>\1</code>", escaped)


def code(value) -> str:
    return f"`{value}`"


def argument(action: argparse.Action) -> str:
    """What an option takes: nothing (a switch), one of its choices, or its metavar; repeatable or not."""
    if not action.option_strings or action.nargs == 0:
        return ""
    if action.choices:
        shown = "one of " + ", ".join(code(c) for c in action.choices)
    else:
        metavar = action.metavar or action.dest.upper()
        shown = code(f"{metavar} [{metavar} ...]" if action.nargs == "+" else metavar)
    return shown + (", repeatable" if isinstance(action, argparse._AppendAction) else "")


def default(action: argparse.Action, m: Metric | None = None) -> str:
    """An option's default as --help says it: a metric parameter's is the metric's (its parser's
    is argparse.SUPPRESS: the metric's own applies); a required option is `required`."""
    if action.required:
        return "required"
    if m is not None and action.dest in {p.name for p in m.params}:
        p = m.param(action.dest)
        return "" if p.required or p.kind == "bool" else str(p.default)
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS, []):
        return ""
    return str(action.default)


def helptext(helped: str | None, shown_default: str) -> str:
    """An option's help, without the `(default: X)` the default column says."""
    helped = helped or ""
    if shown_default:
        helped = re.sub(r" \(default:? " + re.escape(shown_default) + r"\)", "", helped)
    return helped


def flags(action: argparse.Action) -> str:
    return ", ".join(code(s) for s in action.option_strings) or code(action.metavar or action.dest)


def table(rows: list[tuple[argparse.Action, str, str]]) -> list[str]:
    """(action, its default as shown, its help as shown) -> a Markdown table."""
    out = ["| option | argument | default | meaning |", "|---|---|---|---|"]
    out += [f"| {flags(a)} | {argument(a)} | {text(d)} | {text(h)} |" for a, d, h in rows]
    return out + [""]


def action_rows(actions, m: Metric | None = None) -> list[tuple[argparse.Action, str, str]]:
    rows = []
    for a in actions:
        shown = default(a, m)
        helped = helptext(a.help, shown)
        if len(a.option_strings) > 1:  # the flags column names them all (compare's --other-score, --other)
            helped = re.sub(r" \(also [^()]*\)$", "", helped)
        rows.append((a, shown, helped))
    return rows


def parser_tables(parser: argparse.ArgumentParser) -> list[str]:
    """The parser's options (help left out: every command has it), a table per argument group of its
    own (report's classification and ranking columns) after the table of the others."""
    out, first = [], []
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
                   and a.help != argparse.SUPPRESS]
        if group.title in ("positional arguments", "options", "optional arguments"):
            first += actions
        elif actions:
            out += [f"{text(group.title[0].upper() + group.title[1:])}:", ""] + table(action_rows(actions))
    if not first and not out:
        return ["It has no option but `-h`, `--help`.", ""]
    return (table(action_rows(first)) if first else []) + out


def purpose(line: str) -> str:
    line = line.strip()
    return (line[:1].upper() + line[1:] + ("" if line.endswith((".", "?", "!")) else ".")) if line else ""


class Run(NamedTuple):
    """An example's run: its exit code, what it printed on stdout and stderr."""
    line: str
    code: int
    stdout: str
    stderr: str


def run_example(line: str) -> Run:
    """Run an example as a user would (the `sqlmetrics` of this Python: python -m sqlmetrics), in the
    directory of the bundled sample."""
    argv = shlex.split(line)
    if argv[:1] != ["sqlmetrics"]:
        return Run(line, 2, "", f"an example is a sqlmetrics command line: {line!r}")
    try:
        done = subprocess.run([sys.executable, "-m", "sqlmetrics", *argv[1:]], cwd=SAMPLE.parent,
                              capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return Run(line, -1, "", "timed out after 120 s")
    return Run(line, done.returncode, done.stdout, done.stderr)


def run_examples(examples: dict[str, str] | None = None) -> dict[str, Run]:
    """Every example's run, a few at a time."""
    examples = EXAMPLES if examples is None else examples
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(examples, pool.map(run_example, examples.values())))


def problems(runs: dict[str, Run], names=None) -> list[str]:
    """What makes the reference wrong: a command without an example, an example of no command, one
    that fails."""
    names = list(commands()) if names is None else names
    found = [f"the command {name} has no example (cli_reference.EXAMPLES)" for name in names if name not in runs]
    found += [f"the example of {name} is of no command: {run.line}" for name, run in runs.items() if name not in names]
    found += [f"the example of {name} exits {run.code}: {run.line}\n{run.stderr.strip()}" for name, run in runs.items()
              if run.code != 0]
    return found


def example(run: Run | None) -> list[str]:
    if run is None:
        return ["No example yet.", ""]
    out = ["Example:", "", "```bash", run.line, "```", ""]
    lines = run.stdout.rstrip("\n").split("\n")
    if len(lines) > SHOWN_LINES:
        lines = lines[:SHOWN_LINES] + [f"[... {len(lines) - SHOWN_LINES} more lines]"]
    shown = "\n".join(lines)
    if run.code != 0:
        shown += f"\n{run.stderr.rstrip()}\n[exit code {run.code}]"
    # a fence longer than any run of backticks in the output
    fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", shown)), default=0))
    return out + ["prints:", "", f"{fence}text", shown, fence, ""]


def metric_section(name: str, sub: argparse.ArgumentParser, run: Run | None) -> list[str]:
    """The options of a command that takes a metric: those every metric has (or some: said), then the
    options of its example's metric."""
    common, taken = common_options(name)
    rows = []
    for option in common:
        shown = default(option.action)
        # the help text most metrics have, then the others with their metrics
        helps = sorted(option.helps.items(), key=lambda item: -len(item[1]))
        helped = helptext(helps[0][0], shown) + "".join(
            f" (for {some(names)}: {helptext(other, shown)})" for other, names in helps[1:])
        if len(option.metrics) < len(taken):
            helped += (f". Only for some metrics ({some(option.metrics)}): sqlmetrics {name} METRIC --help says "
                       "whether one has it")
        rows.append((option.action, shown, helped))
    out = [f"METRIC is a metric's name, an alias or a measure string such as `ndcg@10`: any of the {len(taken)} "
           f"metrics `{name}` takes (`sqlmetrics {name} --help` lists them; `sqlmetrics list` shows every metric). "
           f"Its options are those below, whatever the metric, and the metric's own parameters, as "
           f"`sqlmetrics {name} METRIC --help` lists them.", ""] + table(rows)
    example_metric = shlex.split(run.line)[2] if run is not None and len(shlex.split(run.line)) > 2 else "auc"
    m = command_metric(name, example_metric)
    if m is not None:
        _, own = metric_options(name, m)
        out += [f"The options of `{example_metric}`, for example (`sqlmetrics {name} {example_metric} --help`):", ""]
        out += table(action_rows(own, m))
    return out


def section(name: str, line: str, sub: argparse.ArgumentParser, run: Run | None) -> list[str]:
    out = [f"## sqlmetrics {name}", "", purpose(line), ""]
    if sub.description and purpose(sub.description) != purpose(line):
        out += [text(sub.description), ""]
    out += ["```text", usage(sub), "```", ""]
    out += metric_section(name, sub, run) if takes_a_metric(sub) else parser_tables(sub)
    out += example(run)
    if name == "compare":  # its other form: several runs on several measures (cli.runs_parser)
        runs = cli.runs_parser()
        out += ["### sqlmetrics compare --run", "", text(runs.description or ""), "",
                "```text", usage(runs), "```", ""] + parser_tables(runs)
    return out


def reference(runs: dict[str, Run] | None = None) -> str:
    """The reference: an index of the commands, the options of `sqlmetrics` itself, a section per command.
    `runs`: the examples' runs (None: their lines only, not run)."""
    found = commands()
    top = cli.build_parser()
    runs = runs if runs is not None else {name: Run(line, 0, "", "") for name, line in EXAMPLES.items()}
    header = SAMPLE.read_text(encoding="utf-8").split("\n", 1)[0].split(",")
    rows = sum(1 for _ in SAMPLE.open(encoding="utf-8")) - 1
    out = ["## Commands", "", "| command | what it does |", "|---|---|"]
    out += [f"| [`{name}`](#{ANCHOR.format(name)}) | {text(purpose(line))} |" for name, (line, _) in found.items()]
    out += ["", f"`{top.prog}` itself takes:", ""] + parser_tables(top)
    out += ["Every command takes `-h`, `--help`. The sections below are written from the command line's own "
            "argument parsers when this site is built, and each example runs then: the output shown is its "
            f"output (the first {SHOWN_LINES} lines). The examples read `{SAMPLE.name}`, the sample "
            f"`sqlmetrics demo` evaluates ({rows:,} rows; columns " + ", ".join(f"`{c}`" for c in header)
            + "), in their directory: `python -c \"import sqlmetrics.demo; print(sqlmetrics.demo.SAMPLE)\"` "
            "says where it is.", ""]
    for name, (line, sub) in found.items():
        out += section(name, line, sub, runs.get(name))
    return "\n".join(out)


# -- MkDocs hooks ---------------------------------------------------------------------------------

def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        log.warning("docs/%s has no %s line: the command-line reference has no place", PAGE, MARKER)
        return markdown
    runs = run_examples()
    for problem in problems(runs):
        log.warning("%s", problem)
    return markdown.replace(MARKER, reference(runs), 1)
