"""Run by tests/test_emulated.py with the Python of a separate environment that holds fakesnow (an
emulator of Snowflake's Python connector on DuckDB) and sqlmetrics: fakesnow pins its own sqlglot
series, so it cannot share the test environment.

    python snowflake_emulated.py CASES.json TABLES_DIR OUT.json

loads each TABLES_DIR/<name>.parquet as the Snowflake table <name> (columns quoted, as named), runs each
case (id, metric, table, params) through snowflake.connector's API with con= the emulated connection,
and writes {id: result} (a frame as its split dict, or the error's text). The comparison with
DuckDB's values is the test's, in the test environment.
"""
import json
import math
import sys
from pathlib import Path

import fakesnow
import pandas as pd
import snowflake.connector

import sqlmetrics as sm

_TYPES = {"f": "DOUBLE", "i": "BIGINT", "u": "BIGINT", "b": "BOOLEAN"}


def load(cursor, name: str, frame: pd.DataFrame) -> None:
    columns = ", ".join(f'"{c}" {_TYPES.get(frame[c].dtype.kind, "VARCHAR")}' for c in frame.columns)
    cursor.execute(f"CREATE TABLE {name} ({columns})")
    rows = [tuple(None if isinstance(v, float) and math.isnan(v) else getattr(v, "item", lambda v=v: v)() for v in row)
            for row in frame.itertuples(index=False)]
    cursor.executemany(f"INSERT INTO {name} VALUES ({', '.join(['%s'] * frame.shape[1])})", rows)


def main(cases_path: str, tables_dir: str, out_path: str) -> None:
    cases = json.loads(Path(cases_path).read_text())
    out = {}
    with fakesnow.patch():
        con = snowflake.connector.connect(database="sm", schema="emulated")
        cursor = con.cursor()
        cursor.execute("CREATE DATABASE IF NOT EXISTS sm")
        cursor.execute("CREATE SCHEMA IF NOT EXISTS sm.emulated")
        cursor.execute("USE sm.emulated")
        for path in sorted(Path(tables_dir).glob("*.parquet")):
            load(cursor, path.stem, pd.read_parquet(path))
        for case, metric, table, params in cases:
            try:
                if metric == "evaluate":
                    result = sm.evaluate(table, params.pop("qrels"), con=con, **params)
                else:
                    result = getattr(sm, metric)(table, con=con, details=True, **params)
                out[case] = {"frame": result.to_dict(orient="split")}
            except Exception as e:  # reported to the test, which names the case
                out[case] = {"error": f"{type(e).__name__}: {e}"}
    # numpy and pandas scalars as Python's; inf and NaN as JSON's Python reading (Infinity, NaN)
    Path(out_path).write_text(json.dumps(out, default=lambda value: getattr(value, "item", lambda: str(value))()))


if __name__ == "__main__":
    main(*sys.argv[1:])
