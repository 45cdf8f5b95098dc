"""How a metric's SQL plan is chosen from the data, for the metrics whose templates have more than
one (the registry's ``plan=``): the words a metric gives ``api.compute``, which knows no metric."""
from __future__ import annotations

from dataclasses import dataclass

from .target import Target
from .templates import render_macro

#: rank the rows instead of aggregating per distinct score first when at least this share of the
#: scores is distinct (aggregating then buys nothing)
RANK_PLAN_DISTINCT_SHARE = 0.5


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
    def column_to_measure(values: dict, dialect: str) -> str | None:
        """The column whose share of distinct values decides, or None when the plan is the default."""
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
    def column_to_measure(values: dict, dialect: str) -> str | None:
        if values.get("weight") is None and values.get("bins") is None and dialect == "duckdb":
            return values["score"]
        return None

    def choose(self, distinct_share: float | None, dialect: str) -> str:
        if distinct_share is not None and distinct_share >= RANK_PLAN_DISTINCT_SHARE:
            return "rank"
        return self.default(dialect)
