"""Loading and rendering the Jinja macros under ``sql/``.

The macros are written for dbt as much as for us (the repository is also a dbt package whose
macro path is ``sql/``), so this environment provides the little of dbt's context they use: a
``sqlmetrics`` namespace for calls across files (dbt's package prefix), an ``adapter`` with
``quote`` and ``dispatch``, ``return``, and ``exceptions.raise_compiler_error``.
"""
from __future__ import annotations

import functools
from pathlib import Path

import jinja2
from sqlglot import exp

from .errors import ParameterError

_PACKAGE_SQL = Path(__file__).parent / "sql"  # inside an installed wheel
_REPO_SQL = Path(__file__).parent.parent / "sql"  # in a source checkout / editable install
SQL_DIR = _PACKAGE_SQL if _PACKAGE_SQL.is_dir() else _REPO_SQL


class _Namespace:
    """Every macro of every template file, by name: what `sqlmetrics.<macro>` resolves to."""

    def __init__(self):
        self.macros: dict[str, object] = {}

    def __getattr__(self, name):
        try:
            return self.__dict__["macros"][name]
        except KeyError:
            raise AttributeError(f"no macro named {name!r} under {SQL_DIR}") from None


class _Adapter:
    """The part of dbt's `adapter` the macros use. SQL is rendered in DuckDB's dialect, then transpiled."""

    def __init__(self, namespace: _Namespace):
        self._namespace = namespace

    @staticmethod
    def quote(name: str) -> str:
        return exp.to_identifier(name, quoted=True).sql("duckdb")

    def dispatch(self, macro_name: str, macro_namespace: str | None = None):
        macros = self._namespace.macros
        return macros.get(f"duckdb__{macro_name}") or macros[f"default__{macro_name}"]


class _Exceptions:
    """dbt's `exceptions`, as far as the macros use it (a call the Python layer's validation let through)."""

    @staticmethod
    def raise_compiler_error(message: str):
        raise ParameterError(message)


def _return(value):
    """dbt's `return`: ends a macro with `value`. Every macro here uses it as its whole body,
    ``{{ return(...) }}``, so emitting the value is the same."""
    return value


@functools.lru_cache(maxsize=None)
def namespace() -> _Namespace:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(SQL_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
    )
    ns = _Namespace()
    env.globals["sqlmetrics"] = ns
    env.globals["adapter"] = _Adapter(ns)
    env.globals["return"] = _return
    env.globals["exceptions"] = _Exceptions()
    for path in sorted(SQL_DIR.rglob("*.sql")):
        module = env.get_template(path.relative_to(SQL_DIR).as_posix()).module
        for name in dir(module):
            macro = getattr(module, name)
            if isinstance(macro, jinja2.runtime.Macro):
                if name in ns.macros:
                    raise RuntimeError(f"macro {name!r} is defined twice under {SQL_DIR}")
                ns.macros[name] = macro
    return ns


def render_macro(name: str, **kwargs) -> str:
    """Call the macro `name` with keyword arguments and return the SQL text (DuckDB dialect)."""
    return str(getattr(namespace(), name)(**kwargs))
