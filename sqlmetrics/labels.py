"""pos_label (scikit-learn's): labels of any two values, the one equal to pos_label positive.

The templates compare a label with pos_label as a SQL literal (templates.positive_value answers
is_positive's question, as column_type answers the column's type); here the value is checked
against the label column's type, read from the command line's text, and the column is checked
to hold two values at most. A label that is not 0/1 without pos_label is read as classes where
the metric takes them (Metric.micro_unless_binary), or refused saying what to pass (not_binary).
"""
from __future__ import annotations

from sqlglot import exp

from .checks import quote
from .errors import ColumnError, NotBinaryError, ParameterError
from .params import LabelText
from .registry import Metric


def positive_literal(value) -> str | None:
    """pos_label as a SQL literal of DuckDB's syntax (the templates' own), or None. Text typed on a
    command line is, for render (which asks no engine), a boolean or a number when it reads as one."""
    if value is None:
        return None
    if isinstance(value, LabelText):
        value = _read_text_label(value)
    if isinstance(value, bool):
        return exp.Boolean(this=value).sql("duckdb")
    if isinstance(value, str):
        return exp.Literal.string(value).sql("duckdb")
    return exp.Literal.number(repr(value)).sql("duckdb")


def _read_text_label(text: str):
    """Typed text as a value: a boolean (DuckDB's spellings: its CSV reader makes yes/no columns
    boolean), a whole number, a number, or the text."""
    if text.lower() in ("true", "t", "yes", "y", "false", "f", "no", "n"):
        return text.lower() in ("true", "t", "yes", "y")
    for number in (int, float):
        try:
            return number(text)
        except ValueError:
            pass
    return str(text)


def pos_label(values: dict, placement: dict, kinds: dict[str, str], types: dict[str, str]):
    """pos_label, checked against the type of the label (and prediction) columns it is compared with: a
    string needs a text column, a number a numeric one, a boolean a boolean one; text from the command
    line (LabelText) is read as the column's type. (Where values have no fixed type, SQLite, pos_label
    is compared as it is: a label of another type is not equal to it.)"""
    given = value = values.get("pos_label")
    if value is None:
        return None
    for param, col, _ in placement["data"]:
        if param not in ("label", "prediction"):
            continue
        wanted = "boolean" if kinds[col] == "boolean" else "number" if kinds[col] in ("numeric", "float") else "text"
        if isinstance(given, LabelText):
            value = str(given) if wanted == "text" else _read_text_label(given)
        kind = "boolean" if isinstance(value, bool) else "text" if isinstance(value, str) else "number"
        if kind != wanted:
            example = {"boolean": "True", "number": "1", "text": "'yes'"}[wanted]
            raise ParameterError(f"pos_label={given!r} is {'not ' + _a(wanted) if isinstance(given, LabelText) else _a(kind)}"
                              f"; column {col!r} ({param}) holds {'text' if wanted == 'text' else wanted + 's'} "
                              f"({types[col]}): give one of its values, e.g. pos_label={example}")
    return value


def _a(kind: str) -> str:
    return "text" if kind == "text" else f"a {kind}"


def require_two_values(m: Metric, values: dict, pos_label, from_sql: str, rows) -> None:
    """With pos_label, a label (or prediction) column holds at most two values, and pos_label is one of
    the values the columns hold (as scikit-learn): a third value is almost surely a mistake (a
    multi-class column; roc_auc_score refuses one too), and a pos_label no value equals (of another
    type: '1' is not 1) would make every label negative."""
    present, named = [], []
    for param in m.params:
        col = values.get(param.name) if param.role in ("label", "binary") else None
        if col is None:
            continue
        found = [v for (v,) in rows(f"SELECT DISTINCT {quote(col)} FROM {from_sql} WHERE {quote(col)} IS NOT NULL LIMIT 3")]
        shown = ", ".join(repr(v) for v in sorted(found, key=repr))
        if len(found) > 2:
            raise ColumnError(f"column {col!r} ({param.name}) has more than two values (e.g. {shown}): pos_label makes "
                              "one positive and every other negative, for two classes; a multi-class column takes "
                              "average='macro' (precision, recall, f1) or the multi-class metrics")
        present += found
        named.append(f"column {col!r} ({param.name}) holds {shown}")
    if present and not any(_same(v, pos_label) for v in present):
        raise ParameterError(f"pos_label={pos_label!r} is none of the labels: {'; '.join(named)}; give one of them "
                             "(of the column's type)")


def _same(value, pos_label) -> bool:
    """A label equal to pos_label as a value of its type: the text '1' is not the number 1."""
    return isinstance(value, str) == isinstance(pos_label, str) and value == pos_label


def micro_when_not_binary(m: Metric, values: dict) -> dict | None:
    """The call's parameters as average='micro', where a label or prediction that is not 0/1 makes the
    call one over classes (Metric.micro_unless_binary: accuracy from a prediction column, without
    pos_label, as sklearn's accuracy_score takes classes of any type); None where it does not."""
    if (m.micro_unless_binary and values["average"] == "binary" and values.get("prediction") is not None
            and values.get("pos_label") is None):
        return values | {"average": "micro"}
    return None


#: the averages over classes, as the Python call writes them (the command line: --average macro, ...)
_AVERAGES = "average='macro', average='micro', average='weighted' or average=None"


def values_query(column: str, fractions: bool, from_sql: str) -> str:
    """The first three values of `column`; where it may hold `fractions`, a fraction first (are_classes
    then sees one if there is one)."""
    q = quote(column)
    first = f"{q} = FLOOR({q}), " if fractions else ""
    return f"SELECT {q} FROM {from_sql} WHERE {q} IS NOT NULL GROUP BY {q} ORDER BY {first}{q} LIMIT 3"


def are_classes(found: list) -> bool:
    """Whether values (values_query's) are classes: text or whole numbers, not a fraction (a
    probability given as a label or prediction, where a score with a threshold was meant)."""
    return all(isinstance(v, str) or _whole(v) for v in found)


def _whole(value) -> bool:
    try:
        return float(value).is_integer()
    except (TypeError, ValueError, OverflowError):  # bytes, or a value no number
        return False


def not_binary(m: Metric, values: dict, error: NotBinaryError, found: list) -> ColumnError:
    """`error` (a column that is not 0/1) with what to pass instead, from `found` (values_query's): two
    values (yes/no, '0'/'1', 1/2) of a label or prediction are a positive and a negative label,
    pos_label says which; more are classes, which a metric with `average` takes (as scikit-learn's
    precision_score asks for another average on multi-class labels). Two values of an indicator (a
    treatment, an event), which pos_label does not apply to, are mapped to 0/1 by the user. Values
    that are no classes (a fraction), a single value, and classes for a metric without `average` keep
    the sentence of `error`."""
    if len(found) < 2 or not are_classes(found):  # one value not 0/1 (2, 'yes'): a mistake, not a choice
        return ColumnError(str(error))
    found = sorted((v if isinstance(v, str) else int(float(v)) for v in found), key=lambda v: (isinstance(v, str), v))
    shown = ", ".join(repr(v) for v in found)
    column = f"{error.param} must be 0/1 (or boolean); {error.described}"
    if len(found) == 2 and m.param(error.param).role == "indicator":
        return ColumnError(f"{column} holds {shown} ({error.type_name}): map its values to 0/1 first, in a "
                           "sqlmetrics.Query('SELECT ...')")
    if len(found) == 2:
        return ColumnError(f"{column} holds {shown} ({error.type_name}): say which label is positive: "
                           + " or ".join(f"pos_label={v!r}" for v in found))
    if not m.averaged:
        return ColumnError(str(error))
    instead = "the predicted class as prediction= instead of score="
    if m.micro_unless_binary:  # it takes classes from a prediction column already: a score led here
        advice = f"for classes, pass {instead}"
    else:
        advice = f"for classes pass {_AVERAGES}" + (f", with {instead}" if values.get("score") is not None else "")
    return ColumnError(f"{column} holds more than two values, e.g. {shown} ({error.type_name}): {advice}")


def not_classes(param: str, column: str, fraction) -> ColumnError:
    """A label or prediction column holding a fraction, where 0/1 or classes were wanted (accuracy)."""
    hint = ": a score is given as score= with a threshold" if param == "prediction" else ""
    return ColumnError(f"{param} must be 0/1 (or boolean), or classes (text, whole numbers); column {column!r} "
                       f"({param}) holds fractions, e.g. {fraction!r}{hint}")
