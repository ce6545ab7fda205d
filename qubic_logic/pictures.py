"""Pictures of positions: the four levels of the board as one SVG drawing.

Level 1 (z = 0) is on the left, rows y = 0..3 top to bottom and columns
x = 0..3 left to right, as in :func:`qubic_logic.notation.diagram`; each level
names its rows and columns in a cell notation (:func:`axis_labels`). X is a red
cross, O a blue ring; ``marks`` writes a short label in chosen cells (threat
cells, move numbers) and ``highlight`` shades cells (by default the winning line).

>>> from qubic_logic.position import Position
>>> svg = board_svg(Position.from_cells([0, 63, 1]), marks={2: '+'})
>>> svg.startswith('<svg') and svg.count('class="x"') == 2 and '>+</text>' in svg
True
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from .geometry import cell_at, coords

if TYPE_CHECKING:
    from .position import Position

CELL = 22
GAP = 14
TOP = 28
LEFT = 18  # room for the row names left of each level
X_COLOUR = "#c62828"
O_COLOUR = "#1565c0"
HIGHLIGHT = "#ffe082"


def _cell_origin(cell: int) -> tuple[int, int]:
    x, y, z = coords(cell)
    return z * (LEFT + 4 * CELL + GAP) + LEFT + x * CELL, TOP + y * CELL


def board_svg(
    position: Position,
    marks: dict[int, str] | None = None,
    highlight: Iterable[int] | None = None,
    title: str | None = None,
    form: str = "index",
) -> str:
    """SVG of ``position``'s four levels side by side, rows and columns named in ``form``.

    ``marks`` maps empty cells to a short label; ``highlight`` lists cells to
    shade (default: the winning line, if any); ``title`` becomes a tooltip.
    """
    marks = marks or {}
    shaded = set(position.winning_line or ()) if highlight is None else set(highlight)
    width = 4 * (LEFT + 4 * CELL) + 3 * GAP
    height = TOP + 4 * CELL
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2}" height="{height + 2}" '
            f'viewBox="-1 -1 {width + 2} {height + 2}" font-family="sans-serif">')]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for z in range(4):
        x0 = z * (LEFT + 4 * CELL + GAP) + LEFT
        out.append(f'<text x="{x0 + 2 * CELL}" y="11" font-size="10" text-anchor="middle" '
                   f'fill="#555">level {z + 1}</text>')
        rows, columns = axis_labels(z, form)
        for i in range(4):
            out.append(f'<text class="axis" x="{x0 + i * CELL + CELL / 2}" y="{TOP - 4}" font-size="9" '
                       f'text-anchor="middle" fill="#78909c">{escape(columns[i])}</text>')
            out.append(f'<text class="axis" x="{x0 - 3}" y="{TOP + i * CELL + CELL / 2 + 3}" font-size="9" '
                       f'text-anchor="end" fill="#78909c">{escape(rows[i])}</text>')
    for cell in range(64):
        px, py = _cell_origin(cell)
        fill = HIGHLIGHT if cell in shaded else "#fff"
        out.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{fill}" '
                   f'stroke="#999" stroke-width="0.6"/>')
        mark = position.at(cell)
        cx, cy, r = px + CELL / 2, py + CELL / 2, CELL * 0.3
        if mark == "x":
            out.append(f'<path class="x" d="M{cx - r},{cy - r}L{cx + r},{cy + r}M{cx + r},{cy - r}'
                       f'L{cx - r},{cy + r}" stroke="{X_COLOUR}" stroke-width="2.4"/>')
        elif mark == "o":
            out.append(f'<circle class="o" cx="{cx}" cy="{cy}" r="{r}" fill="none" '
                       f'stroke="{O_COLOUR}" stroke-width="2.2"/>')
        elif cell in marks:
            out.append(f'<text x="{cx}" y="{cy + 4}" font-size="11" text-anchor="middle" '
                       f'fill="#333">{escape(str(marks[cell]))}</text>')
    out.append("</svg>")
    return "".join(out)


def axis_labels(level: int, form: str = "index") -> tuple[list[str], list[str]]:
    """The names of a level's rows (top to bottom) and columns (left to right) in a cell notation.

    In ``lrc`` and ``hp67`` a cell is written level, row, column, so rows and
    columns are numbered 1..4; in ``index`` and ``number`` a row is named by
    its first cell and a column by what it adds to it.

    >>> axis_labels(1), axis_labels(1, 'lrc')
    ((['16', '20', '24', '28'], ['+0', '+1', '+2', '+3']), (['1', '2', '3', '4'], ['1', '2', '3', '4']))
    """
    if form in ("lrc", "hp67"):
        names = [str(i + 1) for i in range(4)]
        return names, names
    first = 1 if form == "number" else 0
    return [str(16 * level + 4 * y + first) for y in range(4)], [f"+{x}" for x in range(4)]


def cell_grid(level: int) -> list[list[int]]:
    """The cells of one level (0..3) as rows of four, as drawn.

    >>> cell_grid(3)[0]
    [48, 49, 50, 51]
    """
    return [[cell_at(x, y, level) for x in range(4)] for y in range(4)]
