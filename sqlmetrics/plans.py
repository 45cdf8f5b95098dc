"""How a metric's SQL plan is chosen from the data, for the metrics whose templates have more than
one (the registry's ``plan=``): the words a metric gives ``api.compute``, which knows no metric."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from . import dialects

#: rank the rows instead of aggregating per distinct score first when at least this share of the
#: (keys, score) combinations is distinct (aggregating then buys nothing)
RANK_PLAN_DISTINCT_SHARE = 0.5
#: up to this many rows the distinct combinations are counted exactly; above, in a sample of about
#: this many rows
EXACT_ROWS = 100_000
#: GAUC compares each positive with each negative of its group instead of ranking when the groups
#: are small: at most this many pairs of rows per row, over 4 (a bound on its positive-negative
#: pairs: n_pos * n_neg <= n^2 / 4). On 10M rows (benchmarks/formulations.py) a million users'
#: impressions (a bound of 2.75, 0.47 pairs per row at 5% positives) take 1.1 s by pairs against
#: 1.6 s by rank; a hundred thousand users' (4.75 pairs per row) 1.6 s against 1.2 s, about what
#: the worst case this bound lets through, balanced labels, would cost.
PAIRS_PER_ROW = 4.0
#: the AUC's rank plan sorts all the rows at once while DuckDB's memory_limit gives them at least this
#: many bytes each; below, it ranks them within buckets of their score ('rank_buckets', a window
#: DuckDB sorts partition by partition, where one sort past its memory merges its runs from disk).
#: Measured on 2 cores, each plan forced in turn: 1B rows under 4 GB (benchmarks/spill.py's data), 186 s
#: against 670 s; 100M rows under 1 GB, 14.6 s both; where the limit is larger per row the one sort is the faster (100M under 4 GB:
#: 8.6 s against 12 s; 10M under 100 MB: 1.4 s against 2.3 s).
BYTES_PER_RANKED_ROW = 8
#: drift sorts the rows themselves ('rank') when the numeric columns' values are at least this distinct
#: on average (mean_distinct_share); below, it sorts each column's distinct values ('aggregate'). Measured
#: on 1M rows x 20 columns a window (DuckDB, 2 cores): all values distinct, 15 s against 32 s; ten values a
#: column, 12 s against 0.75 s: the plans cost the same near a share of 0.4.
DRIFT_RANK_SHARE = 0.4


@dataclass(frozen=True)
class ParallelWhenDistributed:
    """A metric with one order over all the rows or distinct values of a slice (curves, average
    precision, quantiles, R^2's mean): 'parallel' on the distributed engines, where one window over
    that order would run in one task, 'aggregate' elsewhere (sql: default_plan). `parallel=False`:
    a metric whose orders are within groups, which spread over the workers anyway: 'aggregate'."""

    parallel: bool = True

    def default(self, dialect: str) -> str:
        from .target import Target  # imported when a call needs them: the registry loads without sqlglot
        from .templates import render_macro
        return render_macro("default_plan", Target(dialect)).strip() if self.parallel else "aggregate"

    @staticmethod
    def columns_to_measure(values: dict, dialect: str) -> list[str] | None:
        """The columns whose share of distinct combinations decides, or None when the plan is the default."""
        return None

    def choose(self, distinct_share: float | None, dialect: str) -> str:
        return self.default(dialect)

    def choose_from(self, rows: Callable[[str], list[tuple]], source_sql: str, values: dict, n: int | None,
                    dialect: str) -> str:
        """The plan for `values` on the `n` rows of `source_sql` (None: counted here, where the choice
        depends on them), measured where the choice depends on them."""
        measured = self.columns_to_measure(values, dialect)
        return self.choose(distinct_share(rows, source_sql, measured, count(rows, source_sql, n)) if measured
                           else None, dialect)


@dataclass(frozen=True)
class RankWhenScoresDistinct(ParallelWhenDistributed):
    """AUC family, curves and average precision: 'aggregate' (one row per distinct score and label,
    then running sums over them), 'parallel' (the same, with the running sums split by score
    buckets) or 'rank' (one sort of the rows: Mann-Whitney rank sums, running sums over the rows).
    On DuckDB an unweighted, unbucketed call (every point of a curve: no max_points) ranks when most
    (slice, score) combinations are distinct; otherwise the dialect's default plan, 'parallel' on
    the distributed engines for a metric with one order over all its scores (GAUC orders the scores
    of each group: parallel=False)."""

    @staticmethod
    def columns_to_measure(values: dict, dialect: str) -> list[str] | None:
        """The slice and group (or class) columns with the score: GAUC ranks within each group, so a score
        repeated across groups but not within one is as good as distinct. A paired test's
        other_score too (compare's `other`, auc_compare's under compare): its aggregate plan joins each
        row to the placements of either score, slow when either is mostly distinct, and the pair is at
        least as distinct as each."""
        if all(values.get(p) is None for p in ("weight", "bins", "max_points", "max_fpr")) \
                and dialects.of(dialect).plans_from_data:
            keys = list(values.get("by") or []) + [values[k] for k in ("group", "class_") if values.get(k)]
            others = [values[p] for p in ("other_score", "other") if values.get(p)]
            return list(dict.fromkeys(keys + [values["score"]] + others))
        return None

    def choose(self, distinct_share: float | None, dialect: str) -> str:
        if distinct_share is not None and distinct_share >= RANK_PLAN_DISTINCT_SHARE:
            return "rank"
        return self.default(dialect)


@dataclass(frozen=True)
class PairsWhenGroupsSmall(RankWhenScoresDistinct):
    """GAUC: where it would rank the rows (distinct scores within the groups), 'pairs' instead when
    its groups are small (PAIRS_PER_ROW): no sort at all, the cost of a join that grows with each
    group's size squared, which the bound keeps near the rows' count."""

    def choose_from(self, rows, source_sql, values, n, dialect):
        n = count(rows, source_sql, n) if self.columns_to_measure(values, dialect) else n
        plan = super().choose_from(rows, source_sql, values, n, dialect)
        if plan != "rank":
            return plan
        groups = list(values.get("by") or []) + [values["group"]]
        return "pairs" if pairs_per_row(rows, source_sql, groups, n) <= PAIRS_PER_ROW else plan


@dataclass(frozen=True)
class BucketsWhenRowsMany(RankWhenScoresDistinct):
    """AUC and Gini: where they would rank the rows, 'rank_buckets' when DuckDB's memory limit gives
    them fewer than BYTES_PER_RANKED_ROW each: ranked within buckets of their score, each bucket sorted
    on its own (auc_parts_by_buckets)."""

    def choose_from(self, rows, source_sql, values, n, dialect):
        n = count(rows, source_sql, n) if self.columns_to_measure(values, dialect) else n
        plan = super().choose_from(rows, source_sql, values, n, dialect)
        if plan != "rank":
            return plan
        return "rank_buckets" if n * BYTES_PER_RANKED_ROW > memory_limit(rows) else plan


@dataclass(frozen=True)
class RowsWhenValuesDistinct(ParallelWhenDistributed):
    """The drift metrics: on DuckDB, 'rank' (every value sorted in one window over the rows, its ties found
    by peer-aware frames) when the numeric columns' values are mostly distinct (their mean distinct share,
    DRIFT_RANK_SHARE), where a GROUP BY of each column's distinct values first costs more than it saves;
    'aggregate' otherwise; the dialect's default elsewhere, 'parallel' on the distributed engines."""

    @staticmethod
    def columns_to_measure(values: dict, dialect: str) -> list[str] | None:
        return list(values.get("columns") or []) or None if dialects.of(dialect).plans_from_data else None

    def choose_from(self, rows, source_sql, values, n, dialect):
        measured = self.columns_to_measure(values, dialect)
        share = mean_distinct_share(rows, source_sql, measured, count(rows, source_sql, n)) if measured else None
        return "rank" if share is not None and share >= DRIFT_RANK_SHARE else self.default(dialect)


def memory_limit(rows: Callable[[str], list[tuple]]) -> int:
    """DuckDB's memory_limit in bytes (it shows it as '3.7 GiB')."""
    number, unit = rows("SELECT current_setting('memory_limit')")[0][0].split()
    return int(float(number) * 1024 ** ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB").index(unit))


def count(rows: Callable[[str], list[tuple]], source_sql: str, n: int | None) -> int:
    """`n`, or where the call has not counted the rows of `source_sql` (its screens ride in the metric's
    statement), their count (DuckDB: from the table's or frame's row count, reading no column)."""
    return rows(f"SELECT COUNT(*) FROM {source_sql}")[0][0] if n is None else n


def _sample(n: int) -> str:
    """A seeded sample of whole vectors of about EXACT_ROWS of the `n` rows (seeded: the same data gets
    the same plan); all rows up to EXACT_ROWS."""
    return "" if n <= EXACT_ROWS else f" USING SAMPLE {100 * EXACT_ROWS / n:.6f} PERCENT (system, 42)"


def _column_list(columns: list[str]) -> str:
    from sqlglot import exp
    return ", ".join(exp.to_identifier(c, quoted=True).sql("duckdb") for c in columns)


def pairs_per_row(rows: Callable[[str], list[tuple]], source_sql: str, groups: list[str], n: int) -> float:
    """An estimate of sum over the `groups` combinations of (rows in it)^2 / 4, per row of the `n`
    rows of `source_sql` (DuckDB): a bound on the positive-negative pairs within groups. From the
    sample's group sizes c, whose squares sum to f^2 * sum n_g^2 + f (1 - f) * sum n_g in expectation
    (each row drawn with chance f); whole vectors drawn, rows of one group stored together are
    counted high: a choice made in the safe direction (the rank plan)."""
    cols = _column_list(groups)
    m, squares = rows(f"SELECT SUM(sm_c), SUM(sm_c * sm_c) FROM (SELECT COUNT(*) AS sm_c FROM "
                      f"(SELECT {cols} FROM {source_sql}{_sample(n)}) AS sm_sample GROUP BY {cols}) AS sm_groups")[0]
    if not m:
        return 0.0
    f = m / n
    return max(0.0, (squares - (1 - f) * m) / (f * f)) / (4 * n)


def distinct_share(rows: Callable[[str], list[tuple]], source_sql: str, columns: list[str], n: int) -> float | None:
    """The share of distinct `columns` combinations among the `n` rows of `source_sql` (DuckDB),
    cheaply: exact up to EXACT_ROWS rows; above, from a sample of whole vectors of about EXACT_ROWS
    rows, as the number d of equally common values of which m rows drawn without replacement (a
    share f = m/n) would show D: D = d (1 - (1 - f)^(n/d)).
    Only the speed of the plan depends on it, never a value. None: no rows."""
    cols = _column_list(columns)
    if not n:
        return None
    m, seen = rows(f"SELECT COUNT(*), COUNT(DISTINCT ({cols})) FROM (SELECT {cols} FROM {source_sql}{_sample(n)})")[0]
    return _share(n, m, seen)


def mean_distinct_share(rows: Callable[[str], list[tuple]], source_sql: str, columns: list[str],
                        n: int) -> float | None:
    """The mean over `columns` of each one's share of distinct values among the `n` rows of `source_sql`
    (DuckDB), from its first EXACT_ROWS rows, taken for a sample (distinct_share's estimate): a sample of
    a file would read all of it (DuckDB samples the rows a scan gives), the first rows only their share
    of it. None: no rows."""
    if not n:
        return None
    counted = ", ".join(f"COUNT(DISTINCT {_column_list([c])})" for c in columns)
    m, *seen = rows(f"SELECT COUNT(*), {counted} FROM (SELECT {_column_list(columns)} FROM {source_sql} "
                    f"LIMIT {EXACT_ROWS})")[0]
    return sum(_share(n, m, d) for d in seen) / len(seen)


def _share(n: int, m: int, seen: int) -> float:
    """The share of distinct values among `n` rows of which a sample of `m` (all of them up to EXACT_ROWS)
    shows `seen` (distinct_share)."""
    if n <= EXACT_ROWS:
        return seen / n
    if not m or seen == m:
        return 1.0  # no value seen twice: as good as distinct
    unseen = math.log1p(-m / n)  # log of the chance that one row is not drawn
    low, high = float(seen), float(n)  # the expected D grows with d: bisect (in ratio) for the observed one
    for _ in range(60):
        d = math.sqrt(low * high)
        low, high = (d, high) if d * -math.expm1(n / d * unseen) < seen else (low, d)
    return min(1.0, high / n)
