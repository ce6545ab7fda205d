"""Pure-Python bitboard core: the fallback when the native extension is absent.

It implements exactly what the C core in ``solvers/`` implements, with the
same function names and results (tests hold the two equal). ``a`` is the
attacker's mask, ``d`` the defender's. Forced wins follow DESIGN.md §3.

>>> a = (1 << 0) | (1 << 1) | (1 << 2)
>>> threat_cells(a, 0) == 1 << 3
True
>>> forced_win(a, 0)[:2]
(1, (3,))
"""

from __future__ import annotations

import time

from .geometry import LINE_MASKS, LINES_THROUGH

_LINES_THROUGH_MASKS = tuple(tuple(LINE_MASKS[i] for i in LINES_THROUGH[c]) for c in range(64))


def threat_cells(a: int, d: int) -> int:
    """Mask of empty cells that complete a line of ``a`` (lines with 3 of ``a``, none of ``d``)."""
    out = 0
    for lm in LINE_MASKS:
        if not lm & d and (lm & a).bit_count() == 3:
            out |= lm & ~a
    return out


def forcing_moves(a: int, d: int) -> int:
    """Mask of empty cells that make a new threat for ``a`` (empty cells of 2-0 lines)."""
    out = 0
    for lm in LINE_MASKS:
        if not lm & d and (lm & a).bit_count() == 2:
            out |= lm & ~a
    return out


def major_cells(a: int, d: int) -> int:
    """Mask of empty cells where two or more 2-0 lines of ``a`` meet (related pairs)."""
    once = twice = 0
    for lm in LINE_MASKS:
        if not lm & d and (lm & a).bit_count() == 2:
            cells = lm & ~a
            twice |= once & cells
            once |= cells
    return twice


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _new_threats(a: int, d: int, cell: int) -> int:
    """Threat cells of ``a`` on lines through ``cell`` (``a`` already holds ``cell``)."""
    out = 0
    for lm in _LINES_THROUGH_MASKS[cell]:
        if not lm & d and (lm & a).bit_count() == 3:
            out |= lm & ~a
    return out


class _LimitReached(Exception):
    pass


class _Search:
    """Iterative deepening over §3 with a table of positions that failed at a depth."""

    def __init__(self, deadline: float | None, node_limit: int) -> None:
        self.failed: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self.cut = False
        self.deadline = deadline
        self.node_limit = node_limit

    def win(self, a: int, d: int, depth: int) -> list[int] | None:
        """A win for ``a`` (to move) in at most ``depth`` of its moves, or None."""
        self.nodes += 1
        if self.nodes & 1023 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _LimitReached
            if self.node_limit and self.nodes > self.node_limit:
                raise _LimitReached
        mine = threat_cells(a, d)
        if mine:
            return [_low(mine)]
        if depth < 2:
            self.cut = True
            return None
        if self.failed.get((a, d), 0) >= depth:
            return None
        theirs = threat_cells(d, a)
        if theirs & (theirs - 1):
            self.failed[(a, d)] = 99
            return None
        candidates = theirs or forcing_moves(a, d)
        while candidates:
            move = _low(candidates)
            candidates &= candidates - 1
            a2 = a | 1 << move
            threats = _new_threats(a2, d, move)
            if threats & (threats - 1):
                block = _low(threats)
                return [move, block, _low(threats & ~(1 << block))]
            if not threats:
                continue
            if depth < 3:
                self.cut = True
                continue
            rest = self.win(a2, d | threats, depth - 1)
            if rest is not None:
                return [move, _low(threats), *rest]
        self.failed[(a, d)] = depth
        return None


def forced_win(
    a: int, d: int, max_length: int = 0, time_limit: float = 0.0, node_limit: int = 0
) -> tuple[int, tuple[int, ...], int, int]:
    """Shortest forced win by threat sequence for ``a`` to move against ``d``.

    Returns ``(length, sequence, nodes, reached)``: ``length`` is 0 when there
    is none within ``max_length`` (0 = no bound); ``sequence`` alternates
    attacker and defender moves and ends with the completing move;
    ``reached`` is the deepest length fully searched. Past ``time_limit``
    seconds or ``node_limit`` nodes (0 = none) it returns length -1.
    """
    deadline = time.monotonic() + time_limit if time_limit else None
    search = _Search(deadline, node_limit)
    length = 1
    while not max_length or length <= max_length:
        search.cut = False
        if deadline is not None and time.monotonic() > deadline:
            return -1, (), search.nodes, length - 1
        try:
            seq = search.win(a, d, length)
        except _LimitReached:
            return -1, (), search.nodes, length - 1
        if seq is not None:
            return length, tuple(seq), search.nodes, length
        if not search.cut:  # nothing was cut by the bound: no win at any length
            return 0, (), search.nodes, 64
        length += 1
    return 0, (), search.nodes, max_length


def threat_scan_batch(pairs: list[tuple[int, int]]) -> int:
    """Threat scans over many ``(a, d)`` pairs; returns how many had a threat (for benchmarks)."""
    return sum(1 for a, d in pairs if threat_cells(a, d))
