"""The wheel carries the templates, and an installed wheel finds and runs them."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True)
    (path,) = out.glob("sqlmetrics-*.whl")
    return path


def test_wheel_contains_every_template(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {f"sqlmetrics/sql/{p.relative_to(ROOT / 'sql').as_posix()}" for p in (ROOT / "sql").rglob("*.sql")}
    assert templates and templates <= names, sorted(templates - names)
    assert "sqlmetrics/__init__.py" in names and "sqlmetrics/data/sample.csv" in names


def test_wheel_is_the_dbt_package_of_its_version(wheel):
    """The package directory holds the repository's dbt_project.yml beside sql/, its macro path: the
    local dbt package `sqlmetrics dbt-package` names (tests/test_dbt.py installs it with dbt)."""
    archive = zipfile.ZipFile(wheel)
    assert archive.read("sqlmetrics/dbt_project.yml") == (ROOT / "dbt_project.yml").read_bytes()
    assert 'macro-paths: ["sql"]' in (ROOT / "dbt_project.yml").read_text()


def test_unpacked_wheel_runs_a_metric_from_its_own_templates(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    code = ("import sqlmetrics as sm, pandas as pd; from sqlmetrics.templates import SQL_DIR; "
            "print(SQL_DIR); print(sm.auc(pd.DataFrame({'y': [0, 1, 1], 's': [0.2, 0.1, 0.9]}), label='y', score='s'))")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          check=True)
    sql_dir, value = done.stdout.split()
    assert Path(sql_dir) == tmp_path / "site" / "sqlmetrics" / "sql"
    assert float(value) == 0.5
