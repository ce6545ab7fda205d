"""SEARCH and SUGOAL: find TEST and SUTEST patterns on a board (L1708–1979, L1981–2092).

A pattern is a list of line sums with intersection rules (digest §5–6):
line 1 has a blank square M1 (the *key square*) that line 2 passes through;
line 3 passes through a blank square of line 2; line 4 shares a blank with
line 2; line 5 needs only a sum (the listing has no intersection test for
it, L1942–1953). Lines are pairwise distinct. Search is in first-found
order: the first line (1..76) with the first sum, its first blank square,
then any completion, so the reported key square is fixed by the line
numbering. Neither listing nor thesis requires the two key squares of a
pattern to differ (M2 may equal M1), and both readings keep that.

One OCR point changes play: L1857 compares line 2 with TEST3, against the
comment (L1855) and SUGOAL (L2035). The plausible reading compares with
TEST2; ``literal=True`` keeps TEST3, under which two-line patterns such as
10,10 can never match.

>>> from .board import Board
>>> b = Board()
>>> for s in (1, 2, 10, 13): b.put(s, 5)   # 10 on 1,2,3,4 and on 4,7,10,13: they meet at blank 4
>>> match(b, (10, 10, -1, -1, -1)), match(b, (10, 10, -1, -1, -1), literal=True)
(4, 0)

**Native twin.** ``search``, ``match`` and ``sugoal`` run the C matcher
``qubic_logic._doake`` (solvers/doake.c) when the native core is in charge
(``core.CORE_NAME == 'native'``; ``QUBIC_CORE=python`` forces the fallback).
The ``python_*`` functions below are the readable reference it follows step
for step; tests hold the two equal on random boards and on seeded training
runs, where they give the same games and the same brain.

>>> from .tables import Tables
>>> test = Tables().test + [(10, 10, -1, -1, -1)]
>>> python_search(b, test).m1, search(b, test).m1, python_search(b, test).m3
(4, 4, 5)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType

from ...core import CORE_NAME
from ...native import native_extension
from .board import LINE_BITS, LINES, THROUGH, Board
from .tables import Pattern

FOUR, THREE = 100, 98


@dataclass
class Found:
    """What SEARCH leaves in COMMON: M1 (key square), M2 (computer flag), M3 (pattern or 98/100)."""

    m1: int = 0
    m2: int = 0
    m3: int = 0
    m11: list[tuple[int, int]] = field(default_factory=list)  # (key square, column) in list mode
    line: int = 0  # SN: the four's or three's line


class Scan:
    """One board's lines grouped by sum, and the blank squares on lines of each sum (bit masks)."""

    __slots__ = ("by_sum", "blank_on", "blank")

    def __init__(self, board: Board) -> None:
        self.blank = ~board.occupied
        by_sum: dict[int, list[int]] = {}
        blank_on: dict[int, int] = {}
        sums, blank = board.sums, self.blank
        for j in range(1, 77):
            t = sums[j]
            if t in by_sum:
                by_sum[t].append(j)
                blank_on[t] |= LINE_BITS[j] & blank
            else:
                by_sum[t] = [j]
                blank_on[t] = LINE_BITS[j] & blank
        self.by_sum, self.blank_on = by_sum, blank_on


def _rest(board: Board, scan: Scan, pattern: Pattern, i1: int, i3: int) -> bool:
    """Lines 3..5 of a pattern, given line 1 = ``i1`` and line 2 = ``i3`` (``i1`` = 0: any line 1)."""
    t3, t4, t5 = pattern[2], pattern[3], pattern[4]
    if t3 < 0:
        return True
    blank2 = LINE_BITS[i3] & scan.blank  # the blank squares of line 2
    if t4 >= 0 and not blank2 & scan.blank_on.get(t4, 0):
        return False
    on_third = blank2 & scan.blank_on.get(t3, 0)
    if not on_third:
        return False
    sums = board.sums
    for m2 in LINES[i3]:
        if not on_third >> m2 & 1:
            continue
        for i6 in THROUGH[m2]:
            if sums[i6] != t3 or i6 == i1 or i6 == i3:
                continue
            if t4 < 0:
                return True
            for k3 in scan.by_sum[t4]:
                if k3 in (i1, i3, i6) or not LINE_BITS[k3] & blank2:
                    continue
                if t5 < 0 or any(k4 not in (i1, i3, i6, k3) for k4 in scan.by_sum.get(t5, ())):
                    return True
    return False


@lru_cache(maxsize=None)
def _needed(pattern: Pattern, literal: bool) -> tuple[tuple[int, int], ...]:
    """How many distinct lines of each sum a pattern needs."""
    sums = (pattern[0], pattern[2] if literal else pattern[1]) + tuple(t for t in pattern[2:] if t >= 0)
    return tuple((t, sums.count(t)) for t in set(sums))


def python_match(board: Board, pattern: Pattern, literal: bool = False, scan: Scan | None = None) -> int:
    """The key square M1 of the first realisation of ``pattern`` on ``board``, or 0."""
    scan = scan or Scan(board)
    second = pattern[2] if literal else pattern[1]
    # M1 is a blank square on a line of the first sum and on a line of the second
    keys = scan.blank_on.get(pattern[0], 0) & scan.blank_on.get(second, 0)
    if not keys:
        return 0
    by_sum = scan.by_sum
    for t, n in _needed(pattern, literal):
        if len(by_sum.get(t, ())) < n:
            return 0  # not enough distinct lines with these sums
    sums = board.sums
    possible: dict[int, bool] = {}  # line 2 -> has lines 3.. at all (whatever line 1 is)
    for i1 in by_sum[pattern[0]]:
        if not LINE_BITS[i1] & keys:
            continue
        for m1 in LINES[i1]:
            if not keys >> m1 & 1:
                continue
            for i3 in THROUGH[m1]:
                if i3 == i1 or sums[i3] != second:
                    continue
                if i3 not in possible:
                    possible[i3] = _rest(board, scan, pattern, 0, i3)
                if possible[i3] and _rest(board, scan, pattern, i1, i3):
                    return m1
    return 0


def python_search(board: Board, test: list[Pattern], listing: bool = False, literal: bool = False) -> Found:
    """SEARCH: fours and threes first (TEST columns 1–4), then columns 5.. in order.

    Returns at the first hit unless ``listing`` (M4 false), which lists one
    realisation per pattern in ``m11`` (a three first, as 98). A four sets
    M3 = 100 (and M2 = 100 if it is the computer's); a three M3 = 98 (M2 = 98
    if the computer's) with M1 its blank square.
    """
    found = Found()
    scan = Scan(board)
    for column in range(4):
        line = scan.by_sum.get(test[column][0], (0,))[0]  # the first line with the sum
        if not line:
            continue
        target = test[column][0]
        found.line = line
        if column < 2:
            found.m3 = FOUR
            found.m2 = FOUR if target == 20 else 0
            return found
        found.m3 = THREE
        found.m2 = THREE if target == 15 else 0
        found.m1 = next(s for s in LINES[line] if not board.move[s])
        if not listing:
            return found
        found.m11.append((found.m1, THREE))
        break
    for column in range(4, len(test)):
        key = python_match(board, test[column], literal, scan)
        if key:
            if not listing:
                return Found(key, 0, column + 1, line=found.line)
            found.m11.append((key, column + 1))
    if len(found.m11) > 16:  # M11(2,16): the listing never checks (digest §13 item 13)
        del found.m11[16:]
    return Found(0, 0, 0, found.m11, found.line) if listing else Found()


def python_sugoal(board: Board, sutest: list[Pattern]) -> tuple[int, int]:
    """SUGOAL: ``(M1, column)`` of the first SUTEST pattern on the board, or ``(0, 0)``.

    It scans the whole board, like SEARCH, so the trial square need not take
    part in the match (digest §13 item 20).
    """
    scan = Scan(board)
    for column, pattern in enumerate(sutest, 1):
        key = python_match(board, tuple(pattern) + (-1, -1), False, scan)
        if key:
            return key, column
    return 0, 0


NATIVE: ModuleType | None = native_extension("_doake") if CORE_NAME == "native" else None


@contextmanager
def python_matcher() -> Iterator[None]:
    """Within the block, ``search``, ``match`` and ``sugoal`` run the Python reference (not thread-safe).

    >>> from qubic_logic.players.doake import search as here
    >>> with python_matcher():
    ...     here.NATIVE is None
    True
    """
    global NATIVE
    saved, NATIVE = NATIVE, None
    try:
        yield
    finally:
        NATIVE = saved


def match(board: Board, pattern: Pattern, literal: bool = False) -> int:
    """The key square M1 of the first realisation of ``pattern`` on ``board``, or 0 (see :func:`python_match`)."""
    if NATIVE is None:
        return python_match(board, pattern, literal)
    return NATIVE.match(board.sums, board.occupied >> 1, pattern, literal)


def search(board: Board, test: list[Pattern], listing: bool = False, literal: bool = False) -> Found:
    """SEARCH (see :func:`python_search`), native when built."""
    if NATIVE is None:
        return python_search(board, test, listing, literal)
    m1, m2, m3, line, m11 = NATIVE.search(board.sums, board.occupied >> 1, test, listing, literal)
    return Found(m1, m2, m3, m11, line)


def sugoal(board: Board, sutest: list[Pattern]) -> tuple[int, int]:
    """SUGOAL (see :func:`python_sugoal`), native when built."""
    if NATIVE is None:
        return python_sugoal(board, sutest)
    return NATIVE.first_match(board.sums, board.occupied >> 1, sutest, False)
