"""``sm.evaluate``: several ranking measures, named as ranx, ir_measures and trec_eval name them, in one pass."""
from __future__ import annotations

import textwrap

import pandas as pd

from .api import compute_metric
from .errors import ParameterError
from .measures import Measure, spellings_by_tool
from .ranking_metrics import QUERY_COUNTS
from .registry import CATALOGUE, METRICS, evaluate_passes, read_measures


def evaluate(run, qrels=None, measures=None, *, query: str = "query", item: str = "item", score: str = "score",
             relevance: str = "relevance", ties: str | None = None, gain: str | None = None,
             relevance_threshold: float | None = None, missing: str = "zero", empty: str = "zero", by=None,
             per_query: bool = False, con=None, dialect: str | None = None, dropna: bool = False) -> pd.DataFrame:
    """Several ranking measures in one pass over the run: ``sm.evaluate(run, qrels, ["ndcg@10", "P@5", "map"])``.

    Each measure is the value of its sqlmetrics function with the parameters its spelling defines
    (``"P@5"`` is ``sm.precision_at_k(run, qrels, k=5)``, ``"ndcg@10"`` is ``sm.ndcg(run, qrels, k=10,
    gain="linear")``, ``"rbp.p=0.8"`` is ``sm.rbp(run, qrels, persistence=0.8)``). The metrics
    measured:
        {metrics}.
    One SQL query computes the measures of
        {one_pass}:
    the judgments, the ranking and one aggregation per query are shared: one query per relevance
    level and order of ties the measures fix (nDCG@10, P(rel=2)@5 and AP: two). Each of the others
    runs its own metric's query, with its own tool's order of ties and relevance level where the call
    gives none.

Measure strings: each means what the tool that spells it so computes
    {spellings}
    The relevance level of trec_eval's spellings is the call's relevance_threshold (trec_eval's -l);
    of ir_measures' the measure's rel= (P(rel=2)@5), of ranx's its -lN (precision@5-l2), default 1.
    ir_measures' RR@K is its MS MARCO evaluation, which orders tied scores by item id ascending (its
    other measures, as trec_eval, descending).
    K is the cut-off; map@K divides by R, the query's relevant items, as trec_eval's map_cut. The exact
    spelling chooses the tool (nDCG@10 is ir_measures', ndcg@10 ranx's); another case (NDCG@10) is read
    as each tool whose spelling it matches. Every ndcg and dcg spelling has its tool's gain: linear
    (trec_eval, ir_measures' nDCG, ranx's ndcg) unless its name says exponential (ndcg_burges,
    nDCG(dcg=exp-log2)); so evaluate(run, qrels, ["ndcg@10"]) is sm.ndcg(run, qrels, k=10,
    gain='linear'), and sm.ndcg's own default gain is exponential.

The call's gain, ties and relevance_threshold
    Each applies where a tool leaves the choice to its user: trec_eval's relevance level (-l); the
    order of ranx's tied scores, which ranx leaves to numba's sort (on a run with tied scores ranx's
    numbers change with the input's order, and no other tool reproduces them); the gain of
    sqlmetrics' own ndcg and dcg. A value that no reading of a measure allows is refused, saying which
    spelling gives it (gain='exponential' with ndcg_cut_10: write ndcg_burges@10). Without them, each
    measure takes what its tools fix, else linear gain, ties by item id descending (trec_eval's), and
    relevance from grade 1. An order of ties or relevance level the call gives applies to every
    measure (each must allow it).

Parameters
    run: the ranked lists (query, item, score), as for any ranking metric: table name,
        sqlmetrics.Query, Parquet/CSV/JSON path or glob, or a pandas/polars/pyarrow frame.
    qrels: the judgments (query, item, relevance); omit when the run carries the relevance column.
    measures: a list of measure strings (or one string).
    query, item, score, relevance: the column names.
    ties: order of equal scores: 'item_desc' (trec_eval), 'item_asc', or 'average' (the expected
        value over the orders of a tie group; only for ndcg, dcg, precision and recall); see above.
    gain: 'exponential' or 'linear', for the ndcg and dcg spellings that leave it open; see above.
    relevance_threshold: an item is relevant iff its relevance >= this; see above.
    missing: a judged query absent from the run scores 0 ('zero', trec_eval -c) or is left out
        ('skip', pytrec_eval).
    empty: a query without relevant items scores 0 ('zero') or is left out ('skip'); for ndcg and dcg
        a query is without relevant items when no judgment has a positive grade.
    by: column(s) to slice by (in the run and the qrels): one row per slice.
    per_query: one row per query instead, with every measure (NaN where a measure leaves it out).
    con, dialect, dropna: as for every metric (an engine connection, the SQL dialect, drop NULL rows).

Returns
    pandas.DataFrame: one row (one per ``by`` slice) with the ``by`` columns, a column per measure
    named as written (NaN when no counted query has a relevant item), then n_queries, n_missing and
    n_empty, counted as the first measure counts them; with ``per_query=True``, the query keys, the
    measures and n_relevant.

``sm.render("evaluate", run, qrels=..., measures=[...])`` gives the SQL.

Example
    >>> import pandas as pd, sqlmetrics as sm
    >>> run = pd.DataFrame({'query': [1] * 6 + [2] * 3, 'item': list('abcdefabc'),
    ...                     'score': [6, 5, 4, 3, 2, 1, 3, 2, 1],
    ...                     'relevance': [1, 0, 1, 0, 1, 0, 0, 1, 0]})
    >>> sm.evaluate(run, measures=["P@2", "map", "recip_rank"]).round(4).to_dict("records")
    [{'P@2': 0.5, 'map': 0.6278, 'recip_rank': 0.75, 'n_queries': 2, 'n_missing': 0, 'n_empty': 0}]
    """
    if measures is None and isinstance(qrels, (list, tuple)):
        raise ParameterError("the measures come after the qrels: evaluate(run, qrels, ['ndcg@10', ...]), or "
                             "evaluate(run, measures=[...]) when the run carries the relevance")
    params = dict(qrels=qrels, measures=measures, query=query, item=item, score=score, relevance=relevance,
                  ties=ties, gain=gain, missing=missing, empty=empty, by=by or None)
    if relevance_threshold is not None:
        params["relevance_threshold"] = relevance_threshold
    passes, own = evaluate_passes(params)
    options = dict(con=con, dialect=dialect, details=True, dropna=dropna, per_query=per_query)
    frames = [compute_metric(m, run, **options, **p) for m, p in passes if p["measures"]]
    frames += [_own_query(x, fixed, run, passes[0][1], options) for x, fixed in own]
    order = [x.name for x in read_measures(measures)]
    keys = list(by if isinstance(by, (list, tuple)) else [by] if by else []) + ([query] if per_query else [])
    return _joined(frames, order, keys, ["n_relevant"] if per_query else list(QUERY_COUNTS))


def _own_query(measure: Measure, fixed: dict, run, params: dict, options: dict) -> pd.DataFrame:
    """A measure outside the one pass, by its own metric's query with the parameters its spelling fixes:
    its value column named as the measure."""
    metric = METRICS[measure.metric]
    call = {name: value for name, value in params.items() if name != "measures" and metric.takes(name)} | fixed
    frame = compute_metric(metric, run, **options, **call)
    return frame.drop(columns=["recall_level"], errors="ignore").rename(columns={metric.name: measure.name})


def _joined(frames: list[pd.DataFrame], order: list[str], keys: list[str], counts: list[str]) -> pd.DataFrame:
    """The measures' columns side by side, by slice (or query), in the order written, with the counts of
    the first measure's frame."""
    def frame_of(name):
        return next(f for f in frames if name in f.columns)
    joined = frame_of(order[0])[keys + [c for c in counts if c in frame_of(order[0])]]
    for name in order:
        part = frame_of(name)[keys + [name]]
        joined = joined.merge(part, on=keys, how="outer") if keys else joined.assign(**{name: part[name].to_numpy()})
    joined = joined[keys + order + [c for c in counts if c in joined]]
    return joined.sort_values(keys, ignore_index=True) if keys else joined


def _doc(doc: str) -> str:
    """The docstring with the measures and their spellings as the registry declares them."""
    def wrapped(text):
        return textwrap.fill(text, 100, initial_indent="    ", subsequent_indent="        ").strip()
    spellings = "\n    ".join(wrapped(f"{tool}: {', '.join(shown)}")
                              for tool, shown in spellings_by_tool(CATALOGUE).items())
    one_pass = ", ".join(name for name in CATALOGUE.metrics if METRICS[name].one_pass)
    return (doc.replace("{metrics}", wrapped(", ".join(CATALOGUE.metrics))).replace("{one_pass}", wrapped(one_pass))
            .replace("{spellings}", spellings))


evaluate.__doc__ = _doc(evaluate.__doc__)
