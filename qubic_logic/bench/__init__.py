"""Benchmarks: ``python -m qubic_logic.bench [SECTION ...]`` (or ``make bench``).

Every public module of this package is a section with a ``run(console)`` function that
measures something and prints a table on a rich console; ``__main__`` finds them all.
Modules whose names start with ``_`` are helpers (``_positions``: the seeded position
sets). Sections measure on fixed, seeded sets, so runs compare.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def sections() -> list[str]:
    """Names of the benchmark sections, sorted.

    >>> 'core' in sections()
    True
    """
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def load(name: str) -> ModuleType:
    """The section module ``name`` (raises ``KeyError`` for an unknown one)."""
    if name not in sections():
        raise KeyError(f"unknown benchmark section {name!r}; expected one of {', '.join(sections())}")
    return importlib.import_module(f"{__name__}.{name}")
