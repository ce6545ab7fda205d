"""``mccarthy``: depth-limited αβ over Qubic with McCarthy's generic search layer (seed 002).

The search itself is :func:`qubic_logic.search.linemax` / ``linemin``
(seed §4, L547–569), unchanged; this module only supplies Qubic's
problem-dependent functions, as seed §6 does for tic-tac-toe:

* ``successors`` — the seed's move ordering (L799–807): a win is returned
  alone, else the answer to the opponent's threat alone, else a double
  threat alone, else every move with the threats (forcing moves) first.
  Within a group cells are ordered by the number of lines still open to
  the mover (a static ordering; the seed's order came from its hidden board).
* ``ter`` — the game is over, the search is ``depth`` moves deep, or, with the
  seed's window tests (L853-866), not even the quickest win still open can
  leave the window (alpha, beta).
* ``imval`` — to X (max): a win is worth ``1000 - level``; a position where
  the side to move has a threat cell counts as that win one move later (it is
  not "reasonably static", L17); otherwise the sum over lines of 1, 4, 16
  for one, two, three marks of a side with the line still open to it.
* ``rectify`` is the identity (positions are immutable); ``ext`` is the move.

>>> from qubic_logic.position import Game
>>> m = McCarthyPlayer().choose(Game([0, 16, 1, 17, 2]))
>>> m.cell, m.explanation.split(':')[0]
(3, 'blocks a 0-3 line at 3')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import threats
from ..errors import QubicError
from ..geometry import LINE_MASKS, LINES_THROUGH, cells_of
from ..position import Game, Position, other
from ..search import INFINITY, linemax, linemin, qa, qd, to_list
from .base import Move, register

WIN = 1000
LINE_WEIGHTS = (0, 1, 4, 16, 0)


@dataclass(frozen=True, slots=True)
class Node:
    """A position in the search, the move that led to it, and its depth below the root."""

    position: Position
    move: int | None
    level: int


def static_value(p: Position, level: int) -> int:
    """``imval``: the value of ``p`` to X, ``level`` moves below the root.

    >>> static_value(Position.from_cells([0, 16, 1, 17, 2, 18, 3]), 0)
    1000
    """
    if p.winner:
        return WIN - level if p.winner == "x" else -(WIN - level)
    t = threats(p)
    if t.of(p.to_move):  # the side to move completes four next move
        v = WIN - level - 1
        return v if p.to_move == "x" else -v
    total = 0
    for lm in LINE_MASKS:
        nx, no = (p.x & lm).bit_count(), (p.o & lm).bit_count()
        if not no:
            total += LINE_WEIGHTS[nx]
        elif not nx:
            total -= LINE_WEIGHTS[no]
    return total


class QubicSearch:
    """Qubic's ``successors``/``ter``/``imval``/``ext``/``rectify`` for :mod:`qubic_logic.search`."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def ter(self, n: Node, alpha: float, beta: float) -> bool:
        """The seed's ``ter`` (L853-866): over, ``depth`` deep, or outside the window.

        As ``11 - level < alpha`` and ``-11 + level > beta`` in the seed's tic-tac-toe, a
        node is terminal when not even the quickest win still open (X's or O's next move,
        worth ``WIN - level - 1``) could move the value past ``alpha`` or ``beta``.
        """
        best = WIN - n.level - 1
        return n.position.is_over or n.level >= self.depth or best < alpha or -best > beta

    def imval(self, n: Node) -> int:
        return static_value(n.position, n.level)

    @staticmethod
    def ext(n: Node) -> int | None:
        return n.move

    @staticmethod
    def rectify(n: Node) -> Node:
        return n

    def successors(self, n: Node) -> list[Node]:
        return [Node(n.position.play(c), c, n.level + 1) for c in ordered_moves(n.position)[0]]


def ordered_moves(p: Position) -> tuple[list[int], str]:
    """The seed's ordering of the moves in ``p`` and the rule that decided it.

    >>> ordered_moves(Position.from_cells([0, 16, 1, 17, 2]))
    ([3], 'blocks a 0-3 line')
    """
    me = p.to_move
    opp = p.mask(other(me))
    t = threats(p)
    if t.of(me):
        return [cells_of(t.of(me))[0]], "wins: completes a 3-0 line"
    if t.of(other(me)):
        return [cells_of(t.of(other(me)))[0]], "blocks a 0-3 line"
    majors = t.major_x if me == "x" else t.major_o
    if majors:
        return [cells_of(majors)[0]], "makes a double threat"
    forcing = t.forcing_x if me == "x" else t.forcing_o

    def openness(c: int) -> int:
        return -sum(1 for i in LINES_THROUGH[c] if not LINE_MASKS[i] & opp)

    empty = p.legal_moves()
    first = sorted((c for c in empty if forcing >> c & 1), key=openness)
    rest = sorted((c for c in empty if not forcing >> c & 1), key=openness)
    return first + rest, "threats first"


@register("mccarthy", "depth-limited alpha-beta with McCarthy's LISP search layer (seed 002)")
class McCarthyPlayer:
    """αβ ``linemax``/``linemin`` to ``depth`` moves (default 2) with the seed's move ordering."""

    name = "mccarthy"

    MAX_DEPTH = 6  # deeper searches take minutes per move

    def __init__(self, depth: int = 2) -> None:
        if not 1 <= depth <= self.MAX_DEPTH:
            raise QubicError(f"player option depth={depth} of mccarthy: expected a whole number "
                             f"from 1 to {self.MAX_DEPTH}")
        self.search = QubicSearch(depth)

    def choose(self, game: Game) -> Move:
        p = game.position
        moves, rule = ordered_moves(p)
        if len(moves) == 1:
            return Move.citing(moves[0], f"{rule} at {{0}}: the only successor", moves[0])
        root = Node(p, None, 0)
        search = linemax if p.to_move == "x" else linemin
        result = search(self.search, root, -INFINITY, INFINITY)
        value, line = qa(result), to_list(qd(result))
        return Move.citing(line[0], f"alpha-beta to depth {self.search.depth}: value {value} to X, line {{0}}",
                           tuple(line))
