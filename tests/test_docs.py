"""The documentation site (mkdocs.yml, docs/, the metric pages of sqlmetrics/docsite.py, the command-line
reference of docs/hooks/cli_reference.py): it builds with --strict (a broken link, an example whose output
differs or that fails, fails it), has a page for every registered metric and none other, each page's SQL
tabs are the golden files, the command-line page has a section for every command, and in a browser the
pages render: no Markdown left as text, the formula shown, the code highlighted, the commands' sections."""
from __future__ import annotations

import argparse
import dataclasses
import fcntl
import html
import importlib.util
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sqlmetrics import cli, docsite
from sqlmetrics.registry import METRICS

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
#: Markdown that a page shows as text when it was not converted
RAW_MARKDOWN = {"bold": re.compile(r"\*\*"), "code fence": re.compile(r"```"), "table rule": re.compile(r"\|\s*-{3,}"),
                "link": re.compile(r"\]\((?!\s)"), "heading": re.compile(r"(^|\n)\s*#{1,6} \w")}


def cli_commands() -> list[str]:
    """The commands of the real command line (`sqlmetrics --help`), as its parser has them."""
    parser = cli.build_parser()
    return list(next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices)


def missing(tool: str, how: str):
    """Skip where a tool of the docs is missing; in CI that is a failure (.ci/run installs them)."""
    if os.environ.get("CI"):
        raise AssertionError(f"CI must build and look at the documentation site, but {tool} is missing: {how}")
    pytest.skip(f"{tool} is missing: {how}")


def _metric_of_page(page: str) -> str | None:
    """The metric whose page `page` is (reference/auc/index.html: auc), or None for another page."""
    found = re.fullmatch(r"reference/(\w+)/index.html", page)
    return found.group(1) if found else None


#: the tests that look at one metric's page, and the metric each call looks at
_ONE_PAGE = {"test_the_page_shows_the_registry_entry_and_the_golden_sql": lambda params: params["name"],
             "test_a_browser_shows_the_page_rendered": lambda params: _metric_of_page(params["page"])}


def pages_looked_at(items) -> set[str] | None:
    """The metrics whose pages the selected tests of this module look at, or None where one of them looks
    at the whole site (every test selected, or a test of the site)."""
    names = set()
    for item in (i for i in items if i.module.__name__ == __name__):
        one = _ONE_PAGE.get(item.originalname)
        name = one(item.callspec.params) if one else None
        if name is None:
            return None
        names.add(name)
    return names


@pytest.fixture(scope="session")
def site(tmp_path_factory, request) -> Path:
    """The site, built once per run (pytest-xdist's workers share one build, under a lock): whole, or where
    the tests selected look at some metrics' pages only (pytest -k auc), with the others' pages left
    without their SQL and examples (docsite.PARTIAL), which takes a tenth of the time."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        missing("mkdocs-material", "pip install -e '.[docs]'")
    looked_at = pages_looked_at(request.session.items)
    partial = {docsite.PARTIAL: ",".join(sorted(looked_at))} if looked_at else {}
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    shared = tmp_path_factory.getbasetemp().parent if run_id else tmp_path_factory.getbasetemp()
    name = f"docs-site-{run_id or 'serial'}" + ("-partial" if partial else "")
    out = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "index.html").exists():
            build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                                    "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                                   capture_output=True, text=True, cwd=ROOT,
                                   env=os.environ | {"NO_MKDOCS_2_WARNING": "1"} | partial)
            assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stdout}{build.stderr}"
    return out


def article(page: Path) -> str:
    """The page's content (its <article>), without the navigation and the theme's scripts."""
    text = page.read_text(encoding="utf-8")
    return text[text.index("<article"):text.index("</article>")]


def text_outside_code(fragment: str) -> str:
    """The text a reader sees as prose: without code, and without the TeX that MathJax typesets (the
    elements of class arithmatex, whose brackets are not Markdown)."""
    without_code = re.sub(r"<(pre|code)\b.*?</\1>|<(div|span) class=\"arithmatex\">.*?</\2>", " ", fragment, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", without_code))


def test_every_metric_has_a_page_and_every_page_a_metric(site):
    pages = {p.parent.name for p in (site / "reference").glob("*/index.html")}
    assert pages == set(METRICS)


def test_the_search_index_finds_every_metric_by_name(site):
    """The search box (Material's search plugin) reads search/search_index.json: each metric's page is
    there under its name."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    titles = {doc["location"]: doc["title"] for doc in index["docs"]}
    assert all(titles.get(f"reference/{name}/") == name for name in METRICS)


def test_every_page_is_converted_markdown(site):
    """No page of the site shows Markdown as text (outside its code)."""
    leftovers = {}
    for page in sorted(site.rglob("index.html")):
        text = text_outside_code(article(page))
        if found := [name for name, pattern in RAW_MARKDOWN.items() if pattern.search(text)]:
            leftovers[str(page.relative_to(site))] = found
    assert not leftovers


def test_every_metric_has_its_definition_in_tex():
    """Each page typesets its metric's definition (Metric.math): TeX for MathJax, whole (balanced braces,
    environments closed) and without the delimiters the page puts around it."""
    for name, m in METRICS.items():
        assert m.math.strip(), f"{name} has no math"
        assert not re.search(r"\$|\\\[|\\\]", m.math), f"{name}: delimiters in its math"
        opened = []  # what closes the braces and environments open, innermost last
        for token in re.findall(r"\\[{}]|\\(?:begin|end)\{\w+\}|[{}]", m.math):
            if token in ("\\{", "\\}"):  # a brace typeset, not a group
                continue
            if token == "{" or token.startswith("\\begin"):
                opened.append("}" if token == "{" else "\\end" + token[len("\\begin"):])
            else:
                assert opened and opened.pop() == token, f"{name}: {token} closes nothing or the wrong thing"
        assert not opened, f"{name}: {opened} left open"


def test_the_page_typesets_the_definition(site):
    """The page gives MathJax the definition as display TeX (arithmatex's wrapper), and serves MathJax
    itself: no script from another site."""
    content = article(site / "reference" / "auc" / "index.html")
    shown = re.search(r'<div class="arithmatex">\\\[(.*?)\\\]</div>', content, re.S)
    assert shown and html.unescape(shown.group(1)).strip() == METRICS["auc"].math.strip()
    page = (site / "reference" / "auc" / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert any(s.endswith("javascripts/mathjax/tex-svg-full.js") for s in scripts)
    assert not [s for s in scripts if re.match(r"(https?:)?//", s)], scripts
    assert (site / "javascripts" / "mathjax" / "tex-svg-full.js").stat().st_size > 1_000_000


def test_the_check_finds_markdown_left_as_text():
    unconverted = "<p>**bold** ```sql | --- | [a link](x.md)\n## A heading</p><pre><code>x**2</code></pre>"
    assert {name for name, pattern in RAW_MARKDOWN.items() if pattern.search(text_outside_code(unconverted))} == set(
        RAW_MARKDOWN)
    assert not [p for p in RAW_MARKDOWN.values() if p.search(text_outside_code("<pre><code>x**2 ```</code></pre>"))]


@pytest.mark.parametrize("name", METRICS)
def test_the_page_shows_the_registry_entry_and_the_golden_sql(site, name):
    m = METRICS[name]
    content = article(site / "reference" / name / "index.html")
    labels = re.findall(r'<label for="__tabbed_\d+_\d+">(.*?)</label>', content)
    blocks = [html.unescape(re.sub(r"<[^>]+>", "", code)) for code in
              re.findall(r'<div class="tabbed-block">\s*<div class="(?:language-sql )?highlight"><pre>.*?<code>(.*?)</code>',
                         content, re.S)]
    assert labels == list(docsite.DIALECTS) and len(blocks) == len(labels)
    for dialect, sql in zip(labels, blocks):
        golden = (docsite.GOLDEN / dialect / f"{name}.sql").read_text(encoding="utf-8")
        assert sql.rstrip("\n") == golden.rstrip("\n"), f"the {dialect} tab of {name} is not tests/golden/{dialect}/{name}.sql"
    shown = text_outside_code(content) + html.unescape(re.sub(r"<[^>]+>", "", content))
    assert m.formula in shown and m.example.rstrip("\n") in shown
    assert all(f"<code>{p.name}</code>" in content for p in m.params)


def test_an_example_whose_output_differs_fails_the_build(caplog, monkeypatch):
    """The build runs every example: one that prints something else is a warning, so --strict fails."""
    wrong = dataclasses.replace(METRICS["auc"], example=METRICS["auc"].example.replace("0.75", "0.7"))
    assert wrong.example != METRICS["auc"].example and not docsite.example_failures(METRICS["auc"])
    monkeypatch.setattr(docsite, "METRICS", {"auc": wrong})
    with caplog.at_level(logging.WARNING, logger=docsite.log.name):
        docsite.check_examples()
    assert [r.levelno for r in caplog.records] == [logging.WARNING] and "auc" in caplog.text


def test_the_cli_page_has_a_section_per_command(site):
    """docs/cli.md, with the reference written from the parsers: a section per command of the real parser
    (its usage, its options, an example and what it printed when the build ran it), then the guide's prose."""
    content = article(site / "cli" / "index.html")
    headings = re.findall(r'<h2 id="sqlmetrics-([\w-]+)"', content)
    assert headings == cli_commands(), "the CLI page's sections are not the commands of sqlmetrics --help"
    for name in headings:
        start = content.index(f'<h2 id="sqlmetrics-{name}"')
        section = content[start:content.find("<h2", start + 1)]
        shown = html.unescape(re.sub(r"<[^>]+>", "", section))
        assert f"usage: sqlmetrics {name}" in shown, name
        assert "<table>" in section or "no option but" in shown, name
        example = re.search(rf"Example:\s*(sqlmetrics {re.escape(name)}\b.*?)\s*prints:\s*(\S.*)", shown, re.S)
        assert example, f"the section of {name} has no example with its output"
    assert content.index('id="how-the-commands-behave"') > content.index(f'id="sqlmetrics-{headings[-1]}"')
    assert "takes a SQLAlchemy URL" in text_outside_code(content)  # the guide's prose is still there


@pytest.fixture(scope="module")
def chromium():
    if CHROMIUM is None:
        missing("chromium", "apt-get install chromium (.ci/run does)")
    return CHROMIUM


def browse(chromium: str, page: Path, *args: str) -> str:
    run = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                          "--window-size=1280,1600", *args, page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


#: run in the page after its scripts: the code in its tables (metric and parameter names, defaults, choices)
#: that the layout breaks inside a word (an inline element broken over two lines has two client rectangles,
#: and a break at a space or after a comma is no break of a word), written where --dump-dom shows them
_BROKEN_NAMES = """<script>window.addEventListener("load", () => document.body.setAttribute("data-broken",
  [...document.querySelectorAll("article table td code")]
    .filter(code => code.getClientRects().length > 1 && !/[\\s,]/.test(code.textContent))
    .map(code => code.textContent).join(" ")));</script>"""


@pytest.mark.parametrize("page, width", [("catalogue", 1280), ("catalogue", 760), ("reference/ndcg", 760)])
def test_a_browser_never_breaks_a_name(site, chromium, page, width):
    """The tables' names and values, at a desktop's width and a narrow window's: every metric name of the
    catalogue and every parameter name, default and choice of a metric page on one line (a newcomer saw
    brier_scor/e broken over two, and 'exponenti/al')."""
    measured = site / page / "measured.html"  # beside the page: its assets resolve the same
    measured.write_text((site / page / "index.html").read_text(encoding="utf-8").replace(
        "</body>", _BROKEN_NAMES + "</body>"), encoding="utf-8")
    dom = browse(chromium, measured, "--dump-dom", "--virtual-time-budget=3000", f"--window-size={width},1600")
    found = re.search(r'data-broken="([^"]*)"', dom)
    assert found and len(re.findall(r"<td><a [^>]*><code>|<td><code>", dom)) > 15, "the measure did not run"
    assert found.group(1) == "", f"broken over two lines at {width} px: {found.group(1)}"


@pytest.mark.parametrize("page", ["index.html", "reference/auc/index.html", "cli/index.html", "catalogue/index.html"])
def test_a_browser_shows_the_page_rendered(site, chromium, page, tmp_path):
    """The DOM after the theme's scripts ran: converted Markdown, the formula, highlighted code; and a
    screenshot of it (a picture, not a blank page)."""
    dom = browse(chromium, site / page, "--dump-dom", "--virtual-time-budget=5000")  # time for MathJax
    content = dom[dom.index("<article"):dom.index("</article>")]
    text = text_outside_code(content)
    assert not [name for name, pattern in RAW_MARKDOWN.items() if pattern.search(text)]
    assert re.search(r'class="(language-\w+ )?highlight"><pre[^>]*>.*?<code>.*?<span class="\w+">', content, re.S), (
        "no highlighted code (Pygments spans)")
    if page == "cli/index.html":  # a section per command, as the browser shows the page
        assert re.findall(r'<h2 id="sqlmetrics-([\w-]+)"', content) == cli_commands()
    if page.startswith("reference/"):
        assert METRICS["auc"].formula in html.unescape(re.sub(r"<[^>]+>", "", content))
        assert 'class="tabbed-set' in content and '<span class="k">SELECT</span>' in content
        formula = re.search(r'<div class="arithmatex">(.*?)</div>', content, re.S)
        assert formula and "<mjx-container" in formula.group(1) and "<svg" in formula.group(1), (
            "the definition was not typeset")
    shot = tmp_path / "page.png"
    browse(chromium, site / page, f"--screenshot={shot}")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_a_browser_typesets_every_formula(site, chromium):
    """Every metric's definition, typeset by the site's MathJax in a browser: an SVG each, and none of
    MathJax's error marks (an unknown command or a misplaced brace is typeset as an error, not refused)."""
    beside = site / "reference" / "auc"  # the page's assets resolve the same
    formulas = "".join(f'<div class="arithmatex" id="math-{name}">\\[{html.escape(m.math)}\\]</div>'
                       for name, m in METRICS.items())
    text = (beside / "index.html").read_text(encoding="utf-8")
    page = beside / "formulas.html"
    page.write_text(text[:text.index("<article")] + f"<article>{formulas}</article>" +
                    text[text.index("</article>") + len("</article>"):], encoding="utf-8")
    dom = browse(chromium, page, "--dump-dom", "--virtual-time-budget=20000")
    shown = dict(re.findall(r'<div class="arithmatex" id="math-(\w+)">(.*?)</div>', dom, re.S))
    assert set(shown) == set(METRICS)
    untypeset = [name for name, typeset in shown.items() if "<mjx-container" not in typeset or "<svg" not in typeset]
    errors = [name for name, typeset in shown.items() if "merror" in typeset or "data-mjx-error" in typeset]
    assert not untypeset and not errors, f"not typeset: {untypeset}; typeset as errors: {errors}"
