"""The backtrack analysis (L1088–1632, digest §9): learn a pattern from a won or lost game.

Seen from the *computer* (the side that learns), after a game someone won:

1. SN is the winning line. Take the winner's and the loser's latest moves
   (the same index from the end of each list); give the winner's square to
   the loser and take the loser's move back. If the winner can still win in
   one move (a test counter on every blank square 1..64 in turn, the first
   line to reach four), note that line in ROWNO, take both moves back and
   repeat one pair earlier. Otherwise stop: this *stopping pair* stays
   unplayed, and the position is "one move before it is unbeatable" (L1148).
2. The pattern is the sums of SN and the ROWNO lines there, ordered so that
   the line sharing the most blank squares with the others is second
   (L1290–1467; ties keep SN, ROWNO(1), ROWNO(2)).
3. TESTT: a pattern already in TEST is not added again (and if the opponent
   won, its AJUST gains 1, L1503). Otherwise it goes into TEST in the
   winner's colours, then converted (×5 or /5) in the other colours
   (L1506–1564).
4. One more pair is unplayed and the same lines, re-summed, go into SUTEST in
   the computer's colours if they are two or three (L1592–1610).

Both backtrack loops are read as intended: the listing's ``SOUNT`` (L1135)
is SCOUNT, the computer-win loop gets the jump its twin has (L1250–1251),
and the loops run while-loops (digest §13 items 8–9). The SUTEST pass sums
the TEST pattern's lines: in its order (plausible) or, with ``literal``, in
the order SN, ROWNO(1), ... that L1456–1467 uses when the ordering is skipped.

>>> from qubic_logic.position import Game
>>> cells = [c - 1 for c in (39, 1, 13, 26, 4, 42, 23, 7, 16, 27, 43, 15, 48, 8, 47, 35, 64, 32, 30)]
>>> lesson = analyse(Game(cells).position, cells, 'x', Tables())
>>> lesson.test, lesson.stopping_pair
([(10, 5, 10, -1, -1), (2, 1, 2, -1, -1)], (47, 8))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...position import Position
from .board import COMPUTER, LINES, OPPONENT, THROUGH, Board
from .tables import Pattern, Tables, describe

MAX_LINES = 5  # TEST holds five sums; ROWNO(5)


@dataclass
class Lesson:
    """What one game taught: new TEST/SUTEST patterns, AJUST bumps, and how it was found."""

    winner_is_computer: bool
    lines: list[int] = field(default_factory=list)  # SN, ROWNO(1), ... (Doake's line numbers)
    stopping_pair: tuple[int, int] | None = None  # (winner's square, loser's square) not unplayed
    analysed: Board | None = None
    pattern: Pattern | None = None  # the pattern in the winner's colours
    test: list[Pattern] = field(default_factory=list)  # new TEST columns, in order
    sutest: Pattern | None = None
    already: int = 0  # TEST column (1-based) already holding the pattern
    ajust: list[int] = field(default_factory=list)  # TEST columns (1-based) whose AJUST rose
    note: str = ""

    def summary(self) -> str:
        """One line: what was learned."""
        if self.note:
            return self.note
        parts = []
        if self.test:
            parts.append("TEST " + " and ".join(describe(p) for p in self.test))
        if self.already:
            parts.append(f"{describe(self.pattern)} already listed (column {self.already})")
        if self.sutest:
            parts.append("SUTEST " + describe(self.sutest))
        return "; ".join(parts) or "nothing new"


def _wins_in_one(board: Board, value: int) -> int:
    """The first line (1..76) a ``value`` counter on a blank square would complete, or 0.

    The listing (L73–75) puts a test counter on each blank square 1..64 in turn and re-sums
    every line 1..76, taking the first line of four: the lines through the square that the
    counter completes, and any line already of four elsewhere (none in a real game).

    >>> b = Board()
    >>> for s in (1, 2, 3, 17, 33): b.put(s, COMPUTER)
    >>> _wins_in_one(b, COMPUTER), _wins_in_one(b, OPPONENT)
    (1, 0)
    """
    target = 4 * value
    sums = board.sums
    four = [j for j in range(1, 77) if sums[j] == target]
    for s in range(1, 65):
        if board.move[s]:
            continue
        lines = [j for j in THROUGH[s] if sums[j] + value == target]
        lines += [j for j in four if s not in LINES[j]]
        if lines:
            return min(lines)
    return 0


def _unplay(board: Board, winner: list[int], loser: list[int], w: int, l: int, rowno: list[int],
            value: int) -> tuple[int, int, tuple[int, int] | None]:
    """Unplay pairs from index ``w``/``l`` back until the winner cannot win in one."""
    while w >= 0 and l >= 0:
        a, b = winner[w], loser[l]
        board.clear(a)
        board.clear(b)
        board.put(a, COMPUTER + OPPONENT - value)  # the loser plays where the winner did
        line = _wins_in_one(board, value)
        board.clear(a)
        if not line:
            return w, l, (a, b)
        rowno.append(line)
        w, l = w - 1, l - 1
    return w, l, None


def _order(board: Board, lines: list[int]) -> list[int]:
    """Put the line sharing the most blank squares with the others second (L1300–1467)."""
    if len(lines) < 3:
        return lines
    first3 = lines[:3]
    blank = [{s for s in LINES[j] if not board.move[s]} for j in first3]
    x = [sum(len(blank[i] & blank[k]) for k in range(3) if k != i) for i in range(3)]
    most = sorted(range(3), key=lambda i: -x[i])  # stable: ties keep SN, ROWNO(1), ROWNO(2)
    return [first3[most[1]], first3[most[0]], first3[most[2]]] + lines[3:]


def _pattern(board: Board, lines: list[int]) -> Pattern:
    sums = [board.sums[j] for j in lines]
    return tuple(sums + [-1] * (MAX_LINES - len(sums)))


def _other_colours(pattern: Pattern, winner_is_computer: bool) -> Pattern:
    if winner_is_computer:
        return tuple(v // 5 if v > 0 else v for v in pattern)
    return tuple(v * 5 if v > 0 else v for v in pattern)


def analyse(position: Position, moves: list[int], computer: str, tables: Tables,
            game: int | None = None, literal: bool = False) -> Lesson:
    """Run the backtrack analysis on a finished game and add what it teaches to ``tables``.

    ``moves`` are the game's cells (0..63), ``computer`` the learning side.
    """
    winner_side = position.winner
    if winner_side is None:
        return Lesson(False, note="no winner: draws are not analysed")
    value = COMPUTER if winner_side == computer else OPPONENT
    lesson = Lesson(value == COMPUTER)
    first = 0 if winner_side == "x" else 1
    winner = [c + 1 for c in moves[first::2]]
    loser = [c + 1 for c in moves[1 - first::2]]
    board = Board.from_position(position, computer)
    sn = next(j for j in range(1, 77) if board.sums[j] == 4 * value)
    rowno: list[int] = []
    w, l, stop = _unplay(board, winner, loser, len(winner) - 1, len(loser) - 1, rowno, value)
    lesson.stopping_pair, lesson.analysed = stop, board.copy()
    lines = [sn] + rowno
    lesson.lines = lines
    if len(lines) > MAX_LINES:
        lesson.note = f"no lesson: {len(lines)} lines are involved, TEST holds five sums"
        return lesson
    ordered = _order(board, lines)
    pattern = _pattern(board, ordered)
    lesson.pattern = pattern
    for version in (pattern, _other_colours(pattern, lesson.winner_is_computer)):
        same = tables.find(version)
        if same >= 0 and not lesson.winner_is_computer:
            tables.ajust[same] += 1
            lesson.ajust.append(same + 1)
        if same >= 0:
            lesson.already = same + 1
            return lesson
        if not tables.add_test(version, game):
            lesson.note = "TEST is full (32 columns): nothing new can be listed"
            return lesson
        lesson.test.append(version)
    if stop is None:
        return lesson
    # SUTEST pass: unplay one more pair (and more while the winner still wins in one)
    _unplay(board, winner, loser, w - 1, l - 1, rowno, value)
    su_lines = ordered if not literal else lines
    if 2 <= len(su_lines) <= 3:
        su = _pattern(board, su_lines)[:3]
        if not lesson.winner_is_computer:
            su = tuple(v * 5 if v > 0 else v for v in su)
        if tables.add_sutest(su, game):
            lesson.sutest = su
    return lesson
