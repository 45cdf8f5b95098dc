"""PNG plots of the curves (matplotlib, an optional extra: pip install 'sqlmetrics[plot]')."""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .errors import ParameterError

KINDS = ("roc", "pr", "calibration")


def parse_plot_spec(spec: str) -> tuple[str, Path]:
    """'roc=out.png' -> ('roc', out.png); 'model_roc.png' -> the kind named in the file name."""
    kind, sep, path = spec.partition("=")
    if not sep:
        path = spec
        words = set(re.split(r"[^a-z0-9]+", Path(spec).stem.lower()))
        found = [k for k in KINDS if k in words]
        if len(found) != 1:
            raise ParameterError(f"--plot {spec!r}: say which plot, e.g. --plot roc={spec} "
                                 f"(one of {', '.join(KINDS)})")
        kind = found[0]
    if kind not in KINDS:
        raise ParameterError(f"--plot {spec!r}: the kind must be one of {', '.join(KINDS)}")
    if Path(path).suffix.lower() != ".png":
        raise ParameterError(f"--plot {spec!r}: the file must end in .png")
    return kind, Path(path)


def save_plot(kind: str, curve: pd.DataFrame, path: Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ParameterError("plots need matplotlib: pip install 'sqlmetrics[plot]' (or pip install matplotlib)") from None
    fig, ax = plt.subplots(figsize=(5.5, 5), dpi=120)
    if kind == "roc":
        area = float(((curve["fpr"].diff().fillna(0)) * (curve["tpr"] + curve["tpr"].shift().fillna(0)) / 2).sum())
        ax.plot(curve["fpr"], curve["tpr"], lw=2, label=f"ROC (AUC = {area:.4f})")
        ax.plot([0, 1], [0, 1], ls="--", color="grey", lw=1, label="chance")
        ax.set(xlabel="false positive rate", ylabel="true positive rate", title="ROC curve")
    elif kind == "pr":
        recall, precision = curve["recall"], curve["precision"]
        ap = float((recall.diff().fillna(0) * precision).sum())
        ax.step(recall, precision, where="pre", lw=2, label=f"PR (AP = {ap:.4f})")
        ax.set(xlabel="recall", ylabel="precision", title="Precision-recall curve", ylim=(0, 1.02))
    else:
        ax.plot([0, 1], [0, 1], ls="--", color="grey", lw=1, label="perfectly calibrated")
        ax.plot(curve["mean_predicted"], curve["fraction_positive"], marker="o", lw=2, label="model")
        ax.set(xlabel="mean predicted probability", ylabel="fraction of positives", title="Calibration (reliability)")
    ax.set_xlim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right" if kind == "roc" else "best")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
