"""``citrenbaum-general``: Citrenbaum's general move strategy (seed 000, ch. 8, Fig. 8.1).

Source: R. L. Citrenbaum (1965), seed ``000_1d713e51dcd9787b.txt``:
openings L2225-2254, the order offence / defence / building L2288-2298,
the boxes of Fig. 8.1 L2301-2350, "build a future threat" L2274-2286;
with the planar terms of ch. 6-7 (XWATCH cells L1847-1874, L2263-2268;
plane-plane TFS L2187-2203).

>>> from qubic_logic.position import Game
>>> CitrenbaumGeneral().choose(Game([0])).cell        # mirror image of the opening corner
63
"""

from __future__ import annotations

from ..geometry import LINE_MASKS, LINES_THROUGH, PLANE_MASKS, PLANES_THROUGH
from ..planes import (
    PLANE_LINE_MASKS,
    corners_first,
    excess,
    new_threats,
    planar_force,
    two_zero_cells,
    watch_cells,
)
from ..position import Game, Position, other
from .base import Move, register
from .citrenbaum_1107 import ForcingCitrenbaum, excess_planes
from .citrenbaum_pdp4 import (
    SEVEN_FILE_CELLS,
    block_related_pair,
    elementary_step,
    own_related_pair,
)
from .stored_force import sequence_move

Threat = tuple[str, tuple[int, ...]]
"""A planar threat: its description (e.g. ``'plane 17'``) and its forcing sequence."""


def opening(game: Game) -> Move | None:
    """Each side's first move (L2225-2254).

    First player: a cell in seven files and six planes (the first, cell 0).
    Second player against such a cell: its mirror image through the centre of
    the cube, which "would block one of the seven 0-1 files and generate six
    1-0 files"; otherwise an "offensive" seven-file cell that blocks no 0-1 file.

    >>> opening(Game([5])).cell           # 5 lies in four files: take a corner off its files
    3
    """
    moves = game.moves
    if not moves:
        return Move(SEVEN_FILE_CELLS[0], "opens on a cell in seven files and six planes")
    if len(moves) != 1:
        return None
    first = moves[0]
    if first in SEVEN_FILE_CELLS:
        return Move(63 - first, "mirror image of the opening: blocks one 0-1 file, makes six 1-0 files")
    lines = set(LINES_THROUGH[first])
    cell = next(c for c in SEVEN_FILE_CELLS if not lines & set(LINES_THROUGH[c]))
    return Move(cell, "offensive opening: seven 1-0 files, no 0-1 file blocked")


def planar_threats(a: int, d: int) -> list[Threat]:
    """Fig. 8.1 (b)-(d) for ``a``: every plane yielding a terminal forcing sequence.

    (b) an excess-three (or more) plane with a planar TFS; (c) an excess-two
    plane with an XWATCH cell, and (d) an excess-one plane with two, from
    which moving to XWATCH cells (forcing the reply out of the plane) leads
    to a TFS. In that order, then by excess and plane number.
    """
    found: list[Threat] = []
    done = set()
    for plane in excess_planes(a, d, 3):
        sequence = planar_force(a, d, plane)
        if sequence is not None:
            found.append((f"excess-three plane {plane + 1}", sequence))
            done.add(plane)
    for plane in excess_planes(a, d, 1):
        watch = watch_cells(a, d, plane).bit_count()
        if plane in done:
            continue
        if watch >= 1 and excess(a, d, plane) >= 2 or watch >= 2:
            sequence = planar_force(a, d, plane, watch_moves=True)
            if sequence is not None:
                found.append((f"plane {plane + 1} by its XWATCH cells", sequence))
    return found


def plane_plane(a: int, d: int) -> Threat | None:
    """Fig. 8.1 (g), L2187-2203: forces in an excess-three plane that make an
    intersecting excess-two plane (without XWATCH cells) an excess-three plane
    yielding a TFS. One force in the first plane suffices to add the missing cell."""
    for first in excess_planes(a, d, 3):
        for second in excess_planes(a, d, 2):
            if second == first or excess(a, d, second) != 2 or watch_cells(a, d, second):
                continue
            shared = two_zero_cells(a, d, PLANE_LINE_MASKS[first]) & PLANE_MASKS[second]
            for move in corners_first(shared, first):
                threats = new_threats(a | 1 << move, d, move)
                if threats.bit_count() != 1 or threats & PLANE_MASKS[second]:
                    continue
                reply = threats.bit_length() - 1
                if new_threats(d | threats, a | 1 << move, reply):
                    continue
                rest = planar_force(a | 1 << move, d | threats, second)
                if rest is not None:
                    return f"planes {first + 1} and {second + 1}", (move, reply, *rest)
    return None


def block_threats(a: int, d: int, threats: list[Threat]) -> Move:
    """Fig. 8.1 (e): block the opponent's threats; "if all cannot be blocked, block the shortest".

    The candidate blocks are the first cells of the threats; the one leaving
    the opponent the fewest threats wins, then the one of the shortest threat.
    """
    ranked = []
    for name, sequence in sorted(threats, key=lambda t: len(t[1])):
        left = len(planar_threats(d, a | 1 << sequence[0]))
        ranked.append((left, len(sequence), sequence[0], name))
    left, _, cell, name = min(ranked)
    if len(threats) == 1:
        return Move(cell, f"blocks a possible TFS in {name}")
    if left == 0:
        return Move(cell, f"blocks all {len(threats)} possible TFSs (one in {name})")
    return Move(cell, f"cannot block all {len(threats)} possible TFSs; blocks the shortest, in {name}")


def _building_cells(a: int, d: int) -> list[tuple[int, int]]:
    """Vacant cells forming a new 2-0 file and no 3-0 file, with how many 2-0 files they make."""
    out = []
    taken = a | d
    for cell in range(64):
        if taken >> cell & 1:
            continue
        counts = [(LINE_MASKS[i] & a).bit_count() for i in LINES_THROUGH[cell] if not LINE_MASKS[i] & d]
        if 2 not in counts and 1 in counts:
            out.append((cell, counts.count(1)))
    return out


def build(a: int, d: int) -> Move | None:
    """Fig. 8.1 last box, "build a future threat" (L2274-2286).

    First possibility: a new 2-0 file (no 3-0 file) in an excess plane,
    preferring the intersection of several excess planes. Second, defensive:
    a new 2-0 file while moving into a plane where the opponent has the excess.
    Ties: more new 2-0 files, then a seven-file cell, then the lowest cell.
    """
    candidates = _building_cells(a, d)
    for mine, text in ((True, "in excess plane"), (False, "moving into the opponent's excess plane")):
        best = None
        for cell, files in candidates:
            planes = [
                p for p in PLANES_THROUGH[cell] if (excess(a, d, p) if mine else excess(d, a, p)) >= 1
            ]
            if planes:
                key = (len(planes), files, cell in SEVEN_FILE_CELLS, -cell)
                if best is None or key > best[0]:
                    best = (key, cell, planes)
        if best is not None:
            _, cell, planes = best
            names = ", ".join(str(p + 1) for p in planes)
            return Move(cell, f"builds a future threat: new 2-0 file {text}{'s' * (len(planes) > 1)} {names}")
    return None


@register("citrenbaum-general", "Citrenbaum 1965 ch. 8: the general move strategy of Fig. 8.1")
class CitrenbaumGeneral(ForcingCitrenbaum):
    """Citrenbaum's general move strategy, Fig. 8.1 (seed 000 L2209-2350).

    1. Openings (first move of each side, L2225-2254).
    2. Continue a stored TFS while the opponent blocks as planned.
    3. Make a 4-0 file; block a 0-3 file.
    4. Offence: (a) a related pair; (b) an excess-three plane with a TFS;
       (c)/(d) a TFS reached by moving to XWATCH cells of an excess-two plane
       (or an excess-one plane with two of them); (g) a plane-plane TFS.
    5. Defence (e): the opponent's related pair, then his planar threats
       (b)-(d): block them all if one cell can, else the shortest.
    6. Build a future threat; 7. preset list (seven-file cells first).

    ``preset`` and ``seed`` as in ``citrenbaum-pdp4``; ``time_limit`` is
    accepted for a uniform interface (the planar searches need no budget).
    """

    name = "citrenbaum-general"

    def _strategy(self, game: Game, position: Position) -> Move:
        first = opening(game)
        if first is not None:
            return first
        return (
            elementary_step(position, self.concede)
            or own_related_pair(position)
            or self._offence(game, position)
            or self._defence(position)
            or build(*self._masks(position))
            or Move(self.preset.move(position), "preset move")
        )

    @staticmethod
    def _masks(position: Position) -> tuple[int, int]:
        me = position.to_move
        return position.mask(me), position.mask(other(me))

    def _offence(self, game: Game, position: Position) -> Move | None:
        a, d = self._masks(position)
        threats = planar_threats(a, d)
        found = threats[0] if threats else plane_plane(a, d)
        if found is None:
            return None
        name, sequence = found
        self.memory.store(game.moves, sequence, f"the terminal forcing sequence in {name}")
        return sequence_move(f"starts a terminal forcing sequence in {name}: {{line}} (a win in {{moves}})",
                             sequence)

    def _defence(self, position: Position) -> Move | None:
        a, d = self._masks(position)
        pair = block_related_pair(position, self.concede)
        if pair is not None:
            return pair
        threats = planar_threats(d, a)
        return block_threats(a, d, threats) if threats else None


__all__ = ["CitrenbaumGeneral", "block_threats", "build", "opening", "plane_plane", "planar_threats"]
