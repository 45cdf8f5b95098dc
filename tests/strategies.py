"""Hypothesis strategies for tests/test_properties.py: the data that breaks metric code.

Binary classification frames (0/1, boolean or 0.0/1.0 labels; scores with heavy ties, all equal,
+-inf, magnitudes from 5e-324 to 1.8e308; probabilities with exact 0 and 1; weights with zeros and
wide magnitudes; groups, most of size 1; a slice column with a NULL key), regression frames, and
TREC runs/qrels (one-item queries, equal scores, item ids whose text and numeric orders differ,
grades 0..4, queries without a relevant item, judged items never retrieved, queries on one side
only). Sizes 0-3 are drawn as often as 4-60 rows, and shrink towards them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import strategies as st

INF = float("inf")
MAX = np.finfo(float).max
# Scores at the edges of float64: signed zeros, the smallest subnormal, tiny and huge normals, +-inf.
EXTREME_SCORES = [0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e-300, 1.0, 1e300, -1e300, MAX, -MAX, INF, -INF]
# Probabilities: exact 0 and 1, below machine epsilon, one ulp from 1.
EDGE_PROBABILITIES = [0.0, 1.0, 0.5, 5e-324, 1e-300, 2.0 ** -53, 1 - 2.0 ** -53]
# Weights from 1e-200 to 1e200: a product of two weight sums overflows or vanishes (the sums of 60
# of them stay finite); test_extreme_weights_match_sklearn goes to 1e-300 and 1e300.
WIDE_WEIGHTS = [0.0, 1e-200, 1e-100, 1e-10, 1.0, 3.0, 1e10, 1e100, 1e200]
SLICES = ["x", "y", None]  # None: a NULL slice key, a slice of its own

# Item ids: byte order differs from numeric order ('d9' > 'd10' > 'd1'), case, a non-ASCII id.
TEXT_ITEMS = ["d9", "d10", "d1", "d100", "d09", "d2", "d20", "D7", "a", "zz", "e\u00e91", "Z9", "d_3"]
# Integer ids: trec_eval compares ids as text, so 9 ranks before 10 in a tie (item_desc).
INT_ITEMS = [9, 10, 1, 100, 2, 20, 3, 30, 99, 11, 0, 5, 55]


def sizes(min_size: int = 0, max_size: int = 60):
    """Tiny tables (0-3 rows) as likely as larger ones."""
    small = st.integers(min_size, min(3, max_size)) if min_size <= 3 else st.nothing()
    return st.one_of(small, st.integers(max(4, min_size), max_size))


def _column(draw, n: int, kinds: dict, dtypes: dict | None = None):
    """n values as a numpy array: a kind is drawn, then the values from that kind's element
    strategy or palette, then a dtype among those listed for the kind (default float64)."""
    kind = draw(st.sampled_from(sorted(kinds)))
    make = kinds[kind]
    if kind == "equal":
        values = [draw(make)] * n
    elif kind == "ties":  # a palette of 1-3 values, each row one of them
        palette = draw(st.lists(make, min_size=1, max_size=3))
        values = draw(st.lists(st.sampled_from(palette), min_size=n, max_size=n))
    else:
        values = draw(st.lists(make, min_size=n, max_size=n))
    dtype = draw(st.sampled_from((dtypes or {}).get(kind, ["float64"])))
    with np.errstate(over="ignore"):  # float32: beyond 3.4e38 becomes inf, as intended
        return np.asarray(values, dtype=float).astype(dtype)


ANY_FLOAT = st.floats(allow_nan=False)  # the whole double range, subnormals and +-inf included
SCORE_KINDS = {
    "continuous": ANY_FLOAT,
    "moderate": st.floats(-10, 10, allow_nan=False),
    "ties": st.floats(-3, 3, allow_nan=False) | st.sampled_from(EXTREME_SCORES),
    "equal": st.sampled_from(EXTREME_SCORES) | ANY_FLOAT,
    "extreme": st.sampled_from(EXTREME_SCORES),
    "integers": st.integers(-3, 3),
}
# float32 columns hold the drawn values rounded (1e300 becomes inf): the references read the frame
FLOATS = ["float64", "float64", "float32"]
SCORE_DTYPES = {**{kind: FLOATS for kind in SCORE_KINDS}, "integers": ["int64", "int8", "float64"]}
PROBABILITY_KINDS = {
    "continuous": st.floats(0, 1),
    "ties": st.sampled_from(EDGE_PROBABILITIES),
    "equal": st.sampled_from(EDGE_PROBABILITIES),
    "edges": st.sampled_from(EDGE_PROBABILITIES) | st.floats(0, 1),
}
WEIGHT_KINDS = {
    "positive": st.floats(1e-3, 1e3),
    "with_zeros": st.sampled_from([0.0]) | st.floats(1e-3, 10),
    "integers": st.integers(0, 5).map(float),
    "wide": st.sampled_from(WIDE_WEIGHTS),
    "equal": st.sampled_from(WIDE_WEIGHTS[1:]),
}
WEIGHT_DTYPES = {"integers": ["int64", "float64"]}
# Regression values: exact binary fractions (sums and squares without rounding) or moderate
# floats; magnitudes where squares overflow or deviations underflow are outside sklearn's own
# accuracy, so there is nothing to compare.
REGRESSION_KINDS = {
    "dyadic": st.integers(-2 ** 20, 2 ** 20).map(lambda i: i / 1024),
    "continuous": st.floats(-1e4, 1e4, allow_nan=False).filter(lambda x: x == 0 or abs(x) >= 1e-4),
    "ties": st.integers(-3, 3).map(float),
    "equal": st.integers(-3, 3).map(lambda i: i / 10),
}
REGRESSION_DTYPES = {"ties": ["int64", "float64"]}


def _labels(draw, y: list[int]):
    dtype = draw(st.sampled_from(["int64", "bool", "float64", "int8", "Int64", "boolean"]))
    return pd.array(np.asarray(y, dtype=np.int64), dtype=dtype)


def _groups(draw, n: int):
    """Group ids (integers or text), most groups of one row in the 'singletons' and 'many' kinds."""
    kind = draw(st.sampled_from(["singletons", "many", "few"]))
    if kind == "singletons":
        ids = list(range(n))
    else:
        ids = draw(st.lists(st.integers(0, max(0, n // 2) if kind == "many" else 1), min_size=n, max_size=n))
    return pd.Series([f"u{i}" for i in ids], dtype=object) if draw(st.booleans()) else np.asarray(ids, np.int64)


@st.composite
def binary_frames(draw, min_size: int = 0, max_size: int = 60, weights: bool | None = None):
    """Columns y (label), s (score), p (probability), w (weight, or absent), hat (0/1 prediction),
    g (group), a (slice, with a NULL key). weights: True always, False never, None either."""
    n = draw(sizes(min_size, max_size))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    frame = pd.DataFrame({
        "y": _labels(draw, y),
        "s": _column(draw, n, SCORE_KINDS, SCORE_DTYPES),
        "p": _column(draw, n, PROBABILITY_KINDS, {kind: FLOATS for kind in PROBABILITY_KINDS}),
        "hat": np.asarray(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int64),
        "g": _groups(draw, n),
        "a": pd.Series(draw(st.lists(st.sampled_from(SLICES), min_size=n, max_size=n)), dtype=object),
    })
    if weights if weights is not None else draw(st.booleans()):
        frame["w"] = _column(draw, n, WEIGHT_KINDS, WEIGHT_DTYPES)
    return frame


@st.composite
def regression_frames(draw, min_size: int = 0, max_size: int = 60, weights: bool | None = None):
    """Columns t (target), q (prediction), w (weight, or absent), a (slice)."""
    n = draw(sizes(min_size, max_size))
    t = _column(draw, n, REGRESSION_KINDS, REGRESSION_DTYPES)
    # predictions: often near the target (small errors), sometimes independent, sometimes exact
    how = draw(st.sampled_from(["near", "independent", "exact"]))
    if how == "exact":
        q = t.copy()
    elif how == "near":
        q = t + np.asarray(draw(st.lists(REGRESSION_KINDS["dyadic"], min_size=n, max_size=n)), dtype=float)
    else:
        q = _column(draw, n, REGRESSION_KINDS, REGRESSION_DTYPES)
    frame = pd.DataFrame({"t": t, "q": q, "a": pd.Series(draw(st.lists(st.sampled_from(SLICES), min_size=n,
                                                                          max_size=n)), dtype=object)})
    if weights if weights is not None else draw(st.booleans()):
        frame["w"] = _column(draw, n, {k: WEIGHT_KINDS[k] for k in ("positive", "with_zeros", "integers")},
                             WEIGHT_DTYPES)
    return frame


# -- invalid input: one defect planted in an otherwise valid frame ----------------------------------

def _arrow_nan(values, row):
    """A float column holding a real NaN (not a missing value), as Arrow-backed frames can."""
    values = np.asarray(values, dtype=float).copy()
    values[row] = np.nan
    return pd.Series(pa.array(values, from_pandas=False), dtype=pd.ArrowDtype(pa.float64()))


# defect -> (column it is planted in, the metrics' parameter naming that column)
DEFECTS = {
    "nan_score": "s", "nan_score_arrow": "s", "inf_probability": "p", "nan_probability": "p",
    "probability_above_1": "p", "probability_below_0": "p",
    "null_label": "y", "label_2": "y", "label_minus_1": "y", "label_half": "y", "label_nan_arrow": "y",
    "negative_weight": "w", "infinite_weight": "w", "nan_weight": "w", "nan_weight_arrow": "w",
}


@st.composite
def invalid_binary_frames(draw):
    """(frame, defect, column): a valid frame of 1-60 rows with weights, one row made invalid."""
    frame = draw(binary_frames(min_size=1, weights=True)).copy()
    defect = draw(st.sampled_from(sorted(DEFECTS)))
    col = DEFECTS[defect]
    row = draw(st.integers(0, len(frame) - 1))
    values = frame[col].to_numpy(dtype=float).copy()
    if defect.endswith("_arrow"):
        frame[col] = _arrow_nan(values, row)
        return frame, defect, col
    values[row] = {
        "nan_score": np.nan, "inf_probability": INF, "nan_probability": np.nan,
        "probability_above_1": draw(st.sampled_from([1 + 2.0 ** -52, 2.0, 1e300])),
        "probability_below_0": draw(st.sampled_from([-5e-324, -0.5, -INF])),
        "null_label": np.nan, "label_2": 2.0, "label_minus_1": -1.0, "label_half": 0.5,
        "negative_weight": draw(st.sampled_from([-5e-324, -1.0, -1e300])), "infinite_weight": INF,
        "nan_weight": np.nan,
    }[defect]
    frame[col] = values  # a float column: NaN in a pandas float column is a missing value (NULL)
    return frame, defect, col


# -- ranking ------------------------------------------------------------------------------------------

RUN_SCORE_KINDS = {
    "continuous": st.floats(-100, 100, allow_nan=False),
    "ties": st.integers(0, 2).map(float),
    "equal": st.sampled_from([0.0, 1.0, -1e300]),
    "extreme": st.sampled_from(EXTREME_SCORES),
}


@st.composite
def ranking_frames(draw, max_queries: int = 6):
    """(run, qrels): run has query, item, score; qrels query, item, relevance (0..4). Both carry a
    query-level slice column `c`. Queries are in both, the run only, or the qrels only."""
    pool = draw(st.sampled_from([TEXT_ITEMS, INT_ITEMS]))
    n_queries = draw(st.integers(1, max_queries))
    run, qrels = [], []
    for i in range(n_queries):
        q, c = f"q{i}", "de" if i % 2 else "jp"
        where = draw(st.sampled_from(["both", "both", "both", "run", "qrels"]))
        items = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True))
        if where != "qrels":
            run += [(q, d, float(s), c) for d, s in zip(items, _column(draw, len(items), RUN_SCORE_KINDS))]
        if where != "run":
            judged = [d for d in items if draw(st.booleans())]
            judged += draw(st.lists(st.sampled_from([d for d in pool if d not in items] or pool),
                                    max_size=3, unique=True).map(lambda ds: [d for d in ds if d not in items]))
            judged = judged or items[:1]
            nothing_relevant = draw(st.integers(0, 4)) == 0
            grades = draw(st.lists(st.integers(0, 4), min_size=len(judged), max_size=len(judged)))
            qrels += [(q, d, 0 if nothing_relevant else r, c) for d, r in zip(judged, grades)]
    item_dtype = np.int64 if pool is INT_ITEMS else object
    run = pd.DataFrame(run, columns=["query", "item", "score", "c"]).astype({"item": item_dtype, "score": float})
    qrels = pd.DataFrame(qrels, columns=["query", "item", "relevance", "c"]).astype(
        {"item": item_dtype, "relevance": np.int64})
    return run, qrels


# -- the break-it pass's classes: keys of mixed numeric types, TREC fields, command-line thresholds ----

#: key dtypes and the class sqlmetrics gives them: ids compare exactly only within one class
KEY_DTYPES = {"int64": "integer", "Int64": "integer", "float64": "float", "str": "text"}
#: ids where an integer and a float part ways: 2^53 + 1 is no double, and collapses into 2^53 as one
BIG_IDS = [0, 1, 2 ** 53, 2 ** 53 + 1, 2 ** 53 + 2, 2 ** 62]


@st.composite
def keyed_ranking_frames(draw):
    """(run, qrels, key classes): a run and qrels whose query and item ids are drawn from BIG_IDS
    and small ints, each column of a dtype of its own (KEY_DTYPES)."""
    ids = st.sampled_from(BIG_IDS) | st.integers(0, 5)
    queries = draw(st.lists(ids, min_size=1, max_size=3, unique=True))
    run, qrels = [], []
    for q in queries:
        items = draw(st.lists(ids, min_size=1, max_size=4, unique=True))
        run += [(q, i, draw(st.integers(0, 3))) for i in items]
        qrels += [(q, i, draw(st.integers(0, 2))) for i in draw(st.lists(st.sampled_from(items), max_size=3, unique=True))]
    run = pd.DataFrame(run or [], columns=["query", "item", "score"])
    qrels = pd.DataFrame(qrels or [(queries[0], 0, 1)], columns=["query", "item", "relevance"])
    classes = {}
    for frame, name in ((run, "run"), (qrels, "qrels")):
        for column in ("query", "item"):
            dtype = draw(st.sampled_from(sorted(KEY_DTYPES)))
            frame[column] = frame[column].astype(str) if dtype == "str" else frame[column].astype(dtype)
            classes[name, column] = KEY_DTYPES[dtype]
    return run, qrels, classes


#: fields of a TREC qrels grade or run score: whole numbers, and what trec_eval's atol/atof reads as
#: something else (0.5 as 0, 1e2 as 1) or Python's int() takes and ASCII does not (Unicode digits)
ODD_NUMBERS = ["0", "1", "2", "-1", "+3", "007", "0.5", "1.5", "1e2", "1E0", ".5", "5.", "inf", "nan", "-0",
               "\u0663", "\uff11", "1_0", "0x1", "9223372036854775808", "abc", "1,5"]
#: what may separate the fields of a line: trec_eval's isspace, and two characters it does not take
SEPARATORS = [" ", "  ", "\t", "\v", "\f", " \t "]


@st.composite
def trec_qrels_lines(draw):
    """Lines of a qrels file (qid iter docno rel), some of them blank, comments or short, with odd grades."""
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["line", "line", "line", "blank", "comment", "short"]))
        sep = draw(st.sampled_from(SEPARATORS))
        grade = draw(st.sampled_from(ODD_NUMBERS))
        doc = f"d{len(lines)}"
        lines.append({"line": sep.join(["q1", "0", doc, grade]), "blank": "", "comment": "# a comment 0.5",
                      "short": sep.join(["q1", "0", doc])}[kind])
    return lines


#: command-line numbers: finite or not, written in the ways a user types them
THRESHOLD_TEXTS = st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr),
                            st.sampled_from(["nan", "NaN", "-nan", "inf", "-Infinity", "1e999", "-0", "0", "1", "2",
                                             "0.5", "1e-320", "abc", "", "0x1p-2", "1_0"]))
