"""PNG, SVG or PDF plots of the curves (matplotlib, an optional extra: pip install 'sqlmetrics[plot]')."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import ParameterError
from .registry import PLOTS

if TYPE_CHECKING:
    import pandas as pd

KINDS = tuple(PLOTS)
#: file extension -> matplotlib's format
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
TITLES = {"roc": "ROC curve", "pr": "Precision-recall curve", "calibration": "Calibration (reliability)"}


def parse_plot_spec(spec: str) -> tuple[str, Path]:
    """'roc=out.png' -> ('roc', out.png); 'model_roc.svg' -> the kind named in the file name. The
    file's extension says its format (FORMATS)."""
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
    if Path(path).suffix.lower() not in FORMATS:
        raise ParameterError(f"--plot {spec!r}: the file must end in {', '.join(FORMATS)} (its format)")
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
    """Fail before anything is computed when the file could not be written: a directory in the way,
    a parent that is a file, a directory without write permission. Missing directories are made."""
    try:
        if path.is_dir():
            raise ParameterError(f"--plot {str(path)!r} is a directory; name a file in it")
        parent = path.absolute().parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise ParameterError(f"--plot {str(path)!r}: {str(parent)!r} is a file, not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise ParameterError(f"--plot {str(path)!r}: no permission to write in {str(parent)!r}")
    except OSError as e:
        raise ParameterError(f"--plot {str(path)!r} cannot be written: {e.strerror or e}") from None


def save_plot(kind: str, curves: dict[str, pd.DataFrame], path: Path, weighted: bool = False) -> None:
    """The curves of one or more scores (score column -> its curve) on one plot, saved to `path`."""
    plt = pyplot()
    fig = figure(kind, curves, weighted)
    try:
        _save(fig, path)
    finally:
        plt.close(fig)


def figure(kind: str, curves: dict[str, pd.DataFrame], weighted: bool = False):
    """The figure of `kind` (roc, pr, calibration) for the curves of each score (score -> curve).
    The title names the scores and the rows the curves are on (total weight when `weighted`)."""
    plt = pyplot()
    if kind == "calibration":  # the rows per bin under the curve, as a mostly empty bin is no evidence
        fig, (ax, counts) = plt.subplots(2, 1, figsize=(5.5, 6.5), dpi=120, sharex=True,
                                         gridspec_kw={"height_ratios": (3, 1)})
    else:
        fig, ax = plt.subplots(figsize=(5.5, 5), dpi=120)
    first = next(iter(curves.values()))
    if kind == "roc":
        total = float(first[["tp", "fp", "tn", "fn"]].iloc[0].sum())
        ax.plot([0, 1], [0, 1], ls="--", color="grey", lw=1, label="chance")
    elif kind == "pr":  # every row predicted positive (the last point): tp = positives, fp = negatives
        total = float(first["tp"].iloc[-1] + first["fp"].iloc[-1])
        prevalence = float(first["tp"].iloc[-1]) / total
        ax.axhline(prevalence, ls="--", color="grey", lw=1, label=f"positive share = {prevalence:.4f}")
    else:
        total = float(first["n"].sum())
        ax.plot([0, 1], [0, 1], ls="--", color="grey", lw=1, label="perfectly calibrated")
    for score, curve in curves.items():
        _draw(ax, kind, score, curve)
        if kind == "calibration":
            counts.bar(curve["mean_predicted"], curve["n"], width=0.8 / (int(curve["bin"].max()) + 1), alpha=0.5,
                       label=score)
    size = f"total weight {total:,.6g}" if weighted else f"{total:,.0f} rows"
    ax.set_title(f"{TITLES[kind]}: {', '.join(curves)} ({size})")
    ax.set_xlim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right" if kind == "roc" else "best")
    if kind == "calibration":
        counts.set(xlabel="mean predicted probability", ylabel="weight per bin" if weighted else "rows per bin",
                   yscale="log")
        counts.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def _draw(ax, kind: str, score: str, curve: pd.DataFrame) -> None:
    if kind == "roc":
        area = float(((curve["fpr"].diff().fillna(0)) * (curve["tpr"] + curve["tpr"].shift().fillna(0)) / 2).sum())
        ax.plot(curve["fpr"], curve["tpr"], lw=2, label=f"{score} (AUC = {area:.4f})")
        ax.set(xlabel="false positive rate", ylabel="true positive rate")
    elif kind == "pr":
        recall, precision = curve["recall"], curve["precision"]
        ap = float((recall.diff().fillna(0) * precision).sum())
        ax.step(recall, precision, where="pre", lw=2, label=f"{score} (AP = {ap:.4f})")
        ax.set(xlabel="recall", ylabel="precision", ylim=(0, 1.02))
    else:
        ax.plot(curve["mean_predicted"], curve["fraction_positive"], marker="o", lw=2, label=score)
        ax.set(ylabel="fraction of positives")


def _save(fig, path: Path) -> None:
    """Write to a temporary file beside `path`, then rename it: an interrupted or failed write
    leaves no half-written file (and an older one in place)."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fig.savefig(part, format=FORMATS[path.suffix.lower()])
            os.replace(part, path)
        finally:
            if part.exists():
                part.unlink()
    except OSError as e:
        raise ParameterError(f"--plot {str(path)!r} cannot be written: {e.strerror or e}") from None


def save_drift_plot(bins: pd.DataFrame, names: list[str], path: Path, by: list[str]) -> None:
    """Each column's two distributions (sm.drift_bins' shares of every bin or category, reference beside
    current), a panel per (slice, column), saved to `path`."""
    plt = pyplot()
    panels = list(bins.groupby([*by, "column_index"], dropna=False, sort=False))
    across = min(3, len(panels))
    down = -(-len(panels) // across)
    fig, axes = plt.subplots(down, across, figsize=(5 * across, 3.6 * down), dpi=120, squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (key, part) in zip(axes.flat, panels):
        key = key if isinstance(key, tuple) else (key,)
        labels = [str(c) if c is not None else f"{_shown(lo)} to {_shown(hi)}"
                  for c, lo, hi in zip(part["category"], part["low"], part["high"])]
        at = range(len(part))
        ax.bar([i - 0.2 for i in at], part["share_reference"], width=0.4, label="reference")
        ax.bar([i + 0.2 for i in at], part["share_current"], width=0.4, label="current")
        ax.set_xticks(list(at), labels, rotation=45 if len(part) > 4 else 0, ha="right" if len(part) > 4 else "center",
                      fontsize=8)
        where = ", ".join(f"{b}={v}" for b, v in zip(by, key[:-1]))
        ax.set_title(names[int(key[-1]) - 1] + (f" ({where})" if where else ""))
        ax.set_ylabel("share of the window's values")
        ax.grid(axis="y", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    try:
        _save(fig, path)
    finally:
        plt.close(fig)


def _shown(value: float) -> str:
    return f"{value:.4g}"
