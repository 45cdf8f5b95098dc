"""PNG plots of the curves (matplotlib, an optional extra: pip install 'sqlmetrics[plot]')."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd

from .errors import ParameterError
from .registry import PLOTS

KINDS = tuple(PLOTS)


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


def pyplot():
    """matplotlib's pyplot, drawing to files only; a clear error when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ParameterError("plots need matplotlib: pip install 'sqlmetrics[plot]' (or pip install matplotlib)") from None
    return plt


def check_destination(path: Path) -> None:
    """Fail before anything is computed when the PNG could not be written: a directory in the way,
    a parent that is a file, a directory without write permission. Missing directories are made."""
    try:
        if path.is_dir():
            raise ParameterError(f"--plot {str(path)!r} is a directory; name a .png file in it")
        parent = path.absolute().parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise ParameterError(f"--plot {str(path)!r}: {str(parent)!r} is a file, not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise ParameterError(f"--plot {str(path)!r}: no permission to write in {str(parent)!r}")
    except OSError as e:
        raise ParameterError(f"--plot {str(path)!r} cannot be written: {e.strerror or e}") from None


def save_plot(kind: str, curve: pd.DataFrame, path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 5), dpi=120)
    try:
        _draw(ax, kind, curve)
        fig.tight_layout()
        _save(fig, path)
    finally:
        plt.close(fig)


def _draw(ax, kind: str, curve: pd.DataFrame) -> None:
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


def _save(fig, path: Path) -> None:
    """Write to a temporary file beside `path`, then rename it: an interrupted or failed write
    leaves no half-written PNG (and an older one in place)."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fig.savefig(part, format="png")
            os.replace(part, path)
        finally:
            if part.exists():
                part.unlink()
    except OSError as e:
        raise ParameterError(f"--plot {str(path)!r} cannot be written: {e.strerror or e}") from None
