"""What a process pays before its first row (benchmarks/startup.py measures it): template files
compile on the first use of one of their macros, and their compiled code is kept between processes
(templates._BytecodeCache). Neither may change the SQL, whatever the state of the cache."""
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parent.parent / "sqlmetrics" / "data" / "sample.csv"
#: a process that renders one metric and reports the template files it compiled
RENDER = ("import sqlmetrics as sm; from sqlmetrics.templates import namespace\n"
          "print(sm.render('ndcg', 'run', qrels='qrels', k=10, dialect='spark'))\n"
          "macros = namespace().macros; print(len(set(macros._files.values())), len(macros._loaded))")


def run(code: str, tmp) -> subprocess.CompletedProcess:
    """`code` in a fresh process whose temporary directory (where the compiled code is kept) is `tmp`."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "TMPDIR": str(tmp)})


def test_the_macro_index_is_what_the_files_define(tmp_path):
    """The index (macro -> file, read from the text) agrees with what each file defines once compiled
    (_load raises otherwise), and one metric's call compiles only the files it uses."""
    code = RENDER + "\nfor name in macros: macros[name]\nprint(len(macros._loaded))"
    *_, counts, loaded_all = run(code, tmp_path).stdout.splitlines()
    files, loaded = map(int, counts.split())
    assert files > 100 and loaded < int(loaded_all) / 3, (files, loaded, loaded_all)


def test_cached_code_renders_the_same_sql_whatever_the_cache_holds(tmp_path):
    first = run(RENDER, tmp_path).stdout
    caches = [p for d in tmp_path.iterdir() for p in d.glob("sqlmetrics_*.cache")]
    assert caches  # the compiled code was kept
    assert run(RENDER, tmp_path).stdout == first  # read back
    for i, path in enumerate(caches):  # cut short, or garbage after a valid header: compiled again
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 2] if i % 2 else data[:40] + b"\x00garbage")
    assert run(RENDER, tmp_path).stdout == first


def test_an_unusable_cache_directory_only_costs_the_compile(tmp_path):
    tmp_path.chmod(stat.S_IRUSR | stat.S_IXUSR)  # no directory can be made there
    try:
        assert "ndcg" in run(RENDER, tmp_path).stdout
    finally:
        tmp_path.chmod(stat.S_IRWXU)


def test_import_loads_no_parser_engine_or_frame_library(tmp_path):
    """`import sqlmetrics` builds every metric function without SQL parser, engine, templates or
    pandas (they load on the first call); a one-value command line call loads no pandas or numpy."""
    heavy = ("pandas", "numpy", "pyarrow", "duckdb", "sqlglot", "jinja2")
    code = "import sys, sqlmetrics as sm; sm.auc; sm.ndcg.__doc__; print(sorted(set(sys.modules) & set({!r})))"
    assert run(code.format(heavy), tmp_path).stdout.strip() == "[]"
    cli = ("import sys; from sqlmetrics.cli import main\n"
           "main(['compute', 'auc', {!r}, '--label', 'clicked', '--score', 'pctr'])\n"
           "print(sorted(set(sys.modules) & {{'pandas', 'numpy'}}))").format(str(SAMPLE))
    assert run(cli, tmp_path).stdout.splitlines()[-1] == "[]"


def test_lazy_names_are_the_api_s():
    import sqlmetrics as sm
    from sqlmetrics import api, comparison, evaluation, resampling, sources
    assert (sm.render, sm.bootstrap, sm.compare, sm.evaluate) == (api.render, resampling.bootstrap,
                                                                  comparison.compare, evaluation.evaluate)
    assert (sm.Query, sm.TrecRun, sm.TrecQrels) == (sources.Query, sources.TrecRun, sources.TrecQrels)
    assert {"render", "Query"} <= set(dir(sm))
    with pytest.raises(AttributeError, match="no_such_name"):
        sm.no_such_name
