"""``python -m sqlmetrics``: the main job on the bundled sample, with nothing to set up.

Evaluates a click model on sqlmetrics/data/sample.csv (6,000 impressions of 200 users) in the
embedded DuckDB: AUC, GAUC, RelaImpr against an older model, log loss, calibration, AUC per
country, and shows the SQL it would send to Snowflake.
"""
from __future__ import annotations

import sys
from pathlib import Path

import sqlmetrics as sm

SAMPLE = Path(__file__).parent / "data" / "sample.csv"


def demo(out=sys.stdout) -> None:
    data = str(SAMPLE)
    cols = dict(label="clicked", score="pctr")
    auc = sm.auc(data, **cols, details=True).to_dict("records")[0]
    gauc = sm.gauc(data, **cols, group="user_id", details=True).to_dict("records")[0]
    lines = [
        f"sqlmetrics {sm.__version__} on {SAMPLE.name}: {auc['n']:,} impressions, {auc['n_pos']:,} clicks "
        "(DuckDB, in-process)",
        "",
        f"  AUC                {auc['auc']:.4f}",
        f"  GAUC (by user)     {gauc['gauc']:.4f}   {gauc['n_groups_used']} users used, "
        f"{gauc['n_groups_excluded']} with one class excluded",
        f"  RelaImpr vs base   {sm.rela_impr(data, **cols, base_score='pctr_base'):+.1%}",
        f"  log loss           {sm.log_loss(data, **cols):.4f}",
        f"  calibration        {sm.calibration(data, **cols):.3f}   (predicted / observed clicks)",
        "",
        "AUC per country:",
        sm.auc(data, **cols, by="country").to_string(index=False, float_format="{:.4f}".format),
        "",
        "The same GAUC as one SELECT for Snowflake (sm.render):",
        sm.render("gauc", "analytics.impressions", **cols, group="user_id", dialect="snowflake"),
    ]
    print("\n".join(lines), file=out)


if __name__ == "__main__":
    demo()
