"""Seeded synthetic data for the benchmark, written to Parquet (reused when the file already exists).

clicks_<rows>_<users...>_seed<seed>.parquet, one row per impression:
    label      int8, 1 for ~5% of the rows
    score      float64, continuous (positives score higher on average; no ties in practice)
    score_r3   the same score rounded to 3 decimals: about 1,000 distinct values, so heavy ties
    users_<u>  int64 user id in [0, u), one column per requested user count (e.g. 100k and 1M)

ranking_<queries>x<k>_seed<seed>.parquet, one row per (query, item), k items per query, stored
query by query:
    query      int64 in [0, queries)
    item       int64, distinct within a query
    score      float64, continuous: no two items of a query share a score (checked by the benchmark),
               so every tie-breaking rule gives the same ranking
    relevance  int8 graded 0-3 (60% 0, 20% 1, 12% 2, 8% 3); ~0.6% of the queries have no relevant item

classes_<rows>x<k>_seed<seed>.parquet, one row per example of a k-class problem:
    label       int16 true class in [0, k), skewed (class c drawn with weight 1/(c + 10))
    prediction  int16 predicted class: the true one 60% of the time, else uniform over the k classes

recommendations_<users>x<k>_<items>_seed<seed>.parquet, a recommender's top-k lists, k per user:
    user        int64 in [0, users)
    item        int64 in [0, items), distinct within a user, popular items more often (item pairs
                p, p + 1, ..., p + k - 1 from a skewed draw p = floor(items/2 * u^3), u uniform)
    score       float64, decreasing along the list
interactions_<events>_<users>_<items>_seed<seed>.parquet, the training events of the same users:
    user, item  int64, the same skewed draw of items; an item's parity differs between a user's
                events and recommendations, so no recommended (user, item) pair is a training
                event (Microsoft Recommenders refuses such pairs); the first `items` events
                name every item once, so every recommended item has a popularity

Data are generated in chunks of 10M rows (each chunk seeded by (seed, chunk index)), so the
memory needed to write the file does not grow with its size.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

CHUNK_ROWS = 10_000_000


def user_column(users: int) -> str:
    return f"users_{users}"


def clicks_path(directory: Path, rows: int, users: list[int], seed: int) -> Path:
    return Path(directory) / f"clicks_{rows}_{'-'.join(map(str, users))}_seed{seed}.parquet"


def ranking_path(directory: Path, queries: int, k: int, seed: int) -> Path:
    return Path(directory) / f"ranking_{queries}x{k}_seed{seed}.parquet"


def classes_path(directory: Path, rows: int, k: int, seed: int) -> Path:
    return Path(directory) / f"classes_{rows}x{k}_seed{seed}.parquet"


def recommendations_path(directory: Path, users: int, k: int, items: int, seed: int) -> Path:
    return Path(directory) / f"recommendations_{users}x{k}_{items}_seed{seed}.parquet"


def interactions_path(directory: Path, events: int, users: int, items: int, seed: int) -> Path:
    return Path(directory) / f"interactions_{events}_{users}_{items}_seed{seed}.parquet"


def _write(path: Path, chunks) -> Path:
    """Write the tables yielded by `chunks` to `path` (via a temporary name: no partial file is reused)."""
    if path.exists():
        return path
    tmp = path.with_suffix(".parquet.tmp")
    writer = None
    try:
        for table in chunks:
            if writer is None:
                writer = pq.ParquetWriter(tmp, table.schema)
            writer.write_table(table, row_group_size=1_000_000)
    finally:
        if writer is not None:
            writer.close()
    os.replace(tmp, path)
    return path


def write_clicks(directory: Path, rows: int, users: list[int], seed: int) -> Path:
    def chunks():
        for i, start in enumerate(range(0, rows, CHUNK_ROWS)):
            n = min(CHUNK_ROWS, rows - start)
            rng = np.random.default_rng([seed, 0, i])
            label = (rng.random(n) < 0.05).astype(np.int8)
            score = rng.random(n) * 0.6 + label * rng.random(n) * 0.4
            columns = {"label": label, "score": score, "score_r3": np.round(score, 3)}
            for u in users:
                columns[user_column(u)] = rng.integers(0, u, n, dtype=np.int64)
            yield pa.table(columns)
    return _write(clicks_path(directory, rows, users, seed), chunks())


def write_ranking(directory: Path, queries: int, k: int, seed: int) -> Path:
    per_chunk = max(1, CHUNK_ROWS // k)

    def chunks():
        for i, first in enumerate(range(0, queries, per_chunk)):
            q = min(per_chunk, queries - first)
            rng = np.random.default_rng([seed, 1, i])
            # item ids below 1M: a random catalog block per slot, the slot as last digit keeps them distinct
            item = rng.integers(0, 1_000_000 // k, (q, k), dtype=np.int64) * k + np.arange(k)
            relevance = rng.choice(np.array([0, 1, 2, 3], dtype=np.int8), size=(q, k), p=[0.6, 0.2, 0.12, 0.08])
            score = rng.random((q, k)) + 0.3 * relevance  # informative, continuous
            yield pa.table({
                "query": np.repeat(np.arange(first, first + q, dtype=np.int64), k),
                "item": item.ravel(), "score": score.ravel(), "relevance": relevance.ravel()})
    return _write(ranking_path(directory, queries, k, seed), chunks())


def write_classes(directory: Path, rows: int, k: int, seed: int) -> Path:
    weights = 1 / (np.arange(k) + 10)

    def chunks():
        for i, start in enumerate(range(0, rows, CHUNK_ROWS)):
            n = min(CHUNK_ROWS, rows - start)
            rng = np.random.default_rng([seed, 2, i])
            label = rng.choice(k, size=n, p=weights / weights.sum()).astype(np.int16)
            prediction = np.where(rng.random(n) < 0.6, label, rng.integers(0, k, n)).astype(np.int16)
            yield pa.table({"label": label, "prediction": prediction})
    return _write(classes_path(directory, rows, k, seed), chunks())


def _skewed_pairs(rng, shape, items: int) -> np.ndarray:
    """Item pair indices in [0, items/2), low ones (the popular items) much more often."""
    return np.floor(items // 2 * rng.random(shape) ** 3).astype(np.int64)


def write_recommendations(directory: Path, users: int, k: int, items: int, seed: int) -> Path:
    per_chunk = max(1, CHUNK_ROWS // k)
    step = np.arange(k, dtype=np.int64)  # k consecutive pairs: distinct within a list

    def chunks():
        for i, first in enumerate(range(0, users, per_chunk)):
            u = min(per_chunk, users - first)
            rng = np.random.default_rng([seed, 3, i])
            user = np.arange(first, first + u, dtype=np.int64)
            pairs = (_skewed_pairs(rng, (u, 1), items) + step) % (items // 2)
            item = 2 * pairs + ((user[:, None] + 1) % 2)  # parity unlike the user's events
            score = np.sort(rng.random((u, k)), axis=1)[:, ::-1]
            yield pa.table({"user": np.repeat(user, k), "item": item.ravel(), "score": score.ravel()})
    return _write(recommendations_path(directory, users, k, items, seed), chunks())


def write_interactions(directory: Path, events: int, users: int, items: int, seed: int) -> Path:
    def chunks():
        for i, start in enumerate(range(0, events, CHUNK_ROWS)):
            n = min(CHUNK_ROWS, events - start)
            rng = np.random.default_rng([seed, 4, i])
            user = rng.integers(0, users, n, dtype=np.int64)
            item = 2 * _skewed_pairs(rng, n, items) + user % 2
            if i == 0:  # every item once first (novelty needs every recommended item's popularity)
                m = min(n, items)
                item[:m] = np.arange(m)
                user[:m] = user[:m] - user[:m] % 2 + item[:m] % 2
            yield pa.table({"user": user, "item": item})
    return _write(interactions_path(directory, events, users, items, seed), chunks())
