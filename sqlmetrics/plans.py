"""How a metric's SQL plan is chosen from the data, for the metrics whose templates have more than
one (the registry's ``plan=``): the words a metric gives ``api.compute``, which knows no metric."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from sqlglot import exp

from .target import Target
from .templates import render_macro

#: rank the rows instead of aggregating per distinct score first when at least this share of the
#: (keys, score) combinations is distinct (aggregating then buys nothing)
RANK_PLAN_DISTINCT_SHARE = 0.5
#: up to this many rows the distinct combinations are counted exactly; above, in a sample of about
#: this many rows
EXACT_ROWS = 100_000


@dataclass(frozen=True)
class ParallelWhenDistributed:
    """A metric with one order over all the rows or distinct values of a slice (curves, average
    precision, quantiles, R^2's mean): 'parallel' on the distributed engines, where one window over
    that order would run in one task, 'aggregate' elsewhere (sql: default_plan). `parallel=False`:
    a metric whose orders are within groups, which spread over the workers anyway: 'aggregate'."""

    parallel: bool = True

    def default(self, dialect: str) -> str:
        return render_macro("default_plan", Target(dialect)).strip() if self.parallel else "aggregate"

    @staticmethod
    def columns_to_measure(values: dict, dialect: str) -> list[str] | None:
        """The columns whose share of distinct combinations decides, or None when the plan is the default."""
        return None

    def choose(self, distinct_share: float | None, dialect: str) -> str:
        return self.default(dialect)


@dataclass(frozen=True)
class RankWhenScoresDistinct(ParallelWhenDistributed):
    """AUC family: 'aggregate' (one row per distinct score and label, then running sums over them),
    'parallel' (the same, with the running sums split by score buckets: auc_parts_from_buckets) or
    'rank' (one sort of the rows, Mann-Whitney rank sums). On DuckDB an unweighted, unbucketed call
    ranks when most scores are distinct; otherwise the dialect's default plan, 'parallel' on the
    distributed engines for a metric with one order over all its scores (GAUC orders the scores of
    each group: parallel=False)."""

    @staticmethod
    def columns_to_measure(values: dict, dialect: str) -> list[str] | None:
        """The slice and group columns with the score: GAUC ranks within each group, so a score
        repeated across groups but not within one is as good as distinct."""
        if values.get("weight") is None and values.get("bins") is None and dialect == "duckdb":
            keys = list(values.get("by") or []) + ([values["group"]] if values.get("group") else [])
            return list(dict.fromkeys(keys + [values["score"]]))
        return None

    def choose(self, distinct_share: float | None, dialect: str) -> str:
        if distinct_share is not None and distinct_share >= RANK_PLAN_DISTINCT_SHARE:
            return "rank"
        return self.default(dialect)


def distinct_share(rows: Callable[[str], list[tuple]], source_sql: str, columns: list[str], n: int) -> float | None:
    """The share of distinct `columns` combinations among the rows of `source_sql` (DuckDB), cheaply:
    exact up to EXACT_ROWS rows; above, from a sample of whole vectors of about EXACT_ROWS rows, where
    a combination seen twice is a collision and d = m^2 / (2 * collisions) estimates the number of
    distinct combinations (the birthday estimate: m rows drawn from d equally common values collide
    about m^2 / 2d times). `n`: the rows of the source. Only the speed of the plan depends on it,
    never a value. None: no rows."""
    cols = ", ".join(exp.to_identifier(c, quoted=True).sql("duckdb") for c in columns)
    if not n:
        return None
    sample = "" if n <= EXACT_ROWS else f" USING SAMPLE {100 * EXACT_ROWS / n:.6f} PERCENT (system)"
    m, distinct = rows(f"SELECT COUNT(*), COUNT(DISTINCT ({cols})) FROM (SELECT {cols} FROM {source_sql}{sample})")[0]
    if not m:
        return 1.0  # a sample that missed every vector: so many rows that distinct scores are the norm
    if n <= EXACT_ROWS:
        return distinct / n
    collisions = m - distinct
    return 1.0 if collisions == 0 else min(1.0, m * m / (2 * collisions) / n)
