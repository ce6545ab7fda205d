"""The compiled extensions of the native core (solvers/*.c), found once at import.

:data:`NATIVE` is the bitboard core's extension, or None when it was not
built; :mod:`qubic_logic.core` chooses between it and the pure-Python
fallback.

>>> NATIVE is None or hasattr(NATIVE, "canonical")
True
"""

from __future__ import annotations

import importlib
from types import ModuleType


def native_extension(name: str) -> ModuleType | None:
    """The compiled extension ``qubic_logic.<name>`` (solvers/*.c), or None when it was not built.

    >>> native_extension("_no_such_extension") is None
    True
    """
    try:
        return importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None


NATIVE: ModuleType | None = native_extension("_native")
