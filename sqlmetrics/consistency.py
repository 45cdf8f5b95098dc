"""Checks across a metric's parameters and relations, made before it runs: inputs each valid on
their own that together cannot give a right answer. A metric declares its own (the registry's
``checks=``); each is a function (parameter values, relations) -> the Checks to run.

- catalogue_holds_the_run (coverage): with ``n_items`` below the number of distinct items of the
  run, or an ``items`` table missing some of them, the share of the catalogue that is covered
  would be of the wrong whole (it could even exceed 1).
- one_similarity_per_pair (ils): two rows giving the same pair (in either direction, since either
  is looked up) different similarities leave the value undetermined; exact repeats are harmless.
- max_grade_is_the_top (err): a max_grade below a relevance of the judgments is not the top of
  the grading scale.

The templates fail on the same inputs (helpers.sql ``invalid_value``), for ``sm.render`` and dbt;
here they are found first, with a message in the terms of the Python call.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .checks import quote
from .errors import ColumnError, ParameterError


@dataclass(frozen=True)
class Check:
    sql: str  # a DuckDB-syntax SELECT over the relations, transpiled by the caller
    #: the error for the query's rows, or None when the inputs are consistent
    error: Callable[[list[tuple]], Exception | None]


def catalogue_holds_the_run(values: dict, relations: dict[str, str]) -> list[Check]:
    item = quote(values["item"])
    if values.get("n_items") is not None:
        return [_n_items_check(item, values["n_items"], relations["data"])]
    return [_catalogue_check(item, relations["data"], relations["items"])]


def one_similarity_per_pair(values: dict, relations: dict[str, str]) -> list[Check]:
    return [_similarity_check(relations["similarity"])]


def max_grade_is_the_top(values: dict, relations: dict[str, str]) -> list[Check]:
    if values.get("max_grade") is None:
        return []
    judgments = relations.get("qrels", relations["data"])

    def error(rows):
        top = rows[0][0]
        if top is not None and values["max_grade"] < top:
            return ParameterError(f"max_grade={values['max_grade']:g} is below the largest relevance in the "
                                  f"judgments ({top:g}); it must be the top of the grading scale")
        return None
    return [Check(f"SELECT MAX({quote(values['relevance'])}) FROM {judgments}", error)]


def run(checks: tuple, values: dict, relations: dict[str, str], rows: Callable[[str], list[tuple]]) -> None:
    """Run the `checks` of a metric (functions as above) with `rows` (SQL -> its rows); raise the
    first error. `relations` maps "data" and each relation parameter given to its FROM text in
    DuckDB syntax."""
    for make in checks:
        for c in make(values, relations):
            error = c.error(rows(c.sql))
            if error is not None:
                raise error


def _n_items_check(item: str, n_items: int, data: str) -> Check:
    def error(rows):
        distinct = rows[0][0]
        if distinct > n_items:
            return ParameterError(
                f"n_items={n_items} is below the {distinct} distinct items of the run: n_items is the size of the "
                "whole catalogue, which holds every item recommended; pass the catalogue's size (or items=, the "
                "catalogue table)")
        return None
    return Check(f"SELECT COUNT(DISTINCT {item}) FROM {data}", error)


def _catalogue_check(item: str, data: str, items: str) -> Check:
    # listed items found with a marker: ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL
    missing = (f"SELECT sm_run_ids.sm_item FROM (SELECT DISTINCT {item} AS sm_item FROM {data}) AS sm_run_ids "
               f"LEFT JOIN (SELECT DISTINCT {item} AS sm_item, 1 AS sm_listed FROM {items}) AS sm_catalogue "
               "ON sm_run_ids.sm_item = sm_catalogue.sm_item WHERE COALESCE(sm_catalogue.sm_listed, 0) = 0")

    def error(rows):
        count, example = rows[0]
        if count:
            return ColumnError(
                f"{count} item{'s' if count > 1 else ''} of the run {'are' if count > 1 else 'is'} not in the "
                f"catalogue (items), e.g. {example!r}: coverage is a share of the catalogue, which must hold every "
                "item recommended; add the missing items to items (or pass n_items, the catalogue's size)")
        return None
    return Check(f"SELECT COUNT(*), MIN(sm_item) FROM ({missing}) AS sm_missing", error)


def _similarity_check(similarity: str) -> Check:
    both_ways = (f"SELECT item_a AS sm_x, item_b AS sm_y, CAST(similarity AS DOUBLE) AS sm_s FROM {similarity} "
                 f"UNION ALL SELECT item_b AS sm_x, item_a AS sm_y, CAST(similarity AS DOUBLE) AS sm_s FROM {similarity}")
    # each unordered pair once: the group (a, b) of a <= b
    conflicts = (f"SELECT sm_x, sm_y, MIN(sm_s) AS sm_low, MAX(sm_s) AS sm_high FROM ({both_ways}) AS sm_both_ways "
                 "WHERE sm_x <= sm_y GROUP BY sm_x, sm_y HAVING MIN(sm_s) < MAX(sm_s)")
    sql = (f"SELECT COUNT(*) OVER () AS sm_count, sm_x, sm_y, sm_low, sm_high FROM ({conflicts}) AS sm_conflicts "
           "ORDER BY sm_x, sm_y LIMIT 1")

    def error(rows):
        if rows:
            count, a, b, low, high = rows[0]
            more = f" ({count} pairs have conflicting rows)" if count > 1 else ""
            return ColumnError(
                f"similarity gives the pair ({a!r}, {b!r}) two different similarities, {low:g} and {high:g} "
                f"(either direction is the same pair){more}: keep one row per pair")
        return None
    return Check(sql, error)
