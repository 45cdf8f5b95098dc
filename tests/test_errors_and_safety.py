"""Input validation and safety: docs/conventions.md#errors, #the-data-argument and #safety.

Every bad input must raise a ``ValueError`` subclass from sqlmetrics whose message names the
offending column or parameter; nothing the user passes may change the database or reach SQL
other than as a quoted identifier, a checked number or a parsed read-only SELECT.
"""
from __future__ import annotations

import math
import re
import warnings
from contextlib import contextmanager
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
import sqlglot
from sqlglot import exp

import sqlmetrics as sm
from sqlmetrics import engine as sm_engine
from sqlmetrics.registry import RESERVED_COLUMNS

# --------------------------------------------------------------------------------------------
# helpers and data
# --------------------------------------------------------------------------------------------

N = 60


def make_frame(n: int = N, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    clicked = rng.integers(0, 2, n)
    clicked[:4] = [0, 1, 0, 1]  # both classes for sure
    return pd.DataFrame({
        "clicked": clicked,
        "pctr": rng.random(n).round(3),  # probabilities, with some ties
        "user_id": rng.integers(0, 5, n),
        "country": rng.choice(["de", "fr", "us"], n),
        "w": rng.uniform(0.5, 2.0, n),
        "pred": rng.integers(0, 2, n),
    })


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    return make_frame()


@pytest.fixture
def con(df):
    """An in-memory DuckDB with a few tables; `snapshot(con)` says what it holds."""
    c = duckdb.connect()
    c.register("sm_test_df", df)
    c.execute("CREATE TABLE preds AS SELECT * FROM sm_test_df")
    c.execute("CREATE TABLE t AS SELECT * FROM sm_test_df")  # the 't' of 'x; DROP TABLE t; --'
    c.execute('CREATE TABLE "my table" AS SELECT * FROM sm_test_df')
    c.execute('CREATE SCHEMA "preds"')
    c.execute('CREATE TABLE "preds"."parquet" AS SELECT * FROM sm_test_df')  # looks like a file name
    c.execute('CREATE TABLE "x; DROP TABLE t; --" AS SELECT * FROM sm_test_df')
    c.execute('CREATE TABLE e AS SELECT * FROM sm_test_df LIMIT 0')
    c.unregister("sm_test_df")
    yield c
    c.close()


def snapshot(c) -> dict:
    """Every table and view (schema, name) with its row count, plus the attached databases."""
    objects = c.execute(
        "SELECT database_name, schema_name, table_name FROM duckdb_tables() "
        "UNION ALL SELECT database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal"
    ).fetchall()
    counts = {}
    for db, schema, name in objects:
        q = ".".join(exp.to_identifier(p, quoted=True).sql("duckdb") for p in (db, schema, name))
        counts[(db, schema, name)] = c.execute(f"SELECT COUNT(*) FROM {q}").fetchone()[0]
    databases = sorted(r[0] for r in c.execute("SELECT database_name FROM duckdb_databases()").fetchall())
    return {"objects": counts, "databases": databases}


class _Caught:
    value: BaseException | None = None


@contextmanager
def fails(error: type, *fragments: str):
    """Expect `error` (a sqlmetrics ValueError subclass) whose message contains every fragment."""
    assert issubclass(error, ValueError)
    caught = _Caught()
    try:
        yield caught
    except Exception as e:  # noqa: BLE001 - checked below
        caught.value = e
        assert isinstance(e, error), f"expected {error.__name__}, got {type(e).__name__}: {e}"
        assert isinstance(e, ValueError) and isinstance(e, sm.MetricError)
        message = str(e)
        for fragment in fragments:
            assert fragment in message, f"{fragment!r} not in message {message!r}"
    else:
        pytest.fail(f"expected {error.__name__}; nothing was raised")


def assert_untouched(c, before: dict) -> None:
    after = snapshot(c)
    gone = set(before["objects"]) - set(after["objects"])
    new = set(after["objects"]) - set(before["objects"])
    changed = {k for k in set(before["objects"]) & set(after["objects"])
               if before["objects"][k] != after["objects"][k]}
    assert not (gone or new or changed), f"dropped {gone}, created {new}, row counts changed {changed}"
    assert after["databases"] == before["databases"]


def same(a, b) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def assert_frames_equal(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want)
    for col in got.columns:
        g, w = got[col].tolist(), want[col].tolist()
        if pd.api.types.is_numeric_dtype(want[col]):
            assert all(same(float(x), float(y)) for x, y in zip(g, w)), (col, g, w)
        else:
            assert g == w, (col, g, w)


# --------------------------------------------------------------------------------------------
# errors (docs/conventions.md#errors): columns
# --------------------------------------------------------------------------------------------

def test_error_classes_are_value_errors():
    for cls in (sm.ColumnError, sm.ParameterError, sm.SourceError, sm.UndefinedMetricError, sm.EngineError):
        assert issubclass(cls, sm.MetricError) and issubclass(cls, ValueError)


def test_missing_column_suggests_closest_name(df):
    with fails(sm.ColumnError, "'clickd'", "did you mean 'clicked'", "label"):
        sm.auc(df, label="clickd", score="pctr")


def test_missing_column_suggests_case_variant():
    """DuckDB reads an unquoted name in any case: score finds Score; where a letter differs, the closest
    name is suggested."""
    frame = pd.DataFrame({"y": [0, 1], "Score": [0.1, 0.2]})
    assert sm.auc(frame, label="y", score="score") == 1.0
    with fails(sm.ColumnError, "'scores'", "'Score'"):
        sm.auc(frame, label="y", score="scores")


@pytest.mark.parametrize("metric, kwargs, missing", [
    ("auc", dict(label="clicked", score="pctx"), "pctx"),
    ("auc", dict(label="clicked", score="pctr", weight="wt"), "wt"),
    ("gauc", dict(label="clicked", score="pctr", group="user"), "user"),
    ("auc", dict(label="clicked", score="pctr", by="countri"), "countri"),
    ("log_loss", dict(label="clicked", score="pctr", by=["country", "nope"]), "nope"),
    ("precision", dict(label="clicked", prediction="predd"), "predd"),
    ("mae", dict(target="clicked", prediction="yhat"), "yhat"),
])
def test_missing_column_is_named(df, metric, kwargs, missing):
    with fails(sm.ColumnError, repr(missing), "not found"):
        getattr(sm, metric)(df, **kwargs)


@pytest.mark.parametrize("metric, kwargs, column", [
    ("auc", dict(label="clicked", score="pctr"), "clicked"),
    ("auc", dict(label="clicked", score="pctr"), "pctr"),
    ("auc", dict(label="clicked", score="pctr", weight="w"), "w"),
    ("gauc", dict(label="clicked", score="pctr", group="user_id"), "user_id"),
    ("gauc", dict(label="clicked", score="pctr", group="country"), "country"),
    ("confusion_matrix", dict(label="clicked", prediction="pred"), "pred"),
    ("log_loss", dict(label="clicked", score="pctr"), "pctr"),
])
def test_null_values_are_rejected_with_count(df, metric, kwargs, column):
    bad = df.copy()
    bad[column] = bad[column].astype(object)
    bad.loc[[3, 7], column] = None
    if column in ("clicked", "user_id", "pred"):
        bad[column] = pd.array(bad[column], dtype="Int64")
    elif column != "country":
        bad[column] = bad[column].astype(float)
    with fails(sm.ColumnError, repr(column), "2 NULL values", "dropna"):
        getattr(sm, metric)(bad, **kwargs)


def test_null_values_in_a_duckdb_table(con):
    con.execute("UPDATE preds SET pctr = NULL WHERE user_id = 1")
    n_null = con.execute("SELECT COUNT(*) FROM preds WHERE pctr IS NULL").fetchone()[0]
    with fails(sm.ColumnError, "'pctr'", f"{n_null} NULL value"):
        sm.auc("preds", label="clicked", score="pctr", con=con)


def test_label_value_two_is_rejected_and_shown(df):
    bad = df.assign(clicked=df["clicked"].where(df.index != 5, 2))
    with pytest.raises(sm.ColumnError) as info:
        sm.auc(bad, label="clicked", score="pctr")
    message = str(info.value)
    assert "0/1" in message and "'clicked'" in message
    assert re.search(r"(?<![\d.])2(?![\d.])", message), message


def test_label_example_value_is_shown_as_a_plain_number(df):
    """docs/conventions.md#errors: the example reads 'found 2'; the message should not show numpy reprs (np.int64(2))."""
    bad = df.assign(clicked=df["clicked"].where(df.index != 5, 2))
    with pytest.raises(sm.ColumnError) as info:
        sm.auc(bad, label="clicked", score="pctr")
    assert "np." not in str(info.value), str(info.value)


def test_label_fraction_is_rejected(df):
    bad = df.assign(clicked=df["clicked"].astype(float).where(df.index != 5, 0.5))
    with fails(sm.ColumnError, "0/1", "'clicked'", "0.5"):
        sm.auc(bad, label="clicked", score="pctr")


def test_prediction_value_two_is_rejected(df):
    bad = df.assign(pred=df["pred"].where(df.index != 5, 2))
    with fails(sm.ColumnError, "0/1", "'pred'", "prediction"):
        sm.precision(bad, label="clicked", prediction="pred")


def test_label_of_varchar_type(df):
    bad = df.assign(clicked=df["clicked"].astype(str))
    with fails(sm.ColumnError, "0/1", "'clicked'", "VARCHAR"):
        sm.auc(bad, label="clicked", score="pctr")


def test_boolean_label_is_accepted(df):
    assert same(sm.auc(df.assign(clicked=df["clicked"] == 1), label="clicked", score="pctr"),
                sm.auc(df, label="clicked", score="pctr"))


def test_nan_score_in_duckdb_table(con):
    con.execute("UPDATE preds SET pctr = 'NaN'::DOUBLE WHERE user_id = 2")
    with fails(sm.ColumnError, "'pctr'", "NaN"):
        sm.auc("preds", label="clicked", score="pctr", con=con)


@pytest.mark.parametrize("kind", ["pyarrow", "polars"])
def test_nan_score_in_arrow_and_polars(df, kind):
    scores = df["pctr"].tolist()
    scores[4] = float("nan")
    data = {"clicked": df["clicked"].tolist(), "pctr": scores}
    frame = pa.table(data) if kind == "pyarrow" else pl.DataFrame(data)
    with fails(sm.ColumnError, "'pctr'", "NaN"):
        sm.auc(frame, label="clicked", score="pctr")


def test_nan_score_in_pandas(df):
    """pandas NaN is pandas' missing value: reported as NaN or NULL, but always naming the column."""
    bad = df.assign(pctr=df["pctr"].where(df.index != 4, np.nan))
    with pytest.raises(sm.ColumnError) as info:
        sm.auc(bad, label="clicked", score="pctr")
    assert "'pctr'" in str(info.value)
    assert "NaN" in str(info.value) or "NULL" in str(info.value)


def test_nan_weight_is_rejected(con):
    con.execute("UPDATE preds SET w = 'NaN'::DOUBLE WHERE user_id = 2")
    with fails(sm.ColumnError, "'w'", "NaN"):
        sm.auc("preds", label="clicked", score="pctr", weight="w", con=con)


@pytest.mark.parametrize("make", [
    lambda s: s.astype(str),
    lambda s: pd.to_datetime("2024-01-01") + pd.to_timedelta(s, unit="D"),
])
def test_score_of_non_numeric_type(df, make):
    with fails(sm.ColumnError, "'pctr'", "numeric"):
        sm.auc(df.assign(pctr=make(df["pctr"])), label="clicked", score="pctr")


def test_infinite_scores_are_allowed():
    frame = pd.DataFrame({"y": [0, 1, 0, 1], "s": [-np.inf, np.inf, 0.2, 0.1]})
    assert same(sm.auc(frame, label="y", score="s"), 0.75)


def test_negative_weight(df):
    bad = df.assign(w=df["w"].where(df.index != 9, -1.5))
    with fails(sm.ColumnError, "'w'", "negative", "-1.5"):
        sm.auc(bad, label="clicked", score="pctr", weight="w")


def test_infinite_weight(df):
    bad = df.assign(w=df["w"].where(df.index != 9, np.inf))
    with fails(sm.ColumnError, "'w'", "infinite"):
        sm.log_loss(bad, label="clicked", score="pctr", weight="w")


@pytest.mark.parametrize("metric", ["log_loss", "brier_score"])
@pytest.mark.parametrize("value", [1.5, -0.25])
def test_probabilities_outside_unit_interval(df, metric, value):
    bad = df.assign(pctr=df["pctr"].where(df.index != 11, value))
    with fails(sm.ColumnError, "'pctr'", "[0, 1]", str(value)):
        getattr(sm, metric)(bad, label="clicked", score="pctr")


@pytest.mark.parametrize("metric", ["auc", "gauc", "roc_curve", "average_precision", "gini"])
def test_one_class_data_is_undefined(df, metric):
    kwargs = dict(group="user_id") if metric == "gauc" else {}
    with fails(sm.UndefinedMetricError, metric):
        getattr(sm, metric)(df.assign(clicked=0), label="clicked", score="pctr", **kwargs)


@pytest.mark.parametrize("metric", ["auc", "gauc", "roc_curve"])
def test_all_positive_data_is_undefined(df, metric):
    kwargs = dict(group="user_id") if metric == "gauc" else {}
    with pytest.raises(sm.UndefinedMetricError):
        getattr(sm, metric)(df.assign(clicked=1), label="clicked", score="pctr", **kwargs)


@pytest.mark.parametrize("metric", ["auc", "gauc", "roc_curve", "average_precision"])
def test_one_class_slices_give_nan_not_errors(df, metric):
    # country 'de' has only negatives, 'fr' only positives, 'us' both
    data = df.assign(clicked=np.where(df["country"] == "de", 0,
                                      np.where(df["country"] == "fr", 1, df["clicked"])))
    kwargs = dict(group="user_id") if metric == "gauc" else {}
    out = getattr(sm, metric)(data, label="clicked", score="pctr", by="country", **kwargs)
    assert isinstance(out, pd.DataFrame)
    assert out.columns[0] == "country"
    value = {"roc_curve": "tpr"}.get(metric, metric)
    de = out[out["country"] == "de"]
    assert len(de) and de[value].isna().all()  # no positives: undefined everywhere
    us = out[out["country"] == "us"]
    assert us[value].notna().all()
    if metric in ("auc", "gauc"):
        assert out.loc[out["country"] == "fr", metric].isna().all()


def _empty(df):
    return df.iloc[:0]


@pytest.mark.parametrize("metric, kwargs", [
    ("auc", dict(label="clicked", score="pctr")),
    ("gauc", dict(label="clicked", score="pctr", group="user_id")),
    ("log_loss", dict(label="clicked", score="pctr")),
    ("precision", dict(label="clicked", score="pctr")),
    ("mae", dict(target="pctr", prediction="w")),
])
def test_empty_table_is_undefined(df, metric, kwargs):
    with fails(sm.UndefinedMetricError, metric) as info:
        getattr(sm, metric)(_empty(df), **kwargs)
    assert "nan" not in str(info.value), str(info.value)  # the counts of no rows are 0, not nan


def test_empty_duckdb_table_is_undefined(con):
    with fails(sm.UndefinedMetricError, "auc"):
        sm.auc("e", label="clicked", score="pctr", con=con)


def test_empty_table_confusion_matrix(df):
    """No rows: all-zero counts, or a sqlmetrics error; never a bare Python ValueError."""
    try:
        out = sm.confusion_matrix(_empty(df), label="clicked", score="pctr")
    except ValueError as e:
        assert isinstance(e, sm.MetricError), f"{type(e).__name__}: {e}"
    else:
        assert out == {"tp": 0, "fp": 0, "tn": 0, "fn": 0, "n": 0}


def test_empty_table_with_by_gives_empty_frame(df):
    out = sm.auc(_empty(df), label="clicked", score="pctr", by="country")
    assert isinstance(out, pd.DataFrame) and len(out) == 0
    assert list(out.columns) == ["country", *sm.METRICS["auc"].outputs_for({})]


# --------------------------------------------------------------------------------------------
# errors: parameters
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("threshold", ["0.5", float("nan"), float("inf"), True, None, [0.5]])
def test_bad_threshold(df, threshold):
    with fails(sm.ParameterError, "threshold"):
        sm.precision(df, label="clicked", score="pctr", threshold=threshold)


def test_numpy_threshold_is_accepted(df):
    assert same(sm.precision(df, label="clicked", score="pctr", threshold=np.float64(0.3)),
                sm.precision(df, label="clicked", score="pctr", threshold=0.3))


@pytest.mark.parametrize("beta", [0, -1, "2", float("nan")])
def test_bad_beta(df, beta):
    with fails(sm.ParameterError, "beta"):
        sm.f_beta(df, label="clicked", score="pctr", beta=beta)


def test_bad_weighting(df):
    with fails(sm.ParameterError, "weighting", "'bogus'", "'impressions'"):
        sm.gauc(df, label="clicked", score="pctr", group="user_id", weighting="bogus")


def test_unknown_keyword_argument(df):
    with pytest.raises((TypeError, sm.ParameterError)) as info:
        sm.auc(df, label="clicked", score="pctr", treshold=0.5)
    assert "treshold" in str(info.value)


def test_unknown_keyword_in_render():
    with fails(sm.ParameterError, "treshold"):
        sm.render("auc", "preds", label="clicked", score="pctr", treshold=0.5)


def test_missing_required_parameter(df):
    with pytest.raises((TypeError, sm.ParameterError)) as info:
        sm.auc(df, score="pctr")
    assert "label" in str(info.value)
    with fails(sm.ParameterError, "label"):
        sm.render("auc", "preds", score="pctr")


@pytest.mark.parametrize("label", [1, None, ["clicked"], "", b"clicked"])
def test_label_must_be_a_string(df, label):
    with fails(sm.ParameterError, "label"):
        sm.auc(df, label=label, score="pctr")


@pytest.mark.parametrize("kwargs", [dict(score="pctr", prediction="pred"), dict()])
def test_exactly_one_of_score_and_prediction(df, kwargs):
    with fails(sm.ParameterError, "score", "prediction"):
        sm.precision(df, label="clicked", **kwargs)


@pytest.mark.parametrize("metric, kwargs, name", [
    ("auc", dict(by="n"), "n"),
    ("auc", dict(by="auc"), "auc"),
    ("auc", dict(by="N"), "N"),
    ("auc", dict(by=["country", "n_pos"]), "n_pos"),
    ("roc_curve", dict(by="threshold"), "threshold"),
    ("gauc", dict(group="n"), "n"),
    ("gauc", dict(group="user_id", by="gauc"), "gauc"),
])
def test_by_or_group_named_like_an_output_column(df, metric, kwargs, name):
    data = df.assign(**{name: 1})
    with fails(sm.ParameterError, repr(name)):
        getattr(sm, metric)(data, label="clicked", score="pctr", **kwargs)


@pytest.mark.parametrize("param", ["score", "label", "by", "group", "weight"])
def test_columns_starting_with_sm_are_reserved(df, param):
    data = df.assign(sm_x=df["pctr"].round(0).astype(int))
    kwargs = dict(label="clicked", score="pctr", group="user_id")
    kwargs[param] = "sm_x"
    with fails(sm.ParameterError, "'sm_x'", "sm_", param):
        sm.gauc(data, **kwargs)


@pytest.mark.parametrize("metric, param, column, name", [
    ("auc", "by", "user_id", "SM_N"),        # silently wrong counts (n, n_neg)
    ("gauc", "group", "user_id", "SM_V"),    # silently wrong GAUC
    ("gauc", "by", "country", "SM_N"),       # engine error
    ("auc", "by", "country", "SM_W_POS"),    # engine error
    ("auc", "by", "country", "Sm_S"),
])
def test_reserved_prefix_in_another_case_is_rejected_or_harmless(df, metric, param, column, name):
    """DuckDB matches identifiers case-insensitively, so 'SM_N' is the same column as 'sm_n'.

    Such a column must either be rejected like 'sm_n' (ParameterError naming it) or give the same
    result as a plain name; a silently wrong number or an engine error is not acceptable.
    """
    kwargs = dict(label="clicked", score="pctr")
    if metric == "gauc" and param != "group":
        kwargs["group"] = "user_id"
    want = getattr(sm, metric)(df, **kwargs, **{param: column})
    try:
        got = getattr(sm, metric)(df.rename(columns={column: name}), **kwargs, **{param: name})
    except ValueError as e:
        assert isinstance(e, sm.ParameterError) and name in str(e), f"{type(e).__name__}: {e}"
        return
    if isinstance(want, pd.DataFrame):
        assert_frames_equal(got.rename(columns={name: column}), want)
    else:
        assert same(got, want), (got, want)


def test_group_also_in_by(df):
    with fails(sm.ParameterError, "'user_id'"):
        sm.gauc(df, label="clicked", score="pctr", group="user_id", by="user_id")


@pytest.mark.parametrize("by", [["country", "country"], [], 3])
def test_bad_by(df, by):
    with fails(sm.ParameterError, "by"):
        sm.auc(df, label="clicked", score="pctr", by=by)


def test_unknown_metric_in_render_suggests():
    with fails(sm.ParameterError, "'acu'", "did you mean 'auc'"):
        sm.render("acu", "preds", label="clicked", score="pctr")


def test_non_string_metric_in_render():
    with pytest.raises((sm.ParameterError, TypeError)) as info:
        sm.render(3, "preds", label="clicked", score="pctr")
    assert "metric" in str(info.value), f"{type(info.value).__name__}: {info.value}"


@pytest.mark.parametrize("dialect", ["oracle", "DuckDB", "", None])
def test_unknown_dialect_in_render(dialect):
    with fails(sm.ParameterError, "dialect", repr(dialect)):
        sm.render("auc", "preds", label="clicked", score="pctr", dialect=dialect)


def test_render_validates_parameters_too():
    with fails(sm.ParameterError, "threshold"):
        sm.render("precision", "preds", label="clicked", score="pctr", threshold="0.5")
    with fails(sm.ParameterError, "'sm_x'"):
        sm.render("auc", "preds", label="clicked", score="sm_x")
    with fails(sm.ParameterError, "'n'"):
        sm.render("auc", "preds", label="clicked", score="pctr", by="n")


def test_bad_connection_object(df):
    with pytest.raises(sm.MetricError) as info:
        sm.auc(df, label="clicked", score="pctr", con="duckdb")
    assert "con" in str(info.value)


# --------------------------------------------------------------------------------------------
# dropna
# --------------------------------------------------------------------------------------------

def _with_nulls(df):
    bad = df.copy()
    bad["clicked"] = pd.array(bad["clicked"], dtype="Int64")
    bad.loc[[2, 10], "clicked"] = pd.NA
    bad.loc[[10, 20, 30], "pctr"] = np.nan
    bad.loc[[40], "w"] = np.nan
    bad["user_id"] = pd.array(bad["user_id"], dtype="Int64")
    bad.loc[[50, 2], "user_id"] = pd.NA
    return bad


@pytest.mark.parametrize("metric, kwargs, columns", [
    ("auc", dict(label="clicked", score="pctr"), ["clicked", "pctr"]),
    ("auc", dict(label="clicked", score="pctr", weight="w"), ["clicked", "pctr", "w"]),
    ("gauc", dict(label="clicked", score="pctr", group="user_id"), ["clicked", "pctr", "user_id"]),
    ("log_loss", dict(label="clicked", score="pctr", by="country"), ["clicked", "pctr"]),
    ("confusion_matrix", dict(label="clicked", score="pctr", weight="w"), ["clicked", "pctr", "w"]),
])
def test_dropna_drops_warns_and_matches_clean_data(df, metric, kwargs, columns):
    bad = _with_nulls(df)
    dropped = int(bad[columns].isna().any(axis=1).sum())
    assert dropped > 0
    with pytest.raises(sm.ColumnError, match="dropna"):
        getattr(sm, metric)(bad, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = getattr(sm, metric)(bad, **kwargs, dropna=True)
    ours = [w for w in caught if issubclass(w.category, UserWarning) and "dropna" in str(w.message)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert re.search(rf"\b{dropped}\b", str(ours[0].message)), str(ours[0].message)
    assert ours[0].filename == __file__  # points at the caller
    clean = bad.dropna(subset=columns).astype({c: df[c].dtype for c in columns})
    want = getattr(sm, metric)(clean, **kwargs)
    if isinstance(want, pd.DataFrame):
        assert_frames_equal(got, want)
    elif isinstance(want, dict):
        assert got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    else:
        assert same(got, want)


def test_dropna_without_nulls_does_not_warn(df):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert same(sm.auc(df, label="clicked", score="pctr", dropna=True),
                    sm.auc(df, label="clicked", score="pctr"))


def test_dropna_does_not_hide_other_problems(df):
    bad = _with_nulls(df)
    bad.loc[5, "w"] = -1.0
    with fails(sm.ColumnError, "'w'", "negative"):
        sm.auc(bad, label="clicked", score="pctr", weight="w", dropna=True)


def test_dropna_dropping_every_row(df):
    bad = df.assign(pctr=np.nan)
    with pytest.warns(UserWarning, match=str(N)):
        with pytest.raises(sm.UndefinedMetricError) as info:
            sm.auc(bad, label="clicked", score="pctr", dropna=True)
    assert "n=0" in str(info.value)
    assert "nan" not in str(info.value), str(info.value)  # counts of nothing are 0, not nan


# --------------------------------------------------------------------------------------------
# the data argument (docs/conventions.md#the-data-argument)
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def files(tmp_path_factory, df):
    d = tmp_path_factory.mktemp("files")
    df.to_parquet(d / "preds.parquet")
    df.to_csv(d / "preds.csv", index=False)
    df.to_csv(d / "preds.tsv", index=False, sep="\t")
    df.to_csv(d / "preds.csv.gz", index=False, compression="gzip")
    df.to_json(d / "preds.json", orient="records")
    df.to_json(d / "preds.jsonl", orient="records", lines=True)
    (d / "parts").mkdir()
    for i, chunk in enumerate(np.array_split(np.arange(len(df)), 3)):
        df.iloc[chunk].to_parquet(d / "parts" / f"part-{i}.parquet")
    return d


@pytest.mark.parametrize("name", ["preds.parquet", "preds.csv", "preds.tsv", "preds.csv.gz", "preds.json",
                                  "preds.jsonl", "parts/*.parquet", "parts/part-?.parquet"])
def test_file_paths_are_read(files, df, name):
    want = sm.auc(df, label="clicked", score="pctr")
    assert same(sm.auc(str(files / name), label="clicked", score="pctr"), want)


def test_pathlib_path_is_read(files, df):
    assert same(sm.log_loss(files / "preds.parquet", label="clicked", score="pctr"),
                sm.log_loss(df, label="clicked", score="pctr"))


@pytest.mark.parametrize("name", ["missing.parquet", "missing.csv", "nodir/*.parquet", "parts/*.csv"])
def test_path_matching_no_file(files, name):
    path = str(files / name)
    with fails(sm.SourceError, path):
        sm.auc(path, label="clicked", score="pctr")
    with fails(sm.SourceError, path):
        sm.auc(Path(path), label="clicked", score="pctr")


def test_missing_table(con):
    before = snapshot(con)
    with fails(sm.SourceError, "nope"):
        sm.auc("nope", label="clicked", score="pctr", con=con)
    with fails(sm.SourceError, "nope"):
        sm.auc("main.nope", label="clicked", score="pctr", con=con)
    with fails(sm.SourceError, "nope"):
        sm.auc('"nope"', label="clicked", score="pctr", con=con)
    with fails(sm.SourceError, "nope"):
        sm.auc(sm.Query("SELECT * FROM nope"), label="clicked", score="pctr", con=con)
    assert_untouched(con, before)


@pytest.mark.parametrize("ref", ["preds", "PREDS", '"my table"', 'main."preds"', "memory.main.preds",
                                 '"preds"."parquet"', '"x; DROP TABLE t; --"', ' preds '])
def test_table_references(con, df, ref):
    before = snapshot(con)
    want = sm.auc(df, label="clicked", score="pctr")
    assert same(sm.auc(ref, label="clicked", score="pctr", con=con), want)
    assert_untouched(con, before)


@pytest.mark.parametrize("sql", [
    "SELECT * FROM preds",
    "SELECT clicked, pctr FROM preds WHERE pctr >= 0",
    "WITH p AS (SELECT * FROM preds) SELECT * FROM p",
    "SELECT * FROM preds WHERE country = 'de' UNION ALL SELECT * FROM preds WHERE country <> 'de'",
    "FROM preds",
    "  SELECT * FROM preds;  ",
    "/* leading comment */ SELECT * FROM preds",
])
def test_query_source(con, df, sql):
    before = snapshot(con)
    want = sm.auc(df, label="clicked", score="pctr")
    assert same(sm.auc(sm.Query(sql), label="clicked", score="pctr", con=con), want)
    assert_untouched(con, before)


def test_query_with_trailing_comment_after_semicolon(con, df):
    """One statement followed by a comment is still one statement."""
    got = sm.auc(sm.Query("SELECT * FROM preds; -- all rows"), label="clicked", score="pctr", con=con)
    assert same(got, sm.auc(df, label="clicked", score="pctr"))


@pytest.fixture
def hostile_queries(tmp_path):
    out = tmp_path / "copied.csv"
    attached = tmp_path / "other.duckdb"
    return [
        ("two statements", "SELECT * FROM preds; SELECT * FROM preds"),
        ("select then drop", "SELECT * FROM preds; DROP TABLE preds"),
        ("drop", "DROP TABLE preds"),
        ("delete", "DELETE FROM preds"),
        ("update", "UPDATE preds SET clicked = 1"),
        ("insert", "INSERT INTO preds SELECT * FROM preds"),
        ("create as", "CREATE TABLE z AS SELECT * FROM preds"),
        ("copy", f"COPY preds TO '{out}'"),
        ("copy query", f"COPY (SELECT * FROM preds) TO '{out}'"),
        ("attach", f"ATTACH '{attached}' AS other"),
        ("writable cte delete", "WITH d AS (DELETE FROM preds RETURNING *) SELECT * FROM d"),
        ("writable cte insert", "WITH d AS (INSERT INTO preds SELECT * FROM preds RETURNING *) SELECT * FROM d"),
        ("writable cte update", "WITH d AS (UPDATE preds SET clicked = 1 RETURNING *) SELECT * FROM d"),
        ("select into", "SELECT * INTO z FROM preds"),
        ("pragma", "PRAGMA disable_checkpoint_on_shutdown"),
        ("set", "SET threads = 1"),
        ("call", "CALL pragma_version()"),
        ("install", "INSTALL httpfs"),
        ("merge", "MERGE INTO preds USING t ON true WHEN MATCHED THEN DELETE"),
        ("empty", "   "),
        ("not sql", "this is not sql"),
        ("non-string", 42),
    ], (out, attached)


def test_query_rejects_anything_but_one_read_only_select(con, hostile_queries):
    queries, (out, attached) = hostile_queries
    before = snapshot(con)
    for what, sql in queries:
        with fails(sm.SourceError):
            sm.auc(sm.Query(sql), label="clicked", score="pctr", con=con)
        assert_untouched(con, before), what
    assert not out.exists() and not attached.exists()


def test_the_round_trip_injections_are_refused(con, tmp_path):
    """The break-it pass's injections: sqlglot read :x$ as a placeholder and wrote it for DuckDB as $x$,
    which DuckDB reads as the start of a dollar-quoted string; the string then closed inside what
    sqlglot had read as a literal, and the rest of it ran: a file written, a table created. A
    placeholder is refused now as it is read, and the text written is checked as DuckDB reads it."""
    out = tmp_path / "pwned.csv"
    before = snapshot(con)
    payload = (f"$x$ IS NULL; COPY (SELECT 42 AS v) TO $z${out}$z$; COMMIT; CREATE TABLE pwned AS SELECT 1 AS owned; "
               "BEGIN; SELECT * FROM preds --")
    for sql in (f"SELECT * FROM preds WHERE :x$ IS NULL OR clicked = '{payload}'",
                f"SELECT * FROM preds WHERE ? IS NULL OR clicked = '{payload}'",
                f"SELECT * FROM preds WHERE $1 IS NULL OR clicked = '{payload}'"):
        with fails(sm.SourceError, "placeholder for a value bound when it runs", "sqlmetrics binds none"):
            sm.auc(sm.Query(sql), label="clicked", score="pctr", con=con)
    assert_untouched(con, before)
    assert not out.exists()


@pytest.mark.parametrize("sql, words", [
    ("SELECT * FROM preds WHERE country = 'a", ("does not parse as duckdb SQL", "not closed")),
    ("SELECT * FROM preds WHERE country = :x AND ''", ("placeholder",)),
    ("SELECT * FROM preds WHERE country = \"a", ("does not parse",)),
    ("SELECT * FROM preds WHERE /* unclosed", ("does not parse",)),
    ("SELECT * FROM preds WHERE pg_sleep(5) IS NULL", ("pg_sleep()", "holds the connection")),
    ("SELECT * FROM preds WHERE sleep_ms(5000) IS NULL", ("sleep_ms()",)),
    ("SELECT * FROM preds WHERE write_log('x') IS NULL", ("write_log()", "outlives")),
    ("SELECT * FROM query('DROP TABLE preds')", ("query()", "runs SQL given as text")),
])
def test_every_sqlglot_error_and_stall_is_a_sentence_of_ours(con, sql, words):
    with fails(sm.SourceError, *words):
        sm.auc(sm.Query(sql), label="clicked", score="pctr", con=con)


def test_a_comment_never_reaches_the_engine(con):
    """A -- comment is written by sqlglot as /* ... */, a form with more ways to end: comments are
    dropped from the text the user gives, and the statement sent has none (DuckDB's own tokenizer
    would refuse one)."""
    sql = "SELECT * FROM preds -- */ ; DROP TABLE preds; /*\nWHERE clicked IN (0, 1)"
    assert sm.auc(sm.Query(sql), label="clicked", score="pctr", con=con) == sm.auc("preds", label="clicked",
                                                                                   score="pctr", con=con)
    assert "/*" not in sm.render("auc", sm.Query(sql), label="clicked", score="pctr")


def test_query_rejects_writable_cte_message(con):
    with fails(sm.SourceError, "read-only"):
        sm.auc(sm.Query("WITH d AS (DELETE FROM preds RETURNING *) SELECT * FROM d"),
               label="clicked", score="pctr", con=con)
    with fails(sm.SourceError, "one SELECT", "2"):
        sm.auc(sm.Query("SELECT * FROM preds; DROP TABLE preds"), label="clicked", score="pctr", con=con)


@pytest.mark.parametrize("ref", [
    "preds; DROP TABLE preds",
    "preds;",
    "preds --",
    "preds -- comment",
    "preds /* comment */",
    "(SELECT 1)",
    "(SELECT * FROM preds)",
    "read_csv('x')",
    "read_parquet('preds.parquet')",
    "preds AS p",
    "preds p",
    "preds WHERE 1=1",
    "preds LIMIT 1",
    "SELECT * FROM preds",
    "a.b.c.d",
    "my table",
    "",
    "   ",
])
def test_table_reference_that_is_not_a_plain_name(con, ref):
    before = snapshot(con)
    with fails(sm.SourceError):
        sm.auc(ref, label="clicked", score="pctr", con=con)
    with fails(sm.SourceError):
        sm.render("auc", ref, label="clicked", score="pctr")
    assert_untouched(con, before)
    assert snapshot(con)["objects"][("memory", "main", "preds")] == N


def test_warehouse_table_reference_that_is_not_a_plain_name():
    """Each warehouse's own table references are read (tests/test_golden.py renders them); anything
    more, in that warehouse's own quoting, is refused."""
    refs = {
        "bigquery": ["my-project.dataset.table; DROP TABLE x", "my-project.dataset.table --",
                     "`my-project.dataset.table` WHERE 1=1", "my-project.dataset.table AS t", "my--project.d.t",
                     "-p.d.t", "p-.d.t", "p - d.t", "p.d.t-", "my-project.data-set.t", "`p`.d.t; SELECT 1",
                     "`a.b.c.d`", "p.d.t/* c */", "p.d.t FOR SYSTEM_TIME AS OF CURRENT_TIMESTAMP()", "p.d.t*"],
        "snowflake": ["my-project.d.t", '"DB"."S"."T"; DROP TABLE x', '"DB"."S"."T" t', "db.s.t AT(OFFSET => -60)"],
        "databricks": ["c.s.t; DROP TABLE x", "`c`.`s`.`t` --", "c-1.s.t", "c.s.t VERSION AS OF 1"],
    }
    for dialect, names in refs.items():
        for ref in names:
            with fails(sm.SourceError, repr(ref)):
                sm.render("auc", ref, label="clicked", score="pctr", dialect=dialect)


@pytest.mark.parametrize("data", [42, None, 1.5, ["preds"], {"clicked": [1]}, b"preds"])
def test_data_of_unsupported_type(data):
    with fails(sm.SourceError, "data"):
        sm.auc(data, label="clicked", score="pctr")


def test_engine_errors_are_wrapped(con):
    # error() is no function known to be pure: trusted here, to fail as the engine runs it
    query = sm.Query("SELECT clicked, CASE WHEN clicked = 1 THEN error('boom') ELSE pctr END AS pctr FROM preds",
                     functions=("error",))
    with pytest.raises(sm.MetricError) as info:
        sm.auc(query, label="clicked", score="pctr", con=con)
    assert isinstance(info.value, ValueError) and not isinstance(info.value, duckdb.Error)
    assert "boom" in str(info.value)


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow"])
def test_frames_leave_nothing_behind(con, df, kind):
    frame = {"pandas": df, "polars": pl.from_pandas(df), "pyarrow": pa.Table.from_pandas(df)}[kind]
    before = snapshot(con)
    assert same(sm.auc(frame, label="clicked", score="pctr", con=con), sm.auc(df, label="clicked", score="pctr"))
    with pytest.raises(sm.ColumnError):
        sm.auc(frame, label="nope", score="pctr", con=con)
    assert_untouched(con, before)


def test_users_own_registrations_are_left_alone(con, df):
    """A frame is registered on the user's connection for the call: whatever name sqlmetrics uses,
    a view the user registered under that name must survive (sqlmetrics 'sm_frame' is one)."""
    mine = df.assign(pctr=1 - df["pctr"])
    for name in ("sm_frame", "sm_source"):
        con.register(name, mine)
    before = snapshot(con)
    assert same(sm.auc(df, label="clicked", score="pctr", con=con), sm.auc(df, label="clicked", score="pctr"))
    assert_untouched(con, before)
    assert con.execute("SELECT SUM(pctr) FROM sm_frame").fetchone()[0] == pytest.approx(mine["pctr"].sum())


# --------------------------------------------------------------------------------------------
# hostile and odd column names
# --------------------------------------------------------------------------------------------

HOSTILE = ["order", "select", "user id", "用户", "Score", 'a"b', "it's", "x; DROP TABLE t; --",
           "new\nline", "a`b", "a]b", "back\\slash", "{{ label }}", "?", "%s", "$1", " padded ",
           "--", "/*", "\r\n\t"]
ROLES = ["clicked", "pctr", "user_id", "country", "w"]


def hostile_mapping(i: int) -> dict[str, str]:
    """plain column -> hostile name; each hostile name takes every role across the cases."""
    return {plain: HOSTILE[(i + k) % len(HOSTILE)] for k, plain in enumerate(ROLES)}


CALLS = [
    ("auc", dict(label="clicked", score="pctr")),
    ("auc", dict(label="clicked", score="pctr", weight="w", by="country")),
    ("gauc", dict(label="clicked", score="pctr", group="user_id", weight="w", by="country")),
    ("gauc", dict(label="clicked", score="pctr", group="user_id")),
    ("log_loss", dict(label="clicked", score="pctr", by=["country"])),
    ("confusion_matrix", dict(label="clicked", score="pctr", weight="w", threshold=0.4)),
    ("confusion_matrix", dict(label="clicked", score="pctr", by="country")),
]


def rename_kwargs(kwargs: dict, mapping: dict) -> dict:
    out = {}
    for k, v in kwargs.items():
        if k in ("label", "score", "weight", "group"):
            out[k] = mapping[v]
        elif k == "by":
            out[k] = [mapping[c] for c in v] if isinstance(v, list) else mapping[v]
        else:
            out[k] = v
    return out


def assert_same_result(got, want, mapping):
    if isinstance(want, pd.DataFrame):
        back = {h: p for p, h in mapping.items()}
        assert_frames_equal(got.rename(columns=back), want)
    elif isinstance(want, dict):
        assert got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    else:
        assert same(got, want)


@pytest.fixture(scope="module")
def plain_results(df):
    return [getattr(sm, m)(df, **kw) for m, kw in CALLS]


@pytest.mark.parametrize("case", range(len(HOSTILE)))
def test_hostile_column_names(df, con, plain_results, case):
    mapping = hostile_mapping(case)
    frame = df[ROLES].rename(columns=mapping)
    con.register("sm_test_hostile", frame)
    con.execute("CREATE TABLE hostile AS SELECT * FROM sm_test_hostile")
    con.unregister("sm_test_hostile")
    assert con.execute("SELECT * FROM hostile LIMIT 0").description  # names survived the round trip
    assert [d[0] for d in con.execute("SELECT * FROM hostile LIMIT 0").description] == list(frame.columns)
    before = snapshot(con)
    for (metric, kwargs), want in zip(CALLS, plain_results):
        hostile_kwargs = rename_kwargs(kwargs, mapping)
        for data, extra in ((frame, {}), ("hostile", {"con": con})):
            got = getattr(sm, metric)(data, **hostile_kwargs, **extra)
            assert_same_result(got, want, mapping)
    assert_untouched(con, before)
    assert snapshot(con)["objects"][("memory", "main", "t")] == N


@pytest.mark.parametrize("name", ["x; DROP TABLE t; --", 'a"b', "it's", "用户", "new\nline", "{{ label }}"])
def test_hostile_column_names_in_error_messages(df, con, name):
    """The validation query quotes the names too; the message shows the name as given."""
    before = snapshot(con)
    bad = df.assign(clicked=df["clicked"].where(df.index != 3, 2)).rename(columns={"clicked": name})
    with fails(sm.ColumnError, repr(name), "0/1"):
        sm.auc(bad, label=name, score="pctr", con=con)
    nulls = df.assign(pctr=df["pctr"].where(df.index != 3, np.nan)).rename(columns={"pctr": name})
    with fails(sm.ColumnError, repr(name)):
        sm.auc(nulls, label="clicked", score=name, con=con)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sm.auc(nulls, label="clicked", score=name, con=con, dropna=True)
    assert same(got, sm.auc(df.drop(index=3), label="clicked", score="pctr"))
    with fails(sm.ColumnError, repr(name + "x")):
        sm.auc(bad, label=name + "x", score="pctr", con=con)
    assert_untouched(con, before)


def test_unused_columns_named_like_internals_do_not_interfere(df, plain_results):
    extra = df.assign(sm_u=1.0, sm_n=5, sm_s=0.3, sm_w_pos=2.0, sm_w_neg=3.0, sm_source=1, sm_v=9.0,
                      sm_auc=0.1, auc=0.1, gauc=0.2, n=7, n_pos=1, n_neg=2, threshold=3, tp=1, fp=1)
    for (metric, kwargs), want in zip(CALLS, plain_results):
        assert_same_result(getattr(sm, metric)(extra, **kwargs), want, {})


# --------------------------------------------------------------------------------------------
# read-only (docs/conventions.md#safety)
# --------------------------------------------------------------------------------------------

def test_read_only_connection(tmp_path, df):
    path = str(tmp_path / "ro.duckdb")
    with duckdb.connect(path) as c:
        c.register("sm_test_df", df)
        c.execute("CREATE TABLE preds AS SELECT * FROM sm_test_df")
    ro = duckdb.connect(path, read_only=True)
    try:
        before = snapshot(ro)
        auc = sm.auc(df, label="clicked", score="pctr")
        # a table on the read-only database
        assert same(sm.auc("preds", label="clicked", score="pctr", con=ro), auc)
        assert_frames_equal(sm.gauc("preds", label="clicked", score="pctr", group="user_id", by="country", con=ro),
                            sm.gauc(df, label="clicked", score="pctr", group="user_id", by="country"))
        assert len(sm.roc_curve("preds", label="clicked", score="pctr", con=ro)) > 2
        assert sm.confusion_matrix("preds", label="clicked", score="pctr", con=ro)["n"] == N
        # a DataFrame, registered on the read-only connection
        assert same(sm.auc(df, label="clicked", score="pctr", con=ro), auc)
        assert same(sm.log_loss(pl.from_pandas(df), label="clicked", score="pctr", con=ro),
                    sm.log_loss(df, label="clicked", score="pctr"))
        # a user query
        q = sm.Query("SELECT * FROM preds WHERE country <> 'de'")
        assert same(sm.auc(q, label="clicked", score="pctr", con=ro),
                    sm.auc(df[df["country"] != "de"], label="clicked", score="pctr"))
        # dropna filters in SQL, which must stay read-only as well
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sm.auc(sm.Query("SELECT clicked, CASE WHEN user_id = 0 THEN NULL ELSE pctr END AS pctr "
                                  "FROM preds"), label="clicked", score="pctr", con=ro, dropna=True)
        assert same(got, sm.auc(df[df["user_id"] != 0], label="clicked", score="pctr"))
        # errors on a read-only connection are the usual ones
        with fails(sm.SourceError, "nope"):
            sm.auc("nope", label="clicked", score="pctr", con=ro)
        assert_untouched(ro, before)
    finally:
        ro.close()


# --------------------------------------------------------------------------------------------
# only read-only SELECTs are ever sent
# --------------------------------------------------------------------------------------------

FORBIDDEN = tuple(getattr(exp, n) for n in (
    "DML", "DDL", "Command", "Into", "Copy", "Set", "Use", "Pragma", "Transaction", "Commit",
    "Rollback", "Attach", "Detach", "Install", "Merge", "Drop", "Create", "Insert", "Update", "Delete",
    "Alter", "LoadData") if hasattr(exp, n))


def assert_one_read_only_select(sql: str, dialect: str) -> exp.Expression:
    statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    assert len(statements) == 1, sql
    tree = statements[0]
    assert isinstance(tree, exp.Query), (type(tree), sql)
    bad = [node.key for node in tree.walk() if isinstance(node, FORBIDDEN)]
    assert not bad, (bad, sql)
    return tree


class SpyConnection:
    """Records every SQL string sent to the DuckDB connection."""

    def __init__(self, real, log):
        self._real, self._log = real, log

    def execute(self, sql, *args, **kwargs):
        self._log.append(("execute", sql))
        return self._real.execute(sql, *args, **kwargs)

    def sql(self, sql, *args, **kwargs):
        self._log.append(("sql", sql))
        return self._real.sql(sql, *args, **kwargs)

    def extract_statements(self, sql):
        self._log.append(("parse", sql))  # DuckDB's own reading of a statement before it runs: nothing runs
        return self._real.extract_statements(sql)

    def register(self, name, obj):
        self._log.append(("register", name))
        return self._real.register(name, obj)

    def unregister(self, name):
        self._log.append(("unregister", name))
        return self._real.unregister(name)

    def __getattr__(self, name):
        self._log.append(("other", name))
        return getattr(self._real, name)


def test_only_read_only_selects_are_sent(monkeypatch, con, df, files):
    log = []
    original = sm_engine.DuckDBEngine.__init__

    def spying_init(self, con=None, *args):
        original(self, con, *args)
        self.con = SpyConnection(self.con, log)

    monkeypatch.setattr(sm_engine.DuckDBEngine, "__init__", spying_init)
    mapping = hostile_mapping(5)
    frame = df[ROLES].rename(columns=mapping)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for metric, kwargs in CALLS:
            getattr(sm, metric)(frame, **rename_kwargs(kwargs, mapping), con=con)
            getattr(sm, metric)(frame, **rename_kwargs(kwargs, mapping), dropna=True)
        sm.auc("preds", label="clicked", score="pctr", con=con)
        sm.roc_curve('"my table"', label="clicked", score="pctr", weight="w", con=con)
        sm.pr_curve(str(files / "parts/*.parquet"), label="clicked", score="pctr")
        sm.average_precision(sm.Query("SELECT * FROM preds"), label="clicked", score="pctr", con=con)
        sm.rela_impr("preds", label="clicked", score="pctr", base_score="w", con=con)
        sm.f_beta("preds", label="clicked", prediction="pred", beta=2, con=con)
        sm.r2("preds", target="pctr", prediction="w", by="country", con=con)
        for bad in ("nope", "preds; DROP TABLE preds"):
            with pytest.raises(sm.SourceError):
                sm.auc(bad, label="clicked", score="pctr", con=con)
    sent = [sql for kind, sql in log if kind in ("execute", "sql")]
    assert len(sent) > 20
    for sql in sent:
        assert_one_read_only_select(sql, "duckdb")
    # besides SELECTs, only the call's own snapshot transaction, always rolled back (never a commit)
    others = [name for kind, name in log if kind == "other"]
    assert others and others == ["begin", "rollback"] * (len(others) // 2)
    registered = [name for kind, name in log if kind == "register"]
    assert registered == [name for kind, name in log if kind == "unregister"]


# --------------------------------------------------------------------------------------------
# render: one SELECT per dialect, identifiers quoted
# --------------------------------------------------------------------------------------------

DIALECTS = ["duckdb", "sqlite", "postgres", "spark", "databricks", "clickhouse", "bigquery", "snowflake",
            "trino", "redshift", "mysql"]

RENDER_NAMES = {"label": "order", "score": 'a"b', "weight": "it's", "group": "x; DROP TABLE t; --",
                "by": "user id", "by2": "用户", "prediction": "Score", "base": "new\nline", "target": "select"}

RENDER_CALLS = [
    ("auc", dict(label="label", score="score", weight="weight", by=["by", "by2"])),
    ("gauc", dict(label="label", score="score", group="group", weight="weight", by="by")),
    ("roc_curve", dict(label="label", score="score", by="by2")),
    ("log_loss", dict(label="label", score="score", by="by")),
    ("confusion_matrix", dict(label="label", prediction="prediction", weight="weight", by="group")),
    ("f_beta", dict(label="label", score="score", threshold=0.25, beta=2.0, by="by")),
    ("rela_impr", dict(label="label", score="score", base_score="base")),
    ("mae", dict(target="target", prediction="score", by="group")),
]


def test_render_covers_the_spec_dialects():
    assert set(DIALECTS) <= set(sm.DIALECTS)


def _render_kwargs(kwargs):
    out = {}
    for k, v in kwargs.items():
        if k == "by":
            out[k] = [RENDER_NAMES[c] for c in v] if isinstance(v, list) else RENDER_NAMES[v]
        elif isinstance(v, str):
            out[k] = RENDER_NAMES[v]
        else:
            out[k] = v
    return out


@pytest.mark.parametrize("dialect", DIALECTS)
def test_render_one_select_with_quoted_identifiers(dialect):
    hostile = set(RENDER_NAMES.values())
    table = '"my schema"."x; DROP TABLE t; --"'
    for metric, kwargs in RENDER_CALLS:
        params = _render_kwargs(kwargs)
        sql = sm.render(metric, table, dialect=dialect, **params)
        assert isinstance(sql, str)
        tree = assert_one_read_only_select(sql, dialect)
        used = {v for v in params.values() if isinstance(v, str)} | {
            c for v in params.values() if isinstance(v, list) for c in v}
        seen = {}
        for ident in tree.find_all(exp.Identifier):
            seen.setdefault(ident.name, set()).add(bool(ident.quoted))
        for name in used:
            if dialect == "snowflake" and re.fullmatch(r"[A-Za-z_]\w*", name, re.ASCII):
                name = name.upper()  # the column Snowflake finds for the name unquoted
            assert seen.get(name) == {True}, (dialect, metric, name, seen.get(name))
        for name in ("my schema", "x; DROP TABLE t; --"):
            assert seen.get(name) == {True}, (dialect, metric, name)
        # nothing else: every unquoted identifier is a sqlmetrics name, not a piece of a user name
        unquoted = {n for n, q in seen.items() if False in q}
        allowed = re.compile(r"sm_[a-z0-9_]*\Z")
        outputs = set(RESERVED_COLUMNS)  # output names, also of the metrics a template nests
        strays = {n for n in unquoted if not allowed.match(n) and n not in outputs}
        assert not strays, (dialect, metric, strays)
        # hostile text appears in no string literal either
        literals = {lit.this for lit in tree.find_all(exp.Literal) if lit.is_string}
        assert not (literals & hostile), (dialect, metric, literals & hostile)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_render_with_user_query(dialect):
    sql = sm.render("auc", sm.Query("SELECT * FROM analytics.preds WHERE day = 3"), label="clicked",
                    score="pctr", by="country", dialect=dialect)
    tree = assert_one_read_only_select(sql, dialect)
    assert any(t.name == "preds" for t in tree.find_all(exp.Table))
    with fails(sm.SourceError):
        sm.render("auc", sm.Query("SELECT * FROM preds; DROP TABLE preds"), label="clicked", score="pctr",
                  dialect=dialect)
    with fails(sm.SourceError):
        sm.render("auc", sm.Query("DELETE FROM preds"), label="clicked", score="pctr", dialect=dialect)


@pytest.mark.parametrize("dialect", [d for d in DIALECTS if d != "duckdb"])
def test_render_refuses_files_for_other_dialects(files, dialect):
    with fails(sm.SourceError, "preds.parquet"):
        sm.render("auc", str(files / "preds.parquet"), label="clicked", score="pctr", dialect=dialect)


def test_render_of_duckdb_matches_execution(con, df):
    """The rendered DuckDB SQL, run on the connection, gives the function's answer."""
    sql = sm.render("auc", "preds", label="clicked", score="pctr", by="country")
    got = con.execute(sql).df().sort_values("country").reset_index(drop=True)
    assert_frames_equal(got, sm.auc("preds", label="clicked", score="pctr", by="country", con=con))
