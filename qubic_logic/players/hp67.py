"""``hp67``: Alan Stein's HP-67 program 02925D, "The Game of 3-D Tic-Tac-Toe" (seed 004).

The program looks at most one move ahead (seed L121) and remembers nothing
but a round counter and its own previous move (L147, L286). Each round,
after the human's move (digest notes/004-hp67.md):

* **Line tests** (§4, L163–222): thirteen lines are tested around a move
  ``(z, y, x)`` — the column, the two level diagonals and the level row,
  the vertical lines and diagonals, and all four space diagonals, whether
  or not they pass through the move. A line counts for a side when it holds
  no opposing mark; a count of at least 2 that is ``>=`` the best so far
  replaces it, so **ties go to the later test**.
* **Opening game** (§5–6, L286): round 1 is strategic; in rounds 2–7 the
  machine blocks the human's best line found from the human's move, else
  plays strategically.
* **Main game** (round 8 on, L119–127): the machine's previous move is
  tested against the human's best count; a machine line that ties or beats
  it is extended (completing a 3 wins), else the human's line is blocked,
  else a strategic move.
* **Tactical placement** (§6, L255, L276): the first empty square of the
  chosen line in the test's scan order.
* **Strategic move** (§6, L257–263): the level with the fewest marks
  (levels scanned 2, 3, 4, 1, first found wins ties), the file (y) with the
  fewest marks over the whole board (2, 3, 4, 1), the register (row) they
  meet in, moved up a level while full, and in it the square x = 4, 3, 1, 2
  (rows y = 1, 3) or x = 2, 3, 4, 1 (rows y = 2, 4).

One reading is ours: in round 7 the program stores its move with
``INT(R_S7/3)`` added, which is 1 if it just blocked a human three; the
listing's parse of ``1.zyx`` in round 8 would misread the level, so the
stored move is taken without that flag (digest §6, [ambiguity]).

"In this game, the human always goes first" (L121); as X this player opens
with its strategic move on the empty board (an extension) and then plays its
rounds as usual. Coordinates are Stein's ``.zyx``, 1..4 each (notation
``hp67``); explanations cite cells, which the user's notation names (the
calculator displayed a winning reply as ``1.zyx``, L93).

>>> from qubic_logic.position import Game
>>> from qubic_logic.notation import parse_cell, format_cell
>>> g = Game([parse_cell('.231')])
>>> m = HP67Player().choose(g)
>>> format_cell(m.cell, 'hp67'), m.explain('hp67')
('.322', 'round 1, strategic: level 3, file 2, the row from .321 to .324')
"""

from __future__ import annotations

from ..geometry import cell_at, coords
from ..position import Game, Position, other
from .base import Move, register

OPENING_ROUNDS = 7  # "For 7 rounds, play only opening game" (card 1 ~step 043)

#: Stein's names for the thirteen tests' lines (line types of L163–187).
TEST_KINDS = (
    "column", "level diagonal", "level diagonal",
    "vertical column", "constant-y vertical diagonal", "constant-y vertical diagonal",
    "constant-x vertical diagonal", "space diagonal", "space diagonal",
    "constant-x vertical diagonal", "space diagonal", "space diagonal",
    "row",
)

Square = tuple[int, int, int]  # (z, y, x), each 1..4


def square_cell(s: Square) -> int:
    """The cell (0..63) of Stein's square ``(z, y, x)``.

    >>> square_cell((4, 2, 1))
    52
    """
    z, y, x = s
    return cell_at(x - 1, y - 1, z - 1)


def cell_square(cell: int) -> Square:
    """Stein's ``(z, y, x)`` of a cell.

    >>> cell_square(52)
    (4, 2, 1)
    """
    x, y, z = coords(cell)
    return z + 1, y + 1, x + 1


def line_tests(s: Square) -> list[list[Square]]:
    """The thirteen lines tested around square ``s``, each in its placement scan order.

    Test order (listing, card 1 ``LBL 0/7/9``): for each register set
    (level z; row y across levels; R0,5,10,15; R3,6,9,12) the column-x sum,
    then the descending and the ascending diagonal sums; finally the row.

    >>> line_tests((2, 3, 1))[0]
    [(2, 1, 1), (2, 2, 1), (2, 3, 1), (2, 4, 1)]
    >>> line_tests((2, 3, 1))[12]
    [(2, 3, 4), (2, 3, 3), (2, 3, 2), (2, 3, 1)]
    """
    z, y, x = s
    k4 = (1, 2, 3, 4)
    return [
        [(z, k, x) for k in k4], [(z, k, 5 - k) for k in k4], [(z, k, k) for k in k4],
        [(k, y, x) for k in k4], [(k, y, 5 - k) for k in k4], [(k, y, k) for k in k4],
        [(k, k, x) for k in k4], [(k, k, 5 - k) for k in k4], [(k, k, k) for k in k4],
        [(k, 5 - k, x) for k in k4], [(k, 5 - k, 5 - k) for k in k4], [(k, 5 - k, k) for k in k4],
        [(z, y, k) for k in (4, 3, 2, 1)],
    ]


def best_line(position: Position, side: str, s: Square, status: int = 2) -> tuple[int, int]:
    """``(count, test)`` of the best line for ``side`` around ``s``; ``test`` 0 when none.

    A line counts when it holds no mark of the other side; its count must
    reach ``status`` (R_S7, initially 2), and a count ``>=`` the best so far
    replaces it (L220), so ties go to the later test.
    """
    own, opp = position.mask(side), position.mask(other(side))
    best = (status, 0)
    for number, line in enumerate(line_tests(s), start=1):
        cells = [square_cell(q) for q in line]
        if any(opp >> c & 1 for c in cells):
            continue
        n = sum(own >> c & 1 for c in cells)
        if n >= best[0]:
            best = (n, number)
    return best


def place_on_line(position: Position, s: Square, test: int) -> int:
    """The first empty square of test ``test``'s line around ``s``, in scan order (L276)."""
    for q in line_tests(s)[test - 1]:
        c = square_cell(q)
        if position.at(c) == ".":
            return c
    raise AssertionError(f"test {test} around {s} chose a full line")  # counts < 4 exclude this


def strategic_square(position: Position) -> Move:
    """Stein's strategic move (L257–263), explained.

    >>> from qubic_logic.position import Position
    >>> strategic_square(Position()).explain('hp67')
    'strategic: level 2, file 2, the row from .221 to .224'
    """
    occupied = position.x | position.o

    def marks(cells) -> int:
        return sum(occupied >> c & 1 for c in cells)

    def fewest(order, count) -> int:
        best, best_n = order[0], 16  # A starts at 16; only a strictly lower count replaces
        for k in order:
            n = count(k)
            if n < best_n:
                best, best_n = k, n
        return best

    level = fewest((2, 3, 4, 1), lambda z: marks(square_cell((z, y, x)) for y in range(1, 5)
                                                 for x in range(1, 5)))
    file = fewest((2, 3, 4, 1), lambda y: marks(square_cell((z, y, x)) for z in range(1, 5)
                                                for x in range(1, 5)))
    z = level
    while marks(square_cell((z, file, x)) for x in range(1, 5)) == 4:  # "Keep i<16"
        z = z % 4 + 1
    order = (4, 3, 1, 2) if file % 2 else (2, 3, 4, 1)  # even register = odd y
    for x in order:
        c = square_cell((z, file, x))
        if position.at(c) == ".":
            return Move.citing(c, f"strategic: level {level}, file {file}, the row from {{0}} to {{1}}",
                               square_cell((z, file, 1)), square_cell((z, file, 4)))
    raise AssertionError("a row with fewer than 4 marks has an empty square")


def _tactical(position: Position, s: Square, test: int, count: int, mine: bool) -> Move:
    cell = place_on_line(position, s, test)
    kind = TEST_KINDS[test - 1]
    if mine:
        what = f"completes its {kind} (3-0): wins" if count == 3 else f"extends its {count}-0 {kind}"
    else:
        what = f"blocks a 0-{count} {kind}"
    return Move.citing(cell, f"{what} (test {test} from {{0}})", square_cell(s))


@register("hp67", "Stein's HP-67 program 02925D: 13 line tests, one move deep (seed 004)")
class HP67Player:
    """Stein's HP-67 program; see the module docstring. Deterministic, no options."""

    name = "hp67"

    def choose(self, game: Game) -> Move:
        p = game.position
        me = p.to_move
        mine = game.moves[0 if me == "x" else 1 :: 2]
        human = game.moves[1 if me == "x" else 0 :: 2]
        rnd = len(human)
        if rnd == 0:  # only as X: the extension's opening move
            return strategic_square(p).within("opening (extension, the human moves first in the seed), {why}")
        if rnd == 1:
            return strategic_square(p).within("round 1, {why}")
        h = cell_square(human[-1])
        h_count, h_test = best_line(p, other(me), h)
        if rnd > OPENING_ROUNDS and mine:
            m = cell_square(mine[-1])
            m_count, m_test = best_line(p, me, m, h_count)
            if m_test:
                return _tactical(p, m, m_test, m_count, True).within(f"round {rnd}, {{why}}")
        if h_test:
            return _tactical(p, h, h_test, h_count, False).within(f"round {rnd}, {{why}}")
        return strategic_square(p).within(f"round {rnd}, {{why}}")
