"""qubic-logic: 4x4x4 tic-tac-toe (Qubic) analysed declaratively.

>>> from qubic_logic import parse_position, shortest_forced_win
>>> shortest_forced_win(parse_position('1-2,22-52,27-4')).length
6
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

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

try:
    __version__ = version("qubic-logic")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"

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
