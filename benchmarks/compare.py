"""sqlmetrics (DuckDB) against scikit-learn on the same in-memory data, side by side.

    python benchmarks/compare.py [--rows 10000000] [--users 100000] [--queries 1000000] [--rounds 3]

AUC (continuous and tied scores), GAUC, and NDCG@10 over queries x 10 items. Prints a Markdown
table: median seconds (min-max) per tool, the ratio to the reference, and the difference of the
values. GAUC's reference is a pandas groupby calling roc_auc_score per user, timed on a subset of
users and extrapolated linearly (it is too slow to run whole): the output says so.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd
from sklearn.metrics import ndcg_score, roc_auc_score

import sqlmetrics as sm


def timed(fn, rounds):
    times, value = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times), value


def pandas_gauc(df):
    per_user = df.groupby("user_id").filter(lambda d: 0 < d["clicked"].sum() < len(d))
    grouped = per_user.groupby("user_id")
    aucs = grouped.apply(lambda d: roc_auc_score(d["clicked"], d["pctr"]), include_groups=False)
    sizes = grouped.size()
    return float((aucs * sizes).sum() / sizes.sum())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1_000_000, help="NDCG@10: queries of 10 items")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(42)
    clicked = (rng.random(args.rows) < 0.05).astype(np.int8)
    continuous = rng.random(args.rows) * 0.6 + clicked * rng.random(args.rows) * 0.4
    df = pd.DataFrame({"clicked": clicked, "pctr": continuous,
                       "user_id": rng.integers(0, args.users, args.rows)})
    tied = df.assign(pctr=df["pctr"].round(3))
    print(f"{args.rows:,} rows, {args.users:,} users, {args.rounds} rounds; median s (min-max)\n")
    print("| case | tool | seconds | ratio vs sklearn | value diff |")
    print("|---|---|---|---|---|")
    for label, data in (("AUC, continuous scores", df), ("AUC, scores rounded to 3 decimals", tied)):
        y, s = data["clicked"].to_numpy(), data["pctr"].to_numpy()
        ref = timed(lambda: roc_auc_score(y, s), args.rounds)
        ours = timed(lambda: sm.auc(data, label="clicked", score="pctr"), args.rounds)
        print(f"| {label} | sklearn roc_auc_score | {ref[0]:.2f} ({ref[1]:.2f}-{ref[2]:.2f}) | 1.0x | |")
        print(f"| {label} | sqlmetrics auc | {ours[0]:.2f} ({ours[1]:.2f}-{ours[2]:.2f}) | "
              f"{ref[0] / ours[0]:.1f}x faster | {abs(ours[3] - ref[3]):.1e} |")

    ours = timed(lambda: sm.gauc(df, label="clicked", score="pctr", group="user_id"), args.rounds)
    subset_users = max(1, args.users // 100)
    subset = df[df["user_id"] < subset_users]
    ref = timed(lambda: pandas_gauc(subset), 1)
    extrapolated = ref[0] * args.users / subset_users
    check = sm.gauc(subset, label="clicked", score="pctr", group="user_id")
    print(f"| GAUC, {args.users:,} users | pandas groupby + roc_auc_score | ~{extrapolated:.0f} "
          f"(extrapolated from {subset_users:,} users: {ref[0]:.2f}) | 1.0x | |")
    print(f"| GAUC, {args.users:,} users | sqlmetrics gauc | {ours[0]:.2f} ({ours[1]:.2f}-{ours[2]:.2f}) | "
          f"{extrapolated / ours[0]:.0f}x faster | {abs(check - ref[3]):.1e} (on the subset) |")

    relevance = rng.integers(0, 4, (args.queries, 10))
    relevance[:, 0] = np.maximum(relevance[:, 0], 1)  # every query has a relevant item (sklearn averages all)
    scores = rng.random((args.queries, 10))
    run = pd.DataFrame({"query": np.repeat(np.arange(args.queries), 10), "item": np.tile(np.arange(10), args.queries),
                        "score": scores.ravel(), "relevance": relevance.ravel()})
    ref = timed(lambda: ndcg_score(relevance, scores, k=10, ignore_ties=True), args.rounds)
    ours = timed(lambda: sm.ndcg(run, k=10, gain="linear"), args.rounds)
    case = f"NDCG@10, {args.queries:,} queries x 10"
    print(f"| {case} | sklearn ndcg_score(ignore_ties=True), dense matrix | {ref[0]:.2f} ({ref[1]:.2f}-{ref[2]:.2f})"
          " | 1.0x | |")
    print(f"| {case} | sqlmetrics ndcg(gain='linear') | {ours[0]:.2f} ({ours[1]:.2f}-{ours[2]:.2f}) | "
          f"{ref[0] / ours[0]:.1f}x {'faster' if ours[0] < ref[0] else 'as fast'} | {abs(ours[3] - ref[3]):.1e} |")


if __name__ == "__main__":
    main()
