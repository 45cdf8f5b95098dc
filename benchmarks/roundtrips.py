"""What a call costs a warehouse far away: statements, scans and wall time on PostgreSQL with a fixed
latency added to each statement the driver sends (psycopg's Cursor.execute; 150 ms by default, a cloud
warehouse's round trip), for five single metrics, for the command line's report (12 metrics of one
table) and for sm.compare of 4 runs on 5 measures (every pair). Run it from two checkouts to compare them (before and after a change): the rows are written
as JSON with --out.

    python benchmarks/roundtrips.py --rows 200000 --latency 0.15 --out results_roundtrips.json
"""
from __future__ import annotations

import argparse
import json
import os
import time

import psycopg

import sqlmetrics as sm
from sqlmetrics.report import ReportSpec, build_report

CALLS = {
    "auc": lambda con: sm.auc("sm_bench", label="label", score="score", con=con),
    "auc by country": lambda con: sm.auc("sm_bench", label="label", score="score", by="country", con=con),
    "log_loss": lambda con: sm.log_loss("sm_bench", label="label", score="score", con=con),
    "roc_curve": lambda con: sm.roc_curve("sm_bench", label="label", score="score", max_points=100, con=con),
    "gauc": lambda con: sm.gauc("sm_bench", label="label", score="score", group="user_id", con=con),
    "report (12 metrics, with GAUC)": lambda con: build_report("sm_bench", con, ReportSpec(
        "sm_bench", label="label", score="score", group="user_id")),
    "compare (4 runs x 5 measures)": lambda con: sm.compare(
        ["ndcg@10", "map", "P@5", "recall@10", "recip_rank"], runs={f"run {i}": f"sm_run_{i}" for i in range(4)},
        qrels="sm_qrels", con=con),
}


def table(con, rows: int) -> None:
    con.execute("DROP TABLE IF EXISTS sm_bench")
    con.execute("CREATE TABLE sm_bench AS SELECT (random() < 0.1)::int AS label, round(random()::numeric, 3)::float8 "
                f"AS score, (random() * 5)::int AS country, (random() * 2000)::int AS user_id FROM generate_series(1, {rows})")
    con.execute("ANALYZE sm_bench")
    # 2,000 queries of 20 items, judged 0-2; runs of rising quality
    con.execute("DROP TABLE IF EXISTS sm_qrels")
    con.execute("CREATE TABLE sm_qrels AS SELECT q AS query, i AS item, floor(random() * 3)::int AS relevance "
                "FROM generate_series(1, 2000) AS q, generate_series(1, 20) AS i")
    for run in range(4):
        con.execute(f"DROP TABLE IF EXISTS sm_run_{run}")
        con.execute(f"CREATE TABLE sm_run_{run} AS SELECT query, item, {run} * 0.3 * relevance + random() AS score "
                    "FROM sm_qrels")
    con.commit()


def scans(con) -> int:
    con.execute("SELECT pg_stat_force_next_flush()")
    con.commit()
    con.execute("SELECT pg_stat_clear_snapshot()")
    (n,) = con.execute("SELECT SUM(seq_scan)::int FROM pg_stat_user_tables WHERE relname LIKE 'sm\\_%'").fetchone()
    con.commit()
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=os.environ.get("SQLMETRICS_PG_DSN", "dbname=sqlmetrics"))
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--latency", type=float, default=0.15, help="seconds added to each statement sent")
    parser.add_argument("--out", help="write the rows as JSON here")
    parser.add_argument("--only", help="the calls whose name starts so")
    args = parser.parse_args()
    con = psycopg.connect(args.dsn)
    table(con, args.rows)
    con.execute("SET max_parallel_workers_per_gather = 0")  # a parallel scan would count once per worker
    con.commit()
    execute = psycopg.Cursor.execute
    sent = []

    def far(self, query, *a, **k):
        sent.append(query)
        time.sleep(args.latency)
        return execute(self, query, *a, **k)

    results = []
    for name, call in CALLS.items():
        if args.only and not name.startswith(args.only):
            continue
        before = scans(con)
        sent.clear()
        psycopg.Cursor.execute = far
        try:
            start = time.perf_counter()
            call(con)
            seconds = time.perf_counter() - start
        finally:
            psycopg.Cursor.execute = execute
        results.append({"call": name, "statements": len(sent), "scans": scans(con) - before, "seconds": round(seconds, 2)})
        print(f"{name:30s} statements {len(sent):4d}  scans {results[-1]['scans']:3d}  {seconds:7.2f} s")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"rows": args.rows, "latency": args.latency, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
