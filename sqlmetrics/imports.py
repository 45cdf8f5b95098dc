"""Type tests against the heavy optional libraries without importing them: a value can only be a
numpy or pandas object if that library is imported already, and ``import sqlmetrics`` imports
neither (a quick start for the command line)."""
from __future__ import annotations

import sys


def instance_of(value, module: str, *names: str) -> bool:
    """Whether `value` is one of `module`'s `names` (types, or singletons such as pandas.NA)."""
    loaded = sys.modules.get(module)
    if loaded is None:
        return False
    found = [getattr(loaded, name) for name in names]
    return any(value is f if not isinstance(f, type) else isinstance(value, f) for f in found)
