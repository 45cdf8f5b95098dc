"""Input validation: columns exist and have usable types and values, before a metric runs.

The values are screened by cheap aggregates (the minima and maxima, NaN by sums, NULLs by counts):
as a column of the metric's own statement (screen_flag, api: the input is read once), or where that
cannot be, as a SELECT of their own first (screen_query). Only where a screen fires (or the metric's
statement fails) does check_query count how many rows fail each check and fetch an example. Where
the engine can fail a query from a row (Capabilities.guards_rows: Spark) the checks instead ride along
in the metric's own query as guards on each value (guarded), and check_query runs only once a guard
has failed. Either way a bad table fails with a sentence naming the column and the problem instead of
a wrong number.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Callable

from sqlglot import exp

from . import dialects
from .errors import ColumnError, MissingColumnError, NotBinaryError
from .target import Target
from .templates import render_macro


@dataclass(frozen=True)
class Check:
    condition: str | None  # SQL predicate true for an offending row (NULL counts as false); None: see count
    column: str | None  # column whose offending value is shown as an example
    message: Callable[[int, object], str]  # (count, example) -> sentence
    is_null_check: bool = False
    count: str | None = None  # SQL aggregate counting the offending rows, if cheaper than SUM(CASE ...)
    screen: str | None = None  # SQL aggregate, nonzero whenever the check may fail, if cheaper than the count
    error: Callable[[str], ColumnError] = ColumnError  # what a failure raises, from the sentence

    def count_sql(self) -> str:
        return self.count or f"SUM(CASE WHEN {self.condition} THEN 1 ELSE 0 END)"

    def screen_sql(self) -> str:
        return self.screen or self.count_sql()


_INTEGER = re.compile(r"U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?\d*\Z", re.I)  # DuckDB's, PostgreSQL's, Spark's, ClickHouse's


def quote(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql("duckdb")


#: a name a user can write without quotes, which the warehouse folds (as_the_engine_reads)
_UNQUOTED = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def as_the_engine_reads(col: str, schema: dict[str, str], dialect: str) -> str:
    """The column the engine resolves `col` to, written unquoted, where no column has its exact spelling:
    Snowflake folds an unquoted name to upper case, PostgreSQL to lower case, DuckDB or Spark match any
    case (sqlglot's normalization strategy of the dialect). `col` itself where a column has that exact
    spelling, where it cannot be written unquoted, or where no column (or more than one) matches."""
    from sqlglot.dialects.dialect import Dialect, NormalizationStrategy as Strategy
    if col in schema or not _UNQUOTED.fullmatch(col):
        return col
    strategy = Dialect.get_or_raise(dialect).normalization_strategy
    if strategy in (Strategy.UPPERCASE, Strategy.LOWERCASE):
        found = [col.upper() if strategy == Strategy.UPPERCASE else col.lower()]
    elif strategy == Strategy.CASE_SENSITIVE:
        found = []
    else:  # case-insensitive, whatever the case it stores
        found = [c for c in schema if c.lower() == col.lower()]
    found = [c for c in found if c in schema]
    return found[0] if len(found) == 1 else col


def require_columns(columns: list[tuple[str, str]], schema: dict[str, str], where: str,
                    advice: dict[str, str] | None = None) -> None:
    """Every (parameter, column) must name an existing column; suggest the closest otherwise, or the
    `advice` for that parameter (what to pass instead of a column the relation may well lack)."""
    for param, col in columns:
        if col in schema:
            continue
        near = difflib.get_close_matches(col, list(schema), n=1) or [
            c for c in schema if c.lower() == col.lower()]
        hint = f"; did you mean {near[0]!r}?" if near else f"; {advice[param]}" if param in (advice or {}) else ""
        listing = ", ".join(repr(c) for c in list(schema)[:20]) + (" ..." if len(schema) > 20 else "")
        said = f"column {col!r} ({param}) not found in {where}{hint}"
        raise MissingColumnError(f"{said}{'' if said.endswith(('?', '.')) else '.'} Its columns: {listing}")


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def column_checks(param: str, role: str, col: str, kind: str, type_name: str, dialect: str = "duckdb",
                  slot: str = "data", relation: str = "") -> list[Check]:
    """The checks for one column used in role `role` (`kind`: its type class, see engine.type_class);
    raises at once on an unusable type. Conditions are DuckDB SQL, transpiled for other engines. The
    messages name a column of a relation other than the data (`slot`: train, qrels...) with that
    relation (`relation`: its description), whose values they show.

    Numbers must be numbers (SQLite keeps text in any column), never NaN (PostgreSQL's numeric has
    one too), and finite except for scores, which only order rows (+-inf rank first and last)."""
    if role in ("slice", "category"):  # a by column (NULL a slice of its own), a category (NULL missing): any type
        return []
    q = quote(col)
    desc = f"column {col!r} ({param})" + ("" if slot == "data" else f" of {relation} given as {slot}")
    caps = dialects.of(dialect)
    checks = [] if role == "measurement" else [Check(f"{q} IS NULL", None, lambda n, _: (
        f"{desc} has {n} NULL value{_s(n)} (missing values; NaN in a pandas column is one); remove them, "
        "or pass dropna=True to drop such rows"), True, count=f"COUNT(*) - COUNT({q})")]
    if role in ("group", "key"):
        return checks
    if role == "class":  # a class of any type; a float class must not be NaN (it equals no class)
        nan = caps.is_nan(q) if kind == "float" else None
        return checks + ([Check(nan, None, lambda n, _: (
            f"{desc} has {n} NaN value{_s(n)}; NaN is not a class: remove or replace them"))] if nan else [])
    binary = role in ("label", "binary", "indicator")
    if kind == "other" or (kind == "boolean" and not binary):
        message = f"{param} must be {'0/1 (or boolean)' if binary else 'numeric'}; {desc} has type {type_name}"
        raise NotBinaryError(message, param, col, type_name, desc, slot) if binary else ColumnError(message)
    text = caps.not_a_number(q)
    if text:
        checks.append(Check(text, col, lambda n, ex: (
            f"{param} must be {'0/1' if binary else 'a number'}; {desc} has {n} value{_s(n)} that "
            f"{'is' if n == 1 else 'are'} not a number (text or bytes), e.g. {ex!r}")))
    decimal = kind != "float"
    # floats, and an exact numeric type where it has them (PostgreSQL's numeric), can hold NaN and
    # infinities; the other exact types cannot
    special = kind == "float" or (caps.special_numerics and type_name == "numeric")
    nan = caps.is_nan(q, decimal) if special else None
    if nan:
        by_sums = caps.nan_by_sums(q) if kind == "float" else None
        checks.append(Check(nan, None, lambda n, _: (
            f"{desc} has {n} NaN value{_s(n)}; NaN is not a number a metric can use: remove or replace them"),
            screen=f"CASE WHEN {by_sums} THEN 1 ELSE 0 END" if by_sums else None))
    # Screens by the extremes: a minimum and a maximum cost a fraction of a count of conditions
    below_0, above_1 = f"MIN({q}) < 0", f"MAX({q}) > 1"
    if binary:
        # a boolean where booleans are numbers like any other (SQLite): 2 or 0.5 would count as true
        if kind != "boolean" or caps.loose_types:
            # in [0, 1], x(1 - x) >= 0 with equality only at 0 and 1 (no rounding reaches 0 elsewhere)
            fraction = "" if _INTEGER.match(type_name) else f" OR SUM({q} * (1 - {q})) <> 0"
            checks.append(Check(f"{q} NOT IN (0, 1)", col, lambda n, ex: (
                f"{param} must be 0/1 (or boolean); {desc} has {n} other value{_s(n)}, e.g. {ex!r}"),
                screen=None if caps.loose_types else f"CASE WHEN {below_0} OR {above_1}{fraction} THEN 1 ELSE 0 END",
                error=lambda message: NotBinaryError(message, param, col, type_name, desc, slot)))
        return checks
    if role == "relevance":
        checks.append(Check(f"{q} < 0", col, lambda n, ex: (
            f"relevance must be >= 0; {desc} has {n} negative value{_s(n)}, e.g. {ex!r}"),
            screen=f"CASE WHEN {below_0} THEN 1 ELSE 0 END"))
    if role == "duration":  # the censoring's Kaplan-Meier weights count time from 0, as scikit-survival's
        checks.append(Check(f"{q} < 0", col, lambda n, ex: (
            f"{param} must be >= 0 (a time since the start of follow-up); {desc} has {n} negative value{_s(n)}, "
            f"e.g. {ex!r}"), screen=f"CASE WHEN {below_0} THEN 1 ELSE 0 END"))
    if role == "probability":  # the range also excludes infinities
        checks.append(Check(f"({q} < 0 OR {q} > 1)", col, lambda n, ex: (
            f"{desc} must hold probabilities in [0, 1]; {n} value{_s(n)} {'is' if n == 1 else 'are'} outside, "
            f"e.g. {ex!r}"), screen=f"CASE WHEN {below_0} OR {above_1} THEN 1 ELSE 0 END"))
    if role == "log1p":  # the logarithmic errors take log(1 + value), as sklearn refuses values <= -1
        checks.append(Check(f"{q} <= -1", col, lambda n, ex: (
            f"{param} must be above -1, as log(1 + {param}) is taken (mean squared log error); {desc} has "
            f"{n} value{_s(n)} <= -1, e.g. {ex!r}"), screen=f"CASE WHEN MIN({q}) <= -1 THEN 1 ELSE 0 END"))
    if role in ("weight", "count"):  # a sample weight, or a count/weight total of a stored summary
        what = "weights" if role == "weight" else "counts"
        checks.append(Check(f"{q} < 0", col, lambda n, ex: (
            f"{what} must be non-negative; {desc} has {n} negative value{_s(n)}, e.g. {ex!r}"),
            screen=f"CASE WHEN {below_0} THEN 1 ELSE 0 END"))
    # a weight, count, gain or regression value of +-inf makes the metric inf or NaN; SQLite keeps
    # 9e999 (inf) in a column of any declared type
    if role in ("weight", "count", "relevance", "grade", "numeric", "log1p", "duration", "measurement") and (
            special or caps.loose_types):
        values = {"weight": "weights", "count": "counts"}.get(role, param)
        infinite = caps.is_infinite(q, render_macro("infinity", Target(dialect)), decimal)
        if infinite:
            checks.append(Check(infinite, None,
                                lambda n, _: f"{values} must be finite; {desc} has {n} infinite value{_s(n)}"))
    return checks


def may_hold_fractions(kind: str, type_name: str, dialect: str) -> bool:
    """Whether a column (`kind`: its type class) may hold a fraction: a number not of an integer type,
    or any number where a column's type does not bind its values (SQLite)."""
    return kind in ("numeric", "float") and (dialects.of(dialect).loose_types or not _INTEGER.match(type_name))


def screen_query(checks: list[Check], source_sql: str) -> str:
    """One aggregate SELECT, cheaper than check_query: the row count, then per check a value that is
    nonzero whenever the check may fail (a screen may fire on a clean column, never miss a bad
    one): check_query then says whether and how it failed."""
    return f"SELECT {', '.join(['COUNT(*)'] + [c.screen_sql() for c in checks])} FROM {source_sql}"


def screen_flag(checks: list[Check]) -> str | None:
    """One aggregate whose value is 1 where a screen of `checks` fired (see screen_query), else 0: what
    the metric's own statement carries (api), so that the checks read the rows the metric reads, in its
    scan; None where no check applies."""
    if not checks:
        return None
    return f"CASE WHEN {' OR '.join(f'({c.screen_sql()}) <> 0' for c in checks)} THEN 1 ELSE 0 END"


def null_filter(columns: list[str]) -> str:
    """SQL predicate: none of `columns` is NULL."""
    return " AND ".join(f"{quote(c)} IS NOT NULL" for c in columns)


def check_query(checks: list[Check], source_sql: str, columns: list[str] | None) -> str:
    """One aggregate SELECT: row count, rows with a NULL in any of `columns` (counted only when
    given: for dropna), then per check the offending count and an example value."""
    items = ["COUNT(*)", f"SUM(CASE WHEN {null_filter(columns)} THEN 0 ELSE 1 END)" if columns else "0"]
    for c in checks:
        items.append(c.count_sql())
        items.append(f"MIN(CASE WHEN {c.condition} THEN {quote(c.column)} END)" if c.column else "NULL")
    return f"SELECT {', '.join(items)} FROM {source_sql}"


def interpret(checks: list[Check], row: tuple, dropna: bool) -> tuple[int, int]:
    """Raise ColumnError for the first failed check; return (rows, rows with NULLs).

    With dropna=True the NULL checks do not raise: those rows are to be dropped instead.
    """
    for i, c in enumerate(checks):
        count, example = row[2 + 2 * i] or 0, row[3 + 2 * i]
        if count and not (c.is_null_check and dropna):
            raise c.error(c.message(int(count), example))
    return int(row[0]), int(row[1] or 0)


def guarded(checks: list[Check], column: str, dialect: str) -> str:
    """`column` as the metric reads it when the checks run as guards (Capabilities.guards_rows): the
    value itself, or the query fails on a row that a check of `checks` (the column's own) finds.
    The caller then runs check_query to say which check failed, how often and on what value."""
    q = quote(column)
    found = [f"({c.condition})" for c in checks if c.condition]
    if not found:
        return q
    # a check's condition may be NULL where the row is fine (see Check); invalid_value fails on NULL
    condition = f"COALESCE({' OR '.join(found)}, FALSE)"
    fail = render_macro("invalid_value", Target(dialect), value=q, condition=condition,
                        message="an input value failed a check (NULL, NaN, out of range)")
    return f"COALESCE({fail}, {q})"


def duplicates_screen(keys: list[str], source_sql: str, dialect: str) -> str:
    """A query whose one value is 0 when no key combination repeats (nonzero: maybe; duplicates_query
    then says): counting distinct hashes of the combinations where the engine has a hash of a row,
    cheaper than grouping by the keys (DuckDB: 0.55 s on 10M rows, grouping 1.0 s; two combinations
    sharing a 64-bit hash, a chance of about 3 in 10^6 at 10^7 rows, only cost that second query),
    else counting the repeated combinations."""
    row_hash = dialects.of(dialect).row_hash([quote(k) for k in keys])
    if row_hash:
        return f"SELECT COUNT(*) - COUNT(DISTINCT {row_hash}) FROM {source_sql}"
    return duplicates_query(keys, source_sql, count=True)


def duplicates_query(keys: list[str], source_sql: str, count: bool = False) -> str:
    """One example of a repeated key combination (no row: none), or with `count` how many
    combinations repeat: a second query, asked only once a repeat is found (counting them in the
    first one, with a window, made every call ~40% slower)."""
    cols = ", ".join(quote(k) for k in keys)
    repeated = f"SELECT {cols} FROM {source_sql} GROUP BY {cols} HAVING COUNT(*) > 1"
    return f"SELECT COUNT(*) FROM ({repeated}) AS sm_repeated" if count else f"{repeated} LIMIT 1"
