"""``greedy``: win, else block, else the cell on the most lines still open to it.

A one-ply baseline, not taken from a seed: it completes its own 3-0 line,
blocks the opponent's, and otherwise plays the empty cell lying on the most
lines that hold no opponent mark (ties: the lowest cell, or a seeded random
choice among them).

>>> from qubic_logic.position import Game
>>> greedy = GreedyPlayer()
>>> greedy.choose(Game([0, 16, 1, 17, 2])).explanation
'blocks a 0-3 line at 3'
>>> greedy.choose(Game([])).cell   # a corner of the cube: 7 open lines
0
"""

from __future__ import annotations

import random as _random

from ..geometry import LINE_MASKS, LINES_THROUGH
from ..position import Game, other
from .base import Move, blocking_move, register, winning_move


def open_lines(cell: int, opponent_mask: int) -> int:
    """Number of lines through ``cell`` that hold no opponent mark.

    >>> open_lines(0, 0), open_lines(21, 0), open_lines(1, 0)
    (7, 7, 4)
    """
    return sum(1 for i in LINES_THROUGH[cell] if not LINE_MASKS[i] & opponent_mask)


@register("greedy", "win, block, else the cell on the most open lines (baseline)")
class GreedyPlayer:
    """Win, block, else most open lines; ``seed`` breaks ties at random (default: lowest cell)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = _random.Random(seed) if seed is not None else None

    def choose(self, game: Game) -> Move:
        p = game.position
        forced = winning_move(p) or blocking_move(p)
        if forced:
            return forced
        opp = p.mask(other(p.to_move))
        scores = {c: open_lines(c, opp) for c in p.legal_moves()}
        best = max(scores.values())
        ties = [c for c, s in scores.items() if s == best]
        cell = self._rng.choice(ties) if self._rng else ties[0]
        return Move(cell, f"lies on {best} open lines")
