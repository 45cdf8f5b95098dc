"""Printing results for the command line: a table, JSON or CSV on stdout.

Numbers that are not finite are written so that every reader takes them without error and nothing
is lost: +inf and -inf as ``Infinity`` and ``-Infinity`` (in JSON the strings "Infinity" and
"-Infinity", which JavaScript's ``Number()``, Python's ``float()`` and jq's ``tonumber`` read back
as infinities; JSON has no such number), NaN (an undefined value, a missing count) as ``null`` in
JSON and ``NaN`` in a table or CSV. The JSON is strict (RFC 8259): no bare NaN or Infinity. In a
table, a column of text (classes, slices) shows its missing values as ``—``: not a number, but a row
the column does not apply to (classification_report's averages have no class).
"""
from __future__ import annotations

import csv
import datetime
import io
import json
import math
import numbers
import os
import sys

from .imports import instance_of

INFINITY, NEG_INFINITY, NAN = "Infinity", "-Infinity", "NaN"
NOT_APPLICABLE = "—"  # a missing value in a table's column of text


def records(result, m=None) -> list[dict]:
    """A metric's result (float, dict or DataFrame) as a list of plain rows."""
    if instance_of(result, "pandas", "DataFrame"):
        return [{k: plain(v) for k, v in row.items()} for row in result.to_dict("records")]
    if isinstance(result, dict):
        return [{k: plain(v) for k, v in result.items()}]
    return [{m.name: plain(result)}]


def plain(value):
    """A Python value: numpy scalars to Python, every kind of missing value (NaN, None, pandas.NA,
    NaT) to None."""
    if isinstance(value, (list, tuple, dict)) or instance_of(value, "numpy", "ndarray"):
        return value
    if instance_of(value, "numpy", "datetime64"):  # from a pandas frame; .item() would give nanoseconds as an int
        value = sys.modules["pandas"].Timestamp(value)
    elif instance_of(value, "numpy", "timedelta64"):
        value = sys.modules["pandas"].Timedelta(value)
    if value is None or instance_of(value, "pandas", "NA", "NaT"):
        return None
    if instance_of(value, "numpy", "generic"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def jsonable(value):
    """`value` with only what strict JSON can hold: ±inf as "Infinity"/"-Infinity", NaN as None,
    dates as ISO 8601 text, anything else unknown as its text."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or instance_of(value, "numpy", "ndarray"):
        return [jsonable(v) for v in value]
    value = plain(value)
    if isinstance(value, float) and math.isinf(value):
        return INFINITY if value > 0 else NEG_INFINITY
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def text(value) -> str:
    """One cell of a table or CSV: NaN, Infinity and -Infinity spelled out."""
    value = plain(value)
    if value is None:
        return NAN
    if isinstance(value, float) and math.isinf(value):
        return INFINITY if value > 0 else NEG_INFINITY
    return str(value)


def emit(rows, fmt: str, document: dict, out=None, keys=(), columns=None) -> None:
    """`rows` (a list of dicts, or a DataFrame) as a table or CSV, or `document` as JSON; `keys`: the
    columns of ids and slices (by, query, class), whose integers a table writes without thousands
    separators (2024, not 2,024); `columns`: their order (default: as the rows give them)."""
    if fmt == "json":
        write(json.dumps(jsonable(document), ensure_ascii=False, indent=2, allow_nan=False), out)
        return
    if instance_of(rows, "pandas", "DataFrame"):
        columns, rows = list(rows.columns), records(rows)
    columns = columns or list(dict.fromkeys(c for row in rows for c in row))
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        # numbers as Python writes them: the shortest text that reads back exactly
        writer.writerows([text(row.get(c)) for c in columns] for row in rows)
        write(buffer.getvalue(), out, end="")
    else:
        write(table(columns, rows, keys), out)


class OutputError(Exception):
    """The output cannot be written (a full disk, a closed terminal)."""


def write(content: str, out=None, end: str = "\n") -> None:
    """Print and flush. When the reader has gone (``sqlmetrics ... | head``), the rest of the output
    goes nowhere and the command carries on: its exit code still says how it went."""
    out = out or sys.stdout
    try:
        out.write(content + end)
        out.flush()
    except BrokenPipeError:
        silence(out)
    except (OSError, ValueError) as e:  # ValueError: the stream is closed
        silence(out)  # what is still buffered cannot be written either: no second failure at exit
        raise OutputError(f"cannot write the output: {getattr(e, 'strerror', None) or e}") from None


def silence(out) -> None:
    """Send what is left for `out` to the null device, so that flushing it (at exit too) cannot fail."""
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # not a file: nothing is flushed at exit
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def table(columns: list[str], rows: list[dict], keys=()) -> str:
    """Plain text columns: numbers right-aligned (6 significant digits; counts with thousands
    separators, integers of the `keys` columns as they are), text left-aligned, missing as NaN in a
    column of numbers (or of nothing else) and as — in one of text."""
    def cell(v, key, number):
        v = plain(v)
        if isinstance(v, float) and math.isfinite(v):
            return f"{v:.6g}"
        if isinstance(v, int) and not isinstance(v, bool):
            return str(v) if key else f"{v:,}"
        return NOT_APPLICABLE if v is None and not number else text(v)
    is_key = [c in keys for c in columns]
    numeric = [_numeric([row.get(c) for row in rows]) for c in columns]
    # a column of missing values only is of numbers (an undefined metric): NaN
    number = [num or all(plain(row.get(c)) is None for row in rows) for c, num in zip(columns, numeric)]
    cells = [[cell(row.get(c), key, num) for c, key, num in zip(columns, is_key, number)] for row in rows]
    widths = [max([len(str(c))] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    def line(values):
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()
    return "\n".join([line([str(c) for c in columns])] + [line(r) for r in cells])


def _numeric(values: list) -> bool:
    """A column of numbers (missing values aside; booleans count, as in pandas)."""
    present = [plain(v) for v in values if plain(v) is not None]
    return bool(present) and all(isinstance(v, numbers.Number) for v in present)
