"""A position as the pages draw it (and as the API returns it): marks, threat cells, the result.

>>> from qubic_logic.notation import parse_position
>>> b = board(parse_position('moves:0,16,1,17,2'))
>>> b['to_move'], b['x'], b['threats']
('o', [0, 1, 2], {'x': [3], 'o': []})
"""

from __future__ import annotations

from ..core import threats
from ..geometry import cells_of
from ..notation import format_position
from ..position import Position


def board(p: Position) -> dict:
    """The JSON object of a position: both notations, marks, threat cells, whose turn, the result."""
    t = threats(p)
    return {"qubic": format_position(p), "patashnik": format_position(p, "patashnik"),
            "to_move": p.to_move, "winner": p.winner, "draw": p.is_draw, "over": p.is_over,
            "winning_line": list(p.winning_line or ()), "x": cells_of(p.x), "o": cells_of(p.o),
            "threats": {"x": cells_of(t.x), "o": cells_of(t.o)}, "count": p.count}
