"""The few places where engines differ, as rewrites of the syntax tree after sqlglot has read the
templates (templates stay in one portable form; vendor syntax lives only here).

- SQLite cannot spell infinity in a CAST ('inf' casts to 0.0): 9e999 overflows to +inf.
- PostgreSQL sorts text by the database's locale; trec_eval breaks ties by bytes: COLLATE "C".
- Boolean label/prediction columns: `col = 1` is a type error on PostgreSQL (and Redshift, Spark
  with ANSI on, ...); a boolean column is its own predicate.
- Checks for NaN/infinity: each engine has its own way (or cannot store NaN at all).
"""
from __future__ import annotations

from sqlglot import exp

_TEXT_TYPES = {exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT}


def adapt(tree: exp.Expression, dialect: str, booleans: frozenset = frozenset()) -> exp.Expression:
    """Rewrite a parsed template (DuckDB semantics) so it means the same on `dialect`."""
    if dialect == "sqlite":
        for cast in list(tree.find_all(exp.Cast)):
            if isinstance(cast.this, exp.Literal) and cast.this.is_string and cast.this.name.lower() == "inf":
                cast.replace(exp.Literal.number("9e999"))
    if dialect == "postgres":
        for ordered in list(tree.find_all(exp.Ordered)):
            key = ordered.this
            if isinstance(key, exp.Cast) and key.to.this in _TEXT_TYPES:
                key.replace(exp.Collate(this=key.copy(), expression=exp.to_identifier("C", quoted=True)))
    if booleans and dialect != "duckdb":
        for eq in list(tree.find_all(exp.EQ)):
            column, value = eq.this, eq.expression
            if (isinstance(column, exp.Column) and column.name in booleans and not column.table
                    and isinstance(value, exp.Literal) and value.name == "1"):
                eq.replace(column.copy())
    return tree


def is_nan(column_sql: str, dialect: str) -> str | None:
    """A DuckDB-syntax predicate true for NaN on `dialect`, or None where NaN cannot be stored."""
    if dialect == "sqlite":
        return None  # SQLite stores NaN as NULL: the NULL check covers it
    if dialect in ("postgres", "redshift"):
        return f"{column_sql} = CAST('NaN' AS DOUBLE)"  # NaN equals NaN there
    return f"isnan({column_sql})"


def is_infinite(column_sql: str, dialect: str) -> str:
    if dialect == "duckdb":
        return f"isinf({column_sql})"
    infinity = "9e999" if dialect == "sqlite" else "CAST('inf' AS DOUBLE)"
    return f"ABS({column_sql}) = {infinity}"
