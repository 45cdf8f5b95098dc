"""benchmarks/compare.py: the notes under its table explain the marks the table shows, and only those."""
import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "compare.py"


def _module():
    spec = importlib.util.spec_from_file_location("benchmark_compare", PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_notes_explain_the_marks_shown_and_a_missing_ranx():
    bench = _module()
    Case, Tool = bench.Case, bench.Tool
    args = SimpleNamespace(queries=1000, ranx_max_queries=1_000_000)
    # `--only ndcg` without ranx installed: no mark in the table, so no note of one; ranx's absence said
    alone = [Case("NDCG@10, 1,000 queries", [Tool("sqlmetrics", "sqlmetrics"), Tool("numpy", "floor")])]
    absent = bench.ranx_left_out(args, have_ranx=False)
    assert bench.footnotes(alone, set(), absent) == [
        "ranx is not installed (pip install -e '.[bench]'): its rows are left out.", "peak RSS: not measured."]
    # with ranx: its mark and build time, an extrapolated tool's note; nothing said of ranx's absence
    assert bench.ranx_left_out(args, have_ranx=True) is None
    ranx = Tool(bench.RANX_OBJECTS, "reference", build_seconds=2.0)
    slow = Tool("Microsoft Recommenders ‡", "competitor", note="timed on the first 1,000 queries")
    notes = bench.footnotes([Case("NDCG@10, 1,000 queries", [ranx, slow])], set(), None)
    assert notes == ["‡ extrapolated: 1,000 queries: timed on the first 1,000 queries. Its peak RSS is that of the "
                     "subset.",
                     "† ranx: numba JIT compilation excluded (warm-up call); inputs built once, not timed: "
                     "ranx `evaluate(Qrels, Run)` 2.0 s.",
                     "peak RSS: not measured."]
    too_many = bench.ranx_left_out(SimpleNamespace(queries=2_000_000, ranx_max_queries=1_000_000), have_ranx=True)
    assert too_many == "ranx Qrels/Run left out: 2,000,000 queries > --ranx-max-queries 1,000,000."
