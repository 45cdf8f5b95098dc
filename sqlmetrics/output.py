"""Printing results for the command line: a table, JSON or CSV on stdout."""
from __future__ import annotations

import json
import math
import sys

import pandas as pd


def records(result, m) -> list[dict]:
    """A metric's result (float, dict or DataFrame) as a list of plain rows."""
    if isinstance(result, pd.DataFrame):
        return [{k: plain(v) for k, v in row.items()} for row in result.to_dict("records")]
    if isinstance(result, dict):
        return [{k: plain(v) for k, v in result.items()}]
    return [{m.name: plain(result)}]


def plain(value):
    """JSON-ready: numpy scalars to Python, NaN to None."""
    value = getattr(value, "item", lambda: value)()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def emit(frame: pd.DataFrame, fmt: str, document: dict, out=None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        print(json.dumps(document, default=plain, ensure_ascii=False, indent=2, allow_nan=False), file=out)
    elif fmt == "csv":
        frame.to_csv(out, index=False)
    else:
        print(table(frame), file=out)


def table(frame: pd.DataFrame) -> str:
    """Plain text columns: numbers right-aligned (6 significant digits), text left-aligned."""
    def cell(v):
        v = plain(v)
        if v is None:
            return "NaN"
        if isinstance(v, float):
            return f"{v:.6g}"
        return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)
    cells = [[cell(v) for v in row] for row in frame.itertuples(index=False)]
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    widths = [max([len(str(c))] + [len(r[i]) for r in cells]) for i, c in enumerate(frame.columns)]
    def line(values):
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()
    return "\n".join([line([str(c) for c in frame.columns])] + [line(r) for r in cells])
