"""Measure strings, as users of trec_eval, ir_measures and ranx write them, read as sqlmetrics metrics.

``parse("P@5")`` is ``Measure("P@5", "precision_at_k", k=5)``: the registered metric, its cut-off
and the parameters the spelling fixes (a gain, a relevance threshold). Matching is
case-insensitive; the measure keeps the text as written, the name of its column.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .errors import ParameterError


@dataclass(frozen=True)
class Measure:
    name: str  # as written: the name of its output column
    metric: str  # the registered metric
    k: int | None = None  # the cut-off (None: the whole list)
    gain: str | None = None  # ndcg/dcg: the gain the spelling fixes (None: the call's gain=)
    relevance_threshold: float | None = None  # P(rel=2)@5: the threshold the spelling fixes


#: the metrics evaluate computes in one pass, in the order the report shows them
ONE_PASS = ("ndcg", "dcg", "mean_average_precision", "mrr", "precision_at_k", "recall_at_k", "hit_rate",
            "r_precision")
#: metrics that take ties='average' (the others order ties by item id only)
AVERAGES_TIES = ("ndcg", "dcg", "precision_at_k", "recall_at_k")

# lower-cased name -> (metric, the gain it fixes, its cut-off rule): 'optional' @k (none: the whole
# list), 'required' @k, or 'whole' (no @k: the whole list, or R for r_precision)
_NAMES = {
    # sqlmetrics' names and aliases; ranx's ndcg, dcg, map, mrr, precision, recall, hit_rate
    "ndcg": ("ndcg", None, "optional"), "dcg": ("dcg", None, "optional"),
    "mean_average_precision": ("mean_average_precision", None, "optional"),
    "map": ("mean_average_precision", None, "optional"), "mrr": ("mrr", None, "optional"),
    "precision_at_k": ("precision_at_k", None, "required"), "precision": ("precision_at_k", None, "required"),
    "recall_at_k": ("recall_at_k", None, "required"), "recall": ("recall_at_k", None, "required"),
    "hit_rate": ("hit_rate", None, "required"), "r_precision": ("r_precision", None, "whole"),
    "set_precision": ("precision_at_k", None, "whole"), "set_recall": ("recall_at_k", None, "whole"),
    # ranx: exponential gain (Burges et al. 2005), r-precision
    "ndcg_burges": ("ndcg", "exponential", "optional"), "dcg_burges": ("dcg", "exponential", "optional"),
    "r-precision": ("r_precision", None, "whole"),
    # ir_measures: P, R, AP, RR, Success, Rprec, SetP, SetR (nDCG is ndcg above)
    "p": ("precision_at_k", None, "required"), "r": ("recall_at_k", None, "required"),
    "ap": ("mean_average_precision", None, "optional"), "rr": ("mrr", None, "optional"),
    "success": ("hit_rate", None, "required"), "rprec": ("r_precision", None, "whole"),
    "setp": ("precision_at_k", None, "whole"), "setr": ("recall_at_k", None, "whole"),
    # trec_eval: recip_rank, set_P, set_recall (map and Rprec above); its cut-off forms are _TREC_CUTS
    "recip_rank": ("mrr", None, "whole"), "set_p": ("precision_at_k", None, "whole"),
}
#: trec_eval's measures with the cut-off in the name (P_5, ndcg_cut_10): their linear gain
_TREC_CUTS = {"p": ("precision_at_k", None), "recall": ("recall_at_k", None), "ndcg_cut": ("ndcg", "linear"),
              "map_cut": ("mean_average_precision", None), "success": ("hit_rate", None)}
#: ir_measures' nDCG(dcg=...) parameter: its gain
_IR_MEASURES_DCG = {"log2": "linear", "exp-log2": "exponential"}
#: measures other libraries name that evaluate does not compute, and what to use instead
_ELSEWHERE = {
    "hits": "ranx's hits (relevant items in the top k, averaged over queries) is P@k times k",
    "f1": "ranx's f1 is not a sqlmetrics measure: use P@k and R@k",
}
_FORM = re.compile(r"(?P<name>[a-z][a-z0-9_\-]*?)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>[^@]*))?")
_TREC_CUT = re.compile(r"(?P<name>p|recall|ndcg_cut|map_cut|success)_(?P<k>\d+)")

ACCEPTED = ("sqlmetrics/ranx/ir_measures forms NAME or NAME@K (ndcg@10, map, mrr@10, P@5, recall@100, hit_rate@10, "
            "Success@10, AP@10, RR, Rprec, r-precision, ndcg_burges@10, P(rel=2)@5) and trec_eval's names (P_5, "
            "recall_100, ndcg_cut_10, ndcg, map, map_cut_10, recip_rank, success_10, Rprec, set_P, set_recall)")


def parse(text) -> Measure:
    """The measure a string names; ParameterError for an unknown or malformed one."""
    if not isinstance(text, str):
        raise ParameterError(f"a measure is a string such as 'ndcg@10'; got {text!r}")
    lowered = text.strip().lower()
    cut = _TREC_CUT.fullmatch(lowered)
    if cut:
        metric, gain = _TREC_CUTS[cut["name"]]
        return Measure(text, metric, _cutoff(text, cut["k"]), gain)
    form = _FORM.fullmatch(lowered)
    if not form or form["name"] not in _NAMES:
        raise _unknown(text, form["name"] if form else lowered)
    metric, gain, rule = _NAMES[form["name"]]
    k = None if form["k"] is None else _cutoff(text, form["k"])
    if rule == "whole" and k is not None:
        raise ParameterError(f"measure {text!r}: {form['name']} takes no @k (it is computed over the whole list)")
    if rule == "required" and k is None:
        whole = {"precision_at_k": "set_P", "recall_at_k": "set_recall", "hit_rate": "success over the whole list"}
        raise ParameterError(f"measure {text!r} needs a cut-off, e.g. {text.strip()}@10"
                             + (f" ({whole[metric]} for the whole list)" if metric != "hit_rate" else ""))
    threshold = None
    for name, value in _parameters(text, form["params"]):
        if name == "rel":
            try:
                threshold = float(value)
            except ValueError:
                raise ParameterError(f"measure {text!r}: rel= takes a number, the lowest relevant grade") from None
            if not threshold > 0:
                raise ParameterError(f"measure {text!r}: rel= must be > 0")
        elif name == "dcg" and metric == "ndcg" and value in _IR_MEASURES_DCG:
            gain = _IR_MEASURES_DCG[value]
        else:
            raise ParameterError(f"measure {text!r}: unknown parameter {name}={value} (accepted: rel=N, the lowest "
                                 "relevant grade; for nDCG, dcg=log2 or dcg=exp-log2)")
    return Measure(text, metric, k, gain, threshold)


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


def _cutoff(text: str, k: str) -> int:
    if not k.isdigit() or int(k) < 1:
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
        out.append((name.strip(), value.strip()))
    return out


def unknown_name(text) -> str | None:
    """The lower-cased name of a measure string that names no measure of evaluate (bpref in bpref@10),
    else None."""
    lowered = text.strip().lower() if isinstance(text, str) else ""
    form = _FORM.fullmatch(lowered)
    return form["name"] if form and form["name"] not in _NAMES and not _TREC_CUT.fullmatch(lowered) else None


def _unknown(text: str, name: str) -> ParameterError:
    if name in _ELSEWHERE:
        return ParameterError(f"measure {text!r}: {_ELSEWHERE[name]}")
    near = difflib.get_close_matches(name, list(_NAMES) + [f"{n}_K" for n in _TREC_CUTS], n=1, cutoff=0.6)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return ParameterError(f"unknown measure {text!r}{hint}. Accepted: {ACCEPTED}")
