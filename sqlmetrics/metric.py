"""What a metric is: one declarative entry of the catalogue (the family modules hold the entries,
registry.py assembles them). The entry drives the public function ``sm.<name>``, ``sm.render``, the
docstrings, the command line and the registry-wide tests."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

from .params import BOOTSTRAP_TEST, Param, require_word
from .plans import ParallelWhenDistributed

#: what a metric returns: "scalar" a float, "record" a dict, "curve" a DataFrame
Kind = Literal["scalar", "record", "curve"]
#: the plots the command line draws (sqlmetrics.plots), each of one curve metric
Plot = Literal["roc", "pr", "calibration"]
#: which way a metric's value is better: a loss or an error is better lower; a ratio that is best at
#: 1 (calibration) neither way, so no difference of two says which is better
Better = Literal["higher", "lower", "neither"]
#: what bootstrap resamples and compare pairs: rows, a ranking metric's queries, gauc's groups, the
#: examples of a long table of class scores (all the rows of one together)
Unit = Literal["row", "query", "group", "example"]
#: the part of the catalogue a metric is listed in (the README's tables, the reference docs)
Section = Literal["binary", "statistics", "multiclass", "regression", "ranking", "beyond_accuracy", "fairness",
                  "survival", "uplift", "drift"]


@dataclass(frozen=True)
class Metric:
    name: str
    template: str  # file under sql/ defining a macro called `name`
    kind: Kind
    params: tuple[Param, ...]
    outputs: tuple[str, ...]  # result columns, after the `by` columns
    summary: str
    formula: str
    reference: str
    example: str  # doctest, run by the test suite
    #: the definition as LaTeX (MathJax's TeX), rendered on the metric's page above `formula`, which says
    #: the same in plain text with every convention (clipping, ties, 0/0)
    math: str = ""
    undefined: str = ""  # why the value can be missing, shown when a scalar/curve is undefined
    defined_by: tuple[str, ...] = ()  # a record's (or a curve's) columns whose NULL means it is undefined
    across_slices: tuple[str, ...] = ()  # columns only a result with `by` has, computed across its slices
    one_of: tuple[str, ...] = ()  # exactly one of these parameters must be given
    #: (a, b, v, why): parameter `a` does not apply when `b` is `v` (`why`: what b=v means instead); `a`
    #: given another value than its default then is an error, never ignored
    inapplicable: tuple[tuple[str, str, object, str], ...] = ()
    #: how the template's `plan` argument is chosen (a parallel plan on distributed engines, and
    #: for the AUC family from the data too), or None: one plan
    plan: ParallelWhenDistributed | None = None
    per_query: bool = False  # ranking: `per_query=True` returns the value of every query
    #: ranking: what its value is when not a mean of per-query values (gm_map: their geometric mean),
    #: said when bootstrap or compare refuse it (they recombine the per-query parts of a mean); "" a mean
    not_a_mean: str = ""
    #: (parameter, value): a call whose value is a ratio of sums over the queries, not a mean of per-query
    #: values (recall_at_k's micro average): bootstrap recombines it, compare (whose statistic is the mean
    #: of per-query differences) refuses it
    ratio_of_sums_with: tuple[tuple[str, object], ...] = ()
    #: what bootstrap resamples and compare pairs, where not the default: a ranking metric's queries
    #: (per_query), else the rows of a metric of one value; "group" for gauc (its groups' AUCs)
    unit: Unit | None = None
    #: compare's test of two columns of the same rows: the paired bootstrap, or for auc also DeLong's
    #: test of its exact value (AUC_TEST, its default)
    paired_test: Param = BOOTSTRAP_TEST
    unique: tuple[str, ...] = ()  # key parameters that must identify a row (duplicates are an error)
    aliases: tuple[str, ...] = ()  # other names the metric answers to (sm.map, sqlmetrics show map)
    plot: Plot | None = None  # the plot drawn from this curve
    #: takes `average`: other than 'binary', its label and prediction are classes of any type (role
    #: 'class'), and average=None returns one row per class (class, the metric, support)
    averaged: bool = False
    #: with average='binary' (its default) and a prediction column, a label or prediction that is not
    #: 0/1 makes the call its average='micro': classes of any type (accuracy, as sklearn's accuracy_score)
    micro_unless_binary: bool = False
    #: checks across the parameters and relations, run before the metric (sqlmetrics.consistency)
    checks: tuple[Callable[[dict, dict], list], ...] = ()
    #: a scalar that is a count: returned as an int (its columns are BIGINT)
    count: bool = False
    section: Section = "binary"
    #: the names other tools give it (sqlmetrics.measures: trec_eval(), ir_measures(), ranx(), sqlmetrics()):
    #: sm.evaluate and report --metrics compute it from any of them, as that tool defines it
    measure_names: tuple = ()
    #: ranking: its template defines <name>_parts, its per-query aggregates, so that sm.evaluate computes it
    #: in its one pass with the other such measures (the rest of the measures each run their own query)
    one_pass: bool = False
    #: which way its value is better: where compare's gates (--max-drop, --alpha) see a regression
    better: Better = "higher"
    #: (output, parameter): an output the result has only where that parameter is given (auc's
    #: error_bound, the bound of the error of bins: an exact AUC has none)
    outputs_with: tuple[tuple[str, str], ...] = ()

    def __post_init__(self):
        require_word(f"metric {self.name!r}", "kind", self.kind, Kind)
        require_word(f"metric {self.name!r}", "section", self.section, Section)
        require_word(f"metric {self.name!r}", "better", self.better, Better)
        if self.plot is not None:
            require_word(f"metric {self.name!r}", "plot", self.plot, Plot)
        if self.unit is not None:
            require_word(f"metric {self.name!r}", "unit", self.unit, Unit)

    @property
    def resampling_unit(self) -> Unit:
        """What bootstrap resamples and compare pairs (see unit): a metric of a long table of class scores
        (its `example` parameter) the examples, whose rows are one example's scores."""
        return self.unit or ("query" if self.per_query else "example" if self.takes("example") else "row")

    @property
    def value_columns(self) -> tuple[str, ...]:
        """Columns whose NULL means 'undefined' (raised for an unsliced call)."""
        return {"scalar": (self.name,), "curve": self.defined_by or self.outputs[1:3], "record": self.defined_by}[self.kind]

    def outputs_for(self, values: dict) -> tuple[str, ...]:
        """The outputs a call with these parameter values returns (see outputs_with)."""
        absent = {c for c, param in self.outputs_with if values.get(param) is None}
        return tuple(c for c in self.outputs if c not in absent)

    def outputs_note(self, quote: str = "", option: Callable[[str], str] | None = None) -> str:
        """' (error_bound only with bins)': the outputs_with, as the docs say them after the outputs
        (`option`: how a parameter is named, the command line's --bins; by default quoted as a column)."""
        option = option or (lambda name: f"{quote}{name}{quote}")
        return "".join(f" ({quote}{c}{quote} only with {option(p)})" for c, p in self.outputs_with)

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def takes(self, name: str) -> bool:
        """Whether it has the parameter `name`."""
        return any(p.name == name for p in self.params)

    def samples(self, given: dict) -> dict:
        """The sample value (Param.sample) of every parameter a call with `given` leaves at its default, and
        where one of them does not apply under another parameter's value there (inapplicable), that
        parameter switched so that it does (graded rbp takes no relevance_threshold): the engine and
        golden tests' call that runs every number parameter."""
        samples = {p.name: p.sample for p in self.params if p.sample is not None and p.name not in given}
        for a, b, v, _ in self.inapplicable:
            if a in samples and given.get(b, self.param(b).default) == v:
                samples[b] = not v
        return samples

