"""The 4-level board for the terminal, drawn with rich.

Levels side by side (level 1, z = 0, on the left); an empty cell shows its
coordinate in the chosen notation (HP-67's ``.zyx`` without the dot), so the
user can read off what to type; rows and columns are named at the edges of
each level (:func:`qubic_logic.pictures.axis_labels`).
The last move is shown reversed, X's threat cells on a red background,
O's on blue, a cell that is a threat for both on magenta, and a winning
line underlined.

>>> from qubic_logic.position import Position
>>> text = board_text(Position.from_cells([0, 21]), 'lrc', last=21)
>>> text.plain.splitlines()[1].split()[:5]
['1', '2', '3', '4', '1']
>>> text.plain.splitlines()[2].split()[:5]
['1│', 'X', '112', '113', '114']
"""

from __future__ import annotations

from rich.text import Text

from ..core import threats
from ..geometry import cell_at
from ..notation import format_cell
from ..pictures import axis_labels
from ..position import Position

X_STYLE, O_STYLE = "bold red", "bold blue"
THREAT_STYLES = {"x": "on dark_red", "o": "on dark_blue", "both": "on magenta"}


def _frame(form: str, width: int) -> tuple[str, list[list[str]]]:
    """The two header lines (level names, column names) and each level's row names, for cells ``width`` wide."""
    axes = [axis_labels(z, form) for z in range(4)]
    edge = max(len(name) for rows, _ in axes for name in rows)
    levels = "  ".join(" " * (edge + 1) + f"{'level ' + str(z + 1):^{4 * width}}" for z in range(4))
    columns = "  ".join(" " * (edge + 1) + "".join(f"{c:>{width}}" for c in axes[z][1]) for z in range(4))
    return levels.rstrip() + "\n" + columns.rstrip() + "\n", [[f"{r:>{edge}}│" for r in rows] for rows, _ in axes]


def board_text(position: Position, notation: str = "index", last: int | None = None) -> Text:
    """The board as rich :class:`~rich.text.Text` (see the module docstring)."""
    shown = "lrc" if notation == "hp67" else notation  # .zyx without its dot: four levels fit 80 columns
    width = max(len(format_cell(c, shown)) for c in range(64)) + 1
    t = threats(position) if not position.is_over else None
    line = set(position.winning_line or ())
    head, rows = _frame(shown, width)
    out = Text()
    out.append(head, style="bold")
    for y in range(4):
        for z in range(4):
            out.append(rows[z][y])
            for x in range(4):
                c = cell_at(x, y, z)
                mark = position.at(c)
                if mark == ".":
                    label, style = format_cell(c, shown), "dim"
                    if t is not None and (t.x | t.o) >> c & 1:
                        kind = "both" if t.x >> c & 1 and t.o >> c & 1 else "x" if t.x >> c & 1 else "o"
                        style = f"bold {THREAT_STYLES[kind]}"
                else:
                    label, style = mark.upper(), X_STYLE if mark == "x" else O_STYLE
                if c == last:
                    style += " reverse"
                if c in line:
                    style += " underline"
                out.append(f"{label:>{width}}", style=style)
            if z < 3:
                out.append("  ")
        out.append("\n")
    return out


def labelled_diagram(position: Position, marks: dict[int, str] | None = None, form: str = "index") -> str:
    """Plain text: :func:`qubic_logic.notation.diagram`'s marks with levels, rows and columns named in
    the notation ``form`` (HP-67's as level-row-column digits).

    >>> print(labelled_diagram(Position.from_cells([0, 63]), {1: '+'}).splitlines()[2])
     0│  x  +  .  .  16│  .  .  .  .  32│  .  .  .  .  48│  .  .  .  .
    """
    marks = marks or {}
    head, rows = _frame("lrc" if form == "hp67" else form, 3)
    lines = head.splitlines()
    for y in range(4):
        parts = []
        for z in range(4):
            cells = (position.at(c) if position.at(c) != "." else marks.get(c, ".")
                     for c in (cell_at(x, y, z) for x in range(4)))
            parts.append(rows[z][y] + "".join(f"{c:>3}" for c in cells))
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


LEGEND = ("last move reversed; threat cells: red background = X's, blue = O's, magenta = both; "
          "empty cells show their coordinates; rows and columns are named at each level's edges")
