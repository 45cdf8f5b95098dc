"""``python -m sqlmetrics``: the command line (sqlmetrics.cli)."""
import sys

from .cli import main

sys.exit(main())
