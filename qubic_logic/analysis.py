"""What both sides threaten in a position: threats, forcing moves, forced wins, checks, and the defence.

A *forced win* is the shortest win by threat sequence (docs/design.md §3),
found by the native core. For the side not to move it is the win it
*threatens*: the one it would have if it were its turn, which the side to move
must stop. A *check* is a move after which the mover threatens such a win, so
that the opponent must answer it. :func:`defences` are the moves of the side
to move after which the opponent has no forced win: after ``1-2,22-52,27``
(McDaniel's numbering) X threatens a six-move win in plane 17, and O must
play one of a few cells to stop it.

>>> from qubic_logic.notation import parse_position
>>> p = parse_position('1-2,22-52,27')
>>> win_of(p, 'x').length, win_of(p, 'o').length
(6, None)
>>> stops = defences(p)
>>> 0 < len(stops) < 10 and all(win_of(p.play(c), 'x').length is None for c in stops)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import ForcedWin, core_module, threats
from .geometry import PLANE_MASKS, cells_of, mask_of
from .position import Position, Side, other

SEARCH_SECONDS = 1.0  # each search; one that runs out counts as "no forced win found"


def win_of(position: Position, side: Side, time_limit: float = SEARCH_SECONDS) -> ForcedWin:
    """The shortest forced win of ``side``, as if it were its turn (length None: none found in time)."""
    m = core_module()
    a, d = position.mask(side), position.mask(other(side))
    length, seq, nodes, _ = m.forced_win(a, d, 0, time_limit, 0)
    if length < 0:  # out of time: nothing proven
        return ForcedWin("native", side, None, (), None, nodes)
    return ForcedWin("native", side, length or None, tuple(seq), None, nodes)


def plane_of(win: ForcedWin) -> int | None:
    """The plane (1..18, McDaniel's Table I numbering) holding every attacker move of a forced win: a
    planar trap; None when the win leaves the plane (or there is none).

    >>> from qubic_logic.notation import parse_position
    >>> plane_of(win_of(parse_position('1-2,22-52,27'), 'x'))
    17
    """
    attacker = mask_of(win.sequence[0::2])
    if not win.sequence:
        return None
    return next((n + 1 for n, m in enumerate(PLANE_MASKS) if attacker & m == attacker), None)


def defences(position: Position, time_limit: float = SEARCH_SECONDS) -> list[int]:
    """The moves of the side to move after which the opponent has no forced win (all of them when it has
    none now; an empty list when nothing stops it). Moves that stop it *and* threaten a forced win of their
    own come first (the shorter the threat, the earlier), then by cell."""
    them = other(position.to_move)
    if win_of(position, them, time_limit).length is None:
        return position.legal_moves()

    def stops(cell: int) -> bool:
        after = position.play(cell)
        return after.winner == position.to_move or (
            not after.is_over and win_of(after, them, time_limit).length is None)

    def counter(cell: int) -> tuple[int, int]:
        after = position.play(cell)
        own = 0 if after.is_over else win_of(after, position.to_move, time_limit).length
        return (99 if own is None else own), cell

    return sorted((c for c in position.legal_moves() if stops(c)), key=counter)


def resistance(position: Position, time_limit: float = SEARCH_SECONDS) -> int | None:
    """When nothing the side to move plays stops the opponent's forced win: the most moves the opponent then
    needs, against the longest defence (None when some move stops it, or it has none).

    >>> from qubic_logic.notation import parse_position
    >>> resistance(parse_position('moves:0,16,1,17,2'))  # O blocks X's one threat at 3
    >>> resistance(parse_position('moves:0,5,1,47,2,58,4,61,8'))  # two threats, 3 and 12: O blocks one
    1
    """
    them, worst = other(position.to_move), 0
    for c in position.legal_moves():
        after = position.play(c)
        if after.winner == position.to_move:
            return None
        length = win_of(after, them, time_limit).length
        if length is None:
            return None
        worst = max(worst, length)
    return worst or None


def checks(position: Position, time_limit: float = SEARCH_SECONDS) -> dict[int, int]:
    """The moves of the side to move after which it threatens a forced win: move -> that win's length.

    >>> from qubic_logic.notation import parse_position
    >>> checks(parse_position('moves:0,16,1,17'))[2]
    1
    """
    side, found = position.to_move, {}
    for c in position.legal_moves():
        after = position.play(c)
        if after.is_over:
            continue
        win = win_of(after, side, time_limit)
        if win.length is not None:
            found[c] = win.length
    return found


@dataclass(frozen=True)
class SideAnalysis:
    """One side's threats (cells completing its three), forcing moves, forced win and checks."""

    side: Side
    threats: list[int]
    forcing_moves: list[int]
    win: ForcedWin
    checks: dict[int, int]

    def to_json(self) -> dict:
        """The side's analysis as a JSON object (cells 0..63)."""
        return {"side": self.side, "threats": self.threats, "forcing_moves": self.forcing_moves,
                "win_length": self.win.length, "win": list(self.win.sequence), "plane": plane_of(self.win),
                "checks": [{"move": c, "length": n} for c, n in sorted(self.checks.items(), key=lambda i: i[1])]}


def analyse(position: Position, time_limit: float = SEARCH_SECONDS) -> dict:
    """Both sides' analysis, and the moves that stop the opponent's forced win (JSON-ready).

    Checks are listed for the side to move only (the other side has no move to make), and only when it
    has no forced win of its own (then it plays the win). ``resistance``: when no defence stops the
    opponent's forced win, the most moves it then needs (:func:`resistance`).
    """
    t = threats(position)
    mover = position.to_move
    sides = {}
    for side in ("x", "o"):
        win = win_of(position, side, time_limit)
        asked = side == mover and not position.is_over and win.length is None  # a mover who wins needs none
        sides[side] = SideAnalysis(
            side, cells_of(t.of(side)), cells_of(t.forcing_x if side == "x" else t.forcing_o), win,
            checks(position, time_limit) if asked else {}).to_json()
    threatened = not position.is_over and sides[other(mover)]["win_length"] is not None
    stops = defences(position, time_limit) if threatened else []
    return {"to_move": mover, "over": position.is_over, "x": sides["x"], "o": sides["o"], "defences": stops,
            "resistance": resistance(position, time_limit) if threatened and not stops else None}
