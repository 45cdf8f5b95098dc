"""The metric catalogue: one declarative entry per metric (metric.py), in the module of its family
(classification_metrics.py, regression_metrics.py, ranking_metrics.py), assembled here: the single
place a metric is looked up, with the words derived from the entries (aliases, plots, reserved
names) and the metrics made from others (bootstrap, compare, evaluate).
"""
from __future__ import annotations

import difflib
from dataclasses import replace

from . import command_options, measures as measure_strings
from .classification_metrics import CLASSIFICATION
from .drift_metrics import DRIFT
from .fairness_metrics import FAIRNESS, PER_GROUP, SENSITIVE, VALUE_METHOD
from .errors import ParameterError, UnknownMetricError
from .metric import Kind, Metric, Plot  # noqa: F401 (the catalogue's types, re-exported)
from .params import (CLUSTER, CONFIDENCE, GAIN, N_BOOT, N_PAIRED_BOOT, N_RESAMPLES, POS_LABEL,
                     RELEVANCE_THRESHOLD, SEED, TEST, TIES, Param)
from .plans import ParallelWhenDistributed
from .ranking_metrics import QUERY_COUNTS, RUN, POLICIES, RANKING
from .regression_metrics import REGRESSION
from .survival_metrics import SURVIVAL
from .uplift_metrics import UPLIFT_METRICS

METRICS: dict[str, Metric] = {m.name: m for m in CLASSIFICATION + REGRESSION + RANKING + FAIRNESS + SURVIVAL
                             + UPLIFT_METRICS + DRIFT}

def _with_pos_label(m: Metric) -> Metric:
    """Every metric reading a 0/1 label takes pos_label (scikit-learn's), after its last label or
    prediction parameter: labels of any two values."""
    binary = [i for i, p in enumerate(m.params) if p.role in ("label", "binary")]
    if not binary:
        return m
    at = binary[-1] + 1
    return replace(m, params=m.params[:at] + (POS_LABEL,) + m.params[at:])


METRICS = {name: _with_pos_label(m) for name, m in METRICS.items()}


def refuse_command_options(m: Metric) -> None:
    """A parameter is an option of each metric command (flag(name)): it may not be named as a command's own."""
    for p in m.params:
        commands = command_options.reserved_by(p.name)
        if commands:
            raise TypeError(f"metric {m.name!r}: parameter {p.name!r} would be {command_options.flag(p.name)} on the "
                            f"command line, which is the own option of {', '.join(commands)}: name it otherwise")


for _m in METRICS.values():
    refuse_command_options(_m)

#: output columns that hold classes (of any type) or words, never converted to numbers
TEXT_OUTPUTS = frozenset({"class", "true_class", "predicted_class", "average", "category"})

#: other names a metric answers to -> its name
ALIASES = {alias: m.name for m in METRICS.values() for alias in m.aliases}
#: names a `by`/`group`/`query` column may not have: output or intermediate columns of the templates
RESERVED_COLUMNS = frozenset(c.lower() for m in METRICS.values() for c in m.outputs) | {
    "threshold", "tp", "fp", "tn", "fn"}
#: plot -> the curve metric it draws
PLOTS = {m.plot: m for m in METRICS.values() if m.plot}


def lookup(name: str) -> Metric:
    """The metric called `name` (or one of its aliases)."""
    if not isinstance(name, str):
        raise ParameterError(f"the metric name must be a string such as 'auc'; got {name!r}")
    try:
        return METRICS[ALIASES.get(name, name)]
    except KeyError:
        near = difflib.get_close_matches(name.lower(), list(METRICS) + list(ALIASES), n=1, cutoff=0.5)
        raise UnknownMetricError(name, near[0] if near else None, tuple(METRICS)) from None


def named(name: str, params: dict) -> tuple[Metric, dict]:
    """The metric `name` names, and the call's parameters with those its name fixes: a metric's name
    or alias (its own defaults: ``ndcg`` has exponential gain), or a measure string as sm.evaluate
    reads it (``ndcg@10`` is ndcg with k=10 and linear gain, as ranx and trec_eval compute it). A
    parameter the string fixes may not be given again; the call's gain, ties and relevance_threshold
    must be ones the string's readings allow (sqlmetrics.measures.resolve)."""
    if not isinstance(name, str) or name in METRICS or name in ALIASES:
        return lookup(name), dict(params)
    if measure_strings.unknown_name(name, CATALOGUE) is not None:
        lookup(name)  # neither a metric nor a measure: the metric's error, with the nearest name
    measure = read_measures([name])[0]
    params = dict(params)
    if "k" in params:
        raise ParameterError(f"measure {name!r} writes its cut-off in its name (ndcg@10, P_5): drop k={params['k']!r}")
    given = {key: params.pop(key, None) for key in ("gain", "ties", "relevance_threshold")}
    (measure,), ties, threshold = measure_strings.resolve(
        (measure,), GAIN.validate(given["gain"]) if given["gain"] is not None else None,
        TIES.validate(given["ties"]) if given["ties"] is not None else None,
        RELEVANCE_THRESHOLD.validate(given["relevance_threshold"]) if given["relevance_threshold"] is not None else None,
        CATALOGUE)
    return METRICS[measure.metric], params | measure_parameters(measure, ties, threshold)


def measure_parameters(measure: measure_strings.Measure, ties: str, threshold: float) -> dict:
    """The parameters of a resolved measure's metric that its spelling and the call fix: k, gain, the
    order of ties, the relevance level, and the spelling's own (rbp's persistence), those it takes."""
    m = METRICS[measure.metric]
    fixed = {"ties": ties, "relevance_threshold": threshold, "k": measure.k} | dict(measure.params) | (
        {"gain": measure.gain} if measure.gain else {})
    return {key: value for key, value in fixed.items() if m.takes(key)}


def _require_mean_over_queries(m: Metric, what: str) -> None:
    if m.not_a_mean:
        raise ParameterError(f"{what} recombines per-query values by their mean; {m.name} is {m.not_a_mean}")


#: weightings of the groups (gauc's) under which a group drawn k times weighs k times as much when its rows weigh k
_RESAMPLED_WEIGHTINGS = ("impressions", "clicks")


def bootstrap_of(name: str, params: dict) -> tuple[Metric, dict]:
    """The bootstrap of metric `name` (sql/bootstrap.sql), as a record metric of its own, and the call's
    parameters: over its resampling unit (Metric.unit): rows (or clusters) for a metric of one value with
    frequency weights, queries for a ranking metric, groups for gauc, examples for a metric of a long table
    of class scores (a cluster then holds whole examples: consistency.class_scores). `name` may be a measure
    string (ndcg@10)."""
    m, params = named(name, params)
    unit = m.resampling_unit
    if unit == "query":
        _require_mean_over_queries(m, "bootstrap")
        extra = (N_BOOT, CONFIDENCE, SEED)
        if params.get("cluster") is not None:
            raise ParameterError(f"bootstrap of {m.name} resamples queries: it takes no cluster")
    elif _reweighable(m):
        extra = (N_BOOT, CONFIDENCE, SEED, CLUSTER)
    else:
        raise ParameterError(f"bootstrap needs a ranking metric or a metric of one value that takes a weight "
                             f"parameter (the replicates are frequency weights); {m.name} is neither")
    if unit == "group":
        weighting = params.get("weighting", m.param("weighting").default)
        if weighting not in _RESAMPLED_WEIGHTINGS:
            raise ParameterError(f"bootstrap of {m.name} takes weighting "
                                 f"{' or '.join(map(repr, _RESAMPLED_WEIGHTINGS))}, not {weighting!r}: a group "
                                 "drawn k times must weigh k times as much")
        params["cluster"] = params.get("cluster") or params.get("group")
    if params.get("cluster") is None:
        params.pop("cluster", None)
    derived = _derived(m, "bootstrap", (), extra, outputs=("estimate", "std_error", "ci_low", "ci_high", "n_boot",
                                                            "n_undefined"),
                       defined_by=("estimate",), across_slices=())
    if unit == "group":  # its groups' values come from one call of its SQL: its plan chosen as the metric's
        derived = replace(derived, plan=m.plan)
    return derived, params


def _reweighable(m: Metric) -> bool:
    """Whether replicate weights resample the units of `m`: a metric of one value with frequency weights
    (`weight`), of rows, or of examples (a long table of class scores: its weight is the example's, and
    every row of an example takes the example's draw, sql/bootstrap.sql)."""
    return m.kind == "scalar" and any(p.name == "weight" for p in m.params)


def _derived(m: Metric, name: str, leading: tuple, trailing: tuple, **fields) -> Metric:
    """A record metric `name` (template sql/<name>.sql) made from metric `m`: its parameters are
    `metric` (m's name), `leading`, m's own and `trailing`; its plan is m's choice between the
    parallel plan and the dialect's default (the derived template passes it on to m's macro)."""
    plan = ParallelWhenDistributed(parallel=m.plan.parallel) if m.plan else None
    metric = Param("metric", "choice", f"the metric the {name} takes.", default=m.name, choices=(m.name,))
    return replace(m, name=name, template=f"{name}.sql", kind="record", params=(metric, *leading) + m.params + trailing,
                   plan=plan, per_query=False, **fields)



#: what compare returns, per slice
COMPARE_STATISTICS = ("estimate", "other_estimate", "difference", "std_error", "statistic", "p_value", "ci_low",
                      "ci_high")
COMPARE_OUTPUTS = COMPARE_STATISTICS + ("n_units", "n_wins", "n_ties", "n_losses")


def compare_of(name: str, params: dict) -> tuple[Metric, dict]:
    """The paired comparison of two systems by metric `name` (sql/compare.sql), as a record metric of
    its own: per query for a ranking metric (`other` a second run), per group for gauc (`other` a
    second score column), and for a metric of one value over rows `other` a second column of the same
    rows (_compare_columns). `name` may be a measure string (ndcg@10)."""
    m, params = named(name, params)
    if params.get("test") is None:
        params.pop("test", None)
    unit = m.resampling_unit
    if unit == "query":
        _require_mean_over_queries(m, "compare")
        for parameter, value in m.ratio_of_sums_with:
            if params.get(parameter) == value:
                raise ParameterError(f"compare tests the mean of per-query differences; {m.name} with {parameter}="
                                     f"{value!r} is not a mean over queries: use {parameter}="
                                     f"{m.param(parameter).default!r}")
        other = Param("other", "relation", "the second run, with the same columns as the first (a table name, "
                      "sqlmetrics.Query, file path or DataFrame).", like_data=True)
        # the units are queries evaluated under both runs: a run without rows leaves none
        undefined = "no query is evaluated under both runs with a relevant item (is one of the runs empty?)"
    elif unit == "group":
        other = Param("other", "column", "the second score column, compared with `score` group by group.",
                      role="score")
        undefined = m.undefined
        if params.get("test") == "wilcoxon" and params.get("weighting", m.param("weighting").default) != "uniform":
            raise ParameterError("test='wilcoxon' ranks the groups' differences without weights: pass "
                                 "weighting='uniform', or use test='paired_t' or 'randomization', which weigh "
                                 "each group as the GAUC does")
    elif _reweighable(m):
        return _compare_columns(m, params)
    else:
        raise ParameterError(f"compare needs a ranking metric (two runs of the same queries), gauc (two score "
                             f"columns, group by group) or a metric of one value with a weight parameter (two "
                             f"columns of the same rows, by the paired bootstrap); {m.name} is none of them")
    derived = _derived(m, "compare", (other,), (TEST, N_RESAMPLES, SEED, CONFIDENCE), outputs=COMPARE_OUTPUTS,
                       defined_by=("difference",), across_slices=("p_value_holm",), undefined=undefined)
    return derived, params


def _compare_columns(m: Metric, params: dict) -> tuple[Metric, dict]:
    """compare of a metric of one value over rows: its `score` (or `prediction`, where the call gives
    that) against `other`, a second column of the same rows, by its paired test (Metric.paired_test):
    DeLong's (auc's default, of its exact value) or the paired bootstrap (sql/bootstrap.sql with
    `other`; every such metric)."""
    delong = "delong" in m.paired_test.choices  # auc's: DeLong's test of its exact value
    exact = params.get("bins") is None and params.get("max_fpr") is None
    test = params.setdefault("test", m.paired_test.default if exact else "bootstrap")
    if test in TEST.choices:
        raise ParameterError(f"test={test!r} tests paired units (queries, groups); {m.name} over rows is compared by "
                             "test='bootstrap'" + (" or 'delong'" if delong else ""))
    if test == "delong" and not (delong and exact):
        raise ParameterError("test='delong' is DeLong's test of the exact AUC: " + (
            "without bins or max_fpr; pass test='bootstrap'" if delong else
            f"metric auc; {m.name} is compared by test='bootstrap'"))
    resampling = [k for k in ("n_resamples", "seed", "cluster") if params.get(k) is not None]
    if test == "delong" and resampling:
        raise ParameterError(f"test='delong' takes no {resampling[0]}: its variance is DeLong's, not resampled "
                             "(test='bootstrap' resamples)")
    compared = "prediction" if params.get("score") is None and params.get("prediction") is not None else "score"
    compared = compared if any(p.name == compared for p in m.params) else "prediction"
    other = Param("other", "column", f"the second {compared} column, compared with `{compared}` on the same rows.",
                  role=m.param(compared).role)
    counts = ("n_pos", "n_neg") if test == "delong" else ("n_boot", "n_undefined")
    derived = _derived(m, "compare", (other,), (m.paired_test, N_PAIRED_BOOT, SEED, CONFIDENCE, CLUSTER),
                       outputs=COMPARE_STATISTICS + counts, defined_by=("difference",),
                       across_slices=("p_value_holm",) if test == "delong" else ())
    if test == "delong":  # auc_compare's SQL, its plan chosen as sm.auc_compare's
        derived = replace(derived, plan=METRICS["auc_compare"].plan)
    if params.get("cluster") is None:
        params.pop("cluster", None)
    return derived, params


#: what group_disparity returns per slice (with per_group, per group, after the group's value)
DISPARITY_OUTPUTS = ("difference", "ratio", "group_min", "group_max", "overall", "n_groups")


def disparity_of(name: str, params: dict) -> tuple[Metric, dict]:
    """The disparity of metric `name` across the groups of `sensitive` (sql/group_disparity.sql;
    fairlearn's MetricFrame), as a record metric of its own: any metric of one value per slice."""
    m, params = named(name, params)
    average = params.get("average", m.param("average").default) if m.averaged else "binary"
    # a run's metrics (ranking, recommendation lists) are left out: a group would be a set of queries,
    # whose slices their templates place on the run or the qrels (not checked across groups yet)
    if m.kind != "scalar" or m.takes("query") or m.takes("sensitive") or average is None:
        what = ("a curve" if m.kind == "curve" else "a disparity across groups already" if m.takes("sensitive")
                else "a metric of a ranked run (its values are per query)" if m.takes("query")
                else "a value per class with average=None" if average is None else "several values")
        raise ParameterError(f"group_disparity takes a metric of one value per slice (recall, precision, accuracy, "
                             f"auc, log_loss, mae, r2, ...); {m.name} is {what}")
    sensitive = SENSITIVE.validate(params.get("sensitive")) if params.get("sensitive") is not None else []
    taken = {c.lower() for c in DISPARITY_OUTPUTS + (m.name,)} | RESERVED_COLUMNS
    by = params.get("by")
    for column in sensitive + ([by] if isinstance(by, str) else list(by or [])):
        if isinstance(column, str) and column.strip('"').lower() in taken:
            raise ParameterError(f"column {column!r} cannot be sensitive or in by: group_disparity names an output "
                                 "column so; rename it in a sqlmetrics.Query")
    derived = _derived(m, "group_disparity", (SENSITIVE,), (VALUE_METHOD, PER_GROUP), outputs=DISPARITY_OUTPUTS,
                       defined_by=("difference",), across_slices=(), outputs_with=(), better="lower",
                       undefined=f"there are fewer than two groups, or a group's {m.name} is undefined "
                                 f"({m.undefined or 'see its definition'})")
    return derived, params


#: metrics made from another metric, by the name sm.render knows them by
DERIVED = {"bootstrap": bootstrap_of, "compare": compare_of, "group_disparity": disparity_of}


#: sm.evaluate's measures: strings read by sqlmetrics.measures
MEASURES = Param("measures", "measures", "the measures, as strings such as 'ndcg@10', 'P@5', 'map' (sqlmetrics, ranx, "
                 "ir_measures and trec_eval spellings; see sqlmetrics.evaluate).")
#: several ranking measures in one pass (sql/ranking/evaluate.sql): its outputs are the call's measures
EVALUATE = Metric(
    name="evaluate", template="ranking/evaluate.sql", kind="record",
    params=RUN + (MEASURES, TIES) + POLICIES, outputs=QUERY_COUNTS,
    summary="Several ranking measures in one pass over the run.",
    formula="each measure as its own metric computes it", reference="trec_eval, ir_measures, ranx (measure names)",
    example="", per_query=True, unique=("query", "item"))


#: the measure names of the metrics that declare them (their entries' measure_names): what sm.evaluate
#: and report --metrics read
CATALOGUE = measure_strings.catalogue(
    {name: m.measure_names for name, m in METRICS.items() if m.measure_names},
    gain_based={name for name, m in METRICS.items() if any(p.name == "gain" for p in m.params)},
    level_free={name for name, m in METRICS.items() if all(p.name != "relevance_threshold" for p in m.params)})


def read_measures(texts) -> tuple[measure_strings.Measure, ...]:
    """Measure strings read (sqlmetrics.measures); a ranking metric without measure names is refused with
    the function that computes it."""
    for text in [texts] if isinstance(texts, str) else texts if isinstance(texts, (list, tuple)) else []:
        name = measure_strings.unknown_name(text, CATALOGUE)
        metric = ALIASES.get(name, name)
        if metric in METRICS and METRICS[metric].per_query and metric not in CATALOGUE.metrics:
            raise ParameterError(f"measure {text!r}: evaluate computes {', '.join(CATALOGUE.metrics)}; {metric} "
                                 f"is computed by its own function: sqlmetrics.{metric}(...) (sqlmetrics compute "
                                 f"{metric})")
    return measure_strings.parse_all(texts, CATALOGUE)


def evaluate_of(params: dict) -> tuple[Metric, dict, tuple[tuple[measure_strings.Measure, dict], ...]]:
    """sm.evaluate's one pass as a metric of its own, with the columns of its measures; the call's
    parameters: the measures read, each with its gain, and the call's one order of ties and one
    relevance level, as the measures' spellings define them (sqlmetrics.measures.resolve); and the
    measures outside the one pass (their metrics not one_pass), each with its metric's parameters:
    resolved one by one, each takes its own tool's order of ties and relevance level where the call
    gives none. One statement: measures of two relevance levels (or orders of ties) are refused."""
    passes, own = evaluate_passes(params, split=False)
    return *passes[0], own


def evaluate_passes(params: dict, split: bool = True) -> tuple[list[tuple[Metric, dict]], tuple]:
    """evaluate_of's passes: with `split`, the one-pass measures that fix different relevance levels or
    orders of ties (nDCG@10, P(rel=2)@5 and AP, as ir_measures takes them) in as few passes as keep
    each pass to one level and one order (the measures in the order written, each in the first pass
    it agrees with), a pass a statement; without, one pass. And the measures outside the one pass."""
    params = dict(params)
    if params.get("measures") is None:
        raise ParameterError("evaluate needs measures, e.g. ['ndcg@10', 'P@5', 'map']")
    options = [params.pop(k, None) for k in ("gain", "ties", "relevance_threshold")]
    options = [None if value is None else param.validate(value)
               for param, value in zip((GAIN, TIES, RELEVANCE_THRESHOLD), options)]
    measures = read_measures(params["measures"])
    own = []
    for m in (m for m in measures if not METRICS[m.metric].one_pass):
        (m,), ties, threshold = measure_strings.resolve((m,), *options, CATALOGUE)
        own.append((m, measure_parameters(m, ties, threshold)))
    groups: list[tuple] = []
    for m in (m for m in measures if METRICS[m.metric].one_pass):
        i = next((i for i, group in enumerate(groups) if not split or _agrees(group + (m,), options)), None)
        if i is None:
            groups.append((m,))
        else:
            groups[i] += (m,)
    return [_one_pass(group, params, options) for group in groups or [()]], tuple(own)


def _agrees(measures: tuple, options: list) -> bool:
    """Whether `measures` can share one pass: one relevance level and one order of ties."""
    try:
        measure_strings.resolve(measures, *options, CATALOGUE)
    except ParameterError:
        return False
    return True


def _one_pass(measures: tuple, params: dict, options: list) -> tuple[Metric, dict]:
    """The one pass of `measures` (evaluate_passes'), and its parameters."""
    params = dict(params)
    measures, params["ties"], params["relevance_threshold"] = measure_strings.resolve(measures, *options, CATALOGUE)
    params["measures"] = measures
    if params["ties"] == "average":
        averaging = [name for name in CATALOGUE.metrics
                     if any(p.name == "ties" and "average" in p.choices for p in METRICS[name].params)]
        other = [m.name for m in measures if m.metric not in averaging]
        if other:
            raise ParameterError(f"ties='average' applies to {', '.join(averaging)}; {', '.join(other)} "
                                 "order equal scores by item id: pass ties='item_desc' (trec_eval) or 'item_asc', or "
                                 "evaluate those measures in another call")
    by = params.get("by")
    keys = {k.lower() for k in [params.get("query", "query")] + ([by] if isinstance(by, str) else list(by or []))
            if isinstance(k, str)}
    clash = [m.name for m in measures if m.name.strip().lower() in keys | set(QUERY_COUNTS) | {"n_relevant"}]
    if clash:
        raise ParameterError(f"measure {clash[0]!r} is also the name of a query or by column (or a count): rename "
                             "the column")
    return replace(EVALUATE, outputs=tuple(m.name for m in measures) + QUERY_COUNTS), params


#: what compare_runs returns, per pair of runs and measure: their numbers (the runs' and the measures'
#: order) and compare's outputs
RUNS_COMPARED_OUTPUTS = ("system_index", "baseline_index", "measure_index") + COMPARE_OUTPUTS
_BASELINE_INDEX = Param("baseline", "int", "the number of the run (0 the data, i run_i) each other run is compared "
                        "with; None: every later run with every earlier one.", default=None, low=0)


def check_runs(runs, baseline: str | None) -> None:
    """Several runs named (runs={'bm25': run1, 'dense': run2}), and their baseline, one of them or None."""
    if not isinstance(runs, dict) or len(runs) < 2 or not all(isinstance(name, str) for name in runs):
        raise ParameterError("runs must name two runs or more, e.g. runs={'bm25': run1, 'dense': run2}; got "
                             + (f"{len(runs)} run" if isinstance(runs, dict) else repr(type(runs).__name__)))
    if baseline is not None and baseline not in runs:
        near = difflib.get_close_matches(str(baseline), list(runs), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise ParameterError(f"baseline {baseline!r} is not one of the runs{hint} (runs: {', '.join(map(repr, runs))})")


def runs_compared(params: dict, runs: dict, baseline: str | None) -> tuple[Metric, object, dict]:
    """compare of several runs (`runs`: name -> run) on sm.evaluate's one-pass measures, every pair and measure
    in one statement that reads each run once (sql/compare.sql compare_runs), as a record metric of its own:
    the metric, its data (the first run) and the call's parameters: evaluate's (its measures read with one
    order of ties and one relevance level: evaluate_of), run_1, run_2, ... (the other runs, in their order),
    baseline (its run's number), test, n_resamples, seed and confidence."""
    check_runs(runs, baseline)
    names = list(runs)
    m, params, own = evaluate_of(params)
    if own:
        raise ParameterError(f"{own[0][0].name!r} is outside sm.evaluate's one pass: compare it run pair by run pair")
    others = tuple(Param(f"run_{i}", "relation", f"run number {i}, with the same columns as the first.", like_data=True)
                   for i in range(1, len(names)))
    derived = _derived(EVALUATE, "compare_runs", others, (_BASELINE_INDEX, TEST, N_RESAMPLES, SEED, CONFIDENCE),
                       outputs=RUNS_COMPARED_OUTPUTS, defined_by=("difference",))
    params |= {f"run_{i}": runs[name] for i, name in enumerate(names[1:], start=1)}
    params["baseline"] = None if baseline is None else names.index(baseline)
    return replace(derived, template="compare.sql"), runs[names[0]], params
