"""qubic-logic: 4x4x4 tic-tac-toe (Qubic) analysed declaratively.

>>> from qubic_logic import parse_position, shortest_forced_win
>>> shortest_forced_win(parse_position('1-2,22-52,27-4')).length
6
"""

from __future__ import annotations

from .core import CORE_NAME, ForcedWin, shortest_forced_win, threats
from .errors import (
    DataFormatError,
    EngineUnavailableError,
    IllegalMoveError,
    IllegalPositionError,
    NotationError,
    QubicError,
    QueryTimeout,
    RuleError,
)
from .notation import format_cell, format_position, parse_cell, parse_position
from .position import Game, Position



def __getattr__(name: str) -> str:
    """``__version__``, read from the installed package's metadata when first asked for (reading it
    costs more than the rest of this import, and most commands never ask).

    >>> import qubic_logic
    >>> qubic_logic.__version__.count('.') >= 2
    True
    """
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("qubic-logic")
    except PackageNotFoundError:  # running from a source tree that is not installed
        found = "0.0.0+source"
    globals()["__version__"] = found
    return found

__all__ = [
    "CORE_NAME",
    "DataFormatError",
    "EngineUnavailableError",
    "ForcedWin",
    "Game",
    "IllegalMoveError",
    "IllegalPositionError",
    "NotationError",
    "Position",
    "QubicError",
    "QueryTimeout",
    "RuleError",
    "format_cell",
    "format_position",
    "parse_cell",
    "parse_position",
    "shortest_forced_win",
    "threats",
    "__version__",
]
