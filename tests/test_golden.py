"""Proven SQL for the engines that cannot run here (and, cheaply, for the others).

For every registered metric x dialect, the canonical call of ``tests/make_golden.py``:

1. renders exactly the text of ``tests/golden/<dialect>/<metric>.sql`` (every change to the
   generated SQL is a visible diff in review; regenerate with ``python tests/make_golden.py``);
2. parses with sqlglot in that dialect into exactly one SELECT;
3. is free of the known cross-engine hazards (docs/conventions.md#hazards), checked on the
   syntax tree parsed *in the target dialect* (so it is the target's meaning that is checked) and,
   where sqlglot would hide a spelling, on the target dialect's tokens:

   - LOG: no one-argument LOG (its base is 10 on some engines, e on others; sqlglot even reads
     MySQL's ``LOG(x)`` as LN). Logarithms are LN(x), or LN(x)/LN(2) for base 2.
   - FILTER / COUNT_IF: no ``agg(...) FILTER (WHERE ...)``, no COUNT_IF / COUNTIF (missing on MySQL,
     Redshift, ... and sqlglot passes them through): SUM(CASE WHEN ... THEN 1 ELSE 0 END).
   - Booleans: no boolean-typed expression (comparison, IS/IN/LIKE/BETWEEN/EXISTS, AND/OR/NOT,
     TRUE/FALSE) is CAST, aggregated (SUM/AVG/MIN/MAX/COUNT argument) or an operand of + - * /:
     engines disagree on whether booleans are numbers (PostgreSQL, Trino, BigQuery refuse).
   - Division: the rule of ``guard_problem`` (NULLIF(..., 0), a nonzero constant, or one of
     ``ALLOWED_DENOMINATORS``, each with the reason it cannot be 0). Engines disagree on x/0 (an
     error on PostgreSQL, Redshift, Snowflake, BigQuery, Trino, Databricks with ANSI on; NULL on
     MySQL, SQLite, Spark), so a new unguarded division fails here.
   - NULL ordering: the rule above ``NEVER_NULL`` (NULLs sort last as in
     DuckDB, or the key is one of ``NEVER_NULL``).
   - Infinity: CAST('inf' AS DOUBLE) only where the engine reads it (``INFINITY_SPELLINGS``).
   - ClickHouse (``CLICKHOUSE_RULES``): no NULL test (IS NULL, COALESCE other than COALESCE(x, 0))
     of a column of a LEFT JOIN's joined side, which ClickHouse fills with 0 or '' where no row
     matches (the templates test a marker column, ``1 AS sm_listed`` ... ``sm_listed = 1``); no bare
     name that an output alias of the same SELECT shadows (ClickHouse reads the alias).
   - sqlglot itself must log nothing (no warning, no construct it could not translate): rendering
     every metric in every dialect is silent.
4. The same hazard checks run on ``SWEEP``: the other SQL paths (every other value of the choice
   parameters, bins, max_grade, items, unweighted, no qrels) in the six engines that cannot run here
   and in ClickHouse.

The exceptions (``ALLOWED_DENOMINATORS``, ``NEVER_NULL``) are keyed by the expression and name the
template macros (pieces: ``ranked_rows``, ``query_judgments``, ...) that write it; rendering a case
records the macros it calls (``sqlmetrics.templates.traced``), and an exception holds in that case's
SQL when one of its macros was called. A new metric built on those pieces needs no edit here; a new
division or sort key needs a NULLIF (NULLS LAST), or an entry with the macro that writes it. Every
(expression, macro) pair must still be relied on by some case (the tests over every case, last).

Each case (dialect, golden name, SWEEP variant) is rendered, parsed and checked when a test first
asks for it (``result``), so ``pytest -k auc`` analyses auc's cases only. All ~1,500 cases cost
over a minute of CPU: under pytest-xdist each analysis is kept in a file of the run's shared directory,
where the tests over every case (last in this file) find what the other workers did. The golden
files depend on the sqlglot minor series (pinned in pyproject.toml); a sqlglot upgrade that changes
them is reviewed like any other change of the SQL.
"""
from __future__ import annotations

import difflib
import functools
import logging
import math
import operator
import os
import pickle
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.tokens import TokenType

import make_golden as golden
from conftest import with_choice
import sqlmetrics as sm
from sqlmetrics import sqltext, templates
from sqlmetrics.registry import METRICS

DIALECTS = golden.DIALECTS
#: what cannot run here; the hazard checks matter most for these
REMOTE = ("bigquery", "snowflake", "trino", "redshift", "mysql", "databricks")
#: where an unmatched LEFT JOIN row holds its types' defaults (0, ''), not NULL (join_use_nulls=0, the
#: default), and a bare name in a SELECT is the output alias of that name where there is one
#: (_join_null_tests, _alias_shadows): ClickHouse. sqlglot's SQL for the others may differ there
#: (BigQuery's GROUP BY names an output alias), so these are checked in ClickHouse's SQL only.
CLICKHOUSE_RULES = ("clickhouse",)
#: the dialects whose SQL of the SWEEP variants is checked
SWEPT = REMOTE + CLICKHOUSE_RULES
NAMES = golden.NAMES  # the metrics and sm.bootstrap's SQL (checked as the metric it bootstraps)
CASES = [pytest.param(d, n, id=f"{d}-{n}") for d in DIALECTS for n in NAMES]

REGENERATE = "run `python tests/make_golden.py` and review `git diff tests/golden`"


def _sweep() -> dict[tuple[str, str], tuple[str, dict]]:
    """Variants of the canonical calls, checked for hazards (not kept as golden files) in the SWEPT
    dialects: every other value of every choice parameter (except `missing` and `empty`, which only
    flip a literal, and ties='item_asc', which only flips the direction of the tie-break: checked on
    mrr for ranked_run.sql and coverage for ranked_lists.sql), the sample values of the number
    parameters (Param.sample, all of a metric's at once), and the options that switch to another SQL
    path."""
    out = {}
    for name in sorted(METRICS):
        data, params = golden.call(name)
        for p in METRICS[name].params:
            if p.kind == "choice" and p.name not in ("missing", "empty"):
                for choice in p.choices:
                    if choice == "item_asc" and name not in ("mrr", "coverage"):
                        continue  # flips the tie-break's direction: once per template is enough
                    if choice != params.get(p.name, p.default):
                        out[name, f"{p.name}={choice}"] = (data, with_choice(name, params, p.name, choice))
        samples = METRICS[name].samples(params)
        if samples:  # every number parameter the registry gives a sample, in every dialect
            out[name, "samples"] = (data, params | samples)
    extra = {
        ("auc", "bins=100"): {"bins": 100},
        ("err", "max_grade=4"): {"max_grade": 4},
        ("coverage", "items=analytics.items"): {"n_items": None, "items": "analytics.items"},
        ("gini_index", "items=analytics.items"): {"n_items": None, "items": "analytics.items"},
        ("novelty", "popularity table"): {"interactions": None, "popularity": "analytics.item_popularity"},
        ("tail_share", "tail=5 (a count)"): {"tail": 5},
        ("serendipity", "no relevance"): {"relevance": None},
        ("auc", "unweighted"): {"weight": None},
        ("gauc", "unweighted"): {"weight": None},
        ("log_loss", "unweighted"): {"weight": None},
        ("ndcg", "no qrels"): {"qrels": None},
        ("mean_average_precision", "no qrels"): {"qrels": None},
        ("top_k_accuracy", "labels table"): {"label": None, "labels": "analytics.true_classes"},
        ("multiclass_log_loss", "unweighted"): {"weight": None},
        ("evaluate", "ties=average"): {"ties": "average", "measures": ["ndcg@10", "dcg_burges@5", "precision_at_k@10",
                                                                      "set_recall"]},
        ("evaluate", "no qrels"): {"qrels": None},
    }
    for (name, variant), change in extra.items():
        data, params = golden.call(name)
        params = {k: v for k, v in {**params, **change}.items() if v is not None}
        out[name, variant] = (data, params)
    return out


SWEEP = _sweep()

#: The exceptions to the division rule (``guard_problem``): denominators that are not NULLIF'd but
#: cannot be 0, as text with CASTs and parentheses removed, in DuckDB's spelling -> (why it is never
#: 0, the template macros that write it). A case may divide by one when rendering it called one of
#: those macros (``templates.traced``): a new metric built on ranked_rows has ranked_rows' entries as it
#: is, and a division a new macro writes fails until NULLIF'd or listed with that macro.
ALLOWED_DENOMINATORS = {
    "LN(sm_pos + 1) / LN(2)": (
        "the discount 1/log2(rank + 1): sm_pos is ranked_run's ROW_NUMBER() (>= 1)", {"ranked_rows"}),
    "LN(sm_ideal_pos + 1) / LN(2)": (
        "IDCG's discount: sm_ideal_pos is a ROW_NUMBER() (>= 1)", {"query_judgments"}),
    "sm_pos": (
        "1/rank (err, mrr) and precision at rank r = hits / r (AP): sm_pos is ranked_run's ROW_NUMBER() (>= 1)",
        {"err", "mrr_parts", "mean_average_precision_parts"}),
    "sm_total": (
        "inside the CASE branch after `sm_constant = 1` (targets of positive weight not all equal), so "
        "the weighted sum of squared deviations is > 0",
        {"r2"}),
    "sm_hi - sm_lo": (
        "auc(bins=...): the bucket width of the score range, inside CASE WHEN sm_hi > sm_lo",
        {"score_buckets"}),
    "POWER(2, sm_e)": (
        "2^e for e = binary_exponent, an integer in [-1022, 1023] (NULL outside, and the branch is not "
        "taken): at least 2^-1022, never 0",
        {"monotone_bucket"}),
    "sm_n0": (
        "kendall_tau(variant='a'): COUNT(*) of a GROUP BY group (>= 1), inside CASE WHEN sm_tx < sm_n0",
        {"kendall_tau"}),
    "sm_m": (
        "kendall_tau(variant='c'): the smaller of COUNT(DISTINCT score) and COUNT(DISTINCT relevance) "
        "over a non-empty group; >= 1 because scores are validated non-NULL and unjudged relevance is 0",
        {"kendall_tau"}),
}

#: The NULL-ordering rule: every sort key (window ORDER BY, ordered aggregate, final ORDER BY) must put
#: NULLs last in the target dialect, as DuckDB does (the templates are written for DuckDB): explicitly
#: (NULLS LAST, or sqlglot's CASE WHEN x IS NULL key on MySQL) or because it is that dialect's default,
#: unless the key can never be NULL. Where the dialect cannot write NULLS LAST (a window with a frame on
#: BigQuery and MySQL), sqlglot would log "'NULLS LAST' translation not supported": sqltext leaves the
#: engine's default there instead (NULLs first on ASC), acceptable only for these keys.
#: Sort keys that can never be NULL (their NULL placement cannot matter): key (as for
#: ALLOWED_DENOMINATORS) -> (why, the macros that sort by it), allowed as ALLOWED_DENOMINATORS are.
#: `by` columns are never listed: a NULL slice is a valid slice of its own.
NEVER_NULL = {
    "sm_risk": ("concordance_index's score (negated for higher='survival'): sqlmetrics rejects NULL scores before "
                "running (dropna=True drops those rows)", {"concordance_pairs"}),
    "sm_t": ("a survival metric's duration (of the data, and of its train), or one of cumulative_dynamic_auc's "
             "times: sqlmetrics rejects NULL durations before running (dropna=True drops those rows)",
             {"concordance_pairs", "kaplan_meier_steps", "kaplan_meier_as_of"}),
    "sm_step": ("uplift_area's perfect curve: a cell's place in the perfect order, a literal or a CASE of literals",
                {"uplift_area"}),
    "sm_s": ("the score column (histogram_auc: the bucket column): sqlmetrics rejects NULLs there "
             "before running (dropna=True drops those rows)",
             {"auc_parts_from_sums", "auc_parts_from_buckets", "auc_replicates"}),
    "sm_key": ("auc_replicates' key of a row: a CASE of twice a RANK or twice a COALESCE(running MAX, 0) plus 1; "
               "the GROUP BY of it", {"auc_replicates"}),
    "sm_pos": ("a ROW_NUMBER() of ranked_run; a row index or the position of a requested quantile "
               "(calibration bins, strategy='quantile')",
               {"bpref", "err", "infap", "interpolated_precisions", "ranking_pass", "calibration_bins"}),
    "sm_score": ("the run's score: sqlmetrics rejects NULL scores before running; and a peers frame "
                 "(helpers.sql `peer_mean`, ties='average') does not depend on where NULLs sort", {"ranked_rows"}),
    "sm_bucket": ("monotone_bucket of a value (parallel plans): a CASE whose every branch is a "
                  "number, over values validated non-NULL",
                  {"auc_parts_from_buckets", "weighted_median", "quantile_bins_in_parallel", "concordance_pairs",
                   "kaplan_meier_steps", "kaplan_meier_as_of", "auc_replicates", "drift_windows"}),
    "sm_key_s": ("auc_replicates' parallel plan: the MIN of a key's scores, which sqlmetrics rejects NULL before "
                 "running", {"auc_replicates"}),
    "sm_kind": ("the literal 0 (data row) or 1 (bin edge)", {"calibration_bins", "quantile_bins_in_parallel"}),
    "sm_value": ("a probability (validated non-NULL) or a bin edge interpolated between two of them; in "
                 "drift_windows a column's distinct value, its NULL group set aside (UNION ALL) before the "
                 "windows sort the values",
                 {"calibration_bins", "quantile_bins_in_parallel", "drift_windows"}),
    "sm_p": ("a probability, validated non-NULL (in parallel: the order inside a bucket)",
             {"quantile_bins_in_parallel"}),
    "sm_at": ("a position in the sorted rows, a FLOOR of a number or a COALESCE(running count, 0)",
              {"quantile_bins_in_parallel"}),
    "sm_start": ("a running count less the row's own, or a position less its bucket's first",
                 {"quantile_bins_in_parallel"}),
    "sm_b": ("the monotone_bucket of a probability or of an edge", {"quantile_bins_in_parallel"}),
    "sm_stage": ("the literal 0 (a bucket's edges below) or 1 (a probability or an edge)",
                 {"quantile_bins_in_parallel"}),
    "sm_v": ("the value whose weighted median weighted_median.sql takes: a target or an absolute error, "
             "validated non-NULL", {"weighted_median"}),
    "sm_x": ("cohen_kappa's class index (weights='linear'), a DENSE_RANK() of the classes", {"cohen_kappa"}),
    "sm_k": ("the term number of statistics.sql's student_t_terms (compare's paired t): digits crossed",
             {"student_t_terms"}),
    "sm_times": ("gini_index: how often an item is recommended, a COUNT(*) of a GROUP BY", {"gini_index"}),
    "sm_count": ("tail_share: an item's popularity count (item_popularity.sql), a COUNT(*) of a GROUP BY or a "
                 "count of the popularity table, whose NULL fails the query (required_number)", {"tail_share"}),
}

#: dialect -> the window frame kinds it has, where not both ROWS and RANGE
FRAME_KINDS = {"redshift": ("ROWS",)}  # https://docs.aws.amazon.com/redshift/latest/dg/r_Window_function_synopsis.html

#: dialect -> (the string spellings of infinity its CAST to a float accepts, why): the templates write
#: CAST('inf' AS DOUBLE) (DuckDB); where the engine cannot read that, the SQL is wrong there.
INFINITY_SPELLINGS = {
    "trino": ({"Infinity", "+Infinity", "-Infinity"},  # exactly so: Java is case-sensitive here
              "Trino casts VARCHAR to DOUBLE with Java's Double.parseDouble: 'inf' fails with "
              "\"Cannot cast 'inf' to DOUBLE\"; it reads 'Infinity' (or use infinity())"),
    "mysql": (set(), "MySQL has no infinity: CAST('inf' AS DOUBLE) is 0 (with a warning)"),
}
_INFINITY_WORDS = {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}

class _Messages(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record):
        self.records.append(record.getMessage())


def render(name: str, dialect: str, variant: str | None = None) -> tuple[str, tuple[str, ...]]:
    """The SQL of the canonical call (or of a SWEEP variant) and what sqlglot logged generating it."""
    handler = _Messages()
    logger = logging.getLogger("sqlglot")
    logger.addHandler(handler)
    try:
        # render() memoises; forget earlier renders so that sqlglot's messages are seen
        getattr(sqltext, "_FINISHED", {}).clear()
        if variant is None:
            sql = golden.render(name, dialect)
        else:
            data, params = SWEEP[name, variant]
            sql = sm.render(name, data, dialect=dialect, **params)
    finally:
        logger.removeHandler(handler)
    return sql, tuple(handler.records)


def parse(sql: str, dialect: str):
    """(tokens, statements) of `sql` read in `dialect`."""
    d = Dialect.get_or_raise(dialect)
    tokens = d.tokenize(sql)
    statements = [s for s in d.parser().parse(tokens, sql) if s is not None and not isinstance(s, exp.Semicolon)]
    return tokens, statements


def _strip(node: exp.Expression) -> exp.Expression:
    while isinstance(node, (exp.Paren, exp.Cast, exp.TryCast)):
        node = node.this
    return node


def normalized(node: exp.Expression) -> str:
    """`node` without CASTs and parentheses, in DuckDB's spelling: the key of ALLOWED_DENOMINATORS."""
    node = node.copy()
    for n in list(node.walk()):
        if isinstance(n, exp.Div):
            n.set("safe", None)
            n.set("typed", None)
    node = node.transform(lambda n: _strip(n) if isinstance(n, (exp.Paren, exp.Cast, exp.TryCast)) else n)
    return _strip(node).sql("duckdb")


_CONSTANT_FUNCTIONS = {exp.Ln: math.log, exp.Exp: math.exp, exp.Sqrt: math.sqrt}
_CONSTANT_OPERATORS = {exp.Add: operator.add, exp.Sub: operator.sub, exp.Mul: operator.mul,
                       exp.Div: operator.truediv, exp.Pow: operator.pow}


def constant(node: exp.Expression) -> float | None:
    """The value of an expression of numeric literals only (LN, EXP, SQRT, POWER, + - * /), else None."""
    node = _strip(node)
    try:
        if isinstance(node, exp.Literal):
            return float(node.name) if node.is_number else None
        if isinstance(node, exp.Neg):
            value = constant(node.this)
            return None if value is None else -value
        if type(node) in _CONSTANT_FUNCTIONS:
            value = constant(node.this)
            return None if value is None else _CONSTANT_FUNCTIONS[type(node)](value)
        if type(node) in _CONSTANT_OPERATORS:
            left, right = constant(node.this), constant(node.expression)
            return None if left is None or right is None else _CONSTANT_OPERATORS[type(node)](left, right)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return None


def guard_problem(div: exp.Expression, pieces: frozenset = frozenset()) -> str | None:
    """Why the denominator of `div` may be 0, or None when it is guarded. The rule, after removing
    CASTs and parentheses around the denominator:

    - NULLIF(x, 0) is guarded (x/0 becomes NULL on every engine);
    - a constant (numeric literals under LN/EXP/SQRT/POWER/+-*/, e.g. LN(2) of the log2 helper, or
      POWER(2, 4.0) of err(max_grade=4)) is guarded when its value is finite and nonzero;
    - ALLOWED_DENOMINATORS lists the few others, with the reason they cannot be 0, each allowed where
      `pieces` (the macros that rendered the SQL) has one of the macros that write it;
    - anything else is unguarded, including a COUNT(*) or a CASE-guarded expression not listed.
    Divisions by zero raise on PostgreSQL, Redshift, Snowflake, BigQuery, Trino and Databricks (ANSI
    mode), and give NULL on MySQL/SQLite/Spark: the rule holds for every dialect alike.
    """
    den = _strip(div.expression)
    if isinstance(den, exp.Nullif) and constant(den.expression) == 0:
        return None
    value = constant(den)
    if value is not None:
        return None if value != 0 and math.isfinite(value) else f"a constant {value}"
    key = normalized(den)
    if key not in ALLOWED_DENOMINATORS:
        return f"unguarded denominator {key!r}"
    writers = ALLOWED_DENOMINATORS[key][1]
    if writers & pieces:
        return None
    return f"denominator {key!r} (allowed where one of {sorted(writers)} rendered the SQL: none did)"


BOOLEAN = (exp.Predicate, exp.Connector, exp.Not, exp.Boolean, exp.Exists)


def is_boolean(node: exp.Expression) -> bool:
    node = node.unnest() if isinstance(node, exp.Paren) else node
    return isinstance(node, BOOLEAN)


def _function_calls(tokens, names: set[str]):
    """(name, number of arguments) of every call of one of `names`, from the tokens."""
    for i, tok in enumerate(tokens[:-1]):
        if tok.text.upper() in names and tokens[i + 1].token_type == TokenType.L_PAREN:
            depth, args, empty = 0, 1, True
            for t in tokens[i + 1:]:
                if t.token_type == TokenType.L_PAREN:
                    depth += 1
                elif t.token_type == TokenType.R_PAREN:
                    depth -= 1
                    if depth == 0:
                        break
                elif depth == 1 and t.token_type == TokenType.COMMA:
                    args += 1
                elif depth >= 1:
                    empty = False
            yield tok.text.upper(), 0 if empty else args


def _placements(statement: exp.Expression):
    """(key, nulls_first, where) of every sort key, with the NULL placement the dialect gives it.

    sqlglot's parser resolves a key written without NULLS FIRST/LAST to the dialect's default, so
    `nulls_first` is what the engine does. MySQL has no NULLS LAST: in a final ORDER BY sqlglot
    emulates it with an extra key `CASE WHEN x IS NULL THEN 1 ELSE 0 END` before x, folded in here.
    """
    for ordered in statement.find_all(exp.Ordered):
        scope = ordered.find_ancestor(exp.Window, exp.WithinGroup, exp.Select)
        where = {exp.Window: "window", exp.WithinGroup: "WITHIN GROUP"}.get(type(scope), "ORDER BY")
        siblings = ordered.parent.expressions if isinstance(ordered.parent, exp.Order) else []
        index = next((i for i, s in enumerate(siblings) if s is ordered), None)
        emulation = _null_key(ordered)
        if emulation is not None and index is not None and index + 1 < len(siblings) \
                and siblings[index + 1].this == emulation[0]:
            continue  # the emulation key itself: its effect is given to the next key
        nulls_first = bool(ordered.args.get("nulls_first"))
        if index:
            previous = _null_key(siblings[index - 1])
            if previous is not None and previous[0] == ordered.this:
                nulls_first = previous[1]
        yield ordered.this, nulls_first, where


def _null_key(ordered: exp.Ordered):
    """(x, nulls_first) when `ordered` is the key CASE WHEN x IS NULL THEN a ELSE b END, else None."""
    case = ordered.this
    if not (isinstance(case, exp.Case) and len(case.args.get("ifs") or []) == 1 and case.args.get("default")):
        return None
    cond = case.args["ifs"][0]
    if not (isinstance(cond.this, exp.Is) and isinstance(cond.this.expression, exp.Null)):
        return None
    a, b = constant(cond.args["true"]), constant(case.args["default"])
    if a is None or b is None or a == b:
        return None
    return cond.this.this, (a < b) != bool(ordered.args.get("desc"))


def _own_level(node: exp.Expression):
    """`node` and what it holds at its own query level: not inside a nested query (its names are its own)."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in node.iter_expressions() if not isinstance(child, (exp.Query, exp.With)))


def _clauses(select: exp.Select, *kinds: str):
    """The select list and the clauses `kinds` of `select` (not its FROM and JOIN ... ON)."""
    return [*select.expressions, *filter(None, (select.args.get(k) for k in kinds))]


_NULL_TESTS = ("isnull", "isnotnull")  # ClickHouse's function spellings (sqlglot keeps them as they are)


def _join_null_tests(tree: exp.Expression, dialect: str) -> list[str]:
    """Every NULL test of a column of the joined side of a LEFT (or FULL) JOIN, at that join's level
    (outside the ON, which sees the joined table's own rows): IS [NOT] NULL, isNull/isNotNull, or a
    COALESCE (IFNULL, NVL) other than COALESCE(x, 0). ClickHouse (join_use_nulls=0, its default)
    fills an unmatched row with its types' defaults (0, ''), not NULL: the templates select a marker
    (`1 AS sm_listed`) on that side and test `= 1`; COALESCE(x, 0) is 0 either way."""
    found = []
    for select in tree.find_all(exp.Select):
        nullable = {j.this.alias_or_name for j in select.args.get("joins") or () if j.side in ("LEFT", "FULL")}
        for clause in _clauses(select, "where", "group", "having", "qualify", "order") if nullable else ():
            for node in _own_level(clause):
                if isinstance(node, exp.Is) and isinstance(node.expression, exp.Null):
                    tested = [node.this]
                elif isinstance(node, exp.Anonymous) and node.name.lower() in _NULL_TESTS:
                    tested = node.expressions
                elif isinstance(node, exp.Coalesce) and not (
                        len(node.expressions) == 1 and constant(node.expressions[0]) == 0):
                    tested = [node.this, *node.expressions]
                else:
                    continue
                if any(isinstance(_strip(t), exp.Column) and _strip(t).table in nullable for t in tested):
                    found.append(node.sql(dialect))
    return found


def _alias_shadows(tree: exp.Expression, dialect: str) -> list[str]:
    """Every bare column named like an output of its own SELECT (outside that output's definition):
    ClickHouse reads the alias there (in the select list, WHERE, GROUP BY, HAVING), the other engines
    the input column. An output that is its input (x AS x, CAST(x AS ...) AS x) is the same value."""
    found = []
    for select in tree.find_all(exp.Select):
        outputs = {e.alias: e for e in select.expressions if isinstance(e, exp.Alias)
                   and not (isinstance(_strip(e.this), exp.Column) and _strip(e.this).name == e.alias)}
        for clause in _clauses(select, "where", "group", "having", "qualify") if outputs else ():
            for node in _own_level(clause):
                if isinstance(node, exp.Column) and not node.table and node.name in outputs \
                        and node.find_ancestor(exp.Alias) is not outputs[node.name]:
                    found.append(f"{node.sql(dialect)} in {clause.sql(dialect)}")
    return found


# -- the analysis of one case (dialect, golden name, SWEEP variant or None): plain data -----------------

@dataclass(frozen=True)
class Analysis:
    sql: str
    statements: tuple[str, ...]  # the kind of each parsed statement ("select", ...)
    error: str = ""  # why it does not parse
    log: tuple[str, ...] = ()
    filter: tuple[str, ...] = ()
    boolean: tuple[str, ...] = ()
    division: tuple[str, ...] = ()
    null_order: tuple[str, ...] = ()
    infinity: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = ()
    frames: tuple[str, ...] = ()  # window frames of a kind the dialect lacks (FRAME_KINDS)
    join_nulls: tuple[str, ...] = ()  # NULL tests of a LEFT JOIN's joined side (_join_null_tests)
    alias_shadows: tuple[str, ...] = ()  # bare names ClickHouse reads as an output alias (_alias_shadows)
    pieces: frozenset = frozenset()  # the macros called rendering it
    allowed_used: frozenset = frozenset()  # ALLOWED_DENOMINATORS keys this SQL relies on
    never_null_used: frozenset = frozenset()  # NEVER_NULL keys this SQL relies on
    nulls_first: tuple[str, ...] = ()  # every key sorted NULLs first, NEVER_NULL or not


def analyse(dialect: str, name: str, variant: str | None = None) -> Analysis:
    with templates.traced() as pieces:
        sql, messages = render(name, dialect, variant)
    return check(sql, dialect, frozenset(pieces), messages)


def check(sql: str, dialect: str, pieces: frozenset = frozenset(), messages=()) -> Analysis:
    """Every check of this module on `sql` in `dialect`, rendered by the macros `pieces`."""
    unsupported = tuple(messages)
    try:
        tokens, statements = parse(sql, dialect)
    except sqlglot.errors.SqlglotError as e:
        return Analysis(sql, (), error=str(e)[:500], unsupported=unsupported)
    kinds = tuple(s.key for s in statements)
    if len(statements) != 1:
        return Analysis(sql, kinds, unsupported=unsupported)
    tree = statements[0]

    log = [n.sql(dialect) for n in tree.find_all(exp.Log) if not n.expression]
    log += [f"{f}(<{n} argument>)" for f, n in _function_calls(tokens, {"LOG"}) if n < 2]

    filters = [n.sql(dialect) for n in tree.find_all(exp.Filter, exp.CountIf)]
    filters += [tok.text for tok in tokens if tok.text.upper() in ("COUNT_IF", "COUNTIF")]
    filters += ["FILTER (" for i, tok in enumerate(tokens[:-1])
                if tok.token_type == TokenType.FILTER and tokens[i + 1].token_type == TokenType.L_PAREN]

    boolean = []
    for node in tree.walk():
        if isinstance(node, (exp.Cast, exp.TryCast)) and is_boolean(node.this):
            boolean.append(node.sql(dialect))
        elif isinstance(node, (exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Count)) and is_boolean(node.this):
            boolean.append(node.sql(dialect))
        elif isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div)) and (
                is_boolean(node.this) or is_boolean(node.expression)):
            boolean.append(node.sql(dialect))

    division, allowed_used = [], set()
    for div in tree.find_all(exp.Div, exp.IntDiv, exp.Mod):
        problem = guard_problem(div, pieces)
        if problem:
            division.append(f"{problem} in {div.sql(dialect)}")
        elif problem is None and not isinstance(_strip(div.expression), exp.Nullif) \
                and constant(div.expression) is None:
            allowed_used.add(normalized(_strip(div.expression)))

    null_order, nulls_first, never_null_used = [], [], set()
    for key, first, where in _placements(tree):
        if first:
            nulls_first.append(key.sql(dialect))
            never = NEVER_NULL.get(normalized(key))
            if never and never[1] & pieces:
                never_null_used.add(normalized(key))
            elif never:
                null_order.append(f"{where}: {key.sql(dialect)} sorts NULLs first (never NULL where one of "
                                  f"{sorted(never[1])} rendered the SQL: none did)")
            else:
                null_order.append(f"{where}: {key.sql(dialect)} sorts NULLs first")

    infinity = []
    if dialect in INFINITY_SPELLINGS:
        accepted, _ = INFINITY_SPELLINGS[dialect]
        for cast in tree.find_all(exp.Cast, exp.TryCast):
            value = cast.this
            if (isinstance(value, exp.Literal) and value.is_string and value.name.lower() in _INFINITY_WORDS
                    and value.name not in accepted):
                infinity.append(cast.sql(dialect))

    frames = [w.sql(dialect) for w in tree.find_all(exp.Window)
              if w.args.get("spec") and w.args["spec"].args.get("kind") not in FRAME_KINDS.get(dialect, ("ROWS", "RANGE"))]

    return Analysis(sql, kinds, log=tuple(log), filter=tuple(filters), boolean=tuple(boolean),
                    division=tuple(division), null_order=tuple(null_order), infinity=tuple(infinity),
                    unsupported=unsupported, frames=tuple(frames),
                    join_nulls=tuple(_join_null_tests(tree, dialect) if dialect in CLICKHOUSE_RULES else ()),
                    alias_shadows=tuple(_alias_shadows(tree, dialect) if dialect in CLICKHOUSE_RULES else ()),
                    pieces=pieces, allowed_used=frozenset(allowed_used), never_null_used=frozenset(never_null_used),
                    nulls_first=tuple(nulls_first))



#: every case: the golden ones (every dialect and golden name), then SWEEP's in the SWEPT dialects
ALL_CASES = [(d, n, None) for d in DIALECTS for n in NAMES] + [(d, n, v) for d in SWEPT for n, v in SWEEP]

#: a directory all pytest-xdist workers of this run share (None without xdist), from _shared_directory
_SHARED: Path | None = None


@pytest.fixture(scope="session", autouse=True)
def _shared_directory(tmp_path_factory, worker_id):
    """Under pytest's own base temporary directory of the run (kept for the last three runs, then removed)."""
    global _SHARED
    if worker_id != "master":
        _SHARED = tmp_path_factory.getbasetemp().parent / "golden-analysis"
        _SHARED.mkdir(exist_ok=True)


@functools.cache
def result(dialect: str, name: str, variant: str | None = None) -> Analysis:
    """The analysis of one case, made when first asked for (`pytest -k auc` analyses auc's cases
    only). Under pytest-xdist it is also left in the run's shared directory, where a test over every
    case (last in this file) finds what the other workers analysed instead of repeating it."""
    if _SHARED is None:
        return analyse(dialect, name, variant)
    kept = _SHARED / (urllib.parse.quote(f"{dialect} {name} {variant}", safe="") + ".pickle")
    if kept.exists():
        return pickle.loads(kept.read_bytes())
    analysed = analyse(dialect, name, variant)
    partial = kept.with_suffix(f".{os.getpid()}")  # written whole, then renamed: never read half-written
    partial.write_bytes(pickle.dumps(analysed))
    partial.replace(kept)
    return analysed


def all_results() -> dict[tuple[str, str, str | None], Analysis]:
    return {case: result(*case) for case in ALL_CASES}


# -- 1-3. per metric and dialect: the golden file, one SELECT, no hazard -----------------------------

def _golden_problem(dialect: str, name: str, sql: str) -> str:
    path = golden.path(name, dialect)
    if not path.exists():
        return f"no golden file {path.relative_to(golden.HERE.parent)}: run `python tests/make_golden.py {name}`"
    kept = path.read_text()
    if sql == kept:
        return ""
    diff = "".join(list(difflib.unified_diff(kept.splitlines(True), sql.splitlines(True), str(path),
                                             "rendered now", n=1))[:40])
    return (f"the SQL changed (call: {golden.call_text(name)}): run `python tests/make_golden.py {name}` and review "
            f"`git diff tests/golden`\n{diff}")


def _one_select_problem(r: Analysis) -> str:
    if r.error:
        return f"does not parse: {r.error}"
    if r.statements == ("select",) or (len(r.statements) == 1 and r.statements[0] in ("union", "with")):
        return ""
    return f"expected one SELECT, got {r.statements}"


#: each hazard of an Analysis, with what to do about it
HAZARDS = {
    "log": "one-argument LOG (its base differs by engine; use LN)",
    "filter": "FILTER/COUNT_IF (use SUM(CASE WHEN ... THEN 1 ELSE 0 END))",
    "boolean": "boolean used as a number (use CASE WHEN ... THEN 1 ELSE 0 END)",
    "division": "unguarded division: wrap the denominator in NULLIF(..., 0) (sqlmetrics.fdiv); only if it truly "
                "cannot be 0, add to ALLOWED_DENOMINATORS an entry keyed by the denominator with the macro that "
                "writes it (or that macro to the denominator's entry) and the reason",
    "null_order": "the NULL placement differs from DuckDB's on a key that may be NULL (the rule above NEVER_NULL): "
                  "sort it NULLS LAST; only if it can never be NULL, add to NEVER_NULL an entry keyed by it with "
                  "the macro that sorts by it (or that macro to the key's entry) and the reason",
    "frames": "a window frame kind the dialect does not have (FRAME_KINDS)",
    "infinity": "an infinity spelling the engine cannot read (INFINITY_SPELLINGS)",
    "unsupported": "sqlglot logged (a construct it could not translate, or another warning)",
    "join_nulls": "a NULL test of a LEFT JOIN's joined side, which ClickHouse fills with 0 or '' where no row "
                  "matches: select a marker `1 AS sm_<found>` on that side and test `= 1` (COALESCE(x, 0) is fine)",
    "alias_shadows": "a bare name that is also an output alias of the same SELECT: ClickHouse reads the alias, the "
                     "other engines the input column; qualify the input or name the output otherwise",
}


def _hazards(r: Analysis) -> list[str]:
    return [f"{advice}: {list(getattr(r, kind))}" for kind, advice in HAZARDS.items() if getattr(r, kind)]


@pytest.mark.parametrize("dialect, name", CASES)
def test_golden_sql(dialect, name):
    """The canonical call renders exactly its golden file, parses in the dialect as one SELECT, and
    has none of the HAZARDS (one test per metric and dialect, every failure listed)."""
    r = result(dialect, name)
    problems = [p for p in (_golden_problem(dialect, name, r.sql), _one_select_problem(r)) if p] + _hazards(r)
    if problems:
        pytest.fail(f"{name} in {dialect}:\n- " + "\n- ".join(problems), pytrace=False)


def test_golden_files_are_exactly_the_expected_set():
    expected = {golden.path(n, d) for d in DIALECTS for n in NAMES}
    present = set(golden.GOLDEN.rglob("*.sql"))
    assert present == expected, (f"stale {sorted(map(str, present - expected))}, missing "
                                 f"{sorted(map(str, expected - present))}: {REGENERATE}")
    assert (golden.GOLDEN / "CALLS.md").read_text() == golden.calls_md(), REGENERATE


#: table references as each warehouse writes them -> how the FROM of the golden file then reads
TABLE_REFERENCES = [
    ("bigquery", "my-project.dataset.table", "`my-project`.dataset.table"),  # dashes: unquoted in BigQuery
    ("bigquery", "`my-project.dataset.table`", "`my-project`.`dataset`.`table`"),
    ("bigquery", "`my-project`.dataset.table", "`my-project`.dataset.table"),
    ("snowflake", '"DB"."SCHEMA"."T"', '"DB"."SCHEMA"."T"'),
    ("snowflake", "db.schema.preds", "db.schema.preds"),  # unquoted: Snowflake's upper-case folding applies
    ("databricks", "main.analytics.preds", "main.analytics.preds"),  # Unity Catalog: catalog.schema.table
    ("databricks", "`main`.`my schema`.`preds`", "`main`.`my schema`.`preds`"),
    ("spark", "`my-db`.preds", "`my-db`.preds"),
]


def test_golden_sql_of_warehouse_table_references():
    """The canonical auc call on each warehouse's own table references is its golden file, the table
    written as that warehouse reads it; and silent (sqlglot logs nothing)."""
    data, params = golden.call("auc")
    for dialect, table, written in TABLE_REFERENCES:
        handler = _Messages()
        logging.getLogger("sqlglot").addHandler(handler)
        try:
            sql = sm.render("auc", table, dialect=dialect, pretty=True, **params) + "\n"
        finally:
            logging.getLogger("sqlglot").removeHandler(handler)
        kept = golden.path("auc", dialect).read_text()
        assert kept.count(f"FROM {data}\n") == 1
        assert sql == kept.replace(f"FROM {data}\n", f"FROM {written}\n"), (dialect, table)
        assert not handler.records, (dialect, table, handler.records)


# -- the checks themselves catch what they are meant to ----------------------------------------------

@pytest.mark.parametrize("sql, dialect, kind", [
    ("SELECT LOG(x) FROM t", "snowflake", "log"),
    ("SELECT LOG(x) FROM t", "mysql", "log"),  # sqlglot reads it as LN: caught on the tokens
    ("SELECT COUNT(*) FILTER (WHERE x > 0) FROM t", "duckdb", "filter"),
    ("SELECT COUNT_IF(x > 0) FROM t", "snowflake", "filter"),
    ("SELECT COUNTIF(x > 0) FROM t", "bigquery", "filter"),
    ("SELECT CAST(x = 1 AS INT) FROM t", "postgres", "boolean"),
    ("SELECT CAST((x > 1 AND y) AS DOUBLE) FROM t", "trino", "boolean"),
    ("SELECT SUM(x = 1) FROM t", "duckdb", "boolean"),
    ("SELECT a / b FROM t", "trino", "division"),
    ("SELECT a / CAST(b AS DOUBLE) FROM t", "redshift", "division"),
    ("SELECT a / 0 FROM t", "snowflake", "division"),
    ("SELECT a / sm_pos FROM t", "mysql", "division"),  # allowed where its macros render only
    ("SELECT ROW_NUMBER() OVER (ORDER BY x) FROM t", "bigquery", "null_order"),
    ("SELECT ROW_NUMBER() OVER (ORDER BY x) FROM t", "mysql", "null_order"),
    ("SELECT x FROM t ORDER BY x DESC", "postgres", "null_order"),
    ("SELECT x FROM t ORDER BY x DESC", "snowflake", "null_order"),
    ("SELECT x FROM t ORDER BY x", "databricks", "null_order"),
    ("SELECT CAST('inf' AS DOUBLE) FROM t", "trino", "infinity"),
    ("SELECT CAST('Infinity' AS DOUBLE) FROM t", "mysql", "infinity"),
    ("SELECT a.k FROM a LEFT JOIN b ON a.k = b.k WHERE b.k IS NULL", "clickhouse", "join_nulls"),
    ("SELECT CASE WHEN m.v IS NOT NULL THEN 1 ELSE 0 END FROM a LEFT OUTER JOIN (SELECT k, v FROM c) AS m "
     "ON a.k = m.k", "clickhouse", "join_nulls"),
    ("SELECT SUM(COALESCE(b.v, a.v)) FROM a LEFT JOIN b ON a.k = b.k", "clickhouse", "join_nulls"),
    ("SELECT ifNull(b.v, -1) FROM a LEFT JOIN b ON a.k = b.k", "clickhouse", "join_nulls"),
    ("SELECT isNull(b.v) FROM a LEFT JOIN b ON a.k = b.k", "clickhouse", "join_nulls"),
    ("SELECT SUM(x) AS x, x / 2 AS half FROM t", "clickhouse", "alias_shadows"),
    ("SELECT k + 1 AS k, COUNT(*) AS n FROM t GROUP BY k", "clickhouse", "alias_shadows"),
    ("SELECT CAST(s AS DOUBLE) * 2 AS s FROM t WHERE s > 0", "clickhouse", "alias_shadows"),
])
def test_checks_catch_hazards(sql, dialect, kind):
    assert getattr(check(sql, dialect), kind), f"{kind} not caught in {sql!r} ({dialect})"


@pytest.mark.parametrize("sql, dialect", [
    ("SELECT LN(x) / LN(2), LOG(2, x) FROM t", "snowflake"),
    ("SELECT SUM(CASE WHEN x > 0 THEN 1 ELSE 0 END) FROM t", "mysql"),
    ("SELECT CAST(CASE WHEN x = 1 THEN 1 ELSE 0 END AS DOUBLE) FROM t", "postgres"),
    ("SELECT a / NULLIF(b, 0), CAST(a AS DOUBLE) / CAST(NULLIF(b, 0) AS DOUBLE), a / 2, a / -0.5, a / LN(2) "
     "FROM t", "trino"),
    ("SELECT ROW_NUMBER() OVER (ORDER BY x) FROM t", "trino"),  # NULLs last is Trino's default
    ("SELECT ROW_NUMBER() OVER (ORDER BY x) FROM t", "snowflake"),  # NULLs are large: last on ASC
    ("SELECT ROW_NUMBER() OVER (ORDER BY x NULLS LAST) FROM t", "bigquery"),
    ("SELECT x FROM t ORDER BY x DESC NULLS LAST", "postgres"),
    ("SELECT x FROM t ORDER BY CASE WHEN x IS NULL THEN 1 ELSE 0 END, x", "mysql"),  # sqlglot's emulation
    ("SELECT CAST('Infinity' AS DOUBLE), -CAST('Infinity' AS DOUBLE) FROM t", "trino"),
    ("SELECT CAST('inf' AS DOUBLE) FROM t", "snowflake"),
    # the marker convention; COALESCE(x, 0) gives ClickHouse's fill; the ON sees b's own rows
    ("SELECT a.k, CASE WHEN b.sm_matched = 1 THEN b.v END, SUM(COALESCE(b.n, 0)) FROM a "
     "LEFT JOIN (SELECT k, v, n, 1 AS sm_matched FROM c) AS b ON a.k = b.k AND b.v IS NOT NULL GROUP BY a.k",
     "clickhouse"),
    ("SELECT a.k FROM a JOIN b ON a.k = b.k WHERE b.v IS NULL OR a.v IS NULL", "clickhouse"),  # not nullable
    ("SELECT a.k FROM a LEFT JOIN b ON a.k = b.k WHERE a.k IN (SELECT b.k FROM b WHERE b.v IS NOT NULL)",
     "clickhouse"),  # that b is the subquery's own
    ("SELECT SUM(t.x) AS x, SUM(t.x) / 2 AS half, SUM(y) AS y, k AS k, CAST(n AS BIGINT) AS n, n + 1 AS m "
     "FROM t GROUP BY k, n", "clickhouse"),
    ("SELECT k + 1 AS k, COUNT(*) AS n FROM t GROUP BY k", "bigquery"),  # a ClickHouse rule (CLICKHOUSE_RULES)
])
def test_checks_accept_the_safe_spellings(sql, dialect):
    r = check(sql, dialect)
    assert not _hazards(r), r


@pytest.mark.parametrize("sql, dialect, table", [
    ("SELECT a / sm_pos FROM t", "trino", ALLOWED_DENOMINATORS),
    ("SELECT SUM(w) OVER (ORDER BY sm_pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) FROM t", "bigquery",
     NEVER_NULL),
])
def test_exceptions_hold_where_their_macros_render(sql, dialect, table):
    """An entry of ALLOWED_DENOMINATORS / NEVER_NULL applies to SQL that one of its macros rendered."""
    writers = table["sm_pos"][1]
    assert not _hazards(check(sql, dialect, frozenset(writers)))
    assert _hazards(check(sql, dialect, frozenset({"ranked_run"}) - writers))


# -- 4. hazards of the other SQL paths (SWEEP), in the engines that cannot run here, and ClickHouse ----

@pytest.mark.parametrize("dialect, name, variant", [
    pytest.param(d, n, v, id=f"{d}-{n}-{v}") for d in SWEPT for n, v in SWEEP])
def test_variant_has_no_hazard(dialect, name, variant):
    r = result(dialect, name, variant)
    assert not r.error and len(r.statements) == 1, f"does not parse as one statement: {r.error or r.statements}"
    found = _hazards(r)
    assert not found, f"{name}({variant}) in {dialect}: {found}"


# -- over every case: last, so that under pytest-xdist the other workers have analysed most ------------

def test_templates_sort_nulls_last_in_duckdb():
    """The reference semantics: DuckDB sorts NULLs last (ASC and DESC), and no template asks otherwise."""
    wrong = {n: result("duckdb", n).nulls_first for n in NAMES if result("duckdb", n).nulls_first}
    assert not wrong, f"keys sorted NULLs first in DuckDB: {wrong}"


def _unused(table: dict, used: str) -> list[tuple[str, str]]:
    """The (key, macro) pairs of `table` (ALLOWED_DENOMINATORS, NEVER_NULL) that no case relies on: the
    key in its Analysis' `used`, the macro among its pieces."""
    relied_on = {(key, piece) for r in all_results().values() for key in getattr(r, used) for piece in r.pieces}
    return [(key, piece) for key, (_, pieces) in table.items() for piece in sorted(pieces)
            if (key, piece) not in relied_on]


def test_allowed_denominators_are_all_still_used():
    unused = _unused(ALLOWED_DENOMINATORS, "allowed_used")
    assert not unused, ("no SQL divides by these ALLOWED_DENOMINATORS keys where the macro renders: delete the "
                        f"macro from the key's entry (the entry when no macro is left): {unused}")


def test_never_null_keys_are_all_still_used():
    unused = _unused(NEVER_NULL, "never_null_used")
    assert not unused, ("no SQL sorts NULLs first by these NEVER_NULL keys where the macro renders: delete the "
                        f"macro from the key's entry (the entry when no macro is left): {unused}")
