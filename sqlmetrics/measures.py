"""Measure strings, as users of trec_eval, ir_measures and ranx write them, read as those tools define them.

A string is read as every tool that spells it so reads it, sqlmetrics' own names included: ``P_5``
is trec_eval's, ``P(rel=2)@5`` ir_measures', ``ndcg_burges@10`` ranx's, ``map`` trec_eval's, ranx's
and sqlmetrics'. Each reading fixes what its tool fixes: the gain of nDCG and DCG, the order of
tied scores, the relevance level; it leaves the rest to the caller's options, as the tool does
(trec_eval's ``-l``; the order of ranx's tied scores, which ranx leaves to numba's sort; the gain
of sqlmetrics' own ``ndcg`` and ``dcg``). ``resolve`` takes the call's options (``gain``, ``ties``,
``relevance_threshold``): each must be one that some reading of every measure allows, or it is
refused, naming the spelling that gives it; without them, a measure takes what its readings
share (linear gain, trec_eval's order of ties, relevance from grade 1).

Matching is by the exact spelling first (``nDCG@10`` is ir_measures', ``ndcg@10`` ranx's and
sqlmetrics'), then regardless of case; a measure keeps the text as written, the name of its column.
Each metric declares its spellings in its registry entry (``measure_names``, made with trec_eval(),
ir_measures(), ranx() and sqlmetrics() below); the registry gathers them into a Catalogue, which the
functions here read.
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, replace

from .errors import ParameterError

TREC_EVAL, IR_MEASURES, RANX, SQLMETRICS = "trec_eval", "ir_measures", "ranx", "sqlmetrics"


@dataclass(frozen=True)
class Reading:
    """One tool's measure of a spelling. None for gain, ties or level: the tool leaves it to its caller."""
    tool: str
    metric: str
    # "optional" @k, "required" @k, "whole" (no @k), "named" (in the name: P_5); "level" and
    # "named_level": a recall level in place of k (IPrec@0.5, iprec_at_recall_0.50); "named_multiple": a
    # multiple of R in the name, the metric's parameter `multiple` (Rprec_mult_0.20)
    cutoff: str
    gain: str | None = None  # ndcg and dcg: the gain
    ties: str | None = "item_desc"  # the order of tied scores
    level: float | None = None  # the relevance level: ir_measures' rel=, ranx's -lN (default 1)
    params: tuple = ()  # (parameter, value) of the metric the tool fixes: ir_measures' RBP has p = 0.8
    options: tuple = ()  # (option, parameter): the string's own parameters, RBP(p=0.9), SetF(beta=2)
    dotted: str | None = None  # what NAME.X says: "pairs" (rbp.p=0.8), "beta_squared" (set_F.0.25: x = beta^2)


@dataclass(frozen=True)
class Spelling:
    """A name a tool gives a metric, in its registry entry (the registry fills in the reading's metric)."""
    text: str
    reading: Reading


def trec_eval(name: str, cutoff: str = "whole", gain: str | None = None, params: dict | None = None,
              dotted: str | None = None) -> Spelling:
    """trec_eval's measure `name` (cutoff "named": its NAME_K form, such as P_5; dotted: what its
    NAME.X parameter form says): trec_eval's order of tied scores; its relevance level is -l, the call's."""
    return Spelling(name, Reading(TREC_EVAL, "", cutoff, gain, params=tuple((params or {}).items()), dotted=dotted))


def ir_measures(name: str, cutoff: str, gain: str | None = None, ties: str = "item_desc", params: dict | None = None,
                options: dict | None = None, level: float | None = 1.0) -> Spelling:
    """ir_measures' measure `name`: its relevance level is the measure's rel= (default `level`; None: the
    measure means something else without rel=, so rel= is required); `options`, its other parameters
    (p=, beta=) and the metric parameter each sets."""
    return Spelling(name, Reading(IR_MEASURES, "", cutoff, gain, ties, level, tuple((params or {}).items()),
                                  tuple((options or {}).items())))


def ranx(name: str, gain: str | None = None, cutoff: str = "optional") -> Spelling:
    """ranx's metric `name`: its relevance level is the measure's -lN (default 1); the order of tied
    scores it leaves to numba's sort, so to the call."""
    return Spelling(name, Reading(RANX, "", cutoff, gain, None, 1.0))


def sqlmetrics(name: str, cutoff: str = "optional") -> Spelling:
    """sqlmetrics' own name of the metric: every option is the call's."""
    return Spelling(name, Reading(SQLMETRICS, "", cutoff, None, None))


@dataclass(frozen=True)
class Measure:
    name: str  # as written: the name of its output column
    metric: str  # the registered metric
    k: int | None = None  # the cut-off (None: the whole list)
    readings: tuple[Reading, ...] = ()  # the tools' readings of the spelling (after resolve: the one used)
    gain: str | None = None  # a gain-based metric's, once resolved
    gain_based: bool = False  # its value scores the grades (ndcg, dcg): the relevance level does not change it
    params: tuple = ()  # (parameter, value) of the metric the spelling sets: persistence, beta, recall_levels
    level_free: bool = False  # the relevance level does not change its value (ndcg, graded rbp, Judged@k)


@dataclass(frozen=True)
class Catalogue:
    """The spellings of the metrics that have measure names, gathered from the registry."""
    spellings: dict  # exact spelling -> its readings
    cut_names: dict  # NAME of trec_eval's NAME_K -> its reading
    gain_based: frozenset  # metrics whose value scores the grades (those with a gain parameter)
    level_free: frozenset  # metrics whose value the relevance level does not change (gain-based ones too)
    own_names: dict  # metric -> sqlmetrics' own name of it, for the advice of an error

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics named, in the order their entries came."""
        return tuple(dict.fromkeys(r.metric for readings in self.spellings.values() for r in readings))


def catalogue(names: dict, gain_based, level_free) -> Catalogue:
    """The Catalogue of `names`, metric -> its Spellings; `gain_based`, the metrics that score grades;
    `level_free`, those without a relevance level."""
    spellings: dict[str, tuple[Reading, ...]] = {}
    cut_names: dict[str, Reading] = {}
    own: dict[str, str] = {}
    for metric, metric_spellings in names.items():
        for spelling in metric_spellings:
            reading = replace(spelling.reading, metric=metric)
            if reading.cutoff in ("named", "named_level", "named_multiple"):
                cut_names[spelling.text] = reading
            else:
                spellings[spelling.text] = spellings.get(spelling.text, ()) + (reading,)
            if reading.tool == SQLMETRICS and reading.cutoff != "whole" and own.get(metric) != metric:
                own[metric] = spelling.text  # the metric's own name where it is one, else its first
    return Catalogue(spellings, cut_names, frozenset(gain_based), frozenset(level_free) | frozenset(gain_based), own)


#: ir_measures' nDCG(dcg=...) parameter: its gain (log2: pytrec_eval's ndcg_cut; exp-log2: gdeval.pl)
_IR_MEASURES_DCG = {"log2": "linear", "exp-log2": "exponential"}
#: measures other libraries name that evaluate does not compute, and what to use instead
ELSEWHERE = {
    "hits": "ranx's hits (relevant items in the top k, averaged over queries) is P@k times k",
    "f1": "ranx's f1 is not a sqlmetrics measure: use P@k and R@k",
    "numrel": "ir_measures' NumRel counts a judged query absent from the run 0, trec_eval -c its relevant items: "
              "write trec_eval's num_rel, with missing='skip' for ir_measures' number",
    "numret": "ir_measures' NumRet is two measures, the items retrieved without rel= and NumRelRet with it: write "
              "trec_eval's num_ret, or NumRelRet(rel=N)",
}
_FORM = re.compile(r"(?P<name>[A-Za-z0-9][A-Za-z0-9_\-]*?)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>[^@]*?))?"
                   r"(?:-l(?P<level>[^@-]*))?")
_DIGITS = re.compile(r"[0-9]+")  # not str.isdigit, which takes '²' and other digits int() refuses

def parse(text, cat: Catalogue) -> Measure:
    """The measure a string names, with the readings its spelling allows in `cat`; ParameterError for
    an unknown or malformed one."""
    if not isinstance(text, str):
        raise ParameterError(f"a measure is a string such as 'ndcg@10'; got {text!r}")
    written = text.strip()
    cut = _cut_name(written, cat)
    if cut:
        reading, k = cut
        if reading.cutoff == "named_level":
            return _measure(text, None, (reading,), cat, (("recall_levels", (_recall_level(text, k),)),))
        if reading.cutoff == "named_multiple":
            return _measure(text, None, (reading,), cat, (("multiple", _multiple(text, k)),))
        return _measure(text, _cutoff(text, k), (reading,), cat)
    dotted = _dotted(text, written, cat)
    if dotted:
        return dotted
    form = _FORM.fullmatch(written)
    readings = _readings(form["name"], cat) if form else ()
    if not readings:
        raise _unknown(text, form["name"] if form else written, cat)
    if form["k"] is not None and readings[0].cutoff == "level":  # IPrec@0.5: a recall level
        fitting = _with_parameters(text, readings, form["params"], form["level"], False)
        return _measure(text, None, fitting, cat,
                        fitting[0].params + (("recall_levels", (_recall_level(text, form["k"]),)),))
    k = None if form["k"] is None else _cutoff(text, form["k"])
    fitting = tuple(r for r in readings if {"optional": True, "required": k is not None, "whole": k is None,
                                            "level": False}[r.cutoff])
    if not fitting:
        if k is not None:
            raise ParameterError(f"measure {text!r}: {form['name']} takes no @k (it is computed over the whole list)")
        whole = {"precision_at_k": "set_P", "recall_at_k": "set_recall"}.get(readings[0].metric)
        raise ParameterError(f"measure {text!r} needs a cut-off, e.g. {written}@10"
                             + (f" ({whole} for the whole list)" if whole else ""))
    gain_based = fitting[0].metric in cat.gain_based
    fitting = _with_parameters(text, fitting, form["params"], form["level"], gain_based)
    if any(r.tool == IR_MEASURES and r.level is None for r in fitting):
        raise ParameterError(f"measure {text!r}: ir_measures' {form['name']} without rel= scores graded relevance "
                             f"through a provider whose gains sqlmetrics does not reproduce; write its level, as "
                             f"{form['name']}(rel=1), or trec_eval's graded rbp")
    return _measure(text, k, fitting, cat, fitting[0].params)


def _measure(text: str, k: int | None, readings: tuple[Reading, ...], cat: Catalogue, params: tuple = ()) -> Measure:
    metric = readings[0].metric
    return Measure(text, metric, k, readings, gain_based=metric in cat.gain_based, params=params,
                   level_free=metric in cat.level_free or dict(params).get("graded") is True)


def _dotted(text: str, written: str, cat: Catalogue) -> Measure | None:
    """trec_eval's NAME.PARAMETERS (rbp.p=0.8, set_F.0.25: its x, beta squared), else None."""
    name, dot, rest = written.partition(".")
    readings = tuple(r for r in _readings(name, cat) if r.dotted) if dot else ()
    for reading in readings:
        value = _dotted_value(rest, reading)
        if value is None:
            continue
        if not (0 < value[1] < float("inf")) or (value[0] == "persistence" and value[1] >= 1):
            raise ParameterError(f"measure {text!r}: {value[0]} must be > 0"
                                 + (" and < 1" if value[0] == "persistence" else ""))
        reading = replace(reading, params=reading.params + (value,))
        return _measure(text, None, (reading,), cat, reading.params)
    if readings and _DIGITS.fullmatch(rest.partition("-l")[0]):
        raise ParameterError(f"measure {text!r}: ranx's {name}.NN weighs each item at or above its level by its raw "
                             f"grade, which its documentation and other tools do not; write trec_eval's "
                             f"{name}.p=0.{rest.partition('-l')[0]} (grades over the query's top grade) or ir_measures' "
                             f"RBP(p=0.{rest.partition('-l')[0]},rel=N) (relevance >= N counts 1): on 0/1 judgments the "
                             "three agree")
    if readings:
        forms = {"pairs": f"{name}.p=0.8", "beta_squared": f"{name}.0.25 (x, beta squared)"}
        raise ParameterError(f"measure {text!r}: write its parameter as "
                             + " or ".join(f"{_possessive(r.tool)} {forms[r.dotted]}" for r in readings))
    return None


def _dotted_value(rest: str, reading: Reading) -> tuple | None:
    """The metric parameter of NAME.`rest` as `reading`'s tool writes it; None when `rest` is not in its form."""
    try:
        if reading.dotted == "pairs":
            name, equals, value = rest.partition("=")
            return ("persistence", float(value)) if name.strip() == "p" and equals else None
        return ("beta", math.sqrt(float(rest))) if float(rest) >= 0 else None
    except ValueError:
        return None


def _recall_level(text: str, value: str) -> float:
    try:
        level = float(value)
    except ValueError:
        level = -1.0
    if not 0 <= level <= 1:
        raise ParameterError(f"measure {text!r}: the recall level is a number from 0 to 1, as in IPrec@0.5 or "
                             "iprec_at_recall_0.50")
    return level


def _multiple(text: str, value: str) -> float:
    try:
        multiple = float(value)
    except ValueError:
        multiple = 0.0
    if not 0 < multiple < float("inf"):
        raise ParameterError(f"measure {text!r}: the multiple of R is a number > 0, as in Rprec_mult_0.20")
    return multiple


def _cut_name(written: str, cat: Catalogue) -> tuple[Reading, str] | None:
    """trec_eval's NAME_K (P_5, ndcg_cut_10), regardless of case: its reading and K as written."""
    name, underscore, k = written.rpartition("_")
    matches = [r for n, r in cat.cut_names.items() if n.lower() == name.lower()] if underscore else []
    return (matches[0], k) if matches else None


def _readings(name: str, cat: Catalogue) -> tuple[Reading, ...]:
    """The readings of a name: its exact spelling's, else those of every spelling equal regardless of case."""
    if name in cat.spellings:
        return cat.spellings[name]
    return tuple(r for spelling, readings in cat.spellings.items() if spelling.lower() == name.lower()
                 for r in readings)


def _with_parameters(text: str, readings: tuple[Reading, ...], params: str | None, level: str | None,
                     gain_based: bool):
    """The readings that take the string's parameters: ir_measures' rel= and dcg=, ranx's -lN."""
    for name, value in _parameters(text, params):
        if name == "rel":
            threshold = _level(text, value, "rel=")
            readings = tuple(replace(r, level=threshold) for r in readings if r.tool == IR_MEASURES)
            what = "rel=N (ir_measures' relevance level)"
        elif name == "dcg" and value in _IR_MEASURES_DCG:
            readings = tuple(replace(r, gain=_IR_MEASURES_DCG[value]) for r in readings
                             if r.tool == IR_MEASURES and gain_based)
            what = "dcg=log2 or dcg=exp-log2 (ir_measures' nDCG)"
        elif any(option == name for r in readings for option, _ in r.options):
            number = _level(text, value, f"{name}=")
            readings = tuple(replace(r, params=tuple(p for p in r.params if p[0] != parameter) + ((parameter, number),))
                             for r in readings for option, parameter in r.options if option == name)
            what = None
        else:
            readings, what = (), None
        if not readings:
            raise ParameterError(f"measure {text!r}: unknown parameter {name}={value} (accepted: rel=N, the lowest "
                                 "relevant grade, in ir_measures' measures; for ir_measures' nDCG, dcg=log2 or "
                                 "dcg=exp-log2)" if what is None else f"measure {text!r}: {what} applies to "
                                 "ir_measures' spellings of the measure")
    if level is not None:
        threshold = _level(text, level, "-l")
        readings = tuple(replace(r, level=threshold) for r in readings if r.tool == RANX)
        if not readings:
            raise ParameterError(f"measure {text!r}: -lN (ranx's relevance level) applies to ranx's spellings")
        if gain_based and threshold != 1:
            raise ParameterError(f"measure {text!r}: ranx's {readings[0].metric} at a relevance level above 1 drops the "
                                 "gains of the grades below it, which sqlmetrics does not compute; drop -l (the gains "
                                 "are the grades)")
    return readings


def _level(text: str, value: str, what: str) -> float:
    try:
        threshold = float(value)
    except ValueError:
        raise ParameterError(f"measure {text!r}: {what} takes a number, the lowest relevant grade") from None
    if not 0 < threshold < float("inf"):
        raise ParameterError(f"measure {text!r}: {what} must be a number > 0")
    return threshold


def parse_all(texts, cat: Catalogue) -> tuple[Measure, ...]:
    """The measures of a list of strings (one string: a list of one); the same string twice (ignoring
    case) is refused, as its two columns would have one name."""
    if isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, (list, tuple)) or not texts:
        raise ParameterError(f"measures must be a non-empty list of measure strings such as ['ndcg@10', 'P@5', "
                             f"'map']; got {texts!r}")
    measures = tuple(parse(t, cat) for t in texts)
    seen = {}
    for m in measures:
        key = m.name.strip().lower()
        if key in seen:
            raise ParameterError(f"measures lists {seen[key]!r} and {m.name!r}: the same measure twice (its columns "
                                 "would have one name); list it once")
        seen[key] = m.name
    return measures


def resolve(measures: tuple[Measure, ...], gain: str | None, ties: str | None, threshold: float | None,
            cat: Catalogue) -> tuple[tuple[Measure, ...], str, float]:
    """The call's measures with their gains, and its one order of ties and one relevance level: each
    option given must be one some reading of every measure allows (it then chooses among them);
    an option not given takes what the measures' readings fix, else the default (linear gain,
    'item_desc', 1). Raises ParameterError, naming the measures and what to write instead."""
    if gain is not None:
        for m in measures:
            if m.gain_based and not any(r.gain in (None, gain) for r in m.readings):
                fixed = m.readings[0]
                raise ParameterError(f"measure {m.name!r} is {_whose(m)} {m.name.strip()}, with {fixed.gain} gain: "
                                     f"gain={gain!r} would not give its number; write {_with_gain(m, gain)} for "
                                     f"{gain} gain")
        measures = tuple(replace(m, readings=tuple(r for r in m.readings if r.gain in (None, gain))) for m in measures)
    ties = _one_per_call(measures, "ties", ties, "item_desc", "order of tied scores", cat)
    binary = tuple(m for m in measures if not m.level_free)  # the level does not change a graded value
    threshold = _one_per_call(binary, "level", threshold, 1.0, "relevance level", cat)
    resolved = []
    for m in measures:
        readings = tuple(r for r in m.readings if r.ties in (None, ties)
                         and (m.level_free or r.level in (None, threshold)))
        chosen = (gain or next((r.gain for r in readings if r.gain), "linear")) if m.gain_based else None
        resolved.append(replace(m, readings=readings, gain=chosen))
    return tuple(resolved), ties, threshold


def _one_per_call(measures, attribute: str, given, default, what: str, cat: Catalogue):
    """The call's one value of `attribute` (a reading's ties or level): `given`, if every measure has
    a reading that allows it; else the one value the measures fix; else `default`."""
    option = {"ties": "ties", "level": "relevance_threshold"}[attribute]
    fixed = {m.name: {getattr(r, attribute) for r in m.readings} for m in measures}
    if given is not None:
        refused = [m for m in measures if None not in fixed[m.name] and given not in fixed[m.name]]
        if refused:
            m = refused[0]
            raise ParameterError(f"measure {m.name!r} is {_whose(m)} {m.name.strip()}, whose {what} is "
                                 f"{_shown(attribute, min(fixed[m.name], key=str))}: {option}={given!r} would not give "
                                 f"its number; {_instead(m, attribute, cat)}")
        return given
    values = {m.name: v for m in measures if None not in fixed[m.name] for v in fixed[m.name]}
    if len(set(values.values())) > 1:
        shown = ", ".join(f"{name} {_shown(attribute, v)}" for name, v in values.items())
        raise ParameterError(f"one {what} per call: {shown}; evaluate them in separate calls")
    return next(iter(values.values()), default)


def _shown(attribute: str, value) -> str:
    if attribute == "ties":
        return {"item_desc": "by item id descending (trec_eval's)", "item_asc": "by item id ascending"}.get(value, value)
    return f"grades >= {value:g}"


def _whose(m: Measure) -> str:
    tools = list(dict.fromkeys(r.tool for r in m.readings if r.tool != SQLMETRICS))
    return " and ".join(map(_possessive, tools)) or "sqlmetrics'"


def _instead(m: Measure, attribute: str, cat: Catalogue) -> str:
    if attribute == "level":
        if any(r.tool == IR_MEASURES for r in m.readings):
            return "write its relevance level in the measure, as P(rel=2)@5"
        if any(r.tool == RANX for r in m.readings):
            return "write its relevance level in the measure, as precision@5-l2"
    own = cat.own_names.get(m.metric, m.metric)
    return f"write sqlmetrics' {own if m.k is None else f'{own}@{m.k}'} for a measure that takes the call's options"


def _with_gain(m: Measure, gain: str) -> str:
    cut = f"@{m.k}" if m.k else ""
    if gain == "exponential":
        return f"{m.metric}_burges{cut} (ranx) or {m.metric}{cut} with gain='exponential'"
    return f"{m.metric}{cut}"


def _cutoff(text: str, k: str) -> int:
    if not _DIGITS.fullmatch(k) or int(k) < 1:
        raise ParameterError(f"measure {text!r}: the cut-off must be a positive whole number, as in ndcg@10 or P_5")
    return int(k)


def _parameters(text: str, params: str | None) -> list[tuple[str, str]]:
    if params is None:
        return []
    out = []
    for part in params.split(","):
        name, equals, value = part.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise ParameterError(f"measure {text!r}: parameters are written NAME=VALUE, as in P(rel=2)@5")
        out.append((name.strip(), value.strip().strip("'\"")))  # ir_measures writes dcg='exp-log2'
    return out


def unknown_name(text, cat: Catalogue) -> str | None:
    """The lower-cased name of a measure string that names no measure of `cat` (bpref in bpref@10),
    else None."""
    written = text.strip() if isinstance(text, str) else ""
    form = _FORM.fullmatch(written)
    return (form["name"].lower() if form and not _readings(form["name"], cat) and not _cut_name(written, cat)
            else None)


def spellings_by_tool(cat: Catalogue) -> dict[str, list[str]]:
    """The spellings of `cat` by tool (trec_eval, ir_measures, ranx, sqlmetrics), with their cut-off
    written as K: P@K, ndcg[@K], P_K."""
    by_tool: dict[str, dict[str, None]] = {tool: {} for tool in (TREC_EVAL, IR_MEASURES, RANX, SQLMETRICS)}
    for text, readings in cat.spellings.items():
        for r in readings:
            by_tool[r.tool][shown(Spelling(text, r))] = None
    for text, r in cat.cut_names.items():
        by_tool[r.tool][shown(Spelling(text, r))] = None
    return {tool: list(forms) for tool, forms in by_tool.items() if forms}


#: how a user writes a spelling, by its cut-off (K: the cut-off, L: a recall level, X: a multiple of R)
_SHOWN = {"named": "{}_K", "named_level": "{}_L", "named_multiple": "{}_X", "required": "{}@K", "optional": "{}[@K]",
          "whole": "{}", "level": "{}@L"}
#: and by its parameters after a dot
_DOTTED_SHOWN = {"pairs": "{}[.p=P]", "beta_squared": "{}[.X]"}


def shown(spelling: Spelling) -> str:
    """A spelling as a user writes it: P_K, P@K, ndcg[@K], IPrec@L, rbp[.p=P], RBP(p=P)[@K]."""
    r = spelling.reading
    text = _DOTTED_SHOWN[r.dotted].format(spelling.text) if r.dotted else spelling.text
    shown_options = [f"{option}=X" for option, _ in r.options] + (["rel=N"] if r.tool == IR_MEASURES and r.level is None
                                                                   else [])
    if shown_options:
        text += "(" + ",".join(shown_options) + ")"
    return _SHOWN[r.cutoff].format(text)


def accepted(cat: Catalogue) -> str:
    """The spellings of `cat`, by tool, for an error's list of what is accepted."""
    extra = {IR_MEASURES: "; rel=N as in P(rel=2)@5, dcg=exp-log2 as in nDCG(dcg=exp-log2)@10",
             RANX: "; -lN as in precision@5-l2"}
    return "; ".join(f"{_possessive(tool)} {', '.join(shown)}{extra.get(tool, '')}"
                     for tool, shown in spellings_by_tool(cat).items())


def _possessive(tool: str) -> str:
    return tool + ("'" if tool.endswith("s") else "'s")


def _unknown(text: str, name: str, cat: Catalogue) -> ParameterError:
    if name.lower() in ELSEWHERE:
        return ParameterError(f"measure {text!r}: {ELSEWHERE[name.lower()]}")
    near = difflib.get_close_matches(name.lower(), [s.lower() for s in cat.spellings]
                                     + [_SHOWN[r.cutoff].format(n) for n, r in cat.cut_names.items()], n=1, cutoff=0.6)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return ParameterError(f"unknown measure {text!r}{hint}. Accepted: {accepted(cat)}")
