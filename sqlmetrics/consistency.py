"""Checks across a metric's parameters and relations, made before it runs: inputs each valid on
their own that together cannot give a right answer. A metric declares its own (the registry's
``checks=``); each is a function (parameter values, relations) -> the Checks to run.

- catalogue_holds_the_run (coverage, gini_index): with ``n_items`` below the number of distinct items of the
  run, or an ``items`` table missing some of them, the share of the catalogue that is covered
  would be of the wrong whole (it could even exceed 1).
- one_similarity_per_pair (ils): two rows giving the same pair (in either direction, since either
  is looked up) different similarities leave the value undetermined; exact repeats are harmless.
- one_count_per_item (novelty, average_popularity, tail_share): a popularity table giving an item two
  counts leaves its popularity undetermined.
- recommended_items_are_known (novelty): an item recommended without a positive count (absent from
  interactions or popularity, or a count of 0) has p = 0 and an infinite self-information. Checked
  here without a cut-off k; with one, an item only beyond the top k does not count, and the
  template, which ranks the lists, decides (its error names how many items are in the top k).
- recommended_items_are_new (serendipity): a recommended (user, item) pair among the interactions
  would count the item's similarity with itself; as for novelty, the run here, the top k in SQL.
- max_grade_is_the_top (err): a max_grade below a relevance of the judgments is not the top of
  the grading scale.
- one_slice_per_query (every ranking metric with qrels and by): a `by` column of the run only (or
  of the qrels only) gives each query of the other side its slice, so it must have one value per
  query; two would make the query's rows two queries, one per slice.
- class_scores, class_probabilities (multi-class metrics from a long table of class scores): every
  example (within its slice) has a row for each class of the table, one true class that is one of
  them (equal on its rows, or exactly one row of `labels`), one weight (equal on its rows), and
  for class_probabilities scores summing to 1 within 1e-6 (compare's `other` column too); a table of
  one class is no multi-class problem; bootstrap's (and compare's) `cluster`, one value per example:
  every row of an example takes the draw of its cluster. The first example found wrong is named.

The templates fail on the same inputs (helpers.sql ``invalid_value``), for ``sm.render`` and dbt;
here they are found first, with a message in the terms of the Python call.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .errors import ColumnError, ParameterError


def quote(name: str) -> str:
    from .checks import quote as quoted  # at call time: the registry loads without sqlglot
    return quoted(name)


@dataclass(frozen=True)
class Check:
    sql: str  # a DuckDB-syntax SELECT over the relations, transpiled by the caller
    #: the error for the query's rows, None when the inputs are consistent, or a Check to run next
    #: (a query that only an error needs: which class an example lacks)
    error: Callable[[list[tuple]], "Exception | Check | None"]


def catalogue_holds_the_run(values: dict, relations: dict[str, str]) -> list[Check]:
    item = quote(values["item"])
    if values.get("n_items") is not None:
        return [_n_items_check(item, values["n_items"], relations["data"])]
    return [_catalogue_check(item, relations["data"], relations["items"])]


def one_similarity_per_pair(values: dict, relations: dict[str, str]) -> list[Check]:
    return [_similarity_check(relations["similarity"])]


def one_count_per_item(values: dict, relations: dict[str, str]) -> list[Check]:
    if values.get("popularity") is None:
        return []
    item = quote(values["item"])
    repeated = f"SELECT {item} AS sm_item FROM {relations['popularity']} GROUP BY {item} HAVING COUNT(*) > 1"

    def error(rows):
        count, example = rows[0]
        if count:
            return ColumnError(f"popularity has more than one row for {count} item{'s' if count > 1 else ''}, e.g. "
                               f"{example!r}: give each item one count")
        return None
    return [Check(f"SELECT COUNT(*), MIN(sm_item) FROM ({repeated}) AS sm_repeated", error)]


def recommended_items_are_known(values: dict, relations: dict[str, str]) -> list[Check]:
    if values.get("k") is not None:
        return []  # an item only beyond the top k does not count: the template, which ranks the lists, decides
    item = quote(values["item"])
    if values.get("popularity") is not None:
        known = f"SELECT {item} AS sm_item FROM {relations['popularity']} WHERE CAST({quote('count')} AS DOUBLE) > 0"
        source = "popularity (or counted 0)"
    else:
        known, source = f"SELECT {item} AS sm_item FROM {relations['interactions']}", "interactions"
    return [_items_missing_from(item, relations["data"], known, source, (
        "its share of the interactions p is 0 and its novelty -log2 p infinite (Microsoft Recommenders leaves such "
        "rows out of the sum but not of the count, a value too low); give every recommended item a count above 0, "
        "or leave it out of the run"))]


def recommended_items_are_new(values: dict, relations: dict[str, str]) -> list[Check]:
    if values.get("k") is not None:
        return []  # as recommended_items_are_known: the template decides on the top k
    user, item = quote(values["query"]), quote(values["item"])
    seen = (f"SELECT sm_run.{user} AS sm_user, sm_run.{item} AS sm_item FROM (SELECT * FROM {relations['data']}) AS sm_run "
            f"JOIN (SELECT DISTINCT {user} AS sm_u, {item} AS sm_i FROM {relations['interactions']}) AS sm_history "
            f"ON sm_run.{user} = sm_history.sm_u AND sm_run.{item} = sm_history.sm_i")
    sql = (f"SELECT COUNT(*) OVER () AS sm_count, sm_user, sm_item FROM ({seen}) AS sm_seen "
           "ORDER BY sm_user, sm_item LIMIT 1")

    def error(rows):
        if rows:
            count, user_id, item_id = rows[0]
            return ColumnError(
                f"{count} recommended (user, item) pair{'s are' if count > 1 else ' is'} among the interactions, "
                f"e.g. user {user_id!r} and item {item_id!r}: serendipity is of items new to the user (Microsoft "
                "Recommenders refuses such a run too); leave the user's own items out of the run")
        return None
    return [Check(sql, error)]


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


def class_scores(values: dict, relations: dict[str, str]) -> list[Check]:
    return _class_checks(values, relations, sums_to_one=False)


def class_probabilities(values: dict, relations: dict[str, str]) -> list[Check]:
    return _class_checks(values, relations, sums_to_one=True)


def one_slice_per_query(column: str, query: str, relation: str, description: str, in_qrels: bool) -> Check:
    """A `by` column of a ranking metric that only the run has (or only the qrels, `in_qrels`) gives each
    query of the other side its slice: it must have one value per query, else the query's rows fall in
    two slices, each a query of its own."""
    col, q = quote(column), quote(query)
    split = f"SELECT {q} AS sm_query FROM {relation} GROUP BY {q} HAVING COUNT(DISTINCT {col}) > 1"
    sql = f"SELECT COUNT(*) OVER (), sm_query FROM ({split}) AS sm_split ORDER BY sm_query LIMIT 1"
    side, other = ("qrels", "run") if in_qrels else ("run", "qrels")

    def error(rows):
        if not rows:
            return None
        count, example = rows[0]
        more = f" ({count} queries have)" if count > 1 else ""
        return ColumnError(f"column {column!r} (by) of the {side} ({description}) has more than one value for query "
                           f"{example!r}{more}: the {other} lacks the column, so each query takes its slice from the "
                           f"{side}, one value per query; give each query one value, or add the column to the "
                           f"{other} to slice its rows")
    return Check(sql, error)


def run(checks: tuple, values: dict, relations: dict[str, str], rows: Callable[[str], list[tuple]]) -> None:
    """Run the `checks` of a metric (functions as above) with `rows` (SQL -> its rows); raise the
    first error. `relations` maps "data" and each relation parameter given to its FROM text in
    DuckDB syntax."""
    for make in checks:
        run_checks(make(values, relations), rows)


def run_checks(checks: list[Check], rows: Callable[[str], list[tuple]]) -> None:
    """Run each Check with `rows`; raise the first error."""
    for c in checks:
        error = c.error(rows(c.sql))
        while isinstance(error, Check):
            error = error.error(rows(error.sql))
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
    return _items_missing_from(item, data, f"SELECT {item} AS sm_item FROM {items}", "the catalogue (items)", (
        "the catalogue must hold every item recommended; add the missing items to items (or pass n_items, the "
        "catalogue's size)"))


def _items_missing_from(item: str, data: str, listed: str, where: str, why: str) -> Check:
    """The items of the run (`data`) that `listed` (a SELECT of sm_item) lacks: an error naming how many, one of
    them, `where` they are missing from and `why` that matters."""
    # listed items found with a marker: ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL
    missing = (f"SELECT sm_run_ids.sm_item FROM (SELECT DISTINCT {item} AS sm_item FROM {data}) AS sm_run_ids "
               f"LEFT JOIN (SELECT DISTINCT sm_item, 1 AS sm_listed FROM ({listed}) AS sm_list) AS sm_listing "
               "ON sm_run_ids.sm_item = sm_listing.sm_item WHERE COALESCE(sm_listing.sm_listed, 0) = 0")

    def error(rows):
        count, example = rows[0]
        if count:
            return ColumnError(f"{count} item{'s' if count > 1 else ''} of the run {'are' if count > 1 else 'is'} not "
                               f"in {where}, e.g. {example!r}: {why}")
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


def _class_checks(values: dict, relations: dict[str, str], sums_to_one: bool) -> list[Check]:
    if values.get("multi_class") == "ovo" and values.get("weight"):
        raise ParameterError("multi_class='ovo' takes no weight: Hand & Till's AUC, as sklearn's roc_auc_score, has "
                             "no sample weights; use multi_class='ovr', or leave weight out")
    data = relations["data"]
    example, cls, score = quote(values["example"]), quote(values["class_"]), quote(values["score"])
    by = list(values.get("by") or [])
    keys = ", ".join([quote(c) for c in by] + [example])
    n_classes = f"(SELECT COUNT(DISTINCT {cls}) FROM {data})"
    if values.get("labels") is None:
        source, label, n_labels = data, quote(values["label"]), "1"
    else:
        # unmatched examples count 0 labels: ClickHouse fills an unmatched LEFT JOIN row with 0, not NULL
        source = (f"(SELECT * FROM {data}) AS sm_input LEFT JOIN (SELECT {example} AS sm_given_example, MIN(label) AS sm_given_label, "
                  f"COUNT(*) AS sm_label_rows FROM {relations['labels']} GROUP BY {example}) AS sm_given "
                  f"ON sm_input.{example} = sm_given.sm_given_example")
        label, n_labels = "sm_given.sm_given_label", "COALESCE(sm_given.sm_label_rows, 0)"
    weight = quote(values["weight"]) if values.get("weight") else "1"
    per_example = (f"SELECT {keys}, MIN({label}) AS sm_lo, MAX({label}) AS sm_hi, MIN({n_labels}) AS sm_n_labels, "
                   f"COUNT(*) AS sm_rows, SUM(CASE WHEN {cls} = {label} THEN 1 ELSE 0 END) AS sm_true_rows, "
                   f"MIN({weight}) AS sm_w_lo, MAX({weight}) AS sm_w_hi, SUM(CAST({score} AS DOUBLE)) AS sm_sum "
                   f"FROM {source} GROUP BY {keys}")
    wrong = (f"sm_lo <> sm_hi OR sm_n_labels <> 1 OR sm_rows <> {n_classes} OR sm_true_rows <> 1 OR sm_w_lo <> sm_w_hi"
             + (" OR ABS(sm_sum - 1) > 1e-6" if sums_to_one else ""))
    sql = (f"SELECT {keys}, sm_lo, sm_hi, sm_n_labels, sm_rows, sm_true_rows, sm_w_lo, sm_w_hi, sm_sum, {n_classes}, "
           f"COUNT(*) OVER () FROM ({per_example}) AS sm_examples WHERE {wrong} ORDER BY {keys} LIMIT 1")
    # the first example lacking a class, and the first class it lacks (matched on the example alone)
    lacking = (f"SELECT sm_classes.sm_class FROM (SELECT {example} AS sm_short FROM {data} GROUP BY {keys} "
               f"HAVING COUNT(*) < {n_classes} ORDER BY {keys} LIMIT 1) AS sm_first "
               f"CROSS JOIN (SELECT DISTINCT {cls} AS sm_class FROM {data}) AS sm_classes "
               f"LEFT JOIN (SELECT {example} AS sm_seen_example, {cls} AS sm_seen_class, 1 AS sm_present FROM {data}) "
               "AS sm_seen ON sm_seen.sm_seen_example = sm_first.sm_short AND sm_seen.sm_seen_class = sm_classes.sm_class "
               "WHERE COALESCE(sm_seen.sm_present, 0) = 0 ORDER BY sm_classes.sm_class LIMIT 1")

    def one_class(rows):
        count, some = rows[0]
        if count == 1:
            return ColumnError(f"column {values['class_']!r} (class_) has one class, {some!r}: a multi-class metric "
                               "needs at least two (each example a row for each class)")
        return None

    def error(rows):
        if not rows:
            return None
        *slice_values, ex, lo, hi, n_labels, n_rows, true_rows, w_lo, w_hi, total, classes, count = rows[0]
        name = f"example {ex!r}" + (f" (slice {dict(zip(by, slice_values))})" if by else "")
        more = f" ({count} examples are wrong)" if count > 1 else ""
        if lo != hi:
            return ColumnError(f"column {values['label']!r} (label) differs between the rows of {name} ({lo!r} and "
                               f"{hi!r}){more}: the true class must be equal on all rows of an example")
        if n_labels != 1:
            return ColumnError(f"labels has {'no row' if not n_labels else f'{n_labels} rows'} for {name}{more}: "
                               "give each example exactly one label")
        if n_rows < classes:
            def missing(found):
                which = f" for class {found[0][0]!r}" if found else ""
                return ColumnError(f"{name} has no row{which}{more}: every example needs a row (its score) for "
                                   f"each of the table's {classes} classes")
            return Check(lacking, missing)
        if true_rows != 1:
            return ColumnError(f"the label {lo!r} of {name} is not one of the table's classes (column "
                               f"{values['class_']!r}){more}: the true class must be one of the classes scored")
        if w_lo != w_hi:
            return ColumnError(f"column {values['weight']!r} (weight) differs between the rows of {name} ({w_lo:g} "
                               f"and {w_hi:g}){more}: the weight is the example's, equal on all its rows")
        return ColumnError(f"the probabilities of {name} (column {values['score']!r}) sum to {total:.10g}, not 1 "
                           f"(within 1e-6){more}: each example's scores must be probabilities over the classes")
    checks = [Check(f"SELECT COUNT(DISTINCT {cls}), MIN({cls}) FROM {data}", one_class), Check(sql, error)]
    if values.get("other") and sums_to_one:  # compare's second column: probabilities too
        checks += _class_checks(values | {"score": values["other"], "other": None}, relations, sums_to_one)[1:]
    if values.get("cluster"):
        checks.append(_whole_examples(values, data, keys, by))
    return checks


def _whole_examples(values: dict, data: str, keys: str, by: list) -> Check:
    """The cluster of bootstrap (or compare) of a long table of class scores holds whole examples: the
    rows of an example weigh its cluster's draw, so an example in two clusters (or partly NULL) would
    weigh two draws at once."""
    cluster = quote(values["cluster"])
    split = (f"SELECT {keys} FROM {data} GROUP BY {keys} "
             f"HAVING COUNT(DISTINCT {cluster}) > 1 OR COUNT({cluster}) NOT IN (0, COUNT(*))")
    sql = f"SELECT {keys}, COUNT(*) OVER () FROM ({split}) AS sm_split ORDER BY {keys} LIMIT 1"

    def error(rows):
        if not rows:
            return None
        *slice_values, ex, count = rows[0]
        name = f"example {ex!r}" + (f" (slice {dict(zip(by, slice_values))})" if by else "")
        more = f" ({count} examples are split)" if count > 1 else ""
        return ColumnError(f"column {values['cluster']!r} (cluster) differs between the rows of {name}{more}: the "
                           "bootstrap resamples an example's rows together, so a cluster must hold whole examples; "
                           "give each example one cluster")
    return Check(sql, error)
