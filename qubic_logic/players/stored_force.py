"""A forcing sequence a player has found and keeps playing while the opponent blocks as planned.

Citrenbaum's UNIVAC 1107 program saved its terminal forcing sequence "so
that the next move in the sequence will be readily available" (seed 000
L2011-2030, "CONTINUATION OF FORCE SEQUENCE" L5478); McDaniel's program
played a solution found by WHIZ "accordingly" (seed 003 L715).

Every move of a stored force explains itself with what is left of the
sequence and how many own moves remain, counted down move by move.

>>> memory = StoredForce()
>>> memory.store([0, 1], (5, 6, 9, 10, 13), "plane 1")
>>> memory.next([0, 1, 5, 6])
(9, 'plane 1')
>>> memory.next([0, 1, 5, 7]) is None       # the opponent did not block as planned
True
>>> from qubic_logic.position import Game
>>> memory.continuation(Game([0, 1, 5, 6])).explain("number")
'continues plane 1: 10-11,14 (a win in 2 moves)'
"""

from __future__ import annotations

from ..position import Game
from .base import Move


def moves_to_win(sequence: tuple[int, ...] | list[int]) -> int:
    """Own moves in a line that alternates own move and reply and ends with the winning move.

    >>> moves_to_win((42, 63, 10, 58, 5))
    3
    """
    return (len(sequence) + 1) // 2


def sequence_move(template: str, sequence: tuple[int, ...] | list[int]) -> Move:
    """The first move of ``sequence``, explained by ``template`` (``{line}``, ``{moves}``), the line cited.

    >>> m = sequence_move("starts a force: {line}, a win in {moves}", (5, 6, 9))
    >>> m.explain("number"), m.explain("index")
    ('starts a force: 6-7,10, a win in 2 moves', 'starts a force: 5 6 9, a win in 2 moves')
    """
    moves = moves_to_win(sequence)
    text = template.format(line="{0}", moves=f"{moves} move{'s' * (moves != 1)}")
    return Move.citing(sequence[0], text, tuple(sequence))


class StoredForce:
    """Maps each game history the plan expects to the rest of the plan."""

    def __init__(self) -> None:
        self._next: dict[tuple[int, ...], tuple[tuple[int, ...], str]] = {}

    def store(self, history: list[int], sequence: tuple[int, ...], label: str) -> None:
        """Remember ``sequence`` (own move, reply, own move, ...) started after ``history``."""
        self._next = {}
        line = list(history)
        for i in range(0, len(sequence) - 2, 2):
            line += sequence[i : i + 2]
            self._next[tuple(line)] = (tuple(sequence[i + 2 :]), label)

    def next(self, history: list[int]) -> tuple[int, str] | None:
        """The planned move after ``history`` and the plan's label, or None off the plan."""
        planned = self._next.get(tuple(history))
        return None if planned is None else (planned[0][0], planned[1])

    def continuation(self, game: Game) -> Move | None:
        """The planned move in ``game``, explained with the rest of the plan; None off the plan
        or if its cell is taken."""
        planned = self._next.get(tuple(game.moves))
        if planned is None or game.position.at(planned[0][0]) != ".":
            return None
        rest, label = planned
        label = label.replace("{", "{{").replace("}", "}}")
        return sequence_move(f"continues {label}: {{line}} (a win in {{moves}})", rest)
