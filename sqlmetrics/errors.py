"""Exceptions. Every input problem is a ``ValueError`` subclass whose message names the culprit."""


class MetricError(ValueError):
    """Base class: something about the input or the parameters is wrong."""


class ParameterError(MetricError):
    """A parameter has the wrong type or range (``k < 1``, ``beta <= 0``, unknown choice...)."""


class ArgumentError(ParameterError, TypeError):
    """A required parameter is missing, or an unknown one was given (also a TypeError, as Python's own)."""


class SourceError(MetricError):
    """``data`` cannot be used: unsafe table reference, missing file or table, not one SELECT."""


class ColumnError(MetricError):
    """A column is missing, has the wrong type, or holds values the metric cannot accept."""


class MissingColumnError(ColumnError):
    """A column named by a parameter is not in the data."""


class UndefinedMetricError(MetricError):
    """The metric has no value on this data (e.g. AUC when every label is 1)."""


class EngineError(MetricError):
    """The database rejected the generated query; the engine's message is kept as the cause."""
