"""Registry-wide properties every metric must have (in the spirit of sklearn's common tests)."""
import doctest

import duckdb
import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import ALL, args, make_binary_frame
from sqlmetrics import plans
from sqlmetrics.registry import METRICS
from sqlmetrics.templates import SQL_DIR, namespace

RANKING = sorted(set(METRICS) - set(ALL))
WEIGHTED = [m for m in ALL if any(p.name == "weight" for p in METRICS[m].params)]
RANK_BASED = ["auc", "gauc", "gini", "rela_impr", "average_precision", "roc_curve", "pr_curve"]
THRESHOLDS = ("threshold",)  # curve columns that a monotone transform of the score changes


def run(name, data, **extra):
    return getattr(sm, name)(data, details=True, **args(name), **extra)


def assert_same(a: pd.DataFrame, b: pd.DataFrame):
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True),
                                  check_dtype=False, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_registered_metric_has_its_template_function_and_docs(name):
    m = METRICS[name]
    assert (SQL_DIR / m.template).is_file()
    assert hasattr(namespace(), name), f"{m.template} must define a macro named {name}"
    function = getattr(sm, name)
    assert name in sm.__all__ and m.formula in function.__doc__ and m.reference in function.__doc__


@pytest.mark.parametrize("name", sorted(METRICS))
def test_docstring_example_runs(name):
    test = doctest.DocTestParser().get_doctest(getattr(sm, name).__doc__, {}, name, None, 0)
    assert test.examples, f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_compute_docstring_example_runs():
    test = doctest.DocTestParser().get_doctest(sm.compute.__doc__, {}, "compute", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert test.examples and runner.summarize(verbose=False).failed == 0


def test_render_docstring_example_runs():
    test = doctest.DocTestParser().get_doctest(sm.render.__doc__, {}, "render", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", ALL)
def test_row_order_does_not_matter(name, binary_frame):
    shuffled = binary_frame.sample(frac=1, random_state=3)
    assert_same(run(name, binary_frame), run(name, shuffled))
    assert_same(run(name, binary_frame, by="c"), run(name, shuffled, by="c"))


@pytest.mark.parametrize("name", WEIGHTED)
def test_unit_weights_equal_no_weights(name, binary_frame):
    ones = binary_frame.assign(w=1.0)
    assert_same(run(name, ones), getattr(sm, name)(ones, details=True, **args(name, weight=True)))


@pytest.mark.parametrize("name", RANK_BASED)
def test_monotone_transform_of_scores_changes_nothing(name, binary_frame):
    transformed = binary_frame.assign(s=np.exp(3 * binary_frame["s"]) - 7, s2=binary_frame["s2"] ** 3)
    a, b = run(name, binary_frame), run(name, transformed)
    keep = [c for c in a.columns if c not in THRESHOLDS]
    assert_same(a[keep], b[keep])


@pytest.mark.parametrize("name", ALL)
def test_each_slice_equals_the_metric_on_that_slice_alone(name, binary_frame):
    sliced = run(name, binary_frame, by=["c", "d"])
    assert list(sliced.columns[:2]) == ["c", "d"]
    for (c, d), part in sliced.groupby(["c", "d"], sort=True):
        alone = run(name, binary_frame[(binary_frame.c == c) & (binary_frame.d == d)])
        assert_same(part.drop(columns=["c", "d", *METRICS[name].across_slices]), alone)


@pytest.mark.parametrize("name", [m for m in ALL if isinstance(METRICS[m].plan, plans.RankWhenScoresDistinct)])
@pytest.mark.parametrize("ties", [True, False])
def test_rank_and_aggregate_plans_agree(name, ties, monkeypatch):
    data = pd.concat([pd.DataFrame({"y": [0, 1], "s": [0.5, 0.5], "s2": [0.1, 0.1], "g": [99, 99], "d": [1, 0]})]
                     + [make_binary_frame(n=800, seed=11, ties=ties)]).reset_index(drop=True)
    monkeypatch.setattr(plans, "RANK_PLAN_DISTINCT_SHARE", 0.0)  # always rank
    ranked = run(name, data)
    monkeypatch.setattr(plans, "RANK_PLAN_DISTINCT_SHARE", 2.0)  # never rank
    assert_same(ranked, run(name, data))


def test_negated_score_gives_one_minus_auc(binary_frame):
    auc = sm.auc(binary_frame, label="y", score="s")
    flipped = sm.auc(binary_frame.assign(s=-binary_frame["s"]), label="y", score="s")
    assert auc + flipped == pytest.approx(1.0, rel=1e-12)


def test_boolean_labels_equal_integer_labels(binary_frame):
    as_bool = binary_frame.assign(y=binary_frame["y"].astype(bool))
    for name in ALL:
        if any(p.role == "label" or p.name == "event" for p in METRICS[name].params):
            assert_same(run(name, binary_frame), run(name, as_bool))


@pytest.mark.parametrize("repeats, low, high", [(1, 0.9, 1.0), (4, 0.1, 0.45), (10, 0.04, 0.25), (2000, 0.0, 0.002)])
def test_the_plan_measure_estimates_the_share_of_distinct_scores(repeats, low, high):
    """Above plans.EXACT_ROWS rows the share comes from a sample of the rows: on the right side of
    plans.RANK_PLAN_DISTINCT_SHARE, and near the exact share counted here by DuckDB, whatever the
    number of repeats of each score."""
    con = duckdb.connect()
    n = 2_000_000
    # i * 7919 mod n is a permutation of 0..n-1 (7919 is prime): every score exactly `repeats` times.
    # Written by one thread, so that the rows are stored in the order of i: the sample is of whole
    # vectors, and the order several threads write in (which changes from run to run) moves the estimate
    con.execute("SET threads TO 1")
    con.execute(f"CREATE TABLE t AS SELECT ((i * 7919) % {n} % {n // repeats})::DOUBLE AS s, i // 2 AS g "
                f"FROM range({n}) AS r(i)")
    con.execute("RESET threads")
    exact = con.execute("SELECT COUNT(DISTINCT s) FROM t").fetchone()[0] / n
    share = plans.distinct_share(lambda sql: con.execute(sql).fetchall(), "t", ["s"], n)
    assert low <= exact <= high and low <= share <= high, (exact, share)
    # in groups of two rows, whose scores differ: a score repeated across groups only is as good as distinct
    if repeats == 2000:
        assert plans.distinct_share(lambda sql: con.execute(sql).fetchall(), "t", ["g", "s"], n) >= 0.5


@pytest.mark.parametrize("stored", ["shuffled", "clustered"])
@pytest.mark.parametrize("size", [2, 10, 100])
def test_the_plan_measure_estimates_the_pairs_within_groups(size, stored):
    """GAUC's pair plan is chosen from sum over groups of n_g^2 / 4 per row, estimated from a sample of
    whole vectors: near the exact value when a group's rows are spread over the table, and above it
    when they are stored together (the rank plan then: the safe direction)."""
    con = duckdb.connect()
    n = 2_000_000
    g = f"hash(i) % {n // size}" if stored == "shuffled" else f"i // {size}"
    con.execute("SET threads TO 1")  # the rows stored in the order of i (see above)
    con.execute(f"CREATE TABLE t AS SELECT {g} AS g FROM range({n}) AS r(i)")
    con.execute("RESET threads")
    exact = con.execute("SELECT SUM(c * c) / 4 / SUM(c) FROM (SELECT COUNT(*) AS c FROM t GROUP BY g)").fetchone()[0]
    assert exact == pytest.approx(size / 4, rel=0.5)
    estimate = plans.pairs_per_row(lambda sql: con.execute(sql).fetchall(), "t", ["g"], n)
    if stored == "shuffled":
        assert estimate == pytest.approx(exact, rel=0.1)
    else:
        assert estimate >= exact
