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


def test_every_metric_is_in_the_generated_catalogue():
    by_name = {path.name: text for path, text in codegen.files().items()}
    sql, docs, readme = by_name["metric.sql"], by_name["metrics.md"], by_name["README.md"]
    for name in METRICS:
        assert f"sqlmetrics.{name}(relation, **kwargs)" in sql and f"### {name}\n" in docs, name
        assert f"[`{name}`](docs/metrics.md#{name})" in readme, name


def test_every_section_has_its_table_in_the_readme():
    readme = codegen.ROOT.joinpath("README.md").read_text(encoding="utf-8")
    assert {m.section for m in METRICS.values()} == set(codegen.SECTIONS)
    for section in codegen.SECTIONS:
        assert f"<!-- metrics: {section} -->" in readme, section
