"""``patashnik``: Oren Patashnik's perfect first-player strategy (1977/1980; qubic_logic/data/README.md).

Patashnik's dictionary (Ken Thompson's form, 1978) holds 2,929 strategic moves
for X, looked up up to the 192 automorphisms. A first player using it, per
the file's header: (1) wins at once if possible, else (2) blocks the second
player's three-in-a-row, else (3) plays the dictionary move, else (4)
executes a forced win — a forced sequence must exist then, found with
:func:`qubic_logic.core.shortest_forced_win`. As O there is no dictionary:
the player is the ``solver``.

>>> from qubic_logic.position import Game
>>> PatashnikPlayer().choose(Game()).explanation
"Patashnik's dictionary move"
"""

from __future__ import annotations

from ..position import Game
from .base import Move, blocking_move, register, winning_move
from .solver import SolverPlayer, forced_win_moves, patashnik_move


@register("patashnik", "Patashnik's dictionary: win, block, dictionary move, forced sequence (as X)")
class PatashnikPlayer:
    """Perfect as X from the dictionary; as O, the ``solver``."""

    name = "patashnik"

    def __init__(self, time_limit: float = 10.0) -> None:
        self.time_limit = time_limit
        self.solver = SolverPlayer()

    def choose(self, game: Game) -> Move:
        p = game.position
        if p.to_move == "o":
            m = self.solver.choose(game)
            return m.within("(as O, the solver) {why}")
        forced = winning_move(p) or blocking_move(p)
        if forced:
            return forced
        cell = patashnik_move(p)
        if cell is not None:
            return Move(cell, "Patashnik's dictionary move")
        seq = forced_win_moves(p, self.time_limit)
        if seq:
            n = (len(seq) + 1) // 2
            return Move.citing(seq[0], f"executes a forced sequence: wins in {n} move{'s' * (n != 1)} ({{0}})",
                               tuple(seq))
        m = self.solver.choose(game)
        return m.within("off the dictionary and no forced sequence; solver: {why}")
