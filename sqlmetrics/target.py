"""What SQL is generated for: the dialect, its layout, and what is known of the source's columns."""
from __future__ import annotations

from dataclasses import dataclass

#: dialect -> the prefixes its macro spellings are looked up under before `default__`, in dbt's
#: adapter.dispatch order: the adapter's own, then those of the adapters it is built on
#: (dbt-redshift on dbt-postgres, dbt-databricks on dbt-spark)
MACRO_PREFIXES: dict[str, tuple[str, ...]] = {
    "duckdb": ("duckdb",), "sqlite": ("sqlite",), "postgres": ("postgres",), "spark": ("spark",),
    "databricks": ("databricks", "spark"), "clickhouse": ("clickhouse",), "bigquery": ("bigquery",),
    "snowflake": ("snowflake",), "trino": ("trino",), "redshift": ("redshift", "postgres"), "mysql": ("mysql",),
}
DIALECTS = tuple(MACRO_PREFIXES)


@dataclass(frozen=True)
class Target:
    dialect: str = "duckdb"
    pretty: bool = False  # SQL laid out over lines, for people to read
    #: label/prediction columns the engine reports as boolean (the templates test them as such)
    booleans: frozenset[str] = frozenset()
    #: class columns the engine reports as text (the templates order them byte by byte, as numpy sorts them)
    texts: frozenset[str] = frozenset()
    #: pos_label as a SQL literal (DuckDB's syntax): the label value that is positive; None: labels are 0/1
    positive: str | None = None
