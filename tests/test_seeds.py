"""The worked examples of the metric write-ups this project started from, computed by hand there
(docs/conventions.md#worked-examples)."""
import math

import pandas as pd
import pytest

import sqlmetrics as sm


def seed000_models():
    """Seed 000, GAUC section: samples sorted by score ascending, user 甲/乙, +/- labels.
    Model A: 甲- 甲+ 乙- 甲+ 乙+ ; Model B: 甲- 甲+ 甲+ 乙- 乙+ (score = position)."""
    a = [("甲", 0), ("甲", 1), ("乙", 0), ("甲", 1), ("乙", 1)]
    b = [("甲", 0), ("甲", 1), ("甲", 1), ("乙", 0), ("乙", 1)]
    return [pd.DataFrame({"用户": [u for u, _ in m], "点击": [y for _, y in m], "score": range(1, 6)})
            for m in (a, b)]


def test_seed000_auc_differs_but_gauc_is_one():
    model_a, model_b = seed000_models()
    assert sm.auc(model_a, label="点击", score="score") == pytest.approx(5 / 6, rel=1e-12)
    assert sm.auc(model_b, label="点击", score="score") == pytest.approx(4 / 6, rel=1e-12)
    for weighting in ("impressions", "clicks", "uniform", "pairs"):
        for model in (model_a, model_b):
            assert sm.gauc(model, label="点击", score="score", group="用户", weighting=weighting) == 1.0


def test_seed000_rela_impr_of_model_a_over_b():
    # The same five samples scored by both models: a = position under model A, b = under model B.
    both = pd.DataFrame({"y": [0, 1, 0, 1, 1], "a": [1, 2, 3, 4, 5], "b": [1, 2, 4, 3, 5]})
    assert sm.auc(both, label="y", score="b") == pytest.approx(4 / 6)
    # (5/6 - 1/2) / (4/6 - 1/2) - 1 = (1/3) / (1/6) - 1 = 1: model A is 100% better than B
    assert sm.rela_impr(both, label="y", score="a", base_score="b") == pytest.approx(1.0, rel=1e-12)


def test_seed003_auc_is_six_of_eight_pairs():
    # Records A..F; A and D clicked. A outscores all four unclicked, D only E and F: 6/8 = 0.75.
    df = pd.DataFrame({"record": list("ABCDEF"), "clicked": [1, 0, 0, 1, 0, 0],
                       "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]})
    assert sm.auc(df, label="clicked", score="score") == 0.75


def test_seed003_table1_global_auc_below_one_but_each_user_perfect():
    # Two users, 2 clicks, 6 non-clicks: 12 pairs, only the two cross-user pairs
    # (甲-B, 乙-E) and (甲-C, 乙-E) are out of order: AUC = 10/12; each user's AUC is 1.
    df = pd.DataFrame({
        "user": ["甲", "甲", "甲", "乙", "乙", "乙", "乙", "乙"],
        "item": list("ABCDEFGH"),
        "click": [1, 0, 0, 0, 1, 0, 0, 0],
        "score": [0.9, 0.8, 0.7, 0.3, 0.6, 0.2, 0.1, 0.05]})
    assert sm.auc(df, label="click", score="score") == pytest.approx(10 / 12, rel=1e-12)
    per_user = sm.auc(df, label="click", score="score", by="user")
    assert per_user["auc"].tolist() == [1.0, 1.0]
    # Seed 003's pooled GAUC (sum of numerators / sum of denominators) = 1 too.
    details = sm.gauc(df, label="click", score="score", group="user", weighting="pairs", details=True)
    assert details["gauc"][0] == 1.0 and details["n_groups_used"][0] == 2


SEED004 = pd.DataFrame({"y": [1, 0, 1, 1, 0, 1], "p": [0.8, 0.96, 0.4, 0.1, 0.15, 0.7]})


@pytest.mark.parametrize("threshold, tpr, fpr", [(0.0, 1.0, 1.0), (0.2, 0.75, 0.5), (0.5, 0.5, 0.5),
                                                 (1.0, 0.0, 0.0)])
def test_seed004_roc_table(threshold, tpr, fpr):
    assert sm.recall(SEED004, label="y", score="p", threshold=threshold) == tpr
    assert 1 - sm.specificity(SEED004, label="y", score="p", threshold=threshold) == fpr


def test_seed004_roc_curve_passes_through_the_table_points():
    curve = sm.roc_curve(SEED004, label="y", score="p")
    points = set(zip(curve["fpr"], curve["tpr"]))
    assert {(1.0, 1.0), (0.5, 0.75), (0.5, 0.5), (0.0, 0.0)} <= points


def test_seed004_f1_of_recall_one_tenth_and_precision_one():
    # "recall=0.1, precision=1, then F1=0.18"
    df = pd.DataFrame({"y": [1] * 10 + [0] * 5, "hat": [1] + [0] * 14})
    assert sm.precision(df, label="y", prediction="hat") == 1.0
    assert sm.recall(df, label="y", prediction="hat") == pytest.approx(0.1)
    assert math.isclose(sm.f1(df, label="y", prediction="hat"), 2 * 0.1 / 1.1, rel_tol=1e-12)
    assert round(sm.f1(df, label="y", prediction="hat"), 2) == 0.18
