"""MathJax for the documentation site, served by the site itself (mkdocs.yml names this file among its
hooks): the metric pages' formulas (sqlmetrics/docsite.py writes each metric's ``math`` as display TeX,
which pymdownx.arithmatex wraps for MathJax) are typeset in the reader's browser by MathJax 3, whose
single-file build with every TeX extension and SVG output (``tex-svg-full.js``: no font files to
serve, no extension to load later) this hook adds to the site from the installed package
sphinx-mathjax-offline (the docs extra). No page loads a script from another site: the site reads
offline, and the build's browser check (tests/test_docs.py) sees what a reader sees.
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, files

#: where the site serves MathJax (mkdocs.yml's extra_javascript names it)
SERVED = "javascripts/mathjax/tex-svg-full.js"
PACKAGE = "sphinx-mathjax-offline"


def mathjax_path() -> str:
    """The installed tex-svg-full.js; a clear error when the docs extra is not installed."""
    try:
        found = [f for f in files(PACKAGE) or () if f.name == "tex-svg-full.js"]
    except PackageNotFoundError:
        found = []
    if not found:
        raise SystemExit(f"the site's formulas need MathJax from {PACKAGE}: pip install -e '.[docs]'")
    return str(found[0].locate())


def on_files(files, config):
    from mkdocs.structure.files import File

    files.append(File.generated(config, SERVED, abs_src_path=mathjax_path()))
    return files
