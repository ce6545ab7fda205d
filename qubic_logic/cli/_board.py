"""The 4-level board for the terminal, drawn with rich.

Levels side by side (level 1, z = 0, on the left); an empty cell shows its
coordinate in the chosen notation (HP-67's ``.zyx`` without the dot), so the
user can read off what to type.
The last move is shown reversed, X's threat cells on a red background,
O's on blue, a cell that is a threat for both on magenta, and a winning
line underlined.

>>> from qubic_logic.position import Position
>>> text = board_text(Position.from_cells([0, 21]), 'lrc', last=21)
>>> text.plain.splitlines()[1].split()[:5]
['X', '112', '113', '114', '211']
"""

from __future__ import annotations

from rich.text import Text

from ..core import threats
from ..geometry import cell_at
from ..notation import format_cell
from ..position import Position

X_STYLE, O_STYLE = "bold red", "bold blue"
THREAT_STYLES = {"x": "on dark_red", "o": "on dark_blue", "both": "on magenta"}


def board_text(position: Position, notation: str = "index", last: int | None = None) -> Text:
    """The board as rich :class:`~rich.text.Text` (see the module docstring)."""
    shown = "lrc" if notation == "hp67" else notation  # .zyx without its dot: four levels fit 80 columns
    width = max(len(format_cell(c, shown)) for c in range(64)) + 1
    t = threats(position) if not position.is_over else None
    line = set(position.winning_line or ())
    out = Text()
    out.append("  ".join(f"{'level ' + str(z + 1):^{4 * width}}" for z in range(4)).rstrip() + "\n",
               style="bold")
    for y in range(4):
        for z in range(4):
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


LEGEND = "last move reversed; threats: red = X's, blue = O's, magenta = both"
