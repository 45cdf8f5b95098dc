"""The files that mirror the registry are written from it (sqlmetrics/codegen.py): each is current,
or this fails naming the command that writes it."""
from __future__ import annotations

import pytest

from sqlmetrics import codegen
from sqlmetrics.registry import METRICS


@pytest.mark.parametrize("path", sorted(codegen.files(), key=str), ids=lambda p: p.name)
def test_the_generated_file_is_current(path):
    wanted = codegen.files()[path]
    assert path.exists() and path.read_text(encoding="utf-8") == wanted, (
        f"{path.relative_to(codegen.ROOT)} is stale: run `python -m sqlmetrics.codegen` and review the diff")


@pytest.mark.parametrize("name", METRICS)
def test_every_metric_is_in_the_generated_files(name):
    """Per metric, so that `pytest -k mymetric` says when a new metric's generated files are missing."""
    read = {path.name: path.read_text(encoding="utf-8") for path in codegen.files() if path.exists()}
    sql, docs = (read.get(f, "") for f in ("metric.sql", "metrics.md"))
    tables = "".join(read.get(page.name, "") for page in codegen.TABLE_PAGES)
    missing = [where for where, found in [
        ("sql/metric.sql's metric()", f"sqlmetrics.{name}(relation, **kwargs)" in sql),
        ("sql/metric.sql's ranking_parts", not METRICS[name].one_pass or f"sqlmetrics.{name}_parts(" in sql),
        ("docs/metrics.md", f"### {name}\n" in docs),
        ("the tables of docs/catalogue.md and docs/statistics.md", f"[`{name}`](reference/{name}.md)" in tables)]
        if not found]
    assert not missing, f"{name} is not in {', '.join(missing)}: run `python -m sqlmetrics.codegen`"


@pytest.mark.parametrize("name", [n for n, m in METRICS.items() if m.per_query])
def test_one_pass_marks_the_metrics_whose_template_defines_their_parts(name):
    """evaluate's one pass calls <name>_parts for the metrics marked one_pass: exactly those define it."""
    template = (codegen.SQL_DIR / METRICS[name].template).read_text(encoding="utf-8")
    assert METRICS[name].one_pass == (f"macro {name}_parts(" in template), name


def test_every_section_has_its_table_in_the_site():
    pages = "".join(page.read_text(encoding="utf-8") for page in codegen.TABLE_PAGES)
    assert {m.section for m in METRICS.values()} == set(codegen.SECTIONS)
    for section in codegen.SECTIONS:
        assert pages.count(f"<!-- metrics: {section} -->") == 1, section
