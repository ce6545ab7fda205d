"""``mcdaniel``: McDaniel's game-playing program (seed 003, ch. IV, Fig. 28).

Source: J. W. McDaniel (1975), seed ``003_281b7b4dfe1e32ad.txt``: the
fixed first two moves (L378, L715), the play loop (L715-727), WHIZ
(L662-707, :mod:`~qubic_logic.players.whiz`), GENEX and DENEM (L611-613,
L727), planar traps and their blocking (L396-605, Tables II and IV).

>>> from qubic_logic.notation import parse_mcdaniel
>>> from qubic_logic.position import Game
>>> McDaniel().choose(Game(parse_mcdaniel('1-2,22-4'))).cell + 1      # "DENEM chose 27" (L611)
27
"""

from __future__ import annotations

from ..bitboard import threat_cells
from ..geometry import LINE_MASKS, LINES_THROUGH, PLANE_MASKS, PLANES_THROUGH, cells_of
from ..planes import PLANAR_PRIMES, planar_cell, planar_force, plane_counts
from ..errors import QubicError
from ..position import Game, other
from .base import Move, register
from .citrenbaum_pdp4 import SEVEN_FILE_CELLS
from .stored_force import StoredForce, sequence_move
from .stored_games import disk as stored_disk
from .whiz import Whiz

CUBIC_PRIMES: tuple[int, ...] = SEVEN_FILE_CELLS
"""McDaniel's 16 prime cells 1, 4, 13, 16, 22, 23, 26, 27, 38, 39, 42, 43, 49, 52, 61, 64 (L221)."""


def planar_traps(a: int, d: int) -> list[int]:
    """Planes where ``a`` "commands a plane from which he can force a win" (L611).

    A planar trap (L396, L485-487): ``a`` holds three or more cells of the
    plane, ``d`` at most one, and ``a`` can force a win within the context of
    the plane. McDaniel matched two patterns (Fig. 20); we run the planar
    search on the isolated plane, which agrees with all 28 situations of his
    Table IV.

    >>> from qubic_logic.notation import parse_position
    >>> p = parse_position('1-2,22-4,27-3')
    >>> [plane + 1 for plane in planar_traps(p.x, p.o)]
    [17]
    """
    traps = []
    for plane in range(18):
        own, opp = plane_counts(a, d, plane)
        if own >= 3 and opp <= 1 and planar_force(a, d, plane, isolated=True) is not None:
            traps.append(plane)
    return traps


def denem_key(a: int, d: int, cell: int) -> tuple[int, int, int, int]:
    """DENEM's preference for ``cell``: "a plane that contains other markers for X
    and as few markers for O as is possible" (L611), "for the express purpose of
    developing a planar trap" (L727).

    First the planes through ``cell`` where the move leaves three or more own
    planar primes against at most one opponent cell (traps in the making, Table IV);
    then own cells counted over the planes through ``cell`` that hold no opponent
    cell; then fewer opponent cells over all its planes; then the lower cell.
    The first term is our reading: it is the one of those we tried that gives all
    four of the program's printed choices (27 after 1-2,22-4, L611; 26 after 27-16,
    L625; 26 after 27-17 and 27-32, Appendix C L1201, L1220).
    """
    after = a | 1 << cell
    traps = sum(1 for p in PLANES_THROUGH[cell]
                if (after & PLANAR_PRIMES[p]).bit_count() >= 3 and (d & PLANE_MASKS[p]).bit_count() <= 1)
    own = sum((a & PLANE_MASKS[p]).bit_count() for p in PLANES_THROUGH[cell] if not d & PLANE_MASKS[p])
    opp = sum((d & PLANE_MASKS[p]).bit_count() for p in PLANES_THROUGH[cell])
    return traps, own, -opp, -cell


def _makes_three(a: int, d: int, cell: int) -> bool:
    return any(
        not LINE_MASKS[i] & d and (LINE_MASKS[i] & a).bit_count() == 2 for i in LINES_THROUGH[cell]
    )


def denem(a: int, d: int) -> Move:
    """DENEM's "stay away" move: the best prime cell by :func:`denem_key` (L611-613, L727).

    It builds planar traps, so cells that only make a three in a row (a force
    the defender simply blocks) are passed over; with no such prime left it
    takes any vacant cell on the same terms.
    """
    vacant = [c for c in range(64) if not (a | d) >> c & 1]
    quiet = [c for c in vacant if not _makes_three(a, d, c)] or vacant
    pool = [c for c in quiet if c in CUBIC_PRIMES] or quiet
    cell = max(pool, key=lambda c: denem_key(a, d, c))
    after = a | 1 << cell
    plane = max(
        PLANES_THROUGH[cell],
        key=lambda p: ((after & PLANAR_PRIMES[p]).bit_count() >= 3 and (d & PLANE_MASKS[p]).bit_count() <= 1,
                       not d & PLANE_MASKS[p], (a & PLANE_MASKS[p]).bit_count()),
    )
    own, opp = (a & PLANE_MASKS[plane]).bit_count(), (d & PLANE_MASKS[plane]).bit_count()
    kind = "prime cell" if cell in CUBIC_PRIMES else "cell"
    return Move(cell, f"DENEM: stays away: {kind} in plane {plane + 1} (own cells {own}, opponent's {opp})")


def genex(a: int, d: int) -> Move:
    """GENEX: block the opponent's planar traps, else DENEM (L611, L727).

    "By placing a marker in any available planar prime, X can block the win"
    (L605): among the trap planes' free planar primes, the one that leaves
    the fewest traps, then DENEM's preference.
    """
    traps = planar_traps(d, a)
    if not traps:
        return denem(a, d)
    free = ~(a | d)
    best = None
    for plane in traps:
        for cell in cells_of(PLANAR_PRIMES[plane] & free):
            key = (-len(planar_traps(d, a | 1 << cell)), denem_key(a, d, cell))
            if best is None or key > best[0]:
                best = (key, cell, plane)
    if best is None:  # no planar prime left: any cell of the first trap plane
        plane = traps[0]
        cell = max(cells_of(PLANE_MASKS[plane] & free), key=lambda c: denem_key(a, d, c))
        best = ((0, denem_key(a, d, cell)), cell, plane)
    _, cell, plane = best
    return Move.citing(cell, f"GENEX: blocks a planar trap in plane {plane + 1} at {{0}} "
                             f"(planar cell {planar_cell(plane, cell)})", cell)


DISK_SWITCH = {"on": True, "off": False}


@register("mcdaniel", "McDaniel 1975: fixed opening 1 then 22 (13), stored games, WHIZ force search, GENEX/DENEM")
class McDaniel:
    """McDaniel's program (seed 003 L715-727), playing either side.

    1. Continue a WHIZ solution while the opponent blocks as planned
       (a stored solution is "played as specified", L621).
    2. As X, the fixed opening: cell 1, then 22 — or 13 if O took 22 (L378).
    3. The disk: if the game so far is one of the stored games of Appendix C,
       play the stored move (L715-721; :mod:`~qubic_logic.players.stored_games`).
       ``disk='off'`` plays without it, WHIZ alone.
    4. WHIZ: if the side to move has a forced win by forces and blocks, start it.
    5. Block the opponent's three in a row (the program only considers moves
       that "block direct threats, build traps or force", L374).
    6. GENEX: block a planar trap of the opponent; else DENEM's stay-away move.

    WHIZ runs within ``time_limit`` seconds per move (default 1.0). As O the
    same loop runs from O's side (the disk holds X's games only).
    """

    name = "mcdaniel"

    def __init__(self, seed: int | None = None, time_limit: float | None = 1.0, disk: str | bool = "on") -> None:
        if isinstance(disk, str) and disk.lower() in DISK_SWITCH:
            disk = DISK_SWITCH[disk.lower()]
        if not isinstance(disk, bool):
            raise QubicError(f"mcdaniel: disk={disk!r}; expected disk=on or disk=off")
        self.time_limit = time_limit
        self.disk = stored_disk() if disk else None
        self.memory = StoredForce()

    def choose(self, game: Game) -> Move:
        planned = self.memory.continuation(game)
        if planned is not None:
            return planned
        position = game.position
        fixed = self._opening(game)
        if fixed is not None:
            return fixed
        stored = self.disk.lookup(game.moves) if self.disk is not None and position.to_move == "x" else None
        if stored is not None:
            return sequence_move(f"from the stored games (Appendix C, record at seed line L{stored.line}): "
                                 "{line} (a win in {moves})", stored.remaining)
        me = position.to_move
        a, d = position.mask(me), position.mask(other(me))
        solution = Whiz(a, d, self.time_limit).solve()
        if solution is not None:
            if len(solution) == 1:
                return Move.citing(solution[0], "makes four in a row at {0}", solution[0])
            self.memory.store(game.moves, solution, "the WHIZ solution")
            return sequence_move("WHIZ: starts a forced win: {line} (a win in {moves})", solution)
        theirs = threat_cells(d, a)
        if theirs:
            cell = (theirs & -theirs).bit_length() - 1
            return Move.citing(cell, "blocks a three in a row at {0}", cell)
        return genex(a, d)

    @staticmethod
    def _opening(game: Game) -> Move | None:
        moves = game.moves
        if not moves:
            return Move.citing(0, "opens in cell {0} (a prime cell)", 0)
        if len(moves) == 2:
            if moves[1] == 21:
                return Move.citing(12, "second move: {0}, since O took {1}", 12, 21)
            return Move.citing(21, "second move: {0} (cells {1} and {0} survive evisceration)", 21, 0)
        return None


__all__ = ["CUBIC_PRIMES", "McDaniel", "denem", "denem_key", "genex", "planar_traps"]
