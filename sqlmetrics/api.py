"""The public entry points: one function per registered metric, and ``render``."""
from __future__ import annotations

import inspect
import math
import warnings

import pandas as pd
from sqlglot import exp

from . import checks
from .engine import DuckDBEngine
from .errors import ParameterError, UndefinedMetricError
from .params import REQUIRED
from .registry import METRICS, Metric
from .sources import Source, static_source
from .sqltext import PLACEHOLDER, check_dialect, finish
from .templates import render_macro

#: names a `by`/`group` column may not have: they are output or intermediate columns of the templates
RESERVED = frozenset(c.lower() for m in METRICS.values() for c in m.outputs) | {
    "threshold", "tp", "fp", "tn", "fn"}

#: on DuckDB, AUC-family metrics rank rows instead of aggregating per distinct score when at
#: least this share of the scores is distinct (aggregating first then buys nothing)
RANK_PLAN_DISTINCT_SHARE = 0.5


def metric(name: str) -> Metric:
    if not isinstance(name, str):
        raise ParameterError(f"the metric name must be a string such as 'auc'; got {name!r}")
    try:
        return METRICS[name]
    except KeyError:
        import difflib
        near = difflib.get_close_matches(name, list(METRICS), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise ParameterError(f"unknown metric {name!r}{hint} Known: {', '.join(METRICS)}") from None


def validate(m: Metric, given: dict) -> dict:
    """Check every parameter of `m` (names, types, ranges, reserved column names)."""
    names = {p.name for p in m.params}
    unknown = set(given) - names
    if unknown:
        raise ParameterError(f"{m.name} got unexpected parameter(s) {sorted(unknown)}; it takes {sorted(names)}")
    values = {}
    for p in m.params:
        if p.name not in given and p.required:
            raise ParameterError(f"{m.name} needs the {p.name!r} parameter: {p.doc}")
        values[p.name] = p.validate(given.get(p.name, None if p.required else p.default))
    if m.one_of and sum(values[k] is not None for k in m.one_of) != 1:
        raise ParameterError(f"{m.name} needs exactly one of {' or '.join(m.one_of)}")
    keys = list(values.get("by") or []) + ([values["group"]] if values.get("group") else [])
    for key in keys:
        if key.lower() in RESERVED:
            raise ParameterError(
                f"column {key!r} cannot be used in by/group: sqlmetrics names an output column so; "
                f"rename it, e.g. sqlmetrics.Query('SELECT *, {key} AS {key}_key FROM ...')")
    if values.get("group") and values["group"] in (values.get("by") or []):
        raise ParameterError(f"group column {values['group']!r} is also in by")
    return values


def _columns(m: Metric, values: dict) -> dict[str, str]:
    """parameter name -> column, for the single-column parameters that are set."""
    return {p.name: values[p.name] for p in m.params if p.kind == "column" and values[p.name] is not None}


def _sql(m: Metric, values: dict, source: Source, dialect: str, plan: str, pretty: bool) -> str:
    kwargs = dict(values)
    kwargs["by"] = list(values.get("by") or [])
    if m.adaptive:
        kwargs["plan"] = plan
    return finish(render_macro(m.name, relation=PLACEHOLDER, **kwargs), source.relation, dialect, pretty)


def render(metric_name: str, data, *, dialect: str = "duckdb", pretty: bool = True, **params) -> str:
    """The SQL of a metric without running it: one read-only SELECT in `dialect`.

    ``data`` (and the same parameters as the metric's function) may be a table name or a
    ``sqlmetrics.Query``; a file path works for ``dialect="duckdb"``. Identifiers are quoted for the
    target dialect; the output column names are those of the metric's DataFrame.

    >>> import sqlmetrics as sm
    >>> print(sm.render("auc", "analytics.preds", label="clicked", score="pctr", dialect="snowflake"))
    ... # doctest: +ELLIPSIS
    SELECT
      CAST(sm_u AS DOUBLE) / NULLIF(CAST(sm_w_pos * sm_w_neg AS DOUBLE), 0) AS auc,
    ...
    """
    m = metric(metric_name)
    dialect = check_dialect(dialect)
    values = validate(m, params)
    return _sql(m, values, static_source(data, dialect), dialect, "aggregate", pretty)


def compute(m: Metric, data, *, con=None, details: bool = False, dropna: bool = False, **params):
    """Validate, check the data, run the metric on the engine and shape the result."""
    values = validate(m, params)
    engine = DuckDBEngine(con)
    with engine.source(data) as source:
        schema = engine.schema(source)
        columns = _columns(m, values)
        where = source.description
        checks.require_columns(columns, schema, where)
        for by_col in values.get("by") or []:
            checks.require_columns({"by": by_col}, schema, where)
        found = [c for p in m.params if p.kind == "column" and values[p.name] is not None
                 for c in checks.column_checks(p.name, p.role, values[p.name], schema[values[p.name]])]
        distinct_of = values.get("score") if m.adaptive and values.get("weight") is None else None
        from_sql = _from_sql(source)
        row = engine.first_row(checks.check_query(found, from_sql, distinct_of, list(columns.values())))
        n_rows, distinct, null_rows = checks.interpret(found, row, dropna)
        if dropna and null_rows:
            where_sql = checks.null_filter(list(columns.values()))
            query = exp.select("*").from_(_from_expr(source)).where(where_sql, dialect="duckdb")
            source = Source(query, source.description)
            warnings.warn(f"dropna=True dropped {null_rows} of {n_rows} rows with NULL in "
                          f"{', '.join(repr(c) for c in columns.values())}", stacklevel=3)
        plan = "rank" if distinct and distinct >= RANK_PLAN_DISTINCT_SHARE * n_rows else "aggregate"
        result = engine.execute(_sql(m, values, source, engine.dialect, plan, pretty=False))
    return _shape(m, result, values, details)


def _from_expr(source: Source) -> exp.Expression:
    return source.relation.subquery(PLACEHOLDER) if isinstance(source.relation, exp.Query) else source.relation


def _from_sql(source: Source) -> str:
    return _from_expr(source).sql("duckdb")


def _python(value):
    """A numpy scalar as a plain Python int/float (NaN for missing)."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return math.nan
    item = getattr(value, "item", None)
    return item() if item else value


def _shape(m: Metric, df: pd.DataFrame, values: dict, details: bool):
    by = list(values.get("by") or [])
    if by:
        if m.kind != "curve":
            df = df.sort_values(by, na_position="last", kind="stable")
        return df.reset_index(drop=True)
    undefined = [c for c in m.value_columns if len(df) == 0 or df[c].isna().all()]
    if undefined and not (details and m.kind != "curve"):
        counts = {c: _python(df[c].iloc[0]) for c in m.outputs if c.startswith("n") and len(df)}
        shown = ", ".join(f"{k}={v}" for k, v in counts.items())
        raise UndefinedMetricError(f"{m.name} is undefined on this data: {m.undefined}"
                                   + (f" ({shown})" if shown else ""))
    if details or m.kind == "curve":
        return df
    if m.kind == "record":
        return {c: _python(df[c].iloc[0]) for c in m.outputs}
    return float(df[m.name].iloc[0])


def make_function(m: Metric):
    """Build ``sm.<name>``: a function with a real signature and a docstring from the registry."""
    parameters = [inspect.Parameter("data", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for p in m.params:
        default = inspect.Parameter.empty if p.default is REQUIRED else p.default
        parameters.append(inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=default))
    for name, default in (("con", None), ("details", False), ("dropna", False)):
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default))
    signature = inspect.Signature(parameters)

    def function(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        data = arguments.pop("data")
        return compute(m, data, **arguments)

    function.__name__ = function.__qualname__ = m.name
    function.__signature__ = signature
    function.__doc__ = docstring(m)
    function.__module__ = "sqlmetrics"
    return function


def docstring(m: Metric) -> str:
    returns = {
        "scalar": f"float (with ``by=`` or ``details=True``: a DataFrame with columns {', '.join(m.outputs)})",
        "record": f"dict of {', '.join(m.outputs)} (with ``by=`` or ``details=True``: a DataFrame)",
        "curve": f"pandas.DataFrame with columns {', '.join(m.outputs)} (``by`` columns first)",
    }[m.kind]
    params = "\n".join(f"    {p.name}: {p.doc}" + ("" if p.required else f" Default {p.default!r}.")
                       for p in m.params)
    one_of = f"\n    Exactly one of {' / '.join(m.one_of)} must be given." if m.one_of else ""
    undefined = (f"\nUndefined when {m.undefined}: raises UndefinedMetricError; NaN in a ``by`` slice.\n"
                 if m.undefined else "")
    return f"""{m.summary}

    {m.formula}

Parameters
    data: table name, sqlmetrics.Query, Parquet/CSV/JSON path or glob, or a pandas/polars/pyarrow frame.
{params}{one_of}
    con: a DuckDB connection (default: a private in-memory one).
    details: return the one-row DataFrame with the counts instead of the bare value.
    dropna: drop rows with NULL in the metric's columns (with a warning saying how many) instead of failing.

Returns
    {returns}
{undefined}
Reference: {m.reference}

Example
{_indent(m.example)}"""


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.splitlines())
