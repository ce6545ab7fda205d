"""Hints: the side to move's forced win by threat sequence and its first move, else the opponent's threat.

The same words answer ``hint`` in ``qubic play`` and the browser's hint button, and :func:`verdict` says
the same in one sentence over the Play page's analysis. Lengths count the winner's moves from now, the
move that completes four included.

>>> from qubic_logic.notation import parse_game
>>> hint(parse_game('1-2,22-52,27-4'), 'number')
'X has a forced win in 6 moves: play 17 (17 32 43 64 11 59 16 6 49 33 38)'
"""

from __future__ import annotations

from .analysis import defences, plane_of, resistance, win_of
from .core import shortest_forced_win
from .errors import QueryTimeout
from .notation import CellNames
from .position import Game, Position, other
from .wording import counted, listed

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
    """``'; but X threatens a forced win in 6 moves (...): play 16 to stop it'``, or '' when the opponent has none.

    >>> from qubic_logic.notation import parse_position
    >>> warning(parse_position('1-2,22-52,27'), CellNames('number'))
    '; but X threatens a forced win in 6 moves in plane 17 (17-32,43-64,11-59,16-6,49-33,38): play 6 to stop it (or 16, 17, 32, 38, 43, 49 or 64)'
    >>> warning(parse_position('moves:0,5,1,47,2,58,4,61,8'), CellNames('index'))
    '; and X wins by force whatever O plays, in 1 move at most'
    """
    them = other(position.to_move)
    threat = win_of(position, them)
    if threat.length is None:
        return ""
    cell = names.cell
    stops = defences(position)
    if not stops:
        return f"; and {_inevitable(them, position.to_move, resistance(position) or threat.length)}"
    more = f" (or {listed([cell(c) for c in stops[1:]])})" if stops[1:] else ""
    return f"; but {_threat(them, threat)} ({names.line(threat.sequence)}): play {cell(stops[0])} to stop it{more}"


def _threat(them: str, threat) -> str:
    plane = plane_of(threat)
    return (f"{them.upper()} threatens a forced win in {counted(threat.length, 'move')}"
            + (f" in plane {plane}" if plane else ""))


def _inevitable(them: str, mover: str, length: int) -> str:
    return f"{them.upper()} wins by force whatever {mover.upper()} plays, in {counted(length, 'move')} at most"


def verdict(analysis: dict, names: CellNames) -> str:
    """One sentence on a position's forced wins, from :func:`~qubic_logic.analysis.analyse`'s answer.

    >>> from qubic_logic.analysis import analyse
    >>> from qubic_logic.notation import parse_position
    >>> verdict(analyse(parse_position('1-2,22-52,27')), CellNames('number'))
    'X threatens a forced win in 6 moves in plane 17; O stops it only with 6, 16, 17, 32, 38 or 3 more.'
    >>> verdict(analyse(parse_position('1-2,22-52,27-4')), CellNames('number'))
    'X to move wins by force in 6 moves: 17 starts it.'
    """
    if analysis["over"]:
        return "The game is over."
    mover = analysis["to_move"]
    them = other(mover)
    mine, theirs = analysis[mover], analysis[them]
    if mine["win_length"]:
        return (f"{mover.upper()} to move wins by force in {counted(mine['win_length'], 'move')}: "
                f"{names.cell(mine['win'][0])} starts it.")
    if theirs["win_length"] is None:
        return "Neither side has a forced win by threat sequence."
    if not analysis["defences"]:
        return _inevitable(them, mover, analysis["resistance"] or theirs["win_length"]) + "."
    plane = f" in plane {theirs['plane']}" if theirs["plane"] else ""
    return (f"{them.upper()} threatens a forced win in {counted(theirs['win_length'], 'move')}{plane}; "
            f"{mover.upper()} stops it only with {listed([names.cell(c) for c in analysis['defences']], limit=5)}.")
