"""sqlmetrics: ranking, recommendation and classification metrics as portable SQL.

Every metric is a Jinja-templated SELECT under ``sql/``, run on an in-process DuckDB by default
and transpiled with sqlglot to other engines. See ``sqlmetrics.METRICS`` for the catalogue.
"""
from .api import make_function, render
from .resampling import bootstrap
from .comparison import compare
from .evaluation import evaluate
from .errors import (ArgumentError, ColumnError, EngineError, MetricError, MissingColumnError, ParameterError,
                     SourceError, UndefinedMetricError, UnknownMetricError)
from .registry import ALIASES, METRICS
from .sources import Query, TrecQrels, TrecRun
from .dialects import DIALECTS

__version__ = "0.1.0"

for _name, _metric in METRICS.items():
    globals()[_name] = make_function(_metric)
for _alias, _name in ALIASES.items():
    globals()[_alias] = globals()[_name]
del _name, _metric, _alias

__all__ = ["render", "bootstrap", "compare", "evaluate", "Query", "TrecRun", "TrecQrels", "METRICS", "DIALECTS", "MetricError",
           "ParameterError", "ArgumentError",
           "SourceError", "ColumnError", "MissingColumnError", "UndefinedMetricError", "UnknownMetricError", "EngineError",
           "ALIASES", *METRICS, *ALIASES]
