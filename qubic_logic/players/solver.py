"""``solver``: the strongest player the project fields.

In order (each step explained in the move's explanation):

1. complete a 3-0 line;
2. a forced win by threat sequence for the side to move
   (:func:`qubic_logic.core.shortest_forced_win`, DESIGN.md §3; it obeys the
   counter-threat rule, so it blocks first when it must) — play its first move;
3. block the opponent's 3-0 line;
4. as X, Patashnik's strategic move when the position is in his dictionary
   (a perfect first-player strategy, seed-free: shared/data/README.md);
5. otherwise the first move, in the order of the McCarthy αβ player
   (``players/mccarthy.py``: its chosen move, then the seed's ordering), after
   which the opponent has **no** forced win by threat sequence — checked with
   the same search, this time for the opponent.

Searches run with no length bound and a per-search ``time_limit`` (seconds);
a search that runs out of time counts as "no forced win found".

>>> from qubic_logic.position import Game
>>> SolverPlayer().choose(Game([0, 16, 1, 17, 2, 18])).explanation
'wins: completes a 3-0 line at 3'
"""

from __future__ import annotations

from ..core import core_module, shortest_forced_win, threats
from ..errors import QueryTimeout
from ..geometry import cells_of
from ..position import Game, Position, other
from .base import Move, register
from .mccarthy import McCarthyPlayer, ordered_moves


def forced_win_moves(position: Position, time_limit: float) -> tuple[int, ...] | None:
    """The side to move's shortest forced-win sequence, or None (none, or time ran out)."""
    try:
        win = shortest_forced_win(position, time_limit=time_limit)
    except QueryTimeout:
        return None
    return win.sequence if win.found else None


def opponent_wins_by_force(position: Position, time_limit: float) -> bool:
    """Would the side *not* to move have a forced win if it were its turn?

    >>> opponent_wins_by_force(Position.from_cells([0, 16, 1, 17]), 1.0)   # O: 16, 17 + more
    False
    """
    me = position.to_move
    length, *_ = core_module().forced_win(position.mask(other(me)), position.mask(me), 0, time_limit, 0)
    return length > 0


def safe_move(position: Position, preferred: list[int], time_limit: float) -> int | None:
    """The first cell of ``preferred`` after which the opponent has no forced win, or None."""
    for cell in preferred:
        after = position.play(cell)
        if after.winner:
            return cell
        if forced_win_moves(after, time_limit) is None:
            return cell
    return None


def patashnik_move(position: Position) -> int | None:
    """Patashnik's dictionary move for X in ``position`` (None for O or off the dictionary)."""
    if position.to_move != "x":
        return None
    from ..strategy import patashnik_dictionary

    return patashnik_dictionary().move_for(position)


@register("solver", "forced-win search for both sides, Patashnik's dictionary as X, alpha-beta")
class SolverPlayer:
    """See the module docstring; ``time_limit`` bounds each forced-win search (default 2 s)."""

    name = "solver"

    def __init__(self, time_limit: float = 2.0, depth: int = 2) -> None:
        self.time_limit = time_limit
        self.fallback = McCarthyPlayer(depth)

    def choose(self, game: Game) -> Move:
        p = game.position
        me = p.to_move
        t = threats(p)
        if t.of(me):
            cell = cells_of(t.of(me))[0]
            return Move(cell, f"wins: completes a 3-0 line at {cell}")
        seq = forced_win_moves(p, self.time_limit)
        if seq:
            n = (len(seq) + 1) // 2
            return Move(seq[0], f"starts a terminal forcing sequence: wins in {n} moves "
                                f"({' '.join(map(str, seq))})")
        if t.of(other(me)):
            cell = cells_of(t.of(other(me)))[0]
            return Move(cell, f"blocks a 0-3 line at {cell}")
        cell = patashnik_move(p)
        if cell is not None:
            return Move(cell, "Patashnik's dictionary move")
        choice = self.fallback.choose(game)
        order = [choice.cell] + [c for c in ordered_moves(p)[0] if c != choice.cell]
        cell = safe_move(p, order, self.time_limit)
        if cell is None:
            return Move(choice.cell, f"every move leaves a forced win; {choice.explanation}")
        if cell == choice.cell:
            return Move(cell, f"{choice.explanation}; leaves no forced win")
        return Move(cell, f"avoids the opponent's forced win after {choice.cell}")
