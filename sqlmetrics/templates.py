"""Loading and rendering the Jinja macros under ``sql/``, for a target dialect, as dbt does.

The macros are written for dbt as much as for us (the repository is also a dbt package whose
macro path is ``sql/``), so this environment provides the little of dbt's context they use: a
``sqlmetrics`` namespace for calls across files (dbt's package prefix), an ``adapter`` with
``quote`` and ``dispatch``, ``return`` and ``exceptions.raise_compiler_error``.

The templates' engine differences live in the dispatched macros only (``<adapter>__<name>``,
found in dbt's order: ``dialects.Capabilities.prefixes``, then ``default__``). The rest of a
template is portable SQL in DuckDB's syntax, which sqlglot reads and writes in the target's. A
spelling that returns a boolean is a fact about the engine (``distributed``), given as it is. A macro written for the target
(say ``spark__invalid_value``) is in the target's own syntax, which DuckDB's reader cannot be
trusted with, so it is rendered into the generic text as a *native* call:

    sm_native('<dialect>', '<the macro's text, arguments as placeholders>', '<placeholder>', <argument>, ...)

``sqltext.finish`` reads the text in its own dialect and puts the arguments (read as DuckDB SQL,
like the rest) in the placeholders' place, as syntax trees. A placeholder the macro quoted as an
identifier was a column name, one inside a string literal was message text, any other was SQL.

What only the Python layer knows, dbt does not: the column types of the source (``column_type``:
a label column is boolean, or a number), asked of the engine before rendering. In dbt
``sqlmetrics.column_type`` is a macro answering "unknown", and the macros take a form that does not
need the type. The columns of the relations (``relation_columns``: which holds a ranking metric's
`by` column) both know, each its own way: dbt asks its adapter, the Python layer its checks.
"""
from __future__ import annotations

import contextlib
import functools
import pickle
import re
import threading
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path

import jinja2
import sqlglot
from sqlglot import exp

from . import dialects
from .target import Target
from .errors import ParameterError

_PACKAGE_SQL = Path(__file__).parent / "sql"  # inside an installed wheel
_REPO_SQL = Path(__file__).parent.parent / "sql"  # in a source checkout / editable install
SQL_DIR = _PACKAGE_SQL if _PACKAGE_SQL.is_dir() else _REPO_SQL

#: the function call standing for a macro rendered in the target's own syntax
NATIVE = "sm_native"
_PLACEHOLDER = "sm_arg_"

#: the target of the macro being rendered (set by render_macro for the duration of one render)
_TARGET: ContextVar[Target] = ContextVar("sqlmetrics_target", default=Target())
#: while a native macro renders: its dialect (names are quoted, and nested macros chosen, for it)
_NATIVE_DIALECT: ContextVar[str | None] = ContextVar("sqlmetrics_native_dialect", default=None)
#: within `traced`: the names of the macros called so far (None: not traced)
_CALLED: ContextVar[set[str] | None] = ContextVar("sqlmetrics_called", default=None)


@contextlib.contextmanager
def traced():
    """The set of the names of the macros called within (tests key their checks by the template piece
    that emits an expression). The rendered text is the same traced or not."""
    called: set[str] = set()
    token = _CALLED.set(called)
    try:
        yield called
    finally:
        _CALLED.reset(token)


#: a macro's definition in a template file: the index of which file defines which macro, read
#: without compiling (a file's compiled macros are checked against it when it is loaded)
_DEFINITION = re.compile(r"\{%-?\s*macro\s+(\w+)\s*\(")


class _Macros(Mapping):
    """Every macro of every template file, by name, each file compiled on the first use of one of
    its macros: a call uses a few of the ~110 files, and compiling all of them cost 0.8 s of every
    process's start (the command line's, a dashboard's)."""

    def __init__(self, env: jinja2.Environment, files: dict[str, Path], provided: dict[str, object]):
        self._env, self._files = env, files  # macro name -> the file that defines it
        self._provided = provided  # what the Python layer answers in place of dbt's macro of that name
        self._loaded: dict[str, object] = {}
        self._lock = threading.RLock()  # threads rendering at once compile a file once

    def __getitem__(self, name: str):
        if name in self._provided:
            return self._provided[name]
        try:
            return self._loaded[name]
        except KeyError:
            if name not in self._files:
                raise
        with self._lock:
            if name not in self._loaded:
                self._load(self._files[name])
        return self._loaded[name]

    def __iter__(self):
        return iter(dict.fromkeys([*self._files, *self._provided]))

    def __len__(self) -> int:
        return len(set(self._files) | set(self._provided))

    def _load(self, path: Path) -> None:
        module = self._env.get_template(path.relative_to(SQL_DIR).as_posix()).module
        found = {name: getattr(module, name) for name in dir(module)
                 if isinstance(getattr(module, name), jinja2.runtime.Macro)}
        indexed = {name for name, file in self._files.items() if file == path}
        if set(found) != indexed:
            raise RuntimeError(f"{path} defines the macros {sorted(found)}, but reads as defining {sorted(indexed)}")
        self._loaded.update({name: _Macro(macro) for name, macro in found.items()})


class _Namespace:
    """Every macro of every template file, by name: what `sqlmetrics.<macro>` resolves to."""

    def __init__(self, macros: _Macros):
        self.macros = macros

    def __getattr__(self, name):
        try:
            return self.__dict__["macros"][name]
        except KeyError:
            raise AttributeError(f"no macro named {name!r} under {SQL_DIR} (a one-pass ranking measure's is written "
                                 "into sql/metric.sql by `python -m sqlmetrics.codegen`)") from None


class _Adapter:
    """The part of dbt's `adapter` the macros use."""

    def __init__(self, namespace: _Namespace):
        self._namespace = namespace

    @staticmethod
    def quote(name: str) -> str:
        native = _NATIVE_DIALECT.get()
        if native:  # a placeholder: sqltext.finish puts the name in its place
            return exp.to_identifier(name, quoted=True).sql(native)
        return _TARGET.get().identifier(name).sql("duckdb")

    def dispatch(self, macro_name: str, macro_namespace: str | None = None):
        target = _TARGET.get()
        prefix, macro = resolve(self._namespace.macros, macro_name, target.dialect)
        if prefix == "default" or target.capabilities.template_syntax or _NATIVE_DIALECT.get():
            return macro  # generic SQL, DuckDB's own, or within a native macro already: inline
        return functools.partial(_native, macro, target.dialect)


def resolve(macros: dict, macro_name: str, dialect: str) -> tuple[str, object]:
    """(prefix, macro) of the spelling of `macro_name` for `dialect`: dbt's adapter.dispatch order."""
    for prefix in dialects.of(dialect).prefixes() + ("default",):
        macro = macros.get(f"{prefix}__{macro_name}")
        if macro is not None:
            return prefix, macro
    raise RuntimeError(f"no default__{macro_name} macro under {SQL_DIR}")


def _native(macro, dialect: str, *args) -> str:
    """`macro`(*args) in `dialect`'s syntax, as an sm_native(...) call of the generic text."""
    values: dict[str, str] = {}

    def placeholder(value):
        if isinstance(value, str):
            name = f"{_PLACEHOLDER}{len(values)}"
            values[name] = value
            return name
        if isinstance(value, (list, tuple)):
            return [placeholder(v) for v in value]
        return value  # numbers, booleans, None: used by the macro's logic, not as SQL

    placeholders = [placeholder(a) for a in args]
    token = _NATIVE_DIALECT.set(dialect)
    try:
        value = macro(*placeholders)
    finally:
        _NATIVE_DIALECT.reset(token)
    if not isinstance(value, str):
        return value  # a fact about the engine (a boolean), not SQL
    return native_call(dialect, value.strip(), values)


def native_call(dialect: str, text: str, values: dict[str, str]) -> str:
    """The generic (DuckDB) text standing for `text`, SQL in `dialect`'s own syntax whose placeholders
    (sm_arg_0, ...) stand for `values` (generic SQL where a placeholder is an expression)."""
    uses = placeholder_uses(text, dialect)
    parts = [_literal(dialect), _literal(text)]
    for name, use in uses.items():
        parts += [_literal(name), values[name] if use == "sql" else _literal(values[name])]
    return f"{NATIVE}({', '.join(parts)})"


@functools.lru_cache(maxsize=1024)
def placeholder_uses(text: str, dialect: str) -> dict[str, str]:
    """Each placeholder of a native macro's text -> "name" (quoted as an identifier), "text" (in a
    string literal) or "sql" (an expression)."""
    uses: dict[str, str] = {}
    for node in sqlglot.parse_one(text, read=dialect).walk():
        if isinstance(node, exp.Identifier) and node.name.startswith(_PLACEHOLDER):
            found = [(node.name, "name" if node.quoted else "sql")]
        elif isinstance(node, exp.Literal) and node.is_string and _PLACEHOLDER in node.name:
            found = [(name, "text") for name in re.findall(rf"{_PLACEHOLDER}\d+", node.name)]
        else:
            continue
        for name, use in found:
            if uses.setdefault(name, use) != use:
                raise RuntimeError(f"a native macro uses the argument {name} both as {uses[name]} and as {use}: {text}")
    return dict(sorted(uses.items()))


def _literal(text: str) -> str:
    return exp.Literal.string(text).sql("duckdb")


class _Exceptions:
    """dbt's `exceptions`, as far as the macros use it (a call the Python layer's validation let through)."""

    @staticmethod
    def raise_compiler_error(message: str):
        raise ParameterError(message)


class _Return(Exception):
    """dbt's `return`, on its way out of a macro (as dbt's MacroReturn)."""

    def __init__(self, value):
        super().__init__()
        self.value = value


def _return(value):
    """dbt's `return`: ends the macro, whose call gives `value` itself (a string, a list, a dict...)."""
    raise _Return(value)


class _Macro:
    """A macro as dbt calls it: its value where it returns one, else the text it renders."""

    def __init__(self, macro):
        self._macro = macro

    def __call__(self, *args, **kwargs):
        called = _CALLED.get()
        if called is not None:
            called.add(self._macro.name)
        try:
            return self._macro(*args, **kwargs)
        except _Return as returned:
            return returned.value

    def __getattr__(self, name):  # the Jinja macro's own attributes (arguments, name...)
        return getattr(self._macro, name)


def _column_type(name: str) -> str:
    """What the Python layer knows of a label or class column (in dbt: none, unknown): 'boolean' or
    'text' when the engine said so, else 'number' (`sm.render`, which asks no engine, takes numbers)."""
    target = _TARGET.get()
    return "boolean" if name in target.booleans else "text" if name in target.texts else "number"


def _relation_columns(relation: str) -> list[str] | None:
    """The columns of a relation the call gave, in lower case, as the checks found them (in dbt: those
    dbt finds); None for any other (a CTE's name) or where nothing was checked (`sm.render`)."""
    known = dict(_TARGET.get().relation_columns or ())
    return [c.lower() for c in known[relation]] if relation in known else None


def _positive_value(name: str) -> str | None:
    """pos_label as a SQL literal, where the call gave one (in dbt: none, labels are 0/1)."""
    return _TARGET.get().positive


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """The templates' compiled code kept between processes, in Jinja's own per-user directory (made
    private to the user, its owner checked), keyed by each file's name and content: a command's
    first call loads code instead of compiling. Where the directory cannot be used, templates are
    compiled as without a cache."""

    def __init__(self):
        try:
            super().__init__(pattern="sqlmetrics_%s.cache")
        except (OSError, RuntimeError):  # no usable temporary directory, or one not the user's own
            self.directory = None

    def load_bytecode(self, bucket) -> None:
        if self.directory is not None:
            try:
                super().load_bytecode(bucket)
            except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):  # unreadable, cut short
                bucket.reset()  # compiled again

    def dump_bytecode(self, bucket) -> None:
        if self.directory is not None:
            try:
                super().dump_bytecode(bucket)
            except OSError:  # a full or read-only disk: the next process compiles again
                pass


@functools.lru_cache(maxsize=None)
def namespace() -> _Namespace:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(SQL_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        bytecode_cache=_BytecodeCache(),
    )
    files: dict[str, Path] = {}
    for path in sorted(SQL_DIR.rglob("*.sql")):
        for name in _DEFINITION.findall(path.read_text(encoding="utf-8")):
            if files.setdefault(name, path) != path:
                raise RuntimeError(f"macro {name!r} is defined twice under {SQL_DIR}")
    ns = _Namespace(_Macros(env, files, {"column_type": _column_type, "positive_value": _positive_value,
                                         "relation_columns": _relation_columns}))
    env.globals["sqlmetrics"] = ns
    env.globals["adapter"] = _Adapter(ns)
    env.globals["return"] = _return
    env.globals["exceptions"] = _Exceptions()
    return ns


def render_macro(name: str, target: Target = Target(), /, **kwargs) -> str:
    """Call the macro `name` with keyword arguments for `target`: SQL text in DuckDB's syntax,
    with the target's own macros as sm_native(...) calls (sqltext.finish reads them)."""
    token = _TARGET.set(target)
    try:
        return str(getattr(namespace(), name)(**kwargs))
    finally:
        _TARGET.reset(token)
