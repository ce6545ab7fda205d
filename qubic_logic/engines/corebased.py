"""Engines over the bitboard core: ``native`` (the C extension), ``python`` and ``auto``.

>>> from qubic_logic.notation import parse_position
>>> e = CoreEngine('python')
>>> e.shortest_forced_win(parse_position('1-2,22-52,27-4')).length
6
"""

from __future__ import annotations

from ..core import NATIVE, ForcedWin, Threats, core_module, shortest_forced_win, threats
from ..position import Position, Side
from .base import Engine, RelatedPair, related_pairs_of


class CoreEngine(Engine):
    """The native or pure-Python bitboard core behind the engine interface.

    ``name`` is the core asked for; ``auto`` resolves to ``native`` when the
    extension is built (and ``QUBIC_CORE`` is not ``python``), else ``python``.
    """

    def __init__(self, name: str = "auto") -> None:
        module = core_module(name)  # raises EngineUnavailableError when native is not built
        self.core = "native" if module is NATIVE and NATIVE is not None else "python"
        self.name = self.core

    def threats(self, position: Position, time_limit: float | None = None) -> Threats:
        return threats(position, core=self.core)

    def related_pairs(self, position: Position, side: Side | None = None,
                      time_limit: float | None = None) -> list[RelatedPair]:
        sides = (side,) if side else ("x", "o")
        return sorted(p for s in sides for p in related_pairs_of(position, s))

    def shortest_forced_win(self, position: Position, max_length: int | None = None,
                            time_limit: float | None = None) -> ForcedWin:
        return shortest_forced_win(position, max_length, time_limit, core=self.core)
