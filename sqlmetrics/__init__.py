"""sqlmetrics: ranking, recommendation and classification metrics as portable SQL.

Every metric is a Jinja-templated SELECT under ``sql/``, run on an in-process DuckDB by default
and transpiled with sqlglot to other engines. See ``sqlmetrics.METRICS`` for the catalogue.
"""
import importlib

from .functions import make_function
from .errors import (ArgumentError, ColumnError, EngineError, MetricError, MissingColumnError, ParameterError,
                     SourceError, UndefinedMetricError, UnknownMetricError)
from .registry import ALIASES, METRICS
from .dialects import DIALECTS

__version__ = "0.1.0"

for _name, _metric in METRICS.items():
    globals()[_name] = make_function(_metric)
for _alias, _name in ALIASES.items():
    globals()[_alias] = globals()[_name]
del _name, _metric, _alias

#: what loads on first use, with the SQL parser, the engine and pandas: `import sqlmetrics` stays quick
_LAZY = {"render": "api", "bootstrap": "resampling", "compare": "comparison", "evaluate": "evaluation",
         "paper_table": "systems", "group_disparity": "disparity", "compute": "api", "drift": "two_windows",
         "Query": "sources", "TrecRun": "sources", "TrecQrels": "sources"}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'sqlmetrics' has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["render", "compute", "bootstrap", "compare", "group_disparity", "paper_table", "evaluate", "drift", "Query", "TrecRun", "TrecQrels", "METRICS", "DIALECTS", "MetricError",
           "ParameterError", "ArgumentError",
           "SourceError", "ColumnError", "MissingColumnError", "UndefinedMetricError", "UnknownMetricError", "EngineError",
           "ALIASES", *METRICS, *ALIASES]
