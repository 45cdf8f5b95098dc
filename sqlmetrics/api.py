"""The public entry points: one function per registered metric, and ``render``."""
from __future__ import annotations

import functools
import math
import warnings
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, NoReturn

from sqlglot import exp

from . import checks, consistency, dialects, labels
from .engine import ENGINE_DIALECTS, as_from, connect
from .errors import ColumnError, EngineError, MissingColumnError, NotBinaryError, ParameterError, UndefinedMetricError
from .registry import DERIVED, RESERVED_COLUMNS, TEXT_OUTPUTS, Metric, evaluate_of, named, runs_compared
from .sources import Source, static_source, text_values_hint
from .sqltext import PLACEHOLDER, check_dialect, finish, finish_side_by_side, require_repeatable, transpile
from .imports import instance_of
from .target import Target
from .templates import native_call, render_macro

if TYPE_CHECKING:
    import pandas as pd


def validate(m: Metric, given: dict) -> dict:
    """Check every parameter of `m` (names, types, ranges, reserved column names)."""
    names = {p.name for p in m.params}
    unknown = set(given) - names
    if unknown:
        raise ParameterError(f"{m.name} got unexpected parameter(s) {sorted(unknown)}; it takes {sorted(names)}")
    values = {}
    for p in m.params:
        if p.name not in given and p.required:
            raise ParameterError(f"{m.name} needs the {p.name!r} parameter: {p.doc}")
        values[p.name] = p.validate(given.get(p.name, None if p.required else p.default))
    named = [p.name for p in m.params if p.in_qrels_for and values[p.name] is not None]
    if named and values.get("qrels") is None:
        raise ParameterError(f"{m.name}: {named[0]} names a column of the qrels: pass qrels too (without qrels the "
                             f"judgments are the run's own {named[0][len('qrels_'):]} column)")
    for a, b, v, why in m.inapplicable:
        if values[b] == v and values[a] != m.param(a).default:
            other = f"{b}={not v!r}" if isinstance(v, bool) else f"another {b}"
            raise ParameterError(f"{m.name}: {a}={values[a]!r} does not apply when {b}={v!r} ({why}); pass {other} "
                                 "for it to apply, or leave it out")
    if m.one_of and sum(values[k] is not None for k in m.one_of) != 1:
        raise ParameterError(f"{m.name} needs exactly one of {' or '.join(m.one_of)}")
    if "categorical" in values:  # drift compares numeric columns, categorical ones, or both; each column one way
        if not values["columns"] and not values["categorical"]:
            raise ParameterError(f"{m.name}: no column to compare: pass columns= (numeric) or categorical=")
        if both := [c for c in values["columns"] if c in values["categorical"]]:
            raise ParameterError(f"{m.name}: column {both[0]!r} is in columns and in categorical: compare it one way")
    if m.averaged and values["average"] != "binary" and values.get("pos_label") is not None:
        raise ParameterError(f"pos_label applies to average='binary' (two classes); with average="
                             f"{values['average']!r} every class is positive in turn: leave pos_label out")
    if m.averaged and values["average"] != "binary" and values.get("score") is not None:
        raise ParameterError(f"{m.name} with average={values['average']!r} compares classes: pass the predicted "
                             "class column as prediction= instead of score= (a threshold makes two classes only: "
                             "use average='binary' for that)")
    keys = list(values.get("by") or []) + [values[k] for k in ("group", "query") if values.get(k)]
    for key in keys:
        if key.strip('"').lower() in RESERVED_COLUMNS:  # '"AUC"' too: the output column AUC on Snowflake
            raise ParameterError(
                f"column {key!r} cannot be used in by/group: sqlmetrics names an output column so; "
                f"rename it, e.g. sqlmetrics.Query('SELECT *, {key} AS {key}_key FROM ...')")
    if values.get("group") and values["group"] in (values.get("by") or []):
        raise ParameterError(f"group column {values['group']!r} is also in by")
    return values


def _relation_params(m: Metric, values: dict) -> list:
    """The extra relations given (qrels, similarity, items), besides `data`."""
    return [p for p in m.params if p.kind == "relation" and values[p.name] is not None]


def _placement(m: Metric, values: dict) -> dict[str, list[tuple[str, str, str]]]:
    """slot ("data" or a relation parameter) -> [(parameter, column, role)] the relation must have."""
    judgments = "qrels" if values.get("qrels") is not None else "data"
    slots = {"data": ["data"], "judgments": [judgments], "both": sorted({"data", judgments})}
    out: dict[str, list] = {"data": []}
    classes = m.averaged and values.get("average") != "binary"
    # with pos_label, labels (and predictions) are two values of any type, compared with it: classes
    any_labels = values.get("pos_label") is not None
    in_qrels = qrels_names(m, values, by_parameter=True)
    for p in m.params:
        if p.kind in ("column", "columns") and values[p.name] and not p.in_qrels_for:
            names = values[p.name] if p.kind == "columns" else [values[p.name]]
            role = "class" if (classes and p.name in ("label", "prediction")) or (
                any_labels and p.role in ("label", "binary")) else p.role
            for slot in slots[p.where]:
                if slot == "qrels" and p.kind == "column" and p.name in in_qrels:
                    out.setdefault(slot, []).append((f"qrels_{p.name}", in_qrels[p.name], role))
                else:
                    out.setdefault(slot, []).extend((p.name, c, role) for c in names)
        elif p.kind == "relation" and values[p.name] is not None:
            columns = {k: v for k, v in values.items() if isinstance(v, str)}  # "{item}": the item parameter's value
            # a column standing for a parameter's ("{example}") holds that parameter's ids: typed as the data's
            out.setdefault(p.name, []).extend(
                (col[1:-1] if col[1:-1] in columns else p.name, col.format(**columns), role)
                for col, role in p.relation_columns)
    for p in _relation_params(m, values):
        if p.like_data:
            out[p.name] = list(out["data"])
    return out


def _slices_placed(placement: dict, values: dict, schemas: dict, descriptions: dict) -> dict:
    """`placement` with each `by` column of a ranking metric with qrels asked only of the relations that
    have it: the run, the qrels or both (a slice is the query's: the templates give the side without it
    each query's value from the other, with_slices). A column in neither is an error naming both."""
    if "qrels" not in placement or not values.get("by"):
        return placement
    for col in values["by"]:
        if col not in schemas["data"] and col not in schemas["qrels"]:
            listing = "; ".join(f"{name}: {', '.join(map(repr, list(schemas[slot])[:20]))}"
                                for name, slot in (("the run's", "data"), ("the qrels'", "qrels")))
            raise MissingColumnError(f"column {col!r} (by) not found in the run ({descriptions['data']}) nor in the "
                                     f"qrels ({descriptions['qrels']}): slice by a column of either ({listing})")
    # a second run compared with the first (like_data) holds what the first does
    lacks = {slot: {col for col in values["by"] if col not in schemas["qrels" if slot == "qrels" else "data"]}
             for slot in placement}
    return {slot: [w for w in wanted if not (w[0] == "by" and w[1] in lacks[slot])] for slot, wanted in placement.items()}


def _slices_held(placement: dict, values: dict) -> dict[str, list[str]]:
    """slot -> the `by` columns its relation has (all of them, but for a ranking metric with qrels)."""
    return {slot: [col for param, col, _ in wanted if param == "by"] if "qrels" in placement
            else list(values.get("by") or []) for slot, wanted in placement.items()}


def qrels_names(m: Metric, values: dict, by_parameter: bool = False) -> dict[str, str]:
    """The metric's column name (or with `by_parameter` its parameter) -> the qrels' own column
    (qrels_query=, ...), where they differ."""
    return {p.in_qrels_for if by_parameter else values[p.in_qrels_for]: values[p.name] for p in m.params
            if p.in_qrels_for and values[p.name] is not None and values[p.name] != values[p.in_qrels_for]}


def _renamed(source: Source, wanted: list, renames: dict[str, str]) -> Source:
    """The columns `wanted` of the qrels under the metric's names (`renames`: the qrels' column -> the
    metric's): for render, which checks nothing (compute renames as it reduces the checked source to
    the columns used)."""
    columns = dict.fromkeys(col for _, col, _ in wanted)
    return Source(exp.select(*(exp.column(c, quoted=True).as_(renames.get(c, c), quoted=True) for c in columns))
                  .from_(as_from(source.relation)), source.description)


def _sql(m: Metric, values: dict, sources: dict[str, Source], target: Target, plan: str | None,
         per_query: bool = False, extra: dict | None = None, inputs: dict[str, exp.Query] | None = None,
         screen: exp.Expression | None = None) -> str:
    relations = {_placeholder(slot): source.relation for slot, source in sources.items()}
    return finish(_rendered(m, values, target, plan, per_query, extra), relations, target, inputs, screen)


def _rendered(m: Metric, values: dict, target: Target, plan: str | None, per_query: bool = False,
              extra: dict | None = None, relation: str = PLACEHOLDER) -> str:
    """The metric's template rendered over the placeholder `relation`."""
    # the parameters the Python layer applies reach the SQL otherwise: by renaming, or as the target's literal
    kwargs = {k: v for k, v in values.items() if m.param(k).in_template} | (extra or {})
    kwargs["by"] = list(values.get("by") or [])
    for p in _relation_params(m, values):
        kwargs[p.name] = _placeholder(p.name)
    if m.plan:
        kwargs["plan"] = plan or m.plan.default(target.dialect)
    if m.per_query:
        kwargs["per_query"] = per_query
    return render_macro(m.name, target, relation=relation, **kwargs)


def _placeholder(slot: str) -> str:
    """The name standing for a relation (the data, or a relation parameter) in the rendered SQL."""
    return PLACEHOLDER if slot == "data" else f"{PLACEHOLDER}_{slot}"


def render(metric_name: str, data, *, dialect: str = "duckdb", pretty: bool = True, **params) -> str:
    """The SQL of a metric without running it: one read-only SELECT in `dialect`.

    ``data`` (and the same parameters as the metric's function) may be a table name or a
    ``sqlmetrics.Query``; a file path works for ``dialect="duckdb"``. Identifiers are quoted for the
    target dialect; the output column names are those of the metric's DataFrame. For a warehouse
    sqlmetrics does not run on, a column name written plainly (letters, digits, _) is the column that
    warehouse finds for it unquoted (Snowflake: ``clicked`` is ``"CLICKED"``) and one in double
    quotes (``label='"clicked"'``) is exactly the name between them; for the engines it runs on
    (DuckDB, SQLite, PostgreSQL, Spark, ClickHouse) a name is the column's exact name, as in ``compute``.
    ``render("compare", None, metric=["ndcg@10", "map"], runs={"bm25": ..., "dense": ...}, qrels=...)``
    gives the one statement in which ``sm.compare`` of several runs compares every pair on the measures
    of sm.evaluate's one pass (of one order of ties and one relevance level).

    >>> import sqlmetrics as sm
    >>> print(sm.render("auc", "analytics.preds", label="clicked", score="pctr", dialect="snowflake"))
    ... # doctest: +ELLIPSIS
    SELECT
      (
        CAST(sm_wins AS DOUBLE) / NULLIF(CAST(sm_w_pos AS DOUBLE), 0)
      ) AS auc,
    ...
    """
    if metric_name == "evaluate":  # sm.render("evaluate", run, qrels=..., measures=[...]): sm.evaluate's SQL
        m, params, own = evaluate_of(params)
        if own:
            raise ParameterError(f"render('evaluate') gives the SQL of evaluate's one pass; "
                                 f"{', '.join(x.name for x, _ in own)} run their own queries: render "
                                 f"{'them' if len(own) > 1 else 'it'} by name, as render({own[0][0].name!r}, ...)")
    elif metric_name == "compare" and "runs" in params:  # sm.compare(measures, runs={...})'s one statement
        if data is not None:
            raise ParameterError("render('compare', None, metric=[...], runs={...}) renders the runs it names: "
                                 "pass data=None")
        runs, baseline, measures = params.pop("runs"), params.pop("baseline", None), params.pop("metric", None)
        m, data, params = runs_compared(dict(params, measures=measures), runs, baseline)
    elif metric_name in DERIVED:  # sm.render("bootstrap", data, metric="auc", ...): sm.bootstrap's SQL, and compare's
        if "metric" not in params:
            raise ParameterError(f"render({metric_name!r}, ...) needs metric=, the name of the metric {metric_name} takes")
        m, params = DERIVED[metric_name](params.pop("metric"), params)
    else:
        m, params = named(metric_name, params)
    dialect = check_dialect(dialect)
    per_query = bool(params.pop("per_query", False)) if m.per_query else False
    values = validate(m, params)
    sources = {"data": static_source(data, dialect)}
    sources.update({p.name: static_source(values[p.name], dialect) for p in _relation_params(m, values)})
    renames = {v: k for k, v in qrels_names(m, values).items()}
    if "qrels" in sources and renames:
        sources["qrels"] = _renamed(sources["qrels"], _placement(m, values)["qrels"], renames)
    target = Target(dialect, pretty, warehouse_names=dialect not in ENGINE_DIALECTS,
                    positive=labels.positive_literal(values.get("pos_label")))
    return _sql(m, values, sources, target, None, per_query)


def compute_metric(m: Metric, data, *, con=None, dialect: str | None = None, details: bool = False,
            dropna: bool = False, per_query: bool = False, run: Callable | None = None, **params):
    """Validate, check the sources, choose the plan, render, run on the engine and shape the result.
    `run(engine, sql)`: how to run it, where not as one statement: sql(**template arguments) renders
    the statement (the metric's with further arguments), on the checked sources, in the call's snapshot."""
    values = validate(m, params)
    options = dict(con=con, dialect=dialect, details=details, dropna=dropna, per_query=per_query, run=run)
    try:
        return _compute(m, values, data, **options)
    except NotBinaryError:  # classes, which the metric takes (_label_advice lets no other through)
        pass
    # the call over classes (accuracy). Only a failed check tells (a text column at once, other numbers
    # from their values), so 0/1 labels cost nothing more
    return _compute(m, labels.micro_when_not_binary(m, values), data, **options)


def _compute(m: Metric, values: dict, data, *, con, dialect: str | None, details: bool, dropna: bool, per_query: bool,
             run: Callable | None):
    # connected right before the call: a SQLAlchemy engine lends a connection until the call ends
    engine = connect(con, check_dialect(dialect) if dialect else None, data)
    with engine.call(), ExitStack() as stack:
        opened = _opened(engine, stack, m, values, data)
        schemas = {slot: engine.schema(source) for slot, source in opened.items()}
        call = _prepared(engine, m, values, opened, schemas, data, dropna=dropna, details=details,
                         per_query=per_query, fold=run is None)
        values = call.values  # its column names as the engine reads them (the result's columns)
        try:
            if run:  # the caller's way to run it (bootstrap's batches) gives a frame
                frame = run(engine, call.sql)
                result = ({c: frame[c].iloc[0] for c in frame.columns} if len(frame) else {}) if call.single else frame
            else:
                text = call.sql(inputs=call.inputs, screen=call.screen())
                result = engine.one_row(text) if call.single else engine.execute(text)
        except EngineError:
            call.failed()
            raise
        if call.screens and _screen_fired(result, call.single):
            call.diagnose()  # raises, unless the screens fired on clean values
    return _value(m, result) if call.single else _shape(m, result, values, details, per_query)


def compute(metrics: list, data, *, con=None, dialect: str | None = None, **params) -> pd.DataFrame:
    """Several metrics of one value on one relation, by one statement that reads it once: a row per
    metric of its value and the counts it rests on (the columns of ``details=True``; NaN where a
    metric has no such count), or, in ``error``, why its checks rejected the data (log loss of scores
    that are not probabilities, say; its value NaN).

    ``metrics``: names (or aliases), each called with those of ``params`` it takes, or
    ``(name, {parameters})`` pairs, whose own parameters take precedence. ``data``, ``con`` and
    ``dialect`` as for each metric. On MariaDB (whose SQL cannot nest a metric's WITH inside another
    statement) and for a metric that reads more than the rows it is given (slices, a second relation,
    checks across rows), a metric runs its own statement.

    >>> import sqlmetrics as sm, pandas as pd
    >>> df = pd.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.8, 0.35, 0.4]})
    >>> sm.compute(["auc", "log_loss", ("precision", {"threshold": 0.3})], df, label="y", score="p")[
    ...     "value"].round(4).tolist()
    [0.75, 0.4723, 0.6667]
    """
    import pandas as pd  # a frame is the result
    calls, names = [], []
    for entry in metrics:
        name, own = entry if isinstance(entry, tuple) else (entry, {})
        m, fixed = named(name, own)  # a measure string (ndcg@10) fixes some of them
        calls.append((m, {k: v for k, v in params.items() if m.takes(k) and k not in fixed} | fixed))
        names.append(name)
    unused = sorted(k for k in params if not any(m.takes(k) for m, _ in calls))
    if unused:
        raise ParameterError(f"no metric of {names} takes {unused}")
    rows = []
    for name, (m, _), result in zip(names, calls, compute_many(calls, data, con=con, dialect=dialect)):
        if isinstance(result, (ColumnError, UndefinedMetricError)):
            rows.append({"metric": name, "value": math.nan, "error": str(result)})
        elif isinstance(result, Exception):
            raise result
        else:
            rows.append({"metric": name, "value": result[m.name]} | {
                k: v for k, v in result.items() if k != m.name} | {"error": None})
    frame = pd.DataFrame(rows)
    return frame[[c for c in frame.columns if c != "error"] + ["error"]]


def compute_many(calls: list[tuple[Metric, dict]], data, *, con=None, dialect: str | None = None) -> list:
    """Several metrics of one relation, as one statement that reads it once: each call's details row (a
    dict of its outputs and counts, as compute_metric(details=True) has them), or the error its own call
    raises, in its place. The calls' checks screen the rows in that statement, each call's own screens
    keeping its metric from rows it rejects; a call whose screen fires, which cannot join (a second
    relation, slices, checks across rows, a curve), or all of them where the engine fails the
    statement, are computed each on its own (compute_metric), which says what its screen found."""
    curves = [m.name for m, _ in calls if m.kind == "curve"]
    if curves:
        raise ParameterError(f"{curves[0]} is a curve, whose rows are not one row of values: compute it on its own")
    validated = []
    for m, params in calls:
        try:
            validated.append((m, validate(m, params)))
        except ParameterError as e:
            validated.append(e)
    rows: dict[int, dict] = {}
    engine = connect(con, check_dialect(dialect) if dialect else None, data)
    if engine.capabilities.nested_with:  # the metrics' own WITHs inside the statement see its inputs
        with engine.call(), engine.source(data) as source:
            rows = _together(engine, validated, source, data)
    out = []
    for i, (call, given) in enumerate(zip(validated, calls)):
        if isinstance(call, Exception) or i in rows:
            out.append(rows.get(i, call))
            continue
        try:
            frame = compute_metric(given[0], data, con=con, dialect=dialect, details=True, **given[1])
            out.append({c: _python(frame[c].iloc[0]) for c in frame.columns})
        except (ColumnError, UndefinedMetricError, EngineError) as e:
            out.append(e)
    return out


def _joins(m: Metric, values: dict) -> bool:
    """Whether a call can join others in one statement: one value (or record) of the data alone, from
    its rows as they are (no checks across them), without slices."""
    return (m.kind != "curve" and not _relation_params(m, values) and not m.checks and not m.unique
            and not values.get("by") and values.get("pos_label") is None and not (m.averaged and values["average"] is None))


def _together(engine, validated: list, source: Source, data) -> dict[int, dict]:
    """index -> the details row of each call computed in one statement (compute_many), or the error its
    checks raise where its screens fired; the calls not there are computed on their own."""
    require_repeatable(source.relation, engine.dialect, source.description)
    opened = {"data": source}
    schemas = {"data": engine.schema(source)}
    prepared = {}
    for i, call in enumerate(validated):
        if isinstance(call, Exception) or not _joins(*call):
            continue
        try:
            prepared[i] = _prepared(engine, *call, opened, schemas, data, dropna=False, details=True, per_query=False,
                                    fold=True)
        except (ColumnError, ParameterError, EngineError):
            continue  # said by its own call
    prepared = {i: c for i, c in prepared.items() if c.folded == {"data"} and not c.unique}
    if len(prepared) < 2:
        return {}
    first = next(iter(prepared.values()))
    read = first.read("data").relation.args["from_"].this
    inputs = {}
    if first.inputs:  # one CTE of every column any call reads, by the name each reads it
        (name, query), = first.inputs.items()
        columns = {col.sql(): col for c in prepared.values() for col in c.inputs[name].selects}
        inputs = {name: exp.select(*columns.values()).from_(query.args["from_"].this)}
    screens = exp.select(*(c.checked["data"].screen.selects[0].as_(f"sm_screen_{i}") for i, c in prepared.items()))
    gates = {i: exp.select(exp.column(f"sm_screen_{i}")).from_("sm_screens").subquery().eq(0) for i in prepared}
    parts = [(i, _rendered(c.m, c.values, c.target, c.plan, relation=f"{PLACEHOLDER}_{i}"),
              c.read("data").relation.where(gates[i], copy=True)) for i, c in prepared.items()]
    sql, columns = finish_side_by_side(parts, inputs | {"sm_screens": screens.from_(read)}, Target(engine.dialect))
    try:
        row = engine.one_row(sql)
    except EngineError:  # each call on its own says why
        return {}
    out = {}
    for i, call in prepared.items():
        if not row[f"sm_screen_{i}"]:
            out[i] = {c: _python(row[f"sm_{i}_{c}"]) for c in columns[i]}
            continue
        try:
            call.diagnose()  # in the statement's snapshot, once for the calls that share checks
        except NotBinaryError:
            continue  # classes, which its own call may take (accuracy)
        except ColumnError as e:
            out[i] = e
    return out


def _given(m: Metric, values: dict, data) -> dict:
    """slot -> the relation given for it: the data, and each relation parameter's."""
    return {"data": data} | {p.name: values[p.name] for p in _relation_params(m, values)}


def _opened(engine, stack: ExitStack, m: Metric, values: dict, data) -> dict[str, Source]:
    """slot -> the relation given for it, open for the call."""
    opened = {slot: stack.enter_context(engine.source(value, slot)) for slot, value in _given(m, values, data).items()}
    stack.enter_context(_label_advice(m, values, engine, opened))
    for source in opened.values():
        require_repeatable(source.relation, engine.dialect, source.description)
    return opened


@dataclass
class _Call:
    """A metric call checked and planned, ready to run: its statement and what explains a failure."""
    engine: object
    m: Metric
    values: dict
    checked: dict  # slot -> _Checked
    unique: list  # [(slot, keys)] that must not repeat
    target: Target
    plan: str | None
    per_query: bool
    single: bool  # one value (or record), not a frame

    @property
    def folded(self) -> set[str]:
        """The slots whose screens ride in the metric's statement."""
        return {slot for slot, c in self.checked.items() if c.screen is not None}

    @property
    def sources(self) -> dict[str, Source]:
        return {slot: c.source for slot, c in self.checked.items()}

    @property
    def inputs(self) -> dict[str, exp.Query]:
        return {name: query for c in self.checked.values() for name, query in c.inputs.items()}

    @property
    def screens(self) -> list[exp.Query]:
        """The queries of one value, nonzero where a check may fail: each folded source's, and its keys' repeats."""
        return [c.screen for c in self.checked.values() if c.screen is not None] + [
            _screen_over(checks.duplicates_screen(keys, _from_sql(self.read(slot)), self.engine.dialect))
            for slot, keys in self.unique if slot in self.folded]

    def screen(self) -> exp.Expression | None:
        """The screens as one value: their sum."""
        return functools.reduce(lambda a, b: exp.Add(this=a, expression=b),
                                (s.subquery() for s in self.screens)) if self.screens else None

    def read(self, slot: str) -> Source:
        """The source of `slot` as the metric's statement reads it (from the input's CTE, where it has one)."""
        return self.checked[slot].in_statement or self.checked[slot].source

    def sql(self, inputs: dict | None = None, screen: exp.Expression | None = None, **extra) -> str:
        """The metric's statement, with further template arguments; reading the inputs' CTEs, given them."""
        sources = {slot: self.read(slot) for slot in self.checked} if inputs else self.sources
        return _sql(self.m, self.values, sources, self.target, self.plan, self.per_query, extra, inputs, screen)

    def diagnose(self) -> None:
        """Raise what a screen or guard found, if anything: each check, then each key that must be unique."""
        for c in self.checked.values():
            c.explain()
        for slot, keys in self.unique:
            _check_unique(self.engine, self.sources[slot], keys, screened=slot in self.folded)

    def failed(self) -> None:
        """After the engine failed the statement: what a guard or a screened value says, in a span that can ask."""
        if self.folded:
            self.engine.renew()
        self.diagnose()


def _prepared(engine, m: Metric, values: dict, opened: dict[str, Source], schemas: dict, data, *, dropna: bool,
              details: bool, per_query: bool, fold: bool) -> _Call:
    """The call checked (names, types; values by screens, which ride in its statement with `fold`, where a
    failure leaves a way to ask what failed: not the caller's aborted DuckDB transaction) and planned.
    `opened`, `schemas`: slot -> the relation given for it, and its columns."""
    values = _as_the_engine_reads(m, values, schemas, engine.dialect)
    placement = _placement(m, values)
    renames = {v: k for k, v in qrels_names(m, values).items()}  # the qrels' column -> the metric's
    placement = _slices_placed(placement, values, schemas, {s: o.description for s, o in opened.items()})
    caps = engine.capabilities
    fold = fold and caps.screens_in_statement and (engine.renewable or not caps.failure_aborts)
    given = _given(m, values, data)
    checked = {slot: _check_source(engine, source, schemas[slot], placement.get(slot, []), dropna,
                                   renames if slot == "qrels" else {}, given[slot],
                                   _no_judgments(m, values) if slot == "data" else None, slot, fold)
               for slot, source in opened.items()}
    sources = {slot: c.source for slot, c in checked.items()}
    _check_key_types(placement, {slot: c.kinds for slot, c in checked.items()}, sources)
    unique = _unique_keys(m, values, sources, _slices_held(placement, values))
    # pos_label as the label column's value: of its type where columns have one
    pos_label = (labels.pos_label(values, placement, checked["data"].kinds, checked["data"].types)
                 if engine.typed_values else values.get("pos_label"))
    booleans = frozenset(col for c in checked.values() for col in c.booleans)
    texts = frozenset(col for c in checked.values() for col in c.texts)
    # the columns of each checked source, under the metric's names: where each by column is
    columns = tuple((_placeholder(slot), tuple(renames.get(col, col) if slot == "qrels" else col
                                               for _, col, _ in placement.get(slot, [])))
                    for slot in sources)
    target = Target(engine.dialect, booleans=booleans, texts=texts, positive=labels.positive_literal(pos_label),
                    relation_columns=columns)
    call = _Call(engine, m, values, checked, unique, target, None, per_query,
                 _single_value(m, values, details, per_query))
    try:
        _check_across(engine, m, values, sources, pos_label, _slices_held(placement, values),
                      [(slot, keys) for slot, keys in unique if slot not in call.folded])
        call.plan = (m.plan.choose_from(engine.rows_once, _from_sql(opened["data"]), values, checked["data"].n_rows,
                                        engine.dialect) if m.plan else None)
    except (ColumnError, ParameterError):
        call.diagnose()  # the values' own checks speak first, as they did when they ran first
        raise
    except EngineError:
        call.failed()
        raise
    return call


def _screen_over(sql: str) -> exp.Query:
    """A screen query written in DuckDB's SQL (checks), over sources that DuckDB writes as they are."""
    return exp.maybe_parse(sql, dialect="duckdb")


def _screen_fired(result, single: bool) -> bool:
    """Whether the screens in the result's sm_screen column (taken out of it) fired; a result without rows
    does not say, and counts as fired."""
    if single:
        return not result or bool(result.pop("sm_screen"))
    fired = result.pop("sm_screen")
    return len(fired) == 0 or bool(fired.fillna(1).astype(float).any())


@contextmanager
def _label_advice(m: Metric, values: dict, engine, sources: dict[str, Source]):
    """A column that is not 0/1 (NotBinaryError) said with what to pass instead, from its values in the
    relation it is of (`sources`: slot -> source; labels.not_binary); where the metric takes classes
    instead (labels.micro_when_not_binary), as it is for compute to take them, unless one holds a fraction."""
    try:
        yield
    except NotBinaryError as e:
        source = sources[e.slot]
        schema = engine.schema(source)

        def fractions(col: str) -> bool:
            return checks.may_hold_fractions(engine.type_class(schema[col]), schema[col], engine.dialect)

        def first_values(col: str) -> list:  # up to three, a fraction first where the column may hold one
            sql = labels.values_query(col, fractions(col), _from_sql(source))
            return [v for (v,) in engine.rows(transpile(sql, engine.dialect))]
        if labels.micro_when_not_binary(m, values) is None:
            raise labels.not_binary(m, values, e, first_values(e.column)) from None
        for param in ("label", "prediction"):  # classes, unless one holds a fraction (a probability?)
            found = first_values(values[param]) if fractions(values[param]) else []
            if not labels.are_classes(found):
                raise labels.not_classes(param, values[param], found[0]) from None
        raise  # classes: compute takes them


@dataclass(frozen=True)
class _Checked:
    source: Source  # reduced to the columns the metric uses (NULL rows dropped with dropna; guarded on Spark)
    kinds: dict[str, str]  # column -> type class
    types: dict[str, str]  # column -> the engine's type name
    booleans: frozenset[str]  # label/prediction columns of boolean type
    texts: frozenset[str]  # class columns of text type
    n_rows: int | None  # of the source as given (None where the checks are guards or screens of the metric's statement)
    explain: Callable[[], None]  # raises the ColumnError of a failed guard or screen (nothing when none can fail)
    screen: exp.Query | None = None  # a query of one value, nonzero where a check may fail: for the metric's statement
    inputs: dict[str, exp.Query] = field(default_factory=dict)  # the CTE the source reads, where it is written once
    in_statement: Source | None = None  # `source` as the metric's statement reads it (from `inputs`)


def _no_judgments(m: Metric, values: dict) -> dict[str, str]:
    """Without qrels the judgments are the run's own columns: where it lacks one, the advice is qrels."""
    if "qrels" not in values or values["qrels"] is not None:
        return {}
    return {p.name: f"the run has no judgments: pass qrels= (the judgments: query, item, relevance), or "
                    f"{p.name}= the run's column of them." for p in m.params if p.where == "judgments"}


def _as_the_engine_reads(m: Metric, values: dict, schemas: dict, dialect: str) -> dict:
    """`values` with each column name no column spells exactly read as the engine reads it unquoted
    (checks.as_the_engine_reads: label='label' is the column LABEL on Snowflake), where every relation
    that must have it agrees."""
    read: dict[tuple[str, str], set[str]] = {}
    for slot, wanted in _placement(m, values).items():
        for param, col, _ in wanted:
            read.setdefault((param, col), set()).add(checks.as_the_engine_reads(col, schemas[slot], dialect))
    renamed = {key: found.pop() for key, found in read.items() if len(found) == 1 and key[1] not in found}
    if not renamed:
        return values
    out = dict(values)
    for (param, col), name in renamed.items():
        if out.get(param) == col:
            out[param] = name
        elif isinstance(out.get(param), (list, tuple)):
            out[param] = [name if c == col else c for c in out[param]]
    return out


def _check_source(engine, source: Source, schema, wanted: list, dropna: bool, renames: dict[str, str],
                  data=None, advice: dict[str, str] | None = None, slot: str = "data", fold: bool = False) -> _Checked:
    """Check one relation's columns: names and types now; values by a cheap screen and, where it fires,
    the query that says what failed. With `fold` the screen is a column of the metric's own statement
    (_Checked.screen: one read of the input), else a query now; where the engine can fail a query from
    a row (Capabilities.guards_rows), the checks are guards in the metric's own query instead. The checks
    name the relation's own columns; `renames` (its column -> the metric's) names them for the metric.
    `data`: what the user gave, for the advice on a file's numbers read as text; `advice`: on a missing
    column, see checks.require_columns; `slot`: the relation it is ("data", or the parameter that gave it),
    named in the messages."""
    named = source.description if slot == "data" else f"{source.description} given as {slot}"
    checks.require_columns([(param, col) for param, col, _ in wanted], schema, named, advice)
    twice = sorted({col for _, col, _ in wanted if col in schema.duplicated})
    if twice:
        raise ColumnError(f"{named} has more than one column named {twice[0]!r} (names that differ "
                          "only in case count as one here): the engine would pick one; rename the others")
    kinds = {col: engine.type_class(schema[col]) for _, col, _ in wanted}
    booleans = frozenset(col for _, col, role in wanted if role in ("label", "binary", "indicator")
                         and kinds[col] == "boolean")
    texts = frozenset(col for _, col, role in wanted if role == "class" and kinds[col] == "other")
    found = {}
    for param, col, role in wanted:
        try:
            found.setdefault(col, []).extend(
                checks.column_checks(param, role, col, kinds[col], schema[col], engine.dialect, slot,
                                     source.description))
        except ColumnError as e:  # a number read as text: in a CSV file, say which values did it
            hint = text_values_hint(data, col, engine.rows) if data is not None and kinds[col] == "other" else ""
            if not hint:
                raise
            raise ColumnError(f"{e}{hint}") from None
    everything = [c for column_checks in found.values() for c in column_checks]
    nullable = [col for _, col, role in wanted if role != "slice"]

    def run_checks() -> tuple[int, int]:
        check_sql = transpile(checks.check_query(everything, _from_sql(source), nullable if dropna else None),
                              engine.dialect)
        return checks.interpret(everything, engine.rows_once(check_sql)[0], dropna)

    caps = engine.capabilities
    guards = caps.guards_rows and not dropna
    # the screen rides in the metric's statement, where a diagnostic query can follow its failure
    # (Engine.renew); the input is then written once (Capabilities.input_once) for both to read
    folded = fold and not guards and not dropna
    name = f"sm_input_{slot}"
    raw = _from_expr(source)
    read = exp.to_table(name) if folded and (caps.input_once or source.read_once) else raw
    # Only the columns the metric uses leave the source: no other column of the data (one named like
    # an intermediate column of a template, say) can reach the metric's SQL.
    # SQLite: a query's columns have no declared type, but may carry a table column's collation
    exact = {col for _, col, role in wanted if (kinds[col] == "other" or engine.capabilities.loose_types)
             and role in ("key", "class", "slice", "group", "category")}
    columns = [exp.maybe_parse(checks.guarded(found[col], col, engine.dialect), dialect="duckdb")
               .as_(renames.get(col, col), quoted=True) if guards
               else _exact_text(col, schema[col], engine).as_(renames.get(col, col), quoted=True) if col in exact
               else exp.column(col, quoted=True).as_(renames[col], quoted=True) if col in renames
               else exp.column(col, quoted=True) for col in found]
    query = exp.select(*columns).from_(raw)
    if dropna:
        n_rows, null_rows = run_checks()
        if null_rows:
            query = query.where(checks.null_filter(nullable), dialect="duckdb")
            warnings.warn(f"dropna=True dropped {null_rows} of {n_rows} rows of {named} with NULL in "
                          f"{', '.join(repr(c) for c in dict.fromkeys(nullable))}", stacklevel=7)
    elif not guards and not folded:
        n_rows, *screened = engine.first_row(transpile(checks.screen_query(everything, _from_sql(source)),
                                                       engine.dialect))
        if any(screened):
            run_checks()  # raises, unless the screen fired on a clean column
    else:
        n_rows = None
    flag = checks.screen_flag(everything) if folded else None
    screen = exp.select(exp.maybe_parse(flag, dialect="duckdb")).from_(read) if flag else None
    inputs = {name: exp.select(*(exp.column(col, quoted=True) for col in found)).from_(raw)} if read is not raw else {}
    booleans, texts = (frozenset(renames.get(c, c) for c in cols) for cols in (booleans, texts))
    in_statement = Source(query.from_(read, copy=True), source.description) if inputs else None
    return _Checked(Source(query, source.description), kinds, {col: schema[col] for col in kinds}, booleans, texts, n_rows,
                    run_checks if guards or folded else lambda: None, screen, inputs, in_statement)


def _exact_text(col: str, type_name: str, engine) -> exp.Expression:
    """A key column that is not a number as the metric compares it: byte by byte (Capabilities.exact_text,
    in the engine's own syntax: as a native call of the generic SQL, templates.native_call)."""
    caps = engine.capabilities
    exact = caps.exact_text("sm_arg_0", type_name)
    if not exact:
        return exp.column(col, quoted=True)
    generic = exact.replace("sm_arg_0", checks.quote(col)) if caps.template_syntax else native_call(
        caps.name, exact, {"sm_arg_0": checks.quote(col)})
    return exp.maybe_parse(generic, dialect="duckdb")


def _check_across(engine, m: Metric, values: dict, sources: dict[str, Source], pos_label,
                  slices: dict[str, list[str]], unique: list) -> None:
    """The checks across rows and relations: pos_label one of two labels, keys that must be unique
    (`unique`: [(slot, keys)] not screened in the metric's statement), one value per query of a slice
    that one side (the run, or the qrels) gives the other (`slices`: slot -> the by columns it has),
    then the metric's own."""
    if pos_label is not None:
        labels.require_two_values(m, values, pos_label, _from_sql(sources["data"]),
                                  lambda sql: engine.rows(transpile(sql, engine.dialect)))
    for slot, keys in unique:
        _check_unique(engine, sources[slot], keys)
    relations = {slot: _from_sql(source) for slot, source in sources.items()}
    def rows(sql: str) -> list[tuple]:
        return engine.rows(transpile(sql, engine.dialect))
    if "qrels" in sources:
        for slot, columns in slices.items():
            other = slices["data" if slot == "qrels" else "qrels"]
            consistency.run_checks([consistency.one_slice_per_query(col, values["query"], relations[slot],
                                                                    sources[slot].description, slot == "qrels")
                                    for col in columns if col not in other], rows)
    consistency.run(m.checks, values, relations, rows)


def _unique_keys(m: Metric, values: dict, sources: dict[str, Source], slices: dict[str, list[str]]) -> list:
    """[(slot, keys)]: the relations whose key combinations must not repeat, and those keys."""
    slots = ["data", "qrels"] + [p.name for p in m.params if p.like_data]
    return [(slot, slices[slot] + [values[k] for k in m.unique]) for slot in slots if m.unique and slot in sources]


def _check_key_types(placement: dict, kinds: dict, sources: dict) -> None:
    """Keys joined across relations (query, item, by; a similarity's or catalogue's item ids) must
    have comparable types: engines compare 1 and '1' by coercing one side, which collapses distinct
    ids ('01' and '1') or fails on some engines only."""
    family = {}
    for slot, wanted in placement.items():
        for param, col, role in wanted:
            if role == "class":  # true and predicted classes are compared with each other (1 and 1.0 alike)
                family.setdefault("classes", []).append((slot, col, _key_class(kinds[slot][col], exact=False)))
            elif role == "category":  # compared as text across the windows: 1 and 1.0 would be two categories
                family.setdefault(f"categories of {col!r}", []).append((slot, col, _key_class(kinds[slot][col])))
            elif role == "key":
                # each by column is a key of its own; a catalogue's or similarity's ids are item ids
                key = "item ids" if slot in ("similarity", "items") else (
                    f"{col!r} values" if param == "by" else f"{param.removeprefix('qrels_')} ids")
                family.setdefault(key, []).append((slot, col, _key_class(kinds[slot][col])))
    for key, members in family.items():
        classes = {cls for _, _, cls in members}
        if len(classes) > 1:
            shown = "; ".join(f"{sources[slot].description}{'' if slot == 'data' else ' given as ' + slot} column "
                              f"{col!r} is {cls}" for slot, col, cls in members)
            # whole-number ids stored as floats (pandas makes them so): back to integers; else both as text
            floats = [col for _, col, cls in members if cls == _key_class("float")]
            cast = (f"CAST({floats[0]} AS BIGINT)" if classes == {_key_class("float"), _key_class("numeric")}
                    else f"CAST({members[0][1]} AS VARCHAR)")
            raise ColumnError(f"the {key} must have the same type in every relation, as they are matched "
                              f"exactly: {shown}; cast one side in a sqlmetrics.Query (e.g. {cast})")


def _key_class(kind: str, exact: bool = True) -> str:
    """Keys of one class compare exactly. With `exact` (ids), an integer and a float are two classes: an
    engine compares them as doubles, where ids above 2^53 (an id column that once held a NaN, in
    pandas) collapse into one; classes (a model's predicted 1.0 for the label 1) are numbers alike."""
    numbers = {"float": "a floating-point number", "numeric": "an integer (or decimal)"} if exact else {
        "float": "a number", "numeric": "a number"}
    return {**numbers, "boolean": "a boolean"}.get(kind, "text")


def _check_unique(engine, source: Source, keys: list[str], screened: bool = False) -> None:
    """Raise where a combination of `keys` repeats in `source`; `screened`: its screen has fired already."""
    if not screened and not engine.first_row(transpile(checks.duplicates_screen(keys, _from_sql(source), engine.dialect),
                                                       engine.dialect))[0]:
        return
    rows = engine.rows(transpile(checks.duplicates_query(keys, _from_sql(source)), engine.dialect))
    if rows:
        n = engine.first_row(transpile(checks.duplicates_query(keys, _from_sql(source), count=True),
                                       engine.dialect))[0]
        example = ", ".join(f"{k}={v!r}" for k, v in zip(keys, rows[0]))
        raise ColumnError(
            f"{source.description} has {n} duplicated ({', '.join(keys)}) combination{'s' if n > 1 else ''}, "
            f"e.g. {example}: each item may appear once per query; deduplicate first")


def _from_expr(source: Source) -> exp.Expression:
    return as_from(source.relation)


def _from_sql(source: Source) -> str:
    return _from_expr(source).sql("duckdb")


def _python(value):
    """A numpy scalar as a plain Python int/float (NaN for missing)."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or instance_of(value, "pandas", "NA"):
        return math.nan
    item = getattr(value, "item", None)
    return item() if item else value


def _single_value(m: Metric, values: dict, details: bool, per_query: bool) -> bool:
    """Whether the result is one value (or one record), not a frame."""
    return not (details or per_query or values.get("by") or m.kind == "curve"
                or (m.averaged and values["average"] is None))


def _value(m: Metric, row: dict):
    """The value of a one-row result (a dict for a record); UndefinedMetricError where it has none."""
    if not row or any(math.isnan(_python(row[c])) for c in m.value_columns):
        _undefined(m, row)
    if m.kind == "record":
        return {c: _python(row[c]) for c in m.outputs}
    return int(row[m.name]) if m.count else float(row[m.name])


def _undefined(m: Metric, row: dict) -> NoReturn:
    counts = {c: _python(row[c]) for c in m.outputs if c.startswith("n") and row}
    shown = ", ".join(f"{k}={v}" for k, v in counts.items())
    raise UndefinedMetricError(f"{m.name} is undefined on this data: {m.undefined}" + (f" ({shown})" if shown else ""))


def _shape(m: Metric, df: pd.DataFrame, values: dict, details: bool, per_query: bool = False) -> pd.DataFrame:
    import pandas as pd  # a frame is the result: pandas is loaded already
    by = list(values.get("by") or [])
    sensitive = values.get("sensitive") or []  # group_disparity's per-group rows carry the groups' columns
    keys = set(by) | set([sensitive] if isinstance(sensitive, str) else sensitive) | TEXT_OUTPUTS \
        | ({values["query"]} if per_query else set())
    for column in [c for c, dtype in df.dtypes.items() if dtype == object and c not in keys]:
        df[column] = pd.to_numeric(df[column])  # drivers give NULL as None: NaN, as DuckDB gives it
    for column in [c for c, dtype in df.dtypes.items() if isinstance(dtype, pd.api.extensions.ExtensionDtype)
                   and dtype.kind in "iu" and c not in keys and df[c].isna().any()]:
        df[column] = df[column].astype(float)  # DuckDB's NULL integer (pandas' <NA>): NaN, as other drivers give it
    for column in TEXT_OUTPUTS & set(df.columns):  # a missing class is None, whatever the driver's own missing value
        # text compared byte by byte is a binary string on MySQL (helpers.sql bytewise): its UTF-8 as text
        text = df[column].map(lambda v: v.decode("utf-8") if isinstance(v, (bytes, bytearray)) else v)
        df[column] = text.astype(object).where(text.notna(), None)
    if per_query:
        return df
    if m.averaged and values["average"] is None:  # one row per class
        return df.sort_values(by + ["class"], na_position="last", kind="stable").reset_index(drop=True)
    if by:
        if m.kind != "curve":
            df = df.sort_values(by, na_position="last", kind="stable")
        return df.reset_index(drop=True)
    if m.kind == "curve" and (len(df) == 0 or any(df[c].isna().all() for c in m.value_columns)):
        _undefined(m, df.iloc[0].to_dict() if len(df) else {})
    return df  # details=True: the one row with its counts
