"""Parameter declarations and their validation.

A :class:`Param` says what a metric argument is (a column of some role, a number in a range,
one of a few choices). Validation happens in Python before any SQL is rendered, so nothing the
user passes reaches a template except quoted identifiers, checked numbers and known keywords.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from .errors import ParameterError

REQUIRED = object()

#: column roles and what the data check enforces for each (see checks.py)
COLUMN_ROLES = ("label", "score", "probability", "weight", "group", "binary", "numeric", "key")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "column" | "columns" | "float" | "choice"
    doc: str
    default: object = REQUIRED
    role: str | None = None  # for columns: what values the column must hold
    choices: tuple = ()
    low: float | None = None  # for floats: allowed open/closed range
    low_open: bool = False
    high: float | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def validate(self, value):
        """Return the normalised value, or raise ParameterError naming this parameter."""
        if value is None and self.default is None:
            return [] if self.kind == "columns" else None
        check = getattr(self, f"_check_{self.kind}")
        return check(value)

    def _check_column(self, value):
        if not isinstance(value, str) or not value:
            raise ParameterError(f"{self.name} must be a column name (a non-empty string); got {value!r}")
        if value.lower().startswith("sm_"):  # engines may match names case-insensitively
            raise ParameterError(
                f"{self.name}={value!r}: names starting with 'sm_' are reserved for sqlmetrics' "
                "intermediate columns; rename or alias the column")
        return value

    def _check_columns(self, value):
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, (list, tuple)) or not names:
            raise ParameterError(f"{self.name} must be a column name or a list of column names; got {value!r}")
        out = [self._check_column(v) for v in names]
        if len(set(out)) != len(out):
            raise ParameterError(f"{self.name} lists a column twice: {out}")
        return out

    def _check_float(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ParameterError(f"{self.name} must be a number; got {value!r}")
        value = float(value)
        if not math.isfinite(value):
            raise ParameterError(f"{self.name} must be a finite number; got {value}")
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            op = ">" if self.low_open else ">="
            raise ParameterError(f"{self.name} must be {op} {self.low:g}; got {value:g}")
        if self.high is not None and value > self.high:
            raise ParameterError(f"{self.name} must be <= {self.high:g}; got {value:g}")
        return value

    def _check_choice(self, value):
        if value not in self.choices:
            options = ", ".join(repr(c) for c in self.choices)
            raise ParameterError(f"{self.name} must be one of {options}; got {value!r}")
        return value


# Parameters shared by many metrics, declared once.
LABEL = Param("label", "column", "0/1 (or boolean) column; 1 = positive.", role="label")
SCORE = Param("score", "column", "numeric score, higher = more likely positive; NaN is an error, +-inf allowed.",
              role="score")
PROBABILITY = Param("score", "column", "predicted probability of the positive class, in [0, 1].",
                    role="probability")
WEIGHT = Param("weight", "column", "optional non-negative sample weight column.", default=None, role="weight")
BY = Param("by", "columns", "optional column(s) to slice by; returns one row per slice.", default=None)
GROUP = Param("group", "column", "column identifying the group (e.g. user id) within which AUC is computed.",
              role="group")
THRESHOLD = Param("threshold", "float", "a row is predicted positive iff score >= threshold.", default=0.5)
OPT_SCORE = Param("score", "column", "numeric score, thresholded at `threshold` (or give `prediction`).",
                  default=None, role="score")
BINARY_PREDICTION = Param("prediction", "column", "0/1 (or boolean) predicted class, instead of score+threshold.",
                          default=None, role="binary")
BETA = Param("beta", "float", "weight of recall relative to precision (F_beta); beta > 0.", default=1.0,
             low=0.0, low_open=True)
TARGET = Param("target", "column", "true numeric value.", role="numeric")
PREDICTION = Param("prediction", "column", "predicted numeric value.", role="numeric")
BASE_SCORE = Param("base_score", "column", "score column of the base model to compare against.", role="score")
WEIGHTING = Param("weighting", "choice",
                  "how groups are averaged: 'impressions' (rows or total weight), 'clicks' (positives), "
                  "'uniform', or 'pairs' (positive-negative pairs: pooled numerators over denominators).",
                  default="impressions", choices=("impressions", "clicks", "uniform", "pairs"))
