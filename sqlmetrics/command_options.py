"""The options each metric command has of its own, besides its metric's parameters (each written as
flag(name): label as --label): the registry refuses a parameter whose flag is one of them, at import
(a parameter named alpha made `sqlmetrics compare` fail on --alpha), and tests/test_cli.py builds
every command's parser for every metric, with exactly these options besides the metric's."""
from __future__ import annotations

#: where the rows come from and which of them (cli._source_options)
SOURCE = ("--database", "--url", "--table", "--na-values", "--where", "--allow-function")
#: command -> its own options (some only where the metric has what they act on: --per-query, --plot)
OWN = {
    "compute": SOURCE + ("--details", "--dropna", "--per-query", "--min", "--max", "--plot", "--format"),
    "compare": SOURCE + ("--dropna", "--max-drop", "--alpha", "--format"),
    "disparity": SOURCE + ("--dropna", "--max-difference", "--min-ratio", "--format"),
    "render": ("--dialect", "--pretty", "--per-query"),
}
#: argparse's, on every command
HELP = ("-h", "--help")


def flag(name: str) -> str:
    """A parameter's flag (class_, a Python keyword: --class)."""
    return "--" + name.rstrip("_").replace("_", "-")


def reserved_by(name: str) -> list[str]:
    """The commands whose own option a parameter called `name` would be written as."""
    return [command for command, options in OWN.items() if flag(name) in options] + (
        ["every command"] if flag(name) in HELP else [])
