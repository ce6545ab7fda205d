"""WHIZ: McDaniel's exhaustive search over the attacker's forces and the defender's blocks.

Source: J. W. McDaniel (1975), seed ``003_281b7b4dfe1e32ad.txt`` L662-707
(Figs. 25-27). WHIZ keeps a dynamic TABLE of forces for every level (TKNT
forces per level, TPONT pointing at each level's first entry) and GAME, the
moves pending. At each level it tries the forces in turn, playing each with
the defender's block and going up a level; when a level is used up it
"backs up a level"; it wins when "X has three markers in a row and it is
his turn to play"; "if the level backs up to zero, no solution exists".

Filled in where the seed is silent (documented in docs/players.md):

- *Order*: a level's forces are all vacant cells of the attacker's 2-0 files
  (the level below's leftovers plus the new ones); the first pass takes the
  "cells that contain possible traps for X" — planar primes of a plane where
  the attacker holds three or more planar primes and more cells than the
  defender — the second pass the others; each pass in descending cell
  order. This reproduces Fig. 27 exactly.
- *Counter-threats*: when a block makes a three in a row for the defender,
  the attacker's only force is the cell that blocks it (docs/design.md §3 step 2).
- *Speed*: positions already searched without success are remembered, and the
  search stops at a time limit. Neither changes what is found in time.

>>> from qubic_logic.notation import parse_position
>>> p = parse_position('1-2,22-4,27-3')
>>> search = Whiz(p.x, p.o)
>>> [c + 1 for c in search.level_table()]        # Fig. 26: X can force at 43, 64, 17 or 32
[64, 43, 32, 17]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core import core_module
from ..geometry import PLANE_MASKS, cells_of
from ..planes import PLANAR_PRIMES, new_threats

_CORE = core_module()  # native threat scans when built, else the pure-Python bitboard
forcing_moves, threat_cells = _CORE.forcing_moves, _CORE.threat_cells


def trap_cells(a: int, d: int) -> int:
    """Vacant planar primes of the planes where ``a`` holds three or more planar primes and the excess.

    >>> from qubic_logic.notation import parse_position
    >>> p = parse_position('1-2,22-4,27-3')
    >>> [c + 1 for c in cells_of(trap_cells(p.x, p.o))]      # plane 17's free primes
    [16, 38, 43, 49, 64]
    """
    out = 0
    for plane, pm in enumerate(PLANE_MASKS):
        if (a & PLANAR_PRIMES[plane]).bit_count() >= 3 and (a & pm).bit_count() > (d & pm).bit_count():
            out |= PLANAR_PRIMES[plane]
    return out & ~(a | d)


@dataclass
class Tables:
    """WHIZ's arrays as in Fig. 27: 1-based pointers, cells 1..64 (McDaniel's numbering)."""

    tknt: list[int] = field(default_factory=list)
    tpont: list[int] = field(default_factory=list)
    table: list[int] = field(default_factory=list)
    game: list[int] = field(default_factory=list)


class _OutOfTime(Exception):
    pass


class Whiz:
    """One WHIZ search for ``a`` (to move) against ``d``.

    ``time_limit`` (seconds, None = none) bounds the search; ``watch`` is
    called with the :class:`Tables` after every force is played (the IBM 1130
    console switches 14 and 15 printed them).
    """

    def __init__(
        self,
        a: int,
        d: int,
        time_limit: float | None = None,
        watch: Callable[[Tables], None] | None = None,
    ) -> None:
        self.a, self.d = a, d
        self.deadline = time.monotonic() + time_limit if time_limit else None
        self.watch = watch
        self.tables = Tables()
        self.timed_out = False
        self.nodes = 0
        self._failed: set[tuple[int, int]] = set()

    def level_table(self, a: int | None = None, d: int | None = None) -> list[int]:
        """The forces of one level in WHIZ's order (traps first, then the rest; descending)."""
        a = self.a if a is None else a
        d = self.d if d is None else d
        forces = forcing_moves(a, d)
        theirs = threat_cells(d, a)
        if theirs:
            forces &= theirs
        traps = trap_cells(a, d)
        return sorted(cells_of(forces), key=lambda c: (not traps >> c & 1, -c))

    def solve(self) -> tuple[int, ...] | None:
        """A winning sequence (force, block, ..., winning cell), or None (none, or out of time)."""
        try:
            found = self._level(self.a, self.d)
        except _OutOfTime:
            self.timed_out = True
            return None
        return tuple(found) if found is not None else None

    def _level(self, a: int, d: int) -> list[int] | None:
        self.nodes += 1
        if self.deadline is not None and self.nodes & 255 == 0 and time.monotonic() > self.deadline:
            raise _OutOfTime
        mine = threat_cells(a, d)
        if mine:
            return [(mine & -mine).bit_length() - 1]
        theirs = threat_cells(d, a)
        if theirs & (theirs - 1) or (a, d) in self._failed:
            return None
        t = self.tables
        table = self.level_table(a, d)
        t.tknt.append(len(table))
        t.tpont.append(len(t.table) + 1)
        t.table.extend(c + 1 for c in table)
        for force in table:
            a2 = a | 1 << force
            threats = new_threats(a2, d, force)
            if not threats:
                continue
            block = (threats & -threats).bit_length() - 1
            t.game += [force + 1, block + 1]
            if self.watch is not None:
                self.watch(t)
            if threats & (threats - 1):
                rest: list[int] | None = [cells_of(threats & ~(1 << block))[0]]
            else:
                rest = self._level(a2, d | 1 << block)
            if rest is not None:
                return [force, block, *rest]
            del t.game[-2:]
        del t.table[t.tpont.pop() - 1 :]
        t.tknt.pop()
        self._failed.add((a, d))
        return None


def whiz(a: int, d: int, time_limit: float | None = None) -> tuple[int, ...] | None:
    """WHIZ's solution for ``a`` to move, or None.

    >>> from qubic_logic.notation import parse_position
    >>> p = parse_position('1-2,22-4,27-16')       # "ML64 reports no solution" (L625)
    >>> whiz(p.x, p.o) is None
    True
    """
    return Whiz(a, d, time_limit).solve()


__all__ = ["Tables", "Whiz", "trap_cells", "whiz"]
