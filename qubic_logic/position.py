"""An immutable Qubic position over two 64-bit masks, and a game with history.

The side to move follows from the counts: X moves first, so X is to move
when both sides have the same number of marks and O when X has one more.

>>> p = Position().play(0).play(21)
>>> p.to_move, p.count
('x', 2)
>>> Position.from_cells([0, 21, 1, 22, 2, 23, 3]).winner
'x'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from .errors import GameOverError, IllegalMoveError, IllegalPositionError
from .geometry import FULL, LINE_MASKS, LINES, LINES_THROUGH, cells_of

Side = str  # 'x' or 'o'


def other(side: Side) -> Side:
    """The opponent of ``side``.

    >>> other('x')
    'o'
    """
    return "o" if side == "x" else "x"


_FOUR_TABLES: tuple | None = None


def _four_tables() -> tuple:
    """Per 16-cell level: which levels hold a whole line, and which cross-level lines each level has a cell of."""
    global _FOUR_TABLES
    if _FOUR_TABLES is None:
        in_level = bytearray(1 << 16)
        for lm in LINE_MASKS[:]:
            if lm < 1 << 16 and lm.bit_count() == 4:  # a line of level 0; every level has the same ones
                free = 0xFFFF ^ lm
                sub = free
                while True:  # every superset of the line
                    in_level[lm | sub] = 1
                    if not sub:
                        break
                    sub = (sub - 1) & free
        cross = [lm for lm in LINE_MASKS if all(lm >> 16 * z & 0xFFFF for z in range(4))]
        levels = []
        for z in range(4):
            single = [sum(1 << j for j, lm in enumerate(cross) if lm >> (16 * z + c) & 1) for c in range(16)]
            table = [0] * (1 << 16)
            for chunk in range(1, 1 << 16):
                low = chunk & -chunk
                table[chunk] = table[chunk ^ low] | single[low.bit_length() - 1]
            levels.append(table)
        _FOUR_TABLES = (in_level, *levels)
    return _FOUR_TABLES


_TESTS_BEFORE_TABLES = 20_000  # line-by-line tests (~4 µs each) before the tables (0.2 s to build) pay off
_tests_left = _TESTS_BEFORE_TABLES


def _has_four(mask: int) -> bool:
    """Whether ``mask`` holds a whole line: a few table look-ups instead of 76 tests, once enough tests
    have been asked for that building the tables pays (a command that builds a few positions never does).

    >>> _has_four(0b1111), _has_four(0b10111)
    (True, False)
    """
    global _tests_left
    if _FOUR_TABLES is None and _tests_left > 0:
        _tests_left -= 1
        return any(mask & lm == lm for lm in LINE_MASKS)
    in_level, t0, t1, t2, t3 = _FOUR_TABLES or _four_tables()
    c0, c1, c2, c3 = mask & 0xFFFF, mask >> 16 & 0xFFFF, mask >> 32 & 0xFFFF, mask >> 48 & 0xFFFF
    return bool(in_level[c0] or in_level[c1] or in_level[c2] or in_level[c3] or t0[c0] & t1[c1] & t2[c2] & t3[c3])


def _winning_line(mask: int) -> int | None:
    if mask.bit_count() < 4 or not _has_four(mask):
        return None
    for i, lm in enumerate(LINE_MASKS):
        if mask & lm == lm:
            return i
    return None


@dataclass(frozen=True, slots=True)
class Position:
    """Marks of X and O as bit masks (bit ``c`` = cell ``c``).

    Construction validates: masks within 64 bits and disjoint, counts
    possible (X == O or X == O + 1), not both sides with four in a row,
    and no play continued after a win.
    """

    x: int = 0
    o: int = 0

    def __post_init__(self) -> None:
        for name, m in (("x", self.x), ("o", self.o)):
            if not isinstance(m, int) or m < 0 or m > FULL:
                raise IllegalPositionError(f"{name} mask {m!r} is not a 64-bit cell mask")
        if self.x & self.o:
            raise IllegalPositionError(
                f"cells {cells_of(self.x & self.o)} hold both X and O; each cell holds one mark"
            )
        nx, no = self.x.bit_count(), self.o.bit_count()
        if nx not in (no, no + 1):
            raise IllegalPositionError(
                f"X has {nx} marks and O has {no}; X moves first, so X must have as many "
                "marks as O or one more"
            )
        xw, ow = _winning_line(self.x), _winning_line(self.o)
        if xw is not None and ow is not None:
            raise IllegalPositionError("both X and O have four in a row; a game stops at the first")
        if xw is not None and nx == no:
            raise IllegalPositionError("X has four in a row but O moved afterwards")
        if ow is not None and nx != no:
            raise IllegalPositionError("O has four in a row but X moved afterwards")

    @classmethod
    def trusted(cls, x: int, o: int) -> "Position":
        """A position the engines reached by legal play, built without the checks (the verifier makes one
        per forced win: hundreds of thousands).

        >>> Position.trusted(1, 2) == Position(1, 2)
        True
        """
        position = object.__new__(cls)
        object.__setattr__(position, "x", x)
        object.__setattr__(position, "o", o)
        return position

    @classmethod
    def from_cells(cls, moves: Iterable[int]) -> "Position":
        """Play a sequence of cells (0..63) from the empty board, checking each move."""
        p = cls()
        for cell in moves:
            p = p.play(cell)
        return p

    @property
    def count(self) -> int:
        """Number of marks on the board."""
        return (self.x | self.o).bit_count()

    @property
    def to_move(self) -> Side:
        """``'x'`` or ``'o'``: whose turn it is."""
        return "x" if self.x.bit_count() == self.o.bit_count() else "o"

    @property
    def empty(self) -> int:
        """Mask of empty cells."""
        return FULL & ~(self.x | self.o)

    def mask(self, side: Side) -> int:
        """Mask of ``side``'s marks."""
        return self.x if side == "x" else self.o

    def at(self, cell: int) -> str:
        """``'x'``, ``'o'`` or ``'.'`` at a cell."""
        bit = 1 << cell
        return "x" if self.x & bit else "o" if self.o & bit else "."

    @property
    def winner(self) -> Side | None:
        """The side with four in a row, if any."""
        if _winning_line(self.x) is not None:
            return "x"
        if _winning_line(self.o) is not None:
            return "o"
        return None

    @property
    def winning_line(self) -> tuple[int, int, int, int] | None:
        """The four cells of the completed line, if any."""
        for m in (self.x, self.o):
            i = _winning_line(m)
            if i is not None:
                return LINES[i]
        return None

    @property
    def is_draw(self) -> bool:
        """Full board and no line."""
        return self.empty == 0 and self.winner is None

    @property
    def is_over(self) -> bool:
        """A win or a draw."""
        return self.empty == 0 or self.winner is not None

    def require_in_play(self) -> "Position":
        """This position, if the game goes on; else :class:`GameOverError` saying how it ended.

        Every analysis (engines, solver, verifier, checkers) asks this first;
        a finished position is still a :class:`Position`, for display.

        >>> Position.from_cells([0, 16, 1, 17, 2, 18, 3]).require_in_play()
        Traceback (most recent call last):
        ...
        qubic_logic.errors.GameOverError: the game is over: X has four in a row at cells 0 1 2 3; nothing to analyse
        """
        line = self.winning_line
        if line is not None:
            raise GameOverError(f"the game is over: {self.winner.upper()} has four in a row at cells "
                                f"{' '.join(map(str, line))}; nothing to analyse")
        if self.empty == 0:
            raise GameOverError("the game is over: the board is full, a draw; nothing to analyse")
        return self

    def legal_moves(self) -> list[int]:
        """Empty cells, ascending; none once the game is over."""
        return [] if self.is_over else cells_of(self.empty)

    def play(self, cell: int) -> "Position":
        """The position after the side to move marks ``cell``."""
        if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell <= 63:
            raise IllegalMoveError(f"cell {cell!r} is out of range; expected 0..63")
        if self.winner is not None:
            raise IllegalMoveError(f"the game is over ({self.winner.upper()} has won); no more moves")
        bit = 1 << cell
        if (self.x | self.o) & bit:
            raise IllegalMoveError(f"cell {cell} is already taken by {self.at(cell).upper()}")
        if self.to_move == "x":
            return Position(self.x | bit, self.o)
        return Position(self.x, self.o | bit)

    def lines_through(self, cell: int) -> tuple[int, ...]:
        """Indices of the lines through ``cell``."""
        return LINES_THROUGH[cell]

    def __str__(self) -> str:
        from .notation import diagram

        return diagram(self)

    def _repr_svg_(self) -> str:  # notebooks
        from .pictures import board_svg

        return board_svg(self)


@dataclass
class Game:
    """A game from the empty board: the move history, with undo.

    >>> g = Game()
    >>> g.play(0); g.play(21); g.undo()
    21
    >>> g.moves
    [0]
    """

    moves: list[int] = field(default_factory=list)
    _positions: list[Position] = field(default_factory=lambda: [Position()], repr=False)

    def __post_init__(self) -> None:
        initial, self.moves = self.moves, []
        for cell in initial:
            self.play(cell)

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    def play(self, cell: int) -> None:
        """Play ``cell`` for the side to move (raises :class:`IllegalMoveError`)."""
        if self.position.is_over:
            raise IllegalMoveError("the game is over; no more moves (undo first)")
        self._positions.append(self.position.play(cell))
        self.moves.append(cell)

    def undo(self) -> int:
        """Take back the last move and return its cell."""
        if not self.moves:
            raise IllegalMoveError("nothing to undo: no move has been played")
        self._positions.pop()
        return self.moves.pop()

    def positions(self) -> Iterator[Position]:
        """Every position of the game, from the empty board."""
        return iter(self._positions)
