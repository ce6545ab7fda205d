"""A forcing sequence a player has found and keeps playing while the opponent blocks as planned.

Citrenbaum's UNIVAC 1107 program saved its terminal forcing sequence "so
that the next move in the sequence will be readily available" (seed 000
L2011-2030, "CONTINUATION OF FORCE SEQUENCE" L5478); McDaniel's program
played a solution found by WHIZ "accordingly" (seed 003 L715).

>>> memory = StoredForce()
>>> memory.store([0, 1], (5, 6, 9, 10, 13), "plane 1")
>>> memory.next([0, 1, 5, 6])
(9, 'plane 1')
>>> memory.next([0, 1, 5, 7]) is None       # the opponent did not block as planned
True
"""

from __future__ import annotations

from ..position import Game


class StoredForce:
    """Maps each game history the plan expects to the move that continues it."""

    def __init__(self) -> None:
        self._next: dict[tuple[int, ...], tuple[int, str]] = {}

    def store(self, history: list[int], sequence: tuple[int, ...], label: str) -> None:
        """Remember ``sequence`` (own move, reply, own move, ...) started after ``history``."""
        self._next = {}
        line = list(history)
        for i in range(0, len(sequence) - 2, 2):
            line += sequence[i : i + 2]
            self._next[tuple(line)] = (sequence[i + 2], label)

    def next(self, history: list[int]) -> tuple[int, str] | None:
        """The planned move after ``history`` and the plan's label, or None off the plan."""
        return self._next.get(tuple(history))

    def continuation(self, game: Game) -> tuple[int, str] | None:
        """The planned move in ``game`` and the plan's label, or None off the plan or if its cell is taken."""
        planned = self.next(game.moves)
        if planned is not None and game.position.at(planned[0]) == ".":
            return planned
        return None
