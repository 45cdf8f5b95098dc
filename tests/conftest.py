import numpy as np
import pandas as pd
import pytest


def make_binary_frame(n=600, seed=7, groups=12, ties=True):
    """Labels, tied or continuous scores, weights (some 0), groups incl. one-class ones, slices."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    y = (rng.random(n) < 0.3 + 0.04 * (g % 5)).astype(int)
    y[g == 0] = 1  # an all-positive group
    y[g == 1] = 0  # an all-negative group
    s = np.clip(0.35 * y + rng.normal(0.4, 0.2, n), 0, 1)
    if ties:
        s = np.round(s, 1)
    return pd.DataFrame({
        "y": y, "s": s, "s2": np.clip(s + rng.normal(0, 0.3, n), 0, 1),
        "w": np.where(rng.random(n) < 0.05, 0.0, rng.random(n) * 2),
        "g": g, "c": rng.choice(["a", "b", "c"], n), "d": rng.integers(0, 2, n),
        "hat": (rng.random(n) < 0.4).astype(int),
        "t": rng.normal(0, 1, n), "p": rng.normal(0, 1, n)})


@pytest.fixture
def binary_frame():
    return make_binary_frame()


def make_ranking_frames(n_queries=30, seed=5):
    """A run and qrels with what trips ranking code: tied scores, unjudged retrieved items, judged
    items never retrieved, queries without relevant items, qrels queries absent from the run and
    run queries absent from the qrels, item ids whose text and numeric orders differ."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(n_queries):
        country = "de" if q % 3 else "jp"
        items = rng.choice(60, size=rng.integers(1, 15), replace=False)
        if q % 7 != 6:  # some judged queries are missing from the run
            for i in items:
                run.append((q, f"d{i}", int(rng.integers(0, 4)), country))
        judged = set(rng.choice(items, size=min(len(items), rng.integers(0, 8)), replace=False))
        judged |= set(rng.choice(60, size=rng.integers(0, 4)))  # judged, maybe never retrieved
        for i in judged:
            grade = 0 if q % 5 == 4 else int(rng.choice([0, 0, 1, 2, 3]))  # q % 5 == 4: nothing relevant
            qrels.append((q, f"d{i}", grade, country))
    run += [(n_queries + 1, "d1", 1, "de")]  # a run query nobody judged
    run = pd.DataFrame(run, columns=["query", "item", "score", "c"])
    qrels = pd.DataFrame(qrels, columns=["query", "item", "relevance", "c"])
    return run, qrels


@pytest.fixture
def ranking_frames():
    return make_ranking_frames()
