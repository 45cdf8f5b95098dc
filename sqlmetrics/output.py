"""Printing results for the command line: a table, JSON or CSV on stdout.

Numbers that are not finite are written so that every reader takes them without error and nothing
is lost: +inf and -inf as ``Infinity`` and ``-Infinity`` (in JSON the strings "Infinity" and
"-Infinity", which JavaScript's ``Number()``, Python's ``float()`` and jq's ``tonumber`` read back
as infinities; JSON has no such number), NaN (an undefined value, a missing count) as ``null`` in
JSON and ``NaN`` in a table or CSV. The JSON is strict (RFC 8259): no bare NaN or Infinity.
"""
from __future__ import annotations

import datetime
import json
import math
import os
import sys

import numpy as np
import pandas as pd

INFINITY, NEG_INFINITY, NAN = "Infinity", "-Infinity", "NaN"


def records(result, m) -> list[dict]:
    """A metric's result (float, dict or DataFrame) as a list of plain rows."""
    if isinstance(result, pd.DataFrame):
        return [{k: plain(v) for k, v in row.items()} for row in result.to_dict("records")]
    if isinstance(result, dict):
        return [{k: plain(v) for k, v in result.items()}]
    return [{m.name: plain(result)}]


def plain(value):
    """A Python value: numpy scalars to Python, every kind of missing value (NaN, None, pandas.NA,
    NaT) to None."""
    if isinstance(value, (np.ndarray, list, tuple, dict)):
        return value
    if isinstance(value, np.datetime64):  # .item() would give nanoseconds as an int
        value = pd.Timestamp(value)
    elif isinstance(value, np.timedelta64):
        value = pd.Timedelta(value)
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def jsonable(value):
    """`value` with only what strict JSON can hold: ±inf as "Infinity"/"-Infinity", NaN as None,
    dates as ISO 8601 text, anything else unknown as its text."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
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


def emit(frame: pd.DataFrame, fmt: str, document: dict, out=None, keys=()) -> None:
    """`frame` as a table or CSV, or `document` as JSON; `keys`: the columns of ids and slices (by,
    query, class), whose integers a table writes without thousands separators (2024, not 2,024)."""
    if fmt == "json":
        write(json.dumps(jsonable(document), ensure_ascii=False, indent=2, allow_nan=False), out)
    elif fmt == "csv":
        cells = frame.astype(object).apply(lambda column: column.map(_csv_cell))
        write(cells.to_csv(index=False), out, end="")
    else:
        write(table(frame, keys), out)


def _csv_cell(value):
    value = plain(value)
    if value is None or (isinstance(value, float) and math.isinf(value)):
        return text(value)
    return value  # numbers stay numbers: pandas writes them exactly (shortest round-trip text)


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


def table(frame: pd.DataFrame, keys=()) -> str:
    """Plain text columns: numbers right-aligned (6 significant digits; counts with thousands
    separators, integers of the `keys` columns as they are), text left-aligned."""
    def cell(v, key):
        v = plain(v)
        if isinstance(v, float) and math.isfinite(v):
            return f"{v:.6g}"
        if isinstance(v, int) and not isinstance(v, bool):
            return str(v) if key else f"{v:,}"
        return text(v)
    is_key = [c in keys for c in frame.columns]
    cells = [[cell(v, key) for v, key in zip(row, is_key)] for row in frame.itertuples(index=False)]
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    widths = [max([len(str(c))] + [len(r[i]) for r in cells]) for i, c in enumerate(frame.columns)]
    def line(values):
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()
    return "\n".join([line([str(c) for c in frame.columns])] + [line(r) for r in cells])
