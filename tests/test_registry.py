"""The registry's words are typed: a word outside its vocabulary fails when the registry loads, and
each mapping derived from the words (aliases, plots, reserved names) has one source."""
from __future__ import annotations

import pytest

import sqlmetrics as sm
from sqlmetrics.params import Param
from sqlmetrics.registry import ALIASES, METRICS, PLOTS, RESERVED_COLUMNS, Metric, lookup


@pytest.mark.parametrize("field, value", [("role", "lable"), ("kind", "colum"), ("where", "qrel")])
def test_a_misspelt_parameter_word_fails_at_declaration(field, value):
    words = {"kind": "column", "role": "label", "where": "data"} | {field: value}
    with pytest.raises(TypeError, match=f"{field}={value!r} is not one of"):
        Param("y", words["kind"], "a label", role=words["role"], where=words["where"])


def test_a_misspelt_relation_column_role_fails_at_declaration():
    with pytest.raises(TypeError, match="role='nummeric'"):
        Param("similarity", "relation", "pairs", relation_columns=(("s", "nummeric"),))


@pytest.mark.parametrize("field, value", [("kind", "scaler"), ("plot", "rock")])
def test_a_misspelt_metric_word_fails_at_declaration(field, value):
    auc = METRICS["auc"]
    with pytest.raises(TypeError, match=f"{field}={value!r} is not one of"):
        Metric(**{**{f: getattr(auc, f) for f in auc.__dataclass_fields__}, field: value})


def test_aliases_are_declared_on_their_metric_and_exported():
    assert ALIASES == {"map": "mean_average_precision", "catalog_coverage": "coverage", "auuc": "uplift_auc",
                       "qini_coefficient": "qini_auc"}
    for alias, name in ALIASES.items():
        assert lookup(alias) is METRICS[name]
        assert getattr(sm, alias) is getattr(sm, name) and alias in sm.__all__


def test_each_plot_is_drawn_from_one_curve():
    assert {kind: m.name for kind, m in PLOTS.items()} == {
        "roc": "roc_curve", "pr": "pr_curve", "calibration": "calibration_curve"}
    assert all(m.kind == "curve" for m in PLOTS.values())


def test_an_unknown_name_carries_the_closest_one():
    with pytest.raises(sm.UnknownMetricError) as caught:
        lookup("nDCG")
    assert caught.value.suggestion == "ndcg" and caught.value.name == "nDCG"


def test_output_and_intermediate_names_are_reserved_for_keys():
    assert {"auc", "n_pos", "threshold", "tp"} <= RESERVED_COLUMNS
    with pytest.raises(sm.ParameterError, match="cannot be used in by/group"):
        sm.render("auc", "t", label="y", score="s", by=["AUC"])


#: optional number parameters without a sample value, and the engine cases that run them instead
NO_SAMPLE = {("auc", "max_fpr"): "max_fpr excludes bins (auc's sample): engine cases auc-max-fpr-0.3 and -0.05"}


@pytest.mark.parametrize("name", sorted(METRICS))
def test_every_number_parameter_has_a_valid_sample_other_than_its_default(name):
    """The engine and golden cases give every optional number parameter its sample (Param.sample): a
    parameter added without one would run at its default only, on DuckDB alone."""
    for p in METRICS[name].params:
        if p.kind in ("int", "float", "floats") and not p.required and (name, p.name) not in NO_SAMPLE:
            assert p.sample is not None, f"{name}'s {p.name} needs a sample value (Param.sample)"
        if p.sample is not None:
            p.validate(p.sample)  # a ParameterError if the parameter refuses it
            assert p.sample != p.default, f"{name}'s {p.name}: its sample is its default"
