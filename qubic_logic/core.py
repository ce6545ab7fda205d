"""The active bitboard core: the native C extension, or the pure-Python fallback.

``CORE_NAME`` says which one runs (``'native'`` or ``'python'``); set the
environment variable ``QUBIC_CORE=python`` to force the fallback.

>>> from qubic_logic.notation import parse_position
>>> win = shortest_forced_win(parse_position('1-2,22-52,27-4'))
>>> win.length, win.attacker, len(win.sequence)
(6, 'x', 11)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from types import ModuleType

from . import bitboard
from .errors import EngineUnavailableError, QueryTimeout
from .native import NATIVE
from .position import Position, Side, other


def core_module(name: str = "auto") -> ModuleType:
    """The core module for ``'native'``, ``'python'`` or ``'auto'`` (native when built)."""
    if name == "python":
        return bitboard
    if name == "native":
        if NATIVE is None:
            raise EngineUnavailableError(
                "the native core is not built; reinstall with a C compiler (pip install .) "
                "or use engine 'python'"
            )
        return NATIVE
    if name != "auto":
        raise EngineUnavailableError(f"unknown core {name!r}; expected native, python or auto")
    if os.environ.get("QUBIC_CORE") == "python" or NATIVE is None:
        return bitboard
    return NATIVE


CORE_NAME: str = "native" if core_module() is NATIVE else "python"


@dataclass(frozen=True, slots=True)
class Threats:
    """Threat cells of both sides, forcing moves and major cells, as masks."""

    x: int
    o: int
    forcing_x: int
    forcing_o: int
    major_x: int
    major_o: int

    def of(self, side: Side) -> int:
        """Threat cells of ``side``."""
        return self.x if side == "x" else self.o


def threats(position: Position, core: str = "auto") -> Threats:
    """Threat cells, forcing moves and major cells of both sides.

    >>> from qubic_logic.notation import parse_position
    >>> threats(parse_position('moves:0,16,1,17,2')).x == 1 << 3
    True
    """
    m = core_module(core)
    x, o = position.x, position.o
    return Threats(
        m.threat_cells(x, o),
        m.threat_cells(o, x),
        m.forcing_moves(x, o),
        m.forcing_moves(o, x),
        m.major_cells(x, o),
        m.major_cells(o, x),
    )


@dataclass(frozen=True, slots=True)
class ForcedWin:
    """Answer to "does the side to move have a forced win by threat sequence?".

    ``length`` is the minimal number of attacker moves (None: none within
    ``max_length``); ``sequence`` alternates attacker and defender cells and
    ends with the completing move.
    """

    engine: str
    attacker: Side
    length: int | None
    sequence: tuple[int, ...]
    max_length: int | None
    nodes: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def found(self) -> bool:
        """True when a forced win was found."""
        return self.length is not None

    def to_json(self) -> dict:
        """The JSON object printed by ``qubic win --json``."""
        return {
            "engine": self.engine,
            "attacker": self.attacker,
            "length": self.length,
            "sequence": list(self.sequence),
            "max_length": self.max_length,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def shortest_forced_win(
    position: Position,
    max_length: int | None = None,
    time_limit: float | None = None,
    core: str = "auto",
) -> ForcedWin:
    """Shortest forced win by threat sequence for the side to move (docs/design.md §3).

    Raises :class:`QueryTimeout` past ``time_limit`` seconds; its ``partial``
    is the largest length searched completely without finding a win.
    """
    m = core_module(core)
    name = "native" if m is NATIVE else "python"
    attacker = position.to_move
    a, d = position.mask(attacker), position.mask(other(attacker))
    start = time.perf_counter()
    length, seq, nodes, reached = m.forced_win(a, d, max_length or 0, time_limit or 0.0, 0)
    if length < 0:
        raise QueryTimeout(
            f"{name} core: no answer within the time limit of {time_limit} s "
            f"(no forced win of length <= {reached})",
            partial=reached,
        )
    return ForcedWin(
        name, attacker, length or None, tuple(seq), max_length, nodes, time.perf_counter() - start
    )
