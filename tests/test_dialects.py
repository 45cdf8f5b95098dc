"""Every metric renders to one read-only SELECT that parses in every dialect (docs/conventions.md#dialects).

Executing on those engines comes with the engines issue; here DuckDB executes (other tests) and
the rest must at least parse.
"""
import re

import pytest
import sqlglot
from sqlglot import exp
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

import sqlmetrics as sm
from sqlmetrics.registry import METRICS
from conftest import ALL, LONG_TABLE, TWO_WINDOWS, args, ranking_args

DIALECTS = ["duckdb", "sqlite", "postgres", "spark", "databricks", "clickhouse",
            "bigquery", "snowflake", "trino", "redshift", "mysql"]


def test_dialect_list_matches_spec():
    assert set(DIALECTS) == set(sm.DIALECTS)


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("name", sorted(METRICS))
def test_renders_one_select_that_parses(name, dialect):
    """The plain call (no weight, no qrels: the run's own relevance) with two slice columns; the
    weighted call with judgments is the golden files' (tests/test_golden.py), in every dialect too."""
    if name in ALL:
        params = args(name)
    elif name in LONG_TABLE:
        params = {"example": "example id", "class_": "class", "score": "Score", "label": "true class"}
    elif name in TWO_WINDOWS:
        params = {"current": "analytics.current_preds", "columns": ["Score", "amount x"], "categorical": ["device type"],
                  "weight": "w 1"}
    else:
        params = ranking_args(name, "plain")
    params["by"] = ["country", "day"]
    sql = sm.render(name, "analytics.preds", dialect=dialect, **params)
    statements = sqlglot.parse(sql, read=dialect)
    assert len(statements) == 1 and isinstance(statements[0], exp.Query)
    ctes = {c.alias for c in statements[0].find_all(exp.CTE)}
    tables = {t.name for t in statements[0].find_all(exp.Table)} - ctes
    relations = {"qrels": "qrels", "similarity": "similar_items", "interactions": "interactions",
                 "current": "current_preds"}
    assert tables == {"preds"} | {relations[k] for k in relations if k in params}, (
        f"the source placeholders must be replaced: {tables}")
    # user column names always arrive quoted (Snowflake's as it finds a plain name unquoted: upper case)
    for key, column in params.items():
        if key in relations or METRICS[name].param(key).kind not in ("column", "columns"):
            continue
        for name_ in ([column] if isinstance(column, str) else column):
            if dialect == "snowflake" and re.fullmatch(r"\w+", name_, re.ASCII):
                name_ = name_.upper()
            assert any(i.name == name_ and i.quoted for i in statements[0].find_all(exp.Identifier)), name_


def test_render_of_a_query_source_embeds_it_as_a_subquery():
    sql = sm.render("auc", sm.Query("SELECT * FROM preds WHERE day = 3"), label="y", score="s",
                    dialect="postgres")
    tree = sqlglot.parse_one(sql, read="postgres")
    assert any(isinstance(s.this, exp.Select) and s.this.args.get("where") for s in tree.find_all(exp.Subquery))


def test_render_of_files_is_duckdb_only(tmp_path):
    path = tmp_path / "p.parquet"
    import duckdb
    duckdb.sql(f"COPY (SELECT 1 AS y, 0.5 AS s) TO '{path}'")
    assert "read_parquet" in sm.render("auc", str(path), label="y", score="s").lower()
    with pytest.raises(sm.SourceError, match="only be read by DuckDB"):
        sm.render("auc", str(path), label="y", score="s", dialect="postgres")


def test_render_is_what_runs(binary_frame):
    """The SQL users copy is the SQL the function executes: run the rendered text ourselves."""
    import duckdb
    con = duckdb.connect()
    con.register("preds", binary_frame)
    sql = sm.render("gauc", "preds", label="y", score="s", group="g", weighting="clicks")
    value = con.execute(sql).fetchall()[0][0]
    assert value == pytest.approx(sm.gauc(binary_frame, label="y", score="s", group="g", weighting="clicks"),
                                  rel=1e-12)


def test_names_resolve_as_the_warehouse_finds_them():
    """A column written plainly is the one the warehouse finds for it unquoted: Snowflake folds such a
    name to upper case (a column created as clicked is stored CLICKED, which "clicked" would miss); a
    name in double quotes is exactly the name between them, and one that needs quoting anyway keeps its
    case. Warehouses whose names are case-insensitive, quoted or not, and the engines sqlmetrics runs
    on (whose columns it checks by their exact names) get the name as written."""
    cases = [  # (dialect, label as given, the quoted identifier expected in the SQL)
        ("snowflake", "clicked", "CLICKED"),
        ("snowflake", "Clicked", "CLICKED"),
        ("snowflake", '"clicked"', "clicked"),
        ("snowflake", '"MixedCase"', "MixedCase"),
        ("snowflake", "user id", "user id"),
        ("bigquery", "Clicked", "Clicked"),
        ("bigquery", '"Clicked"', "Clicked"),
        ("databricks", "Clicked", "Clicked"),
        ("redshift", "Clicked", "Clicked"),
        ("postgres", "Clicked", "Clicked"),
        ("duckdb", "Clicked", "Clicked"),
    ]
    for dialect, label, expected in cases:
        sql = sm.render("auc", "preds", label=label, score="pctr", dialect=dialect)
        tree = sqlglot.parse_one(sql, read=dialect)
        found = {(i.name, i.quoted) for i in tree.find_all(exp.Identifier)
                 if i.name.lower() in (expected.lower(), label.lower())}
        assert found == {(expected, True)}, (dialect, label, found)
    # Snowflake's own reading: the quoted CLICKED is the column an unquoted clicked names
    tree = sqlglot.parse_one(sm.render("auc", "preds", label="clicked", score="pctr", dialect="snowflake"),
                             read="snowflake")
    unquoted = normalize_identifiers(sqlglot.parse_one("SELECT clicked FROM preds", read="snowflake"),
                                     dialect="snowflake").find(exp.Column).name
    assert unquoted in {i.name for i in tree.find_all(exp.Identifier) if i.quoted}
    with pytest.raises(sm.ParameterError, match="reserved"):
        sm.render("auc", "preds", label='"SM_S"', score="pctr", dialect="snowflake")
    with pytest.raises(sm.ParameterError, match="output column"):
        sm.render("auc", "preds", label="clicked", score="pctr", by='"AUC"', dialect="snowflake")
