"""The public metric functions, ``sm.<name>``, built from the registry with a real signature and a
docstring. Building them imports nothing heavy (no SQL parser, engine or pandas): those load on
the first call, so ``import sqlmetrics`` is quick."""
from __future__ import annotations

import inspect

from .errors import ArgumentError
from .params import REQUIRED
from .registry import Metric


def make_function(m: Metric):
    """Build ``sm.<name>``: a function with a real signature and a docstring from the registry."""
    parameters = [inspect.Parameter("data", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for i, p in enumerate(m.params):
        default = inspect.Parameter.empty if p.default is REQUIRED else p.default
        # a second relation (qrels, similarity) may follow `data` positionally: sm.ndcg(run, qrels, k=10)
        kind = (inspect.Parameter.POSITIONAL_OR_KEYWORD if i == 0 and p.kind == "relation"
                else inspect.Parameter.KEYWORD_ONLY)
        parameters.append(inspect.Parameter(p.name, kind, default=default))
    options = (("con", None), ("dialect", None), ("details", False), ("dropna", False)) + (
        (("per_query", False),) if m.per_query else ())
    for name, default in options:
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default))
    signature = inspect.Signature(parameters)

    def function(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise ArgumentError(f"{m.name}(): {e}; it takes {signature}") from None
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        data = arguments.pop("data")
        from .api import compute_metric  # on the first call: `import sqlmetrics` stays light
        return compute_metric(m, data, **arguments)

    function.__name__ = function.__qualname__ = m.name
    function.__signature__ = signature
    function.__doc__ = docstring(m)
    function.__module__ = "sqlmetrics"
    return function


def docstring(m: Metric) -> str:
    returns = {
        "scalar": f"{'int' if m.count else 'float'} (with ``by=`` or ``details=True``: a DataFrame with columns "
                  f"{', '.join(m.outputs)}{m.outputs_note('``')})",
        "record": f"dict of {', '.join(m.outputs)} (with ``by=`` or ``details=True``: a DataFrame)",
        "curve": f"pandas.DataFrame with columns {', '.join(m.outputs)} (``by`` columns first)",
    }[m.kind]
    params = "\n".join(f"    {p.name}: {p.doc}" + ("" if p.required else f" Default {p.default!r}.")
                       for p in m.params)
    one_of = f"\n    Exactly one of {' / '.join(m.one_of)} must be given." if m.one_of else ""
    undefined = (f"\nUndefined when {m.undefined}: raises UndefinedMetricError; NaN in a ``by`` slice.\n"
                 if m.undefined else "")
    per_query = ("\n    per_query: return a DataFrame with the value of every evaluated query instead."
                 if m.per_query else "")
    return f"""{m.summary}

    {m.formula}

Parameters
    data: table name, sqlmetrics.Query, Parquet/CSV/JSON path or glob, sqlmetrics.TrecRun/TrecQrels (trec_eval's
        files), a pandas/polars/pyarrow frame or a DuckDB relation.
{params}{one_of}
    con: where to compute: a DuckDB, sqlite3 or psycopg connection, a SparkSession (classic or Spark
        Connect), a chDB session, a DB-API 2.0 connection of a warehouse's own driver (PyMySQL,
        psycopg2, snowflake.connector, BigQuery's, Trino's, Databricks', Redshift's, ADBC's), or a
        SQLAlchemy Engine or Connection (default: a private in-memory DuckDB, or the session of a
        Spark DataFrame given as data); data is then a table or query there (or, on Spark, a Spark
        DataFrame): a frame is never uploaded.
    dialect: the SQL dialect to generate (default: the connection's; e.g. 'redshift' over psycopg; a
        driver sqlmetrics does not know needs it).
    details: return the one-row DataFrame with the counts instead of the bare value.{per_query}
    dropna: drop rows with NULL in the metric's columns (with a warning saying how many) instead of failing.

Returns
    {returns}
{undefined}
Reference: {m.reference}

Example
{_indent(m.example)}"""


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.splitlines())
