"""sm.drift against Evidently 0.4.40's own stat tests, run in an environment of Evidently's
(SQLMETRICS_EVIDENTLY_PYTHON, default .venv-evidently/bin/python, which .ci/run creates) by
tests/evidently_reference.py: each score (a test's p-value, a distance's statistic), drift flag and
default threshold. The windows: 12,000 rows each, so that Evidently's ks (scipy's 'auto') takes the
asymptotic p-value as sm.drift does; a numeric column with NULLs, binned as Evidently bins it (its
'sturges' cuts, given as edges=); a categorical column with a category only the reference has (one
row: its share is below 10^-4, the empty-bin rule's other branch) and one only the current window has;
one with the same categories and sizes in both (Evidently's g_test passes the reference's counts
unscaled, which scipy accepts only for equal totals); a binary one."""
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sqlmetrics as sm
from conftest import unreachable
from sqlmetrics.two_windows import METHODS

ROOT = Path(__file__).resolve().parent.parent
PYTHON = Path(os.environ.get("SQLMETRICS_EVIDENTLY_PYTHON", ROOT / ".venv-evidently" / "bin" / "python"))
N = 12_000


def windows() -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(49)

    def window(shift: float, countries: list[str], p: list[float]) -> pd.DataFrame:
        frame = pd.DataFrame({"x": rng.normal(shift, 1 + shift, N), "country": rng.choice(countries, N, p=p),
                              "device": rng.choice(["ios", "android", "web"], N, p=[0.3, 0.5 - shift, 0.2 + shift]),
                              "flag": rng.choice(["yes", "no"], N, p=[0.2 + shift, 0.8 - shift])})
        frame.loc[rng.random(N) < 0.03, "x"] = None
        return frame
    reference = window(0.0, ["DE", "FR", "JP"], [0.5, 0.3, 0.2])
    reference.loc[7, "country"] = "IS"  # the reference's rarest category, absent from the current window
    current = window(0.05, ["DE", "FR", "JP", "NZ"], [0.45, 0.3, 0.2, 0.05])
    return reference, current


@pytest.fixture(scope="module")
def evidently(tmp_path_factory) -> dict:
    if not PYTHON.exists():
        unreachable("Evidently", FileNotFoundError(
            f"{PYTHON}: create it with python -m venv .venv-evidently && .venv-evidently/bin/pip install "
            "evidently==0.4.40 (as .ci/run does), or set SQLMETRICS_EVIDENTLY_PYTHON"))
    folder = tmp_path_factory.mktemp("evidently")
    for name, frame in zip(("reference", "current"), windows()):
        frame.to_parquet(folder / f"{name}.parquet")
    done = subprocess.run([str(PYTHON), str(ROOT / "tests" / "evidently_reference.py"), str(folder)],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "DO_NOT_TRACK": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def ours(column: str, methods: list[str], **binning) -> pd.DataFrame:
    reference, current = windows()
    numeric = column == "x"
    return sm.drift(reference, current, [column] if numeric else [], categorical=[] if numeric else [column],
                    method=methods, **binning).set_index("method")


@pytest.mark.parametrize("column, methods", [
    ("x", ["ks", "cramervonmises", "wasserstein_normed", "energy", "psi", "kl_divergence", "jensenshannon"]),
    ("x", ["hellinger"]),
    ("country", ["psi", "kl_divergence", "jensenshannon", "hellinger", "chisquare", "g_test"]),
    ("device", ["psi", "kl_divergence", "jensenshannon", "hellinger", "chisquare", "g_test"]),
    ("flag", ["two_proportion_z", "chisquare"])])
def test_each_score_flag_and_threshold_is_evidentlys(evidently, column, methods):
    cuts = {"edges": evidently[f"x {'hellinger ' if methods == ['hellinger'] else ''}cuts"]} if column == "x" else {}
    got = ours(column, methods, **cuts)
    for method in methods:
        want, row = evidently[f"{column} {method}"], got.loc[method]
        score = row["p_value"] if METHODS[method].test else row["statistic"]
        assert score == pytest.approx(want["score"], rel=1e-9, abs=1e-15), (column, method)
        assert (bool(row["drift"]), row["threshold"]) == (want["drifted"], want["threshold"]), (column, method)


def test_the_windows_exercise_what_they_are_for(evidently):
    """The cases are not vacuous: the new category makes the tests' p-values 0 on both sides, the other
    columns' p-values are finite and not 0, and some flags are raised and some are not."""
    assert evidently["country chisquare"]["score"] == evidently["country g_test"]["score"] == 0.0
    assert 0 < evidently["device chisquare"]["score"] < 1 and 0 < evidently["x cramervonmises"]["score"] < 1
    flags = [v["drifted"] for k, v in evidently.items() if not k.endswith("cuts")]
    assert any(flags) and not all(flags)
