"""Pure-Python bitboard core: the fallback when the native extension is absent.

It implements exactly what the C core in ``solvers/`` implements, with the
same function names, arguments, results and errors (tests hold the two
equal). ``a`` is the attacker's mask, ``d`` the defender's. Forced wins
follow docs/design.md §3; the search is the one of ``solvers/qubic_core.c``
(see docs/forced-wins.md), so both report the same
``length`` and ``reached``; witnesses may differ but both replay in
:func:`qubic_logic.referee.replay_forced_win`.

>>> a = (1 << 0) | (1 << 1) | (1 << 2)
>>> threat_cells(a, 0) == 1 << 3
True
>>> forced_win(a, 0)[:2]
(1, (3,))
"""

from __future__ import annotations

import time

from .geometry import FULL, LINE_MASKS, LINES_THROUGH

_LINES_THROUGH_MASKS = tuple(tuple(LINE_MASKS[i] for i in LINES_THROUGH[c]) for c in range(64))

#: ``reached`` when it is proven that no win exists at any length.
NONE_AT_ANY_LENGTH = 64


def _mask(m: object, name: str) -> int:
    if not isinstance(m, int):
        raise TypeError(f"{name} must be an int cell mask, not {type(m).__name__}")
    if m < 0 or m > FULL:
        raise ValueError(f"{name} mask {m!r} is not a 64-bit cell mask; expected 0 <= mask < 2**64")
    return m


def _check(a: object, d: object, an: str = "a", dn: str = "d") -> None:
    """Raise like the native core for masks that are not 64-bit or that overlap."""
    _mask(a, an)
    _mask(d, dn)
    both = a & d  # type: ignore[operator]
    if both:
        cells = [c for c in range(64) if both >> c & 1]
        raise ValueError(f"the masks overlap at cells {cells}; each cell holds one mark")


def _open_cells(a: int, d: int, marks: int, lines: tuple[int, ...] = LINE_MASKS) -> int:
    """Empty cells of the ``lines`` with ``marks`` marks of ``a`` and none of ``d``."""
    out = 0
    for lm in lines:
        if not lm & d and (lm & a).bit_count() == marks:
            out |= lm & ~a
    return out


def _major_cells(a: int, d: int) -> int:
    once = twice = 0
    for lm in LINE_MASKS:
        if not lm & d and (lm & a).bit_count() == 2:
            cells = lm & ~a
            twice |= once & cells
            once |= cells
    return twice


def threat_cells(a: int, d: int) -> int:
    """Mask of empty cells that complete a line of ``a`` (lines with 3 of ``a``, none of ``d``)."""
    _check(a, d)
    return _open_cells(a, d, 3)


def forcing_moves(a: int, d: int) -> int:
    """Mask of empty cells that make a new threat for ``a`` (empty cells of 2-0 lines)."""
    _check(a, d)
    return _open_cells(a, d, 2)


def major_cells(a: int, d: int) -> int:
    """Mask of empty cells where two or more 2-0 lines of ``a`` meet (related pairs)."""
    _check(a, d)
    return _major_cells(a, d)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _through(a: int, d: int, cell: int) -> int:
    """Threat cells of ``a`` on the lines through ``cell``."""
    return _open_cells(a, d, 3, _LINES_THROUGH_MASKS[cell])


class _LimitReached(Exception):
    pass


_BOUNDED, _EXACT = 0, -1  # no win within the bound / no win at any length
_TT_EXACT = 255


class _Search:
    """Iterative deepening over §3 with a table of failed positions (as the C core)."""

    def __init__(self, deadline: float | None, node_limit: int) -> None:
        self.failed: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self.deadline = deadline
        self.node_limit = node_limit
        self.seq: list[int] = []

    def node(self, a: int, d: int, k: int, theirs: int) -> int:
        """Attacker ``a`` to move without a threat of its own, ``theirs`` the defender's
        threat cells, at most ``k >= 2`` attacker moves: the win length (its witness is
        prepended to ``self.seq``), ``_BOUNDED`` or ``_EXACT``."""
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            raise _LimitReached
        if self.nodes & 1023 == 0 and self.deadline is not None and time.monotonic() > self.deadline:
            raise _LimitReached
        if theirs & (theirs - 1):
            return _EXACT  # two counter-threats: the defender wins first
        bound = self.failed.get((a, d), 0)
        if bound == _TT_EXACT:
            return _EXACT
        if bound >= k:
            return _BOUNDED
        if theirs:  # counter-threat rule: the attacker must block
            move = _low(theirs)
            t = _through(a | theirs, d, move)
            if t & (t - 1):
                block = _low(t)
                self.seq = [move, block, _low(t & ~(1 << block))]
                return 2
            singles = theirs if t else 0
        else:
            major = _major_cells(a, d)
            if major:  # a related pair: its major cell makes a double threat
                move = _low(major)
                t = _through(a | 1 << move, d, move)
                block = _low(t)
                self.seq = [move, block, _low(t & ~(1 << block))]
                return 2
            singles = _open_cells(a, d, 2)
        if not singles:
            self.failed[(a, d)] = _TT_EXACT
            return _EXACT
        if k < 3:
            return _BOUNDED  # a single threat needs at least two more attacker moves
        bounded = False
        while singles:
            move = _low(singles)
            singles &= singles - 1
            a2 = a | 1 << move
            t = _through(a2, d, move)
            reply = _low(t)
            d2 = d | t
            r = self.node(a2, d2, k - 1, _through(d2, a2, reply))
            if r > 0:
                self.seq = [move, reply, *self.seq]
                return r + 1
            if r == _BOUNDED:
                bounded = True
        self.failed[(a, d)] = k if bounded else _TT_EXACT
        return _BOUNDED if bounded else _EXACT


def forced_win(
    a: int, d: int, max_length: int = 0, time_limit: float = 0.0, node_limit: int = 0
) -> tuple[int, tuple[int, ...], int, int]:
    """Shortest forced win by threat sequence for ``a`` to move against ``d``.

    Returns ``(length, sequence, nodes, reached)``: ``length`` is 0 when there
    is none within ``max_length`` (0 = no bound); ``sequence`` alternates
    attacker and defender moves and ends with the completing move (after a
    double threat the defender blocks the lowest threat cell and the attacker
    completes the lowest remaining one). ``reached`` is the length found, or
    when there is none ``max_length``, or 64 when it is proven that there is
    none at any length. Past ``time_limit`` seconds or ``node_limit`` nodes
    (0 = none) it returns length -1 and ``reached`` = the largest length
    searched completely.

    >>> forced_win(0b111, 0b1110000, max_length=0)
    (1, (3,), 1, 1)
    """
    _check(a, d)
    for name, value in (("max_length", max_length), ("node_limit", node_limit)):
        if not isinstance(value, int):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if max_length < 0:
        raise ValueError(f"max_length {max_length!r} is negative; expected 0 (no bound) or more")
    if not time_limit >= 0:
        raise ValueError(f"time_limit {time_limit!r} is negative; expected 0 (none) or more seconds")
    if node_limit < 0:
        raise ValueError(f"node_limit {node_limit!r} is negative; expected 0 (none) or more")
    mine = _open_cells(a, d, 3)
    if mine:
        return 1, (_low(mine),), 1, 1
    deadline = time.monotonic() + time_limit if time_limit else None
    search = _Search(deadline, node_limit)
    search.nodes = 1
    theirs = _open_cells(d, a, 3)
    result = _EXACT if theirs & (theirs - 1) else _BOUNDED
    length = 2
    while result == _BOUNDED and (not max_length or length <= max_length):
        if deadline is not None and time.monotonic() > deadline:  # also every 1024 nodes
            return -1, (), search.nodes, length - 1
        try:
            result = search.node(a, d, length, theirs)
        except _LimitReached:
            return -1, (), search.nodes, length - 1
        if result > 0:
            return result, tuple(search.seq), search.nodes, result
        length += 1
    if result == _EXACT:
        return 0, (), search.nodes, NONE_AT_ANY_LENGTH
    return 0, (), search.nodes, max_length


def threat_scan_batch(pairs: list[tuple[int, int]], repeat: int = 1) -> int:
    """Threat scans over ``(a, d)`` pairs, ``repeat`` times; how many had a threat (benchmarks)."""
    if repeat < 0:
        raise ValueError(f"repeat {repeat} is negative; expected 0 or more")
    for i, pair in enumerate(pairs):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise ValueError(f"pairs[{i}] is not an (a, d) tuple")
        _check(*pair)
    hits = 0
    for _ in range(repeat):
        hits += sum(1 for a, d in pairs if _open_cells(a, d, 3))
    return hits


def canonical(x: int, o: int) -> tuple[int, int, int]:
    """Canonical form ``(cx, co, transform)``: :func:`qubic_logic.symmetry.python_canonical_masks`.

    >>> canonical(1 << 63, 0)
    (1, 0, 7)
    """
    from .symmetry import python_canonical_masks

    _check(x, o, "x", "o")
    return python_canonical_masks(x, o)


def transform(index: int) -> tuple[int, ...]:
    """The 64 cell images of transform ``index`` (0..191): ``symmetry.TRANSFORMS[index]``."""
    from .symmetry import TRANSFORMS

    if not 0 <= index < len(TRANSFORMS):
        raise ValueError(f"transform {index} is out of range; expected 0..191")
    return TRANSFORMS[index]


def map_mask(index: int, mask: int) -> int:
    """Image of a cell mask under transform ``index``: ``symmetry.map_mask``."""
    from . import symmetry

    if not 0 <= index < len(symmetry.TRANSFORMS):
        raise ValueError(f"transform {index} is out of range; expected 0..191")
    return symmetry.map_mask(index, _mask(mask, "mask"))
