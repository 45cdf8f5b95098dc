"""``sqlmetrics demo``: a click model evaluated on sqlmetrics/data/sample.csv (6,000 impressions of
200 users) in the embedded DuckDB: the report (AUC, GAUC, log loss, calibration, ...), RelaImpr
against an older model and whether it is really better (DeLong's paired test), AUC per country
with its confidence interval, and the SQL it would send to Snowflake."""
from __future__ import annotations

from pathlib import Path

import sqlmetrics as sm

from .engine import own_connection
from .output import emit, write
from .progress import run
from .report import REPORT_COLUMNS, ReportSpec, build_report, said_once

SAMPLE = Path(__file__).parent / "data" / "sample.csv"


def demo(fmt: str = "table", out=None) -> None:
    """The main job on the bundled sample, written to `out` (stdout) as a table, JSON or CSV."""
    data = str(SAMPLE)
    spec = ReportSpec(source=data, label="clicked", score="pctr", group="user_id")
    with own_connection() as con:  # the demo's own, so that Ctrl-C can interrupt its queries
        report = build_report(data, con, spec)
        rela_impr = run("computing rela_impr", lambda: sm.rela_impr(
            data, label="clicked", score="pctr", base_score="pctr_base", con=con), interrupt=con.interrupt)
        compared = run("computing auc_compare", lambda: sm.auc_compare(
            data, label="clicked", score="pctr", other_score="pctr_base", con=con), interrupt=con.interrupt)
        by_country = run("computing auc_ci by country", lambda: sm.auc_ci(
            data, label="clicked", score="pctr", by="country", con=con), interrupt=con.interrupt)
    if fmt != "table":
        document = report.as_json() | {"rela_impr_vs_pctr_base": rela_impr, "auc_compare_vs_pctr_base": compared,
                                       "auc_ci_by_country": by_country.to_dict("records")}
        emit(report.table(), fmt, document, out, columns=REPORT_COLUMNS)
        return
    write(f"sqlmetrics {sm.__version__}: a click model on {SAMPLE.name} ({report.counts['rows']:,} impressions, "
          f"{report.counts['positives']:,} clicks), in-process DuckDB\n", out)
    emit(said_once(report.table()), "table", {}, out, columns=REPORT_COLUMNS)
    write(f"\nRelaImpr of pctr over pctr_base: {rela_impr:+.1%}", out)
    write(f"Is pctr really better? AUC {compared['auc']:.4f} against {compared['other_auc']:.4f}: difference "
          f"{compared['difference']:+.4f} (95% CI {compared['ci_low']:+.4f} to {compared['ci_high']:+.4f}), "
          f"p = {compared['p_value']:.2g} (DeLong's paired test; sqlmetrics compute auc_compare)", out)
    write("\nAUC per country, with its 95% confidence interval (DeLong):", out)
    emit(by_country, "table", {}, out)
    write("\nThe same GAUC as one SELECT for Snowflake (sqlmetrics render gauc ... --dialect snowflake):", out)
    write(sm.render("gauc", "analytics.impressions", label="clicked", score="pctr", group="user_id",
                    dialect="snowflake"), out)

