"""The formulations tried against the peers sqlmetrics has not passed, each timed on the same data
in one process: docs/speed.md's reading of the Speed table quotes them.

    python benchmarks/formulations.py [--data-dir DIR] [--repeats 3] [--json PATH] [--only SECTION ...]

Data: the benchmark's seeded Parquet files (benchmarks/synthetic.py; written when missing): 10M
clicks with 100k and 1M users, 1M queries x 10 items, 1M users' top-10 lists. Each line is one SQL
formulation (or a peer's call) run `--repeats` times on DuckDB tables in memory; printed and kept
are the minimum and the median seconds. Every formulation's value is printed next to it, so that
a faster formulation that computes something else shows.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import duckdb
import polars as pl
from sklearn.metrics import roc_auc_score, roc_curve

import sqlmetrics as sm
from sqlmetrics.target import Target
from sqlmetrics.templates import render_macro
from synthetic import user_column, write_clicks, write_ranking, write_recommendations

USERS = [100_000, 1_000_000]


def timed(results: list, section: str, name: str, call, repeats: int):
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        value = call()
        seconds.append(time.perf_counter() - start)
    shown = value if isinstance(value, (int, float, str, type(None))) else str(value)[:60]
    results.append({"section": section, "formulation": name, "min_seconds": min(seconds),
                    "median_seconds": statistics.median(seconds), "value": shown})
    print(f"{section:28s} {name:66s} min {min(seconds):7.3f} s  median {statistics.median(seconds):7.3f} s  {shown}",
          flush=True)


def gauc(con, run, users: int):
    u, section = user_column(users), f"GAUC, {users:,} users"
    frame = con.execute(f"SELECT label, score, {u} FROM clicks").df()
    polars = pl.from_pandas(frame).lazy()
    run(section, "sm.gauc (the plan it chooses)", lambda: sm.gauc(frame, label="label", score="score", group=u))
    run(section, "polars rank('average').over(user)", lambda: (
        polars.with_columns(r=pl.col("score").rank("average").over(u))
        .group_by(u).agg(n=pl.len(), p=pl.col("label").sum(), rs=(pl.col("r") * pl.col("label")).sum())
        .filter((pl.col("p") > 0) & (pl.col("p") < pl.col("n")))
        .select(((pl.col("rs") - pl.col("p") * (pl.col("p") + 1) / 2) / (pl.col("p") * (pl.col("n") - pl.col("p")))
                 * pl.col("n")).sum() / pl.col("n").sum()).collect().item()))
    for plan in ("rank", "pairs", "aggregate"):
        parts = render_macro("auc_parts", Target("duckdb"), relation="clicks", label="label", score="score",
                             keys=[u], plan=plan)
        run(section, f"auc_parts plan={plan!r} (its SQL alone)", lambda parts=parts: con.execute(
            f"SELECT SUM((sm_w_pos + sm_w_neg) * sm_wins / sm_w_pos) / SUM(sm_w_pos + sm_w_neg) FROM ({parts}) "
            "WHERE sm_w_pos > 0 AND sm_w_neg > 0").fetchone()[0])
    run(section, "pairs, hand-written (label = 1 / = 0, COUNT_IF)", lambda: con.execute(f"""
        WITH p AS (SELECT {u} AS u, score AS s FROM clicks WHERE label = 1),
             c AS (SELECT {u} AS u, COUNT(*) AS n, SUM(label) AS np FROM clicks GROUP BY {u}),
             w AS (SELECT p.u, 2 * COUNT_IF(p.s > q.score) + COUNT_IF(p.s = q.score) AS wins2
                   FROM p JOIN clicks AS q ON p.u = q.{u} AND q.label = 0 GROUP BY p.u)
        SELECT SUM(n * wins2 / (2.0 * np * (n - np))) / SUM(n) FROM w JOIN c USING (u)""").fetchone()[0])
    run(section, "partitioned window RANK over the rows", lambda: con.execute(f"""
        WITH r AS (SELECT {u} AS u, label, RANK() OVER (PARTITION BY {u} ORDER BY score) AS rk,
                          COUNT(*) OVER (PARTITION BY {u}, score) AS tie FROM clicks),
             g AS (SELECT u, COUNT(*) AS n, SUM(label) AS np, SUM(CASE WHEN label = 1 THEN rk + (tie - 1) / 2.0 END) AS rs
                   FROM r GROUP BY u)
        SELECT SUM(n * (rs - np * (np + 1) / 2.0) / (np * (n - np))) / SUM(n) FROM g WHERE np > 0 AND np < n""").fetchone()[0])
    run(section, "floor: sort by (user, score)", lambda: con.execute(
        f"SELECT SUM(x) FROM (SELECT ROW_NUMBER() OVER (ORDER BY {u}, score) AS x FROM clicks)").fetchone()[0])
    run(section, "floor: hash aggregate by user", lambda: con.execute(
        f"SELECT COUNT(*) FROM (SELECT {u}, COUNT(*) FROM clicks GROUP BY {u})").fetchone()[0])


def curve(con, run):
    section = "ROC curve, 2M rows"
    con.execute("CREATE TABLE curve AS SELECT label, score FROM clicks LIMIT 2000000")
    frame = con.execute("SELECT * FROM curve").df()
    y, s = frame["label"].to_numpy(), frame["score"].to_numpy()
    run(section, "sklearn roc_curve(drop_intermediate=False)", lambda: len(roc_curve(y, s, drop_intermediate=False)[0]))
    run(section, "sm.roc_curve", lambda: len(sm.roc_curve(frame, label="label", score="score")))
    sql = render_macro("roc_curve", Target("duckdb"), relation="curve", label="label", score="score", plan="rank")
    run(section, "its SQL, .df()", lambda: len(con.execute(sql).df()))
    run(section, "its SQL, counted (no result transfer)", lambda: con.execute(f"SELECT COUNT(*) FROM ({sql})").fetchone()[0])
    run(section, "its SQL with the CTE MATERIALIZED", lambda: len(con.execute(
        sql.replace("sm_points AS (", "sm_points AS MATERIALIZED (", 1)).df()))
    run(section, "one window (row number, running sum, LEAD), totals as subqueries", lambda: len(con.execute("""
        SELECT threshold, fp::DOUBLE / (n - p) AS fpr, tp::DOUBLE / p AS tpr, tp, fp, n - p - fp AS tn, p - tp AS fn
        FROM (SELECT score AS threshold, SUM(label) OVER w AS tp, ROW_NUMBER() OVER w - SUM(label) OVER w AS fp,
                     LEAD(score) OVER w AS next, (SELECT SUM(label) FROM curve) AS p, (SELECT COUNT(*) FROM curve) AS n
              FROM curve WINDOW w AS (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))
        WHERE next IS NULL OR next <> threshold ORDER BY threshold DESC""").df()))
    before = sql.replace("OVER ( ORDER BY threshold DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)", "OVER ()")
    assert before != sql, "the totals' window is no longer written as this formulation expects"
    run(section, "the SQL before: totals by OVER () (a second window operator)", lambda: len(con.execute(before).df()))
    run(section, "its windows alone (row number, running sum, LEAD), no result shaping", lambda: len(con.execute("""
        SELECT score, ROW_NUMBER() OVER w AS n, SUM(label) OVER (w ROWS UNBOUNDED PRECEDING) AS tp, LEAD(score) OVER w
        FROM curve WINDOW w AS (ORDER BY score DESC)""").df()))
    run(section, "floor: one running sum", lambda: len(con.execute(
        "SELECT score, SUM(label) OVER (ORDER BY score DESC ROWS UNBOUNDED PRECEDING) FROM curve").df()))
    run(section, "floor: sort the 2M rows, .df()", lambda: len(con.execute("SELECT score, label FROM curve ORDER BY score DESC").df()))


def ndcg(con, run):
    """NDCG@10 of a run carrying its relevance: the call, its SQL, and its pieces and their floors."""
    section = "NDCG@10, 1M queries x 10 items"
    frame = con.execute("SELECT * FROM ranking").df()
    run(section, "sm.ndcg(gain='linear') (the call: its repeat check, then its SQL)",
        lambda: sm.ndcg(frame, k=10, gain="linear"))
    own = sm.render("ndcg", "ranking", k=10, gain="linear")
    run(section, "its SQL: one pass, the run its own judgments", lambda: con.execute(own).fetchone()[0])
    run(section, "the judgments' pass (the same rows as qrels: read twice, joined)", lambda: con.execute(sm.render(
        "ndcg", "ranking", qrels="ranking", k=10, gain="linear")).fetchone()[0])
    run(section, "its repeat check alone", lambda: con.execute(
        "SELECT COUNT(*) - COUNT(DISTINCT hash(query, item)) FROM ranking").fetchone()[0])
    ranked = "SELECT SUM(p) FROM (SELECT ROW_NUMBER() OVER (PARTITION BY query ORDER BY score DESC{}) AS p FROM ranking)"
    for name, tie_break in (("item ids as bytes (trec_eval's order: the one used)", ', CAST(item AS VARCHAR) COLLATE "binary" DESC'),
                            ("item ids as integers (not trec_eval's order)", ", item DESC"), ("nothing (not exact: the window's floor)", "")):
        run(section, f"its rank window alone, ties broken by {name}", lambda sql=ranked.format(tie_break): con.execute(sql).fetchone()[0])
    run(section, "its ideal-order window alone", lambda: con.execute(
        "SELECT SUM(p) FROM (SELECT ROW_NUMBER() OVER (PARTITION BY query ORDER BY relevance DESC) AS p FROM ranking)").fetchone()[0])
    run(section, "DuckDB lists: list(relevance ORDER BY score, item) per query, DCG and IDCG of the list", lambda: con.execute("""
        SELECT AVG(CASE WHEN i > 0 THEN d / i ELSE 0 END) FROM (
          SELECT list_sum(list_transform(l[1:10], lambda x, j: x / log2(j + 1))) AS d,
                 list_sum(list_transform(list_sort(l, 'DESC')[1:10], lambda x, j: x / log2(j + 1))) AS i
          FROM (SELECT list(CAST(relevance AS DOUBLE) ORDER BY score DESC, CAST(item AS VARCHAR) DESC) AS l
                FROM ranking GROUP BY query))""").fetchone()[0])
    run(section, "floor: hash aggregate by query", lambda: con.execute(
        "SELECT COUNT(*) FROM (SELECT query, COUNT(*) FROM ranking GROUP BY query)").fetchone()[0])


def tied_auc(con, run):
    section = "AUC, 10M rows, 1,000 scores"
    frame = con.execute("SELECT label, score_r3 FROM clicks").df()
    y, s = frame["label"].to_numpy(), frame["score_r3"].to_numpy()
    run(section, "sklearn roc_auc_score", lambda: roc_auc_score(y, s))
    run(section, "sm.auc", lambda: sm.auc(frame, label="label", score="score_r3"))
    sql = sm.render("auc", "clicks", label="label", score="score_r3")
    run(section, "its SQL (aggregate plan)", lambda: con.execute(sql).fetchone()[0])
    run(section, "its checks' screen alone (count, label range, NaN)", lambda: con.execute(
        "SELECT COUNT(*), MIN(label), MAX(label), SUM(CASE WHEN isnan(score_r3) THEN 1 ELSE 0 END) FROM clicks").fetchone()[0])
    run(section, "its plan's sample alone (distinct share)", lambda: con.execute(
        "SELECT COUNT(DISTINCT score_r3) FROM (SELECT score_r3 FROM clicks USING SAMPLE 1 PERCENT (system, 42))").fetchone()[0])
    by_score = "SELECT score_r3 AS s, SUM(label) AS p, COUNT(*) - SUM(label) AS n{} FROM clicks GROUP BY 1"
    area = ("SELECT SUM(p * (below + n / 2.0)) / (SUM(p) * SUM(n)){} FROM (SELECT *, COALESCE(SUM(n) OVER "
            "(ORDER BY s ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS below FROM ({}))")
    run(section, "GROUP BY score alone, one window", lambda: con.execute(area.format("", by_score.format(""))).fetchone()[0])
    run(section, "the same with the checks folded in (label range, NULLs)", lambda: con.execute(area.format(
        ", MIN(lo), MAX(hi), SUM(nulls)", by_score.format(", MIN(label) AS lo, MAX(label) AS hi, "
                                                         "COUNT(*) - COUNT(label) AS nulls"))).fetchone()[0])
    run(section, "floor: hash aggregate GROUP BY score", lambda: con.execute(
        "SELECT COUNT(*) FROM (SELECT score_r3, COUNT(*) FROM clicks GROUP BY 1)").fetchone()[0])


def duplicates(con, run):
    """The (user, item) / (query, item) check the Gini index and NDCG make, however written."""
    for table, first, section in (("recommendations", "user", "repeat check, 10M (user, item)"),
                                  ("ranking", "query", "repeat check, 10M (query, item)")):
        checks = {
            "COUNT(*) - COUNT(DISTINCT hash(keys)) (the check used)": f"SELECT COUNT(*) - COUNT(DISTINCT hash({first}, item)) FROM {table}",
            "GROUP BY keys HAVING COUNT(*) > 1 LIMIT 1": f"SELECT COUNT(*) FROM (SELECT {first}, item FROM {table} GROUP BY ALL HAVING COUNT(*) > 1 LIMIT 1)",
            "COUNT(DISTINCT first * 10^6 + item) (integer ids)": f"SELECT COUNT(*) - COUNT(DISTINCT {first} * 1000000 + item) FROM {table}",
            "per first key: COUNT(*) <> COUNT(DISTINCT item)": f"SELECT COUNT(*) FROM (SELECT {first} FROM {table} GROUP BY 1 HAVING COUNT(*) <> COUNT(DISTINCT item))",
            "per first key: list_unique(list(item))": f"SELECT SUM(len(l) - list_unique(l)) FROM (SELECT list(item) AS l FROM {table} GROUP BY {first})",
            "per first key: sorted, each item against the previous": f"SELECT COUNT(*) FROM (SELECT item = LAG(item) OVER (PARTITION BY {first} ORDER BY item) AS d FROM {table}) WHERE d",
            "floor: hash aggregate by the first key": f"SELECT COUNT(*) FROM (SELECT {first}, COUNT(*) FROM {table} GROUP BY 1)",
        }
        for name, sql in checks.items():
            run(section, name, lambda sql=sql: con.execute(sql).fetchone()[0])
    run("Gini index, 10M recommendations", "its counts per item alone", lambda: con.execute(
        "SELECT COUNT(*) FROM (SELECT item, COUNT(*) FROM recommendations GROUP BY item)").fetchone()[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--data-dir", type=Path, default=Path("benchmarks/data"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", metavar="PATH", help="write the measurements here")
    parser.add_argument("--only", nargs="+", choices=("gauc", "curve", "ndcg", "tied_auc", "duplicates"),
                        help="just these sections")
    args = parser.parse_args()
    args.data_dir.mkdir(parents=True, exist_ok=True)
    clicks = write_clicks(args.data_dir, 10_000_000, USERS, 42)
    ranking = write_ranking(args.data_dir, 1_000_000, 10, 42)
    recommendations = write_recommendations(args.data_dir, 1_000_000, 10, 100_000, 42)
    con = duckdb.connect()
    for name, path in (("clicks", clicks), ("ranking", ranking), ("recommendations", recommendations)):
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_parquet('{path}')")
    results = []

    def run(section, name, call):
        timed(results, section, name, call, args.repeats)

    sections = {"gauc": lambda: [gauc(con, run, users) for users in USERS], "curve": lambda: curve(con, run),
                "ndcg": lambda: ndcg(con, run), "tied_auc": lambda: tied_auc(con, run),
                "duplicates": lambda: duplicates(con, run)}
    for name, section in sections.items():
        if not args.only or name in args.only:
            section()
    if args.json:
        Path(args.json).write_text(json.dumps({
            "command": "python benchmarks/formulations.py", "repeats": args.repeats, "cores": os.cpu_count(),
            "load_average_end": os.getloadavg(), "duckdb": duckdb.__version__, "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
