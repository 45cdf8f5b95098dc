"""The documentation site's metric pages, written from the registry while MkDocs builds the site
(mkdocs.yml names this file among its hooks): one page per metric, ``reference/<name>.md``, with its
definition (typeset from its ``math``; its formula in plain text), parameters, conventions, the
reference it matches and the tests that check it, its example and its SQL in every dialect (the golden
files of tests/golden/). Nothing of it is stored: the pages follow the registry and the golden files at
every build, and ``mkdocs build --strict`` fails on a broken link or an example whose output differs
(tests/test_docs.py).

The guides (docs/*.md) are written by hand; docs/catalogue.md's tables are codegen's.
"""
from __future__ import annotations

import doctest
import html
import logging
import os
import re
from functools import cache
from pathlib import Path

from sqlmetrics.codegen import ROOT, SECTIONS
from sqlmetrics.dialects import DIALECTS  # the tabs' order: DuckDB, the default engine, first
from sqlmetrics.metric import Metric
from sqlmetrics.params import REQUIRED, Param
from sqlmetrics.registry import METRICS

GOLDEN = ROOT / "tests" / "golden"
#: the parameters that say how a metric treats ties, missing items, empty queries and 0/0
CONVENTIONS = ("ties", "missing", "empty", "zero_division")
#: how the parameter kinds are shown
KINDS = {"column": "column", "columns": "column or list of columns", "relation": "table or data",
         "float": "float", "floats": "list of floats", "int": "int", "bool": "bool", "choice": "one of",
         "label_value": "a label value", "measures": "list of measure names"}
#: around a page's SQL tabs: the search index leaves them out (see on_page_content)
SQL_START, SQL_END = "<!-- sql -->", "<!-- /sql -->"
_SQL_TABS = re.compile(re.escape(SQL_START) + ".*?" + re.escape(SQL_END), re.S)
log = logging.getLogger("mkdocs.plugins.sqlmetrics")


def page_path(name: str) -> str:
    return f"reference/{name}.md"


def page(m: Metric, whole: bool = True) -> str:
    """The page of metric `m`; not `whole`: without its SQL tabs (a partial build, see built())."""
    out = [f"# {m.name}", "", _prose(m.summary), ""]
    if m.aliases:
        out += ["Also called " + ", ".join(f"`{a}`" for a in m.aliases) + ".", ""]
    # the definition typeset (MathJax, docs/hooks/mathjax.py), then the same in plain text with its conventions
    out += ["## Definition", "", "$$", m.math, "$$", "", "In plain text, with every convention:", "",
            '<div class="formula" markdown>', "", "```text", m.formula, "```", "", "</div>", ""]
    out += ["## Parameters", "", "| parameter | type | default | meaning |", "|---|---|---|---|"]
    out += [_param_row(p) for p in m.params]
    if m.one_of:
        out += ["", "Exactly one of " + ", ".join(f"`{n}`" for n in m.one_of) + " is given."]
    columns = ", ".join(f"`{c}`" for c in m.outputs)
    out += ["", f"A plain call returns the value; `details=True` and `by=` return the columns {columns}."
            if m.kind == "scalar" else f"Returns the columns {columns}"
            + (" (after the `by` columns)." if m.kind == "curve" else "."), ""]
    conventions = [p for p in m.params if p.name in CONVENTIONS]
    if conventions or m.undefined:
        out += ["## Conventions", ""]
        out += [f"- **{p.name}** (default `{p.default!r}`): {_prose(p.doc)}" for p in conventions]
        if m.undefined:
            out.append(f"- **Undefined** when {_prose(m.undefined)} ([what a call returns then](../python.md)).")
        out.append("")
    named, every = tests_of(m.name)
    # the test files are for contributors: folded away (pymdownx.details), the reference stays in view
    out += ["## Reference", "", f"Matches {_prose(m.reference)}.", "",
            f'??? note "The tests that check it ({len(named) + len(every)} files)"', "",
            "    Tests that name it: " + ", ".join(f"`{t}`" for t in named) + ".", "",
            "    Tests run on every metric: " + ", ".join(f"`{t}`" for t in every) + ".", ""]
    out += ["## Example", "", "```pycon", m.example.rstrip("\n"), "```", "",
            "The output shown is the output of the call: the example runs at every build and in "
            "`tests/test_common.py`.", ""]
    if not whole:
        return "\n".join(out + ["## SQL", "", "Left out of this partial build of the site.", ""])
    out += ["## SQL", "", f"`{golden_call(m.name)}`, rendered for each dialect "
            "(the golden files `tests/golden/<dialect>/" + m.name + ".sql`):", "", SQL_START, ""]
    for dialect in DIALECTS:
        sql = (GOLDEN / dialect / f"{m.name}.sql").read_text(encoding="utf-8").rstrip("\n")
        out += [f'=== "{dialect}"', "", "    ```sql", *("    " + line if line else "" for line in sql.split("\n")),
                "    ```", ""]
    return "\n".join(out + [SQL_END, ""])


def index() -> str:
    """reference/index.md: every metric, by section, with its summary."""
    out = ["# Reference", "", "One page per metric. The [catalogue](../catalogue.md) says how the metrics "
           "of each family read their data; the [conventions](../conventions.md) what they share.", ""]
    for section, title in SECTIONS.items():
        out += [f"## {title}", ""]
        out += [f"- [`{m.name}`]({m.name}.md): {_prose(m.summary)}" for m in METRICS.values() if m.section == section]
        out.append("")
    return "\n".join(out)


#: the environment variable that asks for a partial build: the metrics (comma-separated) whose pages are
#: built whole, examples run; the others' pages without their SQL (the tests of one metric's page)
PARTIAL = "SQLMETRICS_DOCS_METRICS"


def built() -> set[str]:
    """The metrics whose pages this build writes whole: every one, unless PARTIAL names some."""
    names = os.environ.get(PARTIAL)
    return set(names.split(",")) & set(METRICS) if names else set(METRICS)


def pages() -> dict[str, str]:
    """Each generated page's path under docs/ and its Markdown."""
    whole = built()
    return {"reference/index.md": index()} | {page_path(name): page(m, name in whole) for name, m in METRICS.items()}


def nav() -> list:
    """The Reference part of the site's navigation: the index, then each section's metrics."""
    return [{"Reference": [{"All metrics": "reference/index.md"}] + [
        {title: [page_path(m.name) for m in METRICS.values() if m.section == section]}
        for section, title in SECTIONS.items()]}]


def example_failures(m: Metric) -> str:
    """The doctest report of a metric's example, empty when its output is the one shown."""
    test = doctest.DocTestParser().get_doctest(m.example, {}, m.name, None, 0)
    report: list[str] = []
    doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test, out=report.append)
    return "".join(report)


#: a test parametrized over the whole registry: @pytest.mark.parametrize("name", sorted(METRICS))
_EVERY_METRIC = re.compile(r"""parametrize\(\s*["']\w+["'],\s*(sorted\()?METRICS\)""")


@cache
def _test_sources() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests").glob("test_*.py"))}


def tests_of(name: str) -> tuple[list[str], list[str]]:
    """The test files that name the metric (as a string or a call of sm.<name>), and those that run
    every registered metric: found by reading tests/, so the lists follow the tests."""
    named = re.compile(rf"""["']{name}["']|sm\.{name}\(""")
    every = [f"tests/{f}" for f, text in _test_sources().items() if _EVERY_METRIC.search(text)]
    return [f"tests/{f}" for f, text in _test_sources().items() if named.search(text) and f"tests/{f}" not in every], every


@cache
def _calls() -> dict[str, str]:
    text = (GOLDEN / "CALLS.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(r"^sm\.render\('([\w-]+)'.*$", text, re.M)}


def golden_call(name: str) -> str:
    return _calls()[name]


def _param_row(p: Param) -> str:
    kind = KINDS[p.kind] + (" " + ", ".join(f"`{c!r}`" for c in p.choices) if p.kind == "choice" else "")
    default = "required" if p.default is REQUIRED else f"`{p.default!r}`"
    return f"| `{p.name}` | {kind} | {default} | {_prose(p.doc).replace('|', '&#124;')} |"


def _prose(text: str) -> str:
    """Registry text as Markdown: `code` spans kept, the rest shown as written (its *, _, [ and <
    are formula symbols, not emphasis, links or tags)."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") else re.sub(r"([*_\[\]\\])", r"\\\1", html.escape(part, quote=False))
                   for part in parts)


# -- MkDocs hooks ---------------------------------------------------------------------------------

def on_config(config):
    config.nav = (config.nav or []) + nav()
    return config


def on_files(files, config):
    from mkdocs.structure.files import File  # only while building the site: not a dependency of sqlmetrics

    for path, text in pages().items():
        files.append(File.generated(config, path, content=text))
    check_examples()
    return files


def check_examples() -> None:
    """Every example run as its page shows it: a different output is a warning, which --strict turns
    into a failed build."""
    whole = built()
    for m in (m for m in METRICS.values() if m.name in whole):
        if failures := example_failures(m):
            log.warning("the example of %s does not print what it shows:\n%s", m.name, failures)


#: a page's SQL tabs, held out of its content while the search plugin indexes it
_held: dict[str, str] = {}


def on_page_content(html_text, page, config, files):
    """The SQL of eleven dialects is nine tenths of the site's text: indexed, it would fill the search
    results with SQL keywords and triple the build's time. It is put back into the finished page."""
    if tabs := _SQL_TABS.search(html_text):
        _held[page.file.src_uri] = tabs.group(0)
        return html_text.replace(tabs.group(0), SQL_START)
    return html_text


def on_post_page(output, page, config):
    if page.file.src_uri in _held:
        return output.replace(SQL_START, _held.pop(page.file.src_uri), 1)
    return output
