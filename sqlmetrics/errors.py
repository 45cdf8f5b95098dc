"""Exceptions. Every input problem is a ``ValueError`` subclass whose message names the culprit."""


class MetricError(ValueError):
    """Base class: something about the input or the parameters is wrong.

    ``suggestion`` is what to do about it, when one thing clearly is (a corrected name, say); the
    message already says it in the terms of the Python call, and an interface with other terms (the
    command line's flags) can build its own message from this field instead of editing the text."""

    def __init__(self, message: str = "", *, suggestion: str | None = None):
        super().__init__(message)
        self.suggestion = suggestion


class ParameterError(MetricError):
    """A parameter has the wrong type or range (``k < 1``, ``beta <= 0``, unknown choice...)."""


class UnknownMetricError(ParameterError):
    """No metric has this name; ``suggestion`` is the closest known name (or None)."""

    def __init__(self, name: str, suggestion: str | None, known: tuple[str, ...]):
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        super().__init__(f"unknown metric {name!r}{hint} (known: {', '.join(known)})", suggestion=suggestion)
        self.name = name
        self.known = known


class ArgumentError(ParameterError, TypeError):
    """A required parameter is missing, or an unknown one was given (also a TypeError, as Python's own)."""


class SourceError(MetricError):
    """``data`` cannot be used: unsafe table reference, missing file or table, not one SELECT."""


class ColumnError(MetricError):
    """A column is missing, has the wrong type, or holds values the metric cannot accept."""


class MissingColumnError(ColumnError):
    """A column named by a parameter is not in the data."""


class NotBinaryError(ColumnError):
    """A column a metric reads as 0/1 holds other values (or is of another type): the call takes them
    as classes where the metric can (accuracy), or says what to pass instead (labels.not_binary).
    ``param`` and ``column`` name it, ``described`` as the message does, ``slot`` is the relation it is
    of ("data", or a relation parameter such as train), ``type_name`` the engine's type."""

    def __init__(self, message: str, param: str, column: str, type_name: str, described: str, slot: str):
        super().__init__(message)
        self.param, self.column, self.type_name, self.described, self.slot = param, column, type_name, described, slot


class UndefinedMetricError(MetricError):
    """The metric has no value on this data (e.g. AUC when every label is 1)."""


class EngineError(MetricError):
    """The database rejected the generated query; the engine's message is kept as the cause."""
