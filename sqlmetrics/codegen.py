"""The files that mirror the registry, written from it: ``python -m sqlmetrics.codegen`` writes them,
and tests/test_codegen.py fails while one is stale, naming this command.

- ``sql/metric.sql``, the catalogue as dbt sees it: ``metric(name, relation)`` calls each metric's
  macro by name (dbt finds the macros a test depends on by reading their calls, so a name computed
  at run time would hide them), ``metric_name`` (the aliases), ``per_query_metric`` (the ranking
  metrics, whose unit in bootstrap and compare is the query), ``per_example_metric`` (the metrics of a
  long table of class scores, whose unit is the example), ``ranking_parts`` (each measure's
  ``<metric>_parts``, for sm.evaluate's one pass);
- ``docs/metrics.md``, the reference of every metric: what it measures, its formula (typeset, and in
  plain text), parameters, outputs, undefined cases, the reference it is checked against and an example;
- the metric tables of ``docs/catalogue.md`` (the site's Metrics page) and ``docs/statistics.md``,
  between ``<!-- metrics: SECTION -->`` and ``<!-- /metrics -->``; each name links to the metric's page
  of the site, which sqlmetrics/docsite.py writes while the site is built; and the lists of the metrics
  that require a parameter, between ``<!-- required: PARAM -->`` and ``<!-- /required -->`` (the ranking
  metrics that need k, in ``docs/conventions.md``).

A new metric is one template, one registry entry and its reference test; these follow from the entry.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from . import measures as measure_strings
from .metric import Metric
from .params import REQUIRED
from .errors import ParameterError
from .registry import ALIASES, METRICS, compare_of
from .templates import SQL_DIR

ROOT = Path(__file__).resolve().parent.parent
#: the sections of the catalogue, as the reference docs title them
SECTIONS = {"binary": "Binary classification", "statistics": "Intervals and paired tests",
            "multiclass": "Multi-class classification", "regression": "Regression",
            "ranking": "Ranking (TREC measures)", "beyond_accuracy": "Recommendation lists: beyond accuracy",
            "fairness": "Fairness across groups", "survival": "Survival and churn",
            "uplift": "Uplift (treatment effect)", "drift": "Distribution drift"}
#: the pages of the site whose metric tables (and lists) are written here
TABLE_PAGES = (ROOT / "docs" / "catalogue.md", ROOT / "docs" / "statistics.md", ROOT / "docs" / "conventions.md")
_TABLE = re.compile(r"(<!-- metrics: (?P<section>\w+) -->\n)(?P<table>.*?)(<!-- /metrics -->)", re.S)
#: a list of the metrics whose parameter is required: <!-- required: k -->`a`, `b` and `c`<!-- /required -->
_REQUIRED = re.compile(r"(<!-- required: (?P<param>\w+) -->)(?P<list>.*?)(<!-- /required -->)", re.S)


def metric_sql() -> str:
    calls = "\n".join(f"{{%- {'if' if i == 0 else 'elif'} name == '{name}' %}}{{{{ sqlmetrics.{name}(relation, **kwargs) }}}}"
                      for i, name in enumerate(METRICS))
    aliases = ", ".join(f"'{alias}': '{name}'" for alias, name in sorted(ALIASES.items()))
    per_query = ", ".join(f"'{name}'" for name, m in METRICS.items() if m.per_query)
    per_example = ", ".join(f"'{name}'" for name, m in METRICS.items() if m.resampling_unit == "example")
    parts = "\n".join(f"{{%- {'if' if i == 0 else 'elif'} metric == '{name}' %}}"
                      f"{{{{ return(sqlmetrics.{name}_parts(v, in_k, within, k, options)) }}}}"
                      for i, name in enumerate(n for n, m in METRICS.items() if m.one_pass))
    own = "\n\n".join(one_pass_macro(m) for m in METRICS.values() if m.one_pass)
    gates = ", ".join(f"'{name}': {list(gate)!r}" for name, gate in comparison_defaults().items())
    return f"""{{#- Written by `python -m sqlmetrics.codegen` from the registry: do not edit (tests/test_codegen.py
    fails while it is stale). Any metric by name: {{{{ sqlmetrics.metric('ndcg', ref('run'), qrels=ref('qrels'),
    k=10) }}}} is {{{{ sqlmetrics.ndcg(ref('run'), qrels=ref('qrels'), k=10) }}}} (as sm.render(name, data, ...) in
    Python); the parameters are keywords. The generic tests call metrics through it. Every metric
    is named in a call of its own: dbt finds the macros a test depends on by reading their calls,
    and a call through a computed name such as sqlmetrics[name](...) would be invisible to it. -#}}
{{% macro metric(name, relation) %}}
{{%- set name = sqlmetrics.metric_name(name) %}}
{calls}
{{%- else %}}{{{{ sqlmetrics.fail('unknown metric ' ~ name) }}}}
{{%- endif %}}
{{% endmacro %}}

{{#- The name a metric is known by, for one of its other names (the registry's aliases). -#}}
{{% macro metric_name(name) -%}}
{{{{ return({{{aliases}}}.get(name, name)) }}}}
{{%- endmacro %}}

{{#- Whether a metric is evaluated per query (the registry's per_query: a ranking metric), so that
    bootstrap and compare resample and pair queries, recombining the metric's per-query parts. -#}}
{{% macro per_query_metric(name) -%}}
{{{{ return(name in [{per_query}]) }}}}
{{%- endmacro %}}

{{#- Whether a metric reads a long table of class scores (the registry's resampling unit 'example'), so
    that bootstrap and compare resample its examples, every row of one with the example's draw. -#}}
{{% macro per_example_metric(name) -%}}
{{{{ return(name in [{per_example}]) }}}}
{{%- endmacro %}}

{{#- Which way a metric compare takes is better ('higher', 'lower', or 'neither': best at 1), compare's
    default paired test of it and that test's default replicates, as the Python API and the command
    line have them: what the regression gate expect_no_regression reads. None: compare takes no such metric. -#}}
{{% macro comparison_defaults(name) -%}}
{{{{ return({{{gates}}}.get(sqlmetrics.metric_name(name))) }}}}
{{%- endmacro %}}

{{#- A ranking metric's per-query parts (its <name>_parts macro), for evaluate's one pass: the metrics
    the registry marks one_pass. -#}}
{{% macro ranking_parts(metric, v, in_k, within, k, options) -%}}
{parts}
{{%- else %}}{{{{ sqlmetrics.fail('evaluate computes in one pass the metrics the registry marks one_pass; not ' ~ metric ~ ' (marked after sql/metric.sql was written? run python -m sqlmetrics.codegen)') }}}}
{{%- endif %}}
{{%- endmacro %}}

{{#- The own call of each metric the registry marks one_pass: evaluate's pass with that one measure
    (one_measure), its parameters as its entry declares them. `name`: the output column. -#}}
{own}
"""


def comparison_defaults() -> dict[str, tuple[str, str, int]]:
    """(better, default test, its default n_resamples) of each metric compare takes."""
    found = {}
    for name, m in METRICS.items():
        try:
            compared, _ = compare_of(name, {})
        except ParameterError:  # compare takes no such metric
            continue
        found[name] = (m.better, compared.param("test").default, compared.param("n_resamples").default)
    return found


#: a one-pass metric's parameters that one_measure takes by name; its others are the measure's own
_PASS_PARAMETERS = ("qrels", "query", "item", "score", "relevance", "k", "ties", "gain", "relevance_threshold", "missing",
                    "empty", "by")


def one_pass_macro(m: Metric) -> str:
    """The own macro of one-pass metric `m`: its signature from its entry's parameters (a required one
    is `false` until given: a call without it stops), its body evaluate's pass with the one measure."""
    params = [p for p in m.params if p.in_template]
    signature = ", ".join(f"{p.name}={_jinja(p)}" for p in params)
    required = "".join(f"\n{{%- if {p.name} is sameas false %}}{{{{ sqlmetrics.fail('{m.name} needs {p.name}, which has "
                       f"no default. {p.name}: {_jinja_text(p.doc)}') }}}}{{% endif %}}" for p in params if p.required)
    passed = ", ".join(name if m.takes(name) else {"k": "none", "gain": "'linear'"}.get(name, name)
                       for name in _PASS_PARAMETERS)
    own = "{" + ", ".join(f"'{p.name}': {p.name}" for p in params if p.name not in _PASS_PARAMETERS) + "}"
    return (f"{{% macro {m.name}(relation, {signature}, per_query=false, name='{m.name}') %}}{required}\n"
            f"{{{{ sqlmetrics.one_measure('{m.name}', relation, {passed}, per_query, name, {own}) }}}}\n"
            "{%- endmacro %}")


def _jinja(p) -> str:
    """A parameter's default as a Jinja literal (a column list's None: no columns)."""
    value = p.default
    if p.required:
        return "false"
    if value is None:
        return "[]" if p.kind == "columns" else "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{_jinja_text(value)}'"
    if isinstance(value, (int, float)):
        return repr(value)
    return "[" + ", ".join(map(repr, value)) + "]"


def _jinja_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")


def catalogue_table(section: str) -> str:
    """A Markdown table of the metrics of `section`: name (and aliases), what it measures, the reference
    it is checked against; the name links to its page of the site."""
    rows = ["| metric | what it measures | checked against |", "|---|---|---|"]
    for m in _section(section):
        name = f"[`{m.name}`](reference/{m.name}.md)" + "".join(f" (`{alias}`)" for alias in m.aliases)
        rows.append(f"| {name} | {_cell(m.summary)} | {_cell(m.reference)} |")
    return "\n".join(rows) + "\n"


def metrics_md() -> str:
    """docs/metrics.md: every metric's entry, by section."""
    out = ["# Metrics", "",
           "Written by `python -m sqlmetrics.codegen` from the registry (`sqlmetrics/*_metrics.py`): one "
           "entry per metric, as `help(sm.<name>)` shows it.", ""]
    for section, title in SECTIONS.items():
        out += [f"## {title}", ""]
        for m in _section(section):
            # a math block, which GitHub typesets where it shows the file
            out += [f"### {m.name}", "", m.summary, "", "```math", m.math, "```", "", f"**Definition.** {m.formula}", ""]
            if m.aliases:
                out += [f"**Also called** {', '.join(f'`{a}`' for a in m.aliases)}.", ""]
            if m.measure_names:
                out += ["**Measure names** (`sm.evaluate`, `report --metrics`), each as its tool defines it: "
                        + "; ".join(f"{tool} {', '.join(names)}" for tool, names in _measure_names(m).items()) + ".", ""]
            out += ["**Parameters.**", ""]
            for p in m.params:
                default = "" if p.default is REQUIRED else f" Default `{p.default!r}`."
                out.append(f"- `{p.name}`: {p.doc}{default}")
            if m.one_of:
                out.append(f"- exactly one of {' / '.join(f'`{n}`' for n in m.one_of)}.")
            out += ["", f"**Returns** the columns {', '.join(f'`{c}`' for c in m.outputs)}{m.outputs_note('`')}"
                    + (" (after the `by` columns)." if m.kind == "curve" else "."), ""]
            if m.undefined:
                out += [f"**Undefined** when {m.undefined}.", ""]
            out += [f"**Checked against** {m.reference}.", ""]
            if m.example:
                out += ["```python", m.example.rstrip("\n"), "```", ""]
    return "\n".join(out)


def _measure_names(m: Metric) -> dict[str, list[str]]:
    """tool -> the spellings of `m` it uses, written as a user writes them (P_K, P@K, ndcg[@K])."""
    out: dict[str, list[str]] = {}
    for spelling in m.measure_names:
        out.setdefault(spelling.reading.tool, []).append(f"`{measure_strings.shown(spelling)}`")
    return out


def _section(section: str) -> list[Metric]:
    return [m for m in METRICS.values() if m.section == section]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def required_list(param: str) -> str:
    """`a`, `b` and `c`: the ranking metrics (per query) that require parameter `param`."""
    names = [f"`{m.name}`" for m in METRICS.values() if m.per_query and m.takes(param) and m.param(param).required]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def with_tables(text: str) -> str:
    """A page's text with its metric tables and lists written from the registry."""
    text = _TABLE.sub(lambda m: m.group(1) + catalogue_table(m.group("section")) + m.group(4), text)
    return _REQUIRED.sub(lambda m: m.group(1) + required_list(m.group("param")) + m.group(4), text)


def files() -> dict[Path, str]:
    """Each generated file and the text it should have."""
    return {SQL_DIR / "metric.sql": metric_sql(), ROOT / "docs" / "metrics.md": metrics_md()} | {
        page: with_tables(page.read_text(encoding="utf-8")) for page in TABLE_PAGES}


def main() -> int:
    wanted = files()
    written = [path for path, text in wanted.items()
               if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path in written:
        path.write_text(wanted[path], encoding="utf-8")
    print(f"{len(written)} of {len(wanted)} generated files written: "
          + (", ".join(str(p.relative_to(ROOT)) for p in written) or "all were current"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
