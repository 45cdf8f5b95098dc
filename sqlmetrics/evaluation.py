"""``sm.evaluate``: several ranking measures, named as ranx, ir_measures and trec_eval name them, in one pass."""
from __future__ import annotations

import pandas as pd

from .api import compute
from .errors import ParameterError
from .registry import evaluate_of


def evaluate(run, qrels=None, measures=None, *, query: str = "query", item: str = "item", score: str = "score",
             relevance: str = "relevance", ties: str = "item_desc", gain: str = "exponential",
             relevance_threshold: float | None = None, missing: str = "zero", empty: str = "zero", by=None,
             per_query: bool = False, con=None, dialect: str | None = None, dropna: bool = False) -> pd.DataFrame:
    """Several ranking measures in one pass over the run: ``sm.evaluate(run, qrels, ["ndcg@10", "P@5", "map"])``.

    Each measure is the value its own sqlmetrics function gives (``"P@5"`` is
    ``sm.precision_at_k(run, qrels, k=5)``), all computed by one SQL query: the judgments, the ranking
    and one aggregation per query are shared. One pass covers ndcg, dcg, map (AP), mrr (RR),
    precision, recall (macro), hit_rate (Success) and r_precision; the other ranking metrics (bpref,
    err, rbp, ...) are refused here with the function that computes them.

Measure strings (case-insensitive; the column keeps the text as written)
    sqlmetrics, ranx: NAME or NAME@K with NAME ndcg, dcg, map (mean_average_precision), mrr, precision
        (precision_at_k), recall (recall_at_k), hit_rate, r_precision / r-precision, set_precision,
        set_recall; ranx's ndcg_burges@K and dcg_burges@K (exponential gain).
    ir_measures: nDCG@K, P@K, R@K, AP, AP@K, RR, RR@K, Success@K, Rprec, SetP, SetR; the relevance
        level P(rel=2)@5 (grades >= 2 are relevant: the call's relevance_threshold), and
        nDCG(dcg=exp-log2)@K (exponential gain).
    trec_eval: P_K, recall_K, ndcg_cut_K, ndcg, map, map_cut_K, recip_rank, success_K, Rprec, set_P,
        set_recall.
    K is the cut-off; without it map, mrr, ndcg and dcg take the whole list; precision, recall and
    hit_rate need it (set_P and set_recall are the whole list). map@K divides by R, the query's
    relevant items, as trec_eval's map_cut, ir_measures' AP@K and ranx's map@K.

Gain of ndcg and dcg
    sqlmetrics' spellings (ndcg, ndcg@10, nDCG@10, dcg@5) use the call's ``gain``, by default
    'exponential' (2^rel - 1) as ``sm.ndcg`` does, so that ``evaluate(run, qrels, ["ndcg@10"])`` is
    ``sm.ndcg(run, qrels, k=10)``. trec_eval's cut-off name ndcg_cut_10 is its linear gain (rel), and
    ranx's ndcg_burges the exponential one. ranx's ndcg@K, ir_measures' nDCG@K and trec_eval's
    whole-list ndcg use linear gain: pass ``gain='linear'`` (or write ndcg_cut_K) for their numbers.

Parameters
    run: the ranked lists (query, item, score), as for any ranking metric: table name,
        sqlmetrics.Query, Parquet/CSV/JSON path or glob, or a pandas/polars/pyarrow frame.
    qrels: the judgments (query, item, relevance); omit when the run carries the relevance column.
    measures: a list of measure strings (or one string).
    query, item, score, relevance: the column names.
    ties: order of equal scores: 'item_desc' (trec_eval), 'item_asc', or 'average' (the expected
        value over the orders of a tie group; only for ndcg, dcg, precision and recall).
    gain: the gain of the sqlmetrics spellings of ndcg and dcg: 'exponential' or 'linear'.
    relevance_threshold: an item is relevant iff its relevance >= this (default 1, or the measures'
        rel=, which must agree: one threshold per call).
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
    m, params = evaluate_of(params)
    return compute(m, run, con=con, dialect=dialect, details=True, dropna=dropna, per_query=per_query, **params)
