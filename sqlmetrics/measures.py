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
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from .errors import ParameterError

TREC_EVAL, IR_MEASURES, RANX, SQLMETRICS = "trec_eval", "ir_measures", "ranx", "sqlmetrics"
#: the metrics evaluate computes in one pass, in the order the report shows them
ONE_PASS = ("ndcg", "dcg", "mean_average_precision", "mrr", "precision_at_k", "recall_at_k", "hit_rate",
            "r_precision")
#: metrics that take ties='average' (the others order ties by item id only)
AVERAGES_TIES = ("ndcg", "dcg", "precision_at_k", "recall_at_k")
#: gain-based metrics: their values do not depend on the relevance level (they score the grades)
GAIN_BASED = ("ndcg", "dcg")


@dataclass(frozen=True)
class Reading:
    """One tool's measure of a spelling. None for gain, ties or level: the tool leaves it to its caller."""
    tool: str
    metric: str
    cutoff: str  # "optional" @k, "required" @k, "whole" (no @k), or "named" (in the name: P_5)
    gain: str | None = None  # ndcg and dcg: the gain
    ties: str | None = "item_desc"  # the order of tied scores
    level: float | None = None  # the relevance level: ir_measures' rel=, ranx's -lN (default 1)


@dataclass(frozen=True)
class Measure:
    name: str  # as written: the name of its output column
    metric: str  # the registered metric
    k: int | None = None  # the cut-off (None: the whole list)
    readings: tuple[Reading, ...] = ()  # the tools' readings of the spelling (after resolve: the one used)
    gain: str | None = None  # ndcg and dcg, once resolved: the gain


def _trec(metric, cutoff, gain=None):
    return Reading(TREC_EVAL, metric, cutoff, gain)


def _ir(metric, cutoff, gain=None, ties="item_desc"):
    return Reading(IR_MEASURES, metric, cutoff, gain, ties, 1.0)


def _ranx(metric, gain=None, cutoff="optional"):
    return Reading(RANX, metric, cutoff, gain, None, 1.0)


def _ours(metric, cutoff="optional"):
    return Reading(SQLMETRICS, metric, cutoff, None, None)


#: exact spelling -> the tools' readings
_SPELLINGS: dict[str, tuple[Reading, ...]] = {
    # trec_eval (its cut-off forms P_5, ndcg_cut_10 ... are _TREC_CUTS); ranx; sqlmetrics' own names
    "ndcg": (_trec("ndcg", "whole", "linear"), _ranx("ndcg", "linear"), _ours("ndcg")),
    "dcg": (_ranx("dcg", "linear"), _ours("dcg")),
    "map": (_trec("mean_average_precision", "whole"), _ranx("mean_average_precision"), _ours("mean_average_precision")),
    "recip_rank": (_trec("mrr", "whole"),),
    "Rprec": (_trec("r_precision", "whole"), _ir("r_precision", "whole")),
    "set_P": (_trec("precision_at_k", "whole"),),
    "set_recall": (_trec("recall_at_k", "whole"), _ours("recall_at_k", "whole")),
    # ranx: exponential gain (Burges et al. 2005) in the _burges names
    "ndcg_burges": (_ranx("ndcg", "exponential"),),
    "dcg_burges": (_ranx("dcg", "exponential"),),
    "mrr": (_ranx("mrr"), _ours("mrr")),
    "precision": (_ranx("precision_at_k"),),
    "recall": (_ranx("recall_at_k"),),
    "hit_rate": (_ranx("hit_rate"), _ours("hit_rate", "required")),
    "r-precision": (_ranx("r_precision", cutoff="whole"),),
    # ir_measures (its pytrec_eval provider: trec_eval's order of ties; RR@k: its msmarco provider,
    # which sorts ties by document id ascending)
    "nDCG": (_ir("ndcg", "optional", "linear"),),
    "P": (_ir("precision_at_k", "required"),),
    "R": (_ir("recall_at_k", "required"),),
    "AP": (_ir("mean_average_precision", "optional"),),
    "RR": (_ir("mrr", "whole"), _ir("mrr", "required", ties="item_asc")),
    "Success": (_ir("hit_rate", "required"),),
    "SetP": (_ir("precision_at_k", "whole"),),
    "SetR": (_ir("recall_at_k", "whole"),),
    # sqlmetrics' own names
    "mean_average_precision": (_ours("mean_average_precision"),),
    "precision_at_k": (_ours("precision_at_k"),),
    "recall_at_k": (_ours("recall_at_k"),),
    "r_precision": (_ours("r_precision", "whole"),),
    "set_precision": (_ours("precision_at_k", "whole"),),
}
#: trec_eval's measures with the cut-off in the name (P_5, ndcg_cut_10)
_TREC_CUTS = {"P": _trec("precision_at_k", "named"), "recall": _trec("recall_at_k", "named"),
              "ndcg_cut": _trec("ndcg", "named", "linear"), "map_cut": _trec("mean_average_precision", "named"),
              "success": _trec("hit_rate", "named")}
#: ir_measures' nDCG(dcg=...) parameter: its gain (log2: pytrec_eval's ndcg_cut; exp-log2: gdeval.pl)
_IR_MEASURES_DCG = {"log2": "linear", "exp-log2": "exponential"}
#: measures other libraries name that evaluate does not compute, and what to use instead
_ELSEWHERE = {
    "hits": "ranx's hits (relevant items in the top k, averaged over queries) is P@k times k",
    "f1": "ranx's f1 is not a sqlmetrics measure: use P@k and R@k",
}
_FORM = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9_\-]*?)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>[^@]*?))?"
                   r"(?:-l(?P<level>[^@-]*))?")
_TREC_CUT = re.compile(r"(?P<name>P|recall|ndcg_cut|map_cut|success)_(?P<k>[^_]*)", re.I)
_DIGITS = re.compile(r"[0-9]+")  # not str.isdigit, which takes '²' and other digits int() refuses

ACCEPTED = ("trec_eval's names (P_5, recall_100, ndcg_cut_10, ndcg, map, map_cut_10, recip_rank, success_10, Rprec, "
            "set_P, set_recall), ir_measures' (nDCG@10, nDCG(dcg=exp-log2)@10, P@5, P(rel=2)@5, R@100, AP, AP@10, RR, "
            "RR@10, Success@10, Rprec, SetP, SetR), ranx's (ndcg@10, dcg@10, ndcg_burges@10, map@100, mrr, precision@5, "
            "recall@100, hit_rate@10, r-precision; -l2 for a relevance level) and sqlmetrics' (mean_average_precision, "
            "precision_at_k@5, recall_at_k@5, r_precision, set_precision, set_recall)")


def parse(text) -> Measure:
    """The measure a string names, with the readings its spelling allows; ParameterError for an
    unknown or malformed one."""
    if not isinstance(text, str):
        raise ParameterError(f"a measure is a string such as 'ndcg@10'; got {text!r}")
    written = text.strip()
    cut = _TREC_CUT.fullmatch(written)
    if cut:
        reading = _TREC_CUTS[next(n for n in _TREC_CUTS if n.lower() == cut["name"].lower())]
        return Measure(text, reading.metric, _cutoff(text, cut["k"]), (reading,))
    form = _FORM.fullmatch(written)
    readings = _readings(form["name"]) if form else ()
    if not readings:
        raise _unknown(text, form["name"] if form else written)
    k = None if form["k"] is None else _cutoff(text, form["k"])
    fitting = tuple(r for r in readings if {"optional": True, "required": k is not None, "whole": k is None}[r.cutoff])
    if not fitting:
        if k is not None:
            raise ParameterError(f"measure {text!r}: {form['name']} takes no @k (it is computed over the whole list)")
        whole = {"precision_at_k": "set_P", "recall_at_k": "set_recall"}.get(readings[0].metric)
        raise ParameterError(f"measure {text!r} needs a cut-off, e.g. {written}@10"
                             + (f" ({whole} for the whole list)" if whole else ""))
    fitting = _with_parameters(text, fitting, form["params"], form["level"])
    return Measure(text, fitting[0].metric, k, fitting)


def _readings(name: str) -> tuple[Reading, ...]:
    """The readings of a name: its exact spelling's, else those of every spelling equal regardless of case."""
    if name in _SPELLINGS:
        return _SPELLINGS[name]
    return tuple(r for spelling, readings in _SPELLINGS.items() if spelling.lower() == name.lower() for r in readings)


def _with_parameters(text: str, readings: tuple[Reading, ...], params: str | None, level: str | None):
    """The readings that take the string's parameters: ir_measures' rel= and dcg=, ranx's -lN."""
    for name, value in _parameters(text, params):
        if name == "rel":
            threshold = _level(text, value, "rel=")
            readings = tuple(replace(r, level=threshold) for r in readings if r.tool == IR_MEASURES)
            what = "rel=N (ir_measures' relevance level)"
        elif name == "dcg" and value in _IR_MEASURES_DCG:
            readings = tuple(replace(r, gain=_IR_MEASURES_DCG[value]) for r in readings
                             if r.tool == IR_MEASURES and r.metric == "ndcg")
            what = "dcg=log2 or dcg=exp-log2 (ir_measures' nDCG)"
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
        if readings[0].metric in GAIN_BASED and threshold != 1:
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


def parse_all(texts) -> tuple[Measure, ...]:
    """The measures of a list of strings (one string: a list of one); the same string twice (ignoring
    case) is refused, as its two columns would have one name."""
    if isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, (list, tuple)) or not texts:
        raise ParameterError(f"measures must be a non-empty list of measure strings such as ['ndcg@10', 'P@5', "
                             f"'map']; got {texts!r}")
    measures = tuple(parse(t) for t in texts)
    seen = {}
    for m in measures:
        key = m.name.strip().lower()
        if key in seen:
            raise ParameterError(f"measures lists {seen[key]!r} and {m.name!r}: the same measure twice (its columns "
                                 "would have one name); list it once")
        seen[key] = m.name
    return measures


def resolve(measures: tuple[Measure, ...], gain: str | None, ties: str | None,
            threshold: float | None) -> tuple[tuple[Measure, ...], str, float]:
    """The call's measures with their gains, and its one order of ties and one relevance level: each
    option given must be one some reading of every measure allows (it then chooses among them);
    an option not given takes what the measures' readings fix, else the default (linear gain,
    'item_desc', 1). Raises ParameterError, naming the measures and what to write instead."""
    if gain is not None:
        for m in measures:
            if m.metric in GAIN_BASED and not any(r.gain in (None, gain) for r in m.readings):
                fixed = m.readings[0]
                raise ParameterError(f"measure {m.name!r} is {_whose(m)} {m.name.strip()}, with {fixed.gain} gain: "
                                     f"gain={gain!r} would not give its number; write {_with_gain(m, gain)} for "
                                     f"{gain} gain")
        measures = tuple(replace(m, readings=tuple(r for r in m.readings if r.gain in (None, gain))) for m in measures)
    ties = _one_per_call(measures, "ties", ties, "item_desc", "order of tied scores")
    binary = tuple(m for m in measures if m.metric not in GAIN_BASED)  # the level does not change a gain-based value
    threshold = _one_per_call(binary, "level", threshold, 1.0, "relevance level")
    resolved = []
    for m in measures:
        readings = tuple(r for r in m.readings if r.ties in (None, ties)
                         and (m.metric in GAIN_BASED or r.level in (None, threshold)))
        chosen = (gain or next((r.gain for r in readings if r.gain), "linear")) if m.metric in GAIN_BASED else None
        resolved.append(replace(m, readings=readings, gain=chosen))
    return tuple(resolved), ties, threshold


def _one_per_call(measures, attribute: str, given, default, what: str):
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
                                 f"its number; {_instead(m, attribute)}")
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
    return " and ".join(t + ("'" if t.endswith("s") else "'s") for t in tools) or "sqlmetrics'"


def _instead(m: Measure, attribute: str) -> str:
    if attribute == "level":
        if any(r.tool == IR_MEASURES for r in m.readings):
            return "write its relevance level in the measure, as P(rel=2)@5"
        if any(r.tool == RANX for r in m.readings):
            return "write its relevance level in the measure, as precision@5-l2"
    return f"write sqlmetrics' {_ours_name(m)} for a measure that takes the call's options"


def _ours_name(m: Measure) -> str:
    name = {"precision_at_k": "precision_at_k", "recall_at_k": "recall_at_k", "mean_average_precision":
            "mean_average_precision", "hit_rate": "hit_rate", "r_precision": "r_precision", "mrr": "mrr",
            "ndcg": "ndcg", "dcg": "dcg"}[m.metric]
    if m.k is None and m.metric in ("precision_at_k", "recall_at_k"):
        return {"precision_at_k": "set_precision", "recall_at_k": "set_recall"}[m.metric]
    return name if m.k is None else f"{name}@{m.k}"


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


def unknown_name(text) -> str | None:
    """The lower-cased name of a measure string that names no measure of evaluate (bpref in bpref@10),
    else None."""
    written = text.strip() if isinstance(text, str) else ""
    form = _FORM.fullmatch(written)
    return form["name"].lower() if form and not _readings(form["name"]) and not _TREC_CUT.fullmatch(written) else None


def _unknown(text: str, name: str) -> ParameterError:
    if name.lower() in _ELSEWHERE:
        return ParameterError(f"measure {text!r}: {_ELSEWHERE[name.lower()]}")
    near = difflib.get_close_matches(name.lower(), [s.lower() for s in _SPELLINGS] + [f"{n}_K" for n in _TREC_CUTS],
                                     n=1, cutoff=0.6)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return ParameterError(f"unknown measure {text!r}{hint}. Accepted: {ACCEPTED}")
