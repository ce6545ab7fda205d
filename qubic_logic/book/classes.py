"""Classes of positions up to symmetry, one move apart: a position's children and a class's parents.

A book holds one position per class (:func:`~qubic_logic.book.store.canonical_key`);
its search and its propagation walk these links.

>>> from qubic_logic.position import Position
>>> len(children(Position.from_cells([0])))      # O's replies to X's corner, up to symmetry
12
"""

from __future__ import annotations

from ..errors import QubicError
from ..geometry import cells_of
from ..position import Position, other
from .store import canonical_key

Key = tuple[int, int]  # canonical (x, o)


def children(position: Position) -> dict[Key, int]:
    """The classes of positions after one move, each with the first move (in ``position``'s frame) reaching it.

    >>> len(children(Position())), len(children(Position.from_cells([0])))
    (2, 12)
    """
    found: dict[Key, int] = {}
    if position.is_over:
        return found
    for cell in position.legal_moves():
        x, o, _ = canonical_key(position.play(cell))
        found.setdefault((x, o), cell)
    return found


def parents(key: Key) -> set[Key]:
    """The classes of positions one move before the class ``key``: each stone of the side that moved last
    taken back (canonical masks).

    >>> len(parents(canonical_key(Position.from_cells([0, 21]))[:2]))   # O's one stone: the corner alone
    1
    """
    position = Position(*key)
    mover = other(position.to_move)
    found: set[Key] = set()
    for cell in cells_of(position.mask(mover)):
        bit = ~(1 << cell)
        try:
            before = Position(key[0] & bit, key[1]) if mover == "x" else Position(key[0], key[1] & bit)
        except QubicError:  # the other side's four stays: no game reaches ``key`` that way
            continue
        found.add(canonical_key(before)[:2])
    return found
