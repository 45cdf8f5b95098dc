"""The beyond-accuracy metrics of a run's top-k lists (novelty, serendipity, distributional_coverage,
gini_index, average_popularity, tail_share, catalog_coverage) against oracles written from the
definitions of Microsoft Recommenders (recommenders.evaluation.python_evaluation 1.2.1) and RecBole
(recbole/evaluator/metrics.py), in plain pandas/numpy: Microsoft Recommenders 1.2.1 does not run on
pandas 3, and RecBole needs torch. The oracles (between the two "oracles" rules below) were checked
once against the real Microsoft Recommenders functions (pandas 2) and RecBole's own get_gini /
get_pop / get_tail methods on random data; they never call sqlmetrics.

The data: users with lists of 1 to 12 items (short lists), integer scores (ties, broken by item id
as bytes, descending: 'i9' > 'i10'), popularity-skewed training interactions, users without
interactions, similarities given in one direction or both, a slice column.
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from sqlmetrics.errors import ColumnError, EngineError, ParameterError, UndefinedMetricError

# -- oracles ------------------------------------------------------------------------------------


def top_k(run: pd.DataFrame, k) -> pd.DataFrame:
    """Each user's list by score descending, ties by item id as bytes descending (trec_eval's order), cut at k."""
    ordered = run.assign(key=run["item"].map(lambda i: str(i).encode())).sort_values(
        ["query", "score", "key"], ascending=[True, False, False], kind="stable")
    return (ordered.groupby("query", sort=False).head(k) if k else ordered).drop(columns="key")


def ms_novelty(train, reco):
    """Microsoft Recommenders novelty: sum over recommended items of count_in_reco * -log2(count / n_train), / n_reco."""
    count = train.groupby("item").size()
    novelty = -np.log2(count / len(train))
    per_item = reco.groupby("item").size()
    return float((per_item * novelty.reindex(per_item.index)).sum() / len(reco))


def ms_serendipity(train, reco, similarity, relevance=None):
    """Microsoft Recommenders serendipity: per (user, item) (1 - mean over the user's training rows of
    sim(item, h)) * relevance; per user the mean; the mean over users (users without history drop
    out in the inner merge). `similarity`: dict frozenset({a, b}) -> value, missing 0."""
    history = train.groupby("query")["item"].apply(list).to_dict()
    users = []
    for user, rows in reco.groupby("query"):
        if user not in history:
            continue
        values = []
        for _, row in rows.iterrows():
            sims = [similarity.get(frozenset((row["item"], h)), 0.0) for h in history[user]]
            rel = 1.0 if relevance is None else float(row[relevance])
            values.append((1 - np.mean(sims)) * rel)
        users.append(np.mean(values))
    return float(np.mean(users)) if users else math.nan


def ms_distributional_coverage(reco):
    p = reco.groupby("item").size() / len(reco)
    return float(-(p * np.log2(p)).sum())


def ms_catalog_coverage(train, reco):
    return reco["item"].nunique() / train["item"].nunique()


def recbole_gini(items, num_items):
    """RecBole GiniIndex.get_gini over the recommended items (a flat list, lists of any length)."""
    sorted_count = np.array(sorted(Counter(items).values()))
    idx = np.arange(num_items - len(sorted_count) + 1, num_items + 1)
    return float(np.sum((2 * idx - num_items - 1) * sorted_count) / len(items) / num_items)


def recbole_average_popularity(lists, item_count):
    """RecBole AveragePopularity: per user the mean of item_count.get(item, 0) over its list; mean over users."""
    return float(np.mean([np.mean([item_count.get(i, 0) for i in items]) for items in lists]))


def recbole_tail_items(count_items, tail, order=None):
    """RecBole TailPercentage.get_tail's tail set: count <= tail when tail > 1, else the first
    max(int(n * tail), 1) items sorted by (count, order key): RecBole's key is its internal item id."""
    if tail > 1:
        return {item for item, cnt in count_items.items() if cnt <= tail}
    key = order or (lambda item: item)
    ranked = sorted(count_items.items(), key=lambda kv: (kv[1], key(kv[0])))
    return {item for item, _ in ranked[:max(int(len(ranked) * tail), 1)]}


def recbole_tail_share(lists, tail_items):
    return float(np.mean([np.mean([1 if i in tail_items else 0 for i in items]) for items in lists]))


# -- end of oracles -------------------------------------------------------------------------------


def make_data(seed: int):
    """run (query, item, score, c), train (query, item), similarity table and its lookup."""
    rng = np.random.default_rng(seed)
    n_items = int(rng.integers(15, 60))
    pool = [f"i{j}" for j in range(n_items)]
    weights = 1.0 / np.arange(1, n_items + 1) ** 1.1  # popularity: a long tail
    weights /= weights.sum()
    users = range(int(rng.integers(8, 40)))
    train_rows, run_rows = [], []
    for u in users:
        seen = set()
        if rng.random() > 0.15:  # ~15% of the users have no interactions
            for _ in range(int(rng.integers(1, 15))):
                item = pool[rng.choice(n_items, p=weights)]
                seen.add(item)
                train_rows.append((u, item))  # repeats are events too
        fresh = [i for i in pool if i not in seen]
        length = int(rng.integers(1, min(12, len(fresh)) + 1))
        for item, score in zip(rng.choice(fresh, length, replace=False), rng.integers(0, 4, length)):
            run_rows.append((u, str(item), int(score), "de" if u % 3 else "jp"))
    run = pd.DataFrame(run_rows, columns=["query", "item", "score", "c"])
    train = pd.DataFrame(train_rows, columns=["query", "item"])
    # every recommended item has interactions (or novelty would be infinite): one more event each
    missing = sorted(set(run["item"]) - set(train["item"]))
    train = pd.concat([train, pd.DataFrame({"query": 10_000, "item": missing})], ignore_index=True)
    sim_rows, lookup = [], {}
    for a in range(n_items):
        for b in range(a + 1, n_items):
            if rng.random() < 0.4:
                s = float(np.round(rng.random(), 2))
                lookup[frozenset((pool[a], pool[b]))] = s
                sim_rows.append((pool[a], pool[b], s) if rng.random() < 0.5 else (pool[b], pool[a], s))
                if rng.random() < 0.3:
                    sim_rows.append(sim_rows[-1][1::-1] + (s,))
    return run, train, pd.DataFrame(sim_rows, columns=["item_a", "item_b", "similarity"]), lookup


def lists_of(reco):
    return [list(rows["item"]) for _, rows in reco.groupby("query", sort=True)]


def reference(name, run, train, lookup, k, n_items):
    """The oracle's value of metric `name` on the top-k lists of `run`."""
    reco = top_k(run, k)
    counts = train.groupby("item").size().to_dict()
    return {
        "novelty": lambda: ms_novelty(train, reco),
        "serendipity": lambda: ms_serendipity(train, reco, lookup),
        "distributional_coverage": lambda: ms_distributional_coverage(reco),
        "gini_index": lambda: recbole_gini(list(reco["item"]), n_items),
        "average_popularity": lambda: recbole_average_popularity(lists_of(reco), counts),
        "tail_share": lambda: recbole_tail_share(lists_of(reco), recbole_tail_items(counts, 3)),
        "catalog_coverage": lambda: ms_catalog_coverage(train, reco),
    }[name]()


def params(name, train, similarity, n_items):
    return {"novelty": {"interactions": train}, "serendipity": {"interactions": train, "similarity": similarity},
            "distributional_coverage": {}, "gini_index": {"n_items": n_items},
            "average_popularity": {"interactions": train}, "tail_share": {"interactions": train, "tail": 3},
            "catalog_coverage": {"items": train}}[name]


NAMES = ("novelty", "serendipity", "distributional_coverage", "gini_index", "average_popularity", "tail_share",
         "catalog_coverage")
PER_USER = ("serendipity", "average_popularity", "tail_share")


def test_against_the_reference_definitions():
    """Every metric on random data (3 seeds, k None, 1, 3 or 5), with by= slices and, for the means
    over users, per_query=True; the catalogue of gini_index bigger than the items seen."""
    for seed, ks in enumerate([(None, 3), (1, 5), (None, 2)]):
        run, train, similarity, lookup = make_data(seed)
        n_items = train["item"].nunique() + 5
        for k in ks:
            for name in NAMES:
                kw = dict(params(name, train, similarity, n_items), k=k)
                what = f"{name}(seed={seed}, k={k})"
                assert getattr(sm, name)(run, **kw) == pytest.approx(
                    reference(name, run, train, lookup, k, n_items), rel=1e-12, abs=1e-12), what
                sliced = getattr(sm, name)(run, by="c", **kw)
                for c, part in run.groupby("c"):
                    got = sliced.loc[sliced["c"] == c, "coverage" if name == "catalog_coverage" else name].item()
                    assert got == pytest.approx(reference(name, part, train, lookup, k, n_items), rel=1e-12,
                                                abs=1e-12), (what, c)
                if name in PER_USER:
                    per_user = getattr(sm, name)(run, per_query=True, **kw).set_index("query")[name]
                    for user in (3, 7):
                        mine = run[run["query"] == user]
                        if name != "serendipity" or user in set(train["query"]):
                            assert per_user[user] == pytest.approx(
                                reference(name, mine, train, lookup, k, n_items), rel=1e-12), (what, user)
                    assert getattr(sm, name)(run, **kw) == pytest.approx(per_user.mean(), rel=1e-12)


def test_counts_and_popularity_tables():
    """n_* outputs; a popularity table of the interactions' counts gives what the interactions give;
    serendipity with a relevance column; items absent from the popularity source."""
    run, train, similarity, lookup = make_data(11)
    k = 4
    reco = top_k(run, k)
    counts = train.groupby("item", as_index=False).size().rename(columns={"size": "count"})
    for name in ("novelty", "average_popularity", "tail_share"):
        assert getattr(sm, name)(run, popularity=counts, k=k) == pytest.approx(
            getattr(sm, name)(run, train, k=k), rel=1e-12), name
    d = sm.novelty(run, train, k=k, details=True)
    assert d["n_recommendations"].item() == len(reco)
    d = sm.serendipity(run, train, similarity=similarity, k=k, details=True)
    with_history = set(reco["query"]) & set(train["query"])
    assert (d["n_users"].item(), d["n_without_history"].item()) == (len(with_history), reco["query"].nunique() - len(with_history))
    graded = run.assign(rel=(run["score"] % 3) * 0.5)  # relevance 0, 0.5 and 1
    assert sm.serendipity(graded, train, similarity=similarity, k=k, relevance="rel") == pytest.approx(
        ms_serendipity(train, top_k(graded, k), lookup, relevance="rel"), rel=1e-12)
    d = sm.distributional_coverage(run, k=k, details=True)
    assert (d["n_recommendations"].item(), d["n_covered"].item()) == (len(reco), reco["item"].nunique())
    d = sm.gini_index(run, k=k, items=pd.DataFrame({"item": [f"i{j}" for j in range(80)]}), details=True)
    assert d["gini_index"].item() == pytest.approx(recbole_gini(list(reco["item"]), 80), rel=1e-12)
    assert (d["n_covered"].item(), d["n_items"].item()) == (reco["item"].nunique(), 80)
    # items the popularity source lacks: popularity 0 (RecBole's item_count.get(item, 0)) and never in the tail
    partial = counts[counts["item"] != reco["item"].iloc[0]]
    partial_counts = dict(zip(partial["item"], partial["count"]))
    assert sm.average_popularity(run, popularity=partial, k=k) == pytest.approx(
        recbole_average_popularity(lists_of(reco), partial_counts), rel=1e-12)
    d = sm.tail_share(run, popularity=partial, k=k, tail=2, details=True)
    tail = recbole_tail_items(partial_counts, 2)
    assert d["tail_share"].item() == pytest.approx(recbole_tail_share(lists_of(reco), tail), rel=1e-12)
    assert d["n_tail_items"].item() == len(tail)


def test_tail_share_as_a_share_of_the_items():
    """tail <= 1: RecBole's cut of max(int(n * tail), 1) items by increasing count (the product in
    double precision: 0.29 * 100 = 28.999... cuts 28). Where the cut splits a group of equal counts,
    the value is RecBole's averaged over every order of that group's items (each rotation of the
    group's order puts each item among the first r in r of its m rotations)."""
    # 100 items of distinct counts 1..100 (no group to split): exactly RecBole's, whatever the order
    items = [f"i{j}" for j in range(100)]
    popularity = pd.DataFrame({"item": items, "count": range(1, 101)})
    run = pd.DataFrame({"query": np.repeat(range(20), 5), "item": np.random.default_rng(0).choice(items, 100),
                        "score": np.tile(range(5), 20)})
    run = run.drop_duplicates(["query", "item"])
    counts = dict(zip(popularity["item"], popularity["count"]))
    for tail in (0.29, 0.1, 0.5, 0.001, 1.0):
        d = sm.tail_share(run, popularity=popularity, tail=tail, details=True)
        want = recbole_tail_items(counts, tail)
        assert d["n_tail_items"].item() == len(want) and (tail != 0.29 or len(want) == 28)
        assert d["tail_share"].item() == pytest.approx(recbole_tail_share(lists_of(top_k(run, None)), want),
                                                       rel=1e-12), tail
    # the random data: counts with many ties, so the cut splits a group
    for seed in range(3):
        run, train, _, _ = make_data(20 + seed)
        counts = train.groupby("item").size().to_dict()
        lists = lists_of(top_k(run, 5))
        for tail in (0.1, 0.25, 0.6):
            cut = max(int(len(counts) * tail), 1)
            boundary = sorted(counts.values())[cut - 1]
            group = sorted(i for i, c in counts.items() if c == boundary)
            rotations = [recbole_tail_share(lists, recbole_tail_items(
                counts, tail, order=lambda i, r=r: (group.index(i) + r) % len(group) if i in group else 0))
                for r in range(len(group))]
            d = sm.tail_share(run, train, k=5, tail=tail, details=True)
            assert d["tail_share"].item() == pytest.approx(np.mean(rotations), rel=1e-12), (seed, tail)
            assert d["n_tail_items"].item() == cut


def test_small_cases_by_hand():
    run = pd.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "b"], "score": [3, 2, 1, 2, 1]})
    train = pd.DataFrame({"query": [3, 3, 4, 5], "item": ["a", "b", "a", "c"]})  # a: 2, b: 1, c: 1 of 4
    # novelty: -log2 of 2/4, 1/4, 1/4, 2/4, 1/4 = 1, 2, 2, 1, 2 -> 8/5
    assert sm.novelty(run, train) == pytest.approx(1.6, abs=1e-15)
    assert sm.novelty(run, train, k=1) == pytest.approx(1.0, abs=1e-15)  # a, a
    # distributional coverage of a: 2, b: 2, c: 1 -> -(2 * 0.4 log2 0.4 + 0.2 log2 0.2)
    assert sm.distributional_coverage(run) == pytest.approx(-(0.8 * math.log2(0.4) + 0.2 * math.log2(0.2)))
    assert sm.distributional_coverage(run, k=1) == 0.0  # one item for everyone
    # gini over 5 items, counts 0, 0, 1, 2, 2: (-4*0 - 2*0 + 0*1 + 2*2 + 4*2) / (5 * 5) = 12 / 25
    assert sm.gini_index(run, n_items=5) == pytest.approx(0.48, abs=1e-15)
    assert sm.gini_index(run, k=1, n_items=5) == pytest.approx(0.8, abs=1e-15)  # (n - 1) / n
    assert sm.gini_index(run, n_items=3, k=1) == pytest.approx(2 / 3, abs=1e-15)
    # ARP: user 1 (2 + 1 + 1) / 3, user 2 (2 + 1) / 2
    assert sm.average_popularity(run, train) == pytest.approx((4 / 3 + 1.5) / 2, abs=1e-15)
    # tail = 1.5: b and c; user 1 2/3, user 2 1/2. tail = 0.34: floor(3 * 0.34) = 1 of the group b, c: each 1/2
    assert sm.tail_share(run, train, tail=1.5) == pytest.approx((2 / 3 + 0.5) / 2, abs=1e-15)
    assert sm.tail_share(run, train, tail=0.34) == pytest.approx((1 / 3 + 0.25) / 2, abs=1e-15)
    # catalog_coverage is coverage: 3 of the training data's 3 items; and it names coverage's columns
    assert sm.catalog_coverage(run, items=train, k=1, details=True).to_dict("records") == [
        {"coverage": 1 / 3, "n_covered": 1, "n_items": 3}]
    # serendipity: users 1 and 2 with histories {d} and {c}; sim(a, d) = 0.4, sim(b, c) = 1
    history = pd.DataFrame({"query": [1, 2], "item": ["d", "c"]})
    sim = pd.DataFrame({"item_a": ["d", "c"], "item_b": ["a", "b"], "similarity": [0.4, 1.0]})
    # user 1: a 0.6, b 1 -> 0.8; user 2: a 1, b 0 -> 0.5
    got = sm.serendipity(run[run["item"] != "c"].assign(query=[1, 1, 2, 2]), history, similarity=sim,
                         per_query=True)
    assert got["serendipity"].tolist() == pytest.approx([0.8, 0.5], abs=1e-15)


def test_refusals():
    run = pd.DataFrame({"query": [1, 1, 2], "item": ["a", "b", "c"], "score": [2, 1, 1]})
    train = pd.DataFrame({"query": [3, 3], "item": ["a", "b"]})
    # novelty: c has no interactions, p = 0: an error naming how many, in Python and in SQL (k: the top k)
    with pytest.raises(ColumnError, match=r"1 item of the run is not in interactions, e.g. 'c'.*infinite"):
        sm.novelty(run, train)
    with pytest.raises(EngineError, match=r"items recommended have no popularity .*; found 1"):
        sm.novelty(run, train, k=1)
    assert sm.novelty(pd.DataFrame({"query": 1, "item": ["a", "c"], "score": [2, 1]}), train, k=1) == 1.0  # c: beyond
    zero = pd.DataFrame({"item": ["a", "b", "c"], "count": [3, 1, 0]})
    with pytest.raises(ColumnError, match=r"1 item of the run is not in popularity \(or counted 0\)"):
        sm.novelty(run, popularity=zero)
    with pytest.raises(EngineError, match=r"found 2"):
        sm.novelty(run.assign(item=["a", "d", "c"], score=[1, 2, 1]), popularity=zero, k=1)
    for name in ("novelty", "average_popularity", "tail_share"):
        with pytest.raises(ParameterError, match="exactly one of interactions or popularity"):
            getattr(sm, name)(run)
        with pytest.raises(ParameterError, match="exactly one of interactions or popularity"):
            getattr(sm, name)(run, train, popularity=zero)
        twice = pd.DataFrame({"item": ["a", "a", "b"], "count": [1, 2, 1]})
        with pytest.raises(ColumnError, match=r"popularity has more than one row for 1 item, e.g. 'a'"):
            getattr(sm, name)(run, popularity=twice)
        with pytest.raises(ColumnError, match="counts must be non-negative"):
            getattr(sm, name)(run, popularity=zero.assign(count=[1, -1, 2]))
    with pytest.raises(ParameterError, match="tail must be > 0"):
        sm.tail_share(run, train, tail=0)
    # gini_index: a catalogue smaller than the run, or lacking items of the run
    with pytest.raises(ParameterError, match="n_items=2 is below the 3 distinct items of the run"):
        sm.gini_index(run, n_items=2)
    with pytest.raises(ColumnError, match=r"1 item of the run is not in the catalogue \(items\), e.g. 'c'"):
        sm.gini_index(run, items=train)
    with pytest.raises(ParameterError, match="exactly one of n_items or items"):
        sm.gini_index(run)
    # serendipity: a recommended item the user interacted with; a conflicting similarity; no history at all
    sim = pd.DataFrame({"item_a": ["a"], "item_b": ["b"], "similarity": [0.5]})
    own = pd.DataFrame({"query": [1, 2], "item": ["b", "a"]})
    with pytest.raises(ColumnError, match=r"1 recommended \(user, item\) pair is among the interactions, e.g. user 1 "
                                          r"and item 'b'"):
        sm.serendipity(run, own, similarity=sim)
    with pytest.raises(EngineError, match=r"among the interactions of their user .*; found 1"):
        sm.serendipity(run.assign(score=[1, 2, 1]), own, similarity=sim, k=1)
    assert sm.serendipity(run, own, similarity=sim, k=1) == 0.75  # b is beyond user 1's top 1: (0.5 + 1) / 2
    with pytest.raises(ColumnError, match="two different similarities"):
        sm.serendipity(run, own.assign(query=[5, 6]),
                       similarity=pd.concat([sim, sim.assign(item_a="b", item_b="a", similarity=0.7)]))
    with pytest.raises(UndefinedMetricError, match="no user of the run has interactions"):
        sm.serendipity(run, train, similarity=sim)
