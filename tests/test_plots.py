"""What the plots draw, read back from matplotlib's objects: the title (score columns, rows), one
curve per score, the PR plot's prevalence baseline, the calibration plot's rows per bin."""
import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from sqlmetrics.plots import figure

pytest.importorskip("matplotlib")


def test_titles_baselines_curves_and_bin_counts():
    import matplotlib.pyplot as plt
    rng = np.random.default_rng(5)
    n = 500
    y = (rng.random(n) < 0.3).astype(int)
    df = pd.DataFrame({"y": y, "a": np.clip(0.4 * y + 0.6 * rng.random(n), 0, 1).round(3),
                       "b": rng.random(n).round(3)})
    for kind, name in (("roc", "roc_curve"), ("pr", "pr_curve"), ("calibration", "calibration_curve")):
        curves = {s: getattr(sm, name)(df, label="y", score=s) for s in ("a", "b")}
        fig = figure(kind, curves)
        try:
            ax = fig.axes[0]
            assert ax.get_title().endswith(": a, b (500 rows)"), ax.get_title()
            labels = [line.get_label() for line in ax.get_lines()]
            assert sum(label.startswith(("a", "b")) for label in labels) == 2, labels  # one curve per score
            if kind == "pr":
                baseline = next(line for line in ax.get_lines() if line.get_label().startswith("positive share"))
                assert baseline.get_ydata()[0] == pytest.approx(y.mean(), rel=1e-12)
            if kind == "calibration":  # the rows of each non-empty uniform bin of 5, per score
                heights = [bar.get_height() for bar in fig.axes[1].patches]
                expected = []
                for s in ("a", "b"):
                    counts = np.bincount(np.searchsorted(np.linspace(0, 1, 6)[1:-1], df[s]), minlength=5)
                    expected += [c for c in counts if c]
                assert heights == expected
        finally:
            plt.close(fig)
    weighted = figure("roc", {"a": sm.roc_curve(df.assign(w=0.5), label="y", score="a", weight="w")}, weighted=True)
    assert weighted.axes[0].get_title() == "ROC curve: a (total weight 250)"
    plt.close(weighted)
