"""The 192 automorphisms of the Qubic board and canonical forms.

The group is generated, not typed in: the 48 rotations and reflections of
the cube (permute the three coordinates, flip any of them: v -> 3-v)
composed with the four maps McDaniel applies to every coordinate at once
(seed 003, ch. III): identity, *evisceration* 0123->1032, *scramble*
0123->0213, and their product. Tests check closure and that every map
sends lines to lines.

A transform is a tuple ``perm`` of 64 cells with ``perm[c]`` the image of
cell ``c``. Transform 0 is the identity.

Canonical form: among the 192 images of a position, the one with the
least ``(x_mask, o_mask)`` pair, comparing the integer masks (cell 0 is
the lowest bit). Ties (symmetric positions) take the lowest transform index.

>>> len(TRANSFORMS)
192
>>> from qubic_logic.position import Position
>>> canonical(Position.from_cells([63])).position.x
1
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations, product
from typing import TYPE_CHECKING

from .geometry import CELLS, cell_at, coords
from .native import NATIVE

if TYPE_CHECKING:
    from .position import Position

Transform = tuple[int, ...]

IDENTITY_MAP = (0, 1, 2, 3)
EVISCERATION = (1, 0, 3, 2)
SCRAMBLE = (0, 2, 1, 3)
COORDINATE_MAPS: tuple[tuple[int, ...], ...] = (
    IDENTITY_MAP,
    EVISCERATION,
    SCRAMBLE,
    tuple(SCRAMBLE[EVISCERATION[v]] for v in range(4)),
)


def _generate() -> tuple[Transform, ...]:
    seen: dict[Transform, None] = {}
    for cmap in COORDINATE_MAPS:
        for order in permutations(range(3)):
            for flips in product((False, True), repeat=3):
                perm = []
                for c in CELLS:
                    v = [cmap[k] for k in coords(c)]
                    w = [3 - v[order[i]] if flips[i] else v[order[i]] for i in range(3)]
                    perm.append(cell_at(*w))
                seen.setdefault(tuple(perm), None)
    return tuple(seen)


TRANSFORMS: tuple[Transform, ...] = _generate()
INVERSES: tuple[int, ...] = tuple(
    TRANSFORMS.index(tuple(sorted(CELLS, key=lambda c: t[c]))) for t in TRANSFORMS
)

def _byte_tables(t: Transform) -> tuple[tuple[int, ...], ...]:
    """Eight 256-entry tables mapping one byte of a mask to its image under ``t``."""
    tables = []
    for k in range(8):
        table = [0] * 256
        for byte in range(1, 256):
            low = byte & -byte
            table[byte] = table[byte ^ low] | 1 << t[8 * k + low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)


_BYTE_TABLES: list[tuple[tuple[int, ...], ...] | None] = [None] * len(TRANSFORMS)  # built on first use


def _build_tables(index: int) -> tuple[tuple[int, ...], ...]:
    tables = _BYTE_TABLES[index] = _byte_tables(TRANSFORMS[index])
    return tables


def map_mask(index: int, mask: int) -> int:
    """Image of a cell mask under transform ``index``.

    >>> map_mask(0, 0b101)
    5
    """
    tables = _BYTE_TABLES[index] or _build_tables(index)
    out = 0
    k = 0
    while mask:
        out |= tables[k][mask & 255]
        mask >>= 8
        k += 1
    return out


def map_cell(index: int, cell: int) -> int:
    """Image of one cell under transform ``index``.

    >>> map_cell(0, 42)
    42
    """
    return TRANSFORMS[index][cell]


@dataclass(frozen=True, slots=True)
class Canonical:
    """A canonical position and the transform that maps the original onto it."""

    position: "Position"
    transform: int

    def to_canonical(self, cell: int) -> int:
        """Map a cell of the original position into the canonical one."""
        return TRANSFORMS[self.transform][cell]

    def from_canonical(self, cell: int) -> int:
        """Map a cell of the canonical position back into the original one."""
        return TRANSFORMS[INVERSES[self.transform]][cell]


def canonical_masks(x: int, o: int) -> tuple[int, int, int]:
    """Least ``(x, o)`` image under the group and the transform reaching it.

    Computed by the native core when it is built (the same result, tie rule
    included; :func:`python_canonical_masks` is the reference).

    >>> canonical_masks(1 << 63, 0)
    (1, 0, 7)
    """
    return _canonical(x, o)


def python_canonical_masks(x: int, o: int) -> tuple[int, int, int]:
    """:func:`canonical_masks` in Python: the least image over the 192 transforms, the lowest index on ties.

    >>> python_canonical_masks(1 << 63, 0)
    (1, 0, 7)
    """
    best = (x, o, 0)
    for i in range(1, len(TRANSFORMS)):
        cx = map_mask(i, x)
        if cx > best[0]:
            continue
        co = map_mask(i, o)
        if (cx, co) < best[:2]:
            best = (cx, co, i)
    return best


_canonical = NATIVE.canonical if NATIVE is not None else python_canonical_masks


def canonical(position: "Position") -> Canonical:
    """Canonical form of a position with the transform that reaches it."""
    from .position import Position

    cx, co, index = canonical_masks(position.x, position.o)
    return Canonical(Position(cx, co), index)


def cell_orbits() -> list[list[int]]:
    """The classes of cells under the group (McDaniel: two first moves).

    >>> [len(orbit) for orbit in cell_orbits()]
    [16, 48]
    """
    orbits: list[list[int]] = []
    seen: set[int] = set()
    for c in CELLS:
        if c not in seen:
            orbit = sorted({t[c] for t in TRANSFORMS})
            seen.update(orbit)
            orbits.append(orbit)
    return orbits
