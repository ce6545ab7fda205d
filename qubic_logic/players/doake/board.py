"""Doake's board: squares 1..64, lines 1..76, the MOVE array and the line sums.

Squares are numbered as in the thesis's Fig 3 (seed 001 L199–222): four
planes of 16, rows of four, so square = cell + 1. A computer counter counts
5, an opponent counter 1, a blank 0, and a line's sum says exactly what is
in it (L266–270).

**Line numbering.** The thesis fixes only line 1 = 1,2,3,4 and line 76 =
4,23,42,61 (L506–508); the data page with ROW is lost (L564). This module
follows the order of the thesis's own count of lines (L237–239): the ten
lines of each horizontal plane 1..4 (rows top to bottom, columns left to
right, then the diagonals 1-6-11-16 and 4-7-10-13), the 16 vertical lines
(by their top square), the 16 "semi-diagonals" of the vertical planes (the
x-z planes of rows 1..4, then the y-z planes of columns 1..4; rising before
falling), and the four true diagonals with 4,23,42,61 last. Within a line
the squares are in ascending order (ROW order). The numbering decides every
first-found tie in SEARCH, SUGOAL and the backtrack analysis: which key
square is reported when a pattern matches twice, which three is blocked
first, and which line is SN.

>>> LINES[1], LINES[76], LINES[41]
((1, 2, 3, 4), (4, 23, 42, 61), (1, 17, 33, 49))
>>> len(THROUGH[1]), len(THROUGH[2])
(7, 4)
"""

from __future__ import annotations

from ...position import Position

COMPUTER, OPPONENT = 5, 1


def _square(x: int, y: int, z: int) -> int:
    return 1 + x + 4 * y + 16 * z


def _lines() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    k = range(4)
    for z in k:  # ten per horizontal plane
        out += [tuple(_square(x, y, z) for x in k) for y in k]
        out += [tuple(_square(x, y, z) for y in k) for x in k]
        out += [tuple(_square(i, i, z) for i in k), tuple(_square(3 - i, i, z) for i in k)]
    out += [tuple(_square(x, y, z) for z in k) for y in k for x in k]  # 16 vertical
    for y in k:  # semi-diagonals in the x-z planes
        out += [tuple(_square(i, y, i) for i in k), tuple(_square(3 - i, y, i) for i in k)]
    for x in k:  # ... and in the y-z planes
        out += [tuple(_square(x, i, i) for i in k), tuple(_square(x, 3 - i, i) for i in k)]
    out += [tuple(_square(i, i, i) for i in k), tuple(_square(i, 3 - i, i) for i in k),
            tuple(_square(3 - i, 3 - i, i) for i in k), tuple(_square(3 - i, i, i) for i in k)]
    return [tuple(sorted(line)) for line in out]


#: ``LINES[j]`` = the squares of line j (1..76) in ROW order; ``LINES[0]`` is unused.
LINES: tuple[tuple[int, ...], ...] = ((),) + tuple(_lines())
#: ``THROUGH[s]`` = the lines through square s, ascending (ROWDY/ROWCNT).
THROUGH: tuple[tuple[int, ...], ...] = ((),) + tuple(
    tuple(j for j in range(1, 77) if s in LINES[j]) for s in range(1, 65))
#: ``LINE_BITS[j]``: bit s set for each square s of line j.
LINE_BITS: tuple[int, ...] = tuple(sum(1 << s for s in line) for line in LINES)
#: START (L526): the 16 strong squares, on 7 lines each.
START: tuple[int, ...] = tuple(s for s in range(1, 65) if len(THROUGH[s]) == 7)
#: SUB (L476): initial square scores, 7 for a strong square, 4 for a weak one.
SUB: tuple[int, ...] = (0,) + tuple(7 if len(THROUGH[s]) == 7 else 4 for s in range(1, 65))


class Board:
    """MOVE(64) and SUM(76) seen from one side: its counters 5, the other's 1.

    >>> b = Board.from_position(Position.from_cells([0, 63, 1]), 'x')
    >>> b.move[1], b.move[64], b.sums[1]
    (5, 1, 10)
    """

    __slots__ = ("move", "sums", "occupied")

    def __init__(self) -> None:
        self.move = [0] * 65
        self.sums = [0] * 77
        self.occupied = 0  # bit s set when square s holds a counter

    @classmethod
    def from_position(cls, position: Position, computer: str) -> "Board":
        """The board with ``computer``'s counters as 5 and the other side's as 1."""
        board = cls()
        own = position.mask(computer)
        other = position.x | position.o
        for cell in range(64):
            if other >> cell & 1:
                board.put(cell + 1, COMPUTER if own >> cell & 1 else OPPONENT)
        return board

    def put(self, square: int, value: int) -> None:
        """Play ``value`` (5 or 1) on a blank square, updating the sums (SEARCH L1745–1749)."""
        self.move[square] = value
        self.occupied |= 1 << square
        sums = self.sums
        for j in THROUGH[square]:
            sums[j] += value

    def clear(self, square: int) -> None:
        """Unplay a square (the callers' loops at L793–799)."""
        value = self.move[square]
        self.move[square] = 0
        self.occupied &= ~(1 << square)
        sums = self.sums
        for j in THROUGH[square]:
            sums[j] -= value

    def copy(self) -> "Board":
        """An independent copy."""
        other = Board()
        other.move, other.sums, other.occupied = list(self.move), list(self.sums), self.occupied
        return other

    def blanks(self) -> list[int]:
        """The blank squares, 1..64 in order."""
        return [s for s in range(1, 65) if not self.move[s]]
