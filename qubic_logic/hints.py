"""Hints: the side to move's forced win by threat sequence and its first move, else the opponent's threat.

The same words answer ``hint`` in ``qubic play`` and the browser's hint button.

>>> from qubic_logic.notation import parse_game
>>> hint(parse_game('1-2,22-52,27-4'), 'number')
'X has a forced win in 6 moves: play 17 (17 32 43 64 11 59 16 6 49 33 38)'
"""

from __future__ import annotations

from .analysis import defences, plane_of, win_of
from .core import shortest_forced_win
from .errors import QueryTimeout
from .notation import CellNames
from .position import Game, Position, other
from .wording import counted

HINT_SECONDS = 5.0


def hint(game: Game, notation: str | CellNames) -> str:
    """Whether the side to move has a forced win by threat sequence, and its first move."""
    names = notation if isinstance(notation, CellNames) else CellNames(notation)
    p = game.position
    try:
        win = shortest_forced_win(p, time_limit=HINT_SECONDS)
    except QueryTimeout as exc:
        return f"no forced win of length <= {exc.partial} found within {HINT_SECONDS:g} s"
    if not win.found:
        return f"{p.to_move.upper()} has no forced win by threat sequence" + warning(p, names)
    return (f"{p.to_move.upper()} has a forced win in {counted(win.length, 'move')}: play "
            f"{names.cell(win.sequence[0])} ({names.cells(win.sequence)})")


def warning(position: Position, names: CellNames) -> str:
    """``'; but X threatens a forced win in 6 (...): play 16 to stop it'``, or '' when the opponent has none.

    >>> from qubic_logic.notation import parse_position
    >>> warning(parse_position('1-2,22-52,27'), CellNames('number'))
    '; but X threatens a forced win in 6 in plane 17 (17-32,43-64,11-59,16-6,49-33,38): play 6 to stop it (or 16, 17, 32, 38, 43, 49, 64)'
    """
    them = other(position.to_move)
    threat = win_of(position, them)
    if threat.length is None:
        return ""
    cell = names.cell
    seq = names.line(threat.sequence)
    stops = defences(position)
    if not stops:
        return f"; and {them.upper()} wins by force in {threat.length} whatever it plays ({seq})"
    more = f" (or {', '.join(map(cell, stops[1:]))})" if stops[1:] else ""
    plane = plane_of(threat)
    where = f" in plane {plane}" if plane else ""
    return (f"; but {them.upper()} threatens a forced win in {threat.length}{where} ({seq}): "
            f"play {cell(stops[0])} to stop it{more}")
