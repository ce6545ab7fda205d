"""Wins proven elsewhere, handed to a df-pn search so that it stops where an earlier proof already goes.

Every strategic move of a verified proof says: the attacker to move here wins
by this move, and the proof shows how on. A search that meets such a
position (up to symmetry) takes it as proven at once, and the strategy it
extracts plays the known move there and carries that proof below (so it stays
one self-contained proof that the verifier checks). Two searches of positions
that transpose into each other then share their proven parts, as one search's
table would: the jobs of a two-level search (:mod:`qubic_logic.book.twolevel`),
or alternative moves proven beside a strategy.

The native df-pn takes them packed, 17 bytes a move (the canonical attacker and
defender masks as little-endian 64-bit integers, then the move in that frame),
as its own extracted proofs give them.

>>> from qubic_logic.proof.solve import solve
>>> from qubic_logic.notation import parse_position
>>> p = parse_position('patashnik:x2x16o4o')
>>> first = solve(p)
>>> wins = KnownWins()
>>> wins.add(first.strategy) == len(first.strategy), len(wins.packed()) == 17 * len(wins)
(True, True)
>>> again = solve(p, known=wins.packed())      # proven at once, and the same proof extracted
>>> again.status, again.nodes, len(again.strategy) == len(first.strategy)
('won', 1, True)
"""

from __future__ import annotations

import struct
from typing import Iterable

from ..position import other
from ..strategy.dictionary import Entry
from ..symmetry import TRANSFORMS, canonical_masks

_PACK = struct.Struct("<QQB")


class KnownWins:
    """Proven attacker's positions (canonical masks) and their winning moves, packed for the native df-pn."""

    def __init__(self) -> None:
        self._moves: dict[tuple[int, int], int] = {}
        self._packed: bytes | None = b""

    def add(self, strategy: Iterable[Entry]) -> int:
        """Take every strategic move of a verified proof (its attacker is the side to move at each entry);
        returns how many were new."""
        before = len(self._moves)
        for entry in strategy:
            position = entry.position
            mover = position.to_move
            a, d = position.mask(mover), position.mask(other(mover))
            ca, cd, t = canonical_masks(a, d)
            self._moves.setdefault((ca, cd), TRANSFORMS[t][entry.move])
        if len(self._moves) != before:
            self._packed = None
        return len(self._moves) - before

    def packed(self) -> bytes:
        """Every known win, 17 bytes each (see the module docstring)."""
        if self._packed is None:
            self._packed = b"".join(_PACK.pack(a, d, move) for (a, d), move in self._moves.items())
        return self._packed

    def __len__(self) -> int:
        return len(self._moves)
