"""Board geometry: cells, the 76 lines and the 18 planes, all computed.

Cells are numbered ``x + 4*y + 16*z`` (Patashnik's 0..63, docs/design.md §1).
Planes follow McDaniel's Table I (seed 003): 1-4 levels (z), 5-8 rows (y),
9-12 columns (x), then the six diagonal planes x=z, y=z, x=3-z, y=3-z,
y=x, x+y=3. Within a plane the 16 cells are in ascending order, laid out
four per row (McDaniel Fig. 26).

>>> len(LINES), len(PLANES), len(LINES_THROUGH[0]), len(LINES_THROUGH[1])
(76, 18, 7, 4)
>>> PLANES[16][:4]
(0, 5, 10, 15)
"""

from __future__ import annotations

from itertools import product
from typing import Callable

Cell = int
Line = tuple[int, int, int, int]

CELLS: range = range(64)
FULL: int = (1 << 64) - 1


def cell_at(x: int, y: int, z: int) -> Cell:
    """Cell index of column ``x``, row ``y``, level ``z`` (each 0..3).

    >>> cell_at(0, 1, 3)
    52
    """
    return x + 4 * y + 16 * z


def coords(cell: Cell) -> tuple[int, int, int]:
    """``(x, y, z)`` of a cell.

    >>> coords(52)
    (0, 1, 3)
    """
    return cell & 3, (cell >> 2) & 3, cell >> 4


def _compute_lines() -> tuple[Line, ...]:
    """Every set of four cells in a straight line, found by walking all directions."""
    found: set[Line] = set()
    for start in product(range(4), repeat=3):
        for step in product((-1, 0, 1), repeat=3):
            if step == (0, 0, 0):
                continue
            points = [tuple(s + k * d for s, d in zip(start, step)) for k in range(4)]
            if all(0 <= c <= 3 for p in points for c in p):
                found.add(tuple(sorted(cell_at(*p) for p in points)))  # type: ignore[arg-type]
    return tuple(sorted(found))


# McDaniel's Table I: a membership test per plane, in his order.
_PLANE_RULES: tuple[Callable[[int, int, int], bool], ...] = (
    *(lambda x, y, z, k=k: z == k for k in range(4)),
    *(lambda x, y, z, k=k: y == k for k in range(4)),
    *(lambda x, y, z, k=k: x == k for k in range(4)),
    lambda x, y, z: x == z,
    lambda x, y, z: y == z,
    lambda x, y, z: x == 3 - z,
    lambda x, y, z: y == 3 - z,
    lambda x, y, z: y == x,
    lambda x, y, z: x + y == 3,
)


def mask_of(cells) -> int:
    """Bit mask of an iterable of cells.

    >>> mask_of([0, 2])
    5
    """
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def cells_of(mask: int) -> list[Cell]:
    """Cells set in a mask, ascending.

    >>> cells_of(5)
    [0, 2]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


LINES: tuple[Line, ...] = _compute_lines()
LINE_MASKS: tuple[int, ...] = tuple(mask_of(line) for line in LINES)
PLANES: tuple[tuple[Cell, ...], ...] = tuple(
    tuple(c for c in CELLS if rule(*coords(c))) for rule in _PLANE_RULES
)
PLANE_MASKS: tuple[int, ...] = tuple(mask_of(p) for p in PLANES)
PLANE_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, lm in enumerate(LINE_MASKS) if lm & pm == lm) for pm in PLANE_MASKS
)
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if c in line) for c in CELLS
)
PLANES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p, cells in enumerate(PLANES) if c in cells) for c in CELLS
)


def line_kind(line: Line) -> str:
    """``'orthogonal'``, ``'planar diagonal'`` or ``'space diagonal'``.

    >>> line_kind((0, 21, 42, 63))
    'space diagonal'
    """
    a, b = coords(line[0]), coords(line[1])
    moving = sum(1 for i in range(3) if a[i] != b[i])
    return ("orthogonal", "planar diagonal", "space diagonal")[moving - 1]
