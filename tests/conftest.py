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
