"""Writes sqlmetrics/data/sample.csv, the small impression log the demo and README use.

    python benchmarks/make_sample.py

Seeded, so the file is reproducible: 200 users, 6,000 impressions, ~8% clicks, a model score
`pctr` (4 decimals, so some ties) and an older model's `pctr_base`, plus a `country` to slice by.
"""
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parent.parent / "sqlmetrics" / "data" / "sample.csv"


def main():
    rng = np.random.default_rng(2026)
    n, users = 6000, 200
    user = rng.integers(1, users + 1, n)
    taste = rng.normal(0, 1, users + 1)[user]  # some users click more: AUC mixes users, GAUC does not
    signal = rng.normal(0, 1, n)
    clicked = (rng.random(n) < 1 / (1 + np.exp(-(-3.0 + 1.2 * signal + 0.8 * taste)))).astype(int)
    pctr = 1 / (1 + np.exp(-(-3.0 + 1.0 * signal + 0.3 * taste + rng.normal(0, 0.5, n))))
    base = 1 / (1 + np.exp(-(-3.0 + 0.6 * signal + rng.normal(0, 0.8, n))))
    frame = pd.DataFrame({
        "user_id": user, "item_id": rng.integers(1000, 5000, n),
        "country": rng.choice(["BR", "DE", "JP"], n, p=[0.5, 0.3, 0.2]),
        "clicked": clicked, "pctr": pctr.round(4), "pctr_base": base.round(4)})
    frame.to_csv(OUT, index=False)
    print(f"wrote {OUT} ({len(frame)} rows, {clicked.mean():.1%} clicked)")


if __name__ == "__main__":
    main()
