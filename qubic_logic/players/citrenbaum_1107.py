"""``citrenbaum-1107``: Citrenbaum's planar strategy as the UNIVAC 1107 program played it.

Source: R. L. Citrenbaum (1965), seed ``000_1d713e51dcd9787b.txt``: the
planar strategy of ch. 6-7 (excess planes L1597-1602, XWATCH/OWATCH
L1840-1874 and L2263-2268, the search technique and Fig. 6.10 L2011-2066),
the program's stated capabilities (ch. 9, L2432-2446) and its ALGOL listing
in Appendix V (per-move order L5040-5480, planar search L5485-6006, TRY1
L5753-5757, TRY2 L5586-5595, PRESET L5336-5352).

>>> from qubic_logic.position import Game
>>> Citrenbaum1107().choose(Game()).explanation
'preset move'
"""

from __future__ import annotations

from ..geometry import PLANES
from ..planes import PLANAR_FILES, excess, planar_force, watch_cells
from ..position import Game, Position, other
from .base import Move, register
from .citrenbaum_pdp4 import (
    PresetList,
    block_related_pair,
    elementary_step,
    first_major_cell,
    own_related_pair,
)
from .stored_force import StoredForce, sequence_move

PRESET_PLIES = 4
"""The first four plies are preset moves ("IF OPPMOV LSS 5 THEN GO TO PRESET", L5062)."""


def excess_planes(a: int, d: int, least: int = 1) -> list[int]:
    """Planes where ``a`` has an excess of at least ``least``, largest excess first.

    The program scanned its 17 plane types MX/MY in list order (L5448-5459);
    the lists are illegible, so this order (excess, then plane number) is ours.

    >>> from qubic_logic.notation import parse_position
    >>> p = parse_position('1-2,22-4,27-3')
    >>> excess_planes(p.x, p.o, 3)
    [16]
    """
    planes = [p for p in range(18) if excess(a, d, p) >= least]
    return sorted(planes, key=lambda p: (-excess(a, d, p), p))


def planar_offence(a: int, d: int) -> tuple[int, tuple[int, ...]] | None:
    """The first excess-three (or more) plane with a planar terminal forcing sequence, and it."""
    for plane in excess_planes(a, d, 3):
        sequence = planar_force(a, d, plane)
        if sequence is not None:
            return plane, sequence
    return None


def try1(a: int, d: int, planes: list[int]) -> Move | None:
    """TRY1: move to an XWATCH cell of the first recorded plane that has one (L5753-5757)."""
    for plane in planes:
        watch = watch_cells(a, d, plane)
        if watch:
            cell = next(c for c in PLANES[plane] if watch >> c & 1)
            return Move(
                cell,
                f"makes a 3-0 file in hopes of starting a forcing sequence "
                f"(XWATCH cell of plane {plane + 1})",
            )
    return None


def try2(a: int, d: int, planes: list[int]) -> Move | None:
    """TRY2: make a planar 1-0 file a 2-0 file in the first recorded plane with one (L5586-5595)."""
    for plane in planes:
        for number, lm in enumerate(PLANAR_FILES[plane], start=1):
            if not lm & d and (lm & a).bit_count() == 1:
                cell = next(c for c in PLANES[plane] if lm >> c & 1 and not a >> c & 1)
                return Move(
                    cell, f"makes a 2-0 file in a promising square (plane {plane + 1}, file {number})"
                )
    return None


class ForcingCitrenbaum:
    """What the UNIVAC 1107 program and the general strategy share: the preset list,
    ``concede``, and a stored terminal forcing sequence that is continued first;
    otherwise ``_strategy`` (each program's own) chooses."""

    def __init__(
        self,
        seed: int | None = None,
        preset: str = "seven-file",
        concede: bool = False,
        time_limit: float | None = None,
    ) -> None:
        self.preset = PresetList(preset, seed)
        self.concede = concede
        self.memory = StoredForce()

    def choose(self, game: Game) -> Move:
        self.preset.follow(game)
        planned = self.memory.continuation(game)
        if planned is not None:
            return planned
        return self._strategy(game, game.position)

    def _strategy(self, game: Game, position: Position) -> Move:
        raise NotImplementedError


@register("citrenbaum-1107", "Citrenbaum 1965 ch. 6-7, App. V: planar strategy of the UNIVAC 1107")
class Citrenbaum1107(ForcingCitrenbaum):
    """Citrenbaum's UNIVAC 1107 program, per move in the order of its listing (digest §5).

    1. Continue a stored terminal forcing sequence while the opponent blocks as planned.
    2. Preset moves for the first four plies.
    3. Elementary strategy (as the PDP-4): make a 4-0 file, block a 0-3 file,
       play an own related pair; remember an opponent related pair (RELPR).
    4. Offence: in each excess-three (or more) plane, Citrenbaum's planar
       search with XWATCH and OWATCH provisions; a hit starts the sequence.
    5. Block the remembered related pair.
    6. Defence: the same search for the opponent; occupy the first cell of
       his sequence ("blocked a possible force").
    7. TRY1 in the planes where it has an excess: an XWATCH cell.
    8. TRY2 there: turn a planar 1-0 file into a 2-0 file.
    9. Preset move.

    ``preset``: ``'seven-file'`` (default; the real PTABLE is illegible; ``seed``
    is the game number GAME that offsets the scan) or ``'random'`` with
    ``seed``; ``concede`` as in ``citrenbaum-pdp4``.
    ``time_limit`` is accepted for a uniform interface; the planar searches
    look at 16 cells and need no budget.
    """

    name = "citrenbaum-1107"

    def _strategy(self, game: Game, position: Position) -> Move:
        if len(game.moves) < PRESET_PLIES:
            return Move(self.preset.move(position), "preset move")
        return self._planar_move(game, position)

    def _planar_move(self, game: Game, position: Position) -> Move:
        me = position.to_move
        a, d = position.mask(me), position.mask(other(me))
        step = elementary_step(position, self.concede) or own_related_pair(position)
        if step is not None:
            return step
        relpr = first_major_cell(d, a) is not None
        found = planar_offence(a, d)
        if found is not None:
            plane, sequence = found
            self.memory.store(game.moves, sequence, f"the terminal forcing sequence in plane {plane + 1}")
            return sequence_move(f"starts a terminal forcing sequence in plane {plane + 1}: {{line}} "
                                 "(a win in {moves})", sequence)
        if relpr:
            return block_related_pair(position, self.concede)  # type: ignore[return-value]
        theirs = planar_offence(d, a)
        if theirs is not None:
            plane, sequence = theirs
            return Move(sequence[0], f"blocks a possible force in plane {plane + 1}")
        recorded = excess_planes(a, d)
        return (
            try1(a, d, recorded)
            or try2(a, d, recorded)
            or Move(self.preset.move(position), "preset move")
        )


__all__ = ["Citrenbaum1107", "ForcingCitrenbaum", "excess_planes", "planar_offence", "try1", "try2"]
