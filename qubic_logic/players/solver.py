"""``solver``: the strongest player the project fields.

In order (each step explained in the move's explanation):

1. complete a 3-0 line;
   with ``book=FILE`` (an opening book, :mod:`qubic_logic.book`), its proven
   winning move, or as the losing side the reply that holds out longest;
2. a forced win by threat sequence for the side to move
   (:func:`qubic_logic.core.shortest_forced_win`, docs/design.md §3; it obeys the
   counter-threat rule, so it blocks first when it must) — play its first move;
3. block the opponent's 3-0 line;
4. as X, Patashnik's strategic move when the position is in his dictionary
   (a perfect first-player strategy, seed-free: qubic_logic/data/README.md);
5. a quiet move after which the side to move threatens a forced win that no
   answer stops (two moves deep, :func:`refutation`);
6. a win proven by the proof-number search of :mod:`qubic_logic.proof.solve`
   within ``solve_time`` seconds (quiet moves allowed, every reply considered);
7. otherwise the first move, in the order of the McCarthy αβ player
   (``players/mccarthy.py``: its chosen move, then the seed's ordering), after
   which the opponent has **no** forced win by threat sequence — checked with
   the same search, this time for the opponent — and no *quiet* reply of the
   opponent that threatens a forced win no answer can stop (a two-move-deep
   check, :func:`refutation`). When the opponent has no forced win even if it
   moved now, no move of ours can give it one (our mark only blocks its lines
   or forces its replies), so the first check is skipped.

Searches run with no length bound and a per-search ``time_limit`` (seconds);
a search that runs out of time counts as "no forced win found". Step 5 stops
after ``budget / 2`` seconds, step 7 after ``budget`` seconds with the first
move that passed its first check.

>>> from qubic_logic.position import Game
>>> SolverPlayer().choose(Game([0, 16, 1, 17, 2, 18])).explanation
'wins: completes a 3-0 line at 3'
"""

from __future__ import annotations

import time

from ..book.store import OpeningBook
from ..core import core_module, shortest_forced_win
from ..errors import QueryTimeout
from ..position import Game, Position, other
from ..strategy import patashnik_dictionary
from ..proof.solve import best_move
from .base import Move, blocking_move, register, winning_move
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

    >>> opponent_wins_by_force(Position.from_cells([0, 16, 1, 17]), 1.0)   # O has 16, 17 only
    False
    >>> opponent_wins_by_force(Position.from_cells([0, 16, 21, 17, 42, 18]), 1.0)  # O's 16-18 threat
    True
    """
    me = position.to_move
    length, *_ = core_module().forced_win(position.mask(other(me)), position.mask(me), 0, time_limit, 0)
    return length > 0


def safe_move(position: Position, preferred: list[int], time_limit: float, deadline: float) -> int | None:
    """The first cell of ``preferred`` after which the opponent has no forced win, or None.

    Gives up (None) once ``time.monotonic()`` passes ``deadline``.
    """
    for cell in preferred:
        after = position.play(cell)
        if after.winner or forced_win_moves(after, time_limit) is None:
            return cell
        if time.monotonic() > deadline:
            break
    return None


def refutation(position: Position, time_limit: float, deadline: float) -> int | None:
    """A quiet move of the side to move after which it wins by force whatever the other side does.

    For each move: does the mover then threaten a forced win (as if it moved
    again), and does every answer leave it one, with no forced win of the
    answering side's own? Raises :class:`TimeoutError` past ``deadline``.
    """
    for r in position.legal_moves():
        after = position.play(r)
        if after.winner:
            return r
        if not opponent_wins_by_force(after, time_limit) or forced_win_moves(after, time_limit):
            continue
        if safe_move(after, after.legal_moves(), time_limit, deadline) is None:
            if time.monotonic() > deadline:
                raise TimeoutError
            return r
        if time.monotonic() > deadline:
            raise TimeoutError
    return None


def patashnik_move(position: Position) -> int | None:
    """Patashnik's dictionary move for X in ``position`` (None for O or off the dictionary)."""
    if position.to_move != "x":
        return None
    return patashnik_dictionary().move_for(position)


@register("solver", "forced-win search for both sides, Patashnik's dictionary as X, alpha-beta")
class SolverPlayer:
    """See the module docstring; ``time_limit`` bounds each forced-win search, ``budget`` steps 5 and 7."""

    name = "solver"

    def __init__(self, time_limit: float = 1.0, budget: float = 5.0, solve_time: float = 0.2,
                 depth: int = 2, book: str | None = None) -> None:
        self.book = OpeningBook.open(book) if book else None
        self.time_limit = time_limit
        self.budget = budget
        self.solve_time = solve_time
        self.fallback = McCarthyPlayer(depth)

    def choose(self, game: Game) -> Move:
        p = game.position
        win = winning_move(p)
        if win:
            return win
        known = self.book.lookup(p) if self.book is not None else None
        if known is not None and known.value in ("win", "loss") and known.move is not None:
            e = known.entry
            what = "wins" if e.value == "win" else "loses whatever it does; the longest defence"
            return Move(known.move, f"opening book: {what} ({e.proof_size:,} strategic positions)")
        seq = forced_win_moves(p, self.time_limit)
        if seq:
            n = (len(seq) + 1) // 2
            return Move.citing(seq[0], f"starts a terminal forcing sequence: wins in {n} move{'s' * (n != 1)} "
                                       "({0})", tuple(seq))
        block = blocking_move(p)
        if block:
            return block
        cell = patashnik_move(p)
        if cell is not None:
            return Move(cell, "Patashnik's dictionary move")
        deadline = time.monotonic() + self.budget / 2
        try:
            cell = refutation(p, self.time_limit, deadline)
        except TimeoutError:
            cell = None
        if cell is not None:
            return Move(cell, "quiet move: sets up a forced win that no answer stops")
        if self.solve_time > 0:
            solved = best_move(p, time_limit=self.solve_time)
            if solved.status == "won" and solved.move is not None:
                return Move(solved.move, f"wins by force (proof-number search, {solved.nodes} nodes)")
        choice = self.fallback.choose(game)
        return self.defend(p, choice)

    def defend(self, p: Position, choice: Move) -> Move:
        """The first move of the αβ order that is safe two ways (see the module docstring)."""
        order = [choice.cell] + [c for c in ordered_moves(p)[0] if c != choice.cell]
        deadline = time.monotonic() + self.budget
        check_now = opponent_wins_by_force(p, self.time_limit)
        first_safe, reason = None, "every move allows a quiet reply that forces a win"
        try:
            for cell in order:
                after = p.play(cell)
                if check_now and forced_win_moves(after, self.time_limit):
                    continue
                first_safe = cell if first_safe is None else first_safe
                if refutation(after, self.time_limit, deadline) is None:
                    if cell == choice.cell:
                        return choice.within("{why}; leaves no forced win, and no quiet reply makes one")
                    return Move.citing(cell, "instead of {0}; leaves no forced win, and no quiet reply makes one",
                                       choice.cell)
        except TimeoutError:
            reason = f"no move found safe against quiet replies within {self.budget:g} s"
        if first_safe is None:
            return choice.within("every move leaves a forced win; {why}")
        return Move(first_safe, f"leaves no forced win ({reason})")
