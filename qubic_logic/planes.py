"""Planar analysis: excess planes, watch cells and the planar forcing-sequence search.

Citrenbaum (seed 000, ch. 6-8) and McDaniel (seed 003, ch. IV) both reason
about one of the 18 planes at a time. ``a`` is the attacker's mask, ``d``
the defender's; planes are numbered 0..17 in McDaniel's Table I order
(:data:`~qubic_logic.geometry.PLANES`), and the *planar cell* ``k`` (1..16)
of plane ``p`` is ``PLANES[p][k - 1]`` (four per row, McDaniel Fig. 26;
Citrenbaum's inferred Fig. 6.2 numbering is the same).

>>> from qubic_logic.notation import parse_position
>>> p = parse_position('1-2,22-4,27-3')          # X holds planar 1, 6, 7 of plane 17
>>> plane_counts(p.x, p.o, 16)
(3, 0)
>>> [c + 1 for c in planar_force(p.x, p.o, 16, isolated=True)]
[64, 43, 17, 32, 49, 33, 38, 16, 54]
"""

from __future__ import annotations

from .geometry import LINE_MASKS, LINES_THROUGH, PLANE_LINES, PLANE_MASKS, PLANES, cells_of

PLANE_LINE_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(LINE_MASKS[i] for i in lines) for lines in PLANE_LINES
)
"""The 10 line masks of each plane (Citrenbaum's planar files 1-10)."""

OUTSIDE_LINE_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(lm for lm in LINE_MASKS if lm & pm != lm) for pm in PLANE_MASKS
)
"""For each plane, the 66 lines that do not lie in it."""

PLANAR_PRIMES: tuple[int, ...] = tuple(
    sum(1 << c for c in PLANES[p] if sum(1 for lm in PLANE_LINE_MASKS[p] if lm >> c & 1) == 3)
    for p in range(18)
)
"""Mask of each plane's planar primes: planar 1, 4, 6, 7, 10, 11, 13, 16 (McDaniel L256)."""

PLANAR_CORNERS: tuple[int, ...] = tuple(
    sum(1 << PLANES[p][k] for k in (0, 3, 12, 15)) for p in range(18)
)
"""Mask of each plane's corners, planar 1, 4, 13, 16 (tried first, Citrenbaum Fig. 6.10)."""



def _citrenbaum_files(plane: int) -> tuple[int, ...]:
    grid = [PLANES[plane][4 * r : 4 * r + 4] for r in range(4)]
    rows = [sum(1 << c for c in row) for row in grid]
    columns = [sum(1 << grid[r][k] for r in range(4)) for k in range(4)]
    diagonals = [sum(1 << grid[i][i] for i in range(4)), sum(1 << grid[i][3 - i] for i in range(4))]
    return (*rows, *columns, *diagonals)


PLANAR_FILES: tuple[tuple[int, ...], ...] = tuple(_citrenbaum_files(p) for p in range(18))
"""Each plane's 10 files in Citrenbaum's planar order: rows 1-4, columns 5-8,
file 9 = planar {1, 6, 11, 16}, file 10 = planar {4, 7, 10, 13} (seed 000 L1634-1716)."""

_LINES_THROUGH_MASKS = tuple(tuple(LINE_MASKS[i] for i in LINES_THROUGH[c]) for c in range(64))


def planar_cell(plane: int, cell: int) -> int:
    """The planar number (1..16) of ``cell`` in ``plane``.

    >>> planar_cell(16, 26)   # cubic cell 27 is planar 7 of plane 17
    7
    """
    return PLANES[plane].index(cell) + 1


def plane_counts(a: int, d: int, plane: int) -> tuple[int, int]:
    """``(attacker cells, defender cells)`` in ``plane`` — the plane is an "a-d plane"."""
    pm = PLANE_MASKS[plane]
    return (a & pm).bit_count(), (d & pm).bit_count()


def excess(a: int, d: int, plane: int) -> int:
    """How many more cells the attacker holds in ``plane`` (Citrenbaum's excess-n plane, L1597).

    >>> excess(0b111, 0b1000, 0)
    2
    """
    own, opp = plane_counts(a, d, plane)
    return own - opp


def two_zero_cells(a: int, d: int, line_masks) -> int:
    """Vacant cells of the attacker's 2-0 files among ``line_masks`` (Citrenbaum's CELL20)."""
    out = 0
    for lm in line_masks:
        if not lm & d and (lm & a).bit_count() == 2:
            out |= lm & ~a
    return out


def watch_cells(a: int, d: int, plane: int) -> int:
    """XWATCH cells of ``a`` in ``plane``: vacant plane cells of ``a``'s 2-0 files outside it.

    Citrenbaum L2263-2268; the OWATCH cells are ``watch_cells(d, a, plane)``.

    >>> from qubic_logic.geometry import mask_of
    >>> cells_of(watch_cells(mask_of([17, 33]), 0, 0))   # file 1-17-33-49 meets level 1 at 1
    [1]
    """
    return two_zero_cells(a, d, OUTSIDE_LINE_MASKS[plane]) & PLANE_MASKS[plane] & ~(a | d)


def new_threats(a: int, d: int, cell: int, line_masks=None) -> int:
    """Threat cells of ``a`` on lines through ``cell`` (``a`` holds ``cell``), within ``line_masks``."""
    out = 0
    for lm in _LINES_THROUGH_MASKS[cell]:
        if line_masks is not None and lm not in line_masks:
            continue
        if not lm & d and (lm & a).bit_count() == 3:
            out |= lm & ~a
    return out


def corners_first(mask: int, plane: int) -> list[int]:
    """Cells of ``mask`` with the plane's corners first, then in planar order."""
    corners = mask & PLANAR_CORNERS[plane]
    return cells_of(corners) + cells_of(mask & ~corners)


def cell20(a: int, d: int, plane: int) -> list[int]:
    """CELL20 as the 1107 listing builds and reorders it (seed 000 L5740-5768).

    The vacant cells of the attacker's planar 2-0 files, two per file, files in
    Citrenbaum's planar order (:data:`PLANAR_FILES`), cells in planar order; then
    the listing's M7 step: the first corner (planar 1, 4, 13, 16, in that order)
    found in CELL20 is swapped to the front with its file partner, and the pair
    that was in front takes their places. Only that one corner moves; the rest
    stay in file order.

    >>> from qubic_logic.geometry import mask_of
    >>> cells = PLANES[0]
    >>> x = mask_of([cells[k - 1] for k in (6, 7, 11, 14, 15)])   # files 2, 4, 6 and 9 are 2-0
    >>> [planar_cell(0, c) for c in cell20(x, 0, 0)]                  # file 9's corner 1 moves up
    [1, 16, 13, 16, 2, 10, 5, 8]
    >>> [planar_cell(0, c) for c in search_order(x, 0, 0)]            # not all corners first
    [1, 16, 13, 2, 10, 5, 8]
    """
    table = [c for lm in PLANAR_FILES[plane] if not lm & d and (lm & a).bit_count() == 2
             for c in PLANES[plane] if lm >> c & 1 and not a >> c & 1]
    for k in (0, 3, 12, 15):
        corner = PLANES[plane][k]
        if corner in table:
            j = table.index(corner)
            n = j + 1 if j % 2 == 0 else j - 1
            first, second, partner = table[0], table[1], table[n]
            table[0], table[1] = corner, partner
            table[j], table[n] = first, second
            break
    return table


def search_order(a: int, d: int, plane: int, extra: int = 0) -> list[int]:
    """The attacker's moves in the order the planar search tries them: CELL20's
    cells, first occurrence first (:func:`cell20`), then ``extra`` cells (XWATCH moves)
    in planar order."""
    order = list(dict.fromkeys(cell20(a, d, plane)))
    return order + [c for c in PLANES[plane] if extra >> c & 1 and c not in order]


def planar_force(
    a: int, d: int, plane: int, *, isolated: bool = False, watch_moves: bool = False
) -> tuple[int, ...] | None:
    """A planar terminal forcing sequence for the attacker in ``plane``, or None.

    Citrenbaum's search technique (L2011-2066, Fig. 6.10) as the UNIVAC 1107
    program did it (L5485-6006): the attacker moves to a vacant cell of a
    planar 2-0 file, in the listing's CELL20 order (:func:`cell20`); the defender's
    reply is the file's other vacant cell. A line is abandoned when the reply
    makes a 0-3 file (a planar 0-3, or a reply on an OWATCH cell), or when no
    planar 2-0 file is left; the search then backs up and tries the next cell.
    It succeeds when a move makes two 3-0 files at once: a planar related
    pair, or a planar 2-0 cell that is also an XWATCH cell (a 2-0 file
    outside the plane runs through it).

    ``isolated=True`` treats the plane as cut off from the cube (only its
    10 files count; Citrenbaum's isolated plane, McDaniel's "within the
    context of a plane"). ``watch_moves=True`` also lets the attacker move
    to XWATCH cells, forcing the reply out of the plane (Citrenbaum L1847-1874,
    Fig. 8.1 (c)-(d)). Returns ``(move, reply, ..., move)``: the last move
    makes the double threat. Failed positions are remembered, which only
    saves time: the first sequence found is the one the plain search finds.

    >>> from qubic_logic.geometry import mask_of
    >>> cells = PLANES[0]                      # level 1, planar k = cell k - 1
    >>> x = mask_of([cells[k - 1] for k in (1, 10, 14)])   # Citrenbaum Table III: opens at 6
    >>> [planar_cell(0, c) for c in planar_force(x, 0, 0, isolated=True)]
    [6, 2, 16, 11, 13, 15, 7, 4, 5]
    >>> planar_force(mask_of([cells[k - 1] for k in (1, 10, 15)]), 0, 0, isolated=True) is None
    True
    """
    plane_lines = PLANE_LINE_MASKS[plane]
    scope = plane_lines if isolated else None
    failed: set[tuple[int, int]] = set()

    def search(a: int, d: int) -> list[int] | None:
        if (a, d) in failed:
            return None
        extra = watch_cells(a, d, plane) if watch_moves and not isolated else 0
        found: list[tuple[int, int]] = []
        for move in search_order(a, d, plane, extra):
            threats = new_threats(a | 1 << move, d, move, scope)
            if threats & (threats - 1):
                return [move]
            found.append((move, threats))
        for move, threats in found:
            if not threats:
                continue
            a2, d2 = a | 1 << move, d | threats
            reply = threats.bit_length() - 1
            if new_threats(d2, a2, reply, scope):
                continue  # the block makes a 0-3 file: Citrenbaum's counterforce
            if not two_zero_cells(a2, d2, plane_lines) and not (
                watch_moves and not isolated and watch_cells(a2, d2, plane)
            ):
                continue  # no 2-0 file left to carry the force on
            rest = search(a2, d2)
            if rest is not None:
                return [move, reply, *rest]
        failed.add((a, d))
        return None

    result = search(a, d)
    return tuple(result) if result is not None else None
