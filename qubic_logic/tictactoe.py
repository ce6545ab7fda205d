"""McCarthy's 3×3 tic-tac-toe for the generic search layer (seed 002 §6, L764–981).

A faithful transcription of the seed's LISP: squares 1..9 row by row (the
seed prints them in octal, so 8 and 9 appear as ``10`` and ``11``), lines
numbered horizontals, verticals, diagonals; a position is its list of moves,
most recent first, and a *hidden board* (``p1``, ``xs``, ``os``, ``bs``,
``xcount``, ``ocount``, ``w``, ``level``) is moved to it by ``rectify``
(§5, L699–761). ``revert`` puts a square back at the **front** of ``bs``, so
the order of successors depends on the search's history, as in the seed.

Values: an X win is worth ``10 - level``, an O win ``level - 10``, anything
else 0 (L789–791, ``imval`` L870–881). ``successors`` returns a win alone, else
a forced answer alone, else a double threat alone, else threats first
(L799–807, ``sort``/``sorta``/``sortb``/``sortc``).

>>> from qubic_logic.search import linemax, lisp_repr
>>> t = TicTacToe([2, 1])              # X took 2, then O took 1: board (O X _)
>>> octal_repr(linemax(t, t.p1, -1000, 1000))
'(0 5 10 6 4 7 3 11)'
"""

from __future__ import annotations

from typing import Any

from .search import lisp_repr

#: ``lines[i]``: the lines through square i (``commence``, L818–831).
LINES_OF: dict[int, tuple[int, ...]] = {
    1: (1, 4, 7), 2: (1, 5), 3: (1, 6, 8), 4: (2, 4), 5: (2, 5, 7, 8),
    6: (2, 6), 7: (3, 4, 8), 8: (3, 5), 9: (3, 6, 7),
}

Pos = tuple[int, ...]  # moves, most recent first

#: The seed's worked examples (L984-1043): the moves before (X first, in play order), and the
#: printed ``lmax[p1, -1000, 1000]`` and ``tmax[p1, -1000, 1000]``, transcribed.
PRINTED_EXAMPLES: dict[str, dict] = {
    "Example 1, board (O X _) (L999-1020)": {
        "moves": [2, 1],
        "line": "(0 5 10 6 4 7 3 11)",
        "tree": "(0 (5 (10 6 (4 7 (3 11 0)))) ((3 7 (4 11 (5 10 -2))) (4 5 (11 7 (3 6 (10 0)))) "
                "(6 5 (11 3 (7 10 (4 0)))) (7 5 (11 10 (4 6 (3 0)) (3 6 (4 0)) (6 3 (4 0)))) "
                "(11 7 (4 5 (3 6 (10 0)))) (5 10 (11 4 (7 3 (6 0))) (7 3 (11 6 (4 0)) (4 6 (11 0)) "
                "(6 4 (11 0))) (3 7 (4 11 -2)) (4 6 (11 3 (7 0)) (7 3 (11 0)) (3 7 (11 0))) "
                "(6 4 (7 3 (11 0)))) (10 5 (11 7 (3 4 -2)))))",
    },
    "Example 2, board (O _ X) (L1025-1042)": {
        "moves": [3, 1],
        "line": "(3 11 6 7 5 10)",
        "tree": "(3 (11 (6 7 (5 10 3))) ((2 7 (4 11 (5 0))) (4 5 (11 6 (2 0) (10 0) (7 0))) "
                "(10 11 (5 7 (2 3))) (5 7 (4 6 (11 0) (10 0) (2 0))) (6 11 (5 7 (4 3))) "
                "(7 5 (11 6 (10 3))) (11 6 (7 5 (10 3)))))",
    },
}


def octal(n: int) -> str:
    """A number as the seed's LISP printed it (base 8).

    >>> octal(9), octal(-2)
    ('11', '-2')
    """
    return ("-" if n < 0 else "") + format(abs(n), "o")


def octal_repr(obj: Any) -> str:
    """LISP data with numbers in octal, as printed in the seed's examples."""
    return lisp_repr(obj, octal)


class TicTacToe:
    """The seed's global state and its functions ``ter``, ``imval``, ``successors``, ``rectify``.

    ``TicTacToe(moves)`` runs ``newgame`` and plays ``moves`` (oldest first);
    ``p1`` is then the current position (most recent move first).
    """

    def __init__(self, moves: list[int] = ()) -> None:
        self.newgame()
        for m in moves:
            self.update(m)

    def newgame(self) -> None:
        """``newgame[]`` (L837–851)."""
        self.xcount = [0] * 9
        self.ocount = [0] * 9
        self.p1: Pos = ()
        self.xs: list[int] = []
        self.os: list[int] = []
        self.bs: list[int] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        self.w = False  # qT: O to move
        self.level = 0
        self.count = 0

    # -- the hidden board (L887-919) ------------------------------------------

    def update(self, m: int) -> None:
        """Make move ``m`` for the side to move."""
        self.level += 1
        if self.w:
            self.os.insert(0, m)
        else:
            self.xs.insert(0, m)
        self.bs.remove(m)
        self.p1 = (m,) + self.p1
        self.count += 1
        counts = self.ocount if self.w else self.xcount
        for line in LINES_OF[m]:
            counts[line] += 1
        self.w = not self.w

    def revert(self) -> None:
        """Take back the last move; its square goes to the front of ``bs``."""
        self.level -= 1
        movers = self.xs if self.w else self.os
        self.bs.insert(0, movers.pop(0))
        counts = self.xcount if self.w else self.ocount
        for line in LINES_OF[self.p1[0]]:
            counts[line] -= 1
        self.w = not self.w
        self.p1 = self.p1[1:]

    def rectify(self, p: Pos) -> Pos:
        """Make ``p`` the current position (revert to the common tail, then update)."""
        common = 0
        for a, b in zip(reversed(p), reversed(self.p1)):
            if a != b:
                break
            common += 1
        while len(self.p1) > common:
            self.revert()
        for m in reversed(p[: len(p) - common]):
            self.update(m)
        return p

    # -- the game's functions --------------------------------------------------

    @staticmethod
    def ext(p: Pos) -> int:
        """``ext p ← qa p``."""
        return p[0]

    def _some_three(self) -> bool:
        counts = self.xcount if self.w else self.ocount  # the side that just moved
        return any(counts[n] == 3 for n in range(1, 9))

    def ter(self, p: Pos, alpha: float, beta: float) -> bool:
        """Terminal: full board, cannot beat the window, or the last mover has three (L853–866)."""
        return bool(p) and (self.level == 9 or 9 - self.level < alpha or -9 + self.level > beta
                            or self._some_three())

    def imval(self, p: Pos) -> int:
        """``12 - level`` (octal 12 = 10) for an X win, ``level - 10`` for an O win, else 0."""
        if self.w:
            return 10 - self.level if any(self.xcount[n] == 3 for n in range(1, 9)) else 0
        return -10 + self.level if any(self.ocount[n] == 3 for n in range(1, 9)) else 0

    def successors(self, p: Pos) -> list[Pos]:
        """``sort mapcar[λx: x . p, bs]`` (L884–942)."""
        return self._sort([(x,) + p for x in self.bs])

    # -- sort and its predicates (read the board at the parent) ---------------

    def _mine(self, line: int) -> int:
        return (self.ocount if self.w else self.xcount)[line]

    def _theirs(self, line: int) -> int:
        return (self.xcount if self.w else self.ocount)[line]

    def _win(self, q: Pos) -> bool:
        return any(self._mine(x) == 2 for x in LINES_OF[q[0]])

    def _answer(self, q: Pos) -> bool:
        return any(self._theirs(x) == 2 for x in LINES_OF[q[0]])

    def _threat_lines(self, q: Pos) -> int:
        others = [b for b in self.bs if b != q[0]]
        return sum(1 for x in LINES_OF[q[0]]
                   if self._mine(x) == 1 and any(x in LINES_OF[b] for b in others))

    def _sort(self, u: list[Pos]) -> list[Pos]:
        th: list[Pos] = []
        rest: list[Pos] = []
        for i, q in enumerate(u):
            if self._win(q):
                return [q]
            if self._answer(q):
                return self._sortb(u[i + 1:], q)
            if self._threat_lines(q) >= 2:  # doubleth
                return self._sortc(u[i + 1:], q)
            if self._threat_lines(q) == 1:  # threat
                th.insert(0, q)
            else:
                rest.insert(0, q)
        return th + rest

    def _sortb(self, u: list[Pos], m: Pos) -> list[Pos]:
        return next(([q] for q in u if self._win(q)), [m])

    def _sortc(self, u: list[Pos], m: Pos) -> list[Pos]:
        for i, q in enumerate(u):
            if self._win(q):
                return [q]
            if self._answer(q):
                return self._sortb(u[i + 1:], q)
        return [m]
