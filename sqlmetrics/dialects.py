"""The few places where engines differ, as rewrites of the syntax tree after sqlglot has read the
templates (templates stay in one portable form; vendor syntax lives only here).

- Infinity: SQLite casts 'inf' to 0.0 (9e999 overflows to +inf instead); Trino rejects 'inf'
  (INFINITY()); Redshift spells it 'Infinity'; MySQL has none (its largest DOUBLE stands in: MySQL
  cannot store an infinite score either).
- PostgreSQL and MySQL sort text by a locale or case-insensitive collation; trec_eval breaks ties
  by bytes: COLLATE "C" / utf8mb4_bin.
- Boolean label/prediction columns: `col = 1` is a type error on PostgreSQL (and Redshift, Spark
  with ANSI on, ...); a boolean column is its own predicate.
- Checks for NaN/infinity: each engine has its own way (or cannot store NaN at all).
- Redshift has ROWS window frames only: the peers of a value (RANGE BETWEEN CURRENT ROW AND
  CURRENT ROW, helpers.sql `peers`) become a partition by that value.
"""
from __future__ import annotations

from sqlglot import exp

_TEXT_TYPES = {exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT}
_INFINITY = {
    "sqlite": lambda: exp.Literal.number("9e999"),
    "mysql": lambda: exp.Literal.number("1.7976931348623157e308"),
    "trino": lambda: exp.Anonymous(this="INFINITY"),
    "redshift": lambda: exp.cast(exp.Literal.string("Infinity"), "DOUBLE"),
}
_ROWS_FRAMES_ONLY = {"redshift"}
_BYTE_COLLATION = {
    "postgres": lambda: exp.to_identifier("C", quoted=True),
    "mysql": lambda: exp.to_identifier("utf8mb4_bin"),
}


def adapt(tree: exp.Expression, dialect: str, booleans: frozenset = frozenset()) -> exp.Expression:
    """Rewrite a parsed template (DuckDB semantics) so it means the same on `dialect`."""
    if dialect in _INFINITY:
        for cast in list(tree.find_all(exp.Cast)):
            if isinstance(cast.this, exp.Literal) and cast.this.is_string and cast.this.name.lower() == "inf":
                cast.replace(_INFINITY[dialect]())
    if dialect in _BYTE_COLLATION:
        for ordered in list(tree.find_all(exp.Ordered)):
            key = ordered.this
            if isinstance(key, exp.Cast) and key.to.this in _TEXT_TYPES:
                key.replace(exp.Collate(this=key.copy(), expression=_BYTE_COLLATION[dialect]()))
    if dialect in _ROWS_FRAMES_ONLY:
        for window in list(tree.find_all(exp.Window)):
            spec, order = window.args.get("spec"), window.args.get("order")
            if (spec and spec.args.get("kind") == "RANGE" and spec.args.get("start") == "CURRENT ROW"
                    and spec.args.get("end") == "CURRENT ROW" and order and len(order.expressions) == 1):
                window.set("partition_by", [*window.args.get("partition_by", []), order.expressions[0].this.copy()])
                window.set("order", None)
                window.set("spec", None)
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
    return f"ABS({column_sql}) = CAST('inf' AS DOUBLE)"  # spelled per engine by adapt()
