"""The command-line reference of the documentation site (docs/hooks/cli_reference.py, written into
docs/cli.md at every build from the command line's own parsers): a section per command of the real
parser, with its usage, a table naming every option of the command and an example; every example runs
and exits 0, as the build runs them (where one that fails, or a command without one, fails
``mkdocs build --strict``). The built page itself: tests/test_docs.py."""
from __future__ import annotations

import argparse
import importlib.util
import logging
import re
import shlex
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from sqlmetrics import cli
from sqlmetrics.command_options import OWN

ROOT = Path(__file__).resolve().parent.parent


def _load():
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "docs" / "hooks" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


ref = _load()
#: the commands of the real parser (sqlmetrics --help), found here as argparse keeps them
COMMANDS = list(next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices)


def sections(markdown: str) -> dict[str, str]:
    """`## sqlmetrics NAME` -> the section's Markdown, up to the next section."""
    parts = re.split(r"^## sqlmetrics ([\w-]+)\n", markdown, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_reference_finds_every_command():
    assert list(ref.commands()) == COMMANDS and {"list", "compute", "report", "demo"} <= set(COMMANDS)


def test_every_command_has_an_example_and_every_example_a_command():
    assert sorted(ref.EXAMPLES) == sorted(COMMANDS), "a command without an example, or an example of none: " \
        "docs/hooks/cli_reference.py's EXAMPLES"


def test_the_reference_has_a_section_per_command_with_usage_options_and_example():
    runs = {name: ref.Run(line, 0, f"output of {name}\n", "") for name, line in ref.EXAMPLES.items()}
    markdown = ref.reference(runs)
    found = sections(markdown)
    assert list(found) == COMMANDS
    for name, text in found.items():
        assert f"usage: sqlmetrics {name}" in text, name
        assert "| option | argument | default | meaning |" in text or "no option but" in text, name
        assert f"```bash\n{ref.EXAMPLES[name]}\n```" in text and f"output of {name}" in text, name
    assert all(f"[`{name}`](#{ref.ANCHOR.format(name)})" in markdown for name in COMMANDS)  # the index


def test_every_option_of_a_command_is_in_its_section():
    """The options of each command's parser (for a command that takes a metric: those command_options
    declares it has, whatever the metric, and its example metric's own)."""
    found = sections(ref.reference())
    for name, (_, sub) in ref.commands().items():
        if ref.takes_a_metric(sub):
            metric = shlex.split(ref.EXAMPLES[name])[2]
            own, params = ref.metric_options(name, ref.command_metric(name, metric))
            flags = set(OWN[name]) | {s for a in own + params for s in a.option_strings}
            assert f"The options of `{metric}`" in found[name]
        else:
            flags = {s for a in sub._actions for s in a.option_strings} - {"-h", "--help"}
        missing = [f for f in sorted(flags) if f"`{f}`" not in found[name]]
        assert not missing, (name, missing)
    compare_runs = {s for a in cli.runs_parser()._actions for s in a.option_strings} - {"-h", "--help"}
    assert all(f"`{f}`" in found["compare"] for f in compare_runs)


def test_an_option_some_metrics_have_says_so():
    common, taken = ref.common_options("compute")
    per_query = next(c for c in common if c.action.option_strings == ["--per-query"])
    assert 0 < len(per_query.metrics) < len(taken) and "ndcg" in per_query.metrics and "auc" not in per_query.metrics
    row = next(line for line in sections(ref.reference())["compute"].split("\n") if line.startswith("| `--per-query`"))
    assert "Only for some metrics" in row


@pytest.mark.parametrize("name", sorted(ref.EXAMPLES))
def test_the_example_runs(name):
    """As the build runs it: `sqlmetrics ...` in the directory of the bundled sample; exit code 0."""
    run = ref.run_example(ref.EXAMPLES[name])
    assert run.code == 0 and run.stdout.strip(), f"{run.line} exits {run.code}:\n{run.stderr}"
    assert not ref.problems({name: run}, names=[name])


def test_a_failing_example_or_a_command_without_one_fails_the_build(caplog, monkeypatch):
    """The build warns (which --strict turns into a failure) when an example fails, a command has none,
    or the page has lost its place for the reference."""
    monkeypatch.setattr(ref, "EXAMPLES", {"list": "sqlmetrics list --no-such-option"})
    page = SimpleNamespace(file=SimpleNamespace(src_uri=ref.PAGE))
    with caplog.at_level(logging.WARNING, logger=ref.log.name):
        written = ref.on_page_markdown(f"# Command line\n\n{ref.MARKER}\n", page, None, None)
    messages = [r.getMessage() for r in caplog.records]
    assert all(r.levelno == logging.WARNING for r in caplog.records)
    assert any("the example of list exits 2" in m and "--no-such-option" in m for m in messages)
    assert {f"the command {name} has no example (cli_reference.EXAMPLES)" for name in COMMANDS if name != "list"} <= set(
        messages)
    assert "## sqlmetrics list" in written and ref.MARKER not in written
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=ref.log.name):
        ref.on_page_markdown("# Command line\n", page, None, None)
    assert [r.levelno for r in caplog.records] == [logging.WARNING]


def test_other_pages_are_left_as_they_are():
    page = SimpleNamespace(file=SimpleNamespace(src_uri="index.md"))
    assert ref.on_page_markdown(f"x\n{ref.MARKER}\n", page, None, None) == f"x\n{ref.MARKER}\n"
