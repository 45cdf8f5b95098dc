"""Every engine difference has one home: in SQL the dispatched macros (``<adapter>__<name>``) under
sql/, which the Python layer renders for its target dialect as dbt renders them for its adapter;
in the Python layer, the dialect's class in sqlmetrics/dialects.py.

- every dispatched helper has a default__ spelling, and spellings only for dialects we know;
- the Python layer picks the spelling dbt picks (the adapter's, those of the adapters it is built
  on, then default__), checked against dbt's own adapter factory where the adapter is installed;
- the SQL the Python layer generates from an engine's own spelling is that spelling as dbt renders
  it for the engine: nothing is rewritten on the Python path alone (a default__ spelling is
  portable SQL in DuckDB's syntax, which sqlglot writes for the engine; tests/golden pins it);
- no module of the Python layer but sqlmetrics/dialects.py compares a dialect's name, and no
  template asks dbt's `target` (the adapter) but through a dispatched macro.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import sqlglot

from conftest import as_dbt_renders
from sqlmetrics import templates
from sqlmetrics.sqltext import finish
from sqlmetrics.dialects import DIALECTS, of
from sqlmetrics.target import Target
from sqlmetrics.templates import SQL_DIR, namespace, render_macro, resolve

DISPATCHED = sorted({name for path in SQL_DIR.rglob("*.sql")
                     for name in re.findall(r"adapter\.dispatch\('(\w+)'", path.read_text())})
SPELLINGS = {name: re.match(r"(\w+?)__(\w+)", name).groups() for name in namespace().macros if "__" in name}

#: an argument of each kind a dispatched helper takes: SQL (plain names, read alike by every
#: dialect), column names (quoted by the macro) and message text
ARGUMENTS = {"x": "s", "value": "y", "condition": "y IS NULL", "column": "s", "label": "y", "keys": ["g", "h"],
             "columns": ["g", "h"],
             "message": "a value is wrong", "a": "s", "b": "y", "literal": "'1'"}


def test_every_dispatched_helper_has_a_default_and_known_dialects_only():
    assert DISPATCHED, "no dispatched macro found"
    for prefix, name in SPELLINGS.values():
        assert name in DISPATCHED, f"{prefix}__{name} spells a macro that is not dispatched"
        assert prefix == "default" or prefix in DIALECTS, f"{prefix}__{name}: no dialect {prefix!r}"
    for name in DISPATCHED:
        assert f"default__{name}" in namespace().macros, f"{name} has no default__ spelling"


@pytest.mark.parametrize("adapter", ["duckdb", "postgres"])
def test_the_python_layer_looks_macros_up_in_dbts_order(adapter):
    factory = pytest.importorskip("dbt.adapters.factory")
    factory.FACTORY.load_plugin(adapter)
    assert tuple(factory.get_adapter_type_names(adapter)) == of(adapter).prefixes()


def test_adapters_built_on_others_look_there_next():
    # dbt-redshift is built on dbt-postgres, dbt-databricks on dbt-spark (their plugins' dependencies)
    assert of("redshift").prefixes() == ("redshift", "postgres")
    assert of("databricks").prefixes() == ("databricks", "spark")
    assert all(of(d).prefixes() == (d,) for d in DIALECTS if d not in ("redshift", "databricks"))


OWN_SPELLINGS = [(name, dialect) for name in DISPATCHED for dialect in DIALECTS
                 if resolve(namespace().macros, name, dialect)[0] not in ("default", "duckdb")]


@pytest.mark.parametrize("name, dialect", OWN_SPELLINGS)
def test_the_python_layer_generates_what_dbt_renders(name, dialect):
    macro = getattr(namespace(), name)
    args = [ARGUMENTS[a] for a in macro.arguments]
    fact = as_dbt_renders(name, dialect, *args)
    if isinstance(fact, bool):  # a fact about the engine, not SQL: the same value
        target = templates._TARGET.set(Target(dialect))
        try:
            assert getattr(namespace(), name)(*args) is fact
        finally:
            templates._TARGET.reset(target)
        return
    dbt = sqlglot.parse_one(f"SELECT {as_dbt_renders(name, dialect, *args)} AS v FROM t", read=dialect)
    target = Target(dialect)
    python = finish(f"SELECT {render_macro(name, target, **dict(zip(macro.arguments, args)))} AS v FROM t", {},
                    target)
    assert python == dbt.sql(dialect)


def _compared_names(tree: ast.AST) -> set[str]:
    """The dialect names a comparison (==, !=, in, not in) or a match case tests for."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            operands = [node.value]
        else:
            continue
        for operand in operands:
            for leaf in ast.walk(operand):
                if isinstance(leaf, ast.Constant) and leaf.value in DIALECTS:
                    found.add(leaf.value)
    return found


def test_no_module_but_the_dialects_compares_a_dialect_name():
    package = Path(templates.__file__).parent
    for path in sorted(package.glob("*.py")):
        if path.name == "dialects.py":
            continue
        names = _compared_names(ast.parse(path.read_text()))
        assert not names, (f"{path.name} compares dialect names {sorted(names)}: an engine difference is a "
                           "capability of sqlmetrics/dialects.py (or, in SQL, a dispatched macro)")


def test_the_check_finds_a_branch_on_a_dialect():
    assert _compared_names(ast.parse('x = 1 if dialect == "postgres" else 2')) == {"postgres"}
    assert _compared_names(ast.parse('ok = d in ("spark", "databricks")')) == {"spark", "databricks"}
    assert not _compared_names(ast.parse('sql = tree.sql("duckdb")'))


def test_no_template_asks_the_adapter_but_by_dispatch():
    asking = [str(p.relative_to(SQL_DIR)) for p in SQL_DIR.rglob("*.sql") if re.search(r"\btarget\s*\.", p.read_text())]
    assert not asking, f"{asking} read dbt's target: spell the difference as a dispatched macro"

