"""Every engine difference has one home: the dispatched macros (``<adapter>__<name>``) under sql/,
which the Python layer renders for its target dialect as dbt renders them for its adapter.

- every dispatched helper has a default__ spelling, and spellings only for dialects we know;
- the Python layer picks the spelling dbt picks (the adapter's, those of the adapters it is built
  on, then default__), checked against dbt's own adapter factory where the adapter is installed;
- the SQL the Python layer generates from an engine's own spelling is that spelling as dbt renders
  it for the engine: nothing is rewritten on the Python path alone (a default__ spelling is
  portable SQL in DuckDB's syntax, which sqlglot writes for the engine; tests/golden pins it);
- no module of the Python layer that builds SQL branches on a dialect name.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import sqlglot

from sqlmetrics import templates
from sqlmetrics.sqltext import finish
from sqlmetrics.target import DIALECTS, MACRO_PREFIXES, Target
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
    assert tuple(factory.get_adapter_type_names(adapter)) == MACRO_PREFIXES[adapter]


def test_adapters_built_on_others_look_there_next():
    # dbt-redshift is built on dbt-postgres, dbt-databricks on dbt-spark (their plugins' dependencies)
    assert MACRO_PREFIXES["redshift"] == ("redshift", "postgres")
    assert MACRO_PREFIXES["databricks"] == ("databricks", "spark")
    assert all(MACRO_PREFIXES[d] == (d,) for d in DIALECTS if d not in ("redshift", "databricks"))


def as_dbt_renders_it(name: str, dialect: str, args: list) -> str:
    """The text of macro `name` as dbt renders it on `dialect`'s adapter: the adapter's spellings
    inline, names quoted for the engine, no transpiling."""
    target, native = templates._TARGET.set(Target(dialect)), templates._NATIVE_DIALECT.set(dialect)
    try:
        return str(getattr(namespace(), name)(*args))
    finally:
        templates._NATIVE_DIALECT.reset(native)
        templates._TARGET.reset(target)


OWN_SPELLINGS = [(name, dialect) for name in DISPATCHED for dialect in DIALECTS
                 if resolve(namespace().macros, name, dialect)[0] not in ("default", "duckdb")]


@pytest.mark.parametrize("name, dialect", OWN_SPELLINGS)
def test_the_python_layer_generates_what_dbt_renders(name, dialect):
    macro = getattr(namespace(), name)
    args = [ARGUMENTS[a] for a in macro.arguments]
    dbt = sqlglot.parse_one(f"SELECT {as_dbt_renders_it(name, dialect, args)} AS v FROM t", read=dialect)
    target = Target(dialect)
    python = finish(f"SELECT {render_macro(name, target, **dict(zip(macro.arguments, args)))} AS v FROM t", {},
                    target)
    assert python == dbt.sql(dialect)


#: the modules that may name dialects: the dialect list, the input checks' predicates, the
#: connections to each engine and the reading of sources (files, frames) into them; the demo
MAY_NAME_DIALECTS = {"target.py", "dialects.py", "engine.py", "sources.py", "checks.py", "demo.py"}


def test_no_sql_building_module_branches_on_a_dialect():
    package = Path(templates.__file__).parent
    for path in sorted(package.glob("*.py")):
        if path.name in MAY_NAME_DIALECTS:
            continue
        names = {node.value for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.Constant) and node.value in DIALECTS and node.value != "duckdb"}
        assert not names, f"{path.name} names dialects {sorted(names)}: an engine difference belongs in a dispatched macro"
