"""Parameter declarations and their validation.

A :class:`Param` says what a metric argument is (a column of some role, a number in a range,
one of a few choices). Validation happens in Python before any SQL is rendered, so nothing the
user passes reaches a template except quoted identifiers, checked numbers and known keywords.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Literal, get_args

from .errors import ParameterError
from .imports import instance_of

REQUIRED = object()

ParamKind = Literal["column", "columns", "float", "floats", "int", "bool", "choice", "relation", "label_value",
                    "measures"]
#: what values a column must hold (checks.column_checks enforces each)
Role = Literal["label", "binary", "class", "score", "probability", "weight", "count", "numeric", "log1p",
               "relevance", "grade", "group", "key", "slice",
               "indicator",  # 0/1 like "binary", but pos_label never applies to it: a treatment, a survival event
               "duration",  # a time since the start of follow-up: a number >= 0 (survival)
               "measurement",  # a finite number, NULL where missing (drift counts and leaves it out)
               "category",  # a value of any type compared as text, NULL where missing (drift)
               ]
#: where a column must exist: the data, the judgments (the qrels if given, else the data), or both
Where = Literal["data", "judgments", "both"]


def require_word(owner: str, field: str, value, words) -> None:
    """Fail at import on a registry word outside its Literal (a typo such as role="lable" would
    otherwise drop the checks that role stands for, silently)."""
    allowed = get_args(words)
    if value not in allowed:
        raise TypeError(f"{owner}: {field}={value!r} is not one of {', '.join(map(repr, allowed))}")


class LabelText(str):
    """A pos_label as written on a command line, read as the type of the label column it is compared
    with ('2' is 2 for a column of numbers, 'true' True for a boolean one)."""


@dataclass(frozen=True)
class Param:
    name: str
    kind: ParamKind
    doc: str
    default: object = REQUIRED
    role: Role | None = None  # for columns: what values the column must hold
    choices: tuple = ()
    low: float | None = None  # for floats: allowed open/closed range
    low_open: bool = False
    high: float | None = None
    high_open: bool = False
    where: Where = "data"  # for columns
    #: for a relation: (column, role) pairs it must have ("{item}" stands for the item parameter's value)
    relation_columns: tuple[tuple[str, Role], ...] = ()
    #: for a relation: it must have the columns the data must have (a second run, compared with the first)
    like_data: bool = False
    #: a value other than the default that the engine and golden cases give it, so that it runs on every
    #: engine and in every dialect (a number parameter's; None: the tests give it none of their own)
    sample: object = None
    #: a required parameter that may be None (a value of its own: k=None, the whole list), said explicitly
    none_ok: bool = False
    #: for a column of the qrels only: the parameter whose column it names there (qrels_query: query)
    in_qrels_for: str | None = None

    def __post_init__(self):
        require_word(f"parameter {self.name!r}", "kind", self.kind, ParamKind)
        require_word(f"parameter {self.name!r}", "where", self.where, Where)
        roles = ([self.role] if self.kind in ("column", "columns") else []) + [r for _, r in self.relation_columns]
        for role in roles:
            require_word(f"parameter {self.name!r}", "role", role, Role)

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def in_template(self) -> bool:
        """An argument of the metric's macro (and so of dbt). The others the Python layer applies: the
        qrels' own column names (it renames them in the source) and pos_label (the target's literal)."""
        return not (self.in_qrels_for or self.kind == "label_value")

    def validate(self, value):
        """Return the normalised value, or raise ParameterError naming this parameter."""
        if value is None and (self.default is None or self.none_ok):
            return [] if self.kind == "columns" else None
        check = getattr(self, f"_check_{self.kind}")
        return check(value)

    def _check_column(self, value):
        if not isinstance(value, str) or not value:
            raise ParameterError(f"{self.name} must be a column name (a non-empty string); got {value!r}")
        if "\x00" in value:
            raise ParameterError(f"{self.name}={value!r}: a column name cannot contain a NUL character")
        if value.lstrip('"').lower().startswith("sm_"):  # engines may match names case-insensitively (or quoted)
            raise ParameterError(
                f"{self.name}={value!r}: names starting with 'sm_' are reserved for sqlmetrics' "
                "intermediate columns; rename or alias the column")
        return value

    def _check_columns(self, value):
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, (list, tuple)) or not (names or self.default == []):  # [] where it is the default
            raise ParameterError(f"{self.name} must be a column name or a list of column names; got {value!r}")
        out = [self._check_column(v) for v in names]
        if len(set(out)) != len(out):
            raise ParameterError(f"{self.name} lists a column twice: {out}")
        return out

    def _check_float(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ParameterError(f"{self.name} must be a number; got {value!r}")
        try:
            value = float(value)
        except OverflowError:  # an int beyond the largest float
            raise ParameterError(f"{self.name} must be a finite number; got an integer of {len(str(value))} "
                                 "digits, beyond the range of a float") from None
        if not math.isfinite(value):
            raise ParameterError(f"{self.name} must be a finite number; got {value}")
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            op = ">" if self.low_open else ">="
            raise ParameterError(f"{self.name} must be {op} {self.low:g}; got {value:g}")
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            op = "<" if self.high_open else "<="
            raise ParameterError(f"{self.name} must be {op} {self.high:g}; got {value:g}")
        return value

    def _check_floats(self, value):
        """A non-empty list of distinct numbers, each checked as a float parameter (a single number: a
        list of one)."""
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            value = [value]
        if instance_of(value, "numpy", "ndarray"):
            value = value.tolist()
        if not isinstance(value, (list, tuple)) or not value:
            raise ParameterError(f"{self.name} must be a non-empty list of numbers; got {value!r}")
        out = [self._check_float(v) for v in value]
        if len(set(out)) != len(out):
            raise ParameterError(f"{self.name} lists a value twice: {out}")
        return out

    def _check_int(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ParameterError(f"{self.name} must be a whole number; got {value!r}")
        value = int(value)
        if abs(value) >= 2 ** 63:  # SQL integers are 64-bit
            raise ParameterError(f"{self.name} must be below 2^63; got an integer of {len(str(value))} digits")
        if self.low is not None and value < self.low:
            raise ParameterError(f"{self.name} must be >= {self.low:g}; got {value}")
        if self.high is not None and value > self.high:
            raise ParameterError(f"{self.name} must be <= {self.high:,}; got {value:,}")
        return value

    def _check_bool(self, value):
        if not (isinstance(value, bool) or instance_of(value, "numpy", "bool_")):
            raise ParameterError(f"{self.name} must be True or False; got {value!r}")
        return bool(value)

    def _check_label_value(self, value):
        """A value a label column may hold: a string, a whole or finite number, or a boolean."""
        if instance_of(value, "numpy", "generic"):
            value = value.item()
        if isinstance(value, str):
            if "\x00" in value:
                raise ParameterError(f"{self.name}={value!r}: a label cannot contain a NUL character")
            return value  # a LabelText stays one
        if isinstance(value, bool) or (isinstance(value, numbers.Integral) and abs(value) < 2 ** 63):
            return value if isinstance(value, bool) else int(value)
        if isinstance(value, numbers.Real) and math.isfinite(value):
            return float(value)
        raise ParameterError(f"{self.name} must be a value of the label column (a string, a finite number or a "
                             f"boolean); got {value!r}")

    def _check_relation(self, value):
        return value  # resolved (and checked) as a data source

    def _check_measures(self, value):
        return value  # read into Measures by registry.read_measures

    def _check_choice(self, value):
        if value is None and None in self.choices:  # a choice of its own (average=None: one row per class)
            return None
        if isinstance(value, numbers.Real) and not isinstance(value, bool):  # a number among the choices
            if math.isnan(value) and "nan" in self.choices:  # NaN, as numpy's nan (zero_division=np.nan)
                return "nan"
            for choice in self.choices:
                if isinstance(choice, (int, float)) and value == choice:
                    return choice
        # compared as strings: `in` would ask values such as pandas.NA for a truth value they refuse
        if not isinstance(value, str) or value not in self.choices:
            options = ", ".join(repr(c) for c in self.choices)
            raise ParameterError(f"{self.name} must be one of {options}; got {value!r}")
        return value


# Parameters shared by many metrics, declared once.
LABEL = Param("label", "column", "0/1 (or boolean) column; 1 = positive (labels of two other values: pos_label).",
              role="label")
POS_LABEL = Param("pos_label", "label_value", "the label value of the positive class (labels such as 1/2, -1/1, "
                  "'yes'/'no'), as scikit-learn's pos_label: a label equal to it is positive, any other negative; the "
                  "label column (and a prediction column) may then hold two values of any type, and pos_label must "
                  "have the column's type. None: labels are 0/1 (or boolean).", default=None)
SCORE = Param("score", "column", "numeric score, higher = more likely positive; NaN is an error, +-inf allowed.",
              role="score")
PROBABILITY = Param("score", "column", "predicted probability of the positive class, in [0, 1].",
                    role="probability")
WEIGHT = Param("weight", "column", "optional non-negative sample weight column.", default=None, role="weight")
BY = Param("by", "columns", "optional column(s) to slice by; returns one row per slice (NULL is a slice).",
           default=None, role="slice")
GROUP = Param("group", "column", "column identifying the group (e.g. user id) within which AUC is computed.",
              role="group")
THRESHOLD = Param("threshold", "float", "a row is predicted positive iff score >= threshold.", default=0.5, sample=0.3)
OPT_SCORE = Param("score", "column", "numeric score, thresholded at `threshold` (or give `prediction`).",
                  default=None, role="score")
BINARY_PREDICTION = Param("prediction", "column", "0/1 (or boolean) predicted class, instead of score+threshold.",
                          default=None, role="binary")
BETA = Param("beta", "float", "weight of recall relative to precision (F_beta); beta > 0.", default=1.0,
             low=0.0, low_open=True, sample=2.0)
# Multi-class: classes of any type (integers, text), compared exactly.
CLASS_LABEL = Param("label", "column", "the true class (integers or text).", role="class")
CLASS_PREDICTION = Param("prediction", "column", "the predicted class (same type as label).", role="class")
AVERAGE = Param(
    "average", "choice", "'binary': label and prediction are 0/1 (or a score with threshold); 'macro' (mean over "
    "the classes), 'micro' (from the counts pooled over the classes) or 'weighted' (mean weighted by each "
    "class's support): label and prediction are classes of any type; None: one row per class (class, the "
    "metric, support).", default="binary", choices=("binary", "macro", "micro", "weighted", None))
ZERO_DIVISION = Param(
    "zero_division", "choice", "the value of a ratio that is 0/0 (a class never predicted, say): None "
    "(undefined: NaN in a slice or a class's row, an error for a single value; an average over classes is "
    "undefined when a class it weighs is), 0 or 1 (that value, as sklearn's zero_division), or 'nan' "
    "(sklearn's zero_division=np.nan: the class is left out of the average; float('nan') is taken too).",
    default=None, choices=(None, 0, 1, "nan"))
# Multi-class from scores: a long table, one row per example and class.
EXAMPLE = Param("example", "column", "example id column: an example's rows hold its scores, one row per class.",
                default="example", role="key")
CLASS_COLUMN = Param("class_", "column", "class column (integers or text); the classes are the table's distinct "
                     "values, and every example has a row for each.", default="class", role="class")
CLASS_SCORE = Param("score", "column", "the example's score for the row's class; NaN is an error, +-inf allowed.",
                    default="score", role="score")
CLASS_PROBABILITY = Param("score", "column", "the example's probability of the row's class, in [0, 1]; the "
                          "probabilities of an example sum to 1 (within 1e-6).", default="score", role="probability")
TRUE_CLASS = Param("label", "column", "the example's true class, equal on all its rows (or give labels).",
                   default=None, role="class")
TRUE_CLASSES = Param("labels", "relation", "the true classes instead of label: a table with the example column and "
                     "a column named label, one row per example.", default=None,
                     relation_columns=(("{example}", "key"), ("label", "class")))
EXAMPLE_WEIGHT = Param("weight", "column", "optional non-negative weight of the example, equal on all its rows.",
                       default=None, role="weight")
TARGET = Param("target", "column", "true numeric value.", role="numeric")
PREDICTION = Param("prediction", "column", "predicted numeric value.", role="numeric")
# the columns of the logarithmic errors: log(1 + value) is taken, so values must be above -1
LOG_TARGET = Param("target", "column", "true numeric value, above -1.", role="log1p")
LOG_PREDICTION = Param("prediction", "column", "predicted numeric value, above -1.", role="log1p")
BASE_SCORE = Param("base_score", "column", "score column of the base model to compare against.", role="score")
WEIGHTING = Param("weighting", "choice",
                  "how groups are averaged: 'impressions' (rows or total weight), 'clicks' (positives), "
                  "'uniform', or 'pairs' (positive-negative pairs: pooled numerators over denominators).",
                  default="impressions", choices=("impressions", "clicks", "uniform", "pairs"))

# Ranking (TREC style): a run (query, item, score) and optional qrels (query, item, relevance).
QRELS = Param("qrels", "relation", "judgments (query, item, relevance): a table name, sqlmetrics.Query, file "
              "or frame; omit it when the run carries the relevance column.", default=None)
QUERY = Param("query", "column", "query (or user) id column, in the run and the qrels.", default="query",
              role="key", where="both")
ITEM = Param("item", "column", "item (document) id column, in the run and the qrels.", default="item",
             role="key", where="both")
RUN_SCORE = Param("score", "column", "the run's score column; higher ranks first.", default="score",
                  role="score")
QRELS_COLUMNS = tuple(
    Param(f"qrels_{name}", "column", f"the qrels' {name} column, where its name is not that of the run's "
          f"(None: the same name).", default=None, role=role, in_qrels_for=name)
    for name, role in (("query", "key"), ("item", "key"), ("relevance", "grade")))
RELEVANCE = Param("relevance", "column", "graded relevance column of the qrels, or of the run when qrels is "
                  "omitted; a negative grade is trec_eval's \"in the pool, unjudged\": gain 0, not relevant, "
                  "and not judged for the measures that count judged items (bpref, judged_at_k, unjudged_at_k, "
                  "rbp's residual); infap alone tells it (in the pool) from an item the judgments lack.",
                  default="relevance", role="grade", where="judgments")
RANKING_BY = Param("by", "columns", "optional column(s) to slice by: query attributes such as country (not NULL), "
                   "each a column of the run, of the qrels or of both (joined on then). A column of one side gives "
                   "each query of the other its slice, so it must have one value per query (else an error); one of "
                   "the run only leaves out the judged queries the run lacks (no slice: not in n_missing).",
                   default=None, where="both", role="key")
K = Param("k", "int", "cut-off: only the top k of each ranked list count (None: the whole list).",
          default=None, low=1, sample=5)
K_REQUIRED = Param("k", "int", "cut-off: only the top k of each ranked list count; None: the whole retrieved "
                   "list (as trec_eval's set_ measures). Required: pass k=None for the whole list.", low=1, none_ok=True, sample=5)
TIES = Param("ties", "choice", "order of equal scores: 'item_desc' (item id descending, byte order: exactly "
             "trec_eval), 'item_asc', or 'average' (expected value over all orders of each tie group, "
             "as sklearn).", default="item_desc", choices=("item_desc", "item_asc", "average"))
TIES_ORDER = Param("ties", "choice", "order of equal scores: 'item_desc' (item id descending, byte order: "
                   "exactly trec_eval) or 'item_asc'.", default="item_desc", choices=("item_desc", "item_asc"))
GAIN = Param("gain", "choice", "'exponential' (2^rel - 1) or 'linear' (rel, as trec_eval and sklearn).",
             default="exponential", choices=("exponential", "linear"))
RELEVANCE_THRESHOLD = Param("relevance_threshold", "float", "an item is relevant iff relevance >= this.",
                            default=1.0, low=0.0, low_open=True, sample=2.0)
MISSING = Param("missing", "choice", "a judged query absent from the run scores 0 ('zero', as trec_eval -c) "
                "or is left out ('skip', as pytrec_eval).", default="zero", choices=("zero", "skip"))
RECALL_LEVELS = Param(
    "recall_levels", "floats", "the recall levels (numbers in [0, 1]) at which to interpolate the precision.",
    default=tuple(i / 10 for i in range(11)), low=0.0, high=1.0, sample=(0.25, 0.5))
EMPTY = Param("empty", "choice", "a query without relevant items scores 0 and counts ('zero') or is left "
              "out ('skip'); for the gain-based dcg, ndcg and err a query is without relevant items when no "
              "judgment has a positive grade (its ideal gain is 0), whatever relevance_threshold, as "
              "trec_eval's ndcg.", default="zero", choices=("zero", "skip"))

# Calibration bins (calibration_curve, ece), as sklearn.calibration.calibration_curve.
MAX_POINTS = Param(
    "max_points", "int", "at most this many points (>= 2): the first point, the last, and those where the "
    "rows at or above the threshold first reach evenly spaced shares of the rows (evenly spaced in rank; "
    "exact points, only fewer). None: one point per distinct score.", default=None, low=2, sample=9)
CONFIDENCE = Param("confidence", "float", "coverage of the two-sided interval, from 0.5 to 0.999999 (where its "
                   "normal and Student's t quantiles are within 1e-8 of the exact ones).", default=0.95, low=0.5,
                   high=0.999999, sample=0.9)
N_BOOT = Param("n_boot", "int", "number of bootstrap replicates, 2 to 100,000 (each costs about a pass over the "
               "rows, or over the queries or groups).", default=1000, low=2, high=100_000)
SEED = Param("seed", "int", "the seed of the replicate weights: the same seed, the same interval.", default=0, low=0)
CLUSTER = Param("cluster", "column", "resample the rows of each value of this column together (the user, say, "
                "so that correlated impressions stay together) instead of each row on its own.", default=None,
                role="group")
TEST = Param("test", "choice", "the paired test: 'paired_t' (Student's t on the paired differences), "
             "'wilcoxon' (signed ranks) or 'randomization' (Fisher's sign flips).", default="paired_t",
             choices=("paired_t", "wilcoxon", "randomization"))
N_RESAMPLES = Param("n_resamples", "int", "sign-flip replicates of test='randomization', 1 to 1,000,000 (each "
                    "reads every unit).", default=10000, low=1, high=1_000_000)
#: compare's tests of a metric of one value over rows (`other` a second column of the rows)
AUC_TEST = Param("test", "choice", "'delong' (DeLong's paired test of the two AUCs) or 'bootstrap' (the paired "
                 "bootstrap; the only test of auc with bins or max_fpr).", default="delong",
                 choices=("delong", "bootstrap"))
BOOTSTRAP_TEST = Param("test", "choice", "'bootstrap': the paired bootstrap (both columns on the same replicate "
                       "weights; a percentile p-value).", default="bootstrap", choices=("bootstrap",))
N_PAIRED_BOOT = Param("n_resamples", "int", "replicates of the paired bootstrap (test='bootstrap'), 2 to 100,000 (each "
                      "costs about two passes over the rows).", default=1000, low=2, high=100_000)
N_BINS = Param("n_bins", "int", "number of bins of predicted probability (>= 1).", default=5, low=1, sample=7)
STRATEGY = Param("strategy", "choice", "'uniform' (equal-width bins on [0, 1]) or 'quantile' (bins between "
                 "the quantiles of the probabilities: about equally many rows each).", default="uniform",
                 choices=("uniform", "quantile"))
