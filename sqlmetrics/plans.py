"""How a metric's SQL plan is chosen from the data, for the metrics whose templates have more than
one (the registry's ``plan=``): the words a metric gives ``api.compute``, which knows no metric."""
from __future__ import annotations

from dataclasses import dataclass

#: rank the rows instead of aggregating per distinct score first when at least this share of the
#: scores is distinct (aggregating then buys nothing)
RANK_PLAN_DISTINCT_SHARE = 0.5


@dataclass(frozen=True)
class RankWhenScoresDistinct:
    """AUC family: 'aggregate' (one row per distinct score and label, then sums over them) or
    'rank' (one sort of the rows, Mann-Whitney rank sums). On DuckDB an unweighted, unbucketed call
    ranks when most scores are distinct; elsewhere, and for weights or bins, it aggregates."""

    default: str = "aggregate"

    @staticmethod
    def column_to_measure(values: dict, dialect: str) -> str | None:
        """The column whose share of distinct values decides, or None when the plan is the default."""
        if values.get("weight") is None and values.get("bins") is None and dialect == "duckdb":
            return values["score"]
        return None

    def choose(self, distinct_share: float | None) -> str:
        if distinct_share is not None and distinct_share >= RANK_PLAN_DISTINCT_SHARE:
            return "rank"
        return self.default
