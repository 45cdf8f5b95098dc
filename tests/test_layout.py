"""The package's layout: no import cycle among its modules (imports inside functions included), and
the command line is a client of the API (no module of the API imports it)."""
from __future__ import annotations

import ast
from pathlib import Path

import sqlmetrics

PACKAGE = Path(sqlmetrics.__file__).parent
MODULES = {path.stem for path in PACKAGE.glob("*.py")}
#: the command line and what only it uses
CLIENTS = {"cli", "__main__", "demo", "report", "output", "plots", "progress"}


def imports(module: str) -> set[str]:
    """The package's modules `module` imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse((PACKAGE / f"{module}.py").read_text())):
        if isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level == 1 and not target:  # from . import a, b
                found |= {a.name if a.name in MODULES else "__init__" for a in node.names}
            elif node.level == 1 or target.startswith("sqlmetrics"):
                found.add(target.removeprefix("sqlmetrics").lstrip(".").split(".")[0] or "__init__")
        elif isinstance(node, ast.Import):
            found |= {"__init__" for a in node.names if a.name.split(".")[0] == "sqlmetrics"}
    return found - {module}


GRAPH = {module: imports(module) for module in MODULES}
GRAPH["__init__"] |= set(sqlmetrics._LAZY.values())  # loaded on first use, by name


def test_the_import_graph_is_found():
    assert GRAPH["cli"] >= {"api", "registry", "report"} and GRAPH["__init__"] >= {"api", "functions", "registry"}


def test_no_import_cycle():
    def cycle_from(start):
        path, seen = [start], set()

        def visit(node):
            for nxt in sorted(GRAPH[node]):
                if nxt == start:
                    return path + [start]
                if nxt not in seen:
                    seen.add(nxt)
                    path.append(nxt)
                    found = visit(nxt)
                    if found:
                        return found
                    path.pop()
            return None
        return visit(start)

    cycles = [" -> ".join(c) for c in map(cycle_from, sorted(MODULES)) if c]
    assert not cycles, cycles


def test_the_api_does_not_import_the_command_line():
    for module in MODULES - CLIENTS:
        assert not GRAPH[module] & CLIENTS, (module, GRAPH[module] & CLIENTS)
